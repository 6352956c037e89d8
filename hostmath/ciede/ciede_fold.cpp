/*
 * ciede_fold.cpp - ciede2000 on the host (see ciede_fold.h, docs/ciede.md).
 *
 * The fold (per-row sums, the listed and two-candidate pixels), the checks;
 * the reference's per-pixel value (vq_ciede_pixel_ref, glibc's math calls)
 * is the CPU executor's, in kernels/cpu_ciede.cpp.
 */
/* GCC 12.2 (Debian 12) at -O2/-O3 SLP-vectorizes pairs of float
 * conversions and then folds (double)(float)x back to x: wrong code for the
 * reference's float roundings (docs/ciede.md, "Compiler").  No vectorizing in
 * this file. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-tree-loop-vectorize")
#endif
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "ciede/ciede.h"
#include "ciede_fold.h"
#include "vqcuda.h"

namespace {

int fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "ciede: %s", msg);
    return VQ_EINVAL;
}

/* the value of a two-candidate word: glibc's powf decides */
int resolve_two(uint32_t hi, uint32_t lo, float *out, char *err, size_t errlen)
{
    const float cbp = vq_f32_from_bits(hi);
    float p_lo, p_hi;
    vq_ciede_pow7_bounds_f(cbp, &p_lo, &p_hi);
    const float p = powf(cbp, 7.0f);
    const uint32_t base = lo & 0x7fffffffu;
    if (vq_f32_bits(p) == vq_f32_bits(p_lo)) {
        *out = vq_f32_from_bits(base);
        return 0;
    }
    if (vq_f32_bits(p) == vq_f32_bits(p_hi)) {
        *out = vq_f32_from_bits(lo >> 31 ? base - 1 : base + 1);
        return 0;
    }
    return fail(err, errlen, "glibc's powf(x, 7) is neither float next to x^7: cannot be exact");
}

}  // namespace

extern "C" int vq_ciede_check(int w, int h, int bpc, int ssx, int ssy, int has_chroma, char *err,
                              size_t errlen)
{
    char msg[256];
    if (w <= 0 || h <= 0)
        return fail(err, errlen, "empty picture");
    if (!has_chroma)
        return fail(err, errlen, "needs chroma: libvmaf refuses gray (YUV400) input");
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16) {
        snprintf(msg, sizeof(msg), "%d bits per sample: libvmaf scores 8, 10, 12 or 16", bpc);
        return fail(err, errlen, msg);
    }
    if (!((ssx == 1 && ssy == 1) || (ssx == 1 && ssy == 0) || (ssx == 0 && ssy == 0)))
        return fail(err, errlen, "chroma subsampling other than 4:2:0, 4:2:2, 4:4:4");
    if (ssx || ssy) {
        const VqCiedeGeom g = vq_ciede_geom(w, h, ssx, ssy, bpc);
        const int64_t last = (int64_t)((h - 1) / 2) * g.stride + (ssy ? (w - 1) / 2 : (w - 1));
        if (g.cw <= 0 || g.ch <= 0 || last >= (int64_t)g.ch * g.stride) {
            snprintf(msg, sizeof(msg),
                     "%dx%d 4:2:%d: libvmaf's chroma upsampling would read past its %dx%d chroma "
                     "plane (undefined)", w, h, ssy ? 0 : 2, g.cw, g.ch);
            return fail(err, errlen, msg);
        }
    }
    if ((int64_t)w * h > VQ_CIEDE_MAX_PIXELS) {
        snprintf(msg, sizeof(msg), "%dx%d: vqcuda's ciede takes at most 2^31 - 1 pixels per frame", w, h);
        return fail(err, errlen, msg);
    }
    return 0;
}

extern "C" int64_t vq_ciede_extra_entries(const int64_t *buf)
{
    return buf[0] > VQ_CIEDE_LIST_INLINE ? buf[0] - VQ_CIEDE_LIST_INLINE : 0;
}

