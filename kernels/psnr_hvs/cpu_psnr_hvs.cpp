/*
 * cpu_psnr_hvs.cpp - the CPU executor of psnr_hvs: the reference's loops
 * around kernels/psnr_hvs/psnr_hvs.h.  Each plane's terms go straight into one float
 * accumulator in block raster order, term raster order: the reference's
 * own sum, so no splitting is needed here.  With several threads, bands of
 * block rows keep their terms and one thread then adds them in that order
 * (vq_psnr_hvs_cpu_terms_rows, vq_psnr_hvs_cpu_sum).  A block row's terms
 * come from the SIMD table's psnr_hvs_row (simd/cpu_simd.h; its plain twin
 * vq_psnr_hvs_row_plain below).
 */
#include "psnr_hvs.h"
#include "psnr_hvs_exec.h"
#include "simd/cpu_simd.h"

static float plane_sum(VqPlaneView ref, VqPlaneView dis, const float *csf, const float *mask)
{
    const int nbx = vq_psnr_hvs_nblocks(ref.w), nby = vq_psnr_hvs_nblocks(ref.h);
    float ret = 0;
    float t[64];
    for (int by = 0; by < nby; by++)
        for (int bx = 0; bx < nbx; bx++) {
            vq_psnr_hvs_block_terms(ref, dis, by * VQ_PSNR_HVS_STEP, bx * VQ_PSNR_HVS_STEP, csf,
                                    mask, t);
            for (int k = 0; k < 64; k++)
                ret += t[k];
        }
    return ret;
}

extern "C" int64_t vq_psnr_hvs_cpu_plane(VqPlaneView ref, VqPlaneView dis, int plane,
                                         const VqPsnrHvsTables *t)
{
    return (int64_t)vq_f32_bits(plane_sum(ref, dis, t->csf[plane], t->mask[plane]));
}

extern "C" void vq_psnr_hvs_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3],
                                    const VqPsnrHvsTables *t, int64_t out[VQ_PSNR_HVS_WORDS])
{
    for (int p = 0; p < 3; p++)
        out[p] = vq_psnr_hvs_cpu_plane(ref[p], dis[p], p, t);
}

/* the plain twin of the SIMD tables' psnr_hvs_row (simd/cpu_simd.h) */
extern "C" void vq_psnr_hvs_row_plain(VqPlaneView ref, VqPlaneView dis, int by, int nbx, const float *csf,
                                      const float *mask, float *terms)
{
    for (int bx = 0; bx < nbx; bx++)
        vq_psnr_hvs_block_terms(ref, dis, by * VQ_PSNR_HVS_STEP, bx * VQ_PSNR_HVS_STEP, csf, mask,
                                terms + (size_t)bx * 64);
}

extern "C" void vq_psnr_hvs_cpu_terms_rows(VqPlaneView ref, VqPlaneView dis, int plane,
                                           const VqPsnrHvsTables *t, float *terms, int by0, int by1)
{
    const int nbx = vq_psnr_hvs_nblocks(ref.w);
    const VqCpuSimd *simd = vq_cpu_simd();
    for (int by = by0; by < by1; by++)
        simd->psnr_hvs_row(ref, dis, by, nbx, t->csf[plane], t->mask[plane], terms + (size_t)by * nbx * 64);
}

extern "C" void vq_psnr_hvs_cpu_terms(VqPlaneView ref, VqPlaneView dis, int plane,
                                      const VqPsnrHvsTables *t, float *terms)
{
    vq_psnr_hvs_cpu_terms_rows(ref, dis, plane, t, terms, 0, vq_psnr_hvs_nblocks(ref.h));
}

extern "C" int64_t vq_psnr_hvs_cpu_sum(const float *terms, size_t n)
{
    float ret = 0;   /* plane_sum's accumulator, its terms in its order */
    for (size_t i = 0; i < n; i++)
        ret += terms[i];
    return (int64_t)vq_f32_bits(ret);
}

/* ---- the module's CPU table (kernels/module.h) -------------------------- */

#include <new>
#include <vector>

#include "module.h"

namespace {

/* the planes' block terms, kept between the two steps */
struct HvsCpu {
    VqPsnrHvsTables t;
    std::vector<float> terms[3];
    int block_rows[3];
};

/* plane q of a view as libvmaf has it (floor-sized chroma) */
VqPlaneView plane_of(const VqPlaneView v, const VqModuleGeom *g, int q)
{
    VqPlaneView r = v;
    r.w = g->plane_w[q];
    r.h = g->plane_h[q];
    return r;
}

int hvs_alloc(void **out, const VqModuleGeom *g)
{
    HvsCpu *c = new (std::nothrow) HvsCpu;
    *out = c;
    if (!c)
        return -1;
    vq_psnr_hvs_tables_init(&c->t);
    for (int q = 0; q < 3; q++) {
        c->block_rows[q] = vq_psnr_hvs_nblocks(g->plane_h[q]);
        c->terms[q].resize((size_t)vq_psnr_hvs_nblocks(g->plane_w[q]) * c->block_rows[q] * 64);
    }
    return 0;
}

void hvs_free(void *s)
{
    delete static_cast<HvsCpu *>(s);
}

/* step 0: the block rows of the three planes, one after another; step 1:
 * each plane's sum of its terms in order, a long task per plane */
int hvs_step_rows(const VqModuleGeom *g, int step)
{
    if (step == 1)
        return 3;
    if (step != 0)
        return 0;
    int n = 0;
    for (int q = 0; q < 3; q++)
        n += vq_psnr_hvs_nblocks(g->plane_h[q]);
    return n;
}

void hvs_rows(void *s, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
              int64_t *section, int step, int r0, int r1)
{
    HvsCpu *c = static_cast<HvsCpu *>(s);
    if (step == 1) {
        for (int q = r0; q < r1; q++)
            section[q] = vq_psnr_hvs_cpu_sum(c->terms[q].data(), c->terms[q].size());
        return;
    }
    int first = 0;   /* the plane's first row in the step's numbering */
    for (int q = 0; q < 3; first += c->block_rows[q], q++) {
        const int a = r0 > first ? r0 - first : 0, b = r1 - first < c->block_rows[q] ? r1 - first : c->block_rows[q];
        if (a < b)
            vq_psnr_hvs_cpu_terms_rows(plane_of(ref[q], g, q), plane_of(dis[q], g, q), q, &c->t,
                                       c->terms[q].data(), a, b);
    }
}

}  // namespace

extern "C" const VqModuleCpu vq_psnr_hvs_module_cpu = { hvs_alloc, hvs_free, 2, hvs_step_rows, hvs_rows, 2u };
