/*
 * cpu_ssim.cpp - the CPU executor of float_ssim / float_ms_ssim: loops
 * around kernels/ssim/ssim.h, adding each sum term by term in raster order, as
 * the reference does.
 *
 * The loops run across a row with one double accumulator per output
 * sample and the taps outermost, so that every output still adds its
 * products in the reference's order while the compiler can vectorise
 * across samples.  Borders are handled by copying each source row with
 * reflected margins first.  The Gaussian passes keep a ring of the last
 * 11 horizontal-pass rows of the five images (ref, cmp, ref^2, cmp^2,
 * ref*cmp), so the working set stays small.
 *
 * In bands (vq_ssim_cpu_bands, where the executor chooses) the same loops run:
 * the float picture, each decimation and each image's terms are bands of
 * output rows, the per-pixel terms are kept for the whole image, and each
 * sum is then added term by term in raster order on one thread.  The terms
 * are the same doubles either way, so are the sums.
 */
#include <atomic>
#include <mutex>
#include <new>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "module.h"
#include "ssim.h"
#include "ssim_exec.h"

namespace {

enum { P_REF, P_CMP, P_RR, P_CC, P_RC, NPLANES };

struct Image {
    float *ref = nullptr, *cmp = nullptr;
    int w = 0, h = 0;
};

/* one thread's buffers for the filters (the whole frame's, or a band's) */
struct Work {
    float *ring[NPLANES] = {};     /* VQ_SSIM_WIN rows of (max_w - 10) each */
    float *prod[3] = {};           /* one row of ref^2, cmp^2, ref*cmp */
    float *ext = nullptr;          /* one source row with reflected margins */
    std::vector<float> split;      /* ms_decimate's source rows split by column parity */
    double *acc = nullptr;         /* per-output accumulators of one row */
    float *mom[NPLANES] = {};      /* one row of the five filtered images */
    VqSsimTerms *terms = nullptr;  /* one row of per-pixel terms */
};

/* an image's per-pixel terms, kept for its ordered sums (banded runs) */
struct Terms {
    double *l = nullptr, *c = nullptr;
    float *s = nullptr;            /* the terms' s: float values */
    int w = 0, h = 0;              /* (w - 10) x (h - 10) of the image */
};

} // namespace

struct VqSsimCpu {
    VqSsimGeom g;
    Image ms[VQ_MS_SSIM_SCALES];   /* ms[0]: the frame as floats */
    Image box;                     /* float_ssim's decimated image (scale > 1) */
    int max_w;                     /* widest image a pass works on */
    Work w0;                       /* the calling thread's (vq_ssim_cpu_run) */
    /* banded runs (vq_ssim_cpu_bands): the bands' buffers, free ones listed */
    std::vector<Work> bw;
    std::vector<int> bw_free;
    std::mutex bw_m;
    Terms terms[VQ_SSIM_IMAGES];
};

static void *xalloc(size_t n, bool *ok)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        *ok = false;
    return p;
}

static void work_free(Work &w)
{
    for (int p = 0; p < NPLANES; p++) {
        free(w.ring[p]);
        free(w.mom[p]);
    }
    for (int p = 0; p < 3; p++)
        free(w.prod[p]);
    free(w.ext);
    free(w.acc);
    free(w.terms);
    w = Work();
}

/* a Work for images up to max_w wide (float_ssim's box filter by scale) */
static bool work_alloc(Work &w, int max_w, int scale)
{
    bool ok = true;
    const int dw = max_w - 2 * VQ_SSIM_WIN_R;
    const int pad = (scale > VQ_MS_SSIM_LPF_R ? scale : VQ_MS_SSIM_LPF_R) + 1;
    for (int p = 0; p < NPLANES; p++) {
        w.ring[p] = (float *)xalloc((size_t)VQ_SSIM_WIN * dw * sizeof(float), &ok);
        w.mom[p] = (float *)xalloc((size_t)dw * sizeof(float), &ok);
    }
    for (int p = 0; p < 3; p++)
        w.prod[p] = (float *)xalloc((size_t)max_w * sizeof(float), &ok);
    w.ext = (float *)xalloc((size_t)(max_w + 2 * pad) * sizeof(float), &ok);
    w.acc = (double *)xalloc((size_t)max_w * sizeof(double), &ok);
    w.terms = (VqSsimTerms *)xalloc((size_t)dw * sizeof(VqSsimTerms), &ok);
    return ok;
}

