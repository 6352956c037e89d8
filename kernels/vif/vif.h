/*
 * vif.h - integer VIF (libvmaf v3.2.0 integer_vif.c, C path), written once
 * for the CPU executor (cpu_vif.cpp) and the CUDA kernels (cuda_vif.cu).
 *
 * Per scale s (0..3) of a frame pair:
 *   - down-sampling (s >= 1): img_s = every other row and column of
 *     filter_s(img_{s-1}), vertical pass then horizontal pass, both with
 *     reflect-101 borders; img_s is kept as uint16.
 *   - statistics: the separable filter_s gives, per pixel, mu1, mu2 and the
 *     filtered ref^2, dis^2, ref*dis; the per-pixel decision then adds into
 *     four int64 accumulators (vq_rows.h: VQ_VIF_NUM_LOG ... DEN_NON_LOG).
 * The host (hostmath/vif_fold.c) turns the accumulators into the score.
 *
 * Executors choose the order of work; the functions here fix the
 * arithmetic.  A vertical function takes the centre row (reflected here,
 * against the view's h) and an in-range column; a horizontal function takes
 * a pointer to the leftmost of the 2r+1 vertical results it combines, which
 * the executor laid out at reflected columns beforehand.
 */
#ifndef VQ_VIF_H
#define VQ_VIF_H

#include <stdint.h>

#include "vq_common.h"
#include "vq_rows.h"

/* tap loops: unrolled, so that constant taps become immediates */
#if defined(__CUDA_ARCH__)
#define VQ_VIF_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define VQ_VIF_UNROLL _Pragma("GCC unroll 17")
#else
#define VQ_VIF_UNROLL
#endif

/* ---- constants: the one home of the VIF filter taps ------------------- */

/* Q16 Gaussian taps; every row sums to exactly 65536. */
#define VQ_VIF_FILTER_S0 { 489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, \
                           7455, 6547, 5274, 3896, 2640, 1640, 935, 489 }
#define VQ_VIF_FILTER_S1 { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244 }
#define VQ_VIF_FILTER_S2 { 3571, 16004, 26386, 16004, 3571 }
#define VQ_VIF_FILTER_S3 { 10904, 43728, 10904 }

/* half-width r of filter s (17, 9, 5, 3 taps); a constant expression */
#define VQ_VIF_RADIUS(s) ((s) == 0 ? 8 : (s) == 1 ? 4 : (s) == 2 ? 2 : 1)
#define VQ_VIF_MAX_RADIUS 8

/* 2.0 in the units of sigma^2 ((8-bit pixel)^2 * 65536) */
#define VQ_VIF_SIGMA_NSQ 131072
/* the smallest size whose every scale can be reflected (w_3, h_3 >= 2) */
#define VQ_VIF_MIN_SIZE 16
/* entries of the host-built log2 table (hostmath/vif_fold.h) */
#define VQ_VIF_LOG2_TABLE_SIZE 65536

/*
 * Tap k (0 .. 2 * VQ_VIF_RADIUS(s)) of filter s.  Called with constants (the
 * CUDA kernels are templates on s, and their tap loops unroll) it folds
 * into an immediate.
 */
VQ_HD uint32_t vq_vif_tap(int s, int k)
{
    static const uint16_t f0[] = VQ_VIF_FILTER_S0, f1[] = VQ_VIF_FILTER_S1;
    static const uint16_t f2[] = VQ_VIF_FILTER_S2, f3[] = VQ_VIF_FILTER_S3;
    return s == 0 ? f0[k] : s == 1 ? f1[k] : s == 2 ? f2[k] : f3[k];
}

/*
 * ---- exact double steps ----
 * On the device these never contract into an FMA, whatever the flags; host
 * code relies on -ffp-contract=off (the project's build flags).
 */

