/*
 * adm_params.c - ADM's per-size constants, computed with libm the way
 * libvmaf v3.2.0 integer_adm.c computes them (same expressions, same float
 * storage points).  Built with -ffp-contract=off.
 */
#include <math.h>
#include <string.h>

#include "adm_params.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* libvmaf ADM_BORDER_FACTOR, a double */
#define ADM_BORDER_FACTOR 0.1

/* Watson et al. 1997, luma: the reference keeps these as floats */
static const float watson_a = 0.495;
static const float watson_k = 0.466;
static const float watson_f0 = 0.401;
static const float watson_g[4] = { 1.501, 1.0, 0.534, 1.0 };
static const float watson_amplitude[4][4] = {
    { 0.62171, 0.67234, 0.72709, 0.67234 },
    { 0.34537, 0.41317, 0.49428, 0.41317 },
    { 0.18004, 0.22727, 0.28688, 0.22727 },
    { 0.091401, 0.11792, 0.15214, 0.11792 },
};

void vq_adm_options_default(VqAdmOptions *opt)
{
    opt->enhn_gain_limit = 100.0;
    opt->norm_view_dist = 3.0;
    opt->ref_display_height = 1080;
    opt->noise_weight = 0.03125;
    opt->dlm_weight = 0.5;
    opt->min_val = 0.0;
}

/* dwt_quant_step(): float r, float temp, float Q; k*temp*temp is float math */
static float quant_step(int lambda, int theta, double nvd, int rdh)
{
    const float r = nvd * rdh * M_PI / 180.0;
    const float temp = log10(pow(2.0, lambda + 1) * watson_f0 * watson_g[theta] / r);
    const float q = 2.0 * watson_a * pow(10.0, watson_k * temp * temp) /
                    watson_amplitude[lambda][theta];
    return q;
}

/* (uint32_t)pow(2, shift - 1) with the reference's unsigned exponent; shift
 * 0 would make pow() infinite there (undefined), it never occurs for
 * accepted sizes */
static uint32_t pow2_minus1(uint32_t shift)
{
    return shift ? (uint32_t)pow(2, shift - 1) : 0;
}