extern "C" void vq_ssim_cpu_free(VqSsimCpu *c)
{
    if (!c)
        return;
    for (Image &m : c->ms) {
        free(m.ref);
        free(m.cmp);
    }
    free(c->box.ref);
    free(c->box.cmp);
    work_free(c->w0);
    for (Work &w : c->bw)
        work_free(w);
    for (Terms &t : c->terms) {
        free(t.l);
        free(t.c);
        free(t.s);
    }
    delete c;
}

extern "C" VqSsimCpu *vq_ssim_cpu_alloc(const VqSsimGeom *g)
{
    if (!vq_ssim_geom_valid(g))
        return nullptr;
    VqSsimCpu *c = new (std::nothrow) VqSsimCpu();
    if (!c)
        return nullptr;
    c->g = *g;
    bool ok = true;
    const int nms = (g->features & VQ_SSIM_F_MS_SSIM) ? VQ_MS_SSIM_SCALES : 1;
    for (int i = 0; i < nms; i++) {
        Image &m = c->ms[i];
        m.w = g->msw[i];
        m.h = g->msh[i];
        m.ref = (float *)xalloc((size_t)m.w * m.h * sizeof(float), &ok);
        m.cmp = (float *)xalloc((size_t)m.w * m.h * sizeof(float), &ok);
    }
    if ((g->features & VQ_SSIM_F_SSIM) && g->scale > 1) {
        c->box.w = g->sw;
        c->box.h = g->sh;
        c->box.ref = (float *)xalloc((size_t)g->sw * g->sh * sizeof(float), &ok);
        c->box.cmp = (float *)xalloc((size_t)g->sw * g->sh * sizeof(float), &ok);
    }
    c->max_w = g->w;
    ok = ok && work_alloc(c->w0, c->max_w, g->scale);
    try {   /* for scale 1: every row of scale 0, split */
        if (g->features & VQ_SSIM_F_MS_SSIM)
            c->w0.split.reserve((size_t)g->h * 2 * (g->msw[1] + VQ_MS_SSIM_LPF_R));
    } catch (const std::bad_alloc &) {
        ok = false;
    }
    if (!ok) {
        vq_ssim_cpu_free(c);
        return nullptr;
    }
    return c;
}

/* the image a banded run's id names */
static Image &image_of(VqSsimCpu *c, int id)
{
    return id == VQ_SSIM_IMAGE_BOX ? c->box : c->ms[id];
}

/* the image float_ssim scores */
static int ssim_image_id(const VqSsimGeom &g)
{
    return g.scale > 1 ? VQ_SSIM_IMAGE_BOX : 0;
}

extern "C" int vq_ssim_cpu_bands(VqSsimCpu *c, int workers)
{
    if (workers < 1)
        return -1;
    const VqSsimGeom &g = c->g;
    bool ok = true;
    try {
        c->bw.resize((size_t)workers);
        for (int k = 0; k < workers; k++) {
            ok = ok && work_alloc(c->bw[k], c->max_w, g.scale);
            c->bw_free.push_back(k);
        }
    } catch (const std::bad_alloc &) {
        return -1;
    }
    const bool ms = g.features & VQ_SSIM_F_MS_SSIM;
    for (int id = 0; id < VQ_SSIM_IMAGES && ok; id++) {
        const bool used = id == VQ_SSIM_IMAGE_BOX ? (g.features & VQ_SSIM_F_SSIM) && g.scale > 1
                                                  : (ms || (id == 0 && g.scale == 1));
        if (!used)
            continue;
        const Image &m = image_of(c, id);
        Terms &t = c->terms[id];
        t.w = m.w - 2 * VQ_SSIM_WIN_R;
        t.h = m.h - 2 * VQ_SSIM_WIN_R;
        const size_t n = (size_t)t.w * t.h;
        t.l = (double *)xalloc(n * sizeof(double), &ok);
        t.c = (double *)xalloc(n * sizeof(double), &ok);
        t.s = (float *)xalloc(n * sizeof(float), &ok);
    }
    return ok ? 0 : -1;
}

