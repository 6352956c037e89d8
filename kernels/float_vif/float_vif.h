/*
 * float_vif.h - the per-pixel arithmetic of libvmaf v3.2.0's float_vif
 * (feature/float_vif.c, vif.c's compute_vif, vif_tools.c), typed as the
 * reference types it; docs/float-vif.md says what runs where.  float_motion
 * (float_motion/float_motion.h) filters with the same separable float filter.
 *
 *   - samples: picture_copy with offset -128 (speed.h's vq_speed_to_float:
 *     the same call), then the optional prescale (speed.h's
 *     vq_speed_prescale_at: the same vif_scale_frame_s);
 *   - the filter (vif_filter1d_s and its _sq/_xy twins): per output row a
 *     vertical pass (taps top to bottom, "accum += f[k] * v" in float from
 *     0, rows mirrored -k -> k, n-1+k -> n-1-k), then a horizontal pass
 *     over those values (same order, columns mirrored);
 *   - the decimation (vif_dec2_s): the filtered image's even rows and
 *     columns;
 *   - the statistic (vif_statistic_s, 'matching_matlab' with
 *     VIF_OPT_FAST_LOG2): float, with two double steps, and log2f_approx,
 *     a float polynomial (no libm);
 *   - per row a float sum of num and of den, columns left to right.
 * Nothing here calls a math library function: the Gaussian taps (exp,
 * sqrt), sigma_max_inv (powf) and the lanczos4 weights (sin) come from
 * the host (hostmath/float_vif/float_vif_fold.cpp).
 */
#ifndef VQ_FLOAT_VIF_H
#define VQ_FLOAT_VIF_H

#include <string.h>

#include "vq_common.h"
#include "speed.h"

#define VQ_FVIF_SCALES 4
#define VQ_FVIF_MAX_TAPS 72     /* scale 0 at kernelscale 4: 69 */

