// speed_linalg.hpp - the float linear algebra of the speed features
// (speed_linalg.cpp), for speed_chroma.cpp.
#ifndef VQ_SPEED_LINALG_HPP
#define VQ_SPEED_LINALG_HPP

#include <vector>

namespace vq {
namespace speed {

constexpr double kEigenEps = 1e-6;      // EIGENVALUE_EPS

// get_1d_gaussian_kernel(size, stdev): the taps, normalised by their float sum
std::vector<float> gaussian_kernel(int size, float stdev);
// a (n x n, symmetric, overwritten) to tridiagonal form: diagonal d, subdiagonal sd
void tridiagonalise(float *a, int n, float *d, float *sd);
// the eigenvalues of the tridiagonal (d, sd) into d, by implicit QR steps
void tridiagonal_eigenvalues(float *d, float *sd, int n);
// dst (rows x cols) = x (rows x inner) * y (inner x cols), each element a float sum in k order
void mat_mul(float *__restrict dst, const float *__restrict x, const float *__restrict y, int rows,
             int inner, int cols);
// Q (n x n, H_{n-2} ... H_0) and R = Q A of a (n x n)
void qr_decompose(const float *a, int n, float *q, float *r);

}  // namespace speed
}  // namespace vq

#endif
