/*
 * ssim.h - the arithmetic of libvmaf v3.2.0's float_ssim and float_ms_ssim
 * (feature/ssim.c, ms_ssim.c, iqa/convolve.c, iqa/decimate.c,
 * iqa/ssim_tools.c, picture_copy.c), typed as the reference types it:
 * docs/ssim.md says which operation is float and which is double, and why.
 *
 * Three groups of VQ_HD functions:
 *   1. samples and filters: the float picture, the decimations (float_ssim's
 *      box filter, float_ms_ssim's 9x9 low-pass), the 11-tap Gaussian passes;
 *   2. the per-pixel terms l, c, s (and l*c*s) from the five window moments;
 *   3. an exact emulation of a double sum added term by term in raster
 *      order, for executors that cannot add in that order (the GPU): the
 *      terms of a row, rounded to the quantum of the running sum's binade,
 *      add as integers; docs/ssim.md proves when that equals the reference.
 * Nothing here calls a libm function other than sqrt (exact rounding).
 */
#ifndef VQ_SSIM_H
#define VQ_SSIM_H

#include <math.h>
#include <string.h>

#include "vq_common.h"

#define VQ_SSIM_WIN 11           /* Gaussian window, sigma 1.5 (GAUSSIAN_LEN) */
#define VQ_SSIM_WIN_R 5
#define VQ_MS_SSIM_SCALES 5
#define VQ_MS_SSIM_LPF 9         /* 9/7 wavelet low-pass (LPF_LEN) */
#define VQ_MS_SSIM_LPF_R 4
/* ms_ssim.c refuses a frame unless every scale, halved with truncation,
 * is at least GAUSSIAN_LEN: w / 16 >= 11 and h / 16 >= 11 */
#define VQ_MS_SSIM_MIN_SIZE 176
#define VQ_SSIM_MAX_SCALE 10     /* float_ssim's "scale" option: 0 (auto) .. 10 */

/* ---- 1. samples and filters -------------------------------------------- */

/* iqa's KBND_SYMMETRIC: -1 -> 0, -2 -> 1, n -> n-1, n+1 -> n-2 (the edge
 * sample is repeated; one reflection, enough for every use here) */
VQ_HD int vq_ssim_reflect(int i, int n)
{
    if (i < 0)
        return -1 - i;
    if (i >= n)
        return 2 * n - 1 - i;
    return i;
}

/* every filter tap of the reference: a float product, added to a double */
VQ_HD double vq_ssim_tap_add(double sum, float x, float tap)
{
    return sum + (double)(x * tap);
}

/* picture_copy(): 8-bit as is, 10/12/16-bit divided by 4, 16, 256 (float
 * division by a power of two, so exact); "+ offset" adds an int 0. */
VQ_HD float vq_ssim_sample_scale(int bpc)
{
    return bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : bpc == 16 ? 256.0f : 1.0f;
}

VQ_HD float vq_ssim_sample(const VqPlaneView v, int i, int j, float scale)
{
    return (float)vq_sample(v, i, j) / scale;   /* / 1.0f: the 8-bit path's value */
}

/* g_gaussian_window_h/_v: exp(-d^2 / 4.5) normalised to sum 1, printed with
 * six decimals (tests/test_ssim.cpp derives them); d = |k - 5|. */
VQ_HD float vq_ssim_gauss_tap(int k)
{
    const int d = k < VQ_SSIM_WIN_R ? VQ_SSIM_WIN_R - k : k - VQ_SSIM_WIN_R;
    return d == 0 ? 0.266012f : d == 1 ? 0.213006f : d == 2 ? 0.109361f
         : d == 3 ? 0.036001f : d == 4 ? 0.007599f : 0.001028f;
}

/* g_lpf[v][u] of ms_ssim.c, indexed by d = |v - 4|, e = |u - 4| (the table
 * is symmetric both ways).  Six-decimal data, close to but not exactly the
 * products of the six-decimal 1-D taps; the test checks both facts and,
 * given the reference's source, every entry. */
VQ_HD float vq_ms_ssim_lpf_tap(int v, int u)
{
    const int d = v < VQ_MS_SSIM_LPF_R ? VQ_MS_SSIM_LPF_R - v : v - VQ_MS_SSIM_LPF_R;
    const int e = u < VQ_MS_SSIM_LPF_R ? VQ_MS_SSIM_LPF_R - u : u - VQ_MS_SSIM_LPF_R;
    const int a = d < e ? d : e, b = d < e ? e : d;   /* a <= b */
    switch (a * 5 + b) {
    case 0:  return 0.363505f;   /* (0,0) */
    case 1:  return 0.160885f;
    case 2:  return -0.047149f;
    case 3:  return -0.010146f;
    case 4:  return 0.016114f;
    case 6:  return 0.071207f;   /* (1,1) */
    case 7:  return -0.020867f;
    case 8:  return -0.004490f;
    case 9:  return 0.007132f;
    case 12: return 0.006115f;   /* (2,2) */
    case 13: return 0.001316f;
    case 14: return -0.002090f;
    case 18: return 0.000283f;   /* (3,3) */
    case 19: return -0.000450f;
    default: return 0.000714f;   /* (4,4) */
    }
}