#ifdef __cplusplus
extern "C" {
#endif

/* What one float_vif option set needs at one picture size; the host fills
 * it (vq::fvif::geom, hostmath/float_vif/float_vif_fold.cpp). */
typedef struct VqFloatVifGeom {
    int w, h;                   /* the luma picture */
    int sw, sh;                 /* after the prescale: scale 0's image */
    int scaled;                 /* 1: the prescale runs (the size changes) */
    int method;                 /* VqSpeedScaleMethod */
    float ratio_x, ratio_y;     /* "(float)w / sw", "(float)h / sh" */
    const int *lx0, *ly0;       /* lanczos4 tables (host memory; sw, sh entries) */
    const float *lwx, *lwy;     /* (sw, sh) x VQ_SPEED_LANCZOS_TAPS */
    int first_scale;            /* 0, or 1 under vif_skip_scale0 */
    int sc_w[VQ_FVIF_SCALES], sc_h[VQ_FVIF_SCALES];   /* the image of each scale */
    int fw[VQ_FVIF_SCALES];     /* taps of each scale's filter */
    float taps[VQ_FVIF_SCALES][VQ_FVIF_MAX_TAPS];
    float egl;                  /* (float)vif_enhn_gain_limit */
    float sigma_max_inv;        /* powf(sigma_nsq, 2.0f) / (255.0 * 255.0), as a float */
    double sigma_nsq;           /* vif_sigma_nsq */
    size_t row_off[VQ_FVIF_SCALES];   /* words into the section: scale s's rows */
    size_t words;               /* the section: one word per row of each scale */
} VqFloatVifGeom;

/* A scale's row words: word i holds row i's float num sum (low 32 bits)
 * and den sum (high 32 bits), the bits as they are. */
VQ_HD int64_t vq_fvif_pack(float num, float den)
{
    return (int64_t)(((uint64_t)vq_f32_bits(den) << 32) | vq_f32_bits(num));
}

VQ_HD void vq_fvif_unpack(int64_t w, float *num, float *den)
{
    *num = vq_f32_from_bits((uint32_t)(uint64_t)w);
    *den = vq_f32_from_bits((uint32_t)((uint64_t)w >> 32));
}

/* ---- the separable filter ------------------------------------------------ */

/* the vertical pass at (i, j) of an image of h rows: "accum += f[k] * v" */
VQ_HD float vq_fvif_vpass(const float *src, int h, ptrdiff_t stride, const float *f, int fw, int i, int j)
{
    float acc = 0;
    for (int k = 0; k < fw; k++) {
        const int ii = vq_reflect101(i - fw / 2 + k, h);
        acc += f[k] * src[(ptrdiff_t)ii * stride + j];
    }
    return acc;
}

/* one tap of the five vertical passes of vq_fvif_vpass5, for loops that
 * keep one accumulator per column and run the taps outermost (the CPU
 * executor): the same operations on each accumulator, in the same order */
VQ_HD void vq_fvif_vstep5(float *m1, float *m2, float *xx, float *yy, float *xy, float c, float a, float b)
{
    *m1 += c * a;
    *m2 += c * b;
    *xx += c * (a * a);
    *yy += c * (b * b);
    *xy += c * (a * b);
}

/* the five vertical passes compute_vif runs on one pair at (i, j): mu1, mu2
 * (vif_filter1d_s), ref^2, dis^2 ("f[k] * (v * v)", vif_filter1d_sq_s) and
 * ref*dis ("f[k] * (a * b)", vif_filter1d_xy_s); each its own float
 * accumulator, taps in order */
VQ_HD void vq_fvif_vpass5(const float *ref, const float *dis, int h, ptrdiff_t stride, const float *f,
                          int fw, int i, int j, float out[5])
{
    float m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;
    for (int k = 0; k < fw; k++) {
        const int ii = vq_reflect101(i - fw / 2 + k, h);
        const float a = ref[(ptrdiff_t)ii * stride + j], b = dis[(ptrdiff_t)ii * stride + j];
        vq_fvif_vstep5(&m1, &m2, &xx, &yy, &xy, f[k], a, b);
    }
    out[0] = m1;
    out[1] = m2;
    out[2] = xx;
    out[3] = yy;
    out[4] = xy;
}

/* the horizontal pass at column j over a row t of w vertical-pass values
 * (t[c] for c < w, read at stride tstride: 1 for a row, 5 for vpass5's
 * interleaved rows) */
VQ_HD float vq_fvif_hpass(const float *t, ptrdiff_t tstride, int w, const float *f, int fw, int j)
{
    float acc = 0;
    for (int k = 0; k < fw; k++) {
        const int jj = vq_reflect101(j - fw / 2 + k, w);
        acc += f[k] * t[(ptrdiff_t)jj * tstride];
    }
    return acc;
}

/* ---- the statistic ------------------------------------------------------- */

/* log2f_approx (VIF_OPT_FAST_LOG2): the exponent, and log2_poly_s (double
 * literals stored as floats) by Horner's rule in float on the mantissa
 * minus 1; 0 gives -inf, a negative NaN */
VQ_HD float vq_fvif_log2f(float x)
{
    if (x == 0)
        return -__builtin_huge_valf();
    if (x < 0)
        return __builtin_nanf("");
    const uint32_t u = vq_f32_bits(x);
    const uint32_t exponent = (u & 0x7F800000u) >> 23;
    const float remain = vq_f32_from_bits((u & 0x007FFFFFu) | 0x3F800000u);
    const float log_base = (float)((int32_t)exponent - 127);
    const float p[9] = { (float)-0.012671635276421, (float)0.064841182402670, (float)-0.157048836463065,
                         (float)0.257167726303123, (float)-0.353800560300520, (float)0.480131410397451,
                         (float)-0.721314327952201, (float)1.442694803896991, (float)0 };
    const float t = remain - 1.0f;
    float var = 0;
    for (int i = 0; i < 9; i++)
        var = var * t + p[i];
    return log_base + var;
}

/* vif_statistic_s at one pixel, from the five filtered values; the two
 * "1 + a / (b + sigma_nsq)" are in double (sigma_nsq is), rounded to float
 * for log2f_approx; sigma1_sq < sigma_nsq compares in double */
VQ_HD void vq_fvif_stat(float mu1, float mu2, float xx, float yy, float xy, float egl, double sigma_nsq,
                        float sigma_max_inv, float *num, float *den)
{
    const float eps = 1.0e-10f;
    const float mu1_sq = mu1 * mu1, mu2_sq = mu2 * mu2, mu1_mu2 = mu1 * mu2;
    float s1 = xx - mu1_sq;
    float s2 = yy - mu2_sq;
    const float s12 = xy - mu1_mu2;
    s1 = s1 > 0.0f ? s1 : 0.0f;     /* MAX(x, 0.0f) */
    s2 = s2 > 0.0f ? s2 : 0.0f;
    float g = s12 / (s1 + eps);
    float sv = s2 - g * s12;
    if (s1 < eps) {
        g = 0.0f;
        sv = s2;
        s1 = 0.0f;
    }
    if (s2 < eps) {
        g = 0.0f;
        sv = 0.0f;
    }
    if (g < 0.0f) {
        sv = s2;
        g = 0.0f;
    }
    sv = sv > eps ? sv : eps;       /* MAX(sv_sq, eps) */
    g = g < egl ? g : egl;          /* MIN(g, egl) */
    float n = vq_fvif_log2f((float)(1.0 + (double)(g * g * s1) / ((double)sv + sigma_nsq)));
    float d = vq_fvif_log2f((float)(1.0 + (double)s1 / sigma_nsq));
    if (s12 < 0.0f)
        n = 0.0f;
    if ((double)s1 < sigma_nsq) {
        n = 1.0f - s2 * sigma_max_inv;
        d = 1.0f;
    }
    *num = n;
    *den = d;
}

#ifdef __cplusplus
}
#endif
#endif /* VQ_FLOAT_VIF_H */
