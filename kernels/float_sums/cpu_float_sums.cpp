/*
 * cpu_float_sums.cpp - the CPU table (kernels/module.h) of "the float sums",
 * the row work float_psnr and float_moment share (each module its own
 * instance and section): step 0 adds rows' terms in fixed point (exact, any
 * band), step 1 (one row: one thread) makes the five doubles
 * (kernels/cpu_float_small.cpp's loops around kernels/float_small.h; the
 * words are float_small_exec.h's).  docs/float-small.md.
 */
#include "module.h"
#include "float_small_exec.h"

namespace {

int cpu_alloc(void **out, const VqModuleGeom *)
{
    *out = nullptr;     /* no scratch */
    return 0;
}

void cpu_free(void *)
{
}

int step_rows(const VqModuleGeom *g, int step)
{
    return step == 0 ? g->h : step == 1 ? 1 : 0;
}

void rows(void *, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3], int64_t *section,
          int step, int r0, int r1)
{
    if (step == 0)
        vq_fs_cpu_rows(ref[0], dis[0], g->bpc, section, r0, r1);
    else
        vq_fs_cpu_finish(ref[0], dis[0], g->bpc, section);
}

}  // namespace

extern "C" const VqModuleCpu vq_float_sums_cpu = { cpu_alloc, cpu_free, 2, step_rows, rows };
