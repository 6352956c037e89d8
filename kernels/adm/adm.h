/*
 * adm.h - integer ADM arithmetic (libvmaf v3.2.0 integer_adm.c, scalar C
 * path), per output sample / per pixel, shared by the CPU executor
 * (cpu_adm.cpp) and the CUDA kernels (cuda_adm.cu).
 *
 * Per scale s (band size w x h, parameters p->s[s], adm_params.h):
 *   1. DWT of ref and dis: bands A, H, V, D.  Scale 0 reads the picture and
 *      works in int16, scales 1-3 read the previous A band in int32.
 *   2. Per pixel of the decouple rect: decouple (R, A'), CSF of A' and of R,
 *      reduced to what the contrast masking reads: the CM source samples
 *      (R and A' times the fixed-point CSF factor) and, per pixel, the sums
 *      over h, v, d of csf_f and of the centre term (VqAdmCmIn).
 *   3. Per pixel of the CM rect: the denominator term of each ref band, the
 *      CM value of R (threshold from A') and, for AIM, of A' (threshold
 *      from R, noise weight 0).  Summed per row into the row buffer as raw
 *      integers; hostmath/adm/adm_fold.cpp applies the per-row rounding shifts.
 *
 * All integer wraps of the reference (int16 stores, int32 products) are
 * reproduced with explicit casts; the angle test is float/double as written.
 */
#ifndef VQ_ADM_H
#define VQ_ADM_H

#include <stdint.h>

#include "vq_common.h"
#include "adm_params.h"

/* db2 taps, Q15-ish: lo sums to 46342, hi to 0 */
#define VQ_ADM_LO0 15826
#define VQ_ADM_LO1 27411
#define VQ_ADM_LO2 7345
#define VQ_ADM_LO3 (-4240)
#define VQ_ADM_HI0 (-4240)
#define VQ_ADM_HI1 (-7345)
#define VQ_ADM_HI2 27411
#define VQ_ADM_HI3 (-15826)
#define VQ_ADM_LO_SUM 46342

/* One output sample of the four bands (scale 0 values are int16). */
typedef struct VqAdmDwtOut {
    int32_t a, h, v, d;
} VqAdmDwtOut;

/*
 * What the contrast masking needs from one pixel after decouple and CSF.
 * x_r/x_a: R and A' scaled by the CSF factor (the CM "x" before |x| - thr);
 * f_a/c_a: sum over h, v, d of csf_f(A') and of the centre term of csf_a(A');
 * f_r/c_r: the same for R (AIM: the roles of R and A' are swapped).
 * Sums are int32 with the reference's wrap.
 */
typedef struct VqAdmCmIn {
    int32_t x_r[3], x_a[3];
    int32_t f_a, c_a, f_r, c_r;
} VqAdmCmIn;

/* per band row: the row-buffer entries, see VQ_ADM_* in vq_rows.h */
typedef struct VqAdmRowSums {
    uint64_t v[VQ_ADM_NSUMS];
} VqAdmRowSums;

/* ---------------------------------------------------------------- DWT --- */

/*
 * dwt2_src_indices_filt(): the 4 input indices of output i for an input of
 * n samples (n >= 5).  i = 0 reads (1, 0, 1, 2); at the end a tap t >= n
 * reads 2n - t - 1 (the edge sample repeated).  The reference applies the
 * end rule only for i >= ceil(n/2) - 2, where it is the only place it can
 * apply, so it is applied unconditionally here.
 */
VQ_HD void vq_adm_dwt_taps(int i, int n, int t[4])
{
    int k;
    if (i == 0) {
        t[0] = 1; t[1] = 0; t[2] = 1; t[3] = 2;
        return;
    }
    for (k = 0; k < 4; k++) {
        int tap = 2 * i - 1 + k;
        t[k] = tap >= n ? 2 * n - tap - 1 : tap;
    }
}

/*
 * Scale 0 vertical pass on 4 picture samples (bpc bits): the low pass is
 * centred by -46342 * 2^(bpc-1).  int32 accumulation wraps for bpc = 16 in
 * the reference (GCC), hence the unsigned arithmetic.  Results are int16.
 */
