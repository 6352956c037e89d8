/*
 * vqcuda.h - the public C API of libvqcuda.
 *
 * A session scores a sequence of (reference, distorted) picture pairs and
 * returns, per frame, every feature libvmaf v3.2.0's CPU integer extractors
 * and its psnr return, plus the model's score, bit for bit.  Results come
 * back in frame order, but late: motion2 (and so the score) of frame N is
 * known only once frame N+1 was submitted, and the GPU executor folds frame
 * N while the next ones run (N+1 and N+2; VQ_CUDA_DEPTH=2: N+1).  Every
 * call returns 0 or a negative VQ_E* code; the session keeps a message for
 * the last error (vq_session_error()).
 * Inside, the library is C++; no exception crosses this API.
 */
#ifndef VQCUDA_H
#define VQCUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VQCUDA_VERSION_MAJOR 0
#define VQCUDA_VERSION_MINOR 1
#define VQCUDA_VERSION_MICRO 0

const char *vqcuda_version(void);
/* The CPU executor's row loops: "plain" (the reference loops), or on x86-64
 * "sse2", "avx2", "avx512": the best the CPU supports, unless the
 * environment variable VQ_CPU_SIMD names another one it supports. */
const char *vqcuda_cpu_simd(void);

enum VqError {
    VQ_OK = 0,
    VQ_EAGAIN = -1,     /* no finished frame yet: submit more, or flush */
    VQ_EINVAL = -2,     /* bad parameter, unsupported size or format */
    VQ_ENOMEM = -3,
    VQ_EMODEL = -4,     /* model file missing or malformed */
    VQ_ECUDA = -5,      /* a CUDA call failed (message names it) */
    VQ_ENODEV = -6,     /* executor cuda asked for, no usable GPU */
    VQ_EOF = -7,        /* flushed and every result was received */
    VQ_EIO = -8,        /* a log could not be written (message names the path) */
};

enum VqExecutor {
    VQ_EXECUTOR_AUTO = 0,  /* cuda when pictures are on the device or a GPU is usable, else cpu */
    VQ_EXECUTOR_CPU  = 1,
    VQ_EXECUTOR_CUDA = 2,  /* host pictures are uploaded */
};

enum VqLayout {
    VQ_LAYOUT_PLANAR     = 0,  /* Y, U, V planes (yuv420p, yuv444p16, ...) */
    VQ_LAYOUT_SEMIPLANAR = 1,  /* Y plane, interleaved UV plane (nv12, p010, p016) */
    VQ_LAYOUT_GRAY       = 2,  /* luma only: psnr_cb/cr are not produced */
};

enum VqScaler {
    VQ_SCALER_BICUBIC = 0,      /* scale=W:H:flags=bicubic+accurate_rnd (swscale's C path) */
    VQ_SCALER_BICUBIC_X86 = 1,  /* scale=W:H:flags=bicubic as swscale runs on x86 (its SIMD rounding) */
    VQ_SCALER_NONE = 2,         /* renditions of another size are refused */
};

typedef struct VqFormat {
    int width, height;       /* luma size in samples; >= 33 x 33 */
    int bitdepth;            /* 8, 10, 12 or 16 */
    int bytes_per_sample;    /* 1 or 2 */
    int msb_aligned;         /* samples in the high bits of 16 (P010, P016) */
    int chroma_shift_w;      /* log2 horizontal chroma subsampling (0 or 1) */
    int chroma_shift_h;      /* log2 vertical chroma subsampling (0 or 1) */
    enum VqLayout layout;
} VqFormat;

