/* cpu_float_motion.cpp - the CPU executor of float_motion
 * (float_motion_exec.h): loops around float_motion.h and the filter of
 * kernels/float_vif/float_vif.h, and the module's CPU table (kernels/module.h).  Two
 * blurred images per plane: frame n goes into one while frame n-1 is read
 * from the other; commit swaps them.  The vertical pass keeps one
 * accumulator per column with the taps outermost (each accumulator: the
 * reference's operations in its order). */
#include <new>
#include <vector>

#include "float_motion.h"
#include "float_motion_exec.h"
#include "float_vif/float_vif_exec.h"
#include "module.h"

struct VqFloatMotionCpu {
    std::vector<float> conv[3];
    std::vector<float> blur[3][2];
    int cur = 0;        /* frame n's blur goes into blur[p][cur] */
    int have_prev = 0;  /* blur[p][cur ^ 1] holds frame n-1 */
};

namespace {
thread_local std::vector<float> tls_row;
}

VqFloatMotionCpu *vq_fmotion_cpu_alloc(const VqFloatMotionGeom *g)
{
    VqFloatMotionCpu *m = new (std::nothrow) VqFloatMotionCpu;
    if (!m)
        return nullptr;
    try {
        for (int p = 0; p < g->nplanes; p++) {
            const size_t n = (size_t)g->w[p] * g->h[p];
            m->conv[p].resize(n);
            m->blur[p][0].resize(n);
            m->blur[p][1].resize(n);
        }
    } catch (const std::bad_alloc &) {
        delete m;
        return nullptr;
    }
    return m;
}

void vq_fmotion_cpu_free(VqFloatMotionCpu *m)
{
    delete m;
}

int vq_fmotion_cpu_step_rows(const VqFloatMotionGeom *g, int step, int p)
{
    if (p >= g->nplanes)
        return 0;
    if (step == 0 || step == 1)
        return g->h[p];
    if (step == 2 && g->scale1)
        return g->sh[p];
    return 0;
}

void vq_fmotion_cpu_rows(VqFloatMotionCpu *m, const VqFloatMotionGeom *g, int step, int p, VqPlaneView plane,
                         int bpc, int64_t *words, int a, int b)
{
    const int w = g->w[p], h = g->h[p];
    float *conv = m->conv[p].data();
    float *cur = m->blur[p][m->cur].data();
    const float *prev = m->blur[p][m->cur ^ 1].data();
    if (step == 0) {
        for (int i = a; i < b; i++)
            for (int j = 0; j < w; j++)
                conv[(size_t)i * w + j] = vq_speed_to_float(vq_sample(plane, i, j), bpc);
        return;
    }
    if (step == 1) {
        std::vector<float> &t = tls_row;
        if ((int)t.size() < w)
            t.resize((size_t)w);
        float *v = t.data();
        for (int i = a; i < b; i++) {
            for (int j = 0; j < w; j++)
                v[j] = 0.0f;
            for (int k = 0; k < g->fw; k++) {
                const float *row = conv + (size_t)vq_reflect101(i - g->fw / 2 + k, h) * w;
                const float c = g->taps[k];
                for (int j = 0; j < w; j++)
                    v[j] += c * row[j];
            }
            float *out = cur + (size_t)i * w;
            vq_fvif_cpu_hpass_row(v, w, g->taps, g->fw, out);
            float acc = 0;
            if (m->have_prev) {
                const float *pr = prev + (size_t)i * w;
                for (int j = 0; j < w; j++)
                    acc = vq_fmotion_add(acc, pr[j], out[j]);
            }
            words[g->row_off[p] + (size_t)i] = vq_fmotion_word(acc);
        }
        return;
    }
    for (int y = a; y < b; y++) {
        float acc = 0;
        if (m->have_prev)
            for (int x = 0; x < g->sw[p]; x++)
                acc = vq_fmotion_add(acc, vq_fmotion_half(prev, w, h, w, g->ratio_x[p], g->ratio_y[p], x, y),
                                     vq_fmotion_half(cur, w, h, w, g->ratio_x[p], g->ratio_y[p], x, y));
        words[g->row1_off[p] + (size_t)y] = vq_fmotion_word(acc);
    }
}

void vq_fmotion_cpu_commit(VqFloatMotionCpu *m)
{
    m->cur ^= 1;
    m->have_prev = 1;
}

void vq_fmotion_cpu_run(VqFloatMotionCpu *m, const VqFloatMotionGeom *g, const VqPlaneView planes[3], int bpc,
                        int64_t *words)
{
    for (int step = 0; step < VQ_FMOTION_CPU_STEPS; step++)
        for (int p = 0; p < g->nplanes; p++)
            vq_fmotion_cpu_rows(m, g, step, p, planes[p], bpc, words, 0, vq_fmotion_cpu_step_rows(g, step, p));
    vq_fmotion_cpu_commit(m);
}

/* The module's table (kernels/module.h): g->host is the instance's
 * VqFloatMotionGeom (nplanes 0 under motion_force_zero: nothing to run).
 * Its steps run on every frame (a temporal module); a step's rows are its
 * planes' one after another, each plane a part of its own (banded apart, as
 * before the module); after every frame the frame's blur becomes frame n-1. */
namespace {

const VqFloatMotionGeom *geom_of(const VqModuleGeom *g)
{
    return static_cast<const VqFloatMotionGeom *>(g->host);
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    *scratch = vq_fmotion_cpu_alloc(geom_of(g));
    return *scratch ? 0 : -1;
}

void module_free(void *scratch)
{
    vq_fmotion_cpu_free(static_cast<VqFloatMotionCpu *>(scratch));
}

int module_step_rows(const VqModuleGeom *g, int step)
{
    int rows = 0;
    for (int p = 0; p < 3; p++)
        rows += vq_fmotion_cpu_step_rows(geom_of(g), step, p);
    return rows;
}

int module_step_parts(const VqModuleGeom *g, int step, VqModulePart parts[VQ_MODULE_MAX_PARTS])
{
    for (int p = 0; p < 3; p++)
        parts[p] = VqModulePart{ vq_fmotion_cpu_step_rows(geom_of(g), step, p), 0, 0 };
    return 3;
}

void module_rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView *,
                 int64_t *section, int step, int a, int b)
{
    const VqFloatMotionGeom *fg = geom_of(g);
    for (int p = 0, base = 0, lo, hi; p < 3; base += vq_fmotion_cpu_step_rows(fg, step, p), p++) {
        const int n = vq_fmotion_cpu_step_rows(fg, step, p);
        if (!vq_module_part_rows(base, n, a, b, &lo, &hi))
            continue;
        VqPlaneView v = ref[p];     /* libvmaf's floor-sized chroma */
        v.w = g->plane_w[p];
        v.h = g->plane_h[p];
        vq_fmotion_cpu_rows(static_cast<VqFloatMotionCpu *>(scratch), fg, step, p, v, g->bpc, section, lo, hi);
    }
}

/* every frame, scored or not: this frame's blur becomes frame n-1 */
void module_frame_end(void *scratch, const VqModuleGeom *, const VqPlaneView *, const VqPlaneView *)
{
    vq_fmotion_cpu_commit(static_cast<VqFloatMotionCpu *>(scratch));
}

}  // namespace

extern "C" const VqModuleCpu vq_float_motion_module_cpu = {
    module_alloc, module_free, VQ_FMOTION_CPU_STEPS, module_step_rows, module_rows, 0u, nullptr, nullptr,
    nullptr,      module_frame_end, module_step_parts,
};
