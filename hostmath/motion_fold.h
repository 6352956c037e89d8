/*
 * motion_fold.h - integer motion on the host (libvmaf v3.2.0
 * integer_motion.c): the per-frame SAD score from the executor's row sums,
 * and motion2/motion3, which libvmaf computes in flush() once every SAD
 * score is known.  Here they come out one frame late instead: frame n-1 is
 * final as soon as the SAD score of frame n is known.
 */
#ifndef VQ_MOTION_FOLD_H
#define VQ_MOTION_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "vq_rows.h"

#ifdef __cplusplus
extern "C" {
#endif

/* libvmaf's defaults for the motion options the fold uses */
#define VQ_MOTION_DEFAULT_FPS_WEIGHT   1.0
#define VQ_MOTION_DEFAULT_MAX_VAL      10000.0
#define VQ_MOTION_DEFAULT_BLEND_FACTOR 1.0
#define VQ_MOTION_DEFAULT_BLEND_OFFSET 40.0

/*
 * VMAF_integer_feature_motion_sad_score of a frame from its row sums
 * (rows[l->motion_off .. + l->h]): each row wraps to uint32, the rows add
 * up in uint64, then min(sad / 256.0 / (w * h) * fps_weight, max_val) in
 * double.  Frame 0 has no previous frame: the caller uses 0 (its rows are
 * all 0, which gives 0 too).
 */
double vq_motion_sad_score(const VqRowLayout *l, const int64_t *rows, double fps_weight,
                           double max_val);
/* The same from the h row sums alone (row_sad[0 .. h-1]) of a w x h luma
 * plane: a ladder's sessions take them from the one that computed them. */
double vq_motion_sad_score_rows(const int64_t *row_sad, int w, int h, double fps_weight,
                                double max_val);

/* The options motion2/motion3 depend on (five_frame_window is not supported). */
typedef struct VqMotion2Opts {
    double blend_factor;    /* motion_blend_factor, default 1.0 */
    double blend_offset;    /* motion_blend_offset, default 40.0 */
    double max_val;         /* motion_max_val, default 10000.0 */
    int moving_average;     /* motion_moving_average, default 0 */
} VqMotion2Opts;

void vq_motion2_opts_default(VqMotion2Opts *o);

/*
 * Streaming motion2/motion3.  push(sad score of frame n) makes frame n-1
 * final and returns 1 with its values (0 for n = 0); flush() makes the last
 * frame final (returns 1, or 0 when nothing was pushed or it was already
 * flushed).  Values are exactly integer_motion.c flush()'s.
 */
typedef struct VqMotion2 {
    VqMotion2Opts opt;
    int64_t n;              /* SAD scores pushed */
    double last_sad;        /* SAD score of frame n-1 */
    double prev_processed;  /* clipped blend of frame n-2's motion2 (moving average) */
    int flushed;
} VqMotion2;

void vq_motion2_init(VqMotion2 *m, const VqMotion2Opts *opt /* NULL: defaults */);
int  vq_motion2_push(VqMotion2 *m, double sad, int64_t *index, double *motion2, double *motion3);
int  vq_motion2_flush(VqMotion2 *m, int64_t *index, double *motion2, double *motion3);

#ifdef __cplusplus
}
#endif
#endif /* VQ_MOTION_FOLD_H */
