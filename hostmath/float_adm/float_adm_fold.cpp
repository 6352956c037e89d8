/*
 * float_adm_fold.cpp - see float_adm_fold.h.  Built with -ffp-contract=off;
 * glibc's pow/exp/cos/powf as the reference calls them (double versions
 * where C's calls take doubles).
 */
#include "float_adm_fold.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "adm/adm_params.h"
#include "glibc_powf_check.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* adm_options.h's ADM_BORDER_FACTOR, a double */
#define FADM_BORDER_FACTOR 0.1

void vq_fadm_options_default(VqFadmOptions *o)
{
    o->enhn_gain_limit = 100.0;
    o->norm_view_dist = 3.0;
    o->noise_weight = 0.03125;
    o->csf_scale = 1.0;
    o->csf_diag_scale = 1.0;
    o->ref_display_height = 1080;
    o->csf_mode = 0;
    o->bypass_cm = 0;
    o->adm3_apply_hm = 0;
    o->p_norm = 3.0;
    o->dlm_weight = 0.5;
    o->min_val = 0.0;
    for (int s = 0; s < 4; s++)
        o->f1s[s] = o->f2s[s] = -1.0;
    o->skip_aim_scale = -1;
    o->skip_scale0 = 0;
}

/* adm_csf_tools.h's adm_native_csf (the DLM paper's CSF), float and double
 * as written: float r, float spatial frequency, the result a double
 * expression rounded to float */
static float native_csf(int lambda, double nvd, int rdh, int theta)
{
    const float r = nvd * rdh * M_PI / 180.0;
    float sf = (double)r / pow(2, lambda + 1);
    if (theta == 45)
        sf = (double)sf / 0.7;
    return (0.31 + 0.69 * (double)sf) * exp(-0.29 * (double)sf);
}

float vq_fadm_csf_factor(const VqFadmOptions *o, int scale, int orient)
{
    if (o->csf_mode == 2)   /* ADM_CSF_MODE_ADM */
        return native_csf(scale, o->norm_view_dist, o->ref_display_height, orient ? 45 : 0);
    /* Barten (1) and Watson 1997 (0 and every other mode): the same
     * functions (barten_csf_tools.h, dwt_quant_step) as integer ADM's modes
     * 1 and 0, with the same luminance (100 cd/m2) */
    VqAdmOptions a;
    vq_adm_options_default(&a);
    a.norm_view_dist = o->norm_view_dist;
    a.ref_display_height = o->ref_display_height;
    a.csf_mode = o->csf_mode == 1 ? VQ_ADM_CSF_BARTEN : VQ_ADM_CSF_WATSON97;
    a.csf_scale = o->csf_scale;
    a.csf_diag_scale = o->csf_diag_scale;
    return vq_adm_csf_factor(&a, scale, orient);
}