namespace {

/* the samples of a listed pixel's entry -> the reference's value */
float listed_value(const uint64_t e[2], int bpc)
{
    const uint64_t w0 = e[0], w1 = e[1];
    const uint32_t s[6] = { (uint32_t)(w0 >> 32) & 0xffff, (uint32_t)(w0 >> 48),
                            (uint32_t)w1 & 0xffff,         (uint32_t)(w1 >> 16) & 0xffff,
                            (uint32_t)(w1 >> 32) & 0xffff, (uint32_t)(w1 >> 48) };
    return vq_ciede_pixel_ref(s, bpc);
}

const int64_t *entry_at(const int64_t *buf, const int64_t *extra, int64_t pos)
{
    return pos < VQ_CIEDE_LIST_INLINE ? buf + 1 + 2 * (size_t)pos
                                      : extra ? extra + 2 * (size_t)(pos - VQ_CIEDE_LIST_INLINE) : nullptr;
}

struct Special {
    uint32_t k;     /* pixel index */
    float v;        /* resolved value */
};

/* every list entry, resolved, in pixel order */
int gather(const VqCiedeGeom *g, const int64_t *buf, const int64_t *extra, std::vector<Special> *sp,
           char *err, size_t errlen)
{
    const int64_t n = buf[0], npx = (int64_t)g->w * g->h;
    if (n < 0 || n > npx)
        return fail(err, errlen, "bad list count");
    if (n > VQ_CIEDE_LIST_INLINE && !extra)
        return fail(err, errlen, "list entries past the inline ones were not fetched");
    sp->resize((size_t)n);
    bool sorted = true;
    for (int64_t p = 0; p < n; p++) {
        const int64_t *e = entry_at(buf, extra, p);
        const uint64_t w0 = (uint64_t)e[0], w1 = (uint64_t)e[1];
        const uint32_t k = (uint32_t)w0 & ~VQ_CIEDE_ENTRY_TWO;
        if ((int64_t)k >= npx)
            return fail(err, errlen, "list entry of a pixel past the frame");
        float v;
        if ((uint32_t)w0 & VQ_CIEDE_ENTRY_TWO) {
            const uint32_t hi = (uint32_t)(w1 >> 32);
            if ((w0 >> 32) || hi >= 0x7f800000u)
                return fail(err, errlen, "bad two-candidate list entry");
            const int r = resolve_two(hi, (uint32_t)w1, &v, err, errlen);
            if (r)
                return r;
        } else {
            const uint64_t ew[2] = { w0, w1 };
            v = listed_value(ew, g->bpc);
        }
        (*sp)[(size_t)p] = Special{ k, v };
        sorted = sorted && (p == 0 || (*sp)[(size_t)p - 1].k < k);
    }
    if (!sorted) {
        std::sort(sp->begin(), sp->end(), [](const Special &a, const Special &b) { return a.k < b.k; });
        for (size_t q = 1; q < sp->size(); q++)
            if ((*sp)[q - 1].k == (*sp)[q].k)
                return fail(err, errlen, "two list entries of one pixel");
    }
    return 0;
}

typedef unsigned __int128 u128;

/*
 * S + R exactly, when the reference's sequential adds of a row cannot round:
 * every addend >= 0 and a multiple of 2^t (t the least tz of the row's
 * nonzero values and of S), S + R < 2^53 2^t.  R is the row's sum in units
 * of 2^-FIX_FRAC, t_row its values' least tz (INT_MAX: none).  false when
 * the bound does not hold (the row is then added pixel by pixel).
 */
bool exact_step(double S, u128 R, int t, double *out)
{
    if (S != 0)
        t = std::min(t, vq_ciede_tz_double(S));
    if (t == INT_MAX) {     /* S = 0 and no nonzero value */
        if (R != 0)
            return false;   /* inconsistent row words: the pixels decide */
        *out = S;
        return true;
    }
    const u128 lim = (u128)1 << 53;
    /* r = R / 2^t, an integer (every value is a multiple of 2^t) */
    const int sh = t + VQ_CIEDE_FIX_FRAC;
    u128 r;
    if (sh >= 0) {
        r = sh >= 128 ? 0 : R >> sh;
        if (sh >= 128 ? R != 0 : (r << sh) != R)
            return false;   /* inconsistent row words: the pixels decide */
    } else {
        const int up = -sh;
        if (R != 0 && (up >= 53 || R >= (lim >> up)))
            return false;
        r = R << up;
    }
    if (r >= lim)
        return false;
    /* s = S / 2^t, an integer (t <= tz(S)) */
    uint64_t s = 0;
    if (S != 0) {
        const uint64_t u = vq_f64_bits(S);
        const uint32_t be = (uint32_t)(u >> 52);
        const uint64_t m = be ? (u & 0xfffffffffffffull) | 0x10000000000000ull : u;
        const uint64_t odd = m >> vq_ciede_ctz64(m);
        const int k = vq_ciede_tz_double(S) - t;
        if (k >= 53 || odd >= ((uint64_t)1 << (53 - k)))
            return false;
        s = odd << k;
    }
    const uint64_t tot = s + (uint64_t)r;
    if (tot >= (uint64_t)1 << 53)
        return false;
    *out = ldexp((double)tot, t);    /* exact: tot < 2^53, t >= -1074 */
    return true;
}

/* *sum += the values of the exact words px[j0, j1), in order (the
 * reference's adds); returns j1, or the index of a word that is not exact.
 * A leaf, so that the sum stays in a register. */
__attribute__((noinline)) int add_exact_run(const int64_t *px, int j0, int j1, double *sum)
{
    double acc = *sum;
    int j = j0;
    for (; j < j1; j++) {
        const uint64_t word = (uint64_t)px[j];
        if ((uint32_t)(word >> 32) != VQ_CIEDE_TAG_EXACT)
            break;
        acc += vq_f32_from_bits((uint32_t)word);
    }
    *sum = acc;
    return j;
}

}  // namespace