VQ_HD double vq_vif_dmul(double a, double b)
{
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

VQ_HD double vq_vif_dadd(double a, double b)
{
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

VQ_HD double vq_vif_dsub(double a, double b)
{
#if defined(__CUDA_ARCH__)
    return __dsub_rn(a, b);
#else
    return a - b;
#endif
}

VQ_HD double vq_vif_ddiv(double a, double b)
{
#if defined(__CUDA_ARCH__)
    return __ddiv_rn(a, b);
#else
    return a / b;
#endif
}

/* ---- log2 through the table: top 16 significant bits, truncated ------- */

VQ_HD int vq_vif_clz32(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return __clz((int)x);
#else
    return __builtin_clz(x);
#endif
}

VQ_HD int vq_vif_clz64(uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return __clzll((long long)x);
#else
    return __builtin_clzll(x);
#endif
}

/*
 * 2048 * log2(x), for x >= 2^17 (always so here: x >= VQ_VIF_SIGMA_NSQ).
 * x >> k keeps x's top 16 bits, so only the table's upper half is read:
 * log2_hi is the table from entry VQ_VIF_LOG2_HI on (the CUDA kernel keeps
 * that half, 64 KB, in shared memory).
 */
#define VQ_VIF_LOG2_HI 32768

VQ_HD int32_t vq_vif_log2_32(const uint16_t *log2_hi, uint32_t x)
{
    const int k = 16 - vq_vif_clz32(x);
    return log2_hi[(x >> k) - VQ_VIF_LOG2_HI] + 2048 * k;
}

VQ_HD int32_t vq_vif_log2_64(const uint16_t *log2_hi, uint64_t x)
{
    const int k = 48 - vq_vif_clz64(x);
    return log2_hi[(uint32_t)(x >> k) - VQ_VIF_LOG2_HI] + 2048 * k;
}

/* ---- down-sampling: img_s from img_{s-1}, with filter_s ---------------- */

/*
 * Rounding shift of the vertical down-sampling pass into scale s (1..3).
 * Into scale 1 it takes the picture to 16-bit units (8-bit: +128 >> 8,
 * like the reference's subsample_rd_8; bpc > 8: +2^(bpc-1) >> bpc); after
 * that every image is already 16-bit, and the shift is 16.
 */
VQ_HD int vq_vif_down_shift(int s, int bpc)
{
    return s == 1 ? bpc : 16;
}

/*
 * Vertical pass at source row i (rows reflected against v.h), source
 * column j (in range).  uint32 cannot overflow: 65535 * 65536 + 32768.
 * The taps are integer sums: an executor may add them in any order
 * (tap * sample each, then vq_vif_down_vfinish).
 */
VQ_HD uint32_t vq_vif_down_vfinish(uint32_t acc, int shift)
{
    return (uint16_t)((acc + (1u << (shift - 1))) >> shift);
}

VQ_HD uint32_t vq_vif_down_vertical(int s, VqPlaneView v, int i, int j, int shift)
{
    const int r = VQ_VIF_RADIUS(s);
    uint32_t acc = 0;
    int k;
    VQ_VIF_UNROLL
    for (k = 0; k <= 2 * r; k++) {
        acc += (uint32_t)vq_vif_tap(s, k) * vq_sample(v, vq_reflect101(i - r + k, v.h), j);
    }
    return vq_vif_down_vfinish(acc, shift);
}

/* Horizontal pass: t[0..2r] are vertical results at columns j-r..j+r. */
VQ_HD uint16_t vq_vif_down_horizontal(int s, const uint32_t *t)
{
    const int r = VQ_VIF_RADIUS(s);
    uint32_t acc = 0;
    int k;
    VQ_VIF_UNROLL
    for (k = 0; k <= 2 * r; k++) {
        acc += (uint32_t)vq_vif_tap(s, k) * t[k];
    }
    return (uint16_t)((acc + 32768) >> 16);
}

/* ---- statistics ------------------------------------------------------- */

/*
 * After the vertical pass: mu1/mu2 filtered and rounded to 16-bit units,
 * xx/yy/xy the filtered squares and product.  After the horizontal pass:
 * mu1/mu2 filtered but NOT shifted (Q16 of 16-bit units), xx/yy/xy rounded
 * back by 16 bits.  Units of the latter: (8-bit pixel)^2 * 65536.
 */
typedef struct VqVifMoments {
    uint32_t mu1, mu2;
    uint32_t xx, yy, xy;
} VqVifMoments;

/* Rounding of the vertical statistics pass (reference's *_VP and *_VP_sq). */
typedef struct VqVifStatShift {
    int32_t mu_shift;
    uint32_t mu_round;
    int32_t sq_shift;
    uint64_t sq_round;
} VqVifStatShift;

VQ_HD VqVifStatShift vq_vif_stat_shift(int s, int bpc)
{
    VqVifStatShift sh;
    if (s == 0) {
        sh.mu_shift = bpc;
        sh.mu_round = 1u << (bpc - 1);
        sh.sq_shift = 2 * (bpc - 8);
        sh.sq_round = bpc == 8 ? 0 : (uint64_t)1 << (sh.sq_shift - 1);
    } else {
        sh.mu_shift = 16;
        sh.mu_round = 32768;
        sh.sq_shift = 16;
        sh.sq_round = 32768;
    }
    return sh;
}

/*
 * The vertical pass, one tap at a time: a source sample pair (x, y) with
 * its products, multiplied by a tap and added into the accumulators.  The
 * executors may visit the taps of an output in any order (integer sums that
 * cannot overflow: the order does not change them); the CUDA kernel keeps
 * the accumulators of several output rows in registers and visits each
 * source row once.
 */
typedef struct VqVifSample {
    uint32_t x, y, xx, yy, xy;   /* x*x <= 65535^2 < 2^32: every product fits */
} VqVifSample;

VQ_HD VqVifSample vq_vif_sample_pair(uint32_t x, uint32_t y)
{
    VqVifSample p;
    p.x = x;
    p.y = y;
    p.xx = x * x;
    p.yy = y * y;
    p.xy = x * y;
    return p;
}

/*
 * Scale 0 of 8-bit video (the reference's vif_statistic_8): the squares are
 * not shifted, and every sum fits 32 bits (255 * 255 * 65536 < 2^32), so
 * this equals the wide path; it is kept because narrow multiply-adds are
 * much cheaper on the GPU.  The means are summed in float: each product
 * tap * x (<= 7784 * 255) and each partial sum (<= 65536 * 255 < 2^24) is
 * an integer that a float holds exactly, so the result is the integer sum,
 * in any order, fused or not.  On the GPU that moves two of the five
 * moments' multiply-adds from the integer pipe to the float pipes.
 */
typedef struct VqVifVert8 {
    float mu1, mu2;
    uint32_t xx, yy, xy;
} VqVifVert8;

/* a * b + c where all three and the result are integers below 2^24 */
VQ_HD float vq_vif_fma_exact(float a, float b, float c)
{
#if defined(__CUDA_ARCH__)
    return __fmaf_rn(a, b, c);
#else
    return a * b + c;
#endif
}

VQ_HD void vq_vif_vert8_tap(VqVifVert8 *a, uint32_t tap, VqVifSample p)
{
    a->mu1 = vq_vif_fma_exact((float)tap, (float)p.x, a->mu1);
    a->mu2 = vq_vif_fma_exact((float)tap, (float)p.y, a->mu2);
    a->xx += tap * p.xx;
    a->yy += tap * p.yy;
    a->xy += tap * p.xy;
}

VQ_HD VqVifMoments vq_vif_vert8_finish(VqVifVert8 a)
{
    VqVifMoments m;
    m.mu1 = ((uint32_t)a.mu1 + 128) >> 8;
    m.mu2 = ((uint32_t)a.mu2 + 128) >> 8;
    m.xx = a.xx;
    m.yy = a.yy;
    m.xy = a.xy;
    return m;
}

/* Every other case (the reference's vif_statistic_16): uint64 squares. */
typedef struct VqVifVert16 {
    uint32_t mu1, mu2;
    uint64_t xx, yy, xy;
} VqVifVert16;

VQ_HD void vq_vif_vert16_tap(VqVifVert16 *a, uint32_t tap, VqVifSample p)
{
    a->mu1 += tap * p.x;   /* <= 65535 * 65536 in all: fits */
    a->mu2 += tap * p.y;
    a->xx += (uint64_t)tap * p.xx;
    a->yy += (uint64_t)tap * p.yy;
    a->xy += (uint64_t)tap * p.xy;
}

VQ_HD VqVifMoments vq_vif_vert16_finish(VqVifVert16 a, VqVifStatShift sh)
{
    VqVifMoments m;
    m.mu1 = (uint16_t)((a.mu1 + sh.mu_round) >> sh.mu_shift);
    m.mu2 = (uint16_t)((a.mu2 + sh.mu_round) >> sh.mu_shift);
    m.xx = (uint32_t)((a.xx + sh.sq_round) >> sh.sq_shift);
    m.yy = (uint32_t)((a.yy + sh.sq_round) >> sh.sq_shift);
    m.xy = (uint32_t)((a.xy + sh.sq_round) >> sh.sq_shift);
    return m;
}

/*
 * ---- the wide sums on the FP64 pipe (GPUs whose fp64 is fast) ----
 * The 64-bit sums of the squares and the product, in both passes, are
 * integers below 2^53: every product tap * v is below 2^16 * 2^32 = 2^48
 * and so is every partial sum (the taps add up to 65536, v < 2^32).  A
 * double holds each exactly, so a double sum equals the integer one, in any
 * order, fused or not.  The conversions are exact too: a uint32 becomes a
 * double by a conversion instruction on the device and through the bits of
 * 2^52 + x (one subtraction) on the host, and a rounding shift reads the
 * integer back from the bits of 2^52 + sum + round.  The
 * CUDA executor picks this formulation or the integer one per device
 * (cuda_vif.cu); test_vif checks the two against each other.
 */
#define VQ_VIF_F64_2P52 4503599627370496.0   /* 2^52 */

/* x as a double, exactly: on the device one conversion instruction (the
 * bits of 2^52 + x cost a move and a subtraction); on the host through those
 * bits (test_vif checks them against (double)x, vqparity the device's) */
VQ_HD double vq_vif_f64_of_u32(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return __uint2double_rn(x);
#else
    return vq_vif_dsub(vq_f64_from_bits(0x4330000000000000ull | x), VQ_VIF_F64_2P52);
#endif
}

/* (a + round) >> shift, truncated to 32 bits, of an integer-valued a with
 * a + round < 2^52: 2^52 + a + round is exact, and its low 52 bits are
 * a + round */
VQ_HD uint32_t vq_vif_f64_round_shift(double a, uint64_t round, int shift)
{
    const uint64_t b = vq_f64_bits(vq_vif_dadd(a, vq_vif_dadd(VQ_VIF_F64_2P52, (double)round)));
    return (uint32_t)((b & 0xfffffffffffffull) >> shift);
}

/* the moments from sums whose wide ones are doubles: those rounded by shift */
VQ_HD VqVifMoments vq_vif_f64_moments(uint32_t mu1, uint32_t mu2, double xx, double yy, double xy,
                                      uint64_t round, int shift)
{
    VqVifMoments m;
    m.mu1 = mu1;
    m.mu2 = mu2;
    m.xx = vq_vif_f64_round_shift(xx, round, shift);
    m.yy = vq_vif_f64_round_shift(yy, round, shift);
    m.xy = vq_vif_f64_round_shift(xy, round, shift);
    return m;
}

/* five moments, their sums or a sample pair's terms, the wide ones as
 * doubles: the vertical pass's inputs and accumulators (vif_statistic_16),
 * the horizontal pass's inputs and accumulators */
typedef struct VqVifWide {
    uint32_t mu1, mu2;
    double xx, yy, xy;
} VqVifWide;

/* a * b + c where all three and the result are integers below 2^53 */
VQ_HD double vq_vif_dfma_exact(double a, double b, double c)
{
#if defined(__CUDA_ARCH__)
    return __fma_rn(a, b, c);
#else
    return a * b + c;
#endif
}

/* the five from 32-bit ones, the wide ones converted */
VQ_HD VqVifWide vq_vif_wide(uint32_t mu1, uint32_t mu2, uint32_t xx, uint32_t yy, uint32_t xy)
{
    VqVifWide d;
    d.mu1 = mu1;
    d.mu2 = mu2;
    d.xx = vq_vif_f64_of_u32(xx);
    d.yy = vq_vif_f64_of_u32(yy);
    d.xy = vq_vif_f64_of_u32(xy);
    return d;
}

/* one tap of either pass on the FP64 pipe: a += tap * t, the means in
 * uint32 (as the integer passes), the wide sums in double */
VQ_HD void vq_vif_wide_tap(VqVifWide *a, uint32_t tap, VqVifWide t)
{
    a->mu1 += tap * t.mu1;
    a->mu2 += tap * t.mu2;
    a->xx = vq_vif_dfma_exact((double)tap, t.xx, a->xx);
    a->yy = vq_vif_dfma_exact((double)tap, t.yy, a->yy);
    a->xy = vq_vif_dfma_exact((double)tap, t.xy, a->xy);
}

/* a sample pair as the vertical pass of vif_statistic_16 on the FP64 pipe
 * takes it: the samples, and their products as doubles */
VQ_HD VqVifWide vq_vif_sample_f64(VqVifSample p)
{
    return vq_vif_wide(p.x, p.y, p.xx, p.yy, p.xy);
}

/* equals vq_vif_vert16_finish of the integer sums */
VQ_HD VqVifMoments vq_vif_vert16_finish_f64(VqVifWide a, VqVifStatShift sh)
{
    return vq_vif_f64_moments((uint16_t)((a.mu1 + sh.mu_round) >> sh.mu_shift),
                              (uint16_t)((a.mu2 + sh.mu_round) >> sh.mu_shift), a.xx, a.yy, a.xy, sh.sq_round,
                              sh.sq_shift);
}

VQ_HD VqVifMoments vq_vif_stat_vertical_8(VqPlaneView ref, VqPlaneView dis, int i, int j)
{
    const int r = VQ_VIF_RADIUS(0);
    VqVifVert8 a = { 0, 0, 0, 0, 0 };
    int k;
    VQ_VIF_UNROLL
    for (k = 0; k <= 2 * r; k++) {
        const int row = vq_reflect101(i - r + k, ref.h);
        vq_vif_vert8_tap(&a, vq_vif_tap(0, k),
                         vq_vif_sample_pair(vq_sample(ref, row, j), vq_sample(dis, row, j)));
    }
    return vq_vif_vert8_finish(a);
}

VQ_HD VqVifMoments vq_vif_stat_vertical_16(int s, VqPlaneView ref, VqPlaneView dis,
                                           int i, int j, VqVifStatShift sh)
{
    const int r = VQ_VIF_RADIUS(s);
    VqVifVert16 a = { 0, 0, 0, 0, 0 };
    int k;
    VQ_VIF_UNROLL
    for (k = 0; k <= 2 * r; k++) {
        const int row = vq_reflect101(i - r + k, ref.h);
        vq_vif_vert16_tap(&a, vq_vif_tap(s, k),
                          vq_vif_sample_pair(vq_sample(ref, row, j), vq_sample(dis, row, j)));
    }
    return vq_vif_vert16_finish(a, sh);
}

/* The reference's split: the 8-bit path only for scale 0 of 8-bit video. */
VQ_HD VqVifMoments vq_vif_stat_vertical(int s, VqPlaneView ref, VqPlaneView dis,
                                        int i, int j, int bpc)
{
    if (s == 0 && bpc == 8)
        return vq_vif_stat_vertical_8(ref, dis, i, j);
    return vq_vif_stat_vertical_16(s, ref, dis, i, j, vq_vif_stat_shift(s, bpc));
}

/* The horizontal pass, one tap at a time (any order, as above). */
typedef struct VqVifHorz {
    uint32_t mu1, mu2;
    uint64_t xx, yy, xy;
} VqVifHorz;

VQ_HD void vq_vif_horz_tap(VqVifHorz *a, uint32_t tap, VqVifMoments t)
{
    a->mu1 += tap * t.mu1;
    a->mu2 += tap * t.mu2;
    a->xx += (uint64_t)tap * t.xx;
    a->yy += (uint64_t)tap * t.yy;
    a->xy += (uint64_t)tap * t.xy;
}

VQ_HD VqVifMoments vq_vif_horz_finish(VqVifHorz a)
{
    VqVifMoments m;
    m.mu1 = a.mu1;
    m.mu2 = a.mu2;
    m.xx = (uint32_t)((a.xx + 32768) >> 16);
    m.yy = (uint32_t)((a.yy + 32768) >> 16);
    m.xy = (uint32_t)((a.xy + 32768) >> 16);
    return m;
}

/* The horizontal pass on the FP64 pipe: the vertical moments with the
 * wide ones as doubles (converted once, used by every output they reach) */
VQ_HD VqVifWide vq_vif_moments_f64(VqVifMoments t)
{
    return vq_vif_wide(t.mu1, t.mu2, t.xx, t.yy, t.xy);
}

/* equals vq_vif_horz_finish of the integer sums */
VQ_HD VqVifMoments vq_vif_horz_finish_f64(VqVifWide a)
{
    return vq_vif_f64_moments(a.mu1, a.mu2, a.xx, a.yy, a.xy, 32768, 16);
}

/* Horizontal pass: t[0..2r] are vertical results at columns j-r..j+r. */
VQ_HD VqVifMoments vq_vif_stat_horizontal(int s, const VqVifMoments *t)
{
    const int r = VQ_VIF_RADIUS(s);
    VqVifHorz a = { 0, 0, 0, 0, 0 };
    int k;
    VQ_VIF_UNROLL
    for (k = 0; k <= 2 * r; k++)
        vq_vif_horz_tap(&a, vq_vif_tap(s, k), t[k]);
    return vq_vif_horz_finish(a);
}

/* (a * b + 2^31) >> 32 of two Q16 means: a product in the units of xx */
VQ_HD uint32_t vq_vif_mu_product(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a * b + 2147483648u) >> 32);
}

