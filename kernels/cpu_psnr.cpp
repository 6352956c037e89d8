/* cpu_psnr.cpp - the CPU executor of psnr: plain loops around kernels/psnr.h. */
#include "psnr.h"
#include "psnr_exec.h"

void vq_psnr_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], int nplanes,
                     int bpc, const VqRowLayout *l, int64_t *rows)
{
    for (int p = 0; p < nplanes && p < 3; p++) {
        const int w = p ? l->cw : l->w;
        const int h = p ? l->ch : l->h;
        int64_t *out = rows + l->psnr_off[p];
        for (int i = 0; i < h; i++) {
            uint64_t sse = 0;
            for (int j = 0; j < w; j++)
                sse += vq_psnr_sq_err(vq_sample(ref[p], i, j), vq_sample(dis[p], i, j), bpc);
            out[i] = (int64_t)sse;
        }
    }
}
