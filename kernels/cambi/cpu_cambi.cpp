/*
 * cpu_cambi.cpp - the CPU executor of CAMBI: plain loops around cambi.h.
 *
 * Images are packed uint16 rows (stride = width of scale 0).  The window
 * histograms are the reference's: hist[band row][column] counts the masked
 * pixels of that value within pad columns and pad rows of the column's
 * pixel on the current row; adding a pixel bumps 2 pad + 1 columns, rows
 * slide down one at a time.  Counts are integers, so any order of updates
 * gives the reference's counts.
 *
 * A pass is a list of steps (cambi_exec.h), each over rows that may run in
 * bands on several threads: a band of c-values starts its own histograms
 * from the window of its first row.  vq_cambi_cpu_run is the same steps,
 * each over all its rows, on the calling thread.
 */
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <functional>
#include <mutex>
#include <new>
#include <vector>

#include "cambi/cambi.h"
#include "cambi/cambi_exec.h"
#include "simd/cpu_simd.h"

struct VqCambiCpu {
    int w, h, band, maxw;
    std::vector<uint16_t> img10, pre;          /* step 1, step 2 (w x h) */
    std::vector<uint16_t> cur, filt;           /* the scale's image before / after the mode */
    std::vector<uint8_t> zd, mask0;            /* flat map, scale-0 mask */
    std::vector<uint8_t> msk;                  /* the scale's mask, when it is not mask0 */
    std::vector<uint16_t> colsum;              /* 7-row sums of zd */
    std::vector<std::vector<uint16_t>> hist;   /* band x sw, one per band running at once */
    std::vector<std::vector<int16_t>> rows;    /* (2 pad + 2) x sw: the window's rows' band rows, per band */
    std::vector<int> hist_free;
    std::mutex hist_m;
    std::vector<float> cv[VQ_CAMBI_SCALES];
    std::vector<uint32_t> sel;                 /* selection scratch: the scale's c-value bits */
    std::vector<uint32_t> nz[VQ_CAMBI_SCALES]; /* per row: the c-values that are not 0 */
    uint32_t tb[VQ_CAMBI_SCALES] = {};         /* each scale's T (its select step) */
    std::vector<float> pool;                   /* the reference's quick_select, on a copy */
};

extern "C" VqCambiCpu *vq_cambi_cpu_alloc(const VqCambiParams *p)
{
    try {
        VqCambiCpu *c = new VqCambiCpu;
        const size_t n = (size_t)p->w * p->h;
        c->w = p->w;
        c->h = p->h;
        c->band = p->band_size;
        c->img10.resize(n);
        c->pre.resize(n);
        c->cur.resize(n);
        c->filt.resize(n);
        c->zd.resize(n);
        c->mask0.resize(n);
        c->msk.resize(n);
        c->colsum.resize(n);
        /* + 1 row: the pixels not counted go there, unread; + 2: the SIMD gathers read pairs */
        c->hist.emplace_back((size_t)(p->band_size + 1) * p->sw[0] + 2);
        c->rows.emplace_back((size_t)(2 * p->pad + 2) * p->sw[0]);
        c->hist_free.push_back(0);
        for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
            c->cv[s].resize((size_t)p->sw[s] * p->sh[s]);
            c->nz[s].resize((size_t)p->sh[s]);
        }
        c->sel.resize((size_t)p->sw[0] * p->sh[0]);
        return c;
    } catch (...) {
        return NULL;
    }
}

extern "C" void vq_cambi_cpu_free(VqCambiCpu *c)
{
    delete c;
}

extern "C" const float *vq_cambi_cpu_cvalues(const VqCambiCpu *c, int s)
{
    return c && s >= 0 && s < VQ_CAMBI_SCALES ? c->cv[s].data() : NULL;
}

