/*
 * cpu_adm.cpp - the CPU executor of integer ADM: plain loops around the
 * per-sample functions of adm.h, same stages and buffers as the CUDA one.
 */
#include <stdlib.h>
#include <string.h>

#include "adm.h"
#include "adm_exec.h"
#include "module.h"
#include "simd/cpu_simd.h"

#include <vector>
#include "cpu_bands.h"

struct VqAdmCpu {
    int w, h;
    size_t plane_size;
    int32_t *plane[VQ_ADM_PLANE_COUNT];
};

VqAdmCpu *vq_adm_cpu_alloc(int w, int h)
{
    VqAdmCpu *c;
    int k;
    if (w < 1 || h < 1)
        return NULL;
    c = (VqAdmCpu *)calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->w = w;
    c->h = h;
    c->plane_size = (size_t)((w + 1) / 2) * (size_t)((h + 1) / 2);
    for (k = 0; k < VQ_ADM_PLANE_COUNT; k++) {
        c->plane[k] = (int32_t *)malloc(c->plane_size * sizeof(int32_t));
        if (!c->plane[k]) {
            vq_adm_cpu_free(c);
            return NULL;
        }
    }
    return c;
}

void vq_adm_cpu_free(VqAdmCpu *c)
{
    int k;
    if (!c)
        return;
    for (k = 0; k < VQ_ADM_PLANE_COUNT; k++)
        free(c->plane[k]);
    free(c);
}

/* the plain DWT of one band row (the SIMD twins' reference) */
extern "C" void vq_adm_dwt0_row_plain(VqPlaneView src, int bpc, int i, int band_w, int32_t *a, int32_t *h,
                                      int32_t *v, int32_t *d, int32_t *scratch)
{
    (void)scratch;
    for (int j = 0; j < band_w; j++) {
        const VqAdmDwtOut o = vq_adm_dwt0_sample(src, bpc, i, j);
        a[j] = o.a;
        h[j] = o.h;
        v[j] = o.v;
        d[j] = o.d;
    }
}

extern "C" void vq_adm_dwt_s123_row_plain(const int32_t *src, ptrdiff_t stride, int in_w, int in_h, int scale,
                                          int i, int band_w, int32_t *a, int32_t *h, int32_t *v, int32_t *d,
                                          int32_t *scratch)
{
    (void)scratch;
    for (int j = 0; j < band_w; j++) {
        const VqAdmDwtOut o = vq_adm_dwt_s123_sample(src, stride, in_w, in_h, scale, i, j);
        a[j] = o.a;
        h[j] = o.h;
        v[j] = o.v;
        d[j] = o.d;
    }
}

/* DWT of ref and dis, then decouple + CSF on the decouple rect */
extern "C" void vq_adm_cpu_dwt_rows(VqAdmCpu *c, VqPlaneView ref, VqPlaneView dis,
                                    const VqAdmParams *p, int scale, int row_begin, int row_end)
{
    const VqAdmScaleParams *sp = &p->s[scale];
    const ptrdiff_t stride = sp->w, in_stride = scale ? p->s[scale - 1].w : 0;
    const int cur = scale & 1, prev = cur ^ 1;
    const int bw = sp->w;
    int32_t *const *pl = c->plane;
    const VqCpuSimd *kern = vq_cpu_simd();
    /* the distorted H, V, D of one row, and the DWT's scratch */
    thread_local std::vector<int32_t> buf;
    const size_t need = 3 * (size_t)bw + 4 * ((size_t)c->w + 8);
    if (buf.size() < need)
        buf.resize(need);
    int32_t *dh = buf.data(), *dv = dh + bw, *dd = dv + bw, *scratch = dd + bw;

    for (int i = row_begin; i < row_end; i++) {
        const ptrdiff_t o0 = (ptrdiff_t)i * stride;
        int32_t *ra = pl[VQ_ADM_PLANE_A_REF0 + cur] + o0, *da = pl[VQ_ADM_PLANE_A_DIS0 + cur] + o0;
        int32_t *rh = pl[VQ_ADM_PLANE_REF_H] + o0, *rv = pl[VQ_ADM_PLANE_REF_V] + o0;
        int32_t *rd = pl[VQ_ADM_PLANE_REF_D] + o0;
        if (scale == 0) {
            kern->adm_dwt0_row(ref, p->bpc, i, bw, ra, rh, rv, rd, scratch);
            kern->adm_dwt0_row(dis, p->bpc, i, bw, da, dh, dv, dd, scratch);
        } else {
            kern->adm_dwt_s123_row(pl[VQ_ADM_PLANE_A_REF0 + prev], in_stride, sp->in_w, sp->in_h, scale,
                                   i, bw, ra, rh, rv, rd, scratch);
            kern->adm_dwt_s123_row(pl[VQ_ADM_PLANE_A_DIS0 + prev], in_stride, sp->in_w, sp->in_h, scale,
                                   i, bw, da, dh, dv, dd, scratch);
        }
        if (i < sp->dec.top || i >= sp->dec.bottom)
            continue;
        const int32_t *rb[4] = { ra, rh, rv, rd }, *db[4] = { da, dh, dv, dd };
        int32_t *out[VQ_ADM_IN_NPLANES];
        for (int k = 0; k < VQ_ADM_IN_NPLANES; k++)
            out[k] = pl[VQ_ADM_PLANE_IN0 + k] + o0;
        kern->adm_decouple_row(rb, db, sp->dec.left, sp->dec.right, p, scale, out);
    }
}

