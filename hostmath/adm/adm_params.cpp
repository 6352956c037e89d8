/*
 * adm_params.c - ADM's per-size constants, computed with libm the way
 * libvmaf v3.2.0 integer_adm.c computes them (same expressions, same float
 * storage points).  Built with -ffp-contract=off.
 */
#include <math.h>
#include <string.h>

#include "adm/adm_params.h"

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

static float quant_step(int lambda, int theta, double nvd, int rdh);

/*
 * Barten's CSF as HDR-VDP 2.2.1 simplifies it (libvmaf barten_csf_tools.h):
 * six luminance anchors (cd/m2) with four neural-CSF parameters each, the
 * rod/cone sensitivity's four constants and the optical MTF's four terms.
 * The reference stores all of them as floats.
 */
static const float barten_lum_anchor[6] = { 0.002, 0.02, 0.2, 2, 20, 150 };
static const float barten_ncsf[6][4] = {     /* p1..p4 of each anchor (p0 unused) */
    { 0.991265, 3.74038, 0.50722, 4.46044 },
    { 0.800889, 3.54104, 0.682505, 4.94958 },
    { 0.476505, 4.37453, 0.750315, 5.28678 },
    { 0.405782, 4.40602, 0.935314, 5.61425 },
    { 0.334278, 3.79542, 1.07327, 6.4635 },
    { 0.394533, 2.7755, 1.16577, 7.45665 },
};
static const float barten_sa[4] = { 30.162, 4.0627, 1.6596, 0.2712 };
static const float barten_mtf_a[4] = { 0.424838596301290, 0.572435103936480,
                                       0.000167576239164937, 0.00255872352306433 };
static const float barten_mtf_b[4] = { 0.028, 0.37, 37, 360 };
/* libvmaf's DEFAULT_ADM_CSF_LUM (cd/m2), a double */
#define BARTEN_LUM 100.0

/*
 * The Barten-Watson blends, [orientation: h/v, d][scale], per display height
 * and distance (libvmaf barten_csf_tools.h BLENDED_CSF_<rdh>_<nvd>H and its
 * _MAE twins); floats.  2160 at 1.5H has 1080 at 3H's pixels per degree and
 * uses its table.
 */
typedef float CsfTable[2][4];
static const CsfTable blend_1080_3h = { { 0.01183, 0.025026, 0.04295, 0.058621 },
                                        { 0.004302, 0.011778, 0.023918, 0.035901 } };
static const CsfTable blend_1080_5h = { { 0.004212, 0.014809, 0.029642, 0.047464 },
                                        { 0.000984, 0.005852, 0.0146, 0.027574 } };
static const CsfTable blend_2160_3h = { { 0.00226, 0.01183, 0.025026, 0.04295 },
                                        { 0.000479, 0.004302, 0.011778, 0.023918 } };
static const CsfTable blend_2160_5h = { { 0.000092, 0.004212, 0.014809, 0.029642 },
                                        { 0.000050, 0.000984, 0.005852, 0.0146 } };
static const CsfTable blend_720_3h = { { 0.018715, 0.035637, 0.052798, 0.061509 },
                                       { 0.007999, 0.018396, 0.031851, 0.037718 } };
static const CsfTable blend_720_5h = { { 0.010144, 0.022561, 0.040309, 0.05672 },
                                       { 0.003463, 0.010282, 0.021839, 0.034641 } };
static const CsfTable blend_480_3h = { { 0.027961, 0.045875, 0.060275, 0.056234 },
                                       { 0.013572, 0.026277, 0.036959, 0.034511 } };
static const CsfTable blend_480_5h = { { 0.016781, 0.032822, 0.05032, 0.061594 },
                                       { 0.00691, 0.016545, 0.029917, 0.037777 } };
static const CsfTable mae_1080_3h = { { 0.011249, 0.022606, 0.035930, 0.045673 },
                                      { 0.004097, 0.010921, 0.021430, 0.031313 } };
static const CsfTable mae_1080_5h = { { 0.004052, 0.013939, 0.026298, 0.038833 },
                                      { 0.000927, 0.005544, 0.013415, 0.024515 } };
static const CsfTable mae_2160_3h = { { 0.002166, 0.011249, 0.022606, 0.035930 },
                                      { 0.000447, 0.004097, 0.010921, 0.021430 } };