typedef struct VqConfig {
    unsigned struct_size;    /* sizeof(VqConfig): set by vq_config_default */
    VqFormat format;
    enum VqExecutor executor;
    /* Models in libvmaf's filter syntax: "version=vmaf_v0.6.1" (built in) or
     * "path=FILE.json", with ":name=", ":disable_clip=", ":enable_transform="
     * and feature overrides ":motion.motion_force_zero=true"; several models
     * separated by '|'.  NULL or "": version=vmaf_v0.6.1.  "none": no model,
     * the features alone (libvmaf's tool's --no_prediction). */
    const char *model;
    /* More features, libvmaf's syntax: "name=psnr|name=vif:vif_enhn_gain_limit=1". */
    const char *feature;
    int n_subsample;         /* score every n-th frame (motion still sees all); 1 = all */
    int enable_psnr;         /* also compute psnr_y/cb/cr (when feature= has no psnr) */
    int threads;             /* CPU executor threads; 0 = 1 */
    int keep_frames;         /* keep every frame's values for vq_session_write_log (default 1:
                                beyond a few MB in an unnamed file in $TMPDIR, else /tmp, so
                                memory stays flat on long jobs); 0: only the running pools */
    void *cuda_stream;       /* CUstream to run on; the caller's CUcontext must be current */
    /* A distorted picture smaller than the reference (an encode ladder's
     * rendition): its size (0: the reference's), upscaled to the reference's
     * inside the library, exactly as FFmpeg 7.1's swscale does it. */
    int dis_width, dis_height;
    enum VqScaler scaler;
    /* Segments, pooled on their own (at most one of the three): a new one
     * every segment_frames frames of the title, or every segment_duration
     * seconds of the frames' times (vq_session_submit_at), or at every key
     * frame of the reference. */
    int segment_frames;
    double segment_duration;
    int segment_keyframes;
    /* A piece of a longer title: the first frame submitted is title frame
     * first_frame; only frames score_begin .. score_end - 1 (title numbers;
     * score_end 0: to the end) are scored, logged and pooled, the others
     * give motion its context.  n_subsample counts from the title's start. */
    int64_t first_frame;
    int64_t score_begin, score_end;
    /* Live output: JSON Lines written to this FILE * (stdio, the caller's)
     * as each frame's, segment's and the final pooled values are known, each
     * line flushed; stream_rendition > 0 adds "rendition": N to each. */
    void *stream_file;
    int stream_rendition;
} VqConfig;

void vq_config_default(VqConfig *cfg);

/* One picture: planes as the decoder left them, host or device memory. */
typedef struct VqPicture {
    const void *data[3];     /* planar: Y U V; semiplanar: Y UV; gray: Y */
    ptrdiff_t linesize[3];   /* bytes */
    int on_device;           /* data[] are CUDA device pointers */
} VqPicture;

/* One frame's values; the arrays belong to the session and stay valid until
 * the next vq_session_receive or vq_session_close. */
typedef struct VqFrameResult {
    int64_t index;                       /* frame number, from 0 */
    int n;                               /* entries in name[] / value[]; 0: not scored (n_subsample) */
    const char *const *name;             /* libvmaf's printed names, in its log order */
    const double *value;
    /* the frame ends a segment: segment_pooled holds n x 4 values (per
     * name: min, max, mean, harmonic_mean over the segment's scored frames) */
    int segment_end;
    int64_t segment_first;               /* the segment's first frame */
    const double *segment_pooled;
    /* what each entry is, n entries (decided by the plan, never by the
     * name): VQ_OUTPUT_FEATURE (an extractor's output), VQ_OUTPUT_MODEL (a
     * model's score), VQ_OUTPUT_MEMBER (a bootstrap collection's member's
     * score: name_0001 ...), VQ_OUTPUT_INTERVAL (the collection's bagged
     * score, its stddev and 95% interval: name_bagging, _stddev,
     * _ci_p95_lo, _ci_p95_hi); the last three are a model's outputs */
    const unsigned char *kind;
} VqFrameResult;

enum { VQ_OUTPUT_FEATURE = 0, VQ_OUTPUT_MODEL = 1, VQ_OUTPUT_MEMBER = 2, VQ_OUTPUT_INTERVAL = 3 };

typedef struct VqSession VqSession;

int  vq_session_open(VqSession **s, const VqConfig *cfg, char *errbuf, size_t errlen);
int  vq_session_submit(VqSession *s, const VqPicture *ref, const VqPicture *dis);
/* The same, with the frame's time in seconds (segments by duration, the
 * logs' segment times) and whether the reference frame is a key frame. */
int  vq_session_submit_at(VqSession *s, const VqPicture *ref, const VqPicture *dis, double time,
                          int keyframe);
