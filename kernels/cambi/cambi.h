/*
 * cambi.h - the per-pixel arithmetic of libvmaf v3.2.0's CAMBI banding
 * detector (feature/cambi.c, C path), written once for the CPU executor
 * (cpu_cambi.cpp) and the CUDA kernels (cuda_cambi.cu).
 *
 * The pipeline of one pass (the distorted picture; with full_ref also the
 * source), all on integers except the c-value:
 *   1. luma -> 10 bits (and nearest-neighbour resizing to the encode size
 *      through host-built index tables)           vq_cambi_to10
 *   2. anti-dithering 2x2 mean when enc_bitdepth < 10  vq_cambi_antidither_at
 *   3. spatial mask at scale 0: 7x7 count of "flat" pixels (equal to the
 *      right and lower neighbours) > mask_index         vq_cambi_zero_deriv
 *   4. per scale s (0..4): the image is 2x-decimated (s > 0) then filtered
 *      by a 3x3 separable mode; the mask is mask0 at (i << s, j << s)
 *                                                       vq_cambi_mode_at
 *   5. per masked pixel: histogram counts of the values v-nd..v+nd over the
 *      window (2 pad + 1)^2, clipped to the image -> c-value (float)
 *                                                       vq_cambi_c_value
 *   6. per scale: mean of the top-k c-values (k = topk * w * h), weighted
 *      over the scales (host: hostmath/cambi/cambi_fold.h).
 * Nothing here calls a math library function.
 */
#ifndef VQ_CAMBI_H
#define VQ_CAMBI_H

#include "vq_common.h"

#define VQ_CAMBI_SCALES 5
#define VQ_CAMBI_MAX_DIFFS 32          /* 1 << max_log_contrast, max_log_contrast <= 5 */
#define VQ_CAMBI_LUT_SIZE 4226         /* the reference's reciprocal table */
#define VQ_CAMBI_MASK_FILTER 7         /* spatial mask box */
#define VQ_CAMBI_MAX_SIZE 7680         /* largest enc/src size the options allow */
#define VQ_CAMBI_MIN_WH 216            /* CAMBI_MIN_WIDTH_HEIGHT */
#define VQ_CAMBI_NONE_EXP 1000         /* "no value" in the per-row lowest-bit minimum */

/*
 * One pass (distorted, or source with full_ref), as the host sets it up
 * (hostmath/cambi/cambi_fold.cpp: vq_cambi_setup).  Plain data, passed by value
 * to the kernels.
 */
typedef struct VqCambiParams {
    int32_t in_w, in_h;              /* the input luma plane */
    int32_t in_bpc;                  /* its bit depth (8..16) */
    int32_t w, h;                    /* processing size: enc (or src) size */
    int32_t resize;                  /* w, h differ from in_w, in_h: index tables */
    int32_t antidither;              /* enc_bitdepth < 10 */
    int32_t mask_index;              /* spatial mask threshold (count > mask_index) */
    int32_t window, pad;             /* adjusted window size, pad = window >> 1 */
    int32_t num_diffs;               /* 1 << max_log_contrast */
    int32_t vlt_luma;
    int32_t band_base, band_size;    /* histogrammed values: [base, base + size) */
    int32_t tvi_for_diff[VQ_CAMBI_MAX_DIFFS];   /* + num_diffs, as the reference stores it */
    int32_t diff_weights[VQ_CAMBI_MAX_DIFFS];
    int32_t high_res_speedup;        /* decimate once more before scale 0 */
    int32_t sw[VQ_CAMBI_SCALES], sh[VQ_CAMBI_SCALES];   /* image size at each scale */
    int32_t sshift[VQ_CAMBI_SCALES]; /* scale-s pixel (i, j) is mask0 (i << sshift, j << sshift) */
    int32_t topk_count[VQ_CAMBI_SCALES];                /* k of the top-k mean */
    int32_t pixels_in_window;        /* the score's normalisation */
    double topk;
    double max_val;                  /* cambi_max_val: the output is min(score, max_val) */
} VqCambiParams;

/*
 * Tables the kernels read, built on the host once per session: the
 * reciprocal table exactly as the reference's literals parse (see
 * vq_cambi_tables_init), and the resizing index tables (only when
 * p.resize: x_idx[j], y_idx[i] are the input column/row of output pixel
 * (i, j), computed with the reference's float accumulation).
 */