extern "C" int vq_cambi_cpu_bands(VqCambiCpu *c, int workers)
{
    try {
        while ((int)c->hist.size() < workers) {
            c->hist.emplace_back(c->hist[0].size());
            c->rows.emplace_back(c->rows[0].size());
            c->hist_free.push_back((int)c->hist.size() - 1);
        }
    } catch (...) {
        return -1;
    }
    return 0;
}

namespace {

enum { ST_LOAD, ST_ANTIDITHER, ST_ZD, ST_COLSUM, ST_MASK, ST_SCALE0 };

/* scale s: ST_SCALE0 + 3 s + SC_* */
enum { SC_CUR, SC_FILT, SC_CVALUES };

/* a band's histograms, for as long as the band runs */
class BandHist {
public:
    explicit BandHist(VqCambiCpu *c) : c_(c)
    {
        std::lock_guard<std::mutex> l(c_->hist_m);
        k_ = c_->hist_free.back();   /* never empty: one band per worker at a time */
        c_->hist_free.pop_back();
    }
    ~BandHist()
    {
        std::lock_guard<std::mutex> l(c_->hist_m);
        c_->hist_free.push_back(k_);
    }
    uint16_t *data() { return c_->hist[k_].data(); }
    int16_t *rows() { return c_->rows[k_].data(); }

private:
    VqCambiCpu *c_;
    int k_;
};

/* Integer loops the compiler vectorises: an AVX2 clone beside the default
 * one (GCC's function multiversioning, chosen at load time by the CPU),
 * which gives the same integers.  Not under the sanitizers: the clone's
 * resolver runs while the program is relocated, before their runtime
 * exists, and ThreadSanitizer's instrumentation of it crashes there. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_THREAD__) && \
    !defined(__SANITIZE_ADDRESS__)
#define VQ_CLONES_AVX2 __attribute__((target_clones("avx2", "default")))
#else
#define VQ_CLONES_AVX2
#endif

/* step ST_LOAD: the 10-bit image (into pre when there is no anti-dithering) */
VQ_CLONES_AVX2
void load_rows(VqCambiCpu *c, const VqCambiParams &p, const VqCambiTables *t, VqPlaneView luma, int i0,
               int i1)
{
    const int w = p.w;
    uint16_t *dst = p.antidither ? c->img10.data() : c->pre.data();
    if (!p.resize && luma.step == 1) {
        /* vq_cambi_load10 without the index tables, a row at a time */
        for (int i = i0; i < i1; i++) {
            const uint8_t *row = luma.data + (ptrdiff_t)i * luma.pitch;
            uint16_t *d = dst + (size_t)i * w;
            if (luma.bytes == 1) {
                for (int j = 0; j < w; j++)
                    d[j] = vq_cambi_to10(row[j], p.in_bpc);
            } else {
                const uint16_t *r16 = (const uint16_t *)row;
                for (int j = 0; j < w; j++)
                    d[j] = vq_cambi_to10((uint32_t)(r16[j] >> luma.shift), p.in_bpc);
            }
        }
        return;
    }
    for (int i = i0; i < i1; i++)
        for (int j = 0; j < w; j++)
            dst[(size_t)i * w + j] = vq_cambi_load10(luma, &p, t->x_idx, t->y_idx, i, j);
}

/* step ST_ANTIDITHER: vq_cambi_antidither_at of rows [i0, i1), the 2x2
 * means of the rows and columns but the last without its edge tests */
VQ_CLONES_AVX2
void antidither_rows(VqCambiCpu *c, const VqCambiParams &p, int i0, int i1)
{
    const int w = p.w, h = p.h;
    const uint16_t *img = c->img10.data();
    for (int i = i0; i < i1; i++) {
        uint16_t *d = &c->pre[(size_t)i * w];
        if (i < h - 1) {
            const uint16_t *r0 = img + (size_t)i * w, *r1 = r0 + w;
            for (int j = 0; j < w - 1; j++)
                d[j] = (uint16_t)((r0[j] + r0[j + 1] + r1[j] + r1[j + 1]) >> 2);
        } else {
            for (int j = 0; j < w - 1; j++)
                d[j] = vq_cambi_antidither_at(img, w, w, h, i, j);
        }
        d[w - 1] = vq_cambi_antidither_at(img, w, w, h, i, w - 1);
    }
}

/* scale s's mask rows from mask0, every (1 << SH)-th row and column */
template <int SH>
void mask_scale_rows(VqCambiCpu *c, int sw, int i0, int i1)
{
    const int w = c->w;
    for (int i = i0; i < i1; i++) {
        const uint8_t *m = &c->mask0[((size_t)i << SH) * w];
        uint8_t *d = &c->msk[(size_t)i * w];
        for (int j = 0; j < sw; j++)
            d[j] = m[(size_t)j << SH];
    }
}

/* step SC_CUR of scale s: its image (scale 0 is the preprocessed image,
 * decimated once more with the speed-up; each scale after it the filtered
 * one of the scale above, decimated) and, when it is not mask0, its mask */
VQ_CLONES_AVX2
void scale_rows(VqCambiCpu *c, const VqCambiParams &p, int s, int i0, int i1)
{
    const int w = c->w, sw = p.sw[s];
    if (s > 0 || p.high_res_speedup) {     /* else the mode filter reads pre */
        const uint16_t *src = s == 0 ? c->pre.data() : c->filt.data();
        for (int i = i0; i < i1; i++) {
            const uint16_t *r = src + (size_t)(2 * i) * w;
            uint16_t *d = &c->cur[(size_t)i * w];
            for (int j = 0; j < sw; j++)
                d[j] = r[2 * j];
        }
    }
    switch (p.sshift[s]) {  /* the scale's mask, read by its c-values */
    case 0: break;
    case 1: mask_scale_rows<1>(c, sw, i0, i1); break;
    case 2: mask_scale_rows<2>(c, sw, i0, i1); break;
    case 3: mask_scale_rows<3>(c, sw, i0, i1); break;
    case 4: mask_scale_rows<4>(c, sw, i0, i1); break;
    case 5: mask_scale_rows<5>(c, sw, i0, i1); break;
    default: {
        const int sh = p.sshift[s];
        for (int i = i0; i < i1; i++)
            for (int j = 0; j < sw; j++)
                c->msk[(size_t)i * w + j] = c->mask0[((size_t)i << sh) * w + ((size_t)j << sh)];
    }
    }
}

/* steps ST_COLSUM, ST_MASK: 7x7 sums of the flat map clipped to the image
 * (vertical, then horizontal), and the scale-0 mask */
VQ_CLONES_AVX2
void colsum_rows(VqCambiCpu *c, const VqCambiParams &p, int i0, int i1)
{
    const int w = p.w, h = p.h, r = VQ_CAMBI_MASK_FILTER >> 1;
    for (int i = i0; i < i1; i++) {
        uint16_t *out = &c->colsum[(size_t)i * w];
        memset(out, 0, sizeof(uint16_t) * w);
        for (int k = std::max(0, i - r); k <= std::min(h - 1, i + r); k++) {
            const uint8_t *z = &c->zd[(size_t)k * w];
            for (int j = 0; j < w; j++)
                out[j] += z[j];
        }
    }
}

VQ_CLONES_AVX2
void mask_rows(VqCambiCpu *c, const VqCambiParams &p, int i0, int i1)
{
    const int w = p.w, r = VQ_CAMBI_MASK_FILTER >> 1;
    const uint32_t mi = (uint32_t)p.mask_index;
    for (int i = i0; i < i1; i++) {
        const uint16_t *cs = &c->colsum[(size_t)i * w];
        uint8_t *m = &c->mask0[(size_t)i * w];
        /* each column's sum of the 2 r + 1 columns around it (clipped):
         * the ones with all of them inside the image straight (the
         * compiler vectorises it), the ones at the edges by the clip */
        auto clipped = [&](int j) {
            uint32_t sum = 0;
            for (int k = std::max(0, j - r); k <= std::min(w - 1, j + r); k++)
                sum += cs[k];
            return (uint8_t)(sum > mi);
        };
        const int a = std::min(r, w), b = std::max(a, w - r);
        for (int j = 0; j < a; j++)
            m[j] = clipped(j);
        for (int j = a; j < b; j++) {
            uint32_t sum = 0;
            for (int k = -r; k <= r; k++)
                sum += cs[j + k];
            m[j] = (uint8_t)(sum > mi);
        }
        for (int j = b; j < w; j++)
            m[j] = clipped(j);
    }
}

/* step ST_ZD: vq_cambi_zero_deriv of rows [i0, i1), the columns but the
 * last without its edge tests (so that the compiler vectorises them) */
VQ_CLONES_AVX2
void zd_rows(VqCambiCpu *c, const VqCambiParams &p, int i0, int i1)
{
    const int w = p.w, h = p.h;
    const uint16_t *pre = c->pre.data();
    for (int i = i0; i < i1; i++) {
        const uint16_t *r = pre + (size_t)i * w;
        uint8_t *z = &c->zd[(size_t)i * w];
        if (i < h - 1) {
            const uint16_t *d = r + w;
            for (int j = 0; j < w - 1; j++)
                z[j] = (uint8_t)((r[j] == r[j + 1]) & (r[j] == d[j]));
        } else {
            for (int j = 0; j < w - 1; j++)
                z[j] = (uint8_t)(r[j] == r[j + 1]);
        }
        z[w - 1] = (uint8_t)vq_cambi_zero_deriv(pre, w, w, h, i, w - 1);
    }
}

/* row i of scale s's mask: mask0 at (i << sshift, j << sshift), 0 or 1 */
inline const uint8_t *mask_row(const VqCambiCpu *c, const VqCambiParams &p, int s, int i)
{
    return (p.sshift[s] ? c->msk.data() : c->mask0.data()) + (size_t)i * c->w;
}

/* the histogram rows of row i's pixels (band_size: not counted, a row no
 * c-value reads); without branches, the mask being as good as random to a
 * predictor */
VQ_CLONES_AVX2
void counted_row(const VqCambiCpu *c, const VqCambiParams &p, int s, int i, int16_t *out)
{
    const int sw = p.sw[s];
    const uint8_t *m = mask_row(c, p, s, i);
    const uint16_t *f = &c->filt[(size_t)i * c->w];
    const int base = p.band_base, nb = p.band_size;
    for (int j = 0; j < sw; j++) {
        /* vq_cambi_band_row, as selects the compiler vectorises */
        const int r = (int)f[j] - base;
        const int in = (m[j] != 0) & (r >= 0) & (r < nb);
        out[j] = (int16_t)(in ? r : nb);
    }
}

/* integer adds only: the AVX2 clone (GCC's function multiversioning, chosen
 * at load time by the CPU) gives the same counts, 16 at a time. */
VQ_CLONES_AVX2
void add_row(const VqCambiParams &p, uint16_t *hist, int s, const int16_t *u_row, int delta)
{
    const int sw = p.sw[s], pad = p.pad;
    for (int j = 0; j < sw;) {
        /* a run of pixels j .. j1 - 1 in one band row: column k counts the
         * run's pixels within pad of it, in one pass (a range per pixel
         * would stall on the overlapping loads and stores); the pixels not
         * counted go to the unread row, so no branch tells them apart */
        const int u = u_row[j];
        int j1 = j + 1;
        while (j1 < sw && u_row[j1] == u)
            j1++;
        uint16_t *hr = &hist[(size_t)u * sw];
        const int lo = std::max(j - pad, 0), hi = std::min(j1 + pad, sw), last = j1 - 1;
        for (int k = lo; k < hi; k++) {
            const int n = std::min(k + pad, last) - std::max(k - pad, j) + 1;
            hr[k] = (uint16_t)(hr[k] + delta * n);
        }
        j = j1;
    }
}

/* the values whose bits are not all 0 */
VQ_CLONES_AVX2
uint32_t count_nonzero(const float *v, int n)
{
    uint32_t cnt = 0;
    for (int j = 0; j < n; j++)
        cnt += vq_f32_bits(v[j]) != 0;
    return cnt;
}

/* c-values of rows [i0, i1) of scale s: the band's histograms start from
 * rows i0 - pad .. i0 + pad - 1 (clipped), then slide as the whole image's */
void c_value_rows(VqCambiCpu *c, const VqCambiParams &p, const VqCambiTables *t, int s, int i0, int i1)
{
    const int sw = p.sw[s], sh = p.sh[s], pad = p.pad;
    BandHist bh(c);
    uint16_t *hist = bh.data();
    int16_t *ring = bh.rows();      /* row r's band rows at (r % nr) * sw */
    const int nr = 2 * pad + 2;
    auto ring_row = [&](int r) { return ring + (size_t)(r % nr) * sw; };
    float *cv = c->cv[s].data();
    const VqCpuSimd *simd = vq_cpu_simd();
    std::fill(hist, hist + (size_t)p.band_size * sw, 0);
    const int first = std::max(0, i0 - pad);   /* the band's first counted row */
    for (int i = first; i < std::min(i0 + pad, sh); i++) {
        counted_row(c, p, s, i, ring_row(i));
        add_row(p, hist, s, ring_row(i), 1);
    }
    for (int i = i0; i < i1; i++) {
        if (i - pad - 1 >= first)   /* before its ring row is reused */
            add_row(p, hist, s, ring_row(i - pad - 1), -1);
        if (i + pad < sh) {
            counted_row(c, p, s, i + pad, ring_row(i + pad));
            add_row(p, hist, s, ring_row(i + pad), 1);
        }
        simd->cambi_cvalue_row(&p, t->recip, &c->filt[(size_t)i * c->w], mask_row(c, p, s, i), hist, sw, sw,
                               &cv[(size_t)i * sw]);
        c->nz[s][(size_t)i] = count_nonzero(&cv[(size_t)i * sw], sw);
    }
}

/* T = the k-th largest c-value of scale s (by their bits), kept for the
 * row words.  When fewer than k are above 0 (banding's usual case: with
 * the default topk of 0.6 most pixels have none), T is 0 without a
 * selection; else nth_element on a copy. */
void select_t(VqCambiCpu *c, const VqCambiParams &p, int s)
{
    const size_t n = (size_t)p.sw[s] * p.sh[s];
    const int k = p.topk_count[s];
    uint64_t nonzero = 0;
    for (int i = 0; i < p.sh[s]; i++)
        nonzero += c->nz[s][(size_t)i];
    if (nonzero < (uint64_t)k) {
        c->tb[s] = 0;
        return;
    }
    uint32_t *b = c->sel.data();
    memcpy(b, c->cv[s].data(), sizeof(float) * n);
    std::nth_element(b, b + (k - 1), b + n, std::greater<uint32_t>());
    c->tb[s] = b[k - 1];
}

/* per row of [i0, i1): count, 2^-32 sum and lowest-bit minimum of the
 * values above T */
void row_words(const VqCambiCpu *c, const VqCambiParams &p, int s, const VqCambiLayout *l, int64_t *words,
               int i0, int i1)
{
    const int sw = p.sw[s];
    const float *cv = c->cv[s].data();
    for (int i = i0; i < i1; i++)
        vq_cambi_row_words(&cv[(size_t)i * sw], sw, c->tb[s], words + l->row_off[s] + (size_t)i * VQ_CAMBI_ROW_WORDS);
}

/* the rows' totals; the pooling mode, and with it the reference's own sum
 * when the rows cannot give it; the scale's header words */
void decide(VqCambiCpu *c, const VqCambiParams &p, int s, const VqCambiLayout *l, int64_t *words)
{
    const int sh = p.sh[s];
    const size_t n = (size_t)p.sw[s] * sh;
    const int k = p.topk_count[s];
    const uint32_t tb = c->tb[s];
    int64_t total_cnt = 0;
    uint64_t sum_hi = 0, sum_lo = 0;
    int total_min = VQ_CAMBI_NONE_EXP;
    for (int i = 0; i < sh; i++) {
        const int64_t *rw = words + l->row_off[s] + (size_t)i * VQ_CAMBI_ROW_WORDS;
        const uint64_t sum = (uint64_t)rw[VQ_CAMBI_ROW_SUM];
        total_cnt += rw[VQ_CAMBI_ROW_COUNT];
        sum_lo += sum;
        sum_hi += sum_lo < sum;
        total_min = std::min(total_min, (int)rw[VQ_CAMBI_ROW_MINEXP]);
    }
    int g = 0;
    const int mode = vq_cambi_pool_mode(tb, total_cnt, sum_hi, sum_lo, total_min, k, (int)n, &g);
    double ref_sum = 0.0;
    if (mode == VQ_CAMBI_POOL_EXECUTOR) {
        const float *cv = c->cv[s].data();
        std::vector<float> &a = c->pool;
        a.assign(cv, cv + n);
        ref_sum = vq_cambi_topk_sum_ref(a.data(), (int)n, k);
    }
    int64_t *hw = words + l->sel_off[s];
    hw[VQ_CAMBI_SEL_T] = (int64_t)tb;
    hw[VQ_CAMBI_SEL_POOLED] = mode;
    int64_t sum_bits = 0;
    memcpy(&sum_bits, &ref_sum, sizeof(sum_bits));
    hw[VQ_CAMBI_SEL_SUM] = sum_bits;
}

} // namespace

