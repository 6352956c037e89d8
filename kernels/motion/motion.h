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
 * 8-bit input, so int64 gives the same value for every depth.  One tap at a
 * time (vq_motion_vtap, any order: integers), then vq_motion_vfinish.
 */
VQ_HD void vq_motion_vtap(int64_t *acc, int k, uint32_t prev, uint32_t cur)
{
    *acc += (int64_t)vq_motion_tap(k) * ((int32_t)prev - (int32_t)cur);
}

VQ_HD int32_t vq_motion_vfinish(int64_t acc, int bpc)
{
    return (int32_t)((acc + ((int64_t)1 << (bpc - 1))) >> bpc);
}

/*
 * The same sum in int32, for bpc <= 15: |sum| <= 65536 * (2^15 - 1), and
 * with the rounding term below 2^31, so each partial sum and the result
 * equal vq_motion_vtap's and vq_motion_vfinish's (test_motion_psnr checks
 * both at the extremes).  The CUDA kernel uses it for those depths.
 */
#define VQ_MOTION_NARROW_MAX_BPC 15

VQ_HD void vq_motion_vtap32(int32_t *acc, int k, uint32_t prev, uint32_t cur)
{
    *acc += vq_motion_tap(k) * ((int32_t)prev - (int32_t)cur);
}

VQ_HD int32_t vq_motion_vfinish32(int32_t acc, int bpc)
{
    return (acc + (1 << (bpc - 1))) >> bpc;
}

VQ_HD int32_t vq_motion_vblur_diff(const VqPlaneView prev, const VqPlaneView cur,
                                   int i, int j, int h, int bpc)
{
    int64_t acc = 0;
    int k;
    for (k = 0; k < 5; k++) {
        const int row = vq_reflect101(i - VQ_MOTION_RADIUS + k, h);
        vq_motion_vtap(&acc, k, vq_sample(prev, row, j), vq_sample(cur, row, j));
    }
    return vq_motion_vfinish(acc, bpc);
}

/*
 * Horizontal pass on t[0..4], the vertical results at columns j-2..j+2
 * (laid out at reflected columns by the caller):
 * |(int32)((sum_k f[k] * t[k] + 32768) >> 16)|.
 */
VQ_HD uint32_t vq_motion_hblur_abs_window(const int32_t *t)
{
    int64_t acc = 0;
    int32_t v;
    int k;
    for (k = 0; k < 5; k++)
        acc += (int64_t)vq_motion_tap(k) * t[k];
    v = (int32_t)((acc + 32768) >> 16);
    return (uint32_t)(v < 0 ? -v : v);
}

/* The same at column j of one vertically blurred row y[0..w-1], m = reflect-101. */
VQ_HD uint32_t vq_motion_hblur_abs(const int32_t *y, int j, int w)
{
    int32_t t[5];
    int k;
    for (k = 0; k < 5; k++)
        t[k] = y[vq_reflect101(j - VQ_MOTION_RADIUS + k, w)];
    return vq_motion_hblur_abs_window(t);
}

#endif /* VQ_MOTION_H */
