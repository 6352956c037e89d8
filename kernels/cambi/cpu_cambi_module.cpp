/*
 * cpu_cambi_module.cpp - the cambi module's CPU table (module.h): its
 * passes (cambi_exec.h: the distorted luma's, with full_ref the reference
 * luma's) as one task (run) or in cambi_exec.h's steps, and with
 * heatmaps_path the distorted pass's c-values copied into the section
 * (cambi_module.h).
 *
 * A step's parts, per pass: the items that run on one thread (scale s's
 * selection of T, scale t's pooling decision and, for the distorted pass
 * under heatmaps_path, the copy of scale s's c-values, final since the
 * step before), one item each, ahead of the step's bands; the row words of
 * a scale in bands; the step's rows in bands (at most
 * vq_cambi_cpu_step_most of them).
 */
#include <string.h>

#include <new>

#include "cambi/cambi_exec.h"
#include "cambi/cambi_module.h"
#include "module.h"

static_assert(VQ_CAMBI_CPU_STEPS <= VQ_MODULE_MAX_STEPS, "cambi's steps exceed the executor's");

namespace {

struct Scratch {
    VqCambiCpu *c[2] = { nullptr, nullptr };
};

const VqCambiModuleHost &host(const VqModuleGeom *g)
{
    return *static_cast<const VqCambiModuleHost *>(g->host);
}

/* what a part of a step does */
enum Kind { kOne, kWords, kRows };
/* the one-thread items of a part kOne */
enum One { kSelect, kDecide, kCopy };

struct Part {
    Kind kind;
    int pass;
    int rows, most, first;
    int scale;          /* kWords: the scale */
    One one[3];         /* kOne: its items, one per row */
    int one_scale[3];
};

/* step's parts, in order; their number */
int parts_of(const VqModuleGeom *g, int step, Part out[VQ_MODULE_MAX_PARTS])
{
    const VqCambiModuleHost &h = host(g);
    int n = 0;
    for (int k = 0; k < h.passes; k++) {
        const VqCambiParams *p = &h.p[k];
        Part one = { kOne, k, 0, 0, 1, 0, {}, {} };
        int s;
        if ((s = vq_cambi_cpu_step_select(p, step)) >= 0) {
            one.one[one.rows] = kSelect;
            one.one_scale[one.rows++] = s;
        }
        if ((s = vq_cambi_cpu_step_decide(p, step)) >= 0) {
            one.one[one.rows] = kDecide;
            one.one_scale[one.rows++] = s;
        }
        /* scale s's c-values are final once its T may be chosen */
        if (k == 0 && h.cv && (s = vq_cambi_cpu_step_select(p, step)) >= 0) {
            one.one[one.rows] = kCopy;
            one.one_scale[one.rows++] = s;
        }
        out[n++] = one;
        const int wsc = vq_cambi_cpu_step_words(p, step);
        out[n++] = Part{ kWords, k, wsc >= 0 ? p->sh[wsc] : 0, 0, 0, wsc, {}, {} };
        out[n++] = Part{ kRows, k, vq_cambi_cpu_step_rows(p, step),
                         vq_cambi_cpu_step_most(p, step, g->cpu_threads), 0, 0, {}, {} };
    }
    return n;
}

void copy_cvalues(const VqCambiCpu *c, const VqCambiModuleHost &h, int64_t *section, int s)
{
    memcpy(section + h.cv_off[s], vq_cambi_cpu_cvalues(c, s), (size_t)h.p[0].sw[s] * h.p[0].sh[s] * sizeof(float));
}

int cambi_alloc(void **scratch, const VqModuleGeom *g)
{
    const VqCambiModuleHost &h = host(g);
    Scratch *s = new (std::nothrow) Scratch;
    *scratch = s;
    if (!s)
        return -1;
    for (int k = 0; k < h.passes; k++) {
        if (!(s->c[k] = vq_cambi_cpu_alloc(&h.p[k])))
            return -1;
        /* in steps of row bands: each worker's histograms */
        if (g->cpu_bands && vq_cambi_cpu_bands(s->c[k], g->cpu_threads) != 0)
            return -1;
    }
    return 0;
}

void cambi_free(void *scratch)
{
    Scratch *s = static_cast<Scratch *>(scratch);
    for (VqCambiCpu *c : s->c)
        if (c)
            vq_cambi_cpu_free(c);
    delete s;
}

int cambi_step_parts(const VqModuleGeom *g, int step, VqModulePart parts[VQ_MODULE_MAX_PARTS])
{
    Part p[VQ_MODULE_MAX_PARTS];
    const int n = parts_of(g, step, p);
    for (int q = 0; q < n; q++)
        parts[q] = VqModulePart{ p[q].rows, p[q].most, p[q].first };
    return n;
}

int cambi_step_rows(const VqModuleGeom *g, int step)
{
    Part p[VQ_MODULE_MAX_PARTS];
    const int n = parts_of(g, step, p);
    int rows = 0;
    for (int q = 0; q < n; q++)
        rows += p[q].rows;
    return rows;
}

void cambi_rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                int64_t *section, int step, int a, int b)
{
    Scratch *sc = static_cast<Scratch *>(scratch);
    const VqCambiModuleHost &h = host(g);
    Part p[VQ_MODULE_MAX_PARTS];
    const int n = parts_of(g, step, p);
    for (int q = 0, base = 0; q < n; base += p[q].rows, q++) {
        int lo, hi;
        if (!vq_module_part_rows(base, p[q].rows, a, b, &lo, &hi))
            continue;
        const int k = p[q].pass;
        VqCambiCpu *c = sc->c[k];
        const VqCambiParams *pp = &h.p[k];
        switch (p[q].kind) {
        case kOne:
            for (int i = lo; i < hi; i++) {
                const int s = p[q].one_scale[i];
                switch (p[q].one[i]) {
                case kSelect:
                    vq_cambi_cpu_select(c, pp, s);
                    break;
                case kDecide:
                    vq_cambi_cpu_decide(c, pp, s, &h.l[k], section);
                    break;
                case kCopy:
                    copy_cvalues(c, h, section, s);
                    break;
                }
            }
            break;
        case kWords:
            vq_cambi_cpu_words(c, pp, p[q].scale, &h.l[k], section, lo, hi);
            break;
        case kRows:
            vq_cambi_cpu_rows(c, pp, h.t[k], k ? ref[0] : dis[0], step, lo, hi);
            break;
        }
    }
}