extern "C" int vq_cambi_cpu_step_rows(const VqCambiParams *p, int step)
{
    if (step < ST_SCALE0)
        return step == ST_ANTIDITHER && !p->antidither ? 0 : p->h;
    const int s = (step - ST_SCALE0) / 3;
    return s < VQ_CAMBI_SCALES ? p->sh[s] : 0;
}

/* scale s's c-values end in step ST_SCALE0 + 3 s + SC_CVALUES; its T is
 * chosen in the next step (one thread), its row words in bands in the one
 * after, its header in the third (one thread) */
static int after_cvalues(int step, int k)
{
    const int d = step - ST_SCALE0 - SC_CVALUES - k;
    return d >= 0 && d % 3 == 0 && d / 3 < VQ_CAMBI_SCALES ? d / 3 : -1;
}

extern "C" int vq_cambi_cpu_step_select(const VqCambiParams *p, int step)
{
    (void)p;
    return after_cvalues(step, 1);
}

extern "C" int vq_cambi_cpu_step_words(const VqCambiParams *p, int step)
{
    (void)p;
    return after_cvalues(step, 2);
}

extern "C" int vq_cambi_cpu_step_decide(const VqCambiParams *p, int step)
{
    (void)p;
    return after_cvalues(step, 3);
}

/* a c-value band first builds its histograms from the 2 pad rows around
 * its first row: one band per worker keeps that extra work small (with
 * four per worker, as the other steps, it was up to half of cambi's time) */
