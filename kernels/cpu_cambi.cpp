/*
 * cpu_cambi.cpp - the CPU executor of CAMBI: plain loops around cambi.h.
 *
 * Images are packed uint16 rows (stride = width of scale 0).  The window
 * histograms are the reference's: hist[band row][column] counts the masked
 * pixels of that value within pad columns and pad rows of the column's
 * pixel on the current row; adding a pixel bumps 2 pad + 1 columns, rows
 * slide down one at a time.  Counts are integers, so any order of updates
 * gives the reference's counts.
 */
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "cambi.h"
#include "cambi_exec.h"

struct VqCambiCpu {
    int w, h, band, maxw;
    std::vector<uint16_t> img10, pre;          /* step 1, step 2 (w x h) */
    std::vector<uint16_t> cur, filt;           /* the scale's image before / after the mode */
    std::vector<uint8_t> zd, mask0;            /* flat map, scale-0 mask */
    std::vector<uint16_t> colsum;              /* 7-row sums of zd */
    std::vector<uint16_t> hist;                /* band x sw */
    std::vector<float> cv[VQ_CAMBI_SCALES];
    std::vector<uint32_t> sel;                 /* selection scratch */
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
        c->colsum.resize(n);
        c->hist.resize((size_t)p->band_size * p->sw[0]);
        for (int s = 0; s < VQ_CAMBI_SCALES; s++)
            c->cv[s].resize((size_t)p->sw[s] * p->sh[s]);
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

namespace {

/* steps 1-3: the 10-bit image (anti-dithered) and the scale-0 mask */
void preprocess(VqCambiCpu *c, const VqCambiParams &p, const VqCambiTables *t, VqPlaneView luma)
{
    const int w = p.w, h = p.h;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            c->img10[(size_t)i * w + j] = vq_cambi_load10(luma, &p, t->x_idx, t->y_idx, i, j);
    const uint16_t *img = c->img10.data();
    if (p.antidither) {
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++)
                c->pre[(size_t)i * w + j] = vq_cambi_antidither_at(img, w, w, h, i, j);
    } else {
        c->pre = c->img10;
    }
    img = c->pre.data();
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            c->zd[(size_t)i * w + j] = (uint8_t)vq_cambi_zero_deriv(img, w, w, h, i, j);
    /* 7x7 sums clipped to the image: vertical, then horizontal */
    const int r = VQ_CAMBI_MASK_FILTER >> 1;
    for (int i = 0; i < h; i++) {
        uint16_t *out = &c->colsum[(size_t)i * w];
        memset(out, 0, sizeof(uint16_t) * w);
        for (int k = std::max(0, i - r); k <= std::min(h - 1, i + r); k++) {
            const uint8_t *z = &c->zd[(size_t)k * w];
            for (int j = 0; j < w; j++)
                out[j] += z[j];
        }
    }
    for (int i = 0; i < h; i++) {
        const uint16_t *cs = &c->colsum[(size_t)i * w];
        uint32_t sum = 0;
        for (int j = 0; j < std::min(r, w); j++)
            sum += cs[j];
        for (int j = 0; j < w; j++) {
            if (j + r < w)
                sum += cs[j + r];
            if (j - r - 1 >= 0)
                sum -= cs[j - r - 1];
            c->mask0[(size_t)i * w + j] = sum > (uint32_t)p.mask_index;
        }
    }
}

inline bool mask_at(const VqCambiCpu *c, const VqCambiParams &p, int s, int i, int j)
{
    return c->mask0[((size_t)i << p.sshift[s]) * c->w + ((size_t)j << p.sshift[s])];
}

/* histogram row of the scale's pixel (i, j), or -1 when not counted */
inline int counted_row(const VqCambiCpu *c, const VqCambiParams &p, int s, int i, int j)
{
    if (!mask_at(c, p, s, i, j))
        return -1;
    return vq_cambi_band_row(&p, c->filt[(size_t)i * c->w + j]);
}

void add_row(VqCambiCpu *c, const VqCambiParams &p, int s, int i, int delta)
{
    const int sw = p.sw[s], pad = p.pad;
    for (int j = 0; j < sw; j++) {
        const int u = counted_row(c, p, s, i, j);
        if (u < 0)
            continue;
        uint16_t *hr = &c->hist[(size_t)u * sw];
        const int lo = std::max(j - pad, 0), hi = std::min(j + pad + 1, sw);
        for (int k = lo; k < hi; k++)
            hr[k] = (uint16_t)(hr[k] + delta);
    }
}

void c_values(VqCambiCpu *c, const VqCambiParams &p, const VqCambiTables *t, int s)
{
    const int sw = p.sw[s], sh = p.sh[s], pad = p.pad;
    float *cv = c->cv[s].data();
    std::fill(c->hist.begin(), c->hist.begin() + (size_t)p.band_size * sw, 0);
    for (int i = 0; i < std::min(pad, sh); i++)
        add_row(c, p, s, i, 1);
    for (int i = 0; i < sh; i++) {
        if (i + pad < sh)
            add_row(c, p, s, i + pad, 1);
        if (i - pad - 1 >= 0)
            add_row(c, p, s, i - pad - 1, -1);
        for (int j = 0; j < sw; j++) {
            float v = 0.0f;
            if (mask_at(c, p, s, i, j))
                v = vq_cambi_c_value(&p, t->recip, c->filt[(size_t)i * c->w + j], &c->hist[j], sw);
            cv[(size_t)i * sw + j] = v;
        }
    }
}

/* T = the k-th largest c-value; per row: count, 2^-32 sum and lowest-bit
 * minimum of the values above T; the pooling mode, and with it the
 * reference's own sum when the rows cannot give it */
void selection_words(VqCambiCpu *c, const VqCambiParams &p, int s, const VqCambiLayout *l,
                     int64_t *words)
{
    const int sw = p.sw[s], sh = p.sh[s];
    const size_t n = (size_t)sw * sh;
    const int k = p.topk_count[s];
    const float *cv = c->cv[s].data();
    uint32_t *b = c->sel.data();
    for (size_t x = 0; x < n; x++)
        b[x] = vq_cambi_bits(cv[x]);
    std::nth_element(b, b + (k - 1), b + n, std::greater<uint32_t>());
    const uint32_t tb = b[k - 1];
    int64_t total_cnt = 0;
    uint64_t sum_hi = 0, sum_lo = 0;
    int total_min = VQ_CAMBI_NONE_EXP;
    for (int i = 0; i < sh; i++) {
        int64_t cnt = 0;
        uint64_t sum = 0;
        int minexp = VQ_CAMBI_NONE_EXP;
        for (int j = 0; j < sw; j++) {
            const uint32_t x = vq_cambi_bits(cv[(size_t)i * sw + j]);
            if (x > tb) {
                cnt++;
                sum += vq_cambi_fixed32(x);
                minexp = std::min(minexp, vq_cambi_lowbit_exp(x));
            }
        }
        int64_t *rw = words + l->row_off[s] + (size_t)i * VQ_CAMBI_ROW_WORDS;
        rw[VQ_CAMBI_ROW_COUNT] = cnt;
        rw[VQ_CAMBI_ROW_SUM] = (int64_t)sum;
        rw[VQ_CAMBI_ROW_MINEXP] = minexp;
        total_cnt += cnt;
        sum_lo += sum;
        sum_hi += sum_lo < sum;
        total_min = std::min(total_min, minexp);
    }
    int g = 0;
    const int mode = vq_cambi_pool_mode(tb, total_cnt, sum_hi, sum_lo, total_min, k, (int)n, &g);
    double ref_sum = 0.0;
    if (mode == VQ_CAMBI_POOL_EXECUTOR) {
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

extern "C" int vq_cambi_cpu_run(VqCambiCpu *c, const VqCambiParams *pp, const VqCambiTables *t,
                                VqPlaneView luma, const VqCambiLayout *l, int64_t *words)
{
    if (!c || !pp || !t || luma.w != pp->in_w || luma.h != pp->in_h || c->w != pp->w ||
        c->h != pp->h)
        return -1;
    const VqCambiParams &p = *pp;
    const int w = c->w;
    preprocess(c, p, t, luma);
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        const int sw = p.sw[s], sh = p.sh[s];
        /* the scale's image: scale 0 is the preprocessed image (decimated
         * once more with the speed-up), then each scale the filtered one of
         * the scale above, decimated */
        if (s == 0 && !p.high_res_speedup) {
            c->cur = c->pre;
        } else {
            const uint16_t *src = s == 0 ? c->pre.data() : c->filt.data();
            for (int i = 0; i < sh; i++)
                for (int j = 0; j < sw; j++)
                    c->cur[(size_t)i * w + j] = src[(size_t)(2 * i) * w + 2 * j];
        }
        for (int i = 0; i < sh; i++)
            for (int j = 0; j < sw; j++)
                c->filt[(size_t)i * w + j] = vq_cambi_mode_at(c->cur.data(), w, sw, sh, i, j);
        c_values(c, p, t, s);
        selection_words(c, p, s, l, words);
    }
    return 0;
}