/* a band's buffers, for as long as the band runs */
class BandWork {
public:
    explicit BandWork(VqSsimCpu *c) : c_(c)
    {
        std::lock_guard<std::mutex> l(c_->bw_m);
        k_ = c_->bw_free.back();   /* never empty: at most one band per worker at a time */
        c_->bw_free.pop_back();
    }
    ~BandWork()
    {
        std::lock_guard<std::mutex> l(c_->bw_m);
        c_->bw_free.push_back(k_);
    }
    Work &work() { return c_->bw[k_]; }

private:
    VqSsimCpu *c_;
    int k_;
};

/* ---- decimation ---------------------------------------------------------- */

/* ext[pad + i] = row[reflect(i)] for -pad <= i < w + pad */
static void extend_row(float *ext, const float *row, int w, int pad)
{
    for (int i = -pad; i < 0; i++)
        ext[pad + i] = row[vq_ssim_reflect(i, w)];
    memcpy(ext + pad, row, (size_t)w * sizeof(float));
    for (int i = w; i < w + pad; i++)
        ext[pad + i] = row[vq_ssim_reflect(i, w)];
}

/*
 * Four lanes of vq_ssim_tap_add at once (GCC/Clang vector extensions: each
 * lane is the same IEEE float product and double sum as the scalar
 * function, so any vector width gives the scalar's bits).
 */
typedef float F4 __attribute__((vector_size(16)));
typedef double D4 __attribute__((vector_size(32)));
#pragma GCC diagnostic ignored "-Wpsabi"   /* D4 passes between inline functions only */

