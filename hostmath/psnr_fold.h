/*
 * psnr_fold.h - psnr_y/cb/cr on the host, from the executor's per-row sums
 * of squared errors, with libvmaf v3.2.0 integer_psnr.c's types and
 * formulas (default options: no min_sse, no reduced_hbd_peak).
 */
#ifndef VQ_PSNR_FOLD_H
#define VQ_PSNR_FOLD_H

#include <stdint.h>

#include "vq_rows.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out[p] for p < nplanes (1 or 3):
 *   8-bit: sse = sum over rows of (uint32)row; mse = sse / (w * h);
 *          min(10 * log10(255 * 255 / max(mse, 1e-16)), 6 * 8 + 12)
 *   else:  sse = sum over rows (uint64); peak = 2^bpc - 1 (uint32 product)
 *          min(10 * log10(peak * peak / max(mse, 1e-16)), 6 * bpc + 12)
 * libvmaf itself scores only bpc 8, 10, 12 and 16 (others: -EINVAL).
 */
void vq_psnr_fold(const VqRowLayout *l, const int64_t *rows, int nplanes, int bpc, double out[3]);

#ifdef __cplusplus
}
#endif
#endif /* VQ_PSNR_FOLD_H */
