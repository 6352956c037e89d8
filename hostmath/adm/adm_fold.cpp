/*
 * adm_fold.cpp - integer ADM's host side: row sums -> per-scale num/den ->
 * adm2, aim, adm3, adm_scale0..3, with the reference's types at every step
 * (libvmaf v3.2.0 integer_adm.c: adm_csf_den_scale, adm_csf_den_s123,
 * adm_cm, i4_adm_cm, integer_compute_adm, extract).  Built with
 * -ffp-contract=off; uses glibc pow/powf like the reference.
 */
#include <math.h>
#include <string.h>

#include "adm_fold.h"

/* one scale's row sums after the per-row rounding shifts */
typedef struct ScaleAccum {
    uint64_t den[3];
    int64_t num[3], aim[3];
} ScaleAccum;

static void accumulate_rows(const VqAdmScaleParams *sp, const int64_t *rows, ScaleAccum *a)
{
    int i, b;
    memset(a, 0, sizeof(*a));
    /*
     * The reference shifts each CM row's sum; when the CM rect touches the
     * band edge (w or h < 15) it processes row 0, rows 1..h-2 and row h-1 as
     * separate blocks, each with its own shift, which is again one shift per
     * row.  Rows outside [top, bottom) hold 0 and would add (0 + add) >> shift
     * = 0, as the reference's empty edge blocks do.
     */
    for (i = sp->cm.top; i < sp->cm.bottom; i++) {
        const int64_t *r = rows + (size_t)i * VQ_ADM_NSUMS;
        for (b = 0; b < 3; b++) {
            a->den[b] += ((uint64_t)r[VQ_ADM_DEN_H + b] + sp->den_add_row) >> sp->den_shift_row;
            a->num[b] += (r[VQ_ADM_NUM_H + b] + (int64_t)sp->cm_add_row) >> sp->cm_shift_row;
            a->aim[b] += (r[VQ_ADM_AIM_H + b] + (int64_t)sp->cm_add_row) >> sp->cm_shift_row;
        }
    }
}

/* adm_csf_den_scale / adm_csf_den_s123 after the loops */
static float den_scale(const VqAdmScaleParams *sp, int scale, const uint64_t acc[3],
                       double noise_weight)
{
    static const uint32_t accum_convert_float[3] = { 32, 27, 23 };
    const int area = (sp->cm.bottom - sp->cm.top) * (sp->cm.right - sp->cm.left);
    double shift_csf, csf[3];
    float powf_add, d[3];
    int b;

    if (scale == 0)
        shift_csf = pow(2, (18 - (int32_t)sp->den_shift_row));
    else /* unsigned exponent, as the reference's uint32 shifts */
        shift_csf = pow(2, (accum_convert_float[scale - 1] - sp->den_shift_row -
                            sp->den_shift_cub));
    for (b = 0; b < 3; b++)
        csf[b] = (double)(acc[b] / shift_csf) * pow(sp->rfactor[b], 3);

    powf_add = powf(area * noise_weight, 1.0f / 3.0f);
    for (b = 0; b < 3; b++)
        d[b] = powf(csf[b], 1.0f / 3.0f) + powf_add;
    return d[0] + d[1] + d[2];
}

/* adm_cm / i4_adm_cm after the loops; AIM passes noise_weight 0 */
static float cm_scale(const VqAdmScaleParams *sp, int scale, const int64_t acc[3],
                      double noise_weight)
{
    const int area = (sp->cm.bottom - sp->cm.top) * (sp->cm.right - sp->cm.left);
    float f[3], n[3];
    int b;

    if (scale == 0) {
        /* int64 / double, then float; exponent in uint32 as in the reference */
        f[0] = (float)(acc[0] / pow(2, (52 - sp->cm_shift_cub[0] - sp->cm_shift_row)));
        f[1] = (float)(acc[1] / pow(2, (52 - sp->cm_shift_cub[1] - sp->cm_shift_row)));
        f[2] = (float)(acc[2] / pow(2, (57 - sp->cm_shift_cub[2] - sp->cm_shift_row)));
    } else {
        static const uint32_t shift_base[3] = { 45, 39, 36 };
        /* a float divisor: the int64 converts to float first */
        const float final_shift = pow(2, (shift_base[scale - 1] - sp->cm_shift_cub[0] -
                                          sp->cm_shift_row));
        for (b = 0; b < 3; b++)
            f[b] = (float)(acc[b] / final_shift);
    }
    for (b = 0; b < 3; b++)
        n[b] = powf(f[b], 1.0f / 3.0f) + powf(area * noise_weight, 1.0f / 3.0f);
    return n[0] + n[1] + n[2];
}

void vq_adm_fold(const VqAdmParams *p, const VqRowLayout *l, const int64_t *rows,
                 VqAdmScores *out)
{
    vq_adm_fold_skip(p, l, rows, 0, out);
}

void vq_adm_fold_skip(const VqAdmParams *p, const VqRowLayout *l, const int64_t *rows, unsigned skip,
                      VqAdmScores *out)
{
    const double numden_limit = 1e-10 * (p->w * p->h) / (1920.0 * 1080.0);
    double num = 0, den = 0, aim_num = 0, score, score_aim;
    int s;

    for (s = 0; s < VQ_ADM_SCALES; s++) {
        const VqAdmScaleParams *sp = &p->s[s];
        ScaleAccum a;
        float num_scale = 0.0f, den_s = 0.0f, aim_scale = 0.0f;

        if (s == 0 && (skip & VQ_ADM_SKIP_SCALE0)) {
            /* adm_skip_scale0: the reference only low-passes scale 0 (the
             * same band a as the full DWT, which scale 1 reads) and scores
             * it num 0, den 1e-10 (a float) "to avoid divide by zero" */
            den_s = 1e-10;
        } else {
            accumulate_rows(sp, rows + l->adm_off[s], &a);
            den_s = den_scale(sp, s, a.den, p->noise_weight);
            num_scale = cm_scale(sp, s, a.num, p->noise_weight);
            if (!(skip & VQ_ADM_SKIP_AIM))   /* adm_skip_aim: AIM's CSF and CM not run, 0 */
                aim_scale = cm_scale(sp, s, a.aim, 0.0);
        }

        num += num_scale;
        den += den_s;
        aim_num += aim_scale;
        out->num_scale[s] = num_scale;
        out->den_scale[s] = den_s;
        /* double division of the float values */
        out->scale[s] = out->num_scale[s] / out->den_scale[s];
    }
    num = num < numden_limit ? 0 : num;
    den = den < numden_limit ? 0 : den;
    if (den == 0.0) {
        /* the reference leaves score_aim uninitialised here; unreachable
         * with a nonzero noise weight (den >= its noise term) */
        score = 1.0f;
        score_aim = 0.0;
    } else {
        score_aim = aim_num / den;
        score = num / den;
    }
    out->adm2 = score;
    out->aim = score_aim;
    {
        const double adm3 = score * p->dlm_weight + (1 - score_aim) * (1 - p->dlm_weight);
        out->adm3 = adm3 > p->min_val ? adm3 : p->min_val;
    }
    out->num = num;
    out->den = den;
}