VQ_HD void vq_adm_dwt0_vert(uint32_t u0, uint32_t u1, uint32_t u2, uint32_t u3, int bpc,
                            int16_t *lo, int16_t *hi)
{
    const uint32_t add = 1u << (bpc - 1);
    uint32_t acc;

    acc = (uint32_t)VQ_ADM_LO0 * u0 + (uint32_t)VQ_ADM_LO1 * u1 +
          (uint32_t)VQ_ADM_LO2 * u2 + (uint32_t)VQ_ADM_LO3 * u3;
    acc -= (uint32_t)VQ_ADM_LO_SUM * add;
    *lo = (int16_t)((int32_t)(acc + add) >> bpc);

    acc = (uint32_t)VQ_ADM_HI0 * u0 + (uint32_t)VQ_ADM_HI1 * u1 +
          (uint32_t)VQ_ADM_HI2 * u2 + (uint32_t)VQ_ADM_HI3 * u3;
    *hi = (int16_t)((int32_t)(acc + add) >> bpc);
}

/* Scale 0 horizontal pass on 4 int16 vertical outputs: (sum + 2^15) >> 16. */
VQ_HD void vq_adm_dwt0_horz(int16_t t0, int16_t t1, int16_t t2, int16_t t3,
                            int16_t *lo, int16_t *hi)
{
    const int32_t slo = VQ_ADM_LO0 * t0 + VQ_ADM_LO1 * t1 + VQ_ADM_LO2 * t2 + VQ_ADM_LO3 * t3;
    const int32_t shi = VQ_ADM_HI0 * t0 + VQ_ADM_HI1 * t1 + VQ_ADM_HI2 * t2 + VQ_ADM_HI3 * t3;
    *lo = (int16_t)((slo + 32768) >> 16);
    *hi = (int16_t)((shi + 32768) >> 16);
}

/*
 * One output sample of the scale 0 DWT from its 4x4 input samples
 * u[row tap][column tap] (bpc bits).  Vertical low pass then horizontal
 * low/high gives A/V, vertical high pass then horizontal low/high gives H/D
 * (libvmaf's band naming).
 */
VQ_HD VqAdmDwtOut vq_adm_dwt0_block(const uint32_t u[4][4], int bpc)
{
    int16_t lo[4], hi[4], a, v, h, d;
    int k;
    VqAdmDwtOut o;

    for (k = 0; k < 4; k++)
        vq_adm_dwt0_vert(u[0][k], u[1][k], u[2][k], u[3][k], bpc, &lo[k], &hi[k]);
    vq_adm_dwt0_horz(lo[0], lo[1], lo[2], lo[3], &a, &v);
    vq_adm_dwt0_horz(hi[0], hi[1], hi[2], hi[3], &h, &d);
    o.a = a; o.h = h; o.v = v; o.d = d;
    return o;
}

/* One output sample (i, j) of the scale 0 DWT, read from the picture. */
VQ_HD VqAdmDwtOut vq_adm_dwt0_sample(const VqPlaneView src, int bpc, int i, int j)
{
    int ty[4], tx[4], r, c;
    uint32_t u[4][4];

    vq_adm_dwt_taps(i, src.h, ty);
    vq_adm_dwt_taps(j, src.w, tx);
    for (r = 0; r < 4; r++)
        for (c = 0; c < 4; c++)
            u[r][c] = vq_sample(src, ty[r], tx[c]);
    return vq_adm_dwt0_block(u, bpc);
}

/* Scales 1-3: rounding of the vertical and horizontal passes. */
VQ_HD int32_t vq_adm_dwt_vadd(int scale) { return scale == 1 ? 0 : 32768; }
VQ_HD int vq_adm_dwt_vshift(int scale) { return scale == 1 ? 0 : 16; }
VQ_HD int32_t vq_adm_dwt_hadd(int scale) { return scale == 2 ? 32768 : 16384; }
VQ_HD int vq_adm_dwt_hshift(int scale) { return scale == 2 ? 16 : 15; }