/* The 1-D taps g_lpf_h (unused by the reference's 2-D decimation; the test
 * compares the 2-D table with their products). */
VQ_HD float vq_ms_ssim_lpf_tap_1d(int k)
{
    const int d = k < VQ_MS_SSIM_LPF_R ? VQ_MS_SSIM_LPF_R - k : k - VQ_MS_SSIM_LPF_R;
    return d == 0 ? 0.602914f : d == 1 ? 0.266846f : d == 2 ? -0.078201f
         : d == 3 ? -0.016828f : 0.026727f;
}

/* iqa's _round(): half away from zero, the test in float minus int */
VQ_HD int vq_ssim_round(float a)
{
    const int sign = a > 0.0f ? 1 : -1;
    return (double)(a - (float)(int)a) >= 0.5 ? (int)a + sign : (int)a;
}

/* float_ssim's decimation factor: the option if > 0, else
 * max(1, _round(min(w, h) / 256.0f)) */
VQ_HD int vq_ssim_auto_scale(int w, int h, int scale_option)
{
    if (scale_option > 0)
        return scale_option;
    const int r = vq_ssim_round((float)(w < h ? w : h) / 256.0f);
    return r > 1 ? r : 1;
}

/* _iqa_decimate's output size (w / factor + (w & 1), for any factor) */
VQ_HD int vq_ssim_decimated(int n, int factor)
{
    return n / factor + (n & 1);
}

/*
 * One output sample of _iqa_decimate with float_ssim's box filter: centre
 * (factor x, factor y), taps v, u = -f/2 .. f/2 - (f even), each the float
 * 1.0f / (f * f); float products added in double, v outer, u inner.
 * (The reference decimates in place; it never reads a sample it has
 * already overwritten, docs/ssim.md.)
 */
VQ_HD float vq_ssim_box_pixel(const float *img, int w, int h, int x, int y, int f)
{
    const float k = 1.0f / (float)(f * f);
    const int lo = -(f / 2), hi = f / 2 - ((f & 1) ? 0 : 1);
    double sum = 0.0;
    for (int v = lo; v <= hi; v++) {
        const float *row = img + (ptrdiff_t)vq_ssim_reflect(y * f + v, h) * w;
        for (int u = lo; u <= hi; u++)
            sum = vq_ssim_tap_add(sum, row[vq_ssim_reflect(x * f + u, w)], k);
    }
    return (float)sum;
}

/* tap loops of the low-pass decimation's interior: unrolled, so that its 81
 * taps become constants (the same products, added in the same order) */
#if defined(__CUDA_ARCH__)
#define VQ_SSIM_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define VQ_SSIM_UNROLL _Pragma("GCC unroll 9")
#else
#define VQ_SSIM_UNROLL
#endif

/* One output sample of ms_ssim's _iqa_decimate(factor 2, g_lpf): 81 float
 * products added in double, v outer, u inner, symmetric borders.  Away from
 * the borders no index reflects, and the loops run over plain offsets. */
VQ_HD float vq_ms_ssim_lpf_pixel(const float *img, int w, int h, int x, int y)
{
    double sum = 0.0;
    const int x0 = 2 * x - VQ_MS_SSIM_LPF_R, y0 = 2 * y - VQ_MS_SSIM_LPF_R;
    if (x0 >= 0 && y0 >= 0 && x0 + VQ_MS_SSIM_LPF <= w && y0 + VQ_MS_SSIM_LPF <= h) {
        const float *p = img + (ptrdiff_t)y0 * w + x0;
        VQ_SSIM_UNROLL
        for (int v = 0; v < VQ_MS_SSIM_LPF; v++) {
            const float *row = p + (ptrdiff_t)v * w;
            VQ_SSIM_UNROLL
            for (int u = 0; u < VQ_MS_SSIM_LPF; u++)
                sum = vq_ssim_tap_add(sum, row[u], vq_ms_ssim_lpf_tap(v, u));
        }
        return (float)sum;
    }
    for (int v = 0; v < VQ_MS_SSIM_LPF; v++) {
        const float *row = img + (ptrdiff_t)vq_ssim_reflect(2 * y + v - VQ_MS_SSIM_LPF_R, h) * w;
        for (int u = 0; u < VQ_MS_SSIM_LPF; u++)
            sum = vq_ssim_tap_add(sum, row[vq_ssim_reflect(2 * x + u - VQ_MS_SSIM_LPF_R, w)],
                                  vq_ms_ssim_lpf_tap(v, u));
    }
    return (float)sum;
}

