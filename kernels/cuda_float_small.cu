/*
 * cuda_float_small.cu - the CUDA executor of float_psnr / float_moment ("the
 * float sums") and float_ansnr: thin kernels around kernels/float_small.h,
 * writing the words kernels/cpu_float_small.cpp writes (float_small_exec.h;
 * docs/float-small.md).
 *
 * The float sums: a warp per row adds the row's terms in fixed point (int64:
 * exact, any order) and writes its five words; one block then adds the rows
 * (int64) and, when vq_fs_total_exact() holds (always up to 12 bits), writes
 * the five doubles; otherwise (16 bits, large totals) it adds every term in
 * raster order as the reference does: the block computes the terms of 1024
 * pixels at a time into shared memory, one thread adds them in order.
 * float_ansnr: the luma planes to float (picture_copy, offset -128), the 3x3
 * and 5x5 filters at every pixel, then a thread per row adds its columns in
 * order (ansnr_mse_s's float row sums).
 */
#include <stdint.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "float_small.h"
#include "float_small_exec.h"

namespace {

constexpr int kRows = 8;              /* rows (warps) per block */
constexpr int kThreads = 32 * kRows;
constexpr int kFinish = 256;          /* the finishing block */
constexpr int kChunk = 4 * kFinish;   /* pixels per raster step */

__global__ void __launch_bounds__(kThreads) fs_rows_kernel(VqPlaneView ref, VqPlaneView dis, int bpc,
                                                           int64_t *section)
{
    const int i = blockIdx.x * kRows + (int)(threadIdx.x / 32);
    const int lane = (int)(threadIdx.x % 32);
    if (i >= ref.h)
        return;     /* the whole warp */
    long long s[VQ_FS_NSUMS] = { 0, 0, 0, 0, 0 };
    float t[VQ_FS_NSUMS];
    for (int j = lane; j < ref.w; j += 32) {
        vq_fs_terms(vq_sample(ref, i, j), vq_sample(dis, i, j), bpc, t);
#pragma unroll
        for (int k = 0; k < VQ_FS_NSUMS; k++)
            s[k] += vq_fs_fixed(t[k]);
    }
#pragma unroll
    for (int k = 0; k < VQ_FS_NSUMS; k++)
#pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            s[k] += __shfl_xor_sync(0xffffffffu, s[k], o);
    if (lane < VQ_FS_NSUMS) {
        long long v = s[0];
#pragma unroll
        for (int k = 1; k < VQ_FS_NSUMS; k++)
            v = lane == k ? s[k] : v;
        section[VQ_FS_NSUMS * (1 + (size_t)i) + lane] = (int64_t)v;
    }
}

__global__ void __launch_bounds__(kFinish) fs_finish_kernel(VqPlaneView ref, VqPlaneView dis, int bpc,
                                                            int64_t *section)
{
    __shared__ long long tot[VQ_FS_NSUMS][kFinish];
    __shared__ float terms[VQ_FS_NSUMS][kChunk];
    __shared__ int exact;
    const int tid = (int)threadIdx.x;
    const int w = ref.w, h = ref.h;
    /* the rows' exact sums: integers, any order */
    long long s[VQ_FS_NSUMS] = { 0, 0, 0, 0, 0 };
    for (int i = tid; i < h; i += kFinish)
        for (int k = 0; k < VQ_FS_NSUMS; k++)
            s[k] += section[VQ_FS_NSUMS * (1 + (size_t)i) + k];
    for (int k = 0; k < VQ_FS_NSUMS; k++)
        tot[k][tid] = s[k];
    __syncthreads();
    if (tid == 0) {
        int64_t out[VQ_FS_NSUMS];
        for (int k = 0; k < VQ_FS_NSUMS; k++) {
            long long a = 0;
            for (int q = 0; q < kFinish; q++)
                a += tot[k][q];
            out[k] = (int64_t)a;
        }
        exact = 1;
        for (int k = 0; k < VQ_FS_NSUMS; k++)
            exact = exact && vq_fs_total_exact(out[k], bpc);
        if (exact)
            for (int k = 0; k < VQ_FS_NSUMS; k++)
                section[k] = vq_fs_double_word(vq_fs_total_double(out[k]));
    }
    __syncthreads();
    if (exact)
        return;     /* the whole block */
    /* the reference's raster order: each term to double, added in turn */
    double acc[VQ_FS_NSUMS] = { 0, 0, 0, 0, 0 };
    const long long n = (long long)w * h;
    for (long long p0 = 0; p0 < n; p0 += kChunk) {
        for (int u = tid; u < kChunk; u += kFinish) {
            const long long p = p0 + u;
            if (p < n) {
                const int i = (int)(p / w), j = (int)(p % w);
                float t[VQ_FS_NSUMS];
                vq_fs_terms(vq_sample(ref, i, j), vq_sample(dis, i, j), bpc, t);
                for (int k = 0; k < VQ_FS_NSUMS; k++)
                    terms[k][u] = t[k];
            }
        }
        __syncthreads();
        if (tid == 0) {
            const int m = n - p0 < kChunk ? (int)(n - p0) : kChunk;
            for (int u = 0; u < m; u++)
                for (int k = 0; k < VQ_FS_NSUMS; k++)
                    acc[k] += terms[k][u];
        }
        __syncthreads();
    }
    if (tid == 0)
        for (int k = 0; k < VQ_FS_NSUMS; k++)
            section[k] = vq_fs_double_word(acc[k]);
}

__global__ void ansnr_convert_kernel(VqPlaneView ref, VqPlaneView dis, int bpc, float *fref, float *fdis)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= ref.h || j >= ref.w)
        return;
    fref[(size_t)i * ref.w + j] = vq_fs_copy(vq_sample(ref, i, j), bpc, -128);
    fdis[(size_t)i * ref.w + j] = vq_fs_copy(vq_sample(dis, i, j), bpc, -128);
}