extern "C" int vq_cambi_cpu_step_most(const VqCambiParams *p, int step, int workers)
{
    (void)p;
    return step >= ST_SCALE0 && (step - ST_SCALE0) % 3 == SC_CVALUES ? workers : 0;
}

extern "C" int vq_cambi_cpu_check(const VqCambiCpu *c, const VqCambiParams *p, VqPlaneView luma)
{
    return !c || !p || luma.w != p->in_w || luma.h != p->in_h || c->w != p->w || c->h != p->h ? -1 : 0;
}

extern "C" void vq_cambi_cpu_rows(VqCambiCpu *c, const VqCambiParams *pp, const VqCambiTables *t,
                                  VqPlaneView luma, int step, int i0, int i1)
{
    const VqCambiParams &p = *pp;
    const int w = c->w;
    switch (step) {
    case ST_LOAD:
        load_rows(c, p, t, luma, i0, i1);
        return;
    case ST_ANTIDITHER:
        antidither_rows(c, p, i0, i1);
        return;
    case ST_ZD:
        zd_rows(c, p, i0, i1);
        return;
    case ST_COLSUM:
        colsum_rows(c, p, i0, i1);
        return;
    case ST_MASK:
        mask_rows(c, p, i0, i1);
        return;
    default:
        break;
    }
    const int s = (step - ST_SCALE0) / 3, sw = p.sw[s], sh = p.sh[s];
    switch ((step - ST_SCALE0) % 3) {
    case SC_CUR:
        scale_rows(c, p, s, i0, i1);
        return;
    case SC_FILT: {
        /* vq_cambi_mode_at's composition, each row's horizontal modes made
         * once (three rows rolling) instead of once per output row */
        const uint16_t *img = s == 0 && !p.high_res_speedup ? c->pre.data() : c->cur.data();
        std::vector<uint16_t> buf(3 * (size_t)sw);
        uint16_t *hm[3] = { &buf[0], &buf[(size_t)sw], &buf[2 * (size_t)sw] };  /* rows i-1, i, i+1 */
        const VqCpuSimd *simd = vq_cpu_simd();
        auto hrow = [&](int r, uint16_t *dst) {   /* vq_cambi_hmode of every column */
            const uint16_t *row = img + (size_t)r * w;
            dst[0] = row[0];
            dst[sw - 1] = row[sw - 1];
            if (sw > 2)
                simd->cambi_mode3_row(row, row + 1, row + 2, sw - 2, dst + 1);
        };
        int last = -2;      /* the row i of the modes in hm */
        for (int i = i0; i < i1; i++) {
            uint16_t *out = &c->filt[(size_t)i * w];
            if (i == 0 || i == sh - 1) {    /* kept unfiltered */
                memcpy(out, img + (size_t)i * w, sizeof(uint16_t) * (size_t)sw);
                continue;
            }
            if (last == i - 1) {
                std::swap(hm[0], hm[1]);
                std::swap(hm[1], hm[2]);
                hrow(i + 1, hm[2]);
            } else {
                hrow(i - 1, hm[0]);
                hrow(i, hm[1]);
                hrow(i + 1, hm[2]);
            }
            last = i;
            simd->cambi_mode3_row(hm[0], hm[1], hm[2], sw, out);
        }
        return;
    }
    default:
        c_value_rows(c, p, t, s, i0, i1);
        return;
    }
}

