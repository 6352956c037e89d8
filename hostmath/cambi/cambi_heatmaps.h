/*
 * cambi_heatmaps.h - cambi's heatmaps_path (libvmaf v3.2.0 cambi.c: init's
 * mkdirp + fopen, dump_c_values, close_cambi's fclose), written on the host
 * from the c-values either executor gives.
 *
 * The files, as libvmaf writes them (docs/cambi.md, "Heatmaps"):
 *   <path>/cambi_heatmap_scale_<s>_<W>x<H>_16b.gray, s = 0..4, W x H the
 *   encode size halved (rounded up) s times -- also under
 *   cambi_high_res_speedup, whose scale 0 is already halved (the name then
 *   disagrees with the content, as in libvmaf);
 *   per scored frame n (the distorted pass only, never full_ref's source
 *   pass), each c-value as native (little-endian) uint16
 *   (uint16_t)(65535.0 / (max_diff_weight * ws * ws / 4) * c), the scale's
 *   rows at byte offset (n * h_s + i) * w_s * 2 (w_s x h_s: the scale's real
 *   size); frames never scored (n_subsample) are holes of zeros.
 *
 * Unlike libvmaf, which truncates the files when it starts, the frames go
 * to temporary files beside them (created, i.e. checked writable, before
 * any frame is scored) that replace the named files by rename() only when
 * the run ends well (vq_cambi_heatmaps_commit); a failed run removes them
 * and leaves what was there.
 */
#ifndef VQ_CAMBI_HEATMAPS_H
#define VQ_CAMBI_HEATMAPS_H

#include <stddef.h>
#include <stdint.h>

#include "cambi/cambi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqCambiHeatmaps VqCambiHeatmaps;

/* mkdir -p path (mode 0770, as libvmaf's mkdirp), then one temporary file
 * per scale.  p: the distorted pass's parameters (vq_cambi_setup, is_src
 * 0).  0, VQ_EINVAL (path empty) or VQ_EIO, with a message naming cambi and
 * the path; *out NULL then. */
int vq_cambi_heatmaps_open(VqCambiHeatmaps **out, const char *path, const VqCambiParams *p,
                           char *msg, size_t msg_size);

/* Frame n's c-values: cvalues[s] is scale s's p->sw[s] x p->sh[s] raster.
 * 0 or VQ_EIO (message). */
int vq_cambi_heatmaps_write(VqCambiHeatmaps *h, int64_t frame, const float *const *cvalues,
                            char *msg, size_t msg_size);

/* The run ended well: the temporary files replace the named ones.  0 or
 * VQ_EIO (message). */
int vq_cambi_heatmaps_commit(VqCambiHeatmaps *h, char *msg, size_t msg_size);

/* Removes the temporary files unless committed; frees h (NULL: nothing). */
void vq_cambi_heatmaps_close(VqCambiHeatmaps *h);

/* One c-value as dump_c_values stores it (scale: 65535.0 / max_c_value). */
uint16_t vq_cambi_heatmap_value(double scale, float c);

/* 65535.0 / (max(diff_weights) * window * window / 4), int arithmetic as
 * cambi.c's max_c_value. */
double vq_cambi_heatmap_scale(const VqCambiParams *p);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CAMBI_HEATMAPS_H */
