/*
 * ssim_fold.h - float_ssim and float_ms_ssim on the host, from the
 * executor's sums (kernels/ssim/ssim_exec.h), with libvmaf v3.2.0's types and
 * formulas; and the size checks, with the reference's refusals.
 * Built with -ffp-contract=off.
 */
#ifndef VQ_SSIM_FOLD_H
#define VQ_SSIM_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "ssim/ssim_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The options of one extractor (float_ssim's or float_ms_ssim's; defaults
 * all 0).  float_ssim's "scale" goes to vq_ssim_geom_init instead. */
typedef struct VqSsimOptions {
    int enable_lcs;   /* the _l/_c/_s outputs (vq_ssim_outputs; the fold always
                       * fills them: the executors always make their sums) */
    int enable_db;    /* the score as -10 log10(1 - score) ... */
    int clip_db;      /* ... at most ceil(10 log10(peak^2 / (0.5 / (w h)))) */
} VqSsimOptions;

typedef struct VqSsimScores {
    double float_ssim;                   /* float_ssim */
    double ssim_l, ssim_c, ssim_s;       /* float_ssim_l, _c, _s */
    double float_ms_ssim;                /* float_ms_ssim */
    double ms_l[VQ_MS_SSIM_SCALES];      /* float_ms_ssim_l_scale0..4 */
    double ms_c[VQ_MS_SSIM_SCALES];      /* float_ms_ssim_c_scale0..4 */
    double ms_s[VQ_MS_SSIM_SCALES];      /* float_ms_ssim_s_scale0..4 */
} VqSsimScores;

/*
 * The scores of g->features from words (VQ_SSIM_NWORDS, as an executor
 * wrote them).  ssim_opt / ms_opt may be NULL (defaults).  Returns 0, or
 * -1 where the reference fails the frame: float_ms_ssim's product reached
 * +inf ("ms_ssim is INFINITY"); msg (n bytes, may be NULL) then says so.
 */
int vq_ssim_fold(const VqSsimGeom *g, const int64_t *words, const VqSsimOptions *ssim_opt,
                 const VqSsimOptions *ms_opt, VqSsimScores *out, char *msg, size_t n);

/*
 * One extractor's per-frame outputs in libvmaf's append order (float_ssim.c,
 * float_ms_ssim.c): the score; then, with o->enable_lcs, float_ssim_l, _c,
 * _s (ms == 0) or float_ms_ssim_l_scale0..4, _c_scale0..4, _s_scale0..4
 * (ms != 0), each the float mean (not touched by enable_db).  o may be NULL
 * (defaults).  Returns how many were written to out: 1, 4 or 16.
 */
int vq_ssim_outputs(const VqSsimScores *s, int ms, const VqSsimOptions *o, double *out);

/* 0 when float_ms_ssim takes a w x h luma plane; else < 0 with the reason
 * in msg (n bytes; msg may be NULL).  The reference refuses below 176 in
 * either direction (every scale, halved with truncation, >= 11). */
int vq_ms_ssim_check_size(int w, int h, char *msg, size_t n);

/* Likewise for float_ssim with its "scale" option (0: auto): < 0 when the
 * option is outside 0..10 or the decimated image is below 11x11 (the
 * Gaussian window; the reference's result there is undefined). */
int vq_ssim_check_size(int w, int h, int scale_option, char *msg, size_t n);

/* 0 for 8, 10, 12 or 16 bits (picture_copy's cases); else < 0, msg. */
int vq_ssim_check_bpc(int bpc, char *msg, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* VQ_SSIM_FOLD_H */