/* the views against each pass's input size (run checks its own) */
int cambi_check(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3])
{
    const Scratch *sc = static_cast<const Scratch *>(scratch);
    const VqCambiModuleHost &h = host(g);
    for (int k = 0; k < h.passes; k++)
        if (vq_cambi_cpu_check(sc->c[k], &h.p[k], k ? ref[0] : dis[0]) < 0)
            return -1;
    return 0;
}

/* single-thread nanoseconds per luma pixel, per pass (the development
 * machine's, as the executor's other hints) */
double cambi_cost(const VqModuleGeom *g)
{
    return 23.0 * host(g).passes;
}

/* the whole frame on one thread: the distorted pass, the source pass, the
 * c-values */
int cambi_run(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
              int64_t *section)
{
    Scratch *sc = static_cast<Scratch *>(scratch);
    const VqCambiModuleHost &h = host(g);
    for (int k = 0; k < h.passes; k++)
        if (vq_cambi_cpu_run(sc->c[k], &h.p[k], h.t[k], k ? ref[0] : dis[0], &h.l[k], section) < 0)
            return -1;
    for (int s = 0; h.cv && s < VQ_CAMBI_SCALES; s++)
        copy_cvalues(sc->c[0], h, section, s);
    return 0;
}

}  // namespace

extern "C" const VqModuleCpu vq_cambi_module_cpu = {
    cambi_alloc,
    cambi_free,
    VQ_CAMBI_CPU_STEPS,
    cambi_step_rows,
    cambi_rows,
    0,                  /* long_steps: the one-thread items are parts (first) */
    cambi_check,
    cambi_cost,
    nullptr,            /* fold_data: the c-values ride in the section */
    nullptr,            /* frame_end */
    cambi_step_parts,
    cambi_run,
    nullptr,            /* rows_failed */
};