/* modes of three, column by column (cpu_simd.h's plain entry) */
extern "C" void vq_cambi_mode3_row_plain(const uint16_t *a, const uint16_t *b, const uint16_t *c, int n,
                                         uint16_t *out)
{
    for (int j = 0; j < n; j++)
        out[j] = vq_cambi_mode3(a[j], b[j], c[j]);
}

/* the c-values of a row, column by column (cpu_simd.h's plain entry) */
extern "C" void vq_cambi_cvalue_row_plain(const VqCambiParams *p, const float *recip, const uint16_t *vals,
                                          const uint8_t *act, const uint16_t *hist, int sw, int n, float *out)
{
    for (int j = 0; j < n; j++)
        out[j] = act[j] ? vq_cambi_c_value(p, recip, vals[j], &hist[j], sw) : 0.0f;
}

/*
 * A row's words: the count of the values above T (by their bits), the sum
 * of vq_cambi_fixed32 over them and the minimum of vq_cambi_lowbit_exp
 * (VQ_CAMBI_NONE_EXP if none).  Those two as selects the compiler
 * vectorises, without branches (which values pass is as good as random):
 * the lowest set bit m & -m is a power of two below 2^24, so its float's
 * exponent is its log2; the shifts are clamped where vq_cambi_fixed32 does
 * not shift.  test_cambi's RowWords compares them over every exponent.
 */
