/*
 * cuda_motion.cu - the CUDA executor of integer motion: thin kernels around
 * kernels/motion.h.  One block per row: the block writes the row's vertical
 * pass into a scratch row, then sums the horizontal pass and writes the
 * row's sum (no atomics: every element of the section is written).
 */
#include <stdlib.h>

#include <cuda_runtime.h>

#include "cuda_reduce.cuh"
#include "motion.h"
#include "motion_exec.h"

#define MOTION_BLOCK 256

struct VqMotionCuda {
    int w, h;
    int have_prev;      /* host-side: 0 until a frame was queued for copying */
    uint16_t *d_prev;   /* previous reference luma, w x h, packed */
    int32_t *d_y;       /* vertical pass, w x h, for rows too wide for shared memory */
};

/* Rows up to this width keep the vertical pass in shared memory (beside the
 * reduction's 2 KB, under the default 48 KB); wider ones use d_y. */
#define MOTION_SHARED_MAX_W ((48 * 1024 - MOTION_BLOCK * 8) / 4)

template <bool SHARED>
__global__ void motion_row_sad_kernel(VqPlaneView prev, VqPlaneView cur, int w, int h, int bpc,
                                      int32_t *y, int64_t *row_sad)
{
    extern __shared__ int32_t y_shared[];
    const int i = blockIdx.x;
    int32_t *y_row = SHARED ? y_shared : y + (size_t)i * w;
    unsigned long long sum = 0;
    int j;

    if (i >= h)
        return;     /* whole block: no barrier is skipped by part of it */
    for (j = threadIdx.x; j < w; j += MOTION_BLOCK)
        y_row[j] = vq_motion_vblur_diff(prev, cur, i, j, h, bpc);
    __syncthreads();    /* makes the block's writes of y_row visible to it */
    for (j = threadIdx.x; j < w; j += MOTION_BLOCK)
        sum += vq_motion_hblur_abs(y_row, j, w);
    sum = vq_block_sum_u64<MOTION_BLOCK>(sum);
    if (threadIdx.x == 0)
        row_sad[i] = (int64_t)sum;
}

__global__ void motion_store_prev_kernel(VqPlaneView cur, int w, int h, uint16_t *prev)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < h && j < w)
        prev[(size_t)i * w + j] = (uint16_t)vq_sample(cur, i, j);
}

extern "C" int vq_motion_cuda_alloc(VqMotionCuda **pm, int w, int h)
{
    VqMotionCuda *m;
    cudaError_t e;
    *pm = NULL;
    if (w < 3 || h < 3)
        return (int)cudaErrorInvalidValue;
    m = (VqMotionCuda *)calloc(1, sizeof(*m));
    if (!m)
        return (int)cudaErrorMemoryAllocation;
    m->w = w;
    m->h = h;
    e = cudaMalloc((void **)&m->d_prev, (size_t)w * h * sizeof(*m->d_prev));
    if (e == cudaSuccess && w > MOTION_SHARED_MAX_W)
        e = cudaMalloc((void **)&m->d_y, (size_t)w * h * sizeof(*m->d_y));
    if (e != cudaSuccess) {
        vq_motion_cuda_free(m);
        return (int)e;
    }
    *pm = m;
    return 0;
}

extern "C" void vq_motion_cuda_free(VqMotionCuda *m)
{
    if (!m)
        return;
    cudaFree(m->d_prev);
    cudaFree(m->d_y);
    free(m);
}

extern "C" int vq_motion_cuda_run(VqMotionCuda *m, VqPlaneView cur, int bpc, const VqRowLayout *l,
                                  int64_t *d_rows, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    int64_t *row_sad = d_rows + l->motion_off;
    cudaError_t e;
    const dim3 cb(32, 8);
    const dim3 cg((unsigned)((m->w + 31) / 32), (unsigned)((m->h + 7) / 8));

    if (!m->have_prev) {
        e = cudaMemsetAsync(row_sad, 0, (size_t)m->h * sizeof(*row_sad), st);
        if (e != cudaSuccess)
            return (int)e;
    } else {
        const VqPlaneView prev = vq_packed_u16_view(m->d_prev, m->w, m->h);
        if (m->w <= MOTION_SHARED_MAX_W)
            motion_row_sad_kernel<true><<<m->h, MOTION_BLOCK, (size_t)m->w * sizeof(int32_t), st>>>(
                prev, cur, m->w, m->h, bpc, NULL, row_sad);
        else
            motion_row_sad_kernel<false><<<m->h, MOTION_BLOCK, 0, st>>>(prev, cur, m->w, m->h, bpc,
                                                                        m->d_y, row_sad);
        e = cudaGetLastError();
        if (e != cudaSuccess)
            return (int)e;
    }
    /* queued after the scoring kernel on the same stream: it reads d_prev first */
    motion_store_prev_kernel<<<cg, cb, 0, st>>>(cur, m->w, m->h, m->d_prev);
    e = cudaGetLastError();
    if (e != cudaSuccess)
        return (int)e;
    m->have_prev = 1;
    return 0;
}
