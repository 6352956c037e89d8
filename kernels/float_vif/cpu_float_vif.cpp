/* cpu_float_vif.cpp - the CPU executor of float_vif (float_vif_exec.h):
 * loops around kernels/float_vif/float_vif.h.  The vertical passes keep one
 * accumulator per column and run the taps outermost, the horizontal passes
 * likewise over a row of vertical-pass values: each accumulator sees the
 * same operations in the same order as the reference's (tap 0 first), and
 * the compiler may put columns side by side in vector lanes (each lane an
 * IEEE float operation: the same bits).  The statistic and the row sums
 * run column by column, in order. */
#include <stdlib.h>
#include <string.h>

#include <new>
#include <vector>

#include "float_vif.h"
#include "float_vif_exec.h"
#include "module.h"

struct VqFloatVifCpu {
    std::vector<float> conv[2];     /* CONVERT: w x h */
    std::vector<float> pre[2];      /* PRESCALE: sw x sh */
    std::vector<float> sc[VQ_FVIF_SCALES][2];   /* DEC: scales 1..3 */
};

namespace {

/* the image of a scale (ref: k = 0, dis: k = 1) and its stride */
const float *scale_image(const VqFloatVifCpu *c, const VqFloatVifGeom *g, int s, int k)
{
    if (s > 0)
        return c->sc[s][k].data();
    return g->scaled ? c->pre[k].data() : c->conv[k].data();
}

struct Scratch {
    std::vector<float> v[5], h[5];
    void size(int w)
    {
        for (int q = 0; q < 5; q++) {
            if ((int)v[q].size() < w)
                v[q].resize((size_t)w);
            if ((int)h[q].size() < w)
                h[q].resize((size_t)w);
        }
    }
};

thread_local Scratch tls;

void stat_rows(const VqFloatVifCpu *c, const VqFloatVifGeom *g, int s, int64_t *words, int a, int b)
{
    const int w = g->sc_w[s], h = g->sc_h[s], fw = g->fw[s];
    const float *f = g->taps[s];
    const float *ref = scale_image(c, g, s, 0), *dis = scale_image(c, g, s, 1);
    Scratch &t = tls;
    t.size(w);
    float *m1 = t.v[0].data(), *m2 = t.v[1].data(), *xx = t.v[2].data(), *yy = t.v[3].data(),
          *xy = t.v[4].data();
    for (int i = a; i < b; i++) {
        for (int j = 0; j < w; j++)
            m1[j] = m2[j] = xx[j] = yy[j] = xy[j] = 0.0f;
        for (int k = 0; k < fw; k++) {
            const int ii = vq_reflect101(i - fw / 2 + k, h);
            const float *ra = ref + (size_t)ii * w, *da = dis + (size_t)ii * w;
            const float cf = f[k];
            for (int j = 0; j < w; j++)
                vq_fvif_vstep5(&m1[j], &m2[j], &xx[j], &yy[j], &xy[j], cf, ra[j], da[j]);
        }
        for (int q = 0; q < 5; q++)
            vq_fvif_cpu_hpass_row(t.v[q].data(), w, f, fw, t.h[q].data());
        float num = 0, den = 0;
        for (int j = 0; j < w; j++) {
            float n, d;
            vq_fvif_stat(t.h[0][j], t.h[1][j], t.h[2][j], t.h[3][j], t.h[4][j], g->egl, g->sigma_nsq,
                         g->sigma_max_inv, &n, &d);
            num += n;
            den += d;
        }
        words[g->row_off[s] + (size_t)i] = vq_fvif_pack(num, den);
    }
}

/* scale s's image, rows [a, b): scale s-1's filtered (scale s's taps) at
 * even rows and columns */
void dec_rows(VqFloatVifCpu *c, const VqFloatVifGeom *g, int s, int a, int b)
{
    const int pw = g->sc_w[s - 1], ph = g->sc_h[s - 1], w = g->sc_w[s], fw = g->fw[s];
    const float *f = g->taps[s];
    Scratch &t = tls;
    t.size(pw);
    for (int k = 0; k < 2; k++) {
        const float *src = scale_image(c, g, s - 1, k);
        float *dst = c->sc[s][k].data();
        float *v = t.v[0].data();
        for (int i = a; i < b; i++) {
            for (int j = 0; j < pw; j++)
                v[j] = 0.0f;
            for (int q = 0; q < fw; q++) {
                const int ii = vq_reflect101(2 * i - fw / 2 + q, ph);
                const float *row = src + (size_t)ii * pw;
                const float cf = f[q];
                for (int j = 0; j < pw; j++)
                    v[j] += cf * row[j];
            }
            for (int j = 0; j < w; j++)
                dst[(size_t)i * w + j] = vq_fvif_hpass(v, 1, pw, f, fw, 2 * j);
        }
    }
}

}  // namespace