typedef struct VqCambiTables {
    float recip[VQ_CAMBI_LUT_SIZE];
    int32_t x_idx[VQ_CAMBI_MAX_SIZE];
    int32_t y_idx[VQ_CAMBI_MAX_SIZE];
} VqCambiTables;

/*
 * The per-frame words of one pass (int64 each).  Per scale s, a header of
 * three words at sel_off[s]:
 *   [+ VQ_CAMBI_SEL_T]           bits of T, the k-th largest c-value (uint32)
 *   [+ VQ_CAMBI_SEL_POOLED]      vq_cambi_pool_mode: 0 (VQ_CAMBI_POOL_EXACT) when
 *                                the rows below give the reference's top-k sum;
 *                                1 when they cannot and the executor ran the
 *                                reference's own order and wrote that sum; 2 when
 *                                the fold needs the c-values
 *   [+ VQ_CAMBI_SEL_SUM]         with 1: that sum's bits (a double), else 0
 * then per row r of the scale, at row_off[s] + 3 r:
 *   [+ VQ_CAMBI_ROW_COUNT]       number of c-values > T
 *   [+ VQ_CAMBI_ROW_SUM]         their sum in units of 2^-32 (exact when the
 *                                row's lowest-bit minimum is >= -32)
 *   [+ VQ_CAMBI_ROW_MINEXP]      min over them of the exponent of their lowest
 *                                set bit (VQ_CAMBI_NONE_EXP if none)
 * hostmath/cambi/cambi_fold.h turns them into the score.
 */
enum { VQ_CAMBI_SEL_T, VQ_CAMBI_SEL_POOLED, VQ_CAMBI_SEL_SUM, VQ_CAMBI_SEL_WORDS };
enum { VQ_CAMBI_ROW_COUNT, VQ_CAMBI_ROW_SUM, VQ_CAMBI_ROW_MINEXP, VQ_CAMBI_ROW_WORDS };

typedef struct VqCambiLayout {
    size_t sel_off[VQ_CAMBI_SCALES];
    size_t row_off[VQ_CAMBI_SCALES];
    size_t total;
} VqCambiLayout;

static inline void vq_cambi_layout_init(VqCambiLayout *l, const VqCambiParams *p, size_t base)
{
    size_t off = base;
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        l->sel_off[s] = off;
        off += VQ_CAMBI_SEL_WORDS;
        l->row_off[s] = off;
        off += (size_t)p->sh[s] * VQ_CAMBI_ROW_WORDS;
    }
    l->total = off - base;
}

/* ---- 1. to 10 bits (cambi_preprocessing's decimate_generic_*) ---------- */

/* A bpc-bit sample as the reference's 10-bit working image holds it. */
VQ_HD uint16_t vq_cambi_to10(uint32_t v, int bpc)
{
    if (bpc <= 8)
        return (uint16_t)((int)v << (10 - bpc));
    if (bpc == 9)
        return (uint16_t)((int)v << 1);
    if (bpc == 10)
        return (uint16_t)v;
    /* (data + (1 << (shift - 1))) >> shift in int: 16-bit 65535 gives 1024 */
    return (uint16_t)(((int)v + (1 << (bpc - 11))) >> (bpc - 10));
}

/* Output pixel (i, j) of step 1 from the input plane. */
VQ_HD uint16_t vq_cambi_load10(const VqPlaneView in, const VqCambiParams *p, const int32_t *x_idx,
                               const int32_t *y_idx, int i, int j)
{
    const int si = p->resize ? y_idx[i] : i;
    const int sj = p->resize ? x_idx[j] : j;
    return vq_cambi_to10(vq_sample(in, si, sj), p->in_bpc);
}

/* ---- 2. anti-dithering (in place in the reference, read-before-write) ---- */