/*
 * The per-pixel decision: adds one pixel into acc[VQ_VIF_NSUMS] (int64,
 * indexed by the vq_rows.h enum).  egl is the enhancement gain limit
 * (default 100.0; the neg model uses 1.0); log2_hi: see vq_vif_log2_32.
 * The double steps are the reference's, in its order; g is clamped only
 * after sv_sq used it.
 */
VQ_HD void vq_vif_accumulate_hi(int64_t *acc, VqVifMoments m, const uint16_t *log2_hi, double egl)
{
    /* uint32 differences reinterpreted as int32, as the reference does */
    const int32_t sigma1_sq = (int32_t)(m.xx - vq_vif_mu_product(m.mu1, m.mu1));
    const int32_t sigma12 = (int32_t)(m.xy - vq_vif_mu_product(m.mu1, m.mu2));
    int32_t sigma2_sq = (int32_t)(m.yy - vq_vif_mu_product(m.mu2, m.mu2));
    if (sigma2_sq < 0)
        sigma2_sq = 0;

    if (sigma1_sq >= VQ_VIF_SIGMA_NSQ) {
        acc[VQ_VIF_DEN_LOG] +=
            vq_vif_log2_32(log2_hi, (uint32_t)sigma1_sq + VQ_VIF_SIGMA_NSQ) - 2048 * 17;
        if (sigma12 > 0 && sigma2_sq > 0) {
            const double eps = 65536 * 1.0e-10;   /* the reference's expression */
            double g = vq_vif_ddiv((double)sigma12, vq_vif_dadd((double)sigma1_sq, eps));
            /* C truncates toward 0; a result <= 0 (even below INT32_MIN,
             * where the reference's conversion is undefined) ends as 0, and
             * it is never above sigma2_sq, so (int32_t) is safe here */
            const double sv = vq_vif_dsub((double)sigma2_sq, vq_vif_dmul(g, (double)sigma12));
            const int32_t sv_sq = sv > 0.0 ? (int32_t)sv : 0;
            g = g < egl ? g : egl;
            /* the reference adds in int32 and may wrap: do it in uint32 */
            const uint32_t numer1 = (uint32_t)sv_sq + VQ_VIF_SIGMA_NSQ;
            const int64_t numer1_tmp =
                (int64_t)vq_vif_dmul(vq_vif_dmul(g, g), (double)sigma1_sq) + numer1;
            /* the reference takes both logarithms in 64 bits; numer1 is a
             * uint32, where the 32-bit one is the same (48 - clz64(x) =
             * 16 - clz32(x): the same shift and entry; test_vif checks it) */
            acc[VQ_VIF_NUM_LOG] += vq_vif_log2_64(log2_hi, (uint64_t)numer1_tmp) -
                                   vq_vif_log2_32(log2_hi, numer1);
        }
    } else {
        acc[VQ_VIF_NUM_NON_LOG] += sigma2_sq;
        acc[VQ_VIF_DEN_NON_LOG] += 1;
    }
}

/* The same, given the whole table (VQ_VIF_LOG2_TABLE_SIZE entries). */
VQ_HD void vq_vif_accumulate(int64_t *acc, VqVifMoments m, const uint16_t *log2_table, double egl)
{
    vq_vif_accumulate_hi(acc, m, log2_table + VQ_VIF_LOG2_HI, egl);
}

#endif /* VQ_VIF_H */
