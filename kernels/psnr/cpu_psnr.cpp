/* cpu_psnr.cpp - the CPU executor of psnr: plain loops around kernels/psnr/psnr.h
 * (SIMD twins in simd/), in any row bands (the module's one step). */
#include "module.h"
#include "psnr.h"
#include "psnr_exec.h"
#include "simd/cpu_simd.h"

/* the plain loop of one row (the SIMD twins' reference) */
extern "C" uint64_t vq_psnr_row_plain(VqPlaneView ref, VqPlaneView dis, int i, int w, int bpc)
{
    uint64_t sse = 0;
    for (int j = 0; j < w; j++)
        sse += vq_psnr_sq_err(vq_sample(ref, i, j), vq_sample(dis, i, j), bpc);
    return sse;
}

/* rows row_begin .. row_end - 1 of plane p (p < 3), in any bands */
static void psnr_rows(VqPlaneView ref, VqPlaneView dis, int p, int bpc, const VqPsnrLayout *l, int64_t *rows,
                      int row_begin, int row_end)
{
    const int w = p ? l->cw : l->w;
    int64_t *out = rows + l->off[p];
    const VqCpuSimd *k = vq_cpu_simd();
    for (int i = row_begin; i < row_end; i++)
        out[i] = (int64_t)k->psnr_row(ref, dis, i, w, bpc);
}

void vq_psnr_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], int nplanes,
                     int bpc, const VqPsnrLayout *l, int64_t *rows)
{
    for (int p = 0; p < nplanes && p < 3; p++)
        psnr_rows(ref[p], dis[p], p, bpc, l, rows, 0, p ? l->ch : l->h);
}

/* ---- the module's CPU table (kernels/module.h) -------------------------- */

namespace {

int module_alloc(void **out, const VqModuleGeom *)
{
    *out = nullptr;     /* no scratch */
    return 0;
}

void module_free(void *) {}

/* one step: the rows of plane 0, then of planes 1 and 2, in any bands */
int module_step_rows(const VqModuleGeom *g, int step)
{
    VqPsnrLayout l;
    vq_psnr_module_layout(g, &l);
    return step == 0 ? (int)l.total : 0;
}

void module_rows(void *, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                 int64_t *section, int, int row_begin, int row_end)
{
    VqPsnrLayout l;
    vq_psnr_module_layout(g, &l);
    for (int p = 0; p < 3; p++) {
        const int base = (int)l.off[p], n = p ? l.ch : l.h;
        int lo, hi;
        if (vq_module_part_rows(base, n, row_begin, row_end, &lo, &hi))
            psnr_rows(ref[p], dis[p], p, g->bpc, &l, section, lo, hi);
    }
}

}  // namespace

extern "C" const VqModuleCpu vq_psnr_module_cpu = { module_alloc, module_free, 1, module_step_rows, module_rows };