/*
 * iqa's separable _iqa_convolve (IQA_CONVOLVE_1D), "valid" part only: an
 * output is (w - 10) x (h - 10).  Each pass adds the 11 float products
 * x[k] * tap[k], k = 0..10, in double, then rounds to float; the
 * horizontal pass keeps every row, the vertical pass reads its results.
 * p points at the first of the 11 samples; stride is in floats.
 */
VQ_HD float vq_ssim_gauss_pass(const float *p, ptrdiff_t stride)
{
    double sum = 0.0;
    for (int k = 0; k < VQ_SSIM_WIN; k++)
        sum = vq_ssim_tap_add(sum, p[k * stride], vq_ssim_gauss_tap(k));
    return (float)sum;
}

/* ---- 2. per-pixel terms ------------------------------------------------- */

/* C1 = (K1 L)^2, C2 = (K2 L)^2, C3 = C2 / 2: float, K1 = 0.01f, K2 = 0.03f,
 * L = 255 (whatever the bit depth: the samples are scaled to 0..255.x) */
VQ_HD float vq_ssim_c1(void) { return (0.01f * 255) * (0.01f * 255); }
VQ_HD float vq_ssim_c2(void) { return (0.03f * 255) * (0.03f * 255); }
VQ_HD float vq_ssim_c3(void) { return vq_ssim_c2() / 2.0f; }

typedef struct VqSsimTerms {
    double l, c, s;   /* s holds a float value */
    double ssim;      /* l * c * s */
} VqSsimTerms;

/*
 * The default path of _iqa_ssim for one output pixel, from the five
 * filtered images: mu1 = w*ref, mu2 = w*cmp, xx = w*(ref*ref),
 * yy = w*(cmp*cmp), xy = w*(ref*cmp) (the squares float products).
 */
VQ_HD VqSsimTerms vq_ssim_terms(float mu1, float mu2, float xx, float yy, float xy)
{
    const float C1 = vq_ssim_c1(), C2 = vq_ssim_c2(), C3 = vq_ssim_c3();
    float s1 = xx - mu1 * mu1;                 /* ref_sigma_sqd -= ...: float */
    float s2 = yy - mu2 * mu2;
    s1 = 0.0 > (double)s1 ? 0.0f : s1;         /* MAX(0.0, x): a double compare */
    s2 = 0.0 > (double)s2 ? 0.0f : s2;
    const float s12 = xy - mu1 * mu2;
    const float sr = (float)sqrt((double)(s1 * s2));   /* float product, double sqrt */
    VqSsimTerms t;
    t.l = (2.0 * (double)mu1 * (double)mu2 + (double)C1) /
          (double)(mu1 * mu1 + mu2 * mu2 + C1);          /* float denominator */
    t.c = (2.0 * (double)sr + (double)C2) / (double)(s1 + s2 + C2);
    const float cs12 = (s12 < 0.0f && sr <= 0.0f) ? 0.0f : s12;
    t.s = (double)((cs12 + C3) / (sr + C3));             /* all float */
    t.ssim = t.l * t.c * t.s;
    return t;
}

/* ---- 3. exact emulation of a sequential double sum ---------------------- */

/*
 * The reference adds each term to one double, S = fl(S + t), in raster
 * order.  While S keeps its sign and binade 2^e <= |S| < 2^(e+1), every
 * S is an integer multiple M of u = 2^(e-52) with 2^52 <= M < 2^53, and
 * fl(S + t) = sign * (M + d) * u with d = t / u (times the sign) rounded
 * to the nearest integer, provided M + d stays in [2^52 + 1, 2^53 - 2]
 * and t / u is not a tie (half-way: the result then depends on the parity
 * of M).  So a row of terms, rounded for a predicted (sign, e), sums as
 * integers in any order; the composition checks the prediction against
 * the exact S and falls back to term-by-term addition when it fails.
 */
typedef struct VqSeqRow {
    int64_t d;        /* sum of the row's rounded terms, in units of u */
    int64_t lo, hi;   /* min and max of the running (inclusive) sums of d */
    int64_t key;      /* VQ_SEQ_KEY(predicted e, negative), or VQ_SEQ_UNUSABLE */
} VqSeqRow;

#define VQ_SEQ_UNUSABLE ((int64_t)-1)
#define VQ_SEQ_KEY(e, neg) ((int64_t)(e) + 1024 + ((neg) ? 4096 : 0))   /* always >= 0 */
#define VQ_SEQ_E_MIN (-900)       /* beyond these the quantum's power of two */
#define VQ_SEQ_E_MAX 900          /* (and the limit below) stay normal doubles */
#define VQ_SEQ_TERM_LIMIT_LOG2 48 /* |d| < 2^48: no int64 sum of 2^14 terms overflows */
#define VQ_SEQ_SEG 128            /* terms per segment summary (the GPU's slow rows) */