static inline F4 load4(const float *p)
{
    F4 v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline D4 tap_add4(D4 sum, F4 x, F4 tap)
{
    return sum + __builtin_convertvector(x * tap, D4);
}

static inline void store4(float *p, D4 a)
{
    const F4 v = __builtin_convertvector(a, F4);
    memcpy(p, &v, sizeof(v));
}

/* outputs per register block: the accumulators stay in registers */
constexpr int kBlock = 8;

/*
 * ms_ssim's 2x decimation of src (w x h) into output rows [y0, y1) of dst
 * (ow x oh), vq_ms_ssim_lpf_pixel sample by sample.  Each source row the
 * band reads is first split into its even and odd columns (with the
 * reflected margins), so that output x, tap u reads split[u & 1][x + u / 2]:
 * contiguous in x.  0, or -1 when the split rows cannot be allocated.
 */
static int ms_decimate(Work &wk, const float *src, int w, int h, float *dst, int ow, int oh, int y0,
                       int y1)
{
    const int R = VQ_MS_SSIM_LPF_R, n = ow + R, L = VQ_MS_SSIM_LPF;
    (void)oh;
    if (y0 >= y1)
        return 0;
    int lo = h, hi = -1;   /* the source rows the band reads */
    for (int y = y0; y < y1; y++)
        for (int v = 0; v < L; v++) {
            const int r = vq_ssim_reflect(2 * y + v - R, h);
            lo = r < lo ? r : lo;
            hi = r > hi ? r : hi;
        }
    try {
        if (wk.split.size() < (size_t)(hi - lo + 1) * 2 * n)
            wk.split.resize((size_t)(hi - lo + 1) * 2 * n);
    } catch (const std::bad_alloc &) {
        return -1;
    }
    float *split = wk.split.data();   /* rows lo..hi of [even n | odd n] */
    for (int y = lo; y <= hi; y++) {
        extend_row(wk.ext, src + (ptrdiff_t)y * w, w, R);
        float *e = split + (ptrdiff_t)(y - lo) * 2 * n, *o = e + n;
        for (int j = 0; j < n; j++) {
            e[j] = wk.ext[2 * j];
            o[j] = 2 * j + 1 < w + 2 * R ? wk.ext[2 * j + 1] : 0.0f;   /* never read */
        }
    }
    float tap[VQ_MS_SSIM_LPF][VQ_MS_SSIM_LPF];
    for (int v = 0; v < L; v++)
        for (int u = 0; u < L; u++)
            tap[v][u] = vq_ms_ssim_lpf_tap(v, u);
    for (int y = y0; y < y1; y++) {
        const float *in[VQ_MS_SSIM_LPF][VQ_MS_SSIM_LPF];
        for (int v = 0; v < L; v++) {
            const float *e = split + (ptrdiff_t)(vq_ssim_reflect(2 * y + v - R, h) - lo) * 2 * n;
            for (int u = 0; u < L; u++)
                in[v][u] = ((u & 1) ? e + n : e) + u / 2;
        }
        float *out = dst + (ptrdiff_t)y * ow;
        int x = 0;
        for (; x + kBlock <= ow; x += kBlock) {
            D4 a[kBlock / 4] = {};
            for (int v = 0; v < L; v++)
                for (int u = 0; u < L; u++) {
                    const F4 t = { tap[v][u], tap[v][u], tap[v][u], tap[v][u] };
                    for (int j = 0; j < kBlock / 4; j++)
                        a[j] = tap_add4(a[j], load4(in[v][u] + x + 4 * j), t);
                }
            for (int j = 0; j < kBlock / 4; j++)
                store4(out + x + 4 * j, a[j]);
        }
        for (; x < ow; x++)
            out[x] = vq_ms_ssim_lpf_pixel(src, w, h, x, y);
    }
    return 0;
}

/* float_ssim's box decimation by f, output rows [y0, y1), vq_ssim_box_pixel
 * sample by sample */
static void box_decimate(Work &wk, const float *src, int w, int h, int f, float *dst, int ow, int y0,
                         int y1)
{
    const float k = 1.0f / (float)(f * f);
    const int lo = -(f / 2), hi = f / 2 - ((f & 1) ? 0 : 1);
    const int pad = f;
    double *acc = wk.acc;
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < ow; x++)
            acc[x] = 0.0;
        for (int v = lo; v <= hi; v++) {
            extend_row(wk.ext, src + (ptrdiff_t)vq_ssim_reflect(y * f + v, h) * w, w, pad);
            for (int u = lo; u <= hi; u++) {
                const float *in = wk.ext + pad + u;
                for (int x = 0; x < ow; x++)
                    acc[x] = vq_ssim_tap_add(acc[x], in[x * f], k);
            }
        }
        float *out = dst + (ptrdiff_t)y * ow;
        for (int x = 0; x < ow; x++)
            out[x] = (float)acc[x];
    }
}

/* ---- the SSIM of one image pair ------------------------------------------ */

/* n outputs of the Gaussian pass whose tap k reads row[k][x] */
static void gauss_pass(const float *const row[VQ_SSIM_WIN], float *out, int n)
{
    float tap[VQ_SSIM_WIN];
    for (int k = 0; k < VQ_SSIM_WIN; k++)
        tap[k] = vq_ssim_gauss_tap(k);
    int x = 0;
    for (; x + kBlock <= n; x += kBlock) {
        D4 a[kBlock / 4] = {};
        for (int k = 0; k < VQ_SSIM_WIN; k++) {
            const F4 t = { tap[k], tap[k], tap[k], tap[k] };
            for (int j = 0; j < kBlock / 4; j++)
                a[j] = tap_add4(a[j], load4(row[k] + x + 4 * j), t);
        }
        for (int j = 0; j < kBlock / 4; j++)
            store4(out + x + 4 * j, a[j]);
    }
    for (; x < n; x++) {
        double a = 0.0;
        for (int k = 0; k < VQ_SSIM_WIN; k++)
            a = vq_ssim_tap_add(a, row[k][x], tap[k]);
        out[x] = (float)a;
    }
}

/* horizontal pass: n outputs from in[0 .. n + 9] */
static void gauss_row(const float *in, float *out, int n)
{
    const float *row[VQ_SSIM_WIN];
    for (int k = 0; k < VQ_SSIM_WIN; k++)
        row[k] = in + k;
    gauss_pass(row, out, n);
}