/* img: the 10-bit image of step 1 (w x h, stride in samples). */
VQ_HD uint16_t vq_cambi_antidither_at(const uint16_t *img, ptrdiff_t stride, int w, int h, int i,
                                      int j)
{
    const uint16_t *r0 = img + (ptrdiff_t)i * stride;
    if (i < h - 1) {
        const uint16_t *r1 = r0 + stride;
        if (j < w - 1)
            return (uint16_t)((r0[j] + r0[j + 1] + r1[j] + r1[j + 1]) >> 2);
        return (uint16_t)((r0[j] + r1[j]) >> 1);
    }
    if (j < w - 1)
        return (uint16_t)((r0[j] + r0[j + 1]) >> 1);
    return r0[j];
}

/* ---- 3. spatial mask ------------------------------------------------------ */

/* 1 when (i, j) equals its right and lower neighbours (the last column and
 * row count as equal): get_derivative_data_for_row. */
VQ_HD int vq_cambi_zero_deriv(const uint16_t *img, ptrdiff_t stride, int w, int h, int i, int j)
{
    const uint16_t *r = img + (ptrdiff_t)i * stride;
    const int hz = j == w - 1 || r[j] == r[j + 1];
    const int vt = i == h - 1 || r[j] == r[j + stride];
    return hz && vt;
}

/* ceil(log2(n)) for n >= 1, 0 for n == 0 (the reference's ceil_log2). */
VQ_HD int vq_cambi_ceil_log2(uint32_t n)
{
    int shift = 0;
    if (n == 0)
        return 0;
    for (uint32_t t = n - 1; t > 0; t >>= 1)
        shift++;
    return shift;
}

/* get_mask_index: (f * f + 3 * (ceil_log2((w >> 6) * (h >> 6)) - 11) - 1) >> 1,
 * in int, kept as uint16 by the reference. */
VQ_HD int vq_cambi_mask_index(unsigned w, unsigned h, int filter_size)
{
    const uint32_t shifted_wh = (w >> 6) * (h >> 6);
    const int v = (filter_size * filter_size + 3 * (vq_cambi_ceil_log2(shifted_wh) - 11) - 1) >> 1;
    return (uint16_t)v;
}

/* ---- 4. mode filter ------------------------------------------------------- */

VQ_HD uint16_t vq_cambi_min3(uint16_t a, uint16_t b, uint16_t c)
{
    if (a <= b && a <= c)
        return a;
    if (b <= c)
        return b;
    return c;
}

/* the value two of three share, else the smallest: a symmetric function */
VQ_HD uint16_t vq_cambi_mode3(uint16_t a, uint16_t b, uint16_t c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    return vq_cambi_min3(a, b, c);
}

/* horizontal mode of row r at column j: the first and last columns kept */
VQ_HD uint16_t vq_cambi_hmode(const uint16_t *row, int w, int j)
{
    if (j == 0 || j == w - 1)
        return row[j];
    return vq_cambi_mode3(row[j - 1], row[j], row[j + 1]);
}

/* filter_mode at (i, j): the vertical mode of three horizontal modes; the
 * first and last rows keep their unfiltered samples (the reference writes
 * rows 1 .. h-2 only, each after the line below it was read). */
VQ_HD uint16_t vq_cambi_mode_at(const uint16_t *img, ptrdiff_t stride, int w, int h, int i, int j)
{
    const uint16_t *r = img + (ptrdiff_t)i * stride;
    if (i == 0 || i == h - 1)
        return r[j];
    return vq_cambi_mode3(vq_cambi_hmode(r - stride, w, j), vq_cambi_hmode(r, w, j),
                          vq_cambi_hmode(r + stride, w, j));
}

/* ---- 5. c-value ----------------------------------------------------------- */

/* The histogram row of a (10-bit) value, or -1 when it is outside the band
 * (the reference skips such pixels when counting). */
VQ_HD int vq_cambi_band_row(const VqCambiParams *p, uint32_t v)
{
    const uint32_t r = (uint32_t)((int)v - p->band_base);
    return r < (uint32_t)p->band_size ? (int)r : -1;
}

#ifdef __cplusplus
/*
 * c_value_pixel: v is the pixel's filtered value; count(u) is the window's
 * histogram count of band row u (the window around the pixel, masked
 * pixels only), however the executor stores it.  Float arithmetic in the
 * reference's order: (float) of the int product, times the reciprocal, max
 * over the contrasts (strict >).
 */
