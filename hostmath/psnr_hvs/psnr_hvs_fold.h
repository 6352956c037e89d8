/*
 * psnr_hvs_fold.h - psnr_hvs on the host: the input check and the fold of
 * the executors' three plane sums (kernels/psnr_hvs/psnr_hvs_exec.h) into libvmaf
 * v3.2.0's four per-frame scores.  The extractor has no options.
 */
#ifndef VQ_PSNR_HVS_FOLD_H
#define VQ_PSNR_HVS_FOLD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * 0 when psnr_hvs can score this input, else VQ_EINVAL with a message in
 * msg (when msglen > 0).  nplanes: 3, or 1 for gray (yuv400).  w[p], h[p]:
 * the plane sizes as libvmaf has them (chroma: luma size >> subsampling).
 * Refused as the reference refuses them (its init() returns -EINVAL):
 *   bpc > 12 ("bpc must be less than or equal to 12"); gray input.
 * Refused here although the reference runs: a plane narrower or lower than
 * 8 samples (no 8x8 block: the reference divides 0 by 0 and returns NaN).
 * Also refused: bpc < 8 (no such libvmaf input).
 */
int vq_psnr_hvs_check(int bpc, int nplanes, const int w[3], const int h[3], char *msg,
                      size_t msglen);

enum { VQ_PSNR_HVS_Y, VQ_PSNR_HVS_CB, VQ_PSNR_HVS_CR, VQ_PSNR_HVS_ALL, VQ_PSNR_HVS_NSCORES };

/*
 * out[VQ_PSNR_HVS_Y..CR] = psnr_hvs_y, psnr_hvs_cb, psnr_hvs_cr and
 * out[VQ_PSNR_HVS_ALL] = psnr_hvs, from words[p] (the executors' plane
 * sums), w[p], h[p] and bpc, in the reference's types:
 *   float score_p = ret_p / (float)(64 blocks_p) / (float)((2^bpc-1)^2)
 *   psnr_hvs_p   = 10 * -log10((double)score_p)
 *   psnr_hvs     = 10 * -log10(.8 score_0 + .1 (score_1 + score_2))
 * +inf for identical planes (score 0), written `null` by libvmaf's JSON.
 */
void vq_psnr_hvs_fold(const int64_t words[3], const int w[3], const int h[3], int bpc,
                      double out[VQ_PSNR_HVS_NSCORES]);

#ifdef __cplusplus
}
#endif
#endif /* VQ_PSNR_HVS_FOLD_H */