/* 4-tap low/high pass in int64, then (sum + add) >> shift stored as int32 */
VQ_HD void vq_adm_dwt_s123_pass(int32_t x0, int32_t x1, int32_t x2, int32_t x3,
                                int32_t add, int shift, int32_t *lo, int32_t *hi)
{
    const int64_t slo = (int64_t)VQ_ADM_LO0 * x0 + (int64_t)VQ_ADM_LO1 * x1 +
                        (int64_t)VQ_ADM_LO2 * x2 + (int64_t)VQ_ADM_LO3 * x3;
    const int64_t shi = (int64_t)VQ_ADM_HI0 * x0 + (int64_t)VQ_ADM_HI1 * x1 +
                        (int64_t)VQ_ADM_HI2 * x2 + (int64_t)VQ_ADM_HI3 * x3;
    *lo = (int32_t)((slo + add) >> shift);
    *hi = (int32_t)((shi + add) >> shift);
}

/*
 * One output sample of the scale 1-3 DWT from its 4x4 input samples
 * x[row tap][column tap] of the previous scale's A band.
 */
VQ_HD VqAdmDwtOut vq_adm_dwt_s123_block(const int32_t x[4][4], int scale)
{
    const int32_t vadd = vq_adm_dwt_vadd(scale), hadd = vq_adm_dwt_hadd(scale);
    const int vshift = vq_adm_dwt_vshift(scale), hshift = vq_adm_dwt_hshift(scale);
    int32_t lo[4], hi[4];
    int k;
    VqAdmDwtOut o;

    for (k = 0; k < 4; k++)
        vq_adm_dwt_s123_pass(x[0][k], x[1][k], x[2][k], x[3][k], vadd, vshift, &lo[k], &hi[k]);
    vq_adm_dwt_s123_pass(lo[0], lo[1], lo[2], lo[3], hadd, hshift, &o.a, &o.v);
    vq_adm_dwt_s123_pass(hi[0], hi[1], hi[2], hi[3], hadd, hshift, &o.h, &o.d);
    return o;
}

/*
 * One output sample (i, j) of the scale 1-3 DWT of the previous scale's A
 * band (in_w x in_h int32 samples, row pitch `stride` samples).
 */
VQ_HD VqAdmDwtOut vq_adm_dwt_s123_sample(const int32_t *src, ptrdiff_t stride, int in_w, int in_h,
                                         int scale, int i, int j)
{
    int ty[4], tx[4], r, c;
    int32_t x[4][4];

    vq_adm_dwt_taps(i, in_h, ty);
    vq_adm_dwt_taps(j, in_w, tx);
    for (r = 0; r < 4; r++)
        for (c = 0; c < 4; c++)
            x[r][c] = src[ty[r] * stride + tx[c]];
    return vq_adm_dwt_s123_block(x, scale);
}

/* ----------------------------------------------------------- decouple --- */

VQ_HD int vq_adm_clz32(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return __clz((int)x);
#else
    return __builtin_clz(x);
#endif
}

/*
 * Whether the angle between (oh, ov) and (th, tv) is under 1 degree, as the
 * reference tests it: int64 -> float -> double, products in double, left to
 * right (no FMA: --fmad=false / -ffp-contract=off).
 */
VQ_HD int vq_adm_angle_flag(int64_t oh, int64_t ov, int64_t th, int64_t tv, float cos_1deg_sq)
{
    const int64_t ot_dp = oh * th + ov * tv;
    const int64_t o_mag_sq = oh * oh + ov * ov;
    const int64_t t_mag_sq = th * th + tv * tv;
    const double dp = (double)(float)ot_dp / 4096.0;
    return (dp >= 0.0) &&
           (dp * dp >= (double)cos_1deg_sq * ((double)(float)o_mag_sq / 4096.0) *
                                ((double)(float)t_mag_sq / 4096.0));
}

/*
 * The enhancement step of decouple: when the angles agree and the restored
 * value is nonzero, it may grow up to egl times, but not beyond t.
 * MIN/MAX are taken in double, the result truncated to the band type.
 */
VQ_HD int32_t vq_adm_enhance(int32_t rst, int32_t t, int64_t k, int32_t o, int angle_flag,
                             double egl)
{
    const float rst_f = ((float)k / 32768) * ((float)o / 64);
    if (angle_flag && rst_f > 0.0f) {
        const double g = rst * egl;
        return (int32_t)(g < (double)t ? g : (double)t);
    }
    if (angle_flag && rst_f < 0.0f) {
        const double g = rst * egl;
        return (int32_t)(g > (double)t ? g : (double)t);
    }
    return rst;
}

