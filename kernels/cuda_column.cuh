/*
 * cuda_column.cuh - a column of samples for the kernels whose threads each
 * own a column of a tile (VIF's statistics and down-sampling, motion).
 * Indexing only: the samples are vq_sample's.
 */
#ifndef VQ_CUDA_COLUMN_CUH
#define VQ_CUDA_COLUMN_CUH

#include "vq_common.h"

/*
 * Column j (in range) of v at rows r0 .. r0 + N - 1, reflect-101 at the
 * top and bottom; a row past h - 1 + R (it feeds only outputs past the
 * frame) reads row h - 1 + R's reflection, as any row would do.  A column
 * wholly inside the frame (all tiles but the top and bottom ones) is walked
 * by its address, pitch bytes a row, with the sample width a constant; at
 * the borders each row is reflected and indexed.
 */
template <int N, int R>
__device__ __forceinline__ void vq_load_column(const VqPlaneView &v, int r0, int j, uint32_t (&out)[N])
{
    const int h = v.h;
    if (r0 >= 0 && r0 + N <= h) {
        const uint8_t *p = vq_sample_addr(v, r0, j);
        VqPlaneView c = v;
        if (v.bytes == 1) {
            c.bytes = 1;
#pragma unroll
            for (int k = 0; k < N; k++, p += v.pitch)
                out[k] = vq_sample_load(c, p);
        } else {
            c.bytes = 2;
#pragma unroll
            for (int k = 0; k < N; k++, p += v.pitch)
                out[k] = vq_sample_load(c, p);
        }
    } else {
#pragma unroll
        for (int k = 0; k < N; k++)
            out[k] = vq_sample(v, vq_reflect101(min(r0 + k, h - 1 + R), h), j);
    }
}

#endif /* VQ_CUDA_COLUMN_CUH */