__global__ void ansnr_filter_kernel(const float *fref, const float *fdis, int w, int h, float *r, float *d)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= h || j >= w)
        return;
    r[(size_t)i * w + j] = vq_ansnr_filter_at(fref, w, w, h, 1, i, j);
    d[(size_t)i * w + j] = vq_ansnr_filter_at(fdis, w, w, h, 0, i, j);
}

__global__ void ansnr_rows_kernel(const float *r, const float *d, int w, int h, int64_t *section)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= h)
        return;
    float sig = 0, noise = 0;
    for (int j = 0; j < w; j++)
        vq_ansnr_mse_step(r[(size_t)i * w + j], d[(size_t)i * w + j], &sig, &noise);
    section[2 * (size_t)i] = vq_fs_float_word(sig);
    section[2 * (size_t)i + 1] = vq_fs_float_word(noise);
}

}  // namespace

struct VqFloatSmallCuda {
    int w, h;
    float *img[4];      /* float_ansnr: fref, fdis, filtered ref, filtered dis */
};

extern "C" int vq_fs_cuda_alloc(VqFloatSmallCuda **pc, int w, int h, int ansnr)
{
    VqFloatSmallCuda *c = (VqFloatSmallCuda *)calloc(1, sizeof(*c));
    *pc = c;
    if (!c)
        return (int)cudaErrorMemoryAllocation;
    c->w = w;
    c->h = h;
    for (int k = 0; ansnr && k < 4; k++) {
        const cudaError_t e = cudaMalloc(&c->img[k], (size_t)w * h * sizeof(float));
        if (e != cudaSuccess)
            return (int)e;
    }
    return 0;
}

extern "C" void vq_fs_cuda_free(VqFloatSmallCuda *c)
{
    if (!c)
        return;
    for (int k = 0; k < 4; k++)
        cudaFree(c->img[k]);
    free(c);
}

extern "C" int vq_fs_cuda_run(VqFloatSmallCuda *c, VqPlaneView ref, VqPlaneView dis, int bpc, int64_t *d_section,
                              void *stream)
{
    (void)c;
    const cudaStream_t st = (cudaStream_t)stream;
    fs_rows_kernel<<<(unsigned)((ref.h + kRows - 1) / kRows), kThreads, 0, st>>>(ref, dis, bpc, d_section);
    fs_finish_kernel<<<1, kFinish, 0, st>>>(ref, dis, bpc, d_section);
    return (int)cudaGetLastError();
}

extern "C" int vq_ansnr_cuda_run(VqFloatSmallCuda *c, VqPlaneView ref, VqPlaneView dis, int bpc,
                                 int64_t *d_section, void *stream)
{
    if (!c->img[0])
        return (int)cudaErrorInvalidValue;
    const cudaStream_t st = (cudaStream_t)stream;
    const int w = ref.w, h = ref.h;
    const dim3 b(32, 8), g((unsigned)((w + 31) / 32), (unsigned)((h + 7) / 8));
    ansnr_convert_kernel<<<g, b, 0, st>>>(ref, dis, bpc, c->img[0], c->img[1]);
    ansnr_filter_kernel<<<g, b, 0, st>>>(c->img[0], c->img[1], w, h, c->img[2], c->img[3]);
    ansnr_rows_kernel<<<(unsigned)((h + 63) / 64), 64, 0, st>>>(c->img[2], c->img[3], w, h, d_section);
    return (int)cudaGetLastError();
}