int vq_fadm_params_init(VqFadmParams *p, int w, int h, int bpc, const VqFadmOptions *o, int rcp_mode,
                        char *err, size_t errlen)
{
    memset(p, 0, sizeof(*p));
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16) {
        snprintf(err, errlen, "float_adm reads 8-, 10-, 12- and 16-bit pictures only (libvmaf's "
                 "picture_copy reads %d-bit samples as bytes)", bpc);
        return -1;
    }
    /* the coarsest band (ceil(n / 16)) must be 2 x 2: the CM threshold
     * reads index 1 and n - 2, the DWT's index tables a second sample */
    if (w < 17 || h < 17) {
        snprintf(err, errlen, "float_adm needs frames of at least 17x17 (%dx%d: libvmaf's float ADM "
                 "reads outside its scale-3 bands below that)", w, h);
        return -1;
    }
    if (!(o->enhn_gain_limit >= 1.0 && o->enhn_gain_limit <= 100.0) ||
        !(o->norm_view_dist >= 0.75 && o->norm_view_dist <= 24.0) ||
        !(o->noise_weight >= 0.0 && o->noise_weight <= 1500.0) ||
        !(o->csf_scale >= 0.0 && o->csf_scale <= 50.0) ||
        !(o->csf_diag_scale >= 0.0 && o->csf_diag_scale <= 50.0) ||
        o->ref_display_height < 1 || o->ref_display_height > 4320 || o->csf_mode < 0 || o->csf_mode > 9 ||
        o->bypass_cm < 0 || o->bypass_cm > 1 || !(o->p_norm >= 1.0 && o->p_norm <= 20.0) ||
        !(o->dlm_weight >= 0.0 && o->dlm_weight <= 1.0) || !(o->min_val >= 0.0 && o->min_val <= 1.0) ||
        o->skip_aim_scale < -1 || o->skip_aim_scale > 3) {
        snprintf(err, errlen, "float_adm: an option is outside libvmaf's range");
        return -1;
    }
    for (int s = 0; s < 4; s++)
        if (!(o->f1s[s] >= -1.0 && o->f1s[s] <= 10.0) || !(o->f2s[s] >= -1.0 && o->f2s[s] <= 10.0)) {
            snprintf(err, errlen, "float_adm: adm_f1s%d / adm_f2s%d outside libvmaf's [-1, 10]", s, s);
            return -1;
        }
    p->w = w;
    p->h = h;
    p->bpc = bpc;
    p->egl = o->enhn_gain_limit;
    p->cos_1deg_sq = cos(1.0 * M_PI / 180.0) * cos(1.0 * M_PI / 180.0);
    p->p3 = o->p_norm == 3.0;
    p->powf_gpu = p->p3 || vq_glibc_powf_agrees((float)o->p_norm, nullptr);
    p->p_normf = (float)o->p_norm;
    p->p_norm = o->p_norm;
    p->bypass_cm = o->bypass_cm;
    p->skip_scale0 = o->skip_scale0;
    p->skip_aim_scale = o->skip_aim_scale;
    p->adm3_apply_hm = o->adm3_apply_hm;
    p->noise_weight = o->noise_weight;
    p->dlm_weight = o->dlm_weight;
    p->min_val = o->min_val;
    p->rcp_mode = rcp_mode;
    int in_w = w, in_h = h;
    for (int s = 0; s < VQ_ADM_SCALES; s++) {
        VqFadmScale *sc = &p->s[s];
        const int bw = (in_w + 1) / 2, bh = (in_h + 1) / 2;
        sc->in_w = in_w;
        sc->in_h = in_h;
        sc->w = bw;
        sc->h = bh;
        sc->dwt_only = s == 0 && o->skip_scale0;
        /* adm_cm_s / adm_csf_den_scale_s: (int)(w * 0.1 - 0.5), truncation */
        sc->cm.left = bw * FADM_BORDER_FACTOR - 0.5;
        sc->cm.top = bh * FADM_BORDER_FACTOR - 0.5;
        sc->cm.right = bw - sc->cm.left;
        sc->cm.bottom = bh - sc->cm.top;
        /* adm_decouple_s / adm_csf_s: "- 0.5 - 1" left to right, then clamped */
        const int left = bw * FADM_BORDER_FACTOR - 0.5 - 1;
        const int top = bh * FADM_BORDER_FACTOR - 0.5 - 1;
        const int right = bw - left + 2;
        const int bottom = bh - top + 2;
        sc->dec.left = left < 0 ? 0 : left;
        sc->dec.top = top < 0 ? 0 : top;
        sc->dec.right = right > bw ? bw : right;
        sc->dec.bottom = bottom > bh ? bh : bottom;
        /* the factors; a non-negative adm_f1sN / adm_f2sN replaces them (double to float) */
        float f1 = vq_fadm_csf_factor(o, s, 0), f2 = vq_fadm_csf_factor(o, s, 1);
        if (o->f1s[s] >= 0)
            f1 = o->f1s[s];
        if (o->f2s[s] >= 0)
            f2 = o->f2s[s];
        sc->rfactor[0] = f1;
        sc->rfactor[1] = f1;
        sc->rfactor[2] = f2;
        in_w = bw;
        in_h = bh;
    }
    return 0;
}

