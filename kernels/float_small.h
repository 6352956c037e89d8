/*
 * float_small.h - the per-pixel and per-row arithmetic of libvmaf v3.2.0's
 * float_psnr, float_moment and float_ansnr (feature/float_psnr.c, psnr.c,
 * float_moment.c, moment.c, float_ansnr.c, ansnr.c, ansnr_tools.c,
 * picture_copy.c), typed as the reference types it; docs/float-small.md
 * says what runs where and why it is exact.
 *
 * float_psnr / float_moment ("the float sums"): per pixel a float term
 * (the squared float difference, the sample, the squared sample), which
 * the reference adds into a double in raster order.  Every term is a
 * multiple of 2^-16 below 2^16, so the executors keep exact per-row sums in
 * fixed point (units of 2^-16, int64); vq_fs_total_exact() says when a
 * frame's total is the double the reference's raster-order sum gives
 * (always up to 12 bits; at 16 bits while the total stays below 2^37), and
 * otherwise the executor adds the terms in raster order itself.
 *
 * float_ansnr: the 3x3 (reference) and 5x5 (distorted) 2-D float filters
 * of ansnr_filter2d_s at one pixel, and a row's two float sums of
 * ansnr_mse_s (added in column order); the host adds the rows in order.
 *
 * Only float/double +, -, *, / and conversions: nothing here calls libm.
 */
#ifndef VQ_FLOAT_SMALL_H
#define VQ_FLOAT_SMALL_H

#include "vq_common.h"

/* ---- samples (picture_copy) -------------------------------------------- */

/* picture_copy(dst, ..., offset, bpc, 0): 8 bits "(float)v + offset", 10,
 * 12 and 16 bits "(float)v / scaler + offset" with the float scaler 4, 16,
 * 256 (a power of two: exact); the int offset converts to float.  float_psnr
 * and float_moment use offset 0, float_ansnr -128. */
VQ_HD float vq_fs_copy(uint32_t v, int bpc, int offset)
{
    if (bpc == 10)
        return (float)v / 4.0f + (float)offset;
    if (bpc == 12)
        return (float)v / 16.0f + (float)offset;
    if (bpc == 16)
        return (float)v / 256.0f + (float)offset;
    return (float)v + (float)offset;
}

/* ---- float_psnr and float_moment: the float sums ------------------------ */

/* the five sums of one frame, in this order */
enum {
    VQ_FS_NOISE,    /* float_psnr: sum of diff * diff, diff = ref - dis (floats) */
    VQ_FS_REF1,     /* float_moment: sum of ref */
    VQ_FS_DIS1,     /*               sum of dis */
    VQ_FS_REF2,     /*               sum of ref * ref (a float product) */
    VQ_FS_DIS2,     /*               sum of dis * dis */
    VQ_FS_NSUMS
};

/* The float terms of one sample pair (v: the samples as read, bpc 8-16),
 * as psnr.c and moment.c compute them before adding them to a double. */
VQ_HD void vq_fs_terms(uint32_t rv, uint32_t dv, int bpc, float t[VQ_FS_NSUMS])
{
    const float r = vq_fs_copy(rv, bpc, 0), d = vq_fs_copy(dv, bpc, 0);
    const float diff = r - d;
    t[VQ_FS_NOISE] = diff * diff;
    t[VQ_FS_REF1] = r;
    t[VQ_FS_DIS1] = d;
    t[VQ_FS_REF2] = r * r;
    t[VQ_FS_DIS2] = d * d;
}

/* A term in units of 2^-16, exactly: every term is a multiple of 2^-16
 * (a sample is a multiple of 2^-8; a product of two such rounded to 24
 * bits stays a multiple of 2^-16) and below 2^16. */
VQ_HD int64_t vq_fs_fixed(float t)
{
    return (int64_t)((double)t * 65536.0);
}

/* log2 of the granularity of every term and partial sum, in units of
 * 2^-16: 8 bits integers (16), 10 bits 1/16ths (12), 12 bits 1/256ths (8),
 * 16 bits 2^-16 (0: the products round, to multiples of 2^-16). */
VQ_HD int vq_fs_granularity_bits(int bpc)
{
    return bpc == 8 ? 16 : bpc == 10 ? 12 : bpc == 12 ? 8 : 0;
}

/* Whether the reference's double sum, in raster order, of nonnegative terms
 * whose exact total is `total` (units of 2^-16) is that total: every
 * partial sum is a multiple of the granularity not above the total, so it
 * is a double (no add rounds) while total / granularity < 2^53.  The first
 * moments' terms may be negative only with an offset; here they are not. */
VQ_HD int vq_fs_total_exact(int64_t total, int bpc)
{
    const int g = vq_fs_granularity_bits(bpc);
    return total >= 0 && (total >> g) < ((int64_t)1 << 53);
}