/* the plain decouple + CSF of columns [j0, j1) of one band row */
extern "C" void vq_adm_decouple_row_plain(const int32_t *const *ref, const int32_t *const *dis, int j0, int j1,
                                          const VqAdmParams *p, int scale, int32_t *const *out)
{
    for (int j = j0; j < j1; j++) {
        const VqAdmDwtOut r = { ref[0][j], ref[1][j], ref[2][j], ref[3][j] };
        const VqAdmDwtOut d = { dis[0][j], dis[1][j], dis[2][j], dis[3][j] };
        const VqAdmCmIn in = vq_adm_pixel_cm_in(r, d, p, scale);
        for (int k = 0; k < 3; k++) {
            out[VQ_ADM_IN_XR0 + k][j] = in.x_r[k];
            out[VQ_ADM_IN_XA0 + k][j] = in.x_a[k];
        }
        out[VQ_ADM_IN_FA][j] = in.f_a;
        out[VQ_ADM_IN_CA][j] = in.c_a;
        out[VQ_ADM_IN_FR][j] = in.f_r;
        out[VQ_ADM_IN_CR][j] = in.c_r;
    }
}

/* per band row: den, CM and AIM sums over the CM rect (0 outside it) */
/* the plain sums of one CM row i (the SIMD twins' reference) */
extern "C" void vq_adm_sums_row_plain(const int32_t *const *in, const int32_t *ref_h, const int32_t *ref_v,
                                      const int32_t *ref_d, ptrdiff_t stride, const VqAdmParams *p, int scale,
                                      int i, uint64_t *sum)
{
    const VqAdmScaleParams *sp = &p->s[scale];
    for (int k = 0; k < VQ_ADM_NSUMS; k++)
        sum[k] = 0;
    for (int j = sp->cm.left; j < sp->cm.right; j++) {
        uint64_t t[VQ_ADM_NSUMS];
        vq_adm_pixel_terms(in, ref_h, ref_v, ref_d, stride, p, scale, i, j, t);
        for (int k = 0; k < VQ_ADM_NSUMS; k++)
            sum[k] += t[k];
    }
}

