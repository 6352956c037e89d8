/*
 * float_small_fold.h - float_psnr, float_moment and float_ansnr on the
 * host, from the executors' sections (kernels/float_small_exec.h), with
 * libvmaf v3.2.0's formulas and types (psnr.c, moment.c, ansnr.c and the
 * extractors' init(): peak and psnr_max per bit depth).  docs/float-small.md.
 */
#ifndef VQ_FLOAT_SMALL_FOLD_H
#define VQ_FLOAT_SMALL_FOLD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* float_psnr.c / float_ansnr.c init(): peak and psnr_max of bpc 8, 10, 12,
 * 16; -1 for another depth (the reference's init fails) */
int vq_float_peak(int bpc, double *peak, double *psnr_max);

/* float_psnr: MIN(10 * log10(peak * peak / MAX(noise / (w * h), 1e-10)), psnr_max) */
double vq_float_psnr_fold(const int64_t *section, int w, int h, int bpc);

/* float_moment: ref1st, dis1st, ref2nd, dis2nd (each sum / (w * h)) into out[4] */
void vq_float_moment_fold(const int64_t *section, int w, int h, double out[4]);

/* float_ansnr: the rows' float sums added in row order (floats), then
 * float_ansnr (noise == 0 ? psnr_max : 10 log10(sig / noise), a float
 * quotient) and float_anpsnr into out[2] */
void vq_float_ansnr_fold(const int64_t *section, int w, int h, int bpc, double out[2]);

#ifdef __cplusplus
}
#endif
#endif /* VQ_FLOAT_SMALL_FOLD_H */