int  vq_session_receive(VqSession *s, VqFrameResult *out);
int  vq_session_flush(VqSession *s);
/* The frames from the next submit on have another size or format: what came
 * before is scored as a title of its own (motion2 of its last frame is its
 * own, as at a flush), and the new section starts afresh, motion included.
 * Frame numbers, results and pools go on across sections; the JSON log lists
 * the sections.  The models and features must give the same outputs. */
int  vq_session_new_section(VqSession *s, const VqFormat *fmt);
const char *vq_session_error(const VqSession *s);
const char *vq_session_executor_name(const VqSession *s);
/* The models, in the order given: the name of model i's first output
 * ("vmaf", "vmaf_neg", ...); NULL past the last. */
const char *vq_session_model_name(const VqSession *s, int i);
void vq_session_close(VqSession **s);

enum VqPool { VQ_POOL_MEAN, VQ_POOL_MIN, VQ_POOL_MAX, VQ_POOL_HARMONIC_MEAN };
/* Pooled value of one feature over the received frames (libvmaf's order and formulas). */
int vq_session_pooled(VqSession *s, const char *name, enum VqPool pool, double *out);

/* VQ_LOG_AUTO: from the path's extension (.json, .csv, any case), else XML
 * (libvmaf's default) */
enum VqLogFormat { VQ_LOG_AUTO = -1, VQ_LOG_JSON, VQ_LOG_XML, VQ_LOG_CSV, VQ_LOG_SUB };
/* Write libvmaf's log (after flush): every number written so it parses back
 * exact.  Written beside path and renamed into place: an existing log is
 * replaced only by a complete one.  VQ_EIO names the path and the cause. */
int vq_session_write_log(VqSession *s, const char *path, enum VqLogFormat fmt);

/* The segments' pooled values as CSV (after flush), written as the log is. */
int vq_session_write_segments(VqSession *s, const char *path);

/* 0 when frames of width x height can be scored at all, else VQ_EINVAL with
 * the reason in errbuf (below 33x33 libvmaf reads outside the frame).  The
 * session applies it to every format; a caller may ask before opening one. */
int vq_frame_size_check(int width, int height, char *errbuf, size_t errlen);

/* Whether a log (or the segments' CSV) can be written at path, proven by
 * doing what the write will do short of writing (creating and removing its
 * temporary file beside it, or opening it in place), without touching what
 * is there: symbolic links are followed to their target; a directory and
 * files on /proc, /sys and the like are refused; a path that is not a
 * regular file (a FIFO, /dev/null) is written in place, and so is an
 * existing log in a directory that cannot be written.  VQ_EIO: errbuf says why. */
int vq_log_check(const char *path, char *errbuf, size_t errlen);
/* Removes the regular file a log at path would be (links followed): 1 when
 * there was one, else 0.  For a run that scored nothing, so that no older
 * log passes for its result. */
int vq_log_remove(const char *path);
/* 1 when paths a and b name one regular file (links followed; an existing
 * file by its device and inode, one still to be made by its directory's and
 * its name), else 0 (also for /dev/null, a FIFO, a terminal): two outputs
 * given one such file would overwrite each other. */
int vq_log_same_file(const char *a, const char *b);
/* The files a process's outputs write, claimed while they are live: output
 * `what` (an option name, for the message) of `owner` (any address that
 * stays unique while it lives, e.g. a filter instance) will write `path`.
 * VQ_EINVAL, errbuf saying which, where an earlier claim of the owner or
 * another owner's names the same file (vq_log_same_file): two outputs given
 * one file would leave only the last one written, with success.  `kind`
 * names the other owners in that message ("another <kind> of this process").
 * vq_output_release drops every claim of the owner. */
int vq_output_claim(const void *owner, const char *kind, const char *what, const char *path,
                    char *errbuf, size_t errlen);
void vq_output_release(const void *owner);

/* Live output (VqConfig.stream_file) given after vq_session_open, before the
 * first frame: so that a caller opens its file only once the session's
 * options were accepted.  NULL: none. */
int vq_session_set_stream(VqSession *s, void *stream_file);
/* 0, or VQ_EIO once a line of the live output could not be written (the
 * message names the cause; nothing is written to it after that). */
