/*
 * cpu_speed_chroma.cpp - speed_chroma's CPU table (kernels/module.h): one
 * step of four long tasks, steps 1-3 of SpEED-QA (conversion, prescale, the
 * anti-alias filter at the kept samples) on each chroma plane (ref U, ref V,
 * dis U, dis V), each 1/16 image into the section (kernels/cpu_speed.cpp
 * around kernels/speed.h).  The geometry: the instance's VqSpeedGeom
 * (g->host, the plan's).  docs/speed.md.
 */
#include "module.h"
#include "speed_exec.h"

namespace {

int cpu_alloc(void **out, const VqModuleGeom *)
{
    *out = nullptr;     /* no scratch */
    return 0;
}

void cpu_free(void *)
{
}

int step_rows(const VqModuleGeom *, int step)
{
    return step == 0 ? VQ_SPEED_IMAGES : 0;
}

void rows(void *, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3], int64_t *section,
          int, int q0, int q1)
{
    const VqSpeedGeom *sg = static_cast<const VqSpeedGeom *>(g->host);
    const VqPlaneView planes[VQ_SPEED_IMAGES] = { ref[1], ref[2], dis[1], dis[2] };
    for (int q = q0; q < q1; q++)
        vq_speed_cpu_dec16(sg, planes[q], g->bpc, (float *)section + (size_t)q * sg->ow * sg->oh);
}

}  // namespace

/* each plane a long task of its own */
extern "C" const VqModuleCpu vq_speed_chroma_cpu = { cpu_alloc, cpu_free, 1, step_rows, rows, 1u };
