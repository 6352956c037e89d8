/*
 * psnr_fold.h - psnr_y/cb/cr (and mse_y/cb/cr, apsnr_y/cb/cr) on the host,
 * from the executor's per-row sums of squared errors, with libvmaf v3.2.0
 * integer_psnr.c's types and formulas, its options included (enable_mse,
 * enable_apsnr, reduced_hbd_peak, min_sse).
 */
#ifndef VQ_PSNR_FOLD_H
#define VQ_PSNR_FOLD_H

#include <stdint.h>

#include "psnr/psnr_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What integer_psnr.c's init() fixes for a run:
 *   peak = reduced_hbd_peak ? 255 * 1 << (bpc - 8) : (1 << bpc) - 1   (uint32)
 *   psnr_max[p] = min_sse != 0
 *       ? ceil(10. * log10(peak * peak / (min_sse / (pw * ph))))
 *       : (6 * bpc) + 12
 * with pw x ph plane p's size in libvmaf's picture (the floor-sized chroma
 * plane: w / 2 where subsampled), the product in unsigned as there.
 */
typedef struct VqPsnrParams {
    int bpc;
    uint32_t peak;
    double psnr_max[3];
} VqPsnrParams;

void vq_psnr_params_init(VqPsnrParams *p, int bpc, int reduced_hbd_peak, double min_sse,
                         const VqPsnrLayout *l, int nplanes);

/*
 * Plane p < nplanes (1 or 3):
 *   8-bit: sse = sum over rows of (uint32)row; else the rows in uint64
 *   mse = sse / (w * h)                          (w * h in unsigned)
 *   8-bit: min(10 * log10(255 * 255 / max(mse, 1e-16)), psnr_max[p])
 *          (the 8-bit path's own peak of 255, whatever the options)
 *   else:  min(10 * log10(peak * peak / max(mse, 1e-16)), psnr_max[p])
 * psnr[p] always; mse[p] and sse[p] (the frame's SSE, for apsnr) when not NULL.
 * libvmaf itself scores only bpc 8, 10, 12 and 16 (others: -EINVAL).
 */
void vq_psnr_fold_params(const VqPsnrParams *pp, const VqPsnrLayout *l, const int64_t *rows,
                         int nplanes, double psnr[3], double mse[3], uint64_t sse[3]);

/* The default options (no min_sse, no reduced_hbd_peak): psnr only. */
void vq_psnr_fold(const VqPsnrLayout *l, const int64_t *rows, int nplanes, int bpc, double out[3]);

/*
 * apsnr of one plane at flush, from the SSE and pixel counts summed over
 * every frame extracted (uint64, as the reference's apsnr state):
 *   apsnr = 10 * (log10(peak * peak) + log10(n_pixels) - log10(sse))
 *   max   = ceil(10 * log10(peak * peak * n_pixels * 2))    (uint32, uint64)
 *   min(apsnr, max)   (the reference's MIN macro: max when apsnr is NaN)
 * A plane never summed (chroma off, gray) gives -inf, as there.
 */
double vq_apsnr(uint32_t peak, uint64_t sse, uint64_t n_pixels);

#ifdef __cplusplus
}
#endif
#endif /* VQ_PSNR_FOLD_H */
