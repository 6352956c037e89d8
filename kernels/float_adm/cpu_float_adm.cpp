/*
 * cpu_float_adm.cpp - the CPU executor of float ADM: plain loops around the
 * functions of float_adm.h, in the reference's order (one row's sums on
 * one thread, left to right).  adm_p_norm other than 3 takes glibc's powf
 * per pixel here, as the reference does (the CUDA executor refuses it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <new>
#include <vector>

#include "float_adm_exec.h"
#include "module.h"

struct VqFadmCpu {
    int w[VQ_ADM_SCALES], h[VQ_ADM_SCALES];
    std::vector<float> plane[VQ_ADM_SCALES][VQ_FADM_NPLANES];
    VqFadmImages images[VQ_ADM_SCALES];
    float *at(int s, int k, int i) { return plane[s][k].data() + (size_t)i * w[s]; }
};

extern "C" VqFadmCpu *vq_fadm_cpu_alloc(const VqFadmParams *p)
{
    VqFadmCpu *c = new (std::nothrow) VqFadmCpu;
    if (!c)
        return nullptr;
    try {
        for (int s = 0; s < VQ_ADM_SCALES; s++) {
            c->w[s] = p->s[s].w;
            c->h[s] = p->s[s].h;
            for (int k = 0; k < VQ_FADM_NPLANES; k++) {
                c->plane[s][k].assign((size_t)c->w[s] * c->h[s], 0.0f);
                c->images[s].plane[k] = c->plane[s][k].data();
            }
            c->images[s].stride = c->w[s];
        }
    } catch (const std::bad_alloc &) {
        delete c;
        return nullptr;
    }
    return c;
}

extern "C" void vq_fadm_cpu_free(VqFadmCpu *c)
{
    delete c;
}

extern "C" int vq_fadm_cpu_check(const VqFadmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p)
{
    if (!c || ref.w != p->w || ref.h != p->h || dis.w != p->w || dis.h != p->h)
        return -1;
    for (int s = 0; s < VQ_ADM_SCALES; s++)
        if (c->w[s] != p->s[s].w || c->h[s] != p->s[s].h)
            return -1;
    return 0;
}

namespace {

/* one band row of both DWTs; the vertical pass over the input row's
 * columns first (as adm_dwt2_s), then the horizontal pass */
template <typename Src>
void dwt_row(const Src &src, int in_w, int in_h, int i, int bw, float *a, float *h, float *v, float *d,
             std::vector<float> &lo, std::vector<float> &hi)
{
    const int y0 = vq_fadm_tap(0, i, in_h), y1 = vq_fadm_tap(1, i, in_h), y2 = vq_fadm_tap(2, i, in_h),
              y3 = vq_fadm_tap(3, i, in_h);
    for (int j = 0; j < in_w; j++)
        vq_fadm_vert(src(y0, j), src(y1, j), src(y2, j), src(y3, j), &lo[(size_t)j], &hi[(size_t)j]);
    for (int j = 0; j < bw; j++) {
        const int x0 = vq_fadm_tap(0, j, in_w), x1 = vq_fadm_tap(1, j, in_w), x2 = vq_fadm_tap(2, j, in_w),
                  x3 = vq_fadm_tap(3, j, in_w);
        const float l4[4] = { lo[(size_t)x0], lo[(size_t)x1], lo[(size_t)x2], lo[(size_t)x3] };
        const float h4[4] = { hi[(size_t)x0], hi[(size_t)x1], hi[(size_t)x2], hi[(size_t)x3] };
        float o[4];
        vq_fadm_dwt_out(l4, h4, o);
        a[j] = o[0];
        h[j] = o[1];
        v[j] = o[2];
        d[j] = o[3];
    }
}

/* |x|^p: a cube, or glibc's powf(x, (float)p) */
inline float power(const VqFadmParams *p, float x)
{
    return p->p3 ? vq_fadm_cube(x) : powf(x, p->p_normf);
}

}  // namespace

extern "C" void vq_fadm_cpu_dwt_rows(VqFadmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p,
                                     int s, int r0, int r1)
{
    const VqFadmScale &sc = p->s[s];
    std::vector<float> lo((size_t)sc.in_w), hi((size_t)sc.in_w);
    for (int i = r0; i < r1; i++) {
        for (int side = 0; side < 2; side++) {
            const int b = side ? VQ_FADM_DA : VQ_FADM_RA;
            float *a = c->at(s, b, i), *h = c->at(s, b + 1, i), *v = c->at(s, b + 2, i),
                  *d = c->at(s, b + 3, i);
            if (s == 0) {
                const VqPlaneView pic = side ? dis : ref;
                const int bpc = p->bpc;
                dwt_row([&](int y, int x) { return vq_fadm_sample0(pic, bpc, y, x); }, sc.in_w, sc.in_h, i,
                        sc.w, a, h, v, d, lo, hi);
            } else {
                const float *src = c->plane[s - 1][b].data();
                const int sw = c->w[s - 1];
                dwt_row([&](int y, int x) { return src[(size_t)y * sw + x]; }, sc.in_w, sc.in_h, i, sc.w, a, h,
                        v, d, lo, hi);
            }
        }
    }
}