extern "C" int vq_ciede_word_value(const VqCiedeGeom *g, const int64_t *buf, const int64_t *extra,
                                   uint64_t word, size_t k, float *out, char *err, size_t errlen)
{
    const uint32_t hi = (uint32_t)(word >> 32), lo = (uint32_t)word;
    if (hi == VQ_CIEDE_TAG_EXACT) {
        *out = vq_f32_from_bits(lo);
        return 0;
    }
    if (hi == VQ_CIEDE_TAG_LIST) {
        if ((int64_t)lo >= buf[0])
            return fail(err, errlen, "list position past the list");
        const int64_t *e = entry_at(buf, extra, lo);
        if (!e)
            return fail(err, errlen, "list entries past the inline ones were not fetched");
        const uint64_t ew[2] = { (uint64_t)e[0], (uint64_t)e[1] };
        if ((uint32_t)ew[0] != (uint32_t)k)
            return fail(err, errlen, "list entry of another pixel");
        *out = listed_value(ew, g->bpc);
        return 0;
    }
    if (hi >= 0x7f800000u)
        return fail(err, errlen, "bad pixel word");
    return resolve_two(hi, lo, out, err, errlen);
}

extern "C" int vq_ciede_fold_sum(const VqCiedeGeom *g, const int64_t *buf, const int64_t *extra,
                                 const VqCiedeRowSource *src, double *sum, int *fallback_rows, char *err,
                                 size_t errlen)
{
    const int w = g->w, h = g->h;
    std::vector<Special> sp;
    if (buf[0]) {
        const int r = gather(g, buf, extra, &sp, err, errlen);
        if (r)
            return r;
    }
    std::vector<int64_t> win;   /* fetched pixel words: rows win0 .. win0 + win_n - 1 */
    int win0 = 0, win_n = 0, used = 0, fb = 0;
    double S = 0.;
    size_t si = 0;
    for (int i = 0; i < h; i++) {
        /* the row's specials: sp[s0, si) */
        const size_t s0 = si;
        const uint64_t end = (uint64_t)(i + 1) * (uint64_t)w;
        while (si < sp.size() && sp[si].k < end)
            si++;
        const int64_t *rw = buf + VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * i;
        const uint64_t key = (uint64_t)rw[3];
        bool ok = isfinite(S) && key < VQ_CIEDE_KEY_FALLBACK;
        if (ok) {
            u128 R = (u128)(uint64_t)rw[0] + ((u128)(uint64_t)rw[1] << 32) + ((u128)(uint64_t)rw[2] << 64);
            int t = key ? VQ_CIEDE_TZ_BIAS - (int)key : INT_MAX;
            for (size_t q = s0; q < si && ok; q++) {
                uint64_t l[3];
                int tz = 0;
                const int r = vq_ciede_fix(sp[q].v, l, &tz);
                if (r > 0) {
                    R += (u128)l[0] + ((u128)l[1] << 32) + ((u128)l[2] << 64);
                    t = std::min(t, tz);
                }
                ok = r >= 0;
            }
            ok = ok && exact_step(S, R, t, &S);
        }
        if (ok)
            continue;
        /* the reference's own adds, pixel by pixel */
        fb++;
        const int64_t *px;
        if (src && src->px) {
            px = src->px + (size_t)i * w;
        } else if (src && src->fetch) {
            if (i < win0 || i >= win0 + win_n) {
                /* a window of rows from this one (each fetch is a synchronous
                 * copy): twice the last one when every row of that one fell
                 * back and this row follows it, else one row.  So a window
                 * of n > 1 rows follows n / 2 rows that were all needed:
                 * at most 3x the rows needed are fetched */
                const int want = win_n && used == win_n && i == win0 + win_n ? 2 * win_n : 1;
                const int nr = std::min(want, h - i);
                win.resize((size_t)nr * w);
                if (src->fetch(src->ctx, i, nr, win.data()))
                    return fail(err, errlen, "the pixel words of a row could not be fetched");
                win0 = i;
                win_n = nr;
                used = 0;
            }
            used++;
            px = win.data() + (size_t)(i - win0) * w;
        } else {
            return fail(err, errlen, "a row needs its pixel words, and there are none");
        }
        /* runs of exact pixels between the row's specials (in pixel order) */
        size_t q = s0;
        const uint64_t row0 = (uint64_t)i * w;
        for (int j = 0;;) {
            const int jend = q < si ? (int)(sp[q].k - row0) : w;
            if (add_exact_run(px, j, jend, &S) != jend)
                return fail(err, errlen, "a pixel word with no list entry");
            j = jend;
            if (j == w)
                break;
            if ((uint32_t)((uint64_t)px[j] >> 32) == VQ_CIEDE_TAG_EXACT)
                return fail(err, errlen, "a list entry of an exact pixel");
            S += sp[q++].v;
            j++;
        }
    }
    *sum = S;
    if (fallback_rows)
        *fallback_rows = fb;
    return 0;
}

extern "C" int vq_ciede_fold(const VqCiedeGeom *g, const int64_t *buf, const int64_t *extra,
                             const VqCiedeRowSource *src, double *score, char *err, size_t errlen)
{
    double sum;
    const int r = vq_ciede_fold_sum(g, buf, extra, src, &sum, nullptr, err, errlen);
    if (r)
        return r;
    /* libvmaf: de00_sum / (ref_pic->w[0] * ref_pic->h[0]), an unsigned product */
    *score = 45. - 20. * log10(sum / (double)((unsigned)g->w * (unsigned)g->h));
    return 0;
}
