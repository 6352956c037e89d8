/*
 * vf_vqcuda.h - the vqcuda filter's state, shared by vf_vqcuda.c (the
 * filter) and vf_vqcuda_reinit.c (its carry-over across a re-created
 * filter graph).
 */

#ifndef AVFILTER_VF_VQCUDA_H
#define AVFILTER_VF_VQCUDA_H

#include <stdint.h>
#include <stdio.h>
#include <vqcuda.h>

#include "libavutil/fifo.h"
#include "libavutil/frame.h"
#include "libavutil/pixfmt.h"
#include "avfilter.h"
#include "framesync.h"

#if CONFIG_CUDA
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"
#endif

/* pairing: frames of one time only, or libvmaf's (framesync's) pairing */
enum { PAIRING_TIMESTAMP, PAIRING_FRAMESYNC };

#define MAX_RENDITIONS VQ_LADDER_MAX

/* A distorted frame waiting for its scores.  The reference (and the other
 * renditions' frames) are kept too, so that every picture stays alive while
 * the library may still read it. */
typedef struct PendingFrame {
    AVFrame *dist;
    AVFrame *keep[MAX_RENDITIONS];  /* [0]: the reference, [k]: rendition k+1 */
    int64_t index;              /* submission number; -1: not scored */
    unsigned waiting;           /* sessions whose result is still to come (bits) */
} PendingFrame;

/* One scoring run: the library's ladder, what it was given, and the frames
 * in flight.  When FFmpeg re-creates the graph, the next instance takes it
 * over whole (vf_vqcuda_reinit.c), so whatever is added here is carried. */
typedef struct VQCUDARun {
    VqLadder *ladder;           /* the renditions' sessions (one for a plain pair) */
    VqSession *session;         /* rendition 1's (input 0), the ladder's */
    int64_t nb_submitted;
    int64_t nb_scored;          /* results received */
    int64_t nb_mismatched;      /* pairs whose two frames differ in size or format */
    VqFormat format;
    enum AVPixelFormat sw_format;   /* of the frames being scored */
    int dis_w, dis_h;           /* rendition 1's size (the reference's, or smaller) */
    AVFifo *pending;            /* PendingFrame *: the frames waiting, in output order */
    /* frames a re-created graph took over from the one before (FFmpeg drops
     * the frames still inside a graph it re-creates), not yet paired, in
     * arrival order (AVFrame *): [0] main, [1] reference */
    AVFifo *stash[2];
    FILE *stream;               /* stream_path's, open: the session writes to it */
} VQCUDARun;

typedef struct VQCUDAContext {
    const AVClass *class;
    FFFrameSync fs;

    /* options */
    char *log_path;
    int log_fmt;
    int pool;
    int metadata;               /* METADATA_*: which values go on the frames */
    char *model_cfg;
    char *feature_cfg;
    int n_subsample;
    int n_threads;
    int device;
    int psnr;
    int bitdepth;
    int nb_renditions_opt;      /* option inputs: renditions + the reference */
    int scaler;
    int pairing;                /* PAIRING_* */
    int segment_frames;
    double segment_duration;
    int segment_mode;
    char *segment_path;
    char *stream_path;
    char *score_frames;
    int64_t score_begin, score_end;
    int score_context;          /* frames a piece is given before A */

    int nb_rend;                /* renditions: inputs 0 .. nb_rend-1; the reference is last */
    int64_t cpu_filter_ns;      /* this thread's CPU time in activate() */
    int64_t cpu_lib_ns;         /* of which in libvqcuda's submit, receive and flush */
    VQCUDARun run;
    const AVFrame *last_rend[MAX_RENDITIONS];
    int64_t last_rend_pts[MAX_RENDITIONS];
    int extra_w[MAX_RENDITIONS], extra_h[MAX_RENDITIONS];
    int64_t nb_unpaired;        /* distorted frames without a new reference, or one of their time */
    int64_t nb_untimed;         /* of which: the reference frame was of another time */
    int transition;             /* re-initialised with inputs of two sizes: score nothing */
    int carried;                /* the session came from the instance before a re-init */
    int log_written;
    int log_error;
    int main_ended;             /* an event repeated the last distorted frame */
    int main_longer;            /* main frames left when framesync ended */
    int flushed;
    int eof_sent;
    int closing;                /* in uninit: results are dropped, not sent */
    int event_ran;

    /* the last reference frame scored, to see it repeated */
    const AVFrame *last_ref;
    int64_t last_ref_pts;
    int64_t last_main_pts;      /* framesync's pts of the last main frame an event had */

#if CONFIG_CUDA
    AVBufferRef *hw_frames_ref; /* keeps the device alive until uninit */
    AVCUDADeviceContext *hwctx;
    CudaFunctions *cu;
#endif
} VQCUDAContext;

/* vf_vqcuda.c: a main frame passed on unscored, in its place in the order
 * (owned); a main frame (owned) and its reference frame (borrowed) scored,
 * or passed on when they cannot be paired */
int ff_vqcuda_pass_frame(AVFilterContext *ctx, AVFrame *dist);
int ff_vqcuda_handle_pair(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref);

/* vf_vqcuda_reinit.c */
void ff_vqcuda_stash_free(AVFifo **stash);
void ff_vqcuda_carry_put(VQCUDAContext *s);
int ff_vqcuda_carry_take(VQCUDAContext *s);
int ff_vqcuda_drain_stash(AVFilterContext *ctx);
int ff_vqcuda_collect_leftovers(AVFilterContext *ctx);

#endif /* AVFILTER_VF_VQCUDA_H */