/* the five horizontal-pass rows of source row y of ref/cmp into ring slot y % 11 */
static void horizontal_rows(Work &wk, const float *ref, const float *cmp, int w, int y)
{
    const int dw = w - 2 * VQ_SSIM_WIN_R;
    const float *r = ref + (ptrdiff_t)y * w, *d = cmp + (ptrdiff_t)y * w;
    for (int x = 0; x < w; x++) {
        wk.prod[0][x] = r[x] * r[x];
        wk.prod[1][x] = d[x] * d[x];
        wk.prod[2][x] = r[x] * d[x];
    }
    const ptrdiff_t slot = (ptrdiff_t)(y % VQ_SSIM_WIN) * dw;
    gauss_row(r, wk.ring[P_REF] + slot, dw);
    gauss_row(d, wk.ring[P_CMP] + slot, dw);
    gauss_row(wk.prod[0], wk.ring[P_RR] + slot, dw);
    gauss_row(wk.prod[1], wk.ring[P_CC] + slot, dw);
    gauss_row(wk.prod[2], wk.ring[P_RC] + slot, dw);
}

/* output row oy's terms into wk.terms, from the ring's source rows oy .. oy + 10 */
static void vertical_terms(Work &wk, int w, int oy)
{
    const int dw = w - 2 * VQ_SSIM_WIN_R;
    for (int p = 0; p < NPLANES; p++) {
        const float *row[VQ_SSIM_WIN];
        for (int k = 0; k < VQ_SSIM_WIN; k++)
            row[k] = wk.ring[p] + (ptrdiff_t)((oy + k) % VQ_SSIM_WIN) * dw;
        gauss_pass(row, wk.mom[p], dw);
    }
    VqSsimTerms *t = wk.terms;
    for (int x = 0; x < dw; x++)
        t[x] = vq_ssim_terms(wk.mom[P_REF][x], wk.mom[P_CMP][x], wk.mom[P_RR][x], wk.mom[P_CC][x],
                             wk.mom[P_RC][x]);
}

/*
 * _iqa_ssim's default path on ref/cmp (w x h): sums[0..3] = the sums of
 * l*c*s, l, c, s over the (w - 10) x (h - 10) outputs, each added in raster
 * order into one double from 0.0.
 */
static void ssim_image(Work &wk, const float *ref, const float *cmp, int w, int h, double sums[4])
{
    const int W = VQ_SSIM_WIN;
    const int dw = w - 2 * VQ_SSIM_WIN_R;
    double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;

    for (int y = 0; y < h; y++) {
        horizontal_rows(wk, ref, cmp, w, y);
        if (y < W - 1)
            continue;
        vertical_terms(wk, w, y - (W - 1));
        const VqSsimTerms *t = wk.terms;
        for (int x = 0; x < dw; x++) {
            ssim_sum += t[x].ssim;
            l_sum += t[x].l;
            c_sum += t[x].c;
            s_sum += t[x].s;
        }
    }
    sums[0] = ssim_sum;
    sums[1] = l_sum;
    sums[2] = c_sum;
    sums[3] = s_sum;
}

static void store(int64_t *words, int k, double v)
{
    memcpy(&words[k], &v, sizeof(v));
}

static void float_rows(VqSsimCpu *c, VqPlaneView ref, VqPlaneView dis, int y0, int y1);