extern "C" void vq_fadm_cpu_dec_rows(VqFadmCpu *c, const VqFadmParams *p, const VqRcpTable *t, int s, int r0,
                                     int r1)
{
    const VqFadmScale &sc = p->s[s];
    if (sc.dwt_only)
        return;
    const int i0 = r0 > sc.dec.top ? r0 : sc.dec.top, i1 = r1 < sc.dec.bottom ? r1 : sc.dec.bottom;
    for (int i = i0; i < i1; i++)
        for (int j = sc.dec.left; j < sc.dec.right; j++)
            vq_fadm_dec_pixel(t, &c->images[s], &sc, p->egl, p->cos_1deg_sq, i, j);
}

extern "C" void vq_fadm_cpu_sum_rows(VqFadmCpu *c, const VqFadmParams *p, int s, int64_t *rows, size_t off,
                                     int r0, int r1)
{
    const VqFadmScale &sc = p->s[s];
    const int bw = sc.w, bh = sc.h;
    for (int i = r0; i < r1; i++) {
        int64_t *out = rows + off + (size_t)i * VQ_FADM_NSUMS;
        if (sc.dwt_only || i < sc.cm.top || i >= sc.cm.bottom) {
            for (int k = 0; k < VQ_FADM_NSUMS; k++)
                out[k] = 0;
            continue;
        }
        const int im = vq_fadm_mirror(i - 1, bh), ip = vq_fadm_mirror(i + 1, bh);
        float acc[VQ_FADM_NSUMS];
        for (int k = 0; k < VQ_FADM_NSUMS; k++)
            acc[k] = 0;
        for (int j = sc.cm.left; j < sc.cm.right; j++) {
            float x[VQ_FADM_NSUMS];
            vq_fadm_pixel(&c->images[s], &sc, p->bypass_cm, i, im, ip, j, vq_fadm_mirror(j - 1, bw),
                          vq_fadm_mirror(j + 1, bw), x);
            for (int k = 0; k < VQ_FADM_NSUMS; k++)
                acc[k] += power(p, x[k]);
        }
        for (int k = 0; k < VQ_FADM_NSUMS; k++)
            out[k] = vq_fadm_word(acc[k]);
    }
}

extern "C" int vq_fadm_cpu_run(VqFadmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p,
                               const VqRcpTable *t, int64_t *rows, const size_t off[VQ_ADM_SCALES])
{
    if (vq_fadm_cpu_check(c, ref, dis, p) < 0)
        return -1;
    for (int s = 0; s < VQ_ADM_SCALES; s++) {
        vq_fadm_cpu_dwt_rows(c, ref, dis, p, s, 0, p->s[s].h);
        vq_fadm_cpu_dec_rows(c, p, t, s, 0, p->s[s].h);
        vq_fadm_cpu_sum_rows(c, p, s, rows, off[s], 0, p->s[s].h);
    }
    return 0;
}

/* The module's table (kernels/module.h): g->host is the instance's
 * VqFadmInstance.  Step t runs scale t's DWT, scale t-1's decouple and CSF
 * and scale t-2's sums (each scale has its own images); a step's rows are
 * its operations' band rows one after another. */
namespace {

enum { OP_DWT, OP_DEC, OP_SUM };

const VqFadmInstance *inst_of(const VqModuleGeom *g)
{
    return static_cast<const VqFadmInstance *>(g->host);
}

/* the operations of step t: (op, scale) pairs, their number */
int step_ops(int t, int op[3], int scale[3])
{
    int n = 0;
    for (int q = OP_DWT; q <= OP_SUM; q++)
        if (t - q >= 0 && t - q < VQ_ADM_SCALES) {
            op[n] = q;
            scale[n++] = t - q;
        }
    return n;
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    *scratch = vq_fadm_cpu_alloc(&inst_of(g)->p);
    return *scratch ? 0 : -1;
}

void module_free(void *scratch)
{
    vq_fadm_cpu_free(static_cast<VqFadmCpu *>(scratch));
}

int module_check(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3])
{
    return vq_fadm_cpu_check(static_cast<VqFadmCpu *>(scratch), ref[0], dis[0], &inst_of(g)->p);
}

int module_step_rows(const VqModuleGeom *g, int t)
{
    int op[3], scale[3], rows = 0;
    const int n = step_ops(t, op, scale);
    for (int q = 0; q < n; q++)
        rows += inst_of(g)->p.s[scale[q]].h;
    return rows;
}

void module_rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                 int64_t *section, int t, int a, int b)
{
    VqFadmCpu *c = static_cast<VqFadmCpu *>(scratch);
    const VqFadmInstance *in = inst_of(g);
    int op[3], scale[3];
    const int n = step_ops(t, op, scale);
    for (int q = 0, base = 0, lo, hi; q < n; base += in->p.s[scale[q]].h, q++) {
        const int s = scale[q];
        if (!vq_module_part_rows(base, in->p.s[s].h, a, b, &lo, &hi))
            continue;
        if (op[q] == OP_DWT)
            vq_fadm_cpu_dwt_rows(c, ref[0], dis[0], &in->p, s, lo, hi);
        else if (op[q] == OP_DEC)
            vq_fadm_cpu_dec_rows(c, &in->p, in->rcp, s, lo, hi);
        else
            vq_fadm_cpu_sum_rows(c, &in->p, s, section, in->off[s], lo, hi);
    }
}

double module_cost(const VqModuleGeom *)
{
    return 6.0;
}

}  // namespace

extern "C" const VqModuleCpu vq_float_adm_module_cpu = { module_alloc, module_free, VQ_ADM_SCALES + 2,
                                                         module_step_rows, module_rows, 0u, module_check,
                                                         module_cost };
