/*
 * motion.h - integer motion (libvmaf v3.2.0 integer_motion.c, the C path),
 * one output sample at a time.
 *
 * v3.2.0 blurs the DIFFERENCE of the previous and the current reference
 * luma (earlier releases blurred each frame on its own and rounded
 * differently): a vertical 5-tap pass over prev - cur, rounded by bpc bits,
 * then a horizontal 5-tap pass rounded by 16 bits, whose absolute values
 * are summed per row.  Both passes mirror reflect-101.  The reference sums
 * a row into a uint32 (so a row wraps mod 2^32) and the rows into a uint64;
 * the executors store the exact row sum and hostmath/motion_fold.c applies
 * the uint32 wrap, so any reduction order gives the same buffer.
 */
#ifndef VQ_MOTION_H
#define VQ_MOTION_H

#include "vq_common.h"

/* the Q16 blur filter (sums to 65536), radius 2 */
#define VQ_MOTION_RADIUS 2

VQ_HD int32_t vq_motion_tap(int k)
{
    /* a switch, not a table: no __constant__ array needed on the device */
    switch (k) {
    case 0: case 4: return 3571;
    case 1: case 3: return 16004;
    default:        return 26386;
    }
}

/*
 * Vertical pass at (i, j): (sum_k f[k] * (prev - cur)[m(i-2+k)][j]
 * + 2^(bpc-1)) >> bpc, m = reflect-101 over h rows.  The 8-bit reference
 * accumulates in int32 and the others in int64; the sum fits in int32 for
 * 8-bit input, so int64 gives the same value for every depth.
 */
VQ_HD int32_t vq_motion_vblur_diff(const VqPlaneView prev, const VqPlaneView cur,
                                   int i, int j, int h, int bpc)
{
    int64_t acc = 0;
    int k;
    for (k = 0; k < 5; k++) {
        const int row = vq_reflect101(i - VQ_MOTION_RADIUS + k, h);
        const int32_t diff = (int32_t)vq_sample(prev, row, j) - (int32_t)vq_sample(cur, row, j);
        acc += (int64_t)vq_motion_tap(k) * diff;
    }
    return (int32_t)((acc + ((int64_t)1 << (bpc - 1))) >> bpc);
}

/*
 * Horizontal pass at column j of one vertically blurred row y[0..w-1]:
 * |(int32)((sum_k f[k] * y[m(j-2+k)] + 32768) >> 16)|, m = reflect-101.
 */
VQ_HD uint32_t vq_motion_hblur_abs(const int32_t *y, int j, int w)
{
    int64_t acc = 0;
    int32_t v;
    int k;
    for (k = 0; k < 5; k++)
        acc += (int64_t)vq_motion_tap(k) * y[vq_reflect101(j - VQ_MOTION_RADIUS + k, w)];
    v = (int32_t)((acc + 32768) >> 16);
    return (uint32_t)(v < 0 ? -v : v);
}

#endif /* VQ_MOTION_H */