/* Scale 0 ratio k = t / o in Q15 through the 2^30 / |o| lookup, clamped to [0, 1]. */
VQ_HD int32_t vq_adm_ratio_s0(int16_t o, int16_t t)
{
    int32_t k, recip;
    if (o == 0)
        return 32768;
    recip = (int32_t)(1073741824 / (o < 0 ? -(int32_t)o : (int32_t)o));
    if (o < 0)
        recip = -recip;
    k = (int32_t)(((int64_t)recip * t + 16384) >> 15);
    return k < 0 ? 0 : (k > 32768 ? 32768 : k);
}

/*
 * Scales 1-3: |o| >= 2^15 is first rounded to 15 significant bits
 * (get_best15_from32), the extra shift applied after the product.
 */
VQ_HD int64_t vq_adm_ratio_s123(int32_t o, int32_t t)
{
    uint32_t abs_o, m;
    int shift = 0;
    int64_t k;
    if (o == 0)
        return 32768;
    abs_o = o < 0 ? 0u - (uint32_t)o : (uint32_t)o;
    if (abs_o < 32768) {
        m = abs_o;
    } else {
        shift = 17 - vq_adm_clz32(abs_o);
        m = (abs_o + (1u << (shift - 1))) >> shift;
    }
    k = (((int64_t)(int32_t)(1073741824 / m) * t) * (o < 0 ? -1 : 1) +
         (int64_t)(1 << (14 + shift))) >> (15 + shift);
    return k < 0 ? 0 : (k > 32768 ? 32768 : k);
}

/*
 * Decouple one pixel (adm_decouple): ref o = (h, v, d), dis t = (h, v, d)
 * -> restored r[3] and additive a[3] = t - r.  Scale 0 (int16 bands).
 */
VQ_HD void vq_adm_decouple_s0(const VqAdmDwtOut o, const VqAdmDwtOut t, double egl,
                              float cos_1deg_sq, int32_t r[3], int32_t a[3])
{
    const int16_t ov[3] = { (int16_t)o.h, (int16_t)o.v, (int16_t)o.d };
    const int16_t tv[3] = { (int16_t)t.h, (int16_t)t.v, (int16_t)t.d };
    const int flag = vq_adm_angle_flag(ov[0], ov[1], tv[0], tv[1], cos_1deg_sq);
    int b;
    for (b = 0; b < 3; b++) {
        const int32_t k = vq_adm_ratio_s0(ov[b], tv[b]);
        int16_t rst = (int16_t)((k * ov[b] + 16384) >> 15);
        rst = (int16_t)vq_adm_enhance(rst, tv[b], k, ov[b], flag, egl);
        r[b] = rst;
        a[b] = (int16_t)(tv[b] - rst);
    }
}

/* Decouple one pixel, scales 1-3 (int32 bands, adm_decouple_s123). */
VQ_HD void vq_adm_decouple_s123(const VqAdmDwtOut o, const VqAdmDwtOut t, double egl,
                                float cos_1deg_sq, int32_t r[3], int32_t a[3])
{
    const int32_t ov[3] = { o.h, o.v, o.d };
    const int32_t tv[3] = { t.h, t.v, t.d };
    const int flag = vq_adm_angle_flag(ov[0], ov[1], tv[0], tv[1], cos_1deg_sq);
    int b;
    for (b = 0; b < 3; b++) {
        const int64_t k = vq_adm_ratio_s123(ov[b], tv[b]);
        int32_t rst = (int32_t)((k * ov[b] + 16384) >> 15);
        rst = vq_adm_enhance(rst, tv[b], k, ov[b], flag, egl);
        r[b] = rst;
        a[b] = (int32_t)((uint32_t)tv[b] - (uint32_t)rst);
    }
}

/* ---------------------------------------------------------------- CSF --- */

/* Scale 0 csf_a: i_rfactor (Q21 h/v, Q23 d) times x; d rounds with +65535 >> 17. */
VQ_HD int16_t vq_adm_csf_a_s0(int32_t x, uint32_t i_rfactor, int band)
{
    const int32_t v = (int32_t)i_rfactor * (int32_t)(int16_t)x;
    return band == 2 ? (int16_t)((v + 65535) >> 17) : (int16_t)((v + 16384) >> 15);
}

