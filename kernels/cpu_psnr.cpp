/* cpu_psnr.cpp - the CPU executor of psnr: plain loops around kernels/psnr.h
 * (SIMD twins in simd/), in row bands (cpu_bands.h). */
#include "cpu_bands.h"
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

extern "C" void vq_psnr_cpu_rows(VqPlaneView ref, VqPlaneView dis, int p, int bpc, const VqRowLayout *l,
                                 int64_t *rows, int row_begin, int row_end)
{
    const int w = p ? l->cw : l->w;
    int64_t *out = rows + l->psnr_off[p];
    const VqCpuSimd *k = vq_cpu_simd();
    for (int i = row_begin; i < row_end; i++)
        out[i] = (int64_t)k->psnr_row(ref, dis, i, w, bpc);
}

void vq_psnr_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], int nplanes,
                     int bpc, const VqRowLayout *l, int64_t *rows)
{
    for (int p = 0; p < nplanes && p < 3; p++)
        vq_psnr_cpu_rows(ref[p], dis[p], p, bpc, l, rows, 0, p ? l->ch : l->h);
}
