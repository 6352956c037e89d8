/*
 * cuda_psnr.cu - the CUDA executor of psnr: a thin kernel around
 * kernels/psnr.h.  One block per (row, plane) writes that row's exact sum
 * of squared errors (no atomics, every element of the sections written).
 */
#include <stdlib.h>

#include <cuda_runtime.h>

#include "cuda_reduce.cuh"
#include "psnr.h"
#include "psnr_exec.h"

#define PSNR_BLOCK 256

struct PsnrPlanes {
    VqPlaneView ref[3], dis[3];
    int w[3], h[3];
    int64_t *out[3];
};

__global__ void psnr_row_sse_kernel(PsnrPlanes pl, int bpc)
{
    const int p = blockIdx.y;
    const int i = blockIdx.x;
    unsigned long long sum = 0;

    if (i >= pl.h[p])
        return;     /* whole block: no barrier is skipped by part of it */
    for (int j = threadIdx.x; j < pl.w[p]; j += PSNR_BLOCK)
        sum += vq_psnr_sq_err(vq_sample(pl.ref[p], i, j), vq_sample(pl.dis[p], i, j), bpc);
    sum = vq_block_sum_u64<PSNR_BLOCK>(sum);
    if (threadIdx.x == 0)
        pl.out[p][i] = (int64_t)sum;
}

struct VqPsnrCuda {
    int w, h;
};

extern "C" int vq_psnr_cuda_alloc(VqPsnrCuda **pp, int w, int h)
{
    VqPsnrCuda *p = (VqPsnrCuda *)calloc(1, sizeof(*p));
    *pp = p;
    if (!p)
        return (int)cudaErrorMemoryAllocation;
    p->w = w;
    p->h = h;
    return 0;
}

extern "C" void vq_psnr_cuda_free(VqPsnrCuda *p)
{
    free(p);
}

extern "C" int vq_psnr_cuda_run(VqPsnrCuda *state, const VqPlaneView ref[3], const VqPlaneView dis[3],
                                int nplanes, int bpc, const VqRowLayout *l, int64_t *d_rows,
                                void *stream)
{
    PsnrPlanes pl;
    int max_h = 0;
    (void)state;
    if (nplanes <= 0)
        return 0;
    if (nplanes > 3)
        nplanes = 3;
    for (int p = 0; p < 3; p++) {
        const int use = p < nplanes;
        pl.ref[p] = ref[use ? p : 0];
        pl.dis[p] = dis[use ? p : 0];
        pl.w[p] = use ? (p ? l->cw : l->w) : 0;
        pl.h[p] = use ? (p ? l->ch : l->h) : 0;
        pl.out[p] = d_rows + l->psnr_off[use ? p : 0];
        if (pl.h[p] > max_h)
            max_h = pl.h[p];
    }
    if (max_h == 0)
        return 0;
    psnr_row_sse_kernel<<<dim3((unsigned)max_h, (unsigned)nplanes), PSNR_BLOCK, 0,
                          (cudaStream_t)stream>>>(pl, bpc);
    return (int)cudaGetLastError();
}
