/*
 * vif_fold.h - the host side of integer VIF: the log2 table the kernels
 * read, and the per-scale scores from an executor's row sums.
 * Build with -ffp-contract=off (the formulas are the reference's, in its
 * order; the score is a float division).
 */
#ifndef VQ_VIF_FOLD_H
#define VQ_VIF_FOLD_H

#include <stdint.h>

#include "vq_rows.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * T[i] = round(log2f(i) * 2048) for i in 32767..65535, 0 elsewhere: the
 * reference's log_generate(), with glibc's log2f.  65536 entries.
 */
void vq_vif_log2_table(uint16_t table[65536]);

/* num and den of scale s (float, as the reference keeps them). */
void vq_vif_fold_scale(const VqRowLayout *l, const int64_t *rows, int s, float *num, float *den);

/* integer_vif_scale0..3: (double)(num / den), a float division. */
void vq_vif_fold(const VqRowLayout *l, const int64_t *rows, double score[4]);

#ifdef __cplusplus
}
#endif
#endif /* VQ_VIF_FOLD_H */
