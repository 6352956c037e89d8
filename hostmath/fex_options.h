/*
 * fex_options.h - libvmaf v3.2.0's feature extractors as a model names
 * them: which extractor provides a feature, the extractors' options (as
 * libvmaf parses them out of a model's feature_opts_dicts), and the feature
 * names those options give (feature_name.c, alias.c):
 *
 *   no option off its default:  the name as is (printed through alias.c);
 *   otherwise:                   alias(name) + "_<alias>_<value>" for each
 *                                non-default FEATURE_PARAM option, in
 *                                alphabetical order of option name (bool:
 *                                "_<alias>"; double: %g; int: %d).
 *   e.g. VMAF_integer_feature_vif_scale0_score, egl 1 -> integer_vif_scale0_egl_1
 */
#ifndef VQ_FEX_OPTIONS_H
#define VQ_FEX_OPTIONS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum VqFex {
    VQ_FEX_NONE = 0,    /* no extractor vqcuda implements provides the feature */
    VQ_FEX_VIF,         /* "vif"    integer_vif.c */
    VQ_FEX_ADM,         /* "adm"    integer_adm.c */
    VQ_FEX_MOTION,      /* "motion" integer_motion.c */
    VQ_FEX_PSNR,        /* "psnr"   integer_psnr.c */
    VQ_FEX_COUNT
};

/* Every option of those extractors, as parsed values (libvmaf's names). */
typedef struct VqFexOptions {
    /* vif */
    int vif_debug;                  /* [false] */
    double vif_enhn_gain_limit;     /* egl [100.0] */
    int vif_skip_scale0;            /* ssclz [false] */
    /* adm */
    int adm_debug;                  /* [false] */
    double adm_csf_scale;           /* scf [1.0] */
    double adm_csf_diag_scale;      /* scfd [1.0] */
    double adm_dlm_weight;          /* dlmw [0.5] */
    double adm_enhn_gain_limit;     /* egl [100.0] */
    double adm_norm_view_dist;      /* nvd [3.0] */
    int adm_ref_display_height;     /* rdh [1080] */
    int adm_csf_mode;               /* csf [0] (Watson 1997) */
    double adm_noise_weight;        /* nw [0.03125] */
    int adm_skip_aim;               /* [false] */
    int adm_skip_scale0;            /* ssz [false] */
    double adm_min_val;             /* min [0.0] */
    /* motion */
    int motion_force_zero;          /* force_0 [false] */
    double motion_blend_factor;     /* mbf [1.0] */
    double motion_blend_offset;     /* mbo [40.0] */
    double motion_fps_weight;       /* mfw [1.0] */
    double motion_max_val;          /* mmxv [10000.0] */
    int motion_five_frame_window;   /* mffw [false] */
    int motion_moving_average;      /* mma [false] */
    int motion_debug;               /* [false] */
    /* psnr */
    int psnr_enable_chroma;         /* [true] */
    int psnr_enable_mse;            /* [false] */
    int psnr_enable_apsnr;          /* [false] */
    int psnr_reduced_hbd_peak;      /* [false] */
    double psnr_min_sse;            /* [0.0] */
} VqFexOptions;

void vq_fex_options_default(VqFexOptions *o);

/* The extractor providing a feature, by its collector name (model JSON). */
enum VqFex vq_fex_of_feature(const char *name);
const char *vq_fex_name(enum VqFex fex);   /* "vif", "adm", ... */

/* alias.c: the printed name of a collector name (itself if it has none) */
const char *vq_feature_alias(const char *name);

/*
 * Set option `key` of extractor fex from a model dictionary value `val`
 * (already normalised as libvmaf's dictionary does, see
 * vq_fex_normalize_number), with opt.c's checks.  A key that is no option
 * of fex is ignored (libvmaf looks up only its own options).  0, or -1 with
 * a message.
 */
int vq_fex_option_set(VqFexOptions *o, enum VqFex fex, const char *key, const char *val,
                      char *err, size_t errlen);

/* dict.c VMAF_DICT_NORMALIZE_NUMERICAL_VALUES: "%g" of strtof(text) ("1.0" -> "1") */
void vq_fex_normalize_number(const char *text, char *buf, size_t n);

/* copy the options of fex (only those) from src to dst */
void vq_fex_options_copy(VqFexOptions *dst, const VqFexOptions *src, enum VqFex fex);
/* 1 when every option of fex equals the other's (a, b: all of fex's fields) */
int vq_fex_options_equal(const VqFexOptions *a, const VqFexOptions *b, enum VqFex fex);
/* 1 when every FEATURE_PARAM option of fex is at its default */
int vq_fex_options_default_names(const VqFexOptions *o, enum VqFex fex);

/* The suffix the options give to every feature of fex ("" or "_egl_1"...). */
void vq_fex_name_suffix(const VqFexOptions *o, enum VqFex fex, char *buf, size_t n);
/* The printed name of feature `name` of fex under these options. */
void vq_fex_printed_name(const char *name, enum VqFex fex, const VqFexOptions *o,
                         char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* VQ_FEX_OPTIONS_H */