static const CsfTable mae_2160_5h = { { 0.000077, 0.004052, 0.013939, 0.026298 },
                                      { 0.000045, 0.000927, 0.005544, 0.013415 } };
static const CsfTable mae_720_3h = { { 0.017329, 0.030870, 0.042134, 0.047410 },
                                     { 0.007509, 0.016707, 0.028072, 0.032722 } };
static const CsfTable mae_720_5h = { { 0.009689, 0.020577, 0.034162, 0.044523 },
                                     { 0.003302, 0.009579, 0.019661, 0.030318 } };
static const CsfTable mae_480_3h = { { 0.024969, 0.037825, 0.046676, 0.043974 },
                                     { 0.012511, 0.023424, 0.032139, 0.030166 } };
static const CsfTable mae_480_5h = { { 0.015665, 0.028766, 0.040612, 0.047483 },
                                     { 0.006514, 0.015107, 0.026476, 0.032776 } };

static const struct {
    int rdh;
    double nvd;
    const CsfTable *blend, *mae;
} blend_tables[] = {
    { 1080, 3.0, &blend_1080_3h, &mae_1080_3h },
    { 1080, 5.0, &blend_1080_5h, &mae_1080_5h },
    { 2160, 1.5, &blend_1080_3h, &mae_1080_3h },
    { 2160, 3.0, &blend_2160_3h, &mae_2160_3h },
    { 2160, 5.0, &blend_2160_5h, &mae_2160_5h },
    { 720, 3.0, &blend_720_3h, &mae_720_3h },
    { 720, 5.0, &blend_720_5h, &mae_720_5h },
    { 480, 3.0, &blend_480_3h, &mae_480_3h },
    { 480, 5.0, &blend_480_5h, &mae_480_5h },
};

/* the reference's (rdh, nvd) tests compare exactly */
static const CsfTable *blend_table(const VqAdmOptions *opt)
{
    for (const auto &t : blend_tables)
        if (opt->ref_display_height == t.rdh && opt->norm_view_dist == t.nvd)
            return opt->csf_mode == VQ_ADM_CSF_BLEND_MAE ? t.mae : t.blend;
    return nullptr;
}

/* float interpolation between two anchors, the reference's expression order */
static float lerp_anchor(float x0, float y0, float x1, float y1, float x)
{
    return y0 + ((y1 - y0) / (x1 - x0)) * (x - x0);
}

/* every libm call below takes and returns double, as in the C reference
 * (C++'s float overloads would round differently) */
static float barten_mtf(float rho)
{
    float mtf = 0.0f;
    for (int i = 0; i < 4; i++) {
        const float e = -barten_mtf_b[i] * rho;
        mtf = (double)mtf + (double)barten_mtf_a[i] * exp((double)e);
    }
    return mtf;
}

static float barten_rod_cone(float lum)
{
    const float q = barten_sa[1] / lum;
    const double t = pow((double)q, (double)barten_sa[2]) + 1;
    return (double)barten_sa[0] * pow(t, (double)-barten_sa[3]);
}

static float barten_factor(int scale, double nvd, int rdh, double lum, double k)
{
    const float r = nvd * rdh * M_PI / 180.0;                 /* pixels per degree */
    const float rho = (double)r / pow(2.0, (double)(scale + 1)); /* cycles per degree */
    const double l = lum > (double)barten_lum_anchor[5] ? (double)barten_lum_anchor[5]
                   : lum < (double)barten_lum_anchor[0] ? (double)barten_lum_anchor[0] : lum;
    int lo = 0, hi = 0;
    for (int i = 0; i < 5; i++) {
        if (l >= (double)barten_lum_anchor[i] && l <= (double)barten_lum_anchor[i + 1]) {
            lo = i;
            hi = i + 1;
            break;
        }
    }
    const float x0 = log10((double)barten_lum_anchor[lo]);
    const float x1 = log10((double)barten_lum_anchor[hi]);
    const float x = log10(l);
    float p[4];
    for (int j = 0; j < 4; j++)
        p[j] = lerp_anchor(x0, barten_ncsf[lo][j], x1, barten_ncsf[hi][j], x);
    const float pr = p[0] * rho;
    const float a = 1.0f + pow((double)pr, (double)p[1]);
    const float r7 = rho / 7;
    const float b = 1.0f / pow(1 - exp(-pow((double)r7, 2.0)), (double)p[2]);
    const float ab = a * b;
    const float ncsf = (double)p[3] / pow((double)ab, 0.5);
    const float m = ncsf * barten_mtf(rho);
    const float mr = m * barten_rod_cone((float)lum);
    return (double)mr * k;
}