int vq_session_stream_status(VqSession *s);
/* A distorted frame passed on unscored, for the log's "unpaired_frames":
 * its time and the time of the reference frame it met (NaN: none), seconds. */
int vq_session_note_unpaired(VqSession *s, double time, double ref_time);

/*
 * An encode ladder as one object: renditions 1..n (n <= VQ_LADDER_MAX) of a
 * title scored against the same reference frames; n = 1 is a plain pair.
 * Rendition k is scored as a session (vq_ladder_session) opened from cfg
 * with its own distorted size (dis_w[k] x dis_h[k]; NULL: cfg's) and, when
 * n > 1, stream_rendition k + 1.  The reference's own work (integer motion;
 * on the GPU also VIF's reference images and moments and ADM's reference
 * bands and denominators) is done once per frame for all of them; results
 * are identical to sessions of their own.  Rendition 1 is given every
 * reference frame; the others may end earlier.  The renditions of a ladder
 * (n > 1) cannot change size.  Paths may hold one %d: the rendition's
 * number, from 1.  Messages name the rendition when n > 1 (vq_ladder_error).
 */
#define VQ_LADDER_MAX 16
typedef struct VqLadder VqLadder;

int vq_ladder_open(VqLadder **l, const VqConfig *cfg, int n, const int *dis_w, const int *dis_h,
                   char *errbuf, size_t errlen);
int vq_ladder_renditions(const VqLadder *l);
VqSession *vq_ladder_session(const VqLadder *l, int k);
const char *vq_ladder_error(const VqLadder *l);
/* One reference frame and every rendition's picture of its time; dis[k]
 * NULL: rendition k (k > 0) has ended (vq_ladder_end), and an ended one is
 * given nothing more. */
int vq_ladder_submit(VqLadder *l, const VqPicture *ref, const VqPicture *const *dis, double time,
                     int keyframe);
/* Rendition k (k > 0) ends here: its session is flushed, its results come. */
int vq_ladder_end(VqLadder *l, int k);
int vq_ladder_ended(const VqLadder *l, int k);
int64_t vq_ladder_submitted(const VqLadder *l, int k);
/* The next result of any rendition, *k its index (from 0): VQ_EAGAIN when
 * none is ready, VQ_EOF once every rendition was flushed and received. */
int vq_ladder_receive(VqLadder *l, int *k, VqFrameResult *out);
int vq_ladder_flush(VqLadder *l);
/* Every rendition's log at path (its %d: the number) and, when segments is
 * not NULL, its segments' CSV; each is written even when another failed;
 * the first error is returned, the message names every failure. */
int vq_ladder_write_logs(VqLadder *l, const char *path, enum VqLogFormat fmt, const char *segments);
int vq_ladder_set_stream(VqLadder *l, void *stream_file);
int vq_ladder_stream_status(VqLadder *l);
/* tmpl with its first %d replaced by k + 1, into out (VQ_EINVAL: too long) */
int vq_ladder_path(const char *tmpl, int k, char *out, size_t len);
/* The files of a run of n renditions (a plain pair: n = 1): log_path and
 * segment_path each rendition's (vq_ladder_path), stream_path one for all;
 * NULL: none.  Before the run: the rules for them (segment_path needs
 * log_path; with n > 1, log_path and segment_path need a %d; a path is
 * shorter than 4096 bytes), each log and segments file proven writable
 * (vq_log_check), then every file claimed for owner (vq_output_claim).
 * VQ_EINVAL or VQ_EIO, errbuf saying which; then none of the owner's files
 * stays claimed. */
int vq_ladder_claim_outputs(const void *owner, const char *kind, int n, const char *log_path,
                            const char *segment_path, const char *stream_path, char *errbuf, size_t errlen);
/* For a run that scored nothing: removes the logs and segments files at
 * those paths (vq_log_remove), so that no earlier run's passes for this
 * run's result.  Returns how many were removed, their paths in list. */
int vq_ladder_remove_logs(int n, const char *log_path, const char *segment_path, char *list, size_t len);
void vq_ladder_close(VqLadder **l);

#ifdef __cplusplus
}
#endif
#endif /* VQCUDA_H */
