/* cambi_fold.cpp - CAMBI on the host: see cambi_fold.h. */
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <vector>

#include "c_locale.h"
#include "cambi/cambi_fold.h"
#include "vqcuda.h"

namespace {

constexpr double kDefaultTopk = 0.6;
constexpr int kScaleWeights[VQ_CAMBI_SCALES] = { 16, 8, 4, 2, 1 };
/* suprathreshold contrast response, per contrast step d = 1..32 */
constexpr int kContrastWeights[VQ_CAMBI_MAX_DIFFS] = { 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6,
                                                       7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8,
                                                       9, 9, 9, 9, 9, 9, 9, 9, 9, 9 };

int refuse(char *msg, size_t n, const char *fmt, ...)
{
    if (msg && n) {
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(msg, n, fmt, ap);
        va_end(ap);
    }
    return VQ_EINVAL;
}

/* ---- luminance (luminance_tools.c), 10-bit limited range: 64..940 -------- */

enum class Eotf { Bt1886, Pq };

struct LumaRange {
    int foot, head;
};

double bt1886_eotf(double v)
{
    const double lw = std::pow(300.0, 1.0 / 2.4), lb = std::pow(0.01, 1.0 / 2.4);
    const double a = std::pow(std::pow(300.0, 1.0 / 2.4) - std::pow(0.01, 1.0 / 2.4), 2.4);
    const double b = lb / (lw - lb);
    const double x = v + b;
    return a * std::pow(x > 0 ? x : 0, 2.4);
}

double pq_eotf(double v)
{
    const double m1 = 0.1593017578125, m2 = 78.84375;
    const double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double num = std::pow(v, 1.0 / m2) - c1;
    const double num_clipped = num > 0 ? num : 0;
    const double den = c2 - c3 * std::pow(v, 1.0 / m2);
    return 10000 * std::pow(num_clipped / den, 1.0 / m1);
}

double luminance(int sample, LumaRange r, Eotf eotf)
{
    const int c = sample < r.foot ? r.foot : (sample > r.head ? r.head : sample);
    const double normalized = (double)(c - r.foot) / (r.head - r.foot);
    return eotf == Eotf::Bt1886 ? bt1886_eotf(normalized) : pq_eotf(normalized);
}

bool tvi_condition(int sample, int diff, double tvi, LumaRange r, Eotf eotf)
{
    const double mean_l = luminance(sample, r, eotf);
    const double diff_l = luminance(sample + diff, r, eotf);
    return diff_l - mean_l > tvi * mean_l;
}

enum class Bisect { TooSmall, Correct, TooBig };

Bisect tvi_hard_threshold(int sample, int diff, double tvi, LumaRange r, Eotf eotf)
{
    if (!tvi_condition(sample, diff, tvi, r, eotf))
        return Bisect::TooBig;
    if (tvi_condition(sample + 1, diff, tvi, r, eotf))
        return Bisect::TooSmall;
    return Bisect::Correct;
}

/* the largest sample whose step to sample + diff is still visible (bisection
 * as the reference runs it; returns 0 or 1023 at the ends) */
int tvi_for_diff(int diff, double tvi, LumaRange r, Eotf eotf, bool *stuck)
{
    int foot = r.foot, head = r.head - diff - 1;
    Bisect b = tvi_hard_threshold(foot, diff, tvi, r, eotf);
    if (b == Bisect::TooBig)
        return 0;
    if (b == Bisect::Correct)
        return foot;
    b = tvi_hard_threshold(head, diff, tvi, r, eotf);
    if (b == Bisect::TooSmall)
        return (1 << 10) - 1;
    if (b == Bisect::Correct)
        return head;
    for (int iter = 0; iter < 64; iter++) {
        const int mid = foot + (head - foot) / 2;
        b = tvi_hard_threshold(mid, diff, tvi, r, eotf);
        if (b == Bisect::TooBig)
            head = mid;
        else if (b == Bisect::TooSmall)
            foot = mid;
        else
            return mid;
    }
    *stuck = true;    /* the reference would loop for ever */
    return 0;
}

/* the smallest luma whose luminance reaches the threshold (0 if the foot) */
int vlt_luma(double threshold, LumaRange r, Eotf eotf, bool *stuck)
{
    int sample = r.foot;
    while (luminance(sample, r, eotf) < threshold) {
        if (++sample > r.head) {
            *stuck = true;    /* uint16 wraps in the reference: no end */
            return 0;
        }
    }
    return sample == r.foot ? 0 : sample;
}

/* adjust_window_size: unsigned arithmetic, kept as uint16 */
int adjust_window(int window, unsigned w, unsigned h, bool speedup)
{
    uint16_t ws = (uint16_t)(((unsigned)window * (w + h)) / 375 >> 4);
    if (speedup)
        ws = (uint16_t)((ws + 1) >> 1);
    return ws | 1;
}

struct Sizes {
    int enc_w, enc_h, src_w, src_h, enc_bitdepth, hrs;
};

int resolve(const VqCambiOptions *o, int w, int h, int bpc, Sizes *z, Eotf *eotf, char *msg,
            size_t n)
{
    struct IntRange {
        const char *name;
        int v, lo, hi;
    } ints[] = {
        { "enc_width", o->enc_width, 180, 7680 },   { "enc_height", o->enc_height, 150, 7680 },
        { "enc_bitdepth", o->enc_bitdepth, 6, 16 }, { "src_width", o->src_width, 320, 7680 },
        { "src_height", o->src_height, 200, 4320 }, { "window_size", o->window_size, 15, 127 },
        { "max_log_contrast", o->max_log_contrast, 0, 5 },
        { "cambi_high_res_speedup", o->cambi_high_res_speedup, 0, 2160 },
    };
    for (const IntRange &r : ints) {
        const bool zero_ok = !strncmp(r.name, "enc_", 4) || !strncmp(r.name, "src_", 4) ||
                             !strcmp(r.name, "cambi_high_res_speedup");
        if ((r.v < r.lo || r.v > r.hi) && !(zero_ok && r.v == 0))
            return refuse(msg, n, "cambi: %s %d outside %d..%d", r.name, r.v, r.lo, r.hi);
    }
    struct DoubleRange {
        const char *name;
        double v, lo, hi;
    } dbls[] = {
        { "cambi_max_val", o->cambi_max_val, 0.0, 1000.0 },
        { "topk", o->topk, 0.0001, 1.0 },
        { "cambi_topk", o->cambi_topk, 0.0001, 1.0 },
        { "tvi_threshold", o->tvi_threshold, 0.0001, 1.0 },
        { "cambi_vis_lum_threshold", o->cambi_vis_lum_threshold, 0.0, 300.0 },
    };
    for (const DoubleRange &r : dbls)
        if (!(r.v >= r.lo && r.v <= r.hi))
            return refuse(msg, n, "cambi: %s %g outside %g..%g", r.name, r.v, r.lo, r.hi);
    if (w <= 0 || h <= 0 || bpc < 8 || bpc > 16)
        return refuse(msg, n, "cambi: unsupported input %dx%d, %d bits", w, h, bpc);

    const char *e = (o->cambi_eotf && strcmp(o->cambi_eotf, "bt1886")) ? o->cambi_eotf : o->eotf;
    if (!e)
        e = "bt1886";
    if (!strcmp(e, "bt1886"))
        *eotf = Eotf::Bt1886;
    else if (!strcmp(e, "pq"))
        *eotf = Eotf::Pq;
    else
        return refuse(msg, n, "cambi: unknown EOTF \"%s\" (bt1886 or pq)", e);

    z->enc_bitdepth = o->enc_bitdepth ? o->enc_bitdepth : bpc;
    z->enc_w = o->enc_width;
    z->enc_h = o->enc_height;
    if (!z->enc_w || !z->enc_h) {
        z->enc_w = w;
        z->enc_h = h;
    }
    z->src_w = o->src_width;
    z->src_h = o->src_height;
    if (!z->src_w || !z->src_h) {
        z->src_w = w;
        z->src_h = h;
    }
    if (z->enc_h > h || z->enc_w > w) {   /* never upscale the encode back */
        z->enc_w = w;
        z->enc_h = h;
    }
    if (z->enc_w < VQ_CAMBI_MIN_WH && z->enc_h < VQ_CAMBI_MIN_WH)
        return refuse(msg, n,
                      "cambi: %dx%d is too small: libvmaf's cambi needs a width or a height of "
                      "at least %d",
                      z->enc_w, z->enc_h, VQ_CAMBI_MIN_WH);
    if (z->src_w < VQ_CAMBI_MIN_WH && z->src_h < VQ_CAMBI_MIN_WH)
        return refuse(msg, n, "cambi: source size %dx%d is too small (both below %d)", z->src_w,
                      z->src_h, VQ_CAMBI_MIN_WH);
    if ((z->src_w > z->enc_w && z->src_h < z->enc_h) ||
        (z->src_w < z->enc_w && z->src_h > z->enc_h))
        return refuse(msg, n, "cambi: source %dx%d and encode %dx%d differ in aspect direction",
                      z->src_w, z->src_h, z->enc_w, z->enc_h);
    /*
     * full_ref allocates the working pictures at max(src, enc) size.  A
     * 10-bit pass at the input size then copies the picture with one memcpy
     * of the input's rows (cambi.c decimate_generic_uint16_and_convert_to_10b)
     * into rows of the working picture's stride (the width rounded up to 32,
     * picture.c): when the strides differ the distorted picture is scored
     * sheared, over what the previous source pass left.  Nothing to match.
     */
    const auto align32 = [](int v) { return (v + 31) & ~31; };
    if (o->full_ref && bpc == 10 && z->enc_w == w && z->enc_h == h &&
        align32(z->src_w > z->enc_w ? z->src_w : z->enc_w) != align32(w))
        return refuse(msg, n,
                      "full_ref, src_width %d above the 10-bit width %d: libvmaf copies the "
                      "picture with the wrong row stride and scores it sheared (cambi.c "
                      "decimate_generic_uint16_and_convert_to_10b)",
                      z->src_w, w);
    const long enc_pix = (long)z->enc_w * z->enc_h;
    switch (o->cambi_high_res_speedup) {
    case 1080: z->hrs = enc_pix >= 1920L * 1080; break;
    case 1440: z->hrs = enc_pix >= 2560L * 1440; break;
    case 2160: z->hrs = enc_pix >= 3840L * 2160; break;
    default: z->hrs = 0;
    }
    return 0;
}

/* decimate_generic_*'s source index of each output sample: float steps of
 * in / out from ratio / 2 - 0.5, rounded by (int)(x + 0.5) */
void resize_index(int in, int out, int32_t *idx)
{
    const float ratio = (float)in / out;
    const float start = ratio / 2 - 0.5;
    float x = start;
    for (int j = 0; j < out; j++) {
        idx[j] = (int)(x + 0.5);
        x += ratio;
    }
}

} // namespace

