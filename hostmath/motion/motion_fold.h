/*
 * motion_fold.h - integer motion on the host (libvmaf v3.2.0
 * integer_motion.c): the per-frame SAD score from the executor's row sums,
 * and motion2/motion3, which libvmaf computes in flush() once every SAD
 * score is known.  Here they come out one frame late instead: frame n-1 is
 * final as soon as the SAD score of frame n is known (with the five-frame
 * window, frames 0 and 1 wait for the SAD of frame 2).
 */
#ifndef VQ_MOTION_FOLD_H
#define VQ_MOTION_FOLD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libvmaf's defaults for the motion options the fold uses */
#define VQ_MOTION_DEFAULT_FPS_WEIGHT   1.0
#define VQ_MOTION_DEFAULT_MAX_VAL      10000.0
#define VQ_MOTION_DEFAULT_BLEND_FACTOR 1.0
#define VQ_MOTION_DEFAULT_BLEND_OFFSET 40.0

/*
 * VMAF_integer_feature_motion_sad_score of a frame from the h row sums of
 * a w x h luma plane (row_sad[0 .. h-1], motion_exec.h): each row wraps to
 * uint32, the rows add up in uint64, then min(sad / 256.0 / (w * h) *
 * fps_weight, max_val) in double.  Frame 0 has no previous frame: the
 * caller uses 0 (its rows are all 0, which gives 0 too).
 */
double vq_motion_sad_score_rows(const int64_t *row_sad, int w, int h, double fps_weight,
                                double max_val);

/* The options motion2/motion3 depend on. */
typedef struct VqMotion2Opts {
    double blend_factor;    /* motion_blend_factor, default 1.0 */
    double blend_offset;    /* motion_blend_offset, default 40.0 */
    double max_val;         /* motion_max_val, default 10000.0 */
    int moving_average;     /* motion_moving_average, default 0 */
    int five_frame_window;  /* motion_five_frame_window, default 0: the SAD
                             * scores pushed are then against frame n-2 */
} VqMotion2Opts;

void vq_motion2_opts_default(VqMotion2Opts *o);

/* the lag of the SAD a motion instance takes: 2 with the five-frame window */
static inline int vq_motion2_lag(const VqMotion2Opts *o)
{
    return o->five_frame_window ? 2 : 1;
}

/*
 * Frames of context a piece needs before its first scored frame A (so that
 * frames A.. come out as in a run over the whole title): motion2 of A reads
 * the SAD of frame A - (lag-1), which reads frame A - (2 lag - 1); the moving
 * average reads motion2 of A-1 too: one more.  1 by default, 2 with the
 * moving average, 3 with the window, 4 with both.
 */
static inline int vq_motion2_context(const VqMotion2Opts *o)
{
    return 2 * vq_motion2_lag(o) - 1 + (o->moving_average ? 1 : 0);
}

/* one frame made final */
typedef struct VqMotion2Out {
    int64_t index;          /* frame number, 0 = the first pushed */
    double motion2, motion3;
} VqMotion2Out;

/*
 * Streaming motion2/motion3, exactly integer_motion.c flush()'s values.
 * push(SAD score of frame n) makes final what it can and returns how many
 * frames (0..2) it wrote to out[] in frame order: frame n-1 once n > lag;
 * the frames before the lag (0, or 0 and 1 with the window) take the
 * "stamp", the processed SAD of frame `lag`, so they come out together at
 * the push of that SAD.  flush() makes the rest final (0..2 frames; 0 when
 * nothing was pushed or it was already flushed).
 */
typedef struct VqMotion2 {
    VqMotion2Opts opt;
    int64_t n;              /* SAD scores pushed */
    double sad1, sad2;      /* SAD scores of frames n-1 and n-2 */
    double prev_processed;  /* clipped blend of the last final frame's motion2 (or the stamp) */
    int flushed;
} VqMotion2;

void vq_motion2_init(VqMotion2 *m, const VqMotion2Opts *opt /* NULL: defaults */);
int  vq_motion2_push(VqMotion2 *m, double sad, VqMotion2Out out[2]);
int  vq_motion2_flush(VqMotion2 *m, VqMotion2Out out[2]);
/* frames whose values are final (pushed out) so far */
int64_t vq_motion2_final(const VqMotion2 *m);

#ifdef __cplusplus
}
#endif
#endif /* VQ_MOTION_FOLD_H */
