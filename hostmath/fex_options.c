/* fex_options.c - see fex_options.h.  Tables copied in spirit (not code)
 * from libvmaf v3.2.0's integer_vif.c, integer_adm.c, integer_motion.c,
 * integer_psnr.c option tables and alias.c. */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_locale.h"
#include "fex_options.h"

typedef enum OptType { OPT_BOOL, OPT_INT, OPT_DOUBLE } OptType;

typedef struct OptDesc {
    enum VqFex fex;
    const char *name;       /* libvmaf's option name (dictionary key) */
    const char *alias;      /* name in feature names; NULL: none */
    OptType type;
    size_t off;
    double def, min, max;
    int feature_param;      /* VMAF_OPT_FLAG_FEATURE_PARAM: names carry it */
} OptDesc;

#define O(f) offsetof(VqFexOptions, f)
/* grouped by extractor, in its option table's order */
static const OptDesc opts[] = {
    { VQ_FEX_VIF, "debug", NULL, OPT_BOOL, O(vif_debug), 0, 0, 0, 0 },
    { VQ_FEX_VIF, "vif_enhn_gain_limit", "egl", OPT_DOUBLE, O(vif_enhn_gain_limit), 100.0, 1.0, 100.0, 1 },
    { VQ_FEX_VIF, "vif_skip_scale0", "ssclz", OPT_BOOL, O(vif_skip_scale0), 0, 0, 0, 1 },

    { VQ_FEX_ADM, "adm_csf_diag_scale", "scfd", OPT_DOUBLE, O(adm_csf_diag_scale), 1.0, 0.0, 50.0, 1 },
    { VQ_FEX_ADM, "adm_csf_mode", "csf", OPT_INT, O(adm_csf_mode), 0, 0, 3, 1 },
    { VQ_FEX_ADM, "adm_csf_scale", "scf", OPT_DOUBLE, O(adm_csf_scale), 1.0, 0.0, 50.0, 1 },
    { VQ_FEX_ADM, "adm_dlm_weight", "dlmw", OPT_DOUBLE, O(adm_dlm_weight), 0.5, 0.0, 1.0, 1 },
    { VQ_FEX_ADM, "adm_enhn_gain_limit", "egl", OPT_DOUBLE, O(adm_enhn_gain_limit), 100.0, 1.0, 100.0, 1 },
    { VQ_FEX_ADM, "adm_min_val", "min", OPT_DOUBLE, O(adm_min_val), 0.0, 0.0, 1.0, 1 },
    { VQ_FEX_ADM, "adm_noise_weight", "nw", OPT_DOUBLE, O(adm_noise_weight), 0.03125, 0.0, 1500.0, 1 },
    { VQ_FEX_ADM, "adm_norm_view_dist", "nvd", OPT_DOUBLE, O(adm_norm_view_dist), 3.0, 0.75, 24.0, 1 },
    { VQ_FEX_ADM, "adm_ref_display_height", "rdh", OPT_INT, O(adm_ref_display_height), 1080, 1, 4320, 1 },
    { VQ_FEX_ADM, "adm_skip_aim", NULL, OPT_BOOL, O(adm_skip_aim), 0, 0, 0, 0 },
    { VQ_FEX_ADM, "adm_skip_scale0", "ssz", OPT_BOOL, O(adm_skip_scale0), 0, 0, 0, 1 },
    { VQ_FEX_ADM, "debug", NULL, OPT_BOOL, O(adm_debug), 0, 0, 0, 0 },

    { VQ_FEX_MOTION, "debug", NULL, OPT_BOOL, O(motion_debug), 0, 0, 0, 0 },
    { VQ_FEX_MOTION, "motion_blend_factor", "mbf", OPT_DOUBLE, O(motion_blend_factor), 1.0, 0.0, 1.0, 1 },
    { VQ_FEX_MOTION, "motion_blend_offset", "mbo", OPT_DOUBLE, O(motion_blend_offset), 40.0, 0.0, 1000.0, 1 },
    { VQ_FEX_MOTION, "motion_five_frame_window", "mffw", OPT_BOOL, O(motion_five_frame_window), 0, 0, 0, 1 },
    { VQ_FEX_MOTION, "motion_force_zero", "force_0", OPT_BOOL, O(motion_force_zero), 0, 0, 0, 1 },
    { VQ_FEX_MOTION, "motion_fps_weight", "mfw", OPT_DOUBLE, O(motion_fps_weight), 1.0, 0.0, 5.0, 1 },
    { VQ_FEX_MOTION, "motion_max_val", "mmxv", OPT_DOUBLE, O(motion_max_val), 10000.0, 0.0, 10000.0, 1 },
    { VQ_FEX_MOTION, "motion_moving_average", "mma", OPT_BOOL, O(motion_moving_average), 0, 0, 0, 1 },

    { VQ_FEX_PSNR, "enable_apsnr", NULL, OPT_BOOL, O(psnr_enable_apsnr), 0, 0, 0, 0 },
    { VQ_FEX_PSNR, "enable_chroma", NULL, OPT_BOOL, O(psnr_enable_chroma), 1, 0, 0, 0 },
    { VQ_FEX_PSNR, "enable_mse", NULL, OPT_BOOL, O(psnr_enable_mse), 0, 0, 0, 0 },
    { VQ_FEX_PSNR, "min_sse", NULL, OPT_DOUBLE, O(psnr_min_sse), 0.0, 0.0, DBL_MAX, 0 },
    { VQ_FEX_PSNR, "reduced_hbd_peak", NULL, OPT_BOOL, O(psnr_reduced_hbd_peak), 0, 0, 0, 0 },
};
#undef O
#define N_OPTS (sizeof(opts) / sizeof(opts[0]))

