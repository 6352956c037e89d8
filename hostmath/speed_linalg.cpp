// speed_linalg.cpp - the float linear algebra of libvmaf v3.2.0's speed
// features (speed.c's Gaussian kernels, Householder tridiagonalisation, QR
// eigenvalues, QR decomposition), in the reference's types and order; see
// speed_linalg.hpp.  Built with -ffp-contract=off, as the reference is built
// for x86-64 baseline.
#include "speed_linalg.hpp"

#include <cmath>
#include <cstring>

namespace vq {
namespace speed {

constexpr int kEigenMaxIters = 500;     // EIGENVALUE_MAX_ITERS

namespace {

// get_gaussian_pdf(x, 0, stdev): the exponent in double, left to right
// ("-0.5 * (x - mean)/stdev * (x - mean)/stdev"), exp in double, rounded to
// float; the denominator "1 / (stdev * sqrt(2 * M_PI))" in double, rounded
// to float; their float quotient.
float gaussian_pdf(float x, float stdev)
{
    const float d = x - 0.0f;
    const float num = (float)std::exp(-0.5 * d / stdev * d / stdev);
    const float den = (float)(1 / (stdev * std::sqrt(2 * M_PI)));
    return num / den;
}

}  // namespace

// get_1d_gaussian_kernel: a float sum of the taps, each divided by it
std::vector<float> gaussian_kernel(int size, float stdev)
{
    std::vector<float> out(size);
    float sum = 0;
    const int k = (size - 1) / 2;
    for (int i = 0; i < size; i++) {
        out[i] = gaussian_pdf((float)(i - k), stdev);
        sum += out[i];
    }
    for (int i = 0; i < size; i++)
        out[i] /= sum;
    return out;
}

namespace {

// NB: C's log2/sqrt on a float argument are the double functions; C++'s
// std::log2(float) would be log2f: every call below casts to double.

// ---- the eigen solver (speed.c, after GSL's symmtd and symm) ------------

int sign_of(float x) { return x >= 0 ? 1 : -1; }

// "sqrt(x * x + y * y)": a float sum, the double sqrt, rounded to float
float hypot_f(float x, float y) { return (float)std::sqrt((double)(x * x + y * y)); }

float column_norm(const float *a, int col, int start, int n)
{
    float s = 0;
    for (int i = start; i < n; i++)
        s += a[i * n + col] * a[i * n + col];
    return (float)std::sqrt((double)s);
}

float householder(float *a, int col, int start, int n)
{
    if (n - start == 1)
        return 0.0f;
    const float xnorm = column_norm(a, col, start + 1, n);
    if (xnorm == 0.0f)
        return 0.0f;
    const float alpha = a[start * n + col];
    const float beta = -sign_of(alpha) * hypot_f(alpha, xnorm);
    const float tau = (beta - alpha) / beta;
    const float s = alpha - beta;
    if (s != 0.0f) {
        for (int i = start; i < n; i++)
            a[i * n + col] /= s;
        a[start * n + col] = beta;
    }
    return tau;
}

}  // namespace

void tridiagonalise(float *a, int n, float *d, float *sd)
{
    std::vector<float> v(n, 0.0f), x(n, 0.0f);
    for (int i = 0; i < n - 2; i++) {
        const float tau = householder(a, i, i + 1, n);
        for (int j = i + 1; j < n; j++)
            v[j] = a[j * n + i];
        if (tau == 0.0f)
            continue;
        a[(i + 1) * n + i] = v[i + 1];
        v[i + 1] = 1.0f;
        const int s = i + 1;
        // x = tau * A * v: each term "tau * A[r][c] * v[c]" in float
        for (int r = s; r < n; r++) {
            x[r] = 0.0f;
            for (int c = s; c < n; c++)
                x[r] += tau * a[r * n + c] * v[c];
        }
        float xv = 0;
        for (int r = s; r < n; r++)
            xv += x[r] * v[r];
        // "float alpha = -0.5 * tau_i * xv": double, rounded to float
        const float alpha = (float)(-0.5 * tau * xv);
        for (int r = s; r < n; r++)
            x[r] += alpha * v[r];
        for (int r = s; r < n; r++)
            for (int c = s; c < n; c++)
                a[r * n + c] -= x[r] * v[c] + v[r] * x[c];
    }
    for (int i = 0; i < n; i++)
        d[i] = a[i * n + i];
    for (int i = 0; i < n - 1; i++)
        sd[i] = a[(i + 1) * n + i];
}

namespace {

// chop_small_elements: the float sum of magnitudes times 1e-6 in double
void chop_small(float *d, float *sd, int n)
{
    for (int i = 0; i < n - 1; i++)
        if (std::fabs(sd[i]) < kEigenEps * (std::fabs(d[i]) + std::fabs(d[i + 1])))
            sd[i] = 0.0f;
}

float trailing_eigenvalue(const float *d, const float *sd, int n)
{
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = (float)((ta - tb) / 2.0);
    if (dt > 0)
        return tb - tab * (tab / (dt + hypot_f(dt, tab)));
    if (dt == 0)
        return tb - std::fabs(tab);
    return tb + tab * (tab / (-dt + hypot_f(dt, tab)));
}

// create_givens: "1.0 / sqrt(1 + t * t)" in double, rounded to float
void givens(float a, float b, float *c, float *s)
{
    if (b == 0) {
        *c = 1;
        *s = 0;
    } else if (std::fabs(b) > std::fabs(a)) {
        const float t = -a / b;
        const float s1 = (float)(1.0 / std::sqrt((double)(1 + t * t)));
        *s = s1;
        *c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = (float)(1.0 / std::sqrt((double)(1 + t * t)));
        *c = c1;
        *s = c1 * t;
    }
}

void qr_step(float *d, float *sd, int n)
{
    float mu = trailing_eigenvalue(d, sd, n);
    if (kEigenEps * std::fabs(mu) > std::fabs(d[0]) + std::fabs(sd[0]))
        mu = 0;
    float x = d[0] - mu, z = sd[0];
    float bk = 0, zk = 0;
    float ap = d[0], bp = sd[0], aq = d[1];
    if (n == 2) {
        float c, s;
        givens(x, z, &c, &s);
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }
    float bq = sd[1];
    for (int k = 0; k < n - 1; k++) {
        float c, s;
        givens(x, z, &c, &s);
        const float bk1 = c * bk - s * zk;
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float zp1 = -s * bq;
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        const float bq1 = c * bq;
        const float ak = ap1;
        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < n - 2)
            aq = d[k + 2];
        if (k < n - 3)
            bq = sd[k + 2];
        d[k] = ak;
        if (k > 0)
            sd[k - 1] = bk1;
        if (k < n - 2)
            sd[k + 1] = bp;
        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

}  // namespace

void tridiagonal_eigenvalues(float *d, float *sd, int n)
{
    chop_small(d, sd, n);
    int b = n - 1, iter = 0;
    while (b > 0 && iter < kEigenMaxIters) {
        if (sd[b - 1] == 0.0f) {
            b--;
            continue;
        }
        int a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f)
            a--;
        const int nb = b - a + 1;
        qr_step(d + a, sd + a, nb);
        chop_small(d + a, sd + a, nb);
        iter++;
    }
}

// ---- the linear solve (speed.c's matrix_qr_decomposition) ----------------

// dst = x * y, each element a float sum over k from 0 (i, k, j loop order)
// (dst never aliases x or y: the j loop vectorizes, each element's sum
// still in k order)
void mat_mul(float *__restrict dst, const float *__restrict x, const float *__restrict y, int rows,
             int inner, int cols)
{
    for (int i = 0; i < rows * cols; i++)
        dst[i] = 0;
    for (int i = 0; i < rows; i++)
        for (int k = 0; k < inner; k++) {
            const float xik = x[i * inner + k];
            float *__restrict d = dst + (size_t)i * cols;
            const float *__restrict yk = y + (size_t)k * cols;
            for (int j = 0; j < cols; j++)
                d[j] += xik * yk[j];
        }
}

namespace {

float vec_norm(const float *x, int n)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * x[i];
    return (float)std::sqrt((double)s);
}

}  // namespace

// Q (returned not transposed: H_{n-2} ... H_0) and R = Q A; the sign of each
// reflection comes from A's diagonal (the original matrix, not the partly
// reduced one: the reference's choice)
void qr_decompose(const float *a, int n, float *q, float *r)
{
    std::vector<float> z(a, a + n * n), h(n * n), tmp(n * n), vec(n);
    for (int i = 0; i < n * n; i++)
        q[i] = (i / n == i % n) ? 1.0f : 0.0f;
    for (int k = 0; k < n - 1; k++) {
        for (int i = 0; i < n; i++)    // matrix_minor(z, k)
            for (int j = 0; j < n; j++)
                if (i < k || j < k)
                    z[i * n + j] = (i == j) ? 1.0f : 0.0f;
        for (int i = 0; i < n; i++)
            vec[i] = z[i * n + k];
        const float norm = vec_norm(vec.data(), n);
        const int sign = sign_of(a[k * n + k]);
        vec[k] += sign * norm;
        const float vn = vec_norm(vec.data(), n);
        for (int i = 0; i < n; i++)
            vec[i] = vec[i] / vn;
        for (int i = 0; i < n; i++)    // I - 2 v v'
            for (int j = 0; j < n; j++)
                h[i * n + j] = -2 * vec[i] * vec[j];
        for (int i = 0; i < n; i++)
            h[i * n + i] += 1;
        mat_mul(tmp.data(), h.data(), z.data(), n, n, n);
        z = tmp;
        mat_mul(tmp.data(), h.data(), q, n, n, n);
        std::memcpy(q, tmp.data(), sizeof(float) * n * n);
    }
    mat_mul(r, q, a, n, n, n);
}

}  // namespace speed
}  // namespace vq
