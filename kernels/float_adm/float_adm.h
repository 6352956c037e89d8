/*
 * float_adm.h - libvmaf v3.2.0's float ADM (float_adm.c, adm.c's
 * compute_adm, adm_tools.c's *_s functions), per output sample / per pixel /
 * per row, shared by the CPU executor (cpu_float_adm.cpp) and the CUDA
 * kernels (cuda_float_adm.cu).  docs/float-adm.md has the reference's
 * arithmetic step by step; the types and the order of every operation below
 * are the reference's (float, with the double steps it has: the 1/30 and
 * 1/15 constants and the enhancement gain are doubles).
 *
 * Per scale s (band size w x h, VqFadmParams.s[s]):
 *   1. DWT (db2, float) of ref and dis: bands a, h, v, d.  Scale 0 reads
 *      the picture as libvmaf's picture_copy makes it (sample - 128, high
 *      bit depths divided by 4, 16 or 256 first), scales 1-3 the previous a.
 *   2. Per pixel of the decouple rect: decouple (r, a; divisions through
 *      the CPU's RCPSS, rcp_table.h), then the CSF of both: csf = factor *
 *      x and flt = (float)(0.0333333351 * |csf|) (a double product).
 *   3. Per pixel of the CM rect: the denominator's |factor * ref|^p, the
 *      contrast-masked numerator of r (threshold from a's csf) and AIM's of
 *      a (threshold from r's csf); p = 3: cubes, else powf (the device:
 *      glibc_powf.h's, checked against the host's).
 *      Added per row in float, left to right, as the reference: the row
 *      sums (float bits) go to the row buffer; hostmath/float_adm/float_adm_fold.cpp
 *      adds the rows in order and takes the powf(x, 1/p).
 */
#ifndef VQ_FLOAT_ADM_H
#define VQ_FLOAT_ADM_H

#include <stdint.h>

#include "vq_common.h"
#include "vq_rows.h"
#include "adm/adm_params.h"
#include "rcp_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* one scale of float ADM */
typedef struct VqFadmScale {
    int32_t in_w, in_h;         /* DWT input of this scale */
    int32_t w, h;               /* band size: (in + 1) / 2 */
    VqAdmRect cm;               /* denominator and CM rect (adm_csf_den_scale_s, adm_cm_s) */
    VqAdmRect dec;              /* decouple and CSF rect (adm_decouple_s, adm_csf_s), clamped */
    float rfactor[3];           /* the CSF factor of h, v, d */
    int32_t dwt_only;           /* scale 0 under adm_skip_scale0: band a only, no sums */
} VqFadmScale;

/* float_adm's options as the per-pixel steps use them (plain data) */
typedef struct VqFadmParams {
    int32_t w, h, bpc;          /* luma size and bit depth (8, 10, 12, 16) */
    double egl;                 /* adm_enhn_gain_limit */
    float cos_1deg_sq;          /* (float)(cos(pi/180) * cos(pi/180)), the angle test */
    int32_t p3;                 /* adm_p_norm == 3.0: cubes; else powf(x, p_normf) per pixel */
    int32_t powf_gpu;           /* p3, or the host's powf found equal to glibc_powf.h's: the device may run */
    float p_normf;              /* (float)adm_p_norm, powf's exponent */
    double p_norm;              /* adm_p_norm */
    int32_t bypass_cm;          /* adm_bypass_cm: thresholds stay 0 */
    int32_t skip_scale0;        /* adm_skip_scale0 */
    int32_t skip_aim_scale;     /* adm_skip_aim_scale (-1: none) */
    int32_t adm3_apply_hm;      /* adm_adm3_apply_hm */
    double noise_weight, dlm_weight, min_val;
    int32_t rcp_mode;           /* VQ_RCP_TABLE / VQ_RCP_DIV, the table given beside */
    VqFadmScale s[VQ_ADM_SCALES];
} VqFadmParams;

/* per band row in the row buffer (float bits in the low 32 bits), in
 * the order of vq_rows.h's VQ_ADM_*: den h, v, d, num h, v, d, aim h, v, d */
#define VQ_FADM_NSUMS VQ_ADM_NSUMS