/* Scale 0 csf_f, about |csf_a| / 30 in the CM threshold's scale */
VQ_HD int16_t vq_adm_csf_f_s0(int16_t csf_a)
{
    const int32_t m = csf_a < 0 ? -(int32_t)csf_a : csf_a;
    return (int16_t)((4369 * m + 2048) >> 12);
}

/* Scale 0 CM threshold centre term, about |csf_a| / 15 */
VQ_HD int16_t vq_adm_cm_centre_s0(int16_t csf_a)
{
    const int32_t m = csf_a < 0 ? -(int32_t)csf_a : csf_a;
    return (int16_t)((8738 * m + 2048) >> 12);
}

/* Scales 1-3 csf_a: (i_rfactor * x + 2^27) >> 28 (i_rfactor Q32) */
VQ_HD int32_t vq_adm_csf_a_s123(int32_t x, uint32_t i_rfactor)
{
    return (int32_t)(((int64_t)i_rfactor * x + (1 << 27)) >> 28);
}

/*
 * Scales 1-3 csf_f and CM centre term: c * |csf_a| >> 32 with the rounding
 * add the reference stores in an int32, 1u << 31, i.e. -2^31.  So small
 * magnitudes give -1 and thresholds can be negative.
 */
VQ_HD int32_t vq_adm_csf_f_s123(int32_t csf_a)
{
    const int64_t m = csf_a < 0 ? -(int64_t)csf_a : csf_a;
    return (int32_t)((143165577LL * m + (int64_t)INT32_MIN) >> 32);
}

VQ_HD int32_t vq_adm_cm_centre_s123(int32_t csf_a)
{
    const int64_t m = csf_a < 0 ? -(int64_t)csf_a : csf_a;
    return (int32_t)((286331153LL * m + (int64_t)INT32_MIN) >> 32);
}

/*
 * Decouple + CSF of one pixel: everything contrast masking reads from it.
 * scale 0 works on int16 values, scales 1-3 on int32.
 */
VQ_HD VqAdmCmIn vq_adm_pixel_cm_in(const VqAdmDwtOut ref, const VqAdmDwtOut dis,
                                   const VqAdmParams *p, int scale)
{
    const VqAdmScaleParams *sp = &p->s[scale];
    int32_t r[3], a[3];
    uint32_t f_a = 0, c_a = 0, f_r = 0, c_r = 0;
    VqAdmCmIn in;
    int b;

    if (scale == 0) {
        vq_adm_decouple_s0(ref, dis, p->egl, p->cos_1deg_sq, r, a);
        for (b = 0; b < 3; b++) {
            const int16_t ca = vq_adm_csf_a_s0(a[b], sp->i_rfactor[b], b);
            const int16_t cr = vq_adm_csf_a_s0(r[b], sp->i_rfactor[b], b);
            f_a += (uint32_t)(int32_t)vq_adm_csf_f_s0(ca);
            c_a += (uint32_t)(int32_t)vq_adm_cm_centre_s0(ca);
            f_r += (uint32_t)(int32_t)vq_adm_csf_f_s0(cr);
            c_r += (uint32_t)(int32_t)vq_adm_cm_centre_s0(cr);
            /* adm_cm: (int32)src * (uint16)i_rfactor */
            in.x_r[b] = (int32_t)(int16_t)r[b] * (int32_t)sp->i_rfactor[b];
            in.x_a[b] = (int32_t)(int16_t)a[b] * (int32_t)sp->i_rfactor[b];
        }
    } else {
        vq_adm_decouple_s123(ref, dis, p->egl, p->cos_1deg_sq, r, a);
        for (b = 0; b < 3; b++) {
            const int32_t ca = vq_adm_csf_a_s123(a[b], sp->i_rfactor[b]);
            const int32_t cr = vq_adm_csf_a_s123(r[b], sp->i_rfactor[b]);
            f_a += (uint32_t)vq_adm_csf_f_s123(ca);
            c_a += (uint32_t)vq_adm_cm_centre_s123(ca);
            f_r += (uint32_t)vq_adm_csf_f_s123(cr);
            c_r += (uint32_t)vq_adm_cm_centre_s123(cr);
            /* i4_adm_cm scales its source exactly like csf_a */
            in.x_r[b] = cr;
            in.x_a[b] = ca;
        }
    }
    in.f_a = (int32_t)f_a;
    in.c_a = (int32_t)c_a;
    in.f_r = (int32_t)f_r;
    in.c_r = (int32_t)c_r;
    return in;
}

