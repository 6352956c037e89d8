/*
 * cpu_float_ansnr.cpp - float_ansnr's CPU table (kernels/module.h): step 0
 * converts rows of both luma planes to float (picture_copy, offset -128),
 * step 1 filters rows and adds their two float sums in column order
 * (kernels/cpu_float_small.cpp's loops around kernels/float_small.h; the
 * words are float_small_exec.h's float_ansnr section).  docs/float-small.md.
 */
#include <new>
#include <vector>

#include "module.h"
#include "float_small_exec.h"

namespace {

struct Scratch {
    std::vector<float> img[2];      /* the luma planes as floats: ref, dis */
};

int cpu_alloc(void **out, const VqModuleGeom *g)
{
    Scratch *s = new (std::nothrow) Scratch;
    *out = s;
    if (!s)
        return -1;
    try {
        for (std::vector<float> &v : s->img)
            v.assign((size_t)g->w * g->h, 0.0f);
    } catch (...) {
        return -1;
    }
    return 0;
}

void cpu_free(void *s)
{
    delete static_cast<Scratch *>(s);
}

int step_rows(const VqModuleGeom *g, int step)
{
    return step < 2 ? g->h : 0;
}

void rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
          int64_t *section, int step, int r0, int r1)
{
    Scratch *s = static_cast<Scratch *>(scratch);
    if (step == 0)
        vq_ansnr_cpu_convert_rows(ref[0], dis[0], g->bpc, s->img[0].data(), s->img[1].data(), r0, r1);
    else
        vq_ansnr_cpu_rows(s->img[0].data(), s->img[1].data(), g->w, g->h, section, r0, r1);
}

}  // namespace

extern "C" const VqModuleCpu vq_float_ansnr_cpu = { cpu_alloc, cpu_free, 2, step_rows, rows };
