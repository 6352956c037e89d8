/*
 * float_adm_fold.h - float_adm's host side: its options into the kernels'
 * parameters (the CSF factors with libm, as libvmaf v3.2.0's adm_tools.c
 * and its csf headers compute them), and the row sums into float_adm.c's
 * outputs (adm.c's compute_adm after the loops: the rows added in order,
 * powf(x, 1/p), the noise terms, num/den in double).  docs/float-adm.md.
 */
#ifndef VQ_FLOAT_ADM_FOLD_H
#define VQ_FLOAT_ADM_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "float_adm/float_adm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* float_adm.c's options (defaults in brackets; ranges are libvmaf's) */
typedef struct VqFadmOptions {
    double enhn_gain_limit;     /* egl  [100] */
    double norm_view_dist;      /* nvd  [3] */
    double noise_weight;        /* nw   [0.03125] */
    double csf_scale;           /* scf  [1] */
    double csf_diag_scale;      /* scfd [1] */
    int ref_display_height;     /* rdf  [1080] */
    int csf_mode;               /* csf  [0]: 1 Barten, 2 ADM's native CSF, others Watson 1997 */
    int bypass_cm;              /* bcm  [0] */
    int adm3_apply_hm;          /* aah  [false] */
    double p_norm;              /* apn  [3] */
    double dlm_weight;          /* dlmw [0.5] */
    double min_val;             /* min  [0] */
    double f1s[4], f2s[4];      /* f1s0..3, f2s0..3 [-1]: >= 0 replaces factor1 / factor2 of the scale */
    int skip_aim_scale;         /* sasc [-1] */
    int skip_scale0;            /* ssz  [false] */
} VqFadmOptions;

void vq_fadm_options_default(VqFadmOptions *o);

/* The float CSF factor of scale (0..3) and orientation (0: h and v =
 * factor1, 1: d = factor2) before the f1s/f2s overrides. */
float vq_fadm_csf_factor(const VqFadmOptions *o, int scale, int orient);

/* Fill p for a w x h luma plane of bpc bits.  0, or -1 with the cause in
 * err: a depth picture_copy does not read (it would read 16-bit samples as
 * bytes), a size whose coarsest band is below 2 x 2 (the reference reads
 * outside its buffers), an option outside libvmaf's range. */
int vq_fadm_params_init(VqFadmParams *p, int w, int h, int bpc, const VqFadmOptions *o, int rcp_mode,
                        char *err, size_t errlen);

typedef struct VqFadmScores {
    double adm2, aim, adm3, scale[4];
    /* debug=true: float_adm.c's score, score_num, score_den, scores[] */
    double num, den, num_scale[4], den_scale[4];
} VqFadmScores;

/* One frame's scores from its row words (rows + off[s]: scale s's band
 * rows x VQ_FADM_NSUMS).  0, or -1 with the cause in err when the
 * reference's result is not defined (den 0: it leaves aim uninitialised). */
int vq_fadm_fold(const VqFadmParams *p, const int64_t *rows, const size_t off[VQ_ADM_SCALES],
                 VqFadmScores *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* VQ_FLOAT_ADM_FOLD_H */