/* db2 taps as adm_tools.c stores them: float from double literals */
#define VQ_FADM_LO0 ((float)0.482962913144690)
#define VQ_FADM_LO1 ((float)0.836516303737469)
#define VQ_FADM_LO2 ((float)0.224143868041857)
#define VQ_FADM_LO3 ((float)-0.129409522550921)
#define VQ_FADM_HI0 ((float)-0.129409522550921)
#define VQ_FADM_HI1 ((float)-0.224143868041857)
#define VQ_FADM_HI2 ((float)0.836516303737469)
#define VQ_FADM_HI3 ((float)-0.482962913144690)

/* adm_tools.c's FLOAT_ONE_BY_30 and FLOAT_ONE_BY_15: double literals */
#define VQ_FADM_ONE_BY_30 0.0333333351
#define VQ_FADM_ONE_BY_15 0.0666666701
/* adm_decouple_s's eps: a float */
#define VQ_FADM_EPS ((float)1e-30)

VQ_HD float vq_fadm_abs(float x)
{
    return vq_f32_from_bits(vq_f32_bits(x) & 0x7fffffffu);
}

/* picture_copy(): scale 0's input sample, offset -128 */
VQ_HD float vq_fadm_sample0(const VqPlaneView v, int bpc, int i, int j)
{
    const uint32_t s = vq_sample(v, i, j);
    if (bpc == 8)
        return (float)s + (float)-128;
    const float scaler = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
    return (float)s / scaler + (float)-128;
}

/* dwt2_src_indices_filt_s(): tap k (0..3) of output i over n input samples */
VQ_HD int vq_fadm_tap(int k, int i, int n)
{
    const int t = 2 * i - 1 + k;
    if (k == 0 && t < 0)
        return -t;
    return t >= n ? 2 * n - t - 1 : t;
}

/* the vertical pass of one column: lo and hi of the four taps' samples */
VQ_HD void vq_fadm_vert(float s0, float s1, float s2, float s3, float *lo, float *hi)
{
    float a = 0;
    a += VQ_FADM_LO0 * s0;
    a += VQ_FADM_LO1 * s1;
    a += VQ_FADM_LO2 * s2;
    a += VQ_FADM_LO3 * s3;
    *lo = a;
    float b = 0;
    b += VQ_FADM_HI0 * s0;
    b += VQ_FADM_HI1 * s1;
    b += VQ_FADM_HI2 * s2;
    b += VQ_FADM_HI3 * s3;
    *hi = b;
}

/* the horizontal pass: lo and hi of four vertical-pass values */
VQ_HD float vq_fadm_horz_lo(float s0, float s1, float s2, float s3)
{
    float a = 0;
    a += VQ_FADM_LO0 * s0;
    a += VQ_FADM_LO1 * s1;
    a += VQ_FADM_LO2 * s2;
    a += VQ_FADM_LO3 * s3;
    return a;
}

VQ_HD float vq_fadm_horz_hi(float s0, float s1, float s2, float s3)
{
    float a = 0;
    a += VQ_FADM_HI0 * s0;
    a += VQ_FADM_HI1 * s1;
    a += VQ_FADM_HI2 * s2;
    a += VQ_FADM_HI3 * s3;
    return a;
}

/* the horizontal pass of one output sample from the vertical pass's lo and
 * hi values at its four taps: out = { a, h, v, d } (a = lo(lo), v = hi(lo),
 * h = lo(hi), d = hi(hi)) */
VQ_HD void vq_fadm_dwt_out(const float lo[4], const float hi[4], float out[4])
{
    out[0] = vq_fadm_horz_lo(lo[0], lo[1], lo[2], lo[3]);
    out[2] = vq_fadm_horz_hi(lo[0], lo[1], lo[2], lo[3]);
    out[1] = vq_fadm_horz_lo(hi[0], hi[1], hi[2], hi[3]);
    out[3] = vq_fadm_horz_hi(hi[0], hi[1], hi[2], hi[3]);
}

/* adm_decouple_s for one orientation after the angle test: r and a */
VQ_HD void vq_fadm_restore(const VqRcpTable *t, float o, float d, int angle_flag, double egl, float *r,
                           float *a)
{
    float k = vq_rcp_div(t, d, o + VQ_FADM_EPS);
    k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
    float rst = k * o;
    /* MIN/MAX of a double and a float: compared and chosen in double */
    if (angle_flag && (rst > 0.0)) {
        const double g = (double)rst * egl;
        rst = (float)(g < (double)d ? g : (double)d);
    }
    if (angle_flag && (rst < 0.0)) {
        const double g = (double)rst * egl;
        rst = (float)(g > (double)d ? g : (double)d);
    }
    *r = rst;
    *a = d - rst;
}