template <typename Count>
VQ_HD float vq_cambi_c_value_of(const VqCambiParams *p, const float *recip, uint32_t v, Count count)
{
    const int nd = p->num_diffs;
    const int compact = (int)v - p->band_base;
    const int value = (int)v + nd;
    float c = 0.0f;
    if ((unsigned)compact >= (unsigned)p->band_size)
        return 0.0f;
    const int p0 = count(compact);
    for (int d = 0; d < nd; d++) {
        if (value <= p->tvi_for_diff[d] && value + d + 1 > p->vlt_luma) {
            const int idx1 = compact + d + 1, idx2 = compact - d - 1;
            const int p1 = count(idx1);
            const int p2 = idx2 >= 0 ? count(idx2) : 0;
            float val;
            if (p1 > p2)
                val = (float)(p->diff_weights[d] * p0 * p1) * recip[p1 + p0];
            else
                val = (float)(p->diff_weights[d] * p0 * p2) * recip[p2 + p0];
            if (val > c)
                c = val;
        }
    }
    return c;
}

/* the same, the counts at hist[u * hstride] */
VQ_HD float vq_cambi_c_value(const VqCambiParams *p, const float *recip, uint32_t v,
                             const uint16_t *hist, ptrdiff_t hstride)
{
    return vq_cambi_c_value_of(p, recip, v,
                               [hist, hstride](int u) { return (int)hist[(ptrdiff_t)u * hstride]; });
}
#endif

/* ---- 6. what the host needs of the top-k c-values ------------------------- */

/* c-values are >= 0 and never NaN: their bits (vq_f32_bits) order like
 * their values. */

/* exponent of the lowest set bit of a positive float (bits b != 0) */
VQ_HD int vq_cambi_lowbit_exp(uint32_t b)
{
    const int e = (int)(b >> 23);
    uint32_t m = b & 0x7fffffu;
    int x = e ? e - 150 : -149;
    if (e)
        m |= 0x800000u;
#if !defined(__CUDA_ARCH__) && defined(__GNUC__)
    return x + __builtin_ctz(m);    /* the loop's count, at once (m != 0) */
#else
    while (!(m & 1u)) {
        m >>= 1;
        x++;
    }
    return x;
#endif
}

/* value * 2^32 as an integer: exact when vq_cambi_lowbit_exp(b) >= -32
 * (values below 2^32 only: c-values stay below 2^14) */
VQ_HD uint64_t vq_cambi_fixed32(uint32_t b)
{
    const int e = (int)(b >> 23);
    const uint64_t m = e ? (uint64_t)((b & 0x7fffffu) | 0x800000u) : (uint64_t)(b & 0x7fffffu);
    const int sh = (e ? e - 150 : -149) + 32;
    if (b == 0)
        return 0;
    if (sh >= 0)
        return sh < 40 ? m << sh : ~(uint64_t)0;
    return sh > -64 ? m >> -sh : 0;
}

/*
 * The top-k multiset is {values > T} plus nt = k - cnt copies of T.  With
 * the rows' totals (cnt, the 2^-32 sum as hi:lo, the lowest-bit minimum g)
 * its exact sum S is known; when S < 2^(53 + g) every partial sum of the
 * reference's sequential double sum is a multiple of 2^g below 2^(53 + g),
 * so exact in any order: the sum is S = units * 2^g.  Returns 1 and
 * units, g in that case; 0 when the order matters (or the totals are not
 * what an executor writes).
 */