extern "C" int vq_ssim_cpu_run(VqSsimCpu *c, VqPlaneView ref, VqPlaneView dis, int64_t *words)
{
    const VqSsimGeom &g = c->g;
    if (ref.w != g.w || ref.h != g.h || dis.w != g.w || dis.h != g.h)
        return -1;
    float_rows(c, ref, dis, 0, g.h);
    Work &wk = c->w0;
    Image &m0 = c->ms[0];
    double sums[4];
    if (g.features & VQ_SSIM_F_SSIM) {
        const Image *im = &m0;
        if (g.scale > 1) {
            box_decimate(wk, m0.ref, g.w, g.h, g.scale, c->box.ref, g.sw, 0, g.sh);
            box_decimate(wk, m0.cmp, g.w, g.h, g.scale, c->box.cmp, g.sw, 0, g.sh);
            im = &c->box;
        }
        ssim_image(wk, im->ref, im->cmp, im->w, im->h, sums);
        for (int k = 0; k < 4; k++)
            store(words, VQ_SSIM_SUM_SSIM + k, sums[k]);
    }
    if (g.features & VQ_SSIM_F_MS_SSIM) {
        for (int i = 0; i < VQ_MS_SSIM_SCALES; i++) {
            Image &m = c->ms[i];
            if (i) {
                const Image &p = c->ms[i - 1];
                if (ms_decimate(wk, p.ref, p.w, p.h, m.ref, m.w, m.h, 0, m.h) < 0 ||
                    ms_decimate(wk, p.cmp, p.w, p.h, m.cmp, m.w, m.h, 0, m.h) < 0)
                    return -1;
            }
            ssim_image(wk, m.ref, m.cmp, m.w, m.h, sums);
            for (int k = 0; k < 3; k++)
                store(words, VQ_MS_SSIM_SUM0 + 3 * i + k, sums[1 + k]);
        }
    }
    return 0;
}

/* ---- banded runs ----------------------------------------------------------- */

static void float_rows(VqSsimCpu *c, VqPlaneView ref, VqPlaneView dis, int y0, int y1)
{
    const VqSsimGeom &g = c->g;
    const float scale = vq_ssim_sample_scale(g.bpc);
    Image &m0 = c->ms[0];
    for (int i = y0; i < y1; i++)
        for (int j = 0; j < g.w; j++) {
            m0.ref[(ptrdiff_t)i * g.w + j] = vq_ssim_sample(ref, i, j, scale);
            m0.cmp[(ptrdiff_t)i * g.w + j] = vq_ssim_sample(dis, i, j, scale);
        }
}

static int decimate_rows(VqSsimCpu *c, int id, int y0, int y1)
{
    const VqSsimGeom &g = c->g;
    BandWork bw(c);
    Work &wk = bw.work();
    if (id == VQ_SSIM_IMAGE_BOX) {
        const Image &m0 = c->ms[0];
        box_decimate(wk, m0.ref, g.w, g.h, g.scale, c->box.ref, g.sw, y0, y1);
        box_decimate(wk, m0.cmp, g.w, g.h, g.scale, c->box.cmp, g.sw, y0, y1);
        return 0;
    }
    const Image &p = c->ms[id - 1];
    Image &m = c->ms[id];
    if (ms_decimate(wk, p.ref, p.w, p.h, m.ref, m.w, m.h, y0, y1) < 0 ||
        ms_decimate(wk, p.cmp, p.w, p.h, m.cmp, m.w, m.h, y0, y1) < 0)
        return -1;
    return 0;
}

static int terms_rows(VqSsimCpu *c, int id, int y0, int y1)
{
    const Image &m = image_of(c, id);
    const Terms &t = c->terms[id];
    if (!t.l)
        return -1;
    BandWork bw(c);
    Work &wk = bw.work();
    const int W = VQ_SSIM_WIN;
    for (int y = y0; y < y1 + W - 1; y++) {   /* output row oy reads rows oy .. oy + 10 */
        horizontal_rows(wk, m.ref, m.cmp, m.w, y);
        if (y < y0 + W - 1)
            continue;
        const int oy = y - (W - 1);
        vertical_terms(wk, m.w, oy);
        const size_t at = (size_t)oy * t.w;
        for (int x = 0; x < t.w; x++) {
            t.l[at + x] = wk.terms[x].l;
            t.c[at + x] = wk.terms[x].c;
            t.s[at + x] = (float)wk.terms[x].s;   /* a float value: exact */
        }
    }
    return 0;
}