static void scale_params(VqAdmScaleParams *s, int scale, int in_w, int in_h,
                         const VqAdmOptions *opt)
{
    const int w = (in_w + 1) / 2, h = (in_h + 1) / 2;
    int i;

    s->in_w = in_w;
    s->in_h = in_h;
    s->w = w;
    s->h = h;

    /* adm_cm / adm_csf_den_*: (int)(w * 0.1 - 0.5), truncation */
    s->cm.left = w * ADM_BORDER_FACTOR - 0.5;
    s->cm.top = h * ADM_BORDER_FACTOR - 0.5;
    s->cm.right = w - s->cm.left;
    s->cm.bottom = h - s->cm.top;

    /* adm_decouple / adm_csf: "- 0.5 - 1" evaluated left to right, then clamped */
    {
        int left = w * ADM_BORDER_FACTOR - 0.5 - 1;
        int top = h * ADM_BORDER_FACTOR - 0.5 - 1;
        int right = w - left + 2;
        int bottom = h - top + 2;
        s->dec.left = left < 0 ? 0 : left;
        s->dec.top = top < 0 ? 0 : top;
        s->dec.right = right > w ? w : right;
        s->dec.bottom = bottom > h ? h : bottom;
    }

    {
        const float factor1 = 1.0f / quant_step(scale, 1, opt->norm_view_dist,
                                                opt->ref_display_height);
        const float factor2 = 1.0f / quant_step(scale, 2, opt->norm_view_dist,
                                                opt->ref_display_height);
        s->rfactor[0] = factor1;
        s->rfactor[1] = factor1;
        s->rfactor[2] = factor2;
    }

    if (scale == 0) {
        if (fabs(opt->norm_view_dist * opt->ref_display_height - 3.0 * 1080) < 1.0e-8) {
            s->i_rfactor[0] = 36453;
            s->i_rfactor[1] = 36453;
            s->i_rfactor[2] = 49417;
        } else {
            const double pow2_21 = pow(2, 21), pow2_23 = pow(2, 23);
            s->i_rfactor[0] = (uint16_t)(s->rfactor[0] * pow2_21);
            s->i_rfactor[1] = (uint16_t)(s->rfactor[1] * pow2_21);
            s->i_rfactor[2] = (uint16_t)(s->rfactor[2] * pow2_23);
        }
    } else {
        const double pow2_32 = pow(2, 32);
        for (i = 0; i < 3; i++)
            s->i_rfactor[i] = (uint32_t)(s->rfactor[i] * pow2_32);
    }

    if (scale == 0) {
        /* adm_csf_den_scale */
        int32_t shift = (int32_t)ceil(log2((s->cm.bottom - s->cm.top) *
                                           (s->cm.right - s->cm.left)) - 20);
        shift = shift > 0 ? shift : 0;
        s->den_shift_sq = 0;
        s->den_add_sq = 0;
        s->den_shift_cub = 0;
        s->den_add_cub = 0;
        s->den_shift_row = (uint32_t)shift;
        s->den_add_row = shift > 0 ? (uint64_t)(1 << (shift - 1)) : 0;

        /* adm_cm */
        s->cm_shift_cub[0] = (uint32_t)ceil(log2(w) - 4);
        s->cm_shift_cub[1] = (uint32_t)ceil(log2(w) - 4);
        s->cm_shift_cub[2] = (uint32_t)ceil(log2(w) - 3);
    } else {
        /* adm_csf_den_s123; the +2^shift_sq (not 2^(shift_sq-1)) is the reference's */
        static const uint32_t shift_sq[3] = { 31, 30, 31 };
        s->den_shift_sq = shift_sq[scale - 1];
        s->den_add_sq = 1u << shift_sq[scale - 1];
        s->den_shift_cub = (uint32_t)ceil(log2(s->cm.right - s->cm.left));
        s->den_add_cub = pow2_minus1(s->den_shift_cub);
        s->den_shift_row = (uint32_t)ceil(log2(s->cm.bottom - s->cm.top));
        s->den_add_row = pow2_minus1(s->den_shift_row);

        /* i4_adm_cm */
        for (i = 0; i < 3; i++)
            s->cm_shift_cub[i] = (uint32_t)ceil(log2(w));
    }
    for (i = 0; i < 3; i++)
        s->cm_add_cub[i] = pow2_minus1(s->cm_shift_cub[i]);
    s->cm_shift_row = (uint32_t)ceil(log2(h));
    s->cm_add_row = pow2_minus1(s->cm_shift_row);
}

int vq_adm_params_init(VqAdmParams *p, int w, int h, int bpc, const VqAdmOptions *opt)
{
    VqAdmOptions def;
    int scale, in_w = w, in_h = h;

    if (!opt) {
        vq_adm_options_default(&def);
        opt = &def;
    }
    /* below 33 a scale's input falls under 5 samples: the reference's DWT
     * index tables read out of bounds, its CM cube shift goes negative */
    if (w < 33 || h < 33 || bpc < 8 || bpc > 16)
        return -1;
    /* libvmaf's option ranges, and extract()'s -EINVAL for nvd * rdh < 3 * 1080 */
    if (!(opt->enhn_gain_limit >= 1.0 && opt->enhn_gain_limit <= 100.0) ||
        !(opt->norm_view_dist >= 0.75 && opt->norm_view_dist <= 24.0) ||
        opt->ref_display_height < 1 || opt->ref_display_height > 4320 ||
        !(opt->noise_weight >= 0.0 && opt->noise_weight <= 1500.0) ||
        !(opt->dlm_weight >= 0.0 && opt->dlm_weight <= 1.0) ||
        !(opt->min_val >= 0.0 && opt->min_val <= 1.0) ||
        opt->norm_view_dist * opt->ref_display_height < 3.0 * 1080)
        return -1;

    memset(p, 0, sizeof(*p));
    p->w = w;
    p->h = h;
    p->bpc = bpc;
    p->egl = opt->enhn_gain_limit;
    p->cos_1deg_sq = cos(1.0 * M_PI / 180.0) * cos(1.0 * M_PI / 180.0);
    p->noise_weight = opt->noise_weight;
    p->dlm_weight = opt->dlm_weight;
    p->min_val = opt->min_val;
    for (scale = 0; scale < VQ_ADM_SCALES; scale++) {
        scale_params(&p->s[scale], scale, in_w, in_h, opt);
        in_w = p->s[scale].w;
        in_h = p->s[scale].h;
    }
    return 0;
}