float vq_adm_csf_factor(const VqAdmOptions *opt, int scale, int orient)
{
    switch (opt->csf_mode) {
    case VQ_ADM_CSF_BARTEN:
        return barten_factor(scale, opt->norm_view_dist, opt->ref_display_height, BARTEN_LUM,
                             orient ? opt->csf_diag_scale : opt->csf_scale);
    case VQ_ADM_CSF_BLEND:
    case VQ_ADM_CSF_BLEND_MAE: {
        const CsfTable *t = blend_table(opt);
        return t ? (*t)[orient][scale] : -22.0f;
    }
    default:
        return 1.0f / quant_step(scale, orient ? 2 : 1, opt->norm_view_dist,
                                 opt->ref_display_height);
    }
}

int vq_adm_csf_supported(const VqAdmOptions *opt)
{
    if (opt->csf_mode == VQ_ADM_CSF_BLEND || opt->csf_mode == VQ_ADM_CSF_BLEND_MAE)
        return blend_table(opt) != nullptr;
    return opt->csf_mode >= VQ_ADM_CSF_WATSON97 && opt->csf_mode <= VQ_ADM_CSF_BLEND_MAE;
}

const char *vq_adm_csf_pairs(void)
{
    return "adm_ref_display_height:adm_norm_view_dist 1080:3, 1080:5, 2160:1.5, 2160:3, "
           "2160:5, 720:5 (720:3, 480:3 and 480:5 have tables but fall below the "
           "nvd * rdh >= 3240 every mode needs)";
}

/* C's conversions of a double to uint16_t / uint32_t as x86-64 compilers
 * emit them (cvttsd2si to a 32 / 64-bit register, the low bits kept): the
 * reference's out-of-range Barten factors wrap this way.  Well defined here. */
static uint16_t to_u16_x86(double d)
{
    if (!(d > -2147483649.0 && d < 2147483648.0))
        return 0;       /* the instruction's 0x80000000 */
    return (uint16_t)(uint32_t)(int32_t)d;
}

static uint32_t to_u32_x86(double d)
{
    if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0))
        return 0;       /* 0x8000000000000000 */
    return (uint32_t)(uint64_t)(int64_t)d;
}

void vq_adm_options_default(VqAdmOptions *opt)
{
    opt->enhn_gain_limit = 100.0;
    opt->norm_view_dist = 3.0;
    opt->ref_display_height = 1080;
    opt->noise_weight = 0.03125;
    opt->dlm_weight = 0.5;
    opt->min_val = 0.0;
    opt->csf_mode = VQ_ADM_CSF_WATSON97;
    opt->csf_scale = 1.0;
    opt->csf_diag_scale = 1.0;
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
        const float factor1 = vq_adm_csf_factor(opt, scale, 0);
        const float factor2 = vq_adm_csf_factor(opt, scale, 1);
        s->rfactor[0] = factor1;
        s->rfactor[1] = factor1;
        s->rfactor[2] = factor2;
    }

    if (scale == 0) {
        if (fabs(opt->norm_view_dist * opt->ref_display_height - 3.0 * 1080) < 1.0e-8 &&
            opt->csf_mode == VQ_ADM_CSF_WATSON97) {
            s->i_rfactor[0] = 36453;
            s->i_rfactor[1] = 36453;
            s->i_rfactor[2] = 49417;
        } else {
            const double pow2_21 = pow(2, 21), pow2_23 = pow(2, 23);
            s->i_rfactor[0] = to_u16_x86(s->rfactor[0] * pow2_21);
            s->i_rfactor[1] = to_u16_x86(s->rfactor[1] * pow2_21);
            s->i_rfactor[2] = to_u16_x86(s->rfactor[2] * pow2_23);
        }
    } else {
        const double pow2_32 = pow(2, 32);
        for (i = 0; i < 3; i++)
            s->i_rfactor[i] = to_u32_x86(s->rfactor[i] * pow2_32);
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
        opt->norm_view_dist * opt->ref_display_height < 3.0 * 1080 ||
        !(opt->csf_scale >= 0.0 && opt->csf_scale <= 50.0) ||
        !(opt->csf_diag_scale >= 0.0 && opt->csf_diag_scale <= 50.0) ||
        !vq_adm_csf_supported(opt))
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
