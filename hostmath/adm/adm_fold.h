/*
 * adm_fold.h - integer ADM scores from the executors' row sums: applies the
 * per-row rounding shifts in the reference's order, then libvmaf v3.2.0's
 * float/double steps (pow, powf, float sums, double divisions) on the host.
 */
#ifndef VQ_ADM_FOLD_H
#define VQ_ADM_FOLD_H

#include <stdint.h>

#include "vq_rows.h"
#include "adm/adm_params.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqAdmScores {
    double adm2;                    /* integer_adm2 (VMAF_integer_feature_adm2_score) */
    double aim;                     /* integer_aim */
    double adm3;                    /* integer_adm3 */
    double scale[VQ_ADM_SCALES];    /* integer_adm_scale0..3 */
    /* the debug features: integer_adm_num, _den, _num_scale*, _den_scale* */
    double num, den;
    double num_scale[VQ_ADM_SCALES], den_scale[VQ_ADM_SCALES];
} VqAdmScores;

void vq_adm_fold(const VqAdmParams *p, const VqRowLayout *l, const int64_t *rows,
                 VqAdmScores *out);

/* The same with the reference's adm_skip_aim / adm_skip_scale0 (integer_adm.c
 * integer_compute_adm): skip_aim gives every scale's AIM numerator 0 (aim 0,
 * adm3 from it); skip_scale0 gives scale 0 num 0, den (float)1e-10, AIM 0 and
 * leaves scales 1-3 as they are (the reference's low-pass-only DWT of scale 0
 * makes the same band a).  The executors' scale-0 (and AIM) words are then
 * not read. */
enum { VQ_ADM_SKIP_AIM = 1, VQ_ADM_SKIP_SCALE0 = 2 };
void vq_adm_fold_skip(const VqAdmParams *p, const VqRowLayout *l, const int64_t *rows, unsigned skip,
                      VqAdmScores *out);

#ifdef __cplusplus
}
#endif
#endif /* VQ_ADM_FOLD_H */