/* vq_cambi_default_options: hostmath/cambi/cambi.cpp, from the module's spec */

extern "C" void vq_cambi_recip_table(float recip[VQ_CAMBI_LUT_SIZE])
{
    char buf[64];
    recip[0] = 0.0f;
    for (int i = 1; i < VQ_CAMBI_LUT_SIZE; i++) {
        vq_snprintf_c(buf, sizeof(buf), "%.9g", 1.0 / i);
        recip[i] = vq_strtof_c(buf, nullptr);
    }
}

extern "C" int vq_cambi_setup(const VqCambiOptions *o, int w, int h, int bpc, int is_src,
                              VqCambiParams *p, VqCambiTables *t, char *msg, size_t n)
{
    Sizes z;
    Eotf eotf;
    int err = resolve(o, w, h, bpc, &z, &eotf, msg, n);
    if (err)
        return err;
    memset(p, 0, sizeof(*p));
    p->in_w = w;
    p->in_h = h;
    p->in_bpc = bpc;
    p->w = is_src ? z.src_w : z.enc_w;
    p->h = is_src ? z.src_h : z.enc_h;
    p->resize = p->w != w || p->h != h;
    p->antidither = z.enc_bitdepth < 10;
    p->high_res_speedup = z.hrs;
    p->mask_index = vq_cambi_mask_index((unsigned)p->w, (unsigned)p->h, VQ_CAMBI_MASK_FILTER);

    const int win_enc = adjust_window(o->window_size, z.enc_w, z.enc_h, z.hrs);
    const int win_src = adjust_window(o->window_size, z.src_w, z.src_h, z.hrs);
    const int max_window = win_enc > win_src ? win_enc : win_src;
    if (max_window * max_window >= VQ_CAMBI_LUT_SIZE)
        return refuse(msg, n, "cambi: window_size %d too large for the reciprocal table",
                      max_window);
    p->window = is_src ? win_src : win_enc;
    p->pad = p->window >> 1;
    const int odd = 2 * (p->window >> 1) + 1;
    p->pixels_in_window = (uint16_t)(odd * odd);

    const int nd = 1 << o->max_log_contrast;
    const LumaRange range = { 64, 940 };
    bool stuck = false;
    p->num_diffs = nd;
    for (int d = 0; d < nd; d++) {
        p->diff_weights[d] = kContrastWeights[d];
        p->tvi_for_diff[d] = (uint16_t)(tvi_for_diff(d + 1, o->tvi_threshold, range, eotf, &stuck) + nd);
    }
    p->vlt_luma = (uint16_t)vlt_luma(o->cambi_vis_lum_threshold, range, eotf, &stuck);
    if (stuck)
        return refuse(msg, n, "cambi: tvi_threshold %g / cambi_vis_lum_threshold %g: libvmaf's "
                      "threshold search does not end", o->tvi_threshold, o->cambi_vis_lum_threshold);
    const int lo = p->vlt_luma - 3 * nd + 1;
    p->band_base = (uint16_t)(lo > 0 ? lo : 0);
    p->band_size = (uint16_t)(p->tvi_for_diff[nd - 1] + 1 - p->band_base);
    /* No contrast step can pass both of c_value_pixel's tests (value <=
     * tvi_for_diff[d], value + d + 1 > vlt_luma) when the visibility
     * threshold lies above every TVI threshold: every c-value is 0 and the
     * score 0, whatever the histograms hold.  (The reference's band size
     * then wraps in uint16 and it fills a histogram of ~65000 rows for
     * nothing.)  One band row keeps the executors' work trivial. */
    bool fires = false;
    for (int d = 0; d < nd; d++)
        fires |= p->tvi_for_diff[d] + d + 1 > p->vlt_luma;
    if (!fires)
        p->band_size = 1;
    /* c_value_pixel reads band row compact + d + 1 for values up to
     * tvi_for_diff[d]: inside the band only while the table rises no faster
     * than d (it does for the defaults; a larger max_log_contrast can break it) */
    for (int d = 0; d < nd; d++)
        if (p->tvi_for_diff[d] - nd - p->band_base + d + 1 > p->band_size - 1 &&
            p->tvi_for_diff[d] - nd >= p->band_base)
            return refuse(msg, n, "cambi: TVI table not monotone at contrast %d: libvmaf reads "
                          "outside its histogram", d + 1);
    if (p->band_size <= 0 || p->band_size > 2048)
        return refuse(msg, n, "cambi: histogram band of %d values", p->band_size);

    int sw = p->w, sh = p->h;
    double topk = o->topk != kDefaultTopk ? o->topk : o->cambi_topk;
    p->topk = topk;
    p->max_val = o->cambi_max_val;
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        if (s > 0 || z.hrs) {
            sw = (sw + 1) >> 1;
            sh = (sh + 1) >> 1;
        }
        p->sw[s] = sw;
        p->sh[s] = sh;
        p->sshift[s] = s + z.hrs;
        const int ne = sh * sw;
        const int k = (int)(topk * ne);
        p->topk_count[s] = k < 1 ? 1 : (k > ne ? ne : k);
        /* calculate_c_values reads rows 0 .. pad-1 and columns 0 .. pad-1
         * whatever the scale's size: outside it (stale memory) below pad */
        if (sw < p->pad || sh < p->pad)
            return refuse(msg, n,
                          "cambi: %dx%d: scale %d (%dx%d) is smaller than the window's half "
                          "width %d: libvmaf reads outside its image there",
                          p->w, p->h, s, sw, sh, p->pad);
    }

    if (t) {
        vq_cambi_recip_table(t->recip);
        memset(t->x_idx, 0, sizeof(t->x_idx));
        memset(t->y_idx, 0, sizeof(t->y_idx));
        if (p->resize) {
            if (p->w > VQ_CAMBI_MAX_SIZE || p->h > VQ_CAMBI_MAX_SIZE)
                return refuse(msg, n, "cambi: %dx%d too large", p->w, p->h);
            resize_index(w, p->w, t->x_idx);
            resize_index(h, p->h, t->y_idx);
            for (int j = 0; j < p->w; j++)
                if (t->x_idx[j] < 0 || t->x_idx[j] >= w)
                    return refuse(msg, n, "cambi: resize %d -> %d reads outside", w, p->w);
            for (int i = 0; i < p->h; i++)
                if (t->y_idx[i] < 0 || t->y_idx[i] >= h)
                    return refuse(msg, n, "cambi: resize %d -> %d reads outside", h, p->h);
        }
    }
    return 0;
}