/* ----------------------------------------------------- contrast masking --- */

/*
 * Masking threshold at (i, j) of a w x h band: the 8 neighbours' csf_f sums
 * plus the centre term.  Neighbour rows/columns -1 read 1 (reflect-101),
 * h / w read h-1 / w-1 (replicate), as the reference's edge macros do.
 */
VQ_HD int32_t vq_adm_cm_thr(const int32_t *fsum, ptrdiff_t stride, int i, int j, int w, int h,
                            int32_t centre)
{
    const int32_t *up = fsum + (ptrdiff_t)(i == 0 ? 1 : i - 1) * stride;
    const int32_t *mid = fsum + (ptrdiff_t)i * stride;
    const int32_t *dn = fsum + (ptrdiff_t)(i == h - 1 ? h - 1 : i + 1) * stride;
    const int jm = j == 0 ? 1 : j - 1;
    const int jp = j == w - 1 ? w - 1 : j + 1;
    uint32_t s = (uint32_t)centre;
    s += (uint32_t)up[jm] + (uint32_t)up[j] + (uint32_t)up[jp];
    s += (uint32_t)mid[jm] + (uint32_t)mid[jp];
    s += (uint32_t)dn[jm] + (uint32_t)dn[j] + (uint32_t)dn[jp];
    return (int32_t)s;
}

/*
 * Scale 0 CM value of one band sample (ADM_CM_ACCUM_ROUND): x = |x| -
 * (thr << sub), floored at 0, squared >> sq, cubed >> cub.  h, v: sub 10,
 * sq 29; d: sub 12, sq 30.
 */
VQ_HD int64_t vq_adm_cm_val_s0(int32_t x, int32_t thr, int band, uint32_t shift_cub,
                               uint32_t add_cub)
{
    const int sub = band == 2 ? 12 : 10;
    const int sq = band == 2 ? 30 : 29;
    const int64_t add_sq = band == 2 ? 536870912 : 268435456;
    const uint32_t ax = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
    int32_t xs = (int32_t)(ax - ((uint32_t)thr << sub));
    int32_t xsq;
    xs = xs < 0 ? 0 : xs;
    xsq = (int32_t)(((int64_t)xs * xs + add_sq) >> sq);
    return ((int64_t)xsq * xs + add_cub) >> shift_cub;
}

/* Scales 1-3 CM value (I4_ADM_CM_ACCUM_ROUND): no threshold shift, sq 30. */
VQ_HD int64_t vq_adm_cm_val_s123(int32_t x, int32_t thr, uint32_t shift_cub, uint32_t add_cub)
{
    const uint32_t ax = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
    int32_t xs = (int32_t)(ax - (uint32_t)thr);
    int32_t xsq;
    xs = xs < 0 ? 0 : xs;
    xsq = (int32_t)(((int64_t)xs * xs + 536870912) >> 30);
    return ((int64_t)xsq * xs + add_cub) >> shift_cub;
}

/* ------------------------------------------------------- denominator --- */

/* Scale 0 denominator term: |x|^3 as uint16 cubed in uint64 */
VQ_HD uint64_t vq_adm_den_term_s0(int32_t x)
{
    const uint16_t m = (uint16_t)(x < 0 ? -x : x);
    return ((uint64_t)m * m) * m;
}

/* Scales 1-3: (((x*x + add_sq) >> shift_sq) * x + add_cub) >> shift_cub, uint64 */
VQ_HD uint64_t vq_adm_den_term_s123(int32_t x, const VqAdmScaleParams *sp)
{
    const uint64_t m = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
    return ((((m * m) + sp->den_add_sq) >> sp->den_shift_sq) * m + sp->den_add_cub) >>
           sp->den_shift_cub;
}

/*
 * All row-buffer terms of one pixel (i, j) of the CM rect: denominator of the
 * ref bands, CM of R masked by A', AIM: CM of A' masked by R.  cm_in points
 * at the VqAdmCmIn planes laid out as planes[k] (k: x_r0..2, x_a0..2, f_a,
 * c_a, f_r, c_r), each `stride` samples per row.
 */