VqFloatVifCpu *vq_fvif_cpu_alloc(const VqFloatVifGeom *g)
{
    VqFloatVifCpu *c = new (std::nothrow) VqFloatVifCpu;
    if (!c)
        return nullptr;
    try {
        for (int k = 0; k < 2; k++) {
            c->conv[k].resize((size_t)g->w * g->h);
            if (g->scaled)
                c->pre[k].resize((size_t)g->sw * g->sh);
            for (int s = 1; s < VQ_FVIF_SCALES; s++)
                c->sc[s][k].resize((size_t)g->sc_w[s] * g->sc_h[s]);
        }
    } catch (const std::bad_alloc &) {
        delete c;
        return nullptr;
    }
    return c;
}

void vq_fvif_cpu_free(VqFloatVifCpu *c)
{
    delete c;
}

int vq_fvif_cpu_step_ops(const VqFloatVifGeom *g, int step, VqFvifOp ops[2])
{
    int n = 0;
    switch (step) {
    case 0:
        ops[n++] = VqFvifOp{ VQ_FVIF_OP_CONVERT, 0, g->h };
        break;
    case 1:
        if (g->scaled)
            ops[n++] = VqFvifOp{ VQ_FVIF_OP_PRESCALE, 0, g->sh };
        break;
    default: {
        const int s = step - 2;
        if (s >= g->first_scale && s < VQ_FVIF_SCALES)
            ops[n++] = VqFvifOp{ VQ_FVIF_OP_STAT, s, g->sc_h[s] };
        if (s + 1 < VQ_FVIF_SCALES)
            ops[n++] = VqFvifOp{ VQ_FVIF_OP_DEC, s + 1, g->sc_h[s + 1] };
        break;
    }
    }
    return n;
}

void vq_fvif_cpu_rows(VqFloatVifCpu *c, const VqFloatVifGeom *g, VqFvifOp op, VqPlaneView ref,
                      VqPlaneView dis, int bpc, int64_t *words, int a, int b)
{
    switch (op.op) {
    case VQ_FVIF_OP_CONVERT:
        for (int k = 0; k < 2; k++) {
            const VqPlaneView v = k ? dis : ref;
            float *dst = c->conv[k].data();
            for (int i = a; i < b; i++)
                for (int j = 0; j < g->w; j++)
                    dst[(size_t)i * g->w + j] = vq_speed_to_float(vq_sample(v, i, j), bpc);
        }
        break;
    case VQ_FVIF_OP_PRESCALE:
        for (int k = 0; k < 2; k++) {
            const float *src = c->conv[k].data();
            float *dst = c->pre[k].data();
            for (int y = a; y < b; y++)
                for (int x = 0; x < g->sw; x++)
                    dst[(size_t)y * g->sw + x] =
                        vq_speed_prescale_at(g->method, src, g->w, g->h, g->w, g->ratio_x, g->ratio_y, x, y,
                                             g->lx0, g->ly0, g->lwx, g->lwy);
        }
        break;
    case VQ_FVIF_OP_STAT:
        stat_rows(c, g, op.scale, words, a, b);
        break;
    case VQ_FVIF_OP_DEC:
        dec_rows(c, g, op.scale, a, b);
        break;
    }
}

void vq_fvif_cpu_run(VqFloatVifCpu *c, const VqFloatVifGeom *g, VqPlaneView ref, VqPlaneView dis, int bpc,
                     int64_t *words)
{
    for (int step = 0; step < VQ_FVIF_CPU_STEPS; step++) {
        VqFvifOp ops[2];
        const int n = vq_fvif_cpu_step_ops(g, step, ops);
        for (int k = 0; k < n; k++)
            vq_fvif_cpu_rows(c, g, ops[k], ref, dis, bpc, words, 0, ops[k].rows);
    }
}

/* The module's table (kernels/module.h): g->host is the instance's
 * VqFloatVifGeom.  A step's rows are its operations' rows one after another
 * (STAT s's, then DEC s+1's): a band that spans both runs a part of each. */
namespace {

const VqFloatVifGeom *geom_of(const VqModuleGeom *g)
{
    return static_cast<const VqFloatVifGeom *>(g->host);
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    *scratch = vq_fvif_cpu_alloc(geom_of(g));
    return *scratch ? 0 : -1;
}

void module_free(void *scratch)
{
    vq_fvif_cpu_free(static_cast<VqFloatVifCpu *>(scratch));
}

int module_step_rows(const VqModuleGeom *g, int step)
{
    VqFvifOp ops[2];
    const int n = vq_fvif_cpu_step_ops(geom_of(g), step, ops);
    int rows = 0;
    for (int q = 0; q < n; q++)
        rows += ops[q].rows;
    return rows;
}

void module_rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                 int64_t *section, int step, int a, int b)
{
    VqFvifOp ops[2];
    const int n = vq_fvif_cpu_step_ops(geom_of(g), step, ops);
    for (int q = 0, base = 0, lo, hi; q < n; base += ops[q].rows, q++)
        if (vq_module_part_rows(base, ops[q].rows, a, b, &lo, &hi))
            vq_fvif_cpu_rows(static_cast<VqFloatVifCpu *>(scratch), geom_of(g), ops[q], ref[0], dis[0], g->bpc,
                             section, lo, hi);
}

}  // namespace

extern "C" const VqModuleCpu vq_float_vif_module_cpu = { module_alloc, module_free, VQ_FVIF_CPU_STEPS,
                                                         module_step_rows, module_rows, 0u };
