/*
 * speed.h - the per-pixel arithmetic of libvmaf v3.2.0's speed_chroma
 * (feature/speed.c, feature/vif_tools.c, feature/picture_copy.c), typed as
 * the reference types it; docs/speed.md says what runs where.
 *
 * Steps 1-3 of SpEED, per chroma plane:
 *   1. a sample to float with offset -128 (picture_copy);
 *   2. the optional prescale (vif_scale_frame_s: nearest, bilinear, bicubic,
 *      lanczos4), one output sample at a time;
 *   3. the separable anti-alias Gaussian (vif_filter1d_s: vertical pass then
 *      horizontal pass, float products added to a float accumulator, tap 0
 *      first, mirrored borders), of which vif_dec16_s keeps every 16th row
 *      and column: only those outputs are computed here.
 * Everything is float arithmetic (+, -, *, /) or float<->double conversion;
 * nothing calls a math library function: the lanczos4 weights (sin) and the
 * Gaussian taps (exp) come from the host (hostmath/speed_chroma.cpp).
 */
#ifndef VQ_SPEED_H
#define VQ_SPEED_H

#include "vq_common.h"

#define VQ_SPEED_NUM_SCALES 4   /* the 1/16 decimation: 2^NUM_SCALES */
#define VQ_SPEED_BLOCK 5        /* DEFAULT_BLOCK_SIZE */
#define VQ_SPEED_MAX_TAPS 41    /* the anti-alias filter at kernelscale 4 */
#define VQ_SPEED_LANCZOS_A 4
#define VQ_SPEED_LANCZOS_TAPS (2 * VQ_SPEED_LANCZOS_A + 1)

enum VqSpeedScaleMethod {       /* vif_scaling_method, by name */
    VQ_SPEED_NEAREST = 0,
    VQ_SPEED_BILINEAR = 1,
    VQ_SPEED_BICUBIC = 2,
    VQ_SPEED_LANCZOS4 = 3,
};

/* ---- 1. samples --------------------------------------------------------- */

/* picture_copy(..., offset -128, bpc): 8-bit "(float)v + offset"; 10/12/16
 * bits "(float)v / scaler + offset" with scaler 4, 16, 256 (a power of two:
 * exact); the int offset converts to float. */
VQ_HD float vq_speed_sample_scale(int bpc)
{
    return bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : bpc == 16 ? 256.0f : 1.0f;
}

VQ_HD float vq_speed_to_float(uint32_t v, int bpc)
{
    if (bpc == 8)
        return (float)v + (float)-128;
    return (float)v / vq_speed_sample_scale(bpc) + (float)-128;
}

/* speed_temporal's frame difference (speed.c extract(): subtract_image on
 * two picture_copy images): the previous frame's sample minus the current
 * one's, each to float first, a float difference (exact: both are
 * multiples of 2^-8 below 256 in magnitude) */
VQ_HD float vq_speed_temporal_diff(uint32_t prev, uint32_t cur, int bpc)
{
    return vq_speed_to_float(prev, bpc) - vq_speed_to_float(cur, bpc);
}

/* ---- 2. prescale (vif_scale_frame_s) ------------------------------------ */

/* the output position: "(x + 0.5) * ratio - 0.5" in double (ratio a float
 * "(float)src / dst"), rounded to float */
VQ_HD float vq_speed_scale_pos(int x, float ratio)
{
    return (float)(((double)x + 0.5) * (double)ratio - 0.5);
}

/* vif_tools.c's mirror(): float in, float out; -i left, 2*right-i right */
VQ_HD float vq_speed_mirror_f(float i, float left, float right)
{
    return i < left ? -i : (i > right ? 2 * right - i : i);
}

/* nearest: "(int)(x * ratio)" in float, no half-pixel offset */
VQ_HD float vq_speed_nearest(const float *src, int stride, float ratio_x,
                             float ratio_y, int x, int y)
{
    int ry = (int)((float)y * ratio_y);
    int rx = (int)((float)x * ratio_x);
    return src[(ptrdiff_t)ry * stride + rx];
}

/* bilinear: floor/ceil mirrored (as floats, then truncated to int); dx, dy
 * measured from the mirrored floor (a quirk: a negative position mirrors
 * x1 but not x); four float products added left to right */
VQ_HD float vq_speed_bilinear(const float *src, int w, int h, int stride,
                              float x, float y)
{
    float fx = (float)(int)x, fy = (float)(int)y;   /* floor, below */
    if (fx > x)
        fx -= 1.0f;
    if (fy > y)
        fy -= 1.0f;
    float cx = fx < x ? fx + 1.0f : fx, cy = fy < y ? fy + 1.0f : fy;   /* ceil */
    int x1 = (int)vq_speed_mirror_f(fx, 0.0f, (float)(w - 1));
    int x2 = (int)vq_speed_mirror_f(cx, 0.0f, (float)(w - 1));
    int y1 = (int)vq_speed_mirror_f(fy, 0.0f, (float)(h - 1));
    int y2 = (int)vq_speed_mirror_f(cy, 0.0f, (float)(h - 1));
    float dx = x - (float)x1;
    float dy = y - (float)y1;
    float a = (1 - dy) * (1 - dx) * src[(ptrdiff_t)y1 * stride + x1];
    float b = (1 - dy) * dx * src[(ptrdiff_t)y1 * stride + x2];
    float c = dy * (1 - dx) * src[(ptrdiff_t)y2 * stride + x1];
    float d = dy * dx * src[(ptrdiff_t)y2 * stride + x2];
    return a + b + c + d;
}