static int image_sums(VqSsimCpu *c, int id, int64_t *words)
{
    const VqSsimGeom &g = c->g;
    const Terms &t = c->terms[id];
    if (!t.l)
        return -1;
    const size_t n = (size_t)t.w * t.h;
    const bool ssim = (g.features & VQ_SSIM_F_SSIM) && ssim_image_id(g) == id;
    const bool ms = (g.features & VQ_SSIM_F_MS_SSIM) && id != VQ_SSIM_IMAGE_BOX;
    double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;
    if (ssim) {
        for (size_t i = 0; i < n; i++) {
            const double s = t.s[i];
            ssim_sum += t.l[i] * t.c[i] * s;   /* vq_ssim_terms' l * c * s */
            l_sum += t.l[i];
            c_sum += t.c[i];
            s_sum += s;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            l_sum += t.l[i];
            c_sum += t.c[i];
            s_sum += (double)t.s[i];
        }
    }
    const double sums[4] = { ssim_sum, l_sum, c_sum, s_sum };
    if (ssim)
        for (int k = 0; k < 4; k++)
            store(words, VQ_SSIM_SUM_SSIM + k, sums[k]);
    if (ms)
        for (int k = 0; k < 3; k++)
            store(words, VQ_MS_SSIM_SUM0 + 3 * id + k, sums[1 + k]);
    return 0;
}

extern "C" int vq_ssim_cpu_stages(const VqSsimGeom *g, VqSsimStage st[VQ_SSIM_MAX_STAGES])
{
    int n = 0;
    /* image id decimated in step dec_step (none at 0), its terms in the
     * next, its sums in the one after (beside the next image's bands) */
    auto image = [&](int id, int dec_step, int h) {
        if (dec_step > 0)
            st[n++] = VqSsimStage{ dec_step, VQ_SSIM_OP_DEC, id, h };
        st[n++] = VqSsimStage{ dec_step + 1, VQ_SSIM_OP_TERMS, id, h - 2 * VQ_SSIM_WIN_R };
        st[n++] = VqSsimStage{ dec_step + 2, VQ_SSIM_OP_SUM, id, 0 };
    };
    const bool ms = g->features & VQ_SSIM_F_MS_SSIM, fs = g->features & VQ_SSIM_F_SSIM;
    st[n++] = VqSsimStage{ 0, VQ_SSIM_OP_FLOAT, 0, g->h };
    for (int i = 0; ms && i < VQ_MS_SSIM_SCALES; i++)
        image(i, i, g->msh[i]);
    if (fs && ssim_image_id(*g) == VQ_SSIM_IMAGE_BOX)
        image(VQ_SSIM_IMAGE_BOX, 1, g->sh);
    else if (fs && !ms)
        image(0, 0, g->h);
    return n;
}

extern "C" int vq_ssim_cpu_stage_run(VqSsimCpu *c, const VqSsimStage *st, VqPlaneView ref, VqPlaneView dis,
                                     int y0, int y1, int64_t *words)
{
    switch (st->op) {
    case VQ_SSIM_OP_FLOAT:
        float_rows(c, ref, dis, y0, y1);
        return 0;
    case VQ_SSIM_OP_DEC:
        return decimate_rows(c, st->id, y0, y1);
    case VQ_SSIM_OP_TERMS:
        return terms_rows(c, st->id, y0, y1);
    default:
        return image_sums(c, st->id, words);
    }
}

/* The module's table (kernels/module.h), float_ssim's and float_ms_ssim's
 * one row work: g->opt[0] the features (VQ_SSIM_F_*, widened where both
 * share it), g->opt[1] float_ssim's scale option (-1: float_ms_ssim alone).
 * As one task (vq_ssim_cpu_run) or, where the executor's split bands it, its
 * stages as step parts: a sum one item first in its step, terms in at most
 * one band per thread (each band holds one of the bands' buffers). */