enum {
    VQ_ADM_IN_XR0, VQ_ADM_IN_XR1, VQ_ADM_IN_XR2,
    VQ_ADM_IN_XA0, VQ_ADM_IN_XA1, VQ_ADM_IN_XA2,
    VQ_ADM_IN_FA, VQ_ADM_IN_CA, VQ_ADM_IN_FR, VQ_ADM_IN_CR,
    VQ_ADM_IN_NPLANES
};

/* The working planes both executors keep: int32, the scale-0 band size,
 * reused by every scale (pitch = the band width). */
enum {
    VQ_ADM_PLANE_A_REF0, VQ_ADM_PLANE_A_REF1,     /* A bands, ping-pong */
    VQ_ADM_PLANE_A_DIS0, VQ_ADM_PLANE_A_DIS1,
    VQ_ADM_PLANE_REF_H, VQ_ADM_PLANE_REF_V, VQ_ADM_PLANE_REF_D,   /* ref bands for den */
    VQ_ADM_PLANE_IN0,                             /* VQ_ADM_IN_NPLANES planes */
    VQ_ADM_PLANE_COUNT = VQ_ADM_PLANE_IN0 + VQ_ADM_IN_NPLANES
};

/* The denominator terms of pixel (i, j): the reference's H, V, D bands
 * alone (a ladder computes them once for every rendition). */
VQ_HD void vq_adm_pixel_den(const int32_t *ref_h, const int32_t *ref_v, const int32_t *ref_d,
                            ptrdiff_t stride, const VqAdmParams *p, int scale, int i, int j,
                            uint64_t den[3])
{
    const ptrdiff_t o = (ptrdiff_t)i * stride + j;
    const int32_t rb[3] = { ref_h[o], ref_v[o], ref_d[o] };
    int b;
    for (b = 0; b < 3; b++)
        den[b] = scale == 0 ? vq_adm_den_term_s0(rb[b]) : vq_adm_den_term_s123(rb[b], &p->s[scale]);
}

VQ_HD void vq_adm_pixel_terms(const int32_t *const *in, const int32_t *ref_h,
                              const int32_t *ref_v, const int32_t *ref_d, ptrdiff_t stride,
                              const VqAdmParams *p, int scale, int i, int j,
                              uint64_t terms[VQ_ADM_NSUMS])
{
    const VqAdmScaleParams *sp = &p->s[scale];
    const ptrdiff_t o = (ptrdiff_t)i * stride + j;
    const int32_t thr_a = vq_adm_cm_thr(in[VQ_ADM_IN_FA], stride, i, j, sp->w, sp->h,
                                        in[VQ_ADM_IN_CA][o]);
    const int32_t thr_r = vq_adm_cm_thr(in[VQ_ADM_IN_FR], stride, i, j, sp->w, sp->h,
                                        in[VQ_ADM_IN_CR][o]);
    int b;
    /* DEN_H, DEN_V, DEN_D are adjacent (vq_rows.h) */
    vq_adm_pixel_den(ref_h, ref_v, ref_d, stride, p, scale, i, j, terms + VQ_ADM_DEN_H);
    for (b = 0; b < 3; b++) {
        const int32_t xr = in[VQ_ADM_IN_XR0 + b][o];
        const int32_t xa = in[VQ_ADM_IN_XA0 + b][o];
        if (scale == 0) {
            terms[VQ_ADM_NUM_H + b] = (uint64_t)vq_adm_cm_val_s0(xr, thr_a, b,
                                          sp->cm_shift_cub[b], sp->cm_add_cub[b]);
            terms[VQ_ADM_AIM_H + b] = (uint64_t)vq_adm_cm_val_s0(xa, thr_r, b,
                                          sp->cm_shift_cub[b], sp->cm_add_cub[b]);
        } else {
            terms[VQ_ADM_NUM_H + b] = (uint64_t)vq_adm_cm_val_s123(xr, thr_a,
                                          sp->cm_shift_cub[b], sp->cm_add_cub[b]);
            terms[VQ_ADM_AIM_H + b] = (uint64_t)vq_adm_cm_val_s123(xa, thr_r,
                                          sp->cm_shift_cub[b], sp->cm_add_cub[b]);
        }
    }
}

#endif /* VQ_ADM_H */
