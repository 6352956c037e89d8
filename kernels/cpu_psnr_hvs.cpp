/*
 * cpu_psnr_hvs.cpp - the CPU executor of psnr_hvs: the reference's loops
 * around kernels/psnr_hvs.h.  Each plane's terms go straight into one float
 * accumulator in block raster order, term raster order: the reference's
 * own sum, so no splitting is needed here.  With several threads, bands of
 * block rows keep their terms and one thread then adds them in that order
 * (vq_psnr_hvs_cpu_terms_rows, vq_psnr_hvs_cpu_sum).
 */
#include "psnr_hvs.h"
#include "psnr_hvs_exec.h"

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
    return (int64_t)vq_psnr_hvs_f2u(plane_sum(ref, dis, t->csf[plane], t->mask[plane]));
}

extern "C" void vq_psnr_hvs_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3],
                                    const VqPsnrHvsTables *t, int64_t out[VQ_PSNR_HVS_WORDS])
{
    for (int p = 0; p < 3; p++)
        out[p] = vq_psnr_hvs_cpu_plane(ref[p], dis[p], p, t);
}

extern "C" void vq_psnr_hvs_cpu_terms_rows(VqPlaneView ref, VqPlaneView dis, int plane,
                                           const VqPsnrHvsTables *t, float *terms, int by0, int by1)
{
    const int nbx = vq_psnr_hvs_nblocks(ref.w);
    for (int by = by0; by < by1; by++)
        for (int bx = 0; bx < nbx; bx++)
            vq_psnr_hvs_block_terms(ref, dis, by * VQ_PSNR_HVS_STEP, bx * VQ_PSNR_HVS_STEP,
                                    t->csf[plane], t->mask[plane],
                                    terms + ((size_t)by * nbx + bx) * 64);
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
    return (int64_t)vq_psnr_hvs_f2u(ret);
}
