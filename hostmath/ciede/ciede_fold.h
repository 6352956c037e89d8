/*
 * ciede_fold.h - ciede2000 on the host: the reference's per-pixel function
 * (glibc's pow, powf, atan2, sin, cos, exp), the size/format check, and the
 * fold of an executor's buffer (kernels/ciede/ciede_exec.h) into libvmaf v3.2.0's
 * score 45 - 20 log10(sum / (w h)), sum = the double running sum of the
 * float dE00 of every pixel in raster order.
 */
#ifndef VQ_CIEDE_FOLD_H
#define VQ_CIEDE_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "ciede/ciede_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * 0 when libvmaf scores this input, else VQ_EINVAL with the reason in err:
 *   no chroma (gray: libvmaf's init returns -EINVAL for YUV400);
 *   bpc other than 8, 10, 12, 16;
 *   subsampling other than 4:2:0, 4:2:2, 4:4:4;
 *   4:2:0 / 4:2:2 sizes where libvmaf's chroma upsampling reads past its
 *   chroma plane (4:2:0 with an odd height, for one), which is undefined.
 */
int vq_ciede_check(int w, int h, int bpc, int ssx, int ssy, int has_chroma, char *err, size_t errlen);

/* Entries the fold needs from vq_ciede_cuda_fetch_list (0: none). */
int64_t vq_ciede_extra_entries(const int64_t *buf);

/*
 * The frame's score.  extra: the list entries past VQ_CIEDE_LIST_INLINE
 * (NULL when vq_ciede_extra_entries() is 0); src: the pixel words for rows
 * that fall back (NULL: such a row is an error).  Returns 0, or VQ_EINVAL
 * with a message when the buffer is inconsistent, a row's pixel words are
 * needed and cannot be had, or glibc's powf returned neither candidate
 * (then nothing exact can be said).
 */
int vq_ciede_fold(const VqCiedeGeom *g, const int64_t *buf, const int64_t *extra,
                  const VqCiedeRowSource *src, double *score, char *err, size_t errlen);

/* The same, giving the reference's de00_sum and (if not NULL) how many rows
 * were added pixel by pixel. */
int vq_ciede_fold_sum(const VqCiedeGeom *g, const int64_t *buf, const int64_t *extra,
                      const VqCiedeRowSource *src, double *sum, int *fallback_rows, char *err,
                      size_t errlen);

/* The float dE00 of pixel k whose pixel word is `word`, resolved as the fold
 * does (a listed pixel through its list entry in buf / extra). */
int vq_ciede_word_value(const VqCiedeGeom *g, const int64_t *buf, const int64_t *extra, uint64_t word,
                        size_t k, float *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CIEDE_FOLD_H */
