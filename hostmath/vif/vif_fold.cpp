/*
 * vif_fold.c - VIF on the host: the log2 table and the per-scale scores
 * (libvmaf v3.2.0 integer_vif.c: log_generate, the tail of
 * vif_statistic_*, write_scores).  Built with -ffp-contract=off.
 */
#include <math.h>
#include <string.h>

#include "vif_fold.h"

void vq_vif_log2_table(uint16_t table[65536])
{
    unsigned i;
    memset(table, 0, 65536 * sizeof(*table));
    /* float log2f, float * 2048, then round() half away from zero */
    for (i = 32767; i < 65536; i++)
        table[i] = (uint16_t)round(log2f((float)i) * 2048);
}

void vq_vif_fold_scale(const VqRowLayout *l, const int64_t *rows, int s, float *num, float *den)
{
    const int64_t *r = rows + l->vif_off[s];
    int64_t sum[VQ_VIF_NSUMS] = { 0 };
    int i, k;

    /* integer sums: the row order does not matter */
    for (i = 0; i < l->vif_h[s]; i++)
        for (k = 0; k < VQ_VIF_NSUMS; k++)
            sum[k] += r[(size_t)i * VQ_VIF_NSUMS + k];

    *num = (float)(sum[VQ_VIF_NUM_LOG] / 2048.0 +
                   (sum[VQ_VIF_DEN_NON_LOG] - (sum[VQ_VIF_NUM_NON_LOG] / 16384.0) / 65025.0));
    *den = (float)(sum[VQ_VIF_DEN_LOG] / 2048.0 + sum[VQ_VIF_DEN_NON_LOG]);
}

void vq_vif_fold(const VqRowLayout *l, const int64_t *rows, double score[4])
{
    int s;
    for (s = 0; s < VQ_VIF_SCALES; s++) {
        float num, den;
        vq_vif_fold_scale(l, rows, s, &num, &den);
        const float q = num / den;   /* float division, widened afterwards */
        score[s] = q;
    }
}