/* the double an exact total stands for */
VQ_HD double vq_fs_total_double(int64_t total)
{
    return (double)total * (1.0 / 65536.0);
}

/* ---- float_ansnr --------------------------------------------------------- */

#define VQ_ANSNR_REF_W 3
#define VQ_ANSNR_DIS_W 5

/* ansnr_filter2d_ref_s[k] / ansnr_filter2d_dis_s[k]: the double quotients
 * of ansnr_tools.c's initialisers, rounded to float */
VQ_HD float vq_ansnr_ref_coef(int k)
{
    const float f[VQ_ANSNR_REF_W * VQ_ANSNR_REF_W] = {
        (float)(1.0 / 16.0), (float)(2.0 / 16.0), (float)(1.0 / 16.0),
        (float)(2.0 / 16.0), (float)(4.0 / 16.0), (float)(2.0 / 16.0),
        (float)(1.0 / 16.0), (float)(2.0 / 16.0), (float)(1.0 / 16.0),
    };
    return f[k];
}

VQ_HD float vq_ansnr_dis_coef(int k)
{
    const float f[VQ_ANSNR_DIS_W * VQ_ANSNR_DIS_W] = {
        (float)(2.0 / 571.0),  (float)(7.0 / 571.0),  (float)(12.0 / 571.0),  (float)(7.0 / 571.0),  (float)(2.0 / 571.0),
        (float)(7.0 / 571.0),  (float)(31.0 / 571.0), (float)(52.0 / 571.0),  (float)(31.0 / 571.0), (float)(7.0 / 571.0),
        (float)(12.0 / 571.0), (float)(52.0 / 571.0), (float)(127.0 / 571.0), (float)(52.0 / 571.0), (float)(12.0 / 571.0),
        (float)(7.0 / 571.0),  (float)(31.0 / 571.0), (float)(52.0 / 571.0),  (float)(31.0 / 571.0), (float)(7.0 / 571.0),
        (float)(2.0 / 571.0),  (float)(7.0 / 571.0),  (float)(12.0 / 571.0),  (float)(7.0 / 571.0),  (float)(2.0 / 571.0),
    };
    return f[k];
}

/* ansnr_filter2d_s's border (ANSNR_OPT_BORDER_REPLICATE is off):
 * -k -> k, n-1+k -> n-k (the edge sample repeats on the far side only) */
VQ_HD int vq_ansnr_mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 1;
    return i;
}

/* One output of ansnr_filter2d_s at (i, j) of a w x h float image: per
 * filter row a float sum of its fw products (left to right), the rows'
 * sums added to a float in order (top to bottom).  ref: the 3x3 filter,
 * else the 5x5. */
VQ_HD float vq_ansnr_filter_at(const float *img, ptrdiff_t stride, int w, int h, int ref, int i, int j)
{
    const int fw = ref ? VQ_ANSNR_REF_W : VQ_ANSNR_DIS_W;
    float accum = 0;
    for (int fi = 0; fi < fw; fi++) {
        float inner = 0;
        const int ii = vq_ansnr_mirror(i - fw / 2 + fi, h);
        for (int fj = 0; fj < fw; fj++) {
            const int jj = vq_ansnr_mirror(j - fw / 2 + fj, w);
            const float c = ref ? vq_ansnr_ref_coef(fi * fw + fj) : vq_ansnr_dis_coef(fi * fw + fj);
            inner += c * img[(ptrdiff_t)ii * stride + jj];
        }
        accum += inner;
    }
    return accum;
}

/* one step of ansnr_mse_s's inner loop: sig += r * r, noise += (r - d) *
 * (r - d), in float (r, d: the filtered reference and distorted samples) */
VQ_HD void vq_ansnr_mse_step(float r, float d, float *sig, float *noise)
{
    *sig += r * r;
    *noise += (r - d) * (r - d);
}

/* ansnr_mse_s's inner loop over row i: floats from 0, columns in order; r
 * and d the filtered images, computed here from the two picture_copy images
 * (offset -128). */
VQ_HD void vq_ansnr_row(const float *ref, const float *dis, ptrdiff_t stride, int w, int h, int i,
                        float *sig, float *noise)
{
    float s = 0, n = 0;
    for (int j = 0; j < w; j++)
        vq_ansnr_mse_step(vq_ansnr_filter_at(ref, stride, w, h, 1, i, j),
                          vq_ansnr_filter_at(dis, stride, w, h, 0, i, j), &s, &n);
    *sig = s;
    *noise = n;
}

/* a float's bits in the low half of an int64 word of the row buffer, and back */
VQ_HD int64_t vq_fs_float_word(float f)
{
    return (int64_t)vq_f32_bits(f);
}

VQ_HD float vq_fs_word_float(int64_t w)
{
    return vq_f32_from_bits((uint32_t)w);
}

#endif /* VQ_FLOAT_SMALL_H */