namespace {

struct Module {
    VqSsimCpu *c = nullptr;
    VqSsimGeom g{};
    VqSsimStage st[VQ_SSIM_MAX_STAGES];
    int n_st = 0;
    std::atomic<int> failed{0};
};

int geom_of(const VqModuleGeom *g, VqSsimGeom *sg)
{
    return vq_ssim_module_geom(sg, g->w, g->h, g->bpc, g->opt);
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    Module *m = new (std::nothrow) Module;
    *scratch = m;
    if (!m || geom_of(g, &m->g) < 0 || !(m->c = vq_ssim_cpu_alloc(&m->g)))
        return -1;
    if (g->cpu_bands) {
        if (vq_ssim_cpu_bands(m->c, g->cpu_threads) < 0)
            return -1;
        m->n_st = vq_ssim_cpu_stages(&m->g, m->st);
    }
    return 0;
}

void module_free(void *scratch)
{
    Module *m = static_cast<Module *>(scratch);
    if (m && m->c)
        vq_ssim_cpu_free(m->c);
    delete m;
}

/* the stages of step s, as parts (in the stages' order) */
int stage_parts(const VqSsimStage *st, int n_st, int s, int threads, VqModulePart parts[VQ_MODULE_MAX_PARTS],
                int index[VQ_MODULE_MAX_PARTS])
{
    int n = 0;
    for (int k = 0; k < n_st && n < VQ_MODULE_MAX_PARTS; k++)
        if (st[k].step == s) {
            const bool sum = st[k].op == VQ_SSIM_OP_SUM;
            parts[n] = VqModulePart{ sum ? 1 : st[k].rows, st[k].op == VQ_SSIM_OP_TERMS ? threads : 0, sum };
            index[n++] = k;
        }
    return n;
}

int module_step_parts(const VqModuleGeom *g, int s, VqModulePart parts[VQ_MODULE_MAX_PARTS])
{
    VqSsimGeom sg;
    VqSsimStage st[VQ_SSIM_MAX_STAGES];
    int index[VQ_MODULE_MAX_PARTS];
    if (geom_of(g, &sg) < 0)
        return 0;
    return stage_parts(st, vq_ssim_cpu_stages(&sg, st), s, g->cpu_threads, parts, index);
}

int module_step_rows(const VqModuleGeom *g, int s)
{
    VqModulePart parts[VQ_MODULE_MAX_PARTS];
    int rows = 0;
    for (int q = module_step_parts(g, s, parts) - 1; q >= 0; q--)
        rows += parts[q].rows;
    return rows;
}

void module_rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                 int64_t *section, int s, int a, int b)
{
    Module *m = static_cast<Module *>(scratch);
    VqModulePart parts[VQ_MODULE_MAX_PARTS];
    int index[VQ_MODULE_MAX_PARTS];
    const int n = stage_parts(m->st, m->n_st, s, g->cpu_threads, parts, index);
    for (int q = 0, base = 0, lo, hi; q < n; base += parts[q].rows, q++) {
        if (!vq_module_part_rows(base, parts[q].rows, a, b, &lo, &hi))
            continue;
        const VqSsimStage &st = m->st[index[q]];
        const int y0 = st.op == VQ_SSIM_OP_SUM ? 0 : lo, y1 = st.op == VQ_SSIM_OP_SUM ? 0 : hi;
        if (vq_ssim_cpu_stage_run(m->c, &st, ref[0], dis[0], y0, y1, section) < 0)
            m->failed = 1;
    }
}

int module_check(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3])
{
    const VqSsimGeom &sg = static_cast<Module *>(scratch)->g;
    if (!g->cpu_bands)
        return 0;   /* vq_ssim_cpu_run checks for itself */
    return ref[0].w == sg.w && ref[0].h == sg.h && dis[0].w == sg.w && dis[0].h == sg.h ? 0 : -1;
}

int module_run(void *scratch, const VqModuleGeom *, const VqPlaneView ref[3], const VqPlaneView dis[3],
               int64_t *section)
{
    return vq_ssim_cpu_run(static_cast<Module *>(scratch)->c, ref[0], dis[0], section);
}

int module_rows_failed(void *scratch)
{
    return static_cast<Module *>(scratch)->failed.exchange(0);
}

/* single-thread nanoseconds per luma pixel, the development machine */
double module_cost(const VqModuleGeom *g)
{
    return (g->opt[0] & VQ_SSIM_F_MS_SSIM ? 37.0 : 0.0) + (g->opt[0] & VQ_SSIM_F_SSIM ? 3.0 : 0.0);
}

}  // namespace

extern "C" const VqModuleCpu vq_ssim_module_cpu = {
    module_alloc, module_free, VQ_SSIM_CPU_STEPS, module_step_rows, module_rows, 0u, module_check, module_cost,
    nullptr, nullptr, module_step_parts, module_run, module_rows_failed,
};