static int *int_at(VqFexOptions *o, const OptDesc *d) { return (int *)((char *)o + d->off); }
static double *dbl_at(VqFexOptions *o, const OptDesc *d) { return (double *)((char *)o + d->off); }
static int int_of(const VqFexOptions *o, const OptDesc *d) { return *(const int *)((const char *)o + d->off); }
static double dbl_of(const VqFexOptions *o, const OptDesc *d) { return *(const double *)((const char *)o + d->off); }

void vq_fex_options_default(VqFexOptions *o)
{
    size_t i;
    memset(o, 0, sizeof(*o));
    for (i = 0; i < N_OPTS; i++) {
        if (opts[i].type == OPT_DOUBLE)
            *dbl_at(o, &opts[i]) = opts[i].def;
        else
            *int_at(o, &opts[i]) = (int)opts[i].def;
    }
}

static const char *const vif_features[] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score",
    "integer_vif", "integer_vif_num", "integer_vif_den", "integer_vif_num_scale0",
    "integer_vif_den_scale0", "integer_vif_num_scale1", "integer_vif_den_scale1",
    "integer_vif_num_scale2", "integer_vif_den_scale2", "integer_vif_num_scale3",
    "integer_vif_den_scale3", NULL
};
static const char *const adm_features[] = {
    "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score", "integer_adm_scale0", "integer_adm_scale1",
    "integer_adm_scale2", "integer_adm_scale3", "integer_adm", "integer_adm_num",
    "integer_adm_den", "integer_adm_num_scale0", "integer_adm_den_scale0",
    "integer_adm_num_scale1", "integer_adm_den_scale1", "integer_adm_num_scale2",
    "integer_adm_den_scale2", "integer_adm_num_scale3", "integer_adm_den_scale3", NULL
};
static const char *const motion_features[] = {
    "VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_score",
    "VMAF_integer_feature_motion2_score", "VMAF_integer_feature_motion3_score", NULL
};
static const char *const psnr_features[] = { "psnr_y", "psnr_cb", "psnr_cr", NULL };

