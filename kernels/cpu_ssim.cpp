/*
 * cpu_ssim.cpp - the CPU executor of float_ssim / float_ms_ssim: loops
 * around kernels/ssim.h, adding each sum term by term in raster order, as
 * the reference does.
 *
 * The loops run across a row with one double accumulator per output
 * sample and the taps outermost, so that every output still adds its
 * products in the reference's order while the compiler can vectorise
 * across samples.  Borders are handled by copying each source row with
 * reflected margins first.  The Gaussian passes keep a ring of the last
 * 11 horizontal-pass rows of the five images (ref, cmp, ref^2, cmp^2,
 * ref*cmp), so the working set stays small.
 */
#include <new>
#include <stdlib.h>
#include <string.h>

#include "ssim.h"
#include "ssim_exec.h"

namespace {

enum { P_REF, P_CMP, P_RR, P_CC, P_RC, NPLANES };

struct Image {
    float *ref = nullptr, *cmp = nullptr;
    int w = 0, h = 0;
};

} // namespace

struct VqSsimCpu {
    VqSsimGeom g;
    Image ms[VQ_MS_SSIM_SCALES];   /* ms[0]: the frame as floats */
    Image box;                     /* float_ssim's decimated image (scale > 1) */
    int max_w;                     /* widest image a pass works on */
    float *ring[NPLANES];          /* VQ_SSIM_WIN rows of (max_w - 10) each */
    float *prod[3];                /* one row of ref^2, cmp^2, ref*cmp */
    float *ext;                    /* one source row with reflected margins */
    float *split;                  /* ms_decimate's source rows split by column parity */
    double *acc;                   /* per-output accumulators of one row */
    float *mom[NPLANES];           /* one row of the five filtered images */
    VqSsimTerms *terms;            /* one row of per-pixel terms */
};

static void *xalloc(size_t n, bool *ok)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        *ok = false;
    return p;
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
    for (int p = 0; p < NPLANES; p++) {
        free(c->ring[p]);
        free(c->mom[p]);
    }
    for (int p = 0; p < 3; p++)
        free(c->prod[p]);
    free(c->ext);
    free(c->split);
    free(c->acc);
    free(c->terms);
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
    const int dw = c->max_w - 2 * VQ_SSIM_WIN_R;
    const int pad = (g->scale > VQ_MS_SSIM_LPF_R ? g->scale : VQ_MS_SSIM_LPF_R) + 1;
    for (int p = 0; p < NPLANES; p++) {
        c->ring[p] = (float *)xalloc((size_t)VQ_SSIM_WIN * dw * sizeof(float), &ok);
        c->mom[p] = (float *)xalloc((size_t)dw * sizeof(float), &ok);
    }
    for (int p = 0; p < 3; p++)
        c->prod[p] = (float *)xalloc((size_t)c->max_w * sizeof(float), &ok);
    c->ext = (float *)xalloc((size_t)(c->max_w + 2 * pad) * sizeof(float), &ok);
    if (g->features & VQ_SSIM_F_MS_SSIM)   /* for scale 1: rows of scale 0, split */
        c->split = (float *)xalloc((size_t)g->h * 2 * (g->msw[1] + VQ_MS_SSIM_LPF_R) *
                                   sizeof(float), &ok);
    c->acc = (double *)xalloc((size_t)c->max_w * sizeof(double), &ok);
    c->terms = (VqSsimTerms *)xalloc((size_t)dw * sizeof(VqSsimTerms), &ok);
    if (!ok) {
        vq_ssim_cpu_free(c);
        return nullptr;
    }
    return c;
}

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
 * ms_ssim's 2x decimation of src (w x h) into dst (ow x oh),
 * vq_ms_ssim_lpf_pixel sample by sample.  Each source row is first split
 * into its even and odd columns (with the reflected margins), so that
 * output x, tap u reads split[u & 1][x + u / 2]: contiguous in x.
 */