extern "C" VQ_CLONES_AVX2 void vq_cambi_row_words(const float *cv, int n, uint32_t tb, int64_t *out)
{
    int64_t cnt = 0;
    uint64_t sum = 0;
    int minexp = VQ_CAMBI_NONE_EXP;
    for (int j = 0; j < n; j++) {
        const uint32_t b = vq_f32_bits(cv[j]);
        const uint32_t in = b > tb;
        const int e = (int)(b >> 23);
        const uint32_t m = (b & 0x7fffffu) | (0x800000u & (0u - (uint32_t)(e != 0)));
        const int base = e - 150 + (e == 0);
        /* vq_cambi_lowbit_exp (m != 0 when b != 0) */
        const uint32_t low = m & (0u - m);
        const int lowexp = base + (int)(vq_f32_bits((float)(int32_t)low) >> 23) - 127;
        /* vq_cambi_fixed32: m << sh (all ones from sh = 40), m >> -sh (0
         * from -sh = 64), 0 for b = 0 */
        const int sh = base + 32;
        const int shl = std::max(0, std::min(sh, 63)), shr = std::max(0, std::min(-sh, 63));
        const uint64_t left = ((uint64_t)m << shl) | (0 - (uint64_t)(sh >= 40));
        const uint64_t right = ((uint64_t)m >> shr) & (0 - (uint64_t)(sh > -64));
        const uint64_t pos = 0 - (uint64_t)(sh >= 0);
        const uint64_t fixed = ((left & pos) | (right & ~pos)) & (0 - (uint64_t)(b != 0));
        cnt += in;
        sum += fixed & (0 - (uint64_t)in);
        /* a value that does not pass goes above the initial minimum
         * (lowexp is within -276 .. 128, b = 0 included): never counted */
        minexp = std::min(minexp, lowexp + (int)((1u - in) << 11));
    }
    out[VQ_CAMBI_ROW_COUNT] = cnt;
    out[VQ_CAMBI_ROW_SUM] = (int64_t)sum;
    out[VQ_CAMBI_ROW_MINEXP] = minexp;
}