extern "C" int vq_cambi_check(const VqCambiOptions *o, int w, int h, int bpc, char *msg,
                              size_t n)
{
    VqCambiParams p;
    int err = vq_cambi_setup(o, w, h, bpc, 0, &p, nullptr, msg, n);
    if (!err && o->full_ref)
        err = vq_cambi_setup(o, w, h, bpc, 1, &p, nullptr, msg, n);
    return err;
}

/* ---- the fold ---------------------------------------------------------- */

namespace {

struct ScaleSum {
    bool known;
    double mean;
};

/*
 * Scale s from the words: the executor's own reference-order sum (pool
 * mode 1), or the rows' exact sum (mode 0: vq_cambi_rows_exact), either
 * divided by k as the reference divides.  Unknown in mode 2 (and on words
 * no executor writes): the fold then needs the c-values.
 */
ScaleSum scale_from_words(const VqCambiParams *p, const VqCambiLayout *l, const int64_t *words,
                          int s)
{
    ScaleSum r = { false, 0.0 };
    const int n = p->sw[s] * p->sh[s];
    const int k = p->topk_count[s];
    const int64_t *hw = words + l->sel_off[s];
    const uint32_t tb = (uint32_t)hw[VQ_CAMBI_SEL_T];
    if (hw[VQ_CAMBI_SEL_POOLED] == VQ_CAMBI_POOL_EXECUTOR) {
        double sum;
        memcpy(&sum, &hw[VQ_CAMBI_SEL_SUM], sizeof(sum));
        r.known = true;
        r.mean = sum / k;
        return r;
    }
    if (hw[VQ_CAMBI_SEL_POOLED] != VQ_CAMBI_POOL_EXACT)
        return r;
    const int64_t *rows = words + l->row_off[s];
    int64_t cnt = 0;
    uint64_t hi = 0, lo = 0;
    int minexp = VQ_CAMBI_NONE_EXP;
    for (int i = 0; i < p->sh[s]; i++) {
        const int64_t *w = rows + (size_t)i * VQ_CAMBI_ROW_WORDS;
        const uint64_t v = (uint64_t)w[VQ_CAMBI_ROW_SUM];
        cnt += w[VQ_CAMBI_ROW_COUNT];
        lo += v;
        hi += lo < v;
        if (w[VQ_CAMBI_ROW_MINEXP] < minexp)
            minexp = (int)w[VQ_CAMBI_ROW_MINEXP];
    }
    uint64_t units;
    int g;
    if (!vq_cambi_rows_exact(tb, cnt, hi, lo, minexp, k, n, &units, &g))
        return r;
    r.known = true;
    r.mean = std::ldexp((double)units, g) / k;   /* units < 2^53: exact */
    return r;
}

double fold_unclipped(const VqCambiParams *p, const VqCambiLayout *l, const int64_t *words,
                      const float *const *cvalues)
{
    double scores[VQ_CAMBI_SCALES];
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        const ScaleSum r = scale_from_words(p, l, words, s);
        if (r.known)
            scores[s] = r.mean;
        else if (cvalues && cvalues[s])
            scores[s] = vq_cambi_topk_mean_reference(cvalues[s], p->sw[s] * p->sh[s],
                                                     p->topk_count[s]);
        else
            return NAN;
    }
    double score = 0.0;
    for (int s = 0; s < VQ_CAMBI_SCALES; s++)
        score += scores[s] * kScaleWeights[s];
    return score / (uint16_t)p->pixels_in_window;
}

} // namespace