extern "C" void vq_adm_cpu_sums_rows(VqAdmCpu *c, const VqAdmParams *p, const VqRowLayout *l,
                                     int scale, int64_t *rows, int row_begin, int row_end)
{
    const VqAdmScaleParams *sp = &p->s[scale];
    const ptrdiff_t stride = sp->w;
    const int32_t *in[VQ_ADM_IN_NPLANES];
    const VqCpuSimd *kern = vq_cpu_simd();

    for (int k = 0; k < VQ_ADM_IN_NPLANES; k++)
        in[k] = c->plane[VQ_ADM_PLANE_IN0 + k];
    for (int i = row_begin; i < row_end; i++) {
        uint64_t sum[VQ_ADM_NSUMS] = { 0 };
        int64_t *out = rows + l->adm_off[scale] + (size_t)i * VQ_ADM_NSUMS;
        if (i >= sp->cm.top && i < sp->cm.bottom)
            kern->adm_sums_row(in, c->plane[VQ_ADM_PLANE_REF_H], c->plane[VQ_ADM_PLANE_REF_V],
                               c->plane[VQ_ADM_PLANE_REF_D], stride, p, scale, i, sum);
        for (int k = 0; k < VQ_ADM_NSUMS; k++)
            out[k] = (int64_t)sum[k];
    }
}

extern "C" int vq_adm_cpu_check(const VqAdmCpu *c, VqPlaneView ref, VqPlaneView dis, int bpc,
                                const VqAdmParams *p, const VqRowLayout *l)
{
    int scale;
    if (!c || !p || !l || c->w != p->w || c->h != p->h || bpc != p->bpc ||
        ref.w != p->w || ref.h != p->h || dis.w != p->w || dis.h != p->h ||
        l->w != p->w || l->h != p->h)
        return -1;
    for (scale = 0; scale < VQ_ADM_SCALES; scale++)
        if (l->adm_w[scale] != p->s[scale].w || l->adm_h[scale] != p->s[scale].h)
            return -1;
    return 0;
}

int vq_adm_cpu_run(VqAdmCpu *c, VqPlaneView ref, VqPlaneView dis, int bpc,
                   const VqAdmParams *p, const VqRowLayout *l, int64_t *rows)
{
    int scale;
    if (!rows || vq_adm_cpu_check(c, ref, dis, bpc, p, l) < 0)
        return -1;
    for (scale = 0; scale < VQ_ADM_SCALES; scale++) {
        vq_adm_cpu_dwt_rows(c, ref, dis, p, scale, 0, p->s[scale].h);
        vq_adm_cpu_sums_rows(c, p, l, scale, rows, 0, p->s[scale].h);
    }
    return 0;
}

/* ---- the module's CPU table (hostmath/adm/: g.host is a VqAdmGeom) ----
 * Steps 2s and 2s + 1 (s = 0..3): scale s's DWT and decouple rows, then its
 * sums (cpu_bands.h's order). */
namespace {

const VqAdmGeom &geom(const VqModuleGeom *g)
{
    return *static_cast<const VqAdmGeom *>(g->host);
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    VqAdmCpu *c = vq_adm_cpu_alloc(g->w, g->h);
    *scratch = c;
    return c ? 0 : -1;
}

void module_free(void *scratch)
{
    vq_adm_cpu_free(static_cast<VqAdmCpu *>(scratch));
}

int module_step_rows(const VqModuleGeom *g, int step)
{
    return geom(g).p.s[step / 2].h;
}

void module_rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                 int64_t *section, int step, int row_begin, int row_end)
{
    VqAdmCpu *c = static_cast<VqAdmCpu *>(scratch);
    const VqAdmGeom &ag = geom(g);
    if (step & 1)
        vq_adm_cpu_sums_rows(c, &ag.p, &ag.l, step / 2, section, row_begin, row_end);
    else
        vq_adm_cpu_dwt_rows(c, ref[0], dis[0], &ag.p, step / 2, row_begin, row_end);
}

/* the pictures against the instance's parameters and layout */
int module_check(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3])
{
    const VqAdmGeom &ag = geom(g);
    return vq_adm_cpu_check(static_cast<const VqAdmCpu *>(scratch), ref[0], dis[0], g->bpc, &ag.p, &ag.l);
}

/* the executor's hint (vif 9, motion 0.5) */
double module_cost(const VqModuleGeom *)
{
    return 3.0;
}

}  // namespace

extern "C" const VqModuleCpu vq_adm_module_cpu = {
    module_alloc, module_free, 2 * VQ_ADM_SCALES, module_step_rows, module_rows, 0u, module_check, module_cost,
    nullptr,      nullptr,     nullptr,           nullptr,          nullptr,
};