extern "C" void vq_cambi_cpu_select(VqCambiCpu *c, const VqCambiParams *p, int s)
{
    select_t(c, *p, s);
}

extern "C" void vq_cambi_cpu_words(const VqCambiCpu *c, const VqCambiParams *p, int s, const VqCambiLayout *l,
                                   int64_t *words, int row_begin, int row_end)
{
    row_words(c, *p, s, l, words, row_begin, row_end);
}

extern "C" void vq_cambi_cpu_decide(VqCambiCpu *c, const VqCambiParams *p, int s, const VqCambiLayout *l,
                                    int64_t *words)
{
    decide(c, *p, s, l, words);
}

extern "C" int vq_cambi_cpu_run(VqCambiCpu *c, const VqCambiParams *p, const VqCambiTables *t,
                                VqPlaneView luma, const VqCambiLayout *l, int64_t *words)
{
    if (vq_cambi_cpu_check(c, p, luma) < 0)
        return -1;
    for (int step = 0; step < VQ_CAMBI_CPU_STEPS; step++) {
        int s = vq_cambi_cpu_step_select(p, step);
        if (s >= 0)
            vq_cambi_cpu_select(c, p, s);
        if ((s = vq_cambi_cpu_step_words(p, step)) >= 0)
            vq_cambi_cpu_words(c, p, s, l, words, 0, p->sh[s]);
        if ((s = vq_cambi_cpu_step_decide(p, step)) >= 0)
            vq_cambi_cpu_decide(c, p, s, l, words);
        const int rows = vq_cambi_cpu_step_rows(p, step);
        if (rows > 0)
            vq_cambi_cpu_rows(c, p, t, luma, step, 0, rows);
    }
    return 0;
}
