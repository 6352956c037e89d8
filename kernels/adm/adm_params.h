/*
 * adm_params.h - everything integer ADM needs besides the pixels, computed
 * once per frame size on the host with libm exactly as libvmaf v3.2.0 does
 * (integer_adm.c): band sizes, the two border rectangles, the fixed-point
 * CSF factors, every shift and rounding add.  The struct holds no pointers
 * so kernels take it by value (__global__ parameter).  The struct lives
 * here, with the kernels that read it; hostmath/adm/adm_params.cpp fills it
 * (its libm calls run on the host only).
 *
 * All four contrast sensitivity functions (adm_csf_mode 0 Watson 1997,
 * 1 Barten, 2 the Barten-Watson blend table, 3 its MAE table) change only
 * the per-scale factors below (docs/adm_csf.md); adm_skip_scale0 and
 * adm_skip_aim change only the host fold (hostmath/adm/adm_fold.h,
 * vq_adm_fold_skip): the kernels compute every scale either way.
 */
#ifndef VQ_ADM_PARAMS_H
#define VQ_ADM_PARAMS_H

#include <stdint.h>

#include "vq_rows.h"

#ifdef __cplusplus
extern "C" {
#endif

/* libvmaf's adm options that change the arithmetic (defaults in brackets) */
typedef struct VqAdmOptions {
    double enhn_gain_limit;     /* egl  [100.0], 1.0 in the "neg" models */
    double norm_view_dist;      /* nvd  [3.0] */
    int ref_display_height;     /* rdh  [1080] */
    double noise_weight;        /* nw   [0.03125] */
    double dlm_weight;          /* dlmw [0.5], adm3 only */
    double min_val;             /* min  [0.0], adm3 only */
    int csf_mode;               /* csf  [0]: VQ_ADM_CSF_* */
    double csf_scale;           /* scf  [1.0], csf_mode 1 only: h and v factor */
    double csf_diag_scale;      /* scfd [1.0], csf_mode 1 only: d factor */
} VqAdmOptions;

/* libvmaf's enum ADM_CSF_MODE (integer_adm.h) */
enum {
    VQ_ADM_CSF_WATSON97 = 0,
    VQ_ADM_CSF_BARTEN = 1,
    VQ_ADM_CSF_BLEND = 2,
    VQ_ADM_CSF_BLEND_MAE = 3,
};

/* [left, right) x [top, bottom) in band samples */
typedef struct VqAdmRect {
    int32_t left, top, right, bottom;
} VqAdmRect;

typedef struct VqAdmScaleParams {
    int32_t in_w, in_h;         /* DWT input size of this scale */
    int32_t w, h;               /* band size: (in + 1) / 2 */
    VqAdmRect cm;               /* CM numerator and denominator rect */
    VqAdmRect dec;              /* decouple/CSF rect: cm grown by the 3x3 neighbourhood */
    float rfactor[3];           /* the CSF factor for h, v, d (Watson: 1 / Q(lambda, theta)) */
    /* scale 0: Q21, Q21, Q23 (uint16 values; hard-coded {36453, 36453, 49417}
     * for Watson at nvd * rdh == 3240); scales 1-3: (uint32)(rfactor * 2^32);
     * both wrap modulo 2^16 / 2^32 as the reference's x86-64 conversions do
     * (Barten's factors exceed the formats) */
    uint32_t i_rfactor[3];
    /* denominator, per pixel (scales 1-3): ((x*x + add_sq) >> shift_sq) * x + add_cub >> shift_cub */
    uint32_t den_shift_sq, den_add_sq;
    uint32_t den_shift_cub, den_add_cub;
    /* denominator, per row: acc += (row + den_add_row) >> den_shift_row */
    uint32_t den_shift_row;
    uint64_t den_add_row;
    /* CM, per pixel: ((xsq * x) + cm_add_cub[o]) >> cm_shift_cub[o]  (o = h, v, d) */
    uint32_t cm_shift_cub[3], cm_add_cub[3];
    /* CM, per row: acc += (row + cm_add_row) >> cm_shift_row */
    uint32_t cm_shift_row, cm_add_row;
} VqAdmScaleParams;

typedef struct VqAdmParams {
    int32_t w, h, bpc;          /* luma size and bit depth of the input */
    double egl;                 /* enhancement gain limit (decouple) */
    float cos_1deg_sq;          /* (float)(cos(pi/180)^2), the angle test's constant */
    double noise_weight, dlm_weight, min_val;
    VqAdmScaleParams s[VQ_ADM_SCALES];
} VqAdmParams;

void vq_adm_options_default(VqAdmOptions *opt);

/*
 * The float CSF factor of a scale (0..3) and orientation (0: h and v, 1: d)
 * as libvmaf computes it for opt's csf_mode, nvd, rdh (and the Barten
 * scales).  Modes 2 and 3 return -22.0f (the reference's -EINVAL as a
 * float) for a display height / distance pair without a table.
 */
float vq_adm_csf_factor(const VqAdmOptions *opt, int scale, int orient);

/* 1 when opt's csf_mode has factors for its nvd / rdh (modes 0 and 1: any) */
int vq_adm_csf_supported(const VqAdmOptions *opt);

/* the (rdh, nvd) pairs modes 2 and 3 have tables for, as text */
const char *vq_adm_csf_pairs(void);

/*
 * Fill p for a w x h luma plane of bpc bits (8..16).  opt NULL: defaults.
 * Returns 0, or -1 when the reference cannot handle the size (w or h < 33:
 * its DWT index tables and CM shifts break) or the options (nvd * rdh < 3240
 * makes libvmaf's extract fail; egl < 1; bpc out of range; csf_mode 2 or 3
 * with a pair vq_adm_csf_supported refuses).
 */
int vq_adm_params_init(VqAdmParams *p, int w, int h, int bpc, const VqAdmOptions *opt);

#ifdef __cplusplus
}
#endif
#endif /* VQ_ADM_PARAMS_H */