VQ_HD int vq_cambi_rows_exact(uint32_t tb, int64_t cnt, uint64_t sum_hi, uint64_t sum_lo,
                              int minexp, int k, int n, uint64_t *units, int *g)
{
    const int64_t nt = (int64_t)k - cnt;
    if (cnt < 0 || nt < 1 || nt > n || (tb & 0x80000000u) || tb >= 0x7f800000u)
        return 0;
    if (tb) {
        const int e = vq_cambi_lowbit_exp(tb);
        /* + nt * fixed(T): fixed(T) < 2^46, nt < 2^31: two 32-bit halves */
        const uint64_t f = vq_cambi_fixed32(tb), m = (uint64_t)nt;
        const uint64_t lo_part = (f & 0xffffffffu) * m, hi_part = (f >> 32) * m;
        uint64_t lo = sum_lo + lo_part;
        sum_hi += lo < lo_part;
        const uint64_t add_hi = hi_part << 32;
        const uint64_t lo2 = lo + add_hi;
        sum_hi += (lo2 < add_hi) + (hi_part >> 32);
        sum_lo = lo2;
        if (e < minexp)
            minexp = e;
    }
    if (sum_hi == 0 && sum_lo == 0) {
        *units = 0;
        *g = 0;
        return 1;
    }
    if (minexp < -32)
        return 0;
    /* units = S >> (g + 32) must stay below 2^53 (0 <= g + 32 <= 46 here) */
    const int sh = minexp + 32;
    if (sh > 46 || (sum_hi >> sh) != 0)
        return 0;
    const uint64_t u = sh ? (sum_lo >> sh) | (sum_hi << (64 - sh)) : sum_lo;
    if (u >> 53)
        return 0;
    *units = u;
    *g = minexp;
    return 1;
}

/*
 * What a scale's words hold (both executors decide it from the same
 * integers, so they write the same words):
 *   VQ_CAMBI_POOL_EXACT:    the rows give the sum (vq_cambi_rows_exact);
 *   VQ_CAMBI_POOL_EXECUTOR: the executor ran the reference's order and wrote
 *                           the sum (needs every top-k value a multiple of
 *                           2^g with g >= -32, so that the device can count
 *                           in units of 2^g);
 *   VQ_CAMBI_POOL_HOST:     neither: the fold needs the scale's c-values
 *                           (never seen: c-values are 0 or >= 0.5).
 * g_out: the lowest-bit minimum of the top-k multiset.
 */
enum { VQ_CAMBI_POOL_EXACT, VQ_CAMBI_POOL_EXECUTOR, VQ_CAMBI_POOL_HOST };

VQ_HD int vq_cambi_pool_mode(uint32_t tb, int64_t cnt, uint64_t sum_hi, uint64_t sum_lo,
                             int minexp, int k, int n, int *g_out)
{
    uint64_t units;
    int g;
    if (vq_cambi_rows_exact(tb, cnt, sum_hi, sum_lo, minexp, k, n, &units, &g))
        return VQ_CAMBI_POOL_EXACT;
    const int64_t nt = (int64_t)k - cnt;
    if (cnt < 0 || nt < 1 || nt > n || (tb & 0x80000000u) || tb >= 0x7f800000u)
        return VQ_CAMBI_POOL_HOST;
    if (tb) {
        const int e = vq_cambi_lowbit_exp(tb);
        if (e < minexp)
            minexp = e;
    }
    if (minexp < -32 || minexp > 64)
        return VQ_CAMBI_POOL_HOST;
    *g_out = minexp;
    return VQ_CAMBI_POOL_EXECUTOR;
}

/* ---- the reference's order on the device ---------------------------------
 *
 * quick_select as parallel partition rounds.  In a round on [left, right]
 * with pivot P = a[k], the reference's scans stop at the elements <= P from
 * the left (L_1 < L_2 < ...) and >= P from the right (R_1 > R_2 > ...) and
 * swap L_m with R_m for every m <= M, M = max over p of
 * min(#(<= P) in [left, p], #(>= P) in [p, right]) (the last m with
 * L_m <= R_m; M >= 1: a[k] is both).  Where its i and j end: */
VQ_HD void vq_cambi_partition_end(int lm, int rm, int lnext, int rnext, int *i, int *j)
{
    if (rm - lm <= 1) {           /* the do-while stops right after the last swap */
        *i = lm + 1;
        *j = rm - 1;
    } else {                      /* one more scan: i stops at L_{M+1} or at R_M, j at R_{M+1} or L_M */
        *i = lnext < rm ? lnext : rm;
        *j = rnext > lm ? rnext : lm;
    }
}

/*
 * The sequential double sum in parallel.  While the partial sum s stays in
 * the binade [2^E, 2^(E+1)), s is an integer S in units of G = 2^eg,
 * eg = E - 52, and adding x adds x / G rounded to nearest with ties to an
 * even S: an increment that depends on S's parity only.  VqCambiAdd maps
 * the parity before an addition (or a run of them) to the increment and
 * the parity after; composition is associative (a scan).
 */
