/*
 * cambi_fold.h - the host side of CAMBI (libvmaf v3.2.0 feature/cambi.c):
 * options, the size/option refusals, the per-session parameters and tables
 * (every libm call: the TVI bisection and the visibility threshold use
 * pow() through the reference's EOTFs), and the fold of an executor's
 * per-frame words into the score.  C++17, built with -ffp-contract=off.
 *
 * A session with CAMBI does, once:
 *     VqCambiOptions o; vq_cambi_default_options(&o);   (then set options)
 *     vq_cambi_check(&o, w, h, bpc, msg, n)     -> 0, or VQ_EINVAL + message
 *     vq_cambi_setup(&o, w, h, bpc, 0, &p, tables, msg, n)   (distorted pass)
 *     (with o.full_ref also is_src = 1 into a second VqCambiParams/tables)
 *     vq_cambi_layout_init(&l, &p, offset)      (kernels/cambi/cambi.h: l.total words)
 * and per frame: an executor (kernels/cambi/cambi_exec.h) writes l.total words,
 * then
 *     double cambi = vq_cambi_fold(&p, &l, words, NULL);
 * (vq_cambi_fold_needs_cvalues: 0 unless the words say otherwise; then
 * fetch those scales' c-values, kernels/cambi/cambi_exec.h, and pass them.)
 */
#ifndef VQ_CAMBI_FOLD_H
#define VQ_CAMBI_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "cambi/cambi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The reference's options (names and defaults of cambi.c; heatmaps_path is
 * not supported: it only writes files). */
typedef struct VqCambiOptions {
    double cambi_max_val;          /* cmxv [1000.0], 0..1000 */
    int enc_width, enc_height;     /* encw/ench [0: input size], 180..7680 / 150..7680 */
    int enc_bitdepth;              /* encbd [0: input bpc], 6..16 */
    int src_width, src_height;     /* srcw/srch [0: input size], 320..7680 / 200..4320 */
    int window_size;               /* ws [65], 15..127 */
    double topk;                   /* [0.6], 0.0001..1 (used when not 0.6) */
    double cambi_topk;             /* ctpk [0.6], 0.0001..1 */
    double tvi_threshold;          /* tvit [0.019], 0.0001..1 */
    double cambi_vis_lum_threshold;/* vlt [0.0], 0..300 */
    int max_log_contrast;          /* mlc [2], 0..5 */
    int full_ref;                  /* [false] */
    const char *eotf;              /* ["bt1886"] or "pq" */
    const char *cambi_eotf;        /* ceot ["bt1886"]; wins when not "bt1886" */
    int cambi_high_res_speedup;    /* hrs [0]: 1080, 1440, 2160 or 0, 0..2160 */
} VqCambiOptions;

/* the defaults above: the cambi module's spec's (hostmath/cambi/cambi.cpp), their one home */
void vq_cambi_default_options(VqCambiOptions *o);

/*
 * 0 when the reference scores a w x h luma plane of bpc bits with these
 * options; else VQ_EINVAL with the reason in msg.  Refused:
 *   - an option outside its range, an unknown EOTF (the reference's option
 *     parser or init refuses these);
 *   - encode (or source) width AND height both below 216 (libvmaf's init:
 *     -EINVAL; e.g. 36x34), src larger one way and smaller the other than
 *     enc, a window larger than 65 after adjustment (reciprocal table);
 *   - sizes where the reference reads outside its scaled images (any scale
 *     narrower or lower than the window's half width), a TVI table that is
 *     not monotone (reads outside the histogram), a visibility threshold the
 *     reference never stops searching for: undefined there, nothing to match.
 */
int vq_cambi_check(const VqCambiOptions *o, int w, int h, int bpc, char *msg, size_t msg_size);

/* The parameters of one pass (is_src = 0: the distorted picture; 1: the
 * source picture of full_ref) and its tables.  0 or VQ_EINVAL (as check). */
int vq_cambi_setup(const VqCambiOptions *o, int w, int h, int bpc, int is_src, VqCambiParams *p,
                   VqCambiTables *t, char *msg, size_t msg_size);

/* The reciprocal table: the reference's literals are 1.0/i printed with 9
 * significant digits ("%.9g") and read as float; [0] = 0.  (42 entries
 * differ from 1.0f / i.) */
void vq_cambi_recip_table(float recip[VQ_CAMBI_LUT_SIZE]);

/* Bit s set: scale s's mean cannot be had from the words alone (pool mode
 * VQ_CAMBI_POOL_HOST, kernels/cambi/cambi.h: not seen on real c-values, which are
 * 0 or >= 0.5), and vq_cambi_fold needs that scale's c-values.  Both
 * executors otherwise resolve the order-dependent case themselves (mode
 * VQ_CAMBI_POOL_EXECUTOR). */
unsigned vq_cambi_fold_needs_cvalues(const VqCambiParams *p, const VqCambiLayout *l,
                                     const int64_t *words);

/* The pass's score: min(sum_s mean_s * weight_s / pixels_in_window,
 * cambi_max_val).  cvalues[s] (w_s x h_s raster order, not modified) is
 * read only for the scales vq_cambi_fold_needs_cvalues names; cvalues may
 * be NULL when there are none. */
double vq_cambi_fold(const VqCambiParams *p, const VqCambiLayout *l, const int64_t *words,
                     const float *const *cvalues);

/* One scale's mean exactly as the reference computes it (clip of k,
 * quick_select, the sequential double sum): on a copy of n c-values. */
double vq_cambi_topk_mean_reference(const float *cvalues, int n, int k);

/* full_ref: cambi_full_reference = min(max(0, dist - src), cambi_max_val),
 * dist and src being the unclipped scores (vq_cambi_fold_unclipped). */
double vq_cambi_fold_unclipped(const VqCambiParams *p, const VqCambiLayout *l,
                               const int64_t *words, const float *const *cvalues);
double vq_cambi_full_reference(double dist_unclipped, double src_unclipped, double max_val);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CAMBI_FOLD_H */