/* adm_decouple_s of one pixel: ref (oh, ov, od) and dis (th, tv, td) */
VQ_HD void vq_fadm_decouple(const VqRcpTable *t, const float o[3], const float d[3], double egl,
                            float cos_1deg_sq, float r[3], float a[3])
{
    /* the reference computes k and rst of all three first; the angle test
     * reads only o and d, so the order does not change a bit */
    const float ot_dp = o[0] * d[0] + o[1] * d[1];
    const float o_mag_sq = o[0] * o[0] + o[1] * o[1];
    const float t_mag_sq = d[0] * d[0] + d[1] * d[1];
    const int angle_flag = (ot_dp >= 0.0f) && (ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq);
    for (int b = 0; b < 3; b++)
        vq_fadm_restore(t, o[b], d[b], angle_flag, egl, &r[b], &a[b]);
}

/* adm_csf_s of one value: the CSF'd value and its 1/30 "filtered" magnitude */
VQ_HD float vq_fadm_csf(float factor, float x)
{
    return factor * x;
}

VQ_HD float vq_fadm_flt(float csf)
{
    return (float)(VQ_FADM_ONE_BY_30 * (double)vq_fadm_abs(csf));
}

/* the reflection of ADM_CM_THRESH_S_*: index -1 reads 1, index n reads n - 1 */
VQ_HD int vq_fadm_mirror(int k, int n)
{
    return k < 0 ? 1 : (k >= n ? n - 1 : k);
}

/*
 * One orientation's part of the CM threshold at (i, j): the nine terms of
 * ADM_CM_THRESH_S_* in their order (row i-1, row i, row i+1; left to
 * right), the centre one a double: 0.0666666701 * |csf(i, j)|, added in
 * double and rounded to float.  f0, f1, f2: the flt rows i-1, i, i+1
 * (mirrored); jm, jp: columns j-1, j+1 (mirrored).
 */
VQ_HD float vq_fadm_thr_part(const float *f0, const float *f1, const float *f2, int jm, int j, int jp,
                             float centre_csf)
{
    float sum = 0;
    sum += f0[jm];
    sum += f0[j];
    sum += f0[jp];
    sum += f1[jm];
    sum = (float)((double)sum + VQ_FADM_ONE_BY_15 * (double)vq_fadm_abs(centre_csf));
    sum += f1[jp];
    sum += f2[jm];
    sum += f2[j];
    sum += f2[jp];
    return sum;
}

/* the threshold from the three orientations' parts: *accum = 0, += each */
VQ_HD float vq_fadm_thr(float part_h, float part_v, float part_d)
{
    float thr = 0;
    thr += part_h;
    thr += part_v;
    thr += part_d;
    return thr;
}

/* adm_cm_s per value: |x| - thr clipped at 0 (x = factor * source) */
VQ_HD float vq_fadm_cm_x(float x, float thr)
{
    float v = vq_fadm_abs(x) - thr;
    return v < 0.0f ? 0.0f : v;
}

/* val * val * val, the p = 3 term of every sum */
VQ_HD float vq_fadm_cube(float v)
{
    return v * v * v;
}

/* ---- one scale's images, as both executors lay them out ---- */

/* per scale, band-sized float planes: the DWT bands of ref (RA..RD) and dis
 * (DA..DD), and per orientation h, v, d the CSF'd r and a and their 1/30
 * magnitudes (written in the decouple rect only) */
enum {
    VQ_FADM_RA, VQ_FADM_RH, VQ_FADM_RV, VQ_FADM_RD,
    VQ_FADM_DA, VQ_FADM_DH, VQ_FADM_DV, VQ_FADM_DD,
    VQ_FADM_CSF_R, VQ_FADM_CSF_A = VQ_FADM_CSF_R + 3,
    VQ_FADM_FLT_R = VQ_FADM_CSF_A + 3, VQ_FADM_FLT_A = VQ_FADM_FLT_R + 3,
    VQ_FADM_NPLANES = VQ_FADM_FLT_A + 3
};