typedef struct VqCambiAdd {
    int64_t inc[2];
    int32_t out[2];
} VqCambiAdd;

VQ_HD VqCambiAdd vq_cambi_add_identity(void)
{
    VqCambiAdd r;
    r.inc[0] = r.inc[1] = 0;
    r.out[0] = 0;
    r.out[1] = 1;
    return r;
}

/* a, then b */
VQ_HD VqCambiAdd vq_cambi_add_compose(VqCambiAdd a, VqCambiAdd b)
{
    VqCambiAdd r;
    for (int p = 0; p < 2; p++) {
        r.inc[p] = a.inc[p] + b.inc[a.out[p]];
        r.out[p] = b.out[a.out[p]];
    }
    return r;
}

/* x (positive float bits, or 0) as m * 2^ex */
VQ_HD uint32_t vq_cambi_float_parts(uint32_t xb, int *ex)
{
    const int e = (int)(xb >> 23);
    *ex = e ? e - 150 : -149;
    return (xb & 0x7fffffu) | (e ? 0x800000u : 0u);
}

/* floor(x / 2^eg) (x < 2^14, eg >= -40) */
VQ_HD int64_t vq_cambi_add_floor(uint32_t xb, int eg)
{
    int ex;
    const uint64_t m = vq_cambi_float_parts(xb, &ex);
    const int d = eg - ex;
    if (d <= 0)
        return (int64_t)(m << -d);
    return d < 40 ? (int64_t)(m >> d) : 0;
}

VQ_HD VqCambiAdd vq_cambi_add_step(uint32_t xb, int eg)
{
    VqCambiAdd r;
    int ex;
    const uint64_t m = vq_cambi_float_parts(xb, &ex);
    const int d = eg - ex;
    if (d <= 0) {                         /* a multiple of G: exact */
        const int64_t x = (int64_t)(m << -d);
        for (int p = 0; p < 2; p++) {
            r.inc[p] = x;
            r.out[p] = (int32_t)((p + x) & 1);
        }
        return r;
    }
    const int64_t q = d < 40 ? (int64_t)(m >> d) : 0;
    const uint64_t rem = d < 40 ? m & ((1ull << d) - 1) : m;
    const uint64_t half = d - 1 < 40 ? 1ull << (d - 1) : ~0ull;
    for (int p = 0; p < 2; p++) {
        int64_t inc = q;
        if (rem > half || (rem == half && ((p + q) & 1)))
            inc = q + 1;
        r.inc[p] = inc;
        r.out[p] = (int32_t)((p + inc) & 1);
    }
    return r;
}

/* x in units of 2^g, exact (g <= the lowest bit of x, x < 2^14, g >= -32) */
VQ_HD uint64_t vq_cambi_units(uint32_t xb, int g)
{
    int ex;
    const uint64_t m = vq_cambi_float_parts(xb, &ex);
    if (!xb)
        return 0;
    return ex >= g ? m << (ex - g) : m >> (g - ex);
}

VQ_HD uint64_t vq_cambi_sat_add(uint64_t a, uint64_t b)
{
    const uint64_t c = a + b;
    return (c < a || c > (1ull << 62)) ? (1ull << 62) : c;
}

/*
 * The reference's pooling of one scale, in its order (host only: the CPU
 * executor and the fold's fallback): quick_select leaves the k largest in
 * a[0 .. k-1] (descending Hoare partitions on the pivot a[k]; nothing when
 * k == n), then the sum of a[0 .. k-1] in double, in index order.
 */
static inline void vq_cambi_quick_select_ref(float *a, int n, int k)
{
    if (n == k)
        return;
    int left = 0, right = n - 1;
    while (left < right) {
        const float pivot = a[k];
        int i = left, j = right;
        do {
            while (a[i] > pivot)
                i++;
            while (a[j] < pivot)
                j--;
            if (i <= j) {
                const float t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < k)
            left = i;
        if (k < i)
            right = j;
    }
}

static inline double vq_cambi_topk_sum_ref(float *a, int n, int k)
{
    double sum = 0;
    vq_cambi_quick_select_ref(a, n, k);
    for (int i = 0; i < k; i++)
        sum += a[i];
    return sum;
}

#endif /* VQ_CAMBI_H */