/* 2^k for -1022 <= k <= 1023 (a normal double) */
VQ_HD double vq_pow2(int k)
{
    return vq_f64_from_bits((uint64_t)(k + 1023) << 52);
}

/* The prediction key of a running sum: its sign and binade, or
 * VQ_SEQ_UNUSABLE for 0, subnormals, inf/NaN and the far exponents. */
VQ_HD int64_t vq_seq_key(double s)
{
    const uint64_t b = vq_f64_bits(s);
    const int be = (int)((b >> 52) & 0x7ff);
    const int e = be - 1023;
    if (be == 0 || be == 0x7ff || e < VQ_SEQ_E_MIN || e > VQ_SEQ_E_MAX)
        return VQ_SEQ_UNUSABLE;
    return VQ_SEQ_KEY(e, b >> 63);
}

/*
 * t in units of the quantum of key (e, negative): *d = round(+-t / u).
 * Returns 0 when the term can be used, 1 when it cannot: a tie, |t / u| at
 * or above 2^48 (so far from the binade's scale that the range check would
 * fail anyway), or t not finite.  Exact: scaling by a power of two, then
 * rounding to an integer with the 1.5 * 2^52 shift (|y| < 2^48).
 */
VQ_HD int vq_seq_term_units(double t, int64_t key, int64_t *d)
{
    const int neg = key >= 4096;
    const int e = (int)(key & 4095) - 1024;
    const double lim = vq_pow2(e - 52 + VQ_SEQ_TERM_LIMIT_LOG2);
    const double a = neg ? -t : t;
    *d = 0;
    if (!(a < lim && a > -lim))
        return 1;
    const double y = a * vq_pow2(52 - e);   /* |52 - e| <= 952: a normal power of two */
    const double shift = 6755399441055744.0;   /* 1.5 * 2^52 */
    const double r = (y + shift) - shift;      /* round half to even */
    const double f = y - r;                    /* exact */
    *d = (int64_t)r;
    return (f == 0.5 || f == -0.5) ? 1 : 0;
}

/* the range the running integer M must stay in (see above) */
#define VQ_SEQ_M_LO (((int64_t)1 << 52) + 1)
#define VQ_SEQ_M_HI (((int64_t)1 << 53) - 2)

/* |s| / u as an integer in [2^52, 2^53) (s normal) */
VQ_HD int64_t vq_seq_mantissa(double s)
{
    const uint64_t b = vq_f64_bits(s);
    return (int64_t)((b & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52));
}

/* s with its integer replaced by m (m in [2^52, 2^53): sign and binade kept) */
VQ_HD double vq_seq_with_mantissa(double s, int64_t m)
{
    const uint64_t mask = ((uint64_t)1 << 52) - 1;
    return vq_f64_from_bits((vq_f64_bits(s) & ~mask) | ((uint64_t)m & mask));
}

/*
 * S + (a row whose summary is r), exactly as the reference's term-by-term
 * sum, when the prediction holds: returns 1 and updates *s; returns 0 and
 * leaves *s when the caller must add the row's terms one by one.
 */
VQ_HD int vq_seq_apply(double *s, const VqSeqRow r)
{
    if (r.key == VQ_SEQ_UNUSABLE || vq_seq_key(*s) != r.key)
        return 0;
    const int64_t m = vq_seq_mantissa(*s);
    if (m + r.lo < VQ_SEQ_M_LO || m + r.hi > VQ_SEQ_M_HI)
        return 0;
    *s = vq_seq_with_mantissa(*s, m + r.d);   /* r.lo <= r.d <= r.hi: in range */
    return 1;
}

/* The summary of n >= 1 terms for the prediction key, term by term (the
 * GPU builds the same integers with a warp scan; integer sums and the
 * min/max of the same running sums do not depend on how they are formed). */
VQ_HD VqSeqRow vq_seq_summary(const double *t, int n, int64_t key)
{
    VqSeqRow r;
    r.d = 0;
    r.lo = INT64_MAX;
    r.hi = INT64_MIN;
    r.key = key;
    if (key == VQ_SEQ_UNUSABLE)
        return r;
    for (int k = 0; k < n; k++) {
        int64_t d;
        if (vq_seq_term_units(t[k], key, &d))
            r.key = VQ_SEQ_UNUSABLE;
        r.d += d;
        r.lo = r.d < r.lo ? r.d : r.lo;
        r.hi = r.d > r.hi ? r.d : r.hi;
    }
    return r;
}

#endif /* VQ_SSIM_H */