/* adm_cm_s's / adm_csf_den_scale_s's ending: powf(accum, 1/p) + the noise term */
static float band_total(float accum, float noise, float e)
{
    return powf(accum, e) + noise;
}

int vq_fadm_fold(const VqFadmParams *p, const int64_t *rows, const size_t off[VQ_ADM_SCALES],
                 VqFadmScores *out, char *err, size_t errlen)
{
    const double numden_limit = 1e-10 * (p->w * p->h) / (1920.0 * 1080.0);
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    /* 1.0f / adm_p_norm: a double quotient, rounded to float as powf's argument */
    const float e = 1.0f / p->p_norm;
    memset(out, 0, sizeof(*out));
    for (int s = 0; s < VQ_ADM_SCALES; s++) {
        const VqFadmScale *sc = &p->s[s];
        float num_scale = 0.0, den_scale = 0.0, aim_num_scale = 0.0;
        if (sc->dwt_only) {
            den_scale = 1e-10;
        } else {
            /* the rows in order: accum += accum_inner, float */
            float acc[VQ_FADM_NSUMS] = { 0 };
            for (int i = sc->cm.top; i < sc->cm.bottom; i++)
                for (int k = 0; k < VQ_FADM_NSUMS; k++)
                    acc[k] += vq_fadm_from_word(rows[off[s] + (size_t)i * VQ_FADM_NSUMS + k]);
            /* get_noise_constant(right - left, bottom - top, weight, p): an int
             * area times the double weight, rounded to float for powf */
            const int area = (sc->cm.right - sc->cm.left) * (sc->cm.bottom - sc->cm.top);
            const float noise = powf(area * p->noise_weight, e);
            const float noise_aim = powf(area * 0.0, e);
            float t[VQ_FADM_NSUMS];
            for (int k = 0; k < 3; k++) {
                t[VQ_ADM_DEN_H + k] = band_total(acc[VQ_ADM_DEN_H + k], noise, e);
                t[VQ_ADM_NUM_H + k] = band_total(acc[VQ_ADM_NUM_H + k], noise, e);
                t[VQ_ADM_AIM_H + k] = band_total(acc[VQ_ADM_AIM_H + k], noise_aim, e);
            }
            den_scale = t[VQ_ADM_DEN_H] + t[VQ_ADM_DEN_V] + t[VQ_ADM_DEN_D];
            num_scale = t[VQ_ADM_NUM_H] + t[VQ_ADM_NUM_V] + t[VQ_ADM_NUM_D];
            aim_num_scale = t[VQ_ADM_AIM_H] + t[VQ_ADM_AIM_V] + t[VQ_ADM_AIM_D];
        }
        num += num_scale;
        den += den_scale;
        if (p->skip_aim_scale != s) {
            aim_den += den_scale;
            aim_num += aim_num_scale;
        }
        out->num_scale[s] = num_scale;
        out->den_scale[s] = den_scale;
        out->scale[s] = out->num_scale[s] / out->den_scale[s];
    }
    num = num < numden_limit ? 0 : num;
    den = den < numden_limit ? 0 : den;
    if (den == 0.0) {
        snprintf(err, errlen, "float_adm: the denominator is 0 (below libvmaf's limit), where libvmaf's "
                 "compute_adm leaves aim uninitialised (no value to reproduce); a flat reference with "
                 "adm_noise_weight 0 does this");
        return -1;
    }
    /* MIN(aim_num / aim_den, 1.0f) */
    const double aim = aim_num / aim_den;
    out->aim = aim < 1.0f ? aim : 1.0f;
    out->adm2 = num / den;
    out->num = num;
    out->den = den;
    const double score = out->adm2, score_aim = out->aim;
    const double adm3 = p->adm3_apply_hm ? 2 * score * score_aim / (score + score_aim)
                                         : score * p->dlm_weight + (1 - score_aim) * (1 - p->dlm_weight);
    out->adm3 = adm3 > p->min_val ? adm3 : p->min_val;
    return 0;
}