/* bicubic_kernel(): Keys, a = -0.75, in float */
VQ_HD float vq_speed_bicubic_kernel(float t)
{
    const float a = -0.75f;
    if (t < 0)
        t = -t;
    if (t < 1)
        return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2)
        return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

VQ_HD int vq_speed_floor_i(float x)
{
    int i = (int)x;
    return (float)i > x ? i - 1 : i;
}

/* bicubic: 4x4 taps, weight wx*wy in float, added to a float sum, rows
 * outer, columns inner; indices mirrored as floats (no clamp beyond) */
VQ_HD float vq_speed_bicubic(const float *src, int w, int h, int stride,
                             float x, float y)
{
    int x0 = vq_speed_floor_i(x), y0 = vq_speed_floor_i(y);
    float dx = x - (float)x0, dy = y - (float)y0;
    float wx[4], wy[4];
    for (int i = -1; i <= 2; i++) {
        wx[i + 1] = vq_speed_bicubic_kernel((float)i - dx);
        wy[i + 1] = vq_speed_bicubic_kernel((float)i - dy);
    }
    float v = 0.0f;
    for (int j = -1; j <= 2; j++) {
        for (int i = -1; i <= 2; i++) {
            int xi = (int)vq_speed_mirror_f((float)(x0 + i), 0.0f, (float)(w - 1));
            int yi = (int)vq_speed_mirror_f((float)(y0 + j), 0.0f, (float)(h - 1));
            float wgt = wx[i + 1] * wy[j + 1];
            v += src[(ptrdiff_t)yi * stride + xi] * wgt;
        }
    }
    return v;
}

/* lanczos4: 9x9 taps whose per-axis weights (sin, in double) the host
 * computed for this column (wx) and row (wy), x0/y0 the floors; weight
 * wx*wy in float, the weight sum and the value in float, rows outer,
 * then value / weight sum */
VQ_HD float vq_speed_lanczos4(const float *src, int w, int h, int stride,
                              int x0, int y0, const float *wx, const float *wy)
{
    const int a = VQ_SPEED_LANCZOS_A;
    float value = 0.0f, wsum = 0.0f;
    for (int iy = -a; iy <= a; iy++) {
        for (int ix = -a; ix <= a; ix++) {
            float wgt = wx[ix + a] * wy[iy + a];
            wsum += wgt;
            int xi = (int)vq_speed_mirror_f((float)(x0 + ix), 0.0f, (float)(w - 1));
            int yi = (int)vq_speed_mirror_f((float)(y0 + iy), 0.0f, (float)(h - 1));
            value += src[(ptrdiff_t)yi * stride + xi] * wgt;
        }
    }
    return value / wsum;
}

/* sample (x, y) of the prescaled image (sw x sh) of src (w x h): ratios
 * "(float)w / sw", "(float)h / sh"; lanczos4 reads the host's tables for
 * column x and row y (lx0/ly0: floors, lwx/lwy: VQ_SPEED_LANCZOS_TAPS
 * weights per position), the other methods ignore them */
VQ_HD float vq_speed_prescale_at(int method, const float *src, int w, int h, int stride,
                                 float ratio_x, float ratio_y, int x, int y,
                                 const int *lx0, const int *ly0, const float *lwx,
                                 const float *lwy)
{
    switch (method) {
    case VQ_SPEED_NEAREST:
        return vq_speed_nearest(src, stride, ratio_x, ratio_y, x, y);
    case VQ_SPEED_BILINEAR:
        return vq_speed_bilinear(src, w, h, stride, vq_speed_scale_pos(x, ratio_x),
                                 vq_speed_scale_pos(y, ratio_y));
    case VQ_SPEED_BICUBIC:
        return vq_speed_bicubic(src, w, h, stride, vq_speed_scale_pos(x, ratio_x),
                                vq_speed_scale_pos(y, ratio_y));
    default:
        return vq_speed_lanczos4(src, w, h, stride, lx0[x], ly0[y],
                                 lwx + (ptrdiff_t)x * VQ_SPEED_LANCZOS_TAPS,
                                 lwy + (ptrdiff_t)y * VQ_SPEED_LANCZOS_TAPS);
    }
}

/* ---- 3. the anti-alias filter at the kept samples ---------------------- */

/* vif_filter1d_s's mirror: -k -> k, n-1+k -> n-1-k */
VQ_HD int vq_speed_reflect(int i, int n)
{
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

/* the vertical pass at row i, column j: taps from top to bottom, each float
 * product added to a float accumulator that starts at 0 */
VQ_HD float vq_speed_vpass(const float *src, int h, int stride, const float *f,
                           int fw, int i, int j)
{
    float acc = 0;
    for (int k = 0; k < fw; k++) {
        int ii = vq_speed_reflect(i - fw / 2 + k, h);
        acc += f[k] * src[(ptrdiff_t)ii * stride + j];
    }
    return acc;
}

/* one output of vif_filter1d_s followed by vif_dec16_s: filtered sample
 * (16 r, 16 c) of a w x h image; the horizontal pass runs over vertical-pass
 * values of row 16 r at the mirrored columns */
VQ_HD float vq_speed_aa_dec16(const float *src, int w, int h, int stride,
                              const float *f, int fw, int r, int c)
{
    const int i = r << VQ_SPEED_NUM_SCALES, j = c << VQ_SPEED_NUM_SCALES;
    float acc = 0;
    for (int k = 0; k < fw; k++) {
        int jj = vq_speed_reflect(j - fw / 2 + k, w);
        acc += f[k] * vq_speed_vpass(src, h, stride, f, fw, i, jj);
    }
    return acc;
}

#endif /* VQ_SPEED_H */