extern "C" double vq_cambi_topk_mean_reference(const float *cvalues, int n, int k)
{
    std::vector<float> a(cvalues, cvalues + n);
    return vq_cambi_topk_sum_ref(a.data(), n, k) / k;
}

extern "C" unsigned vq_cambi_fold_needs_cvalues(const VqCambiParams *p, const VqCambiLayout *l,
                                                const int64_t *words)
{
    unsigned need = 0;
    for (int s = 0; s < VQ_CAMBI_SCALES; s++)
        if (!scale_from_words(p, l, words, s).known)
            need |= 1u << s;
    return need;
}

extern "C" double vq_cambi_fold_unclipped(const VqCambiParams *p, const VqCambiLayout *l,
                                          const int64_t *words, const float *const *cvalues)
{
    return fold_unclipped(p, l, words, cvalues);
}

extern "C" double vq_cambi_fold(const VqCambiParams *p, const VqCambiLayout *l,
                                const int64_t *words, const float *const *cvalues)
{
    const double score = fold_unclipped(p, l, words, cvalues);
    return score < p->max_val ? score : p->max_val;
}

extern "C" double vq_cambi_full_reference(double dist, double src, double max_val)
{
    /* cambi.c: MIN(MAX(0, dist - src), cambi_max_val), its macros' operand order */
    const double d = dist - src;
    const double c = 0 > d ? 0 : d;
    return c < max_val ? c : max_val;
}