static void ms_decimate(VqSsimCpu *c, const float *src, int w, int h, float *dst, int ow, int oh)
{
    const int R = VQ_MS_SSIM_LPF_R, n = ow + R, L = VQ_MS_SSIM_LPF;
    float *split = c->split;   /* h rows of [even n | odd n] */
    for (int y = 0; y < h; y++) {
        extend_row(c->ext, src + (ptrdiff_t)y * w, w, R);
        float *e = split + (ptrdiff_t)y * 2 * n, *o = e + n;
        for (int j = 0; j < n; j++) {
            e[j] = c->ext[2 * j];
            o[j] = 2 * j + 1 < w + 2 * R ? c->ext[2 * j + 1] : 0.0f;   /* never read */
        }
    }
    float tap[VQ_MS_SSIM_LPF][VQ_MS_SSIM_LPF];
    for (int v = 0; v < L; v++)
        for (int u = 0; u < L; u++)
            tap[v][u] = vq_ms_ssim_lpf_tap(v, u);
    for (int y = 0; y < oh; y++) {
        const float *in[VQ_MS_SSIM_LPF][VQ_MS_SSIM_LPF];
        for (int v = 0; v < L; v++) {
            const float *e = split + (ptrdiff_t)vq_ssim_reflect(2 * y + v - R, h) * 2 * n;
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
}

/* float_ssim's box decimation by f, vq_ssim_box_pixel sample by sample */
static void box_decimate(VqSsimCpu *c, const float *src, int w, int h, int f, float *dst, int ow,
                         int oh)
{
    const float k = 1.0f / (float)(f * f);
    const int lo = -(f / 2), hi = f / 2 - ((f & 1) ? 0 : 1);
    const int pad = f;
    double *acc = c->acc;
    for (int y = 0; y < oh; y++) {
        for (int x = 0; x < ow; x++)
            acc[x] = 0.0;
        for (int v = lo; v <= hi; v++) {
            extend_row(c->ext, src + (ptrdiff_t)vq_ssim_reflect(y * f + v, h) * w, w, pad);
            for (int u = lo; u <= hi; u++) {
                const float *in = c->ext + pad + u;
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

/*
 * _iqa_ssim's default path on ref/cmp (w x h): sums[0..3] = the sums of
 * l*c*s, l, c, s over the (w - 10) x (h - 10) outputs, each added in raster
 * order into one double from 0.0.
 */
static void ssim_image(VqSsimCpu *c, const float *ref, const float *cmp, int w, int h,
                       double sums[4])
{
    const int W = VQ_SSIM_WIN;
    const int dw = w - 2 * VQ_SSIM_WIN_R, dh = h - 2 * VQ_SSIM_WIN_R;
    double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;

    for (int y = 0; y < h; y++) {
        /* horizontal pass of source row y into ring slot y % 11 */
        const float *r = ref + (ptrdiff_t)y * w, *d = cmp + (ptrdiff_t)y * w;
        for (int x = 0; x < w; x++) {
            c->prod[0][x] = r[x] * r[x];
            c->prod[1][x] = d[x] * d[x];
            c->prod[2][x] = r[x] * d[x];
        }
        const ptrdiff_t slot = (ptrdiff_t)(y % W) * dw;
        gauss_row(r, c->ring[P_REF] + slot, dw);
        gauss_row(d, c->ring[P_CMP] + slot, dw);
        gauss_row(c->prod[0], c->ring[P_RR] + slot, dw);
        gauss_row(c->prod[1], c->ring[P_CC] + slot, dw);
        gauss_row(c->prod[2], c->ring[P_RC] + slot, dw);
        if (y < W - 1)
            continue;

        /* vertical pass: output row oy from source rows oy .. oy + 10 */
        const int oy = y - (W - 1);
        for (int p = 0; p < NPLANES; p++) {
            const float *row[VQ_SSIM_WIN];
            for (int k = 0; k < W; k++)
                row[k] = c->ring[p] + (ptrdiff_t)((oy + k) % W) * dw;
            gauss_pass(row, c->mom[p], dw);
        }
        VqSsimTerms *t = c->terms;
        for (int x = 0; x < dw; x++)
            t[x] = vq_ssim_terms(c->mom[P_REF][x], c->mom[P_CMP][x], c->mom[P_RR][x],
                                 c->mom[P_CC][x], c->mom[P_RC][x]);
        for (int x = 0; x < dw; x++) {
            ssim_sum += t[x].ssim;
            l_sum += t[x].l;
            c_sum += t[x].c;
            s_sum += t[x].s;
        }
    }
    (void)dh;
    sums[0] = ssim_sum;
    sums[1] = l_sum;
    sums[2] = c_sum;
    sums[3] = s_sum;
}

static void store(int64_t *words, int k, double v)
{
    memcpy(&words[k], &v, sizeof(v));
}

extern "C" int vq_ssim_cpu_run(VqSsimCpu *c, VqPlaneView ref, VqPlaneView dis, int64_t *words)
{
    const VqSsimGeom &g = c->g;
    if (ref.w != g.w || ref.h != g.h || dis.w != g.w || dis.h != g.h)
        return -1;
    const float scale = vq_ssim_sample_scale(g.bpc);
    Image &m0 = c->ms[0];
    for (int i = 0; i < g.h; i++)
        for (int j = 0; j < g.w; j++) {
            m0.ref[(ptrdiff_t)i * g.w + j] = vq_ssim_sample(ref, i, j, scale);
            m0.cmp[(ptrdiff_t)i * g.w + j] = vq_ssim_sample(dis, i, j, scale);
        }

    double sums[4];
    if (g.features & VQ_SSIM_F_SSIM) {
        const Image *im = &m0;
        if (g.scale > 1) {
            box_decimate(c, m0.ref, g.w, g.h, g.scale, c->box.ref, g.sw, g.sh);
            box_decimate(c, m0.cmp, g.w, g.h, g.scale, c->box.cmp, g.sw, g.sh);
            im = &c->box;
        }
        ssim_image(c, im->ref, im->cmp, im->w, im->h, sums);
        for (int k = 0; k < 4; k++)
            store(words, VQ_SSIM_SUM_SSIM + k, sums[k]);
    }
    if (g.features & VQ_SSIM_F_MS_SSIM) {
        for (int i = 0; i < VQ_MS_SSIM_SCALES; i++) {
            Image &m = c->ms[i];
            if (i) {
                const Image &p = c->ms[i - 1];
                ms_decimate(c, p.ref, p.w, p.h, m.ref, m.w, m.h);
                ms_decimate(c, p.cmp, p.w, p.h, m.cmp, m.w, m.h);
            }
            ssim_image(c, m.ref, m.cmp, m.w, m.h, sums);
            for (int k = 0; k < 3; k++)
                store(words, VQ_MS_SSIM_SUM0 + 3 * i + k, sums[1 + k]);
        }
    }
    return 0;
}