/* plane k of a scale, rows of `stride` floats */
typedef struct VqFadmImages {
    float *plane[VQ_FADM_NPLANES];
    int32_t stride;
} VqFadmImages;

/* adm_decouple_s + adm_csf_s of pixel (i, j): the csf and flt planes */
VQ_HD void vq_fadm_dec_pixel(const VqRcpTable *t, const VqFadmImages *im, const VqFadmScale *sc, double egl,
                             float cos_1deg_sq, int i, int j)
{
    const size_t at = (size_t)i * im->stride + j;
    const float o[3] = { im->plane[VQ_FADM_RH][at], im->plane[VQ_FADM_RV][at], im->plane[VQ_FADM_RD][at] };
    const float d[3] = { im->plane[VQ_FADM_DH][at], im->plane[VQ_FADM_DV][at], im->plane[VQ_FADM_DD][at] };
    float r[3], a[3];
    vq_fadm_decouple(t, o, d, egl, cos_1deg_sq, r, a);
    for (int b = 0; b < 3; b++) {
        const float cr = vq_fadm_csf(sc->rfactor[b], r[b]), ca = vq_fadm_csf(sc->rfactor[b], a[b]);
        im->plane[VQ_FADM_CSF_R + b][at] = cr;
        im->plane[VQ_FADM_CSF_A + b][at] = ca;
        im->plane[VQ_FADM_FLT_R + b][at] = vq_fadm_flt(cr);
        im->plane[VQ_FADM_FLT_A + b][at] = vq_fadm_flt(ca);
    }
}

/*
 * The nine values pixel (i, j) of the CM rect adds to its row's sums (each
 * to the power p): den h, v, d: |factor * ref band|; num h, v, d: |csf_r| -
 * thr(a) clipped at 0; aim h, v, d: |csf_a| - thr(r) clipped at 0.  im, ip,
 * jm, jp: the mirrored neighbours (vq_fadm_mirror).
 */
VQ_HD void vq_fadm_pixel(const VqFadmImages *im, const VqFadmScale *sc, int bypass_cm, int i, int im1, int ip1,
                         int j, int jm, int jp, float x[VQ_FADM_NSUMS])
{
    const size_t s = (size_t)im->stride, at = (size_t)i * s + j;
    for (int b = 0; b < 3; b++)
        x[VQ_ADM_DEN_H + b] = vq_fadm_abs(sc->rfactor[b] * im->plane[VQ_FADM_RH + b][at]);
    float thr_a = 0.0f, thr_r = 0.0f;
    if (!bypass_cm) {
        float pa[3], pr[3];
        for (int b = 0; b < 3; b++) {
            const float *fa = im->plane[VQ_FADM_FLT_A + b], *fr = im->plane[VQ_FADM_FLT_R + b];
            pa[b] = vq_fadm_thr_part(fa + im1 * s, fa + i * s, fa + ip1 * s, jm, j, jp,
                                     im->plane[VQ_FADM_CSF_A + b][at]);
            pr[b] = vq_fadm_thr_part(fr + im1 * s, fr + i * s, fr + ip1 * s, jm, j, jp,
                                     im->plane[VQ_FADM_CSF_R + b][at]);
        }
        thr_a = vq_fadm_thr(pa[0], pa[1], pa[2]);
        thr_r = vq_fadm_thr(pr[0], pr[1], pr[2]);
    }
    for (int b = 0; b < 3; b++) {
        x[VQ_ADM_NUM_H + b] = vq_fadm_cm_x(im->plane[VQ_FADM_CSF_R + b][at], thr_a);
        x[VQ_ADM_AIM_H + b] = vq_fadm_cm_x(im->plane[VQ_FADM_CSF_A + b][at], thr_r);
    }
}

/* the row buffer's word of a float row sum */
VQ_HD int64_t vq_fadm_word(float f)
{
    return (int64_t)vq_f32_bits(f);
}

VQ_HD float vq_fadm_from_word(int64_t w)
{
    return vq_f32_from_bits((uint32_t)w);
}

#ifdef __cplusplus
}
#endif
#endif /* VQ_FLOAT_ADM_H */