enum VqFex vq_fex_of_feature(const char *name)
{
    static const struct { enum VqFex fex; const char *const *list; } lists[] = {
        /* libvmaf's extractor list order: adm, motion, vif after psnr */
        { VQ_FEX_PSNR, psnr_features }, { VQ_FEX_ADM, adm_features },
        { VQ_FEX_MOTION, motion_features }, { VQ_FEX_VIF, vif_features },
    };
    size_t i, j;
    if (!name)
        return VQ_FEX_NONE;
    for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
        for (j = 0; lists[i].list[j]; j++)
            if (!strcmp(name, lists[i].list[j]))
                return lists[i].fex;
    return VQ_FEX_NONE;
}

const char *vq_fex_name(enum VqFex fex)
{
    switch (fex) {
    case VQ_FEX_VIF: return "vif";
    case VQ_FEX_ADM: return "adm";
    case VQ_FEX_MOTION: return "motion";
    case VQ_FEX_PSNR: return "psnr";
    default: return "none";
    }
}

const char *vq_feature_alias(const char *name)
{
    static const char *const map[][2] = {
        { "VMAF_feature_adm2_score", "adm2" },
        { "VMAF_feature_aim_score", "aim" },
        { "VMAF_feature_adm3_score", "adm3" },
        { "VMAF_feature_adm_scale0_score", "adm_scale0" },
        { "VMAF_feature_adm_scale1_score", "adm_scale1" },
        { "VMAF_feature_adm_scale2_score", "adm_scale2" },
        { "VMAF_feature_adm_scale3_score", "adm_scale3" },
        { "VMAF_feature_motion_score", "motion" },
        { "VMAF_feature_motion2_score", "motion2" },
        { "VMAF_feature_motion3_score", "motion3" },
        { "VMAF_feature_vif_scale0_score", "vif_scale0" },
        { "VMAF_feature_vif_scale1_score", "vif_scale1" },
        { "VMAF_feature_vif_scale2_score", "vif_scale2" },
        { "VMAF_feature_vif_scale3_score", "vif_scale3" },
        { "VMAF_integer_feature_adm2_score", "integer_adm2" },
        { "VMAF_integer_feature_aim_score", "integer_aim" },
        { "VMAF_integer_feature_adm3_score", "integer_adm3" },
        { "VMAF_integer_feature_motion_score", "integer_motion" },
        { "VMAF_integer_feature_motion2_score", "integer_motion2" },
        { "VMAF_integer_feature_motion3_score", "integer_motion3" },
        { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0" },
        { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1" },
        { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2" },
        { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3" },
        { "Cambi_feature_cambi_score", "cambi" },
        { "Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u" },
        { "Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v" },
        { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv" },
        { "Speed_temporal_feature_speed_temporal_score", "speed_temporal" },
    };
    size_t i;
    for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (!strcmp(name, map[i][0]))
            return map[i][1];
    return name;
}

static void errf(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, a, b);
}

int vq_fex_option_set(VqFexOptions *o, enum VqFex fex, const char *key, const char *val,
                      char *err, size_t errlen)
{
    size_t i;
    for (i = 0; i < N_OPTS; i++) {
        const OptDesc *d = &opts[i];
        if (d->fex != fex || strcmp(d->name, key))
            continue;
        switch (d->type) {
        case OPT_BOOL:      /* opt.c set_option_bool */
            if (!strcmp(val, "true"))
                *int_at(o, d) = 1;
            else if (!strcmp(val, "false"))
                *int_at(o, d) = 0;
            else
                goto bad;
            return 0;
        case OPT_INT: {     /* opt.c set_option_int: atoi, 0 only from "0..." */
            const long n = strtol(val, NULL, 10);
            if (n < INT32_MIN || n > INT32_MAX)
                goto bad;
            if ((n == 0 && val[0] != '0') || n < d->min || n > d->max)
                goto bad;
            *int_at(o, d) = (int)n;
            return 0;
        }
        case OPT_DOUBLE: {  /* opt.c set_option_double: atof */
            const double n = vq_strtod_c(val, NULL);
            if ((n == 0 && val[0] != '0') || n < d->min || n > d->max)
                goto bad;
            *dbl_at(o, d) = n;
            return 0;
        }
        }
bad:
        errf(err, errlen, "option %s: bad or out-of-range value '%s'", key, val);
        return -1;
    }
    return 0;   /* not an option of this extractor: libvmaf never reads it */
}

void vq_fex_normalize_number(const char *text, char *buf, size_t n)
{
    char *end = NULL;
    const double d = vq_strtof_c(text, &end);
    if (d == 0 && end == text)
        snprintf(buf, n, "%s", text);
    else
        vq_snprintf_c(buf, n, "%g", d);
}

static int opt_is_default(const VqFexOptions *o, const OptDesc *d)
{
    if (d->type == OPT_DOUBLE)
        return dbl_of(o, d) == d->def;
    if (d->type == OPT_BOOL)
        return !int_of(o, d) == !d->def;
    return int_of(o, d) == (int)d->def;
}

void vq_fex_options_copy(VqFexOptions *dst, const VqFexOptions *src, enum VqFex fex)
{
    size_t i;
    for (i = 0; i < N_OPTS; i++) {
        const OptDesc *d = &opts[i];
        if (d->fex != fex)
            continue;
        if (d->type == OPT_DOUBLE)
            *dbl_at(dst, d) = dbl_of(src, d);
        else
            *int_at(dst, d) = int_of(src, d);
    }
}

int vq_fex_options_equal(const VqFexOptions *a, const VqFexOptions *b, enum VqFex fex)
{
    size_t i;
    for (i = 0; i < N_OPTS; i++) {
        const OptDesc *d = &opts[i];
        if (d->fex != fex)
            continue;
        if (d->type == OPT_DOUBLE ? dbl_of(a, d) != dbl_of(b, d) : int_of(a, d) != int_of(b, d))
            return 0;
    }
    return 1;
}

int vq_fex_options_default_names(const VqFexOptions *o, enum VqFex fex)
{
    size_t i;
    for (i = 0; i < N_OPTS; i++)
        if (opts[i].fex == fex && opts[i].feature_param && !opt_is_default(o, &opts[i]))
            return 0;
    return 1;
}

static size_t cat(char *buf, size_t n, size_t len, const char *fmt, ...)
{
    va_list ap;
    int r;
    if (len >= n)
        return len;
    va_start(ap, fmt);
    r = vq_vsnprintf_c(buf + len, n - len, fmt, ap);
    va_end(ap);
    return r < 0 ? len : len + (size_t)r;
}

void vq_fex_name_suffix(const VqFexOptions *o, enum VqFex fex, char *buf, size_t n)
{
    const OptDesc *sel[N_OPTS];
    size_t i, j, k = 0, len = 0;
    if (n)
        buf[0] = 0;
    for (i = 0; i < N_OPTS; i++)
        if (opts[i].fex == fex && opts[i].feature_param && !opt_is_default(o, &opts[i]))
            sel[k++] = &opts[i];
    /* libvmaf sorts the options' dictionary by name (strcmp) */
    for (i = 1; i < k; i++)
        for (j = i; j > 0 && strcmp(sel[j - 1]->name, sel[j]->name) > 0; j--) {
            const OptDesc *t = sel[j];
            sel[j] = sel[j - 1];
            sel[j - 1] = t;
        }
    for (i = 0; i < k; i++) {
        const OptDesc *d = sel[i];
        if (d->type == OPT_BOOL)
            len = cat(buf, n, len, "_%s", d->alias);
        else if (d->type == OPT_INT)
            len = cat(buf, n, len, "_%s_%d", d->alias, int_of(o, d));
        else
            len = cat(buf, n, len, "_%s_%g", d->alias, dbl_of(o, d));
    }
}

void vq_fex_printed_name(const char *name, enum VqFex fex, const VqFexOptions *o,
                         char *buf, size_t n)
{
    char suffix[128];
    vq_fex_name_suffix(o, fex, suffix, sizeof(suffix));
    snprintf(buf, n, "%s%s", vq_feature_alias(name), suffix);
}
