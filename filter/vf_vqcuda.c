/*
 * vqcuda filter: VMAF (libvmaf v3.2.0's integer features, bit for bit) of
 * a distorted input against a reference, computed by libvqcuda on the GPU
 * (CUDA frames stay on the device) or on the CPU.
 *
 * The filter only moves pictures and results: libvqcuda does every sum.
 * Scores arrive late (frame N's motion needs frame N+1, and the GPU folds
 * frame N while the next ones run), so distorted frames wait in a FIFO and leave,
 * unchanged, with their lavfi.vqcuda.* metadata once their result is in.
 */

#include "config.h"
#include "config_components.h"

#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <vqcuda.h>

#include "libavutil/avstring.h"
#include "libavutil/dict.h"
#include "libavutil/error.h"
#include "libavutil/fifo.h"
#include "libavutil/file_open.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/thread.h"
#include "libavutil/time.h"
#include "avfilter.h"
#include "avfilter_internal.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "video.h"
#include "libavfilter/version.h"
#include "vf_vqcuda.h"

/* FFmpeg 7.1 (libavfilter 10) and 8.x/9.x (11, 12): from libavfilter 11 a
 * filter is defined as an FFFilter whose public part (name, description,
 * priv_class, flags) is its member p; the callbacks, priv_size,
 * flags_internal and the pad/format macros are FFFilter's own, as they were
 * AVFilter's before.  VQ_PUB(x) designates public field x in either. */
#if LIBAVFILTER_VERSION_MAJOR >= 11
#define VQ_FILTER FFFilter
#define VQ_PUB(field) .p.field
#else
#define VQ_FILTER AVFilter
#define VQ_PUB(field) .field
#endif

#if CONFIG_CUDA
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"

#define CHECK_CU(x) FF_CUDA_CHECK_DL(ctx, s->cu, x)
#endif

/* session of rendition k (0-based), or NULL */
static VqSession *rend_session(VQCUDAContext *s, int k)
{
    return s->run.ladder ? vq_ladder_session(s->run.ladder, k) : NULL;
}

static int vq_to_averror(int err)
{
    switch (err) {
    case VQ_ENOMEM: return AVERROR(ENOMEM);
    case VQ_EINVAL:
    case VQ_EMODEL: return AVERROR(EINVAL);
    case VQ_EIO:    return AVERROR(EIO);
    default:        return AVERROR_EXTERNAL;
    }
}

/* a libvqcuda call that failed with err, and the message the library left */
static int lib_error(AVFilterContext *ctx, const char *call, int err, const char *msg)
{
    av_log(ctx, AV_LOG_ERROR, "libvqcuda %s failed (%d): %s\n", call, err,
           msg && *msg ? msg : "no message");
    return vq_to_averror(err);
}

/* Library calls that may touch the GPU run with FFmpeg's CUcontext current. */
static int cuda_push(AVFilterContext *ctx)
{
#if CONFIG_CUDA
    VQCUDAContext *s = ctx->priv;
    if (s->cu)
        return CHECK_CU(s->cu->cuCtxPushCurrent(s->hwctx->cuda_ctx));
#endif
    return 0;
}

static void cuda_pop(AVFilterContext *ctx)
{
#if CONFIG_CUDA
    VQCUDAContext *s = ctx->priv;
    CUcontext dummy;
    if (s->cu)
        CHECK_CU(s->cu->cuCtxPopCurrent(&dummy));
#endif
}

/* the title frame a piece's first frame is: score_context frames before
 * score_frames' A, from frame 0 at most (0 for a whole title) */
static int64_t piece_first(const VQCUDAContext *s)
{
    return FFMAX(0, s->score_begin - s->score_context);
}

static av_cold int init(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    char err[1024] = "";
    int ret;

    s->nb_rend = s->nb_renditions_opt - 1;
    /* libvmaf_cuda scores on the GPU, as FFmpeg's does (device=cpu still may) */
    if (!strcmp(ctx->filter->name, "libvmaf_cuda") && s->device == VQ_EXECUTOR_AUTO)
        s->device = VQ_EXECUTOR_CUDA;
    if (s->score_frames) {
        long long a, b;
        char c;
        if (sscanf(s->score_frames, "%lld-%lld%c", &a, &b, &c) != 2 || a < 0 || b <= a) {
            av_log(ctx, AV_LOG_ERROR, "score_frames=%s: give A-B, title frame numbers with "
                   "0 <= A < B (B exclusive)\n", s->score_frames);
            return AVERROR(EINVAL);
        }
        s->score_begin = a;
        s->score_end   = b;
    }
    for (int i = 0; i < s->nb_renditions_opt; i++) {
        AVFilterPad pad = { .type = AVMEDIA_TYPE_VIDEO };
        if (s->nb_rend == 1)
            pad.name = av_strdup(i ? "reference" : "main");
        else if (i == s->nb_rend)
            pad.name = av_strdup("reference");
        else
            pad.name = av_asprintf("rendition%d", i + 1);
        if (!pad.name)
            return AVERROR(ENOMEM);
        if ((ret = ff_append_inpad_free_name(ctx, &pad)) < 0)
            return ret;
    }
    /* The output files: their rules, each log proven writable, each file
     * claimed from init to uninit (two outputs, of this filter or of two of
     * one process, given one file would leave only the last written, with
     * exit 0).  FFmpeg frees a re-created graph before it builds the new one,
     * so a new instance claims what its predecessor held. */
    if ((ret = vq_ladder_claim_outputs(ctx, "vqcuda filter", s->nb_rend, s->log_path,
                                       s->segment_path, s->stream_path, err, sizeof(err))) < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s\n", *err ? err : "cannot write its outputs");
        return vq_to_averror(ret);
    }
    s->run.pending  = av_fifo_alloc2(8, sizeof(PendingFrame *), AV_FIFO_FLAG_AUTO_GROW);
    s->run.stash[0] = av_fifo_alloc2(8, sizeof(AVFrame *), AV_FIFO_FLAG_AUTO_GROW);
    s->run.stash[1] = av_fifo_alloc2(8, sizeof(AVFrame *), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->run.pending || !s->run.stash[0] || !s->run.stash[1])
        return AVERROR(ENOMEM);
    s->last_ref_pts = AV_NOPTS_VALUE;
    s->last_main_pts = AV_NOPTS_VALUE;
    for (int k = 0; k < MAX_RENDITIONS; k++)
        s->last_rend_pts[k] = AV_NOPTS_VALUE;
    return 0;
}

static void free_pending(PendingFrame *p)
{
    av_frame_free(&p->dist);
    for (int k = 0; k < MAX_RENDITIONS; k++)
        av_frame_free(&p->keep[k]);
}

/* Hand frames downstream in order: the head ones whose scores are all in
 * (or that are not scored); when closing, free them all. */
static int release_frames(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    PendingFrame *p;
    int ret;

    while (s->run.pending && av_fifo_peek(s->run.pending, &p, 1, 0) >= 0) {
        AVFrame *out = p->dist;
        if (!s->closing && p->index >= 0 && p->waiting)
            break;
        av_fifo_drain2(s->run.pending, 1);
        p->dist = NULL;
        free_pending(p);
        av_free(p);
        if (s->closing) {
            av_frame_free(&out);
            continue;
        }
        if ((ret = ff_filter_frame(ctx->outputs[0], out)) < 0)
            return ret;
    }
    return 0;
}

/* default: every output of rendition 1 under the plain names, and every
 * rendition's model outputs under its number; all: every output of every
 * rendition under its number too; scores: the model outputs only */
enum { METADATA_DEFAULT, METADATA_ALL, METADATA_SCORES, METADATA_NONE };

/* Which keys an output of rendition k (from 0) gets (model_output: the
 * result says it is a model's output, not a feature's): numbered
 * (lavfi.vqcuda.<k+1>.name) and plain (lavfi.vqcuda.name, rendition 1
 * only); 0 when neither. */
static int meta_keys(VQCUDAContext *s, int k, int model_output, int *numbered, int *plain)
{
    const int score = s->metadata == METADATA_ALL || model_output;   /* all: as a score */
    *numbered = score;
    *plain = !k && (score || s->metadata == METADATA_DEFAULT);
    return *numbered || *plain;
}

/* value under lavfi.vqcuda.<k+1>.<suffix> (numbered) and lavfi.vqcuda.<suffix> (plain) */
static int set_meta(AVDictionary **m, int k, int numbered, int plain, const char *suffix, double v)
{
    char key[224], value[32];
    int ret;

    snprintf(value, sizeof(value), "%.17g", v);
    snprintf(key, sizeof(key), "lavfi.vqcuda.%d.%s", k + 1, suffix);
    if (numbered && (ret = av_dict_set(m, key, value, 0)) < 0)
        return ret;
    snprintf(key, sizeof(key), "lavfi.vqcuda.%s", suffix);
    if (plain && (ret = av_dict_set(m, key, value, 0)) < 0)
        return ret;
    return 0;
}

/* One result of rendition k: its metadata on the waiting frame. */
static int attach_result(AVFilterContext *ctx, int k, const VqFrameResult *res)
{
    VQCUDAContext *s = ctx->priv;
    const int64_t index = res->index;
    PendingFrame *p;

    if (s->metadata == METADATA_NONE)
        res = NULL;     /* the frame is only marked as scored */

    for (size_t i = 0; av_fifo_peek(s->run.pending, &p, 1, i) >= 0; i++) {
        if (p->index != index || !(p->waiting & (1u << k)))
            continue;
        p->waiting &= ~(1u << k);
        for (int j = 0; res && j < res->n && !s->closing; j++) {
            int ret, numbered, plain;
            if (meta_keys(s, k, res->kind[j] != VQ_OUTPUT_FEATURE, &numbered, &plain) &&
                (ret = set_meta(&p->dist->metadata, k, numbered, plain, res->name[j], res->value[j])) < 0)
                return ret;
        }
        /* the last frame of a segment carries the segment's pooled values */
        for (int j = 0; res && res->segment_end && j < res->n && !s->closing; j++) {
            static const char *const pools[4] = { "min", "max", "mean", "harmonic_mean" };
            int numbered, plain;
            if (!meta_keys(s, k, res->kind[j] != VQ_OUTPUT_FEATURE, &numbered, &plain))
                continue;
            for (int q = 0; q < 4; q++) {
                char suffix[192];
                int ret;
                snprintf(suffix, sizeof(suffix), "segment.%s.%s", res->name[j], pools[q]);
                if ((ret = set_meta(&p->dist->metadata, k, numbered, plain, suffix,
                                    res->segment_pooled[4 * j + q])) < 0)
                    return ret;
            }
        }
        return 0;
    }
    return 0;
}

/* p's frames now belong to the queue (freed there on failure too) */
static int queue_frame(AVFilterContext *ctx, PendingFrame *p)
{
    VQCUDAContext *s = ctx->priv;
    PendingFrame *q = av_memdup(p, sizeof(*p));

    if (!q || av_fifo_write(s->run.pending, &q, 1) < 0) {
        free_pending(p);
        av_free(q);
        return AVERROR(ENOMEM);
    }
    return 0;
}

/* a frame passed on unscored, in its place in the order */
int ff_vqcuda_pass_frame(AVFilterContext *ctx, AVFrame *dist)
{
    PendingFrame p = { .dist = dist, .index = -1 };
    int ret = queue_frame(ctx, &p);
    return ret < 0 ? ret : release_frames(ctx);
}

/* -v verbose reports the host CPU the filter's thread spends per frame, and
 * how much of it is libvqcuda's (the bench's breakdown of host CPU) */
static int64_t thread_cpu_ns(void)
{
#ifdef CLOCK_THREAD_CPUTIME_ID
    struct timespec t;
    if (!clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
        return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
#endif
    return 0;
}

/* Around each scoring call into libvqcuda: the CUDA context made current,
 * and the call's host CPU counted as the library's. */
static int lib_enter(AVFilterContext *ctx, int64_t *t0)
{
    int ret = cuda_push(ctx);

    *t0 = thread_cpu_ns();
    return ret;
}

static void lib_leave(AVFilterContext *ctx, int64_t t0)
{
    VQCUDAContext *s = ctx->priv;

    s->cpu_lib_ns += thread_cpu_ns() - t0;
    cuda_pop(ctx);
}

/* Take every result the renditions have ready (after flush: all of them). */
static int receive_results(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;

    while (s->run.ladder) {
        VqFrameResult res;
        int64_t t0;
        int k, err, ret = lib_enter(ctx, &t0);

        if (ret < 0)
            return ret;
        err = vq_ladder_receive(s->run.ladder, &k, &res);
        lib_leave(ctx, t0);
        if (err == VQ_EOF)
            break;
        if (err == VQ_EAGAIN) {
            if (!s->flushed)
                break;
            av_log(ctx, AV_LOG_ERROR, "libvqcuda returned no result after "
                   "flush, %"PRId64" of %"PRId64" frames scored\n",
                   s->run.nb_scored, s->run.nb_submitted);
            return AVERROR_EXTERNAL;
        }
        if (err < 0)
            return lib_error(ctx, "vq_ladder_receive", err, vq_ladder_error(s->run.ladder));
        if (!k)
            s->run.nb_scored++;
        if ((ret = attach_result(ctx, k, &res)) < 0)
            return ret;
    }
    return release_frames(ctx);
}

static int flush_session(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    int64_t t0;
    int err, ret;

    if (!s->run.ladder || s->flushed)
        return 0;
    s->flushed = 1;
    if ((ret = lib_enter(ctx, &t0)) < 0)
        return ret;
    err = vq_ladder_flush(s->run.ladder);
    lib_leave(ctx, t0);
    if (err < 0)
        return lib_error(ctx, "vq_ladder_flush", err, vq_ladder_error(s->run.ladder));
    return receive_results(ctx);
}

static void warn_unscored(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;

    if (s->nb_unpaired - s->nb_untimed)
        av_log(ctx, AV_LOG_WARNING, "the inputs differ in length or rate: "
               "%"PRId64" main frames had no new reference frame and were "
               "passed through unscored\n", s->nb_unpaired - s->nb_untimed);
    if (s->nb_untimed)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" main frames met a reference frame of another "
               "time and were passed through unscored (listed in the log)\n", s->nb_untimed);
    if (s->main_ended)
        av_log(ctx, AV_LOG_WARNING, "the reference input is longer than the "
               "main input: its frames after the main input's end are ignored\n");
    if (s->main_longer)
        av_log(ctx, AV_LOG_WARNING, "the main input is longer than the "
               "reference input: its frames after the reference's end are "
               "dropped (shortest or eof_action=endall)\n");
    if (s->run.nb_mismatched)
        av_log(ctx, AV_LOG_WARNING, "%"PRId64" pairs were not scored: their main and "
               "reference frames differ in size or format (the inputs changed at "
               "different frames)\n", s->run.nb_mismatched);
    if (s->nb_unpaired || s->main_ended || s->main_longer || s->run.nb_mismatched)
        av_log(ctx, AV_LOG_WARNING, "scored the %"PRId64" common frames\n",
               s->run.nb_submitted);
}

static int write_log(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    int64_t t0;
    int err, ret;

    if (!s->log_path || s->log_written || !s->run.ladder || !s->run.nb_submitted)
        return 0;
    s->log_written = 1;
    t0 = av_gettime_relative();
    if ((ret = cuda_push(ctx)) < 0)
        return ret;
    /* every rendition's, each written even when another's fails */
    err = vq_ladder_write_logs(s->run.ladder, s->log_path, s->log_fmt, s->segment_path);
    cuda_pop(ctx);
    if (err < 0)
        s->log_error = lib_error(ctx, "vq_ladder_write_logs", err, vq_ladder_error(s->run.ladder));
    av_log(ctx, AV_LOG_VERBOSE, "%d log%s of %"PRId64" frames written in %.1f ms\n", s->nb_rend,
           s->nb_rend > 1 ? "s" : "", s->run.nb_submitted, (av_gettime_relative() - t0) / 1000.0);
    return s->log_error;
}

/* One line per model, as libvmaf's filter prints them (tools parse it);
 * renditions 2.. say which they are. */
static void print_scores(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    double score;
    int err;

    for (int k = 0; s->run.nb_submitted && k < s->nb_rend; k++) {
        VqSession *vs = rend_session(s, k);
        for (int i = 0; vs && vq_session_model_name(vs, i); i++) {
            err = vq_session_pooled(vs, vq_session_model_name(vs, i), s->pool, &score);
            if (err < 0)
                lib_error(ctx, "vq_session_pooled", err, vq_session_error(vs));
            else if (!k)
                av_log(ctx, AV_LOG_INFO, "VMAF score: %f\n", score);
            else
                av_log(ctx, AV_LOG_INFO, "rendition %d: VMAF score: %f\n", k + 1, score);
        }
    }
}

/* The live output's first write error, if any (its file is still open:
 * the error is the library's to keep) */
static int stream_status(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;

    if (s->run.stream && s->run.ladder && vq_ladder_stream_status(s->run.ladder) < 0) {
        av_log(ctx, AV_LOG_ERROR, "stream_path %s: %s\n", s->stream_path, vq_ladder_error(s->run.ladder));
        return AVERROR(EIO);
    }
    return 0;
}

/* A run that scored nothing fails, and leaves no log that could pass for
 * its result: an earlier run's log at log_path is removed. */
static int nothing_scored(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    char list[4096];

    av_log(ctx, AV_LOG_ERROR, "no frame was scored (%"PRId64" main frames had no reference "
           "frame of their time, %"PRId64" pairs differed in size or format)\n",
           s->nb_unpaired, s->run.nb_mismatched);
    if (vq_ladder_remove_logs(s->nb_rend, s->log_path, s->segment_path, list, sizeof(list)) > 0)
        av_log(ctx, AV_LOG_ERROR, "removed an earlier run's logs, which could pass for "
               "this run's: %s\n", list);
    return AVERROR(EINVAL);
}

/*
 * The end of scoring, once: what is in flight is scored and its frames are
 * sent on (unless the output has closed), the score is printed, the logs
 * are written and the live output's errors reported - the printed score,
 * the log and the live output over the same frames.  Reached at the end of
 * the input, or by the "finish" command when the output side stopped first
 * (ffmpeg's -frames, an output's -t): either way while an error can still
 * fail the run.
 */
static int finish_scoring(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    int ret, r;

    s->eof_sent = 1;
    ret = flush_session(ctx);
    if (ret >= 0)
        ret = release_frames(ctx);
    warn_unscored(ctx);
    if (!s->run.nb_submitted)
        return ret < 0 ? ret : nothing_scored(ctx);
    print_scores(ctx);
    r = write_log(ctx);
    ret = ret < 0 ? ret : r;
    r = stream_status(ctx);
    return ret < 0 ? ret : r;
}

/* Both inputs are done (or the main one is): score what is left, send it. */
static int finish_stream(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->outputs[0];
    int ret;

    /* frames still queued on an input: it was the longer one */
    if (ff_inlink_queued_frames(ctx->inputs[0]))
        s->main_longer = 1;
    if (ff_inlink_queued_frames(ctx->inputs[s->nb_rend]))
        s->main_ended = 1;
    ret = finish_scoring(ctx);
    /* framesync may have set EOF already; the frames queued on the link
     * above still reach the next filter before it sees the status. */
    if (!ff_outlink_get_status(outlink))
        ff_outlink_set_status(outlink, AVERROR_EOF, AV_NOPTS_VALUE);
    for (int i = 0; i < ctx->nb_inputs; i++)
        ff_inlink_set_status(ctx->inputs[i], AVERROR_EOF);
    return ret;
}

static void fill_picture(VqPicture *pic, const AVFrame *f, int on_device)
{
    memset(pic, 0, sizeof(*pic));
    for (int i = 0; i < 3 && f->data[i]; i++) {
        pic->data[i]     = f->data[i];
        pic->linesize[i] = f->linesize[i];
    }
    pic->on_device = on_device;
}

static int fill_format(AVFilterContext *ctx, enum AVPixelFormat fmt,
                       int w, int h, int hw, VqFormat *f);

/* The software format of a frame (CUDA frames: their frames context's). */
static enum AVPixelFormat frame_sw_format(const AVFrame *f)
{
    if (f->format == AV_PIX_FMT_CUDA && f->hw_frames_ctx)
        return ((const AVHWFramesContext *)f->hw_frames_ctx->data)->sw_format;
    return f->format;
}

/* the library's minimum frame size, its message under what */
static int size_check(AVFilterContext *ctx, const char *what, int w, int h)
{
    char err[256];

    if (vq_frame_size_check(w, h, err, sizeof(err)) < 0) {
        av_log(ctx, AV_LOG_ERROR, "%s: %s\n", what, err);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* 1: the pair can be scored (a new size or format on both: a new section
 * first); 0: its frames differ from each other, it is passed on unscored. */
static int check_pair(AVFilterContext *ctx, const AVFrame *dist, const AVFrame *ref)
{
    VQCUDAContext *s = ctx->priv;
    enum AVPixelFormat fd = frame_sw_format(dist), fr = frame_sw_format(ref);
    VqFormat nf;
    int ret, err;

    if (dist->width == s->run.dis_w && dist->height == s->run.dis_h && fd == s->run.sw_format &&
        ref->width == s->run.format.width && ref->height == s->run.format.height && fr == s->run.sw_format)
        return 1;
    if (dist->width != ref->width || dist->height != ref->height || fd != fr ||
        dist->format != ref->format || s->nb_rend > 1 ||
        s->run.dis_w != s->run.format.width || s->run.dis_h != s->run.format.height) {
        if (!s->run.nb_mismatched++)
            av_log(ctx, AV_LOG_WARNING, "main frame %dx%d %s, reference frame %dx%d %s: "
                   "such pairs are passed on unscored\n", dist->width, dist->height,
                   av_get_pix_fmt_name(fd), ref->width, ref->height, av_get_pix_fmt_name(fr));
        return 0;
    }
    /* both inputs changed at this frame: a section of its own from here */
    if ((ret = fill_format(ctx, fd, dist->width, dist->height,
                           dist->format == AV_PIX_FMT_CUDA, &nf)) < 0)
        return ret;
    if ((ret = size_check(ctx, "frames changed", nf.width, nf.height)) < 0)
        return ret;
    av_log(ctx, AV_LOG_INFO, "frames changed to %dx%d %s at frame %"PRId64": scored as a "
           "new section\n", nf.width, nf.height, av_get_pix_fmt_name(fd), s->run.nb_submitted);
    if ((ret = cuda_push(ctx)) < 0)
        return ret;
    err = vq_session_new_section(s->run.session, &nf);
    cuda_pop(ctx);
    if (err < 0)
        return lib_error(ctx, "vq_session_new_section", err, vq_session_error(s->run.session));
    s->run.format    = nf;
    s->run.sw_format = fd;
    s->run.dis_w     = nf.width;
    s->run.dis_h     = nf.height;
    return 1;
}

/* Whether inputs a and b's current frames are of one time: equal within
 * one tick of the coarser of their time bases (the same instant written in
 * two time bases), or without timestamps to tell. */
static int same_instant(AVFilterContext *ctx, int a, int b)
{
    VQCUDAContext *s = ctx->priv;
    AVRational ta = ctx->inputs[a]->time_base, tb = ctx->inputs[b]->time_base;
    int64_t pa = s->fs.in[a].pts, pb = s->fs.in[b].pts;

    if (pa == AV_NOPTS_VALUE || pb == AV_NOPTS_VALUE)
        return 1;
    return av_compare_ts(FFABS(pa - pb), s->fs.time_base, 1, av_cmp_q(ta, tb) > 0 ? ta : tb) < 0;
}

/* Renditions 2.. of this event: dis[k] their pictures of this reference
 * frame, or NULL for one that ended here or before (framesync repeats its
 * last frame, or it met a reference frame of another time): the ladder
 * ends it, its common frames scored. */
static int gather_extra(AVFilterContext *ctx, PendingFrame *p, VqPicture *pic,
                        const VqPicture **dis, int on_device)
{
    VQCUDAContext *s = ctx->priv;
    FFFrameSync *fs = &s->fs;

    for (int k = 1; k < s->nb_rend; k++) {
        const int64_t given = vq_ladder_submitted(s->run.ladder, k);
        AVFrame *f = NULL;
        int ret, repeated;

        dis[k] = NULL;
        if ((ret = ff_framesync_get_frame(fs, k, &f, 0)) < 0)
            return ret;
        if (vq_ladder_ended(s->run.ladder, k))
            continue;
        repeated = f && f == s->last_rend[k] && fs->in[k].pts == s->last_rend_pts[k];
        if (!f || repeated || given != s->run.nb_submitted ||
            (s->pairing == PAIRING_TIMESTAMP && !same_instant(ctx, k, s->nb_rend))) {
            if (f && !repeated && given == s->run.nb_submitted)
                av_log(ctx, AV_LOG_WARNING, "rendition %d's frame at %.6f s met the reference "
                       "frame at %.6f s (frames of different times are not scored as a pair): "
                       "its first %"PRId64" frames are scored\n", k + 1,
                       fs->in[k].pts * av_q2d(fs->time_base),
                       fs->in[s->nb_rend].pts * av_q2d(fs->time_base), given);
            else
                av_log(ctx, AV_LOG_WARNING, "rendition %d ended after %"PRId64" frames: its "
                       "common frames are scored\n", k + 1, given);
            continue;
        }
        s->last_rend[k]     = f;
        s->last_rend_pts[k] = fs->in[k].pts;
        if (f->width != s->extra_w[k] || f->height != s->extra_h[k] ||
            frame_sw_format(f) != s->run.sw_format) {
            av_log(ctx, AV_LOG_ERROR, "rendition %d changed to %dx%d %s: size changes are "
                   "not supported in a ladder\n", k + 1, f->width, f->height,
                   av_get_pix_fmt_name(frame_sw_format(f)));
            return AVERROR(EINVAL);
        }
        if (!(p->keep[k] = av_frame_clone(f)))
            return AVERROR(ENOMEM);
        fill_picture(&pic[k], f, on_device);
        dis[k] = &pic[k];
    }
    return 0;
}

/* The reference frame's time in seconds (its own timestamp). */
static double frame_time(AVFilterContext *ctx, const AVFrame *ref)
{
    AVRational tb = ctx->inputs[ctx->nb_inputs - 1]->time_base;
    return ref->pts == AV_NOPTS_VALUE ? NAN : ref->pts * av_q2d(tb);
}

/* A main frame (owned) and its reference frame (borrowed): scored, or
 * passed on unscored when they cannot be paired. */
int ff_vqcuda_handle_pair(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref)
{
    VQCUDAContext *s = ctx->priv;
    VqPicture pic_ref, pic[MAX_RENDITIONS];
    const VqPicture *dis[MAX_RENDITIONS] = { NULL };
    PendingFrame p = { 0 };
    int on_device = dist->format == AV_PIX_FMT_CUDA;
    int64_t t0;
    int ret, err;

    if ((ret = check_pair(ctx, dist, ref)) <= 0) {
        if (ret < 0) {
            av_frame_free(&dist);
            return ret;
        }
        return ff_vqcuda_pass_frame(ctx, dist);
    }
    if (dist->color_range != ref->color_range && !s->run.nb_submitted)
        av_log(ctx, AV_LOG_WARNING, "main and reference use different color "
               "ranges (%s, %s)\n", av_color_range_name(dist->color_range),
               av_color_range_name(ref->color_range));

    p.dist = dist;
    /* results carry title frame numbers (a piece starts at score_frames' A-1) */
    p.index = s->run.nb_submitted + piece_first(s);
    if (!(p.keep[0] = av_frame_clone(ref))) {
        free_pending(&p);
        return AVERROR(ENOMEM);
    }
    fill_picture(&pic_ref, ref, on_device);
    fill_picture(&pic[0], dist, on_device);
    dis[0] = &pic[0];
    if ((ret = gather_extra(ctx, &p, pic, dis, on_device)) < 0 ||
        (ret = lib_enter(ctx, &t0)) < 0) {
        free_pending(&p);
        return ret;
    }
    /* rendition 1's frame first (it does the reference's work for all) */
    err = vq_ladder_submit(s->run.ladder, &pic_ref, dis, frame_time(ctx, ref),
                           !!(ref->flags & AV_FRAME_FLAG_KEY));
    lib_leave(ctx, t0);
    if (err < 0) {
        free_pending(&p);
        return lib_error(ctx, "vq_ladder_submit", err, vq_ladder_error(s->run.ladder));
    }
    for (int k = 0; k < s->nb_rend; k++)
        if (dis[k])
            p.waiting |= 1u << k;

    if (!s->run.nb_submitted)   /* "auto" is settled by the first picture */
        av_log(ctx, AV_LOG_VERBOSE, "libvqcuda %s, executor %s (CPU row loops: %s)\n",
               vqcuda_version(), vq_session_executor_name(s->run.session), vqcuda_cpu_simd());
    s->run.nb_submitted++;
    if ((ret = queue_frame(ctx, &p)) < 0)
        return ret;
    return receive_results(ctx);
}

/* A main frame passed on unscored, counted and listed in the log. */
static int pass_unpaired(AVFilterContext *ctx, AVFrame *dist, const AVFrame *ref)
{
    VQCUDAContext *s = ctx->priv;
    FFFrameSync *fs = &s->fs;
    const int ri = s->nb_rend;
    double t = fs->in[0].pts == AV_NOPTS_VALUE ? NAN : fs->in[0].pts * av_q2d(fs->time_base);
    double tr = !ref || fs->in[ri].pts == AV_NOPTS_VALUE ? NAN : fs->in[ri].pts * av_q2d(fs->time_base);

    if (ref && !s->nb_untimed++)
        av_log(ctx, AV_LOG_WARNING, "main frame at %.6f s met reference frame at %.6f s: frames "
               "of different times are not scored as a pair (passed on unscored, listed in "
               "the log; pairing=framesync pairs them as libvmaf does)\n", t, tr);
    s->nb_unpaired++;
    if (s->run.session)
        vq_session_note_unpaired(s->run.session, t, tr);
    return ff_vqcuda_pass_frame(ctx, dist);
}

static int do_vqcuda(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    VQCUDAContext *s = ctx->priv;
    AVFrame *dist = NULL, *ref = NULL;
    const int ri = s->nb_rend;  /* the reference's input */
    int ret;

    if ((ret = ff_framesync_get_frame(fs, 0, &dist, 1)) < 0)
        return ret;
    if ((ret = ff_framesync_get_frame(fs, ri, &ref, 0)) < 0) {
        av_frame_free(&dist);
        return ret;
    }
    dist->pts = av_rescale_q(fs->pts, fs->time_base, ctx->outputs[0]->time_base);
    s->event_ran = 1;
    s->last_main_pts = fs->in[0].pts;

    /* The main input ended and framesync repeats its last frame against the
     * longer reference: nothing new to score or to send. */
    if (fs->in[0].sync == 0) {
        av_frame_free(&dist);
        s->main_ended = 1;
        return 0;
    }

    /* No reference yet, or the last one again (shorter or slower reference):
     * score only frames that have a reference frame of their own. */
    if (ctx->is_disabled)
        return ff_vqcuda_pass_frame(ctx, dist);
    if (!ref || (ref == s->last_ref && fs->in[ri].pts == s->last_ref_pts))
        return pass_unpaired(ctx, dist, NULL);
    /* framesync gives the reference frame current at the main frame's time:
     * when the reference lacks a frame of that time, an older one */
    if (s->pairing == PAIRING_TIMESTAMP && !same_instant(ctx, 0, ri))
        return pass_unpaired(ctx, dist, ref);
    s->last_ref     = ref;
    s->last_ref_pts = fs->in[ri].pts;
    return ff_vqcuda_handle_pair(ctx, dist, ref);
}

/* The pixel formats the library reads. */
static const enum AVPixelFormat pix_fmts[] = {
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV444P10LE,
    AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV444P12LE,
    AV_PIX_FMT_YUV444P16LE,
    AV_PIX_FMT_GRAY8, AV_PIX_FMT_GRAY10LE, AV_PIX_FMT_GRAY12LE,
    AV_PIX_FMT_NV12, AV_PIX_FMT_P010LE, AV_PIX_FMT_P016LE,
#if CONFIG_CUDA
    AV_PIX_FMT_CUDA,
#endif
    AV_PIX_FMT_NONE
};

/* Main and output share one format (frames pass through); the reference
 * gets a list of its own, so that inputs that differ are reported as such
 * instead of one being converted to the other behind the user's back. */
static int query_formats(const AVFilterContext *ctx,
                         AVFilterFormatsConfig **cfg_in,
                         AVFilterFormatsConfig **cfg_out)
{
    AVFilterFormats *formats = ff_make_format_list(pix_fmts);
    int ret;

    if ((ret = ff_formats_ref(formats, &cfg_in[0]->formats)) < 0 ||
        (ret = ff_formats_ref(formats, &cfg_out[0]->formats)) < 0)
        return ret;
    for (unsigned i = 1; i < ctx->nb_inputs; i++)
        if ((ret = ff_formats_ref(ff_make_format_list(pix_fmts), &cfg_in[i]->formats)) < 0)
            return ret;
    return 0;
}

/* The link's frames come from the decoder: a buffer source, through filters
 * that pass frames on unchanged. */
static int link_from_decoder(const AVFilterLink *link)
{
    static const char *const unchanged[] = { "trim", "setpts", "settb", "null",
                                             "select", "split", "fps" };
    const AVFilterContext *src = link->src;

    for (int hops = 0; src && hops < 64; hops++) {
        int i;
        if (!strcmp(src->filter->name, "buffer"))
            return 1;
        for (i = 0; i < FF_ARRAY_ELEMS(unchanged); i++)
            if (!strcmp(src->filter->name, unchanged[i]))
                break;
        if (i == FF_ARRAY_ELEMS(unchanged) || src->nb_inputs != 1)
            return 0;
        src = src->inputs[0]->src;
    }
    return 0;
}

static int fill_format(AVFilterContext *ctx, enum AVPixelFormat fmt,
                       int w, int h, int hw, VqFormat *f)
{
    VQCUDAContext *s = ctx->priv;
    int bitdepth = s->bitdepth;
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    int i, depth;

    for (i = 0; pix_fmts[i] != AV_PIX_FMT_NONE && pix_fmts[i] != fmt; i++)
        ;
    if (!desc || pix_fmts[i] == AV_PIX_FMT_NONE || (desc->flags & AV_PIX_FMT_FLAG_HWACCEL)) {
        av_log(ctx, AV_LOG_ERROR, "pixel format %s is not supported\n",
               av_get_pix_fmt_name(fmt));
        return AVERROR(EINVAL);
    }
    depth = desc->comp[0].depth;

    memset(f, 0, sizeof(*f));
    f->width            = w;
    f->height           = h;
    /* one plane (gray), chroma interleaved in one plane (nv12, p010, p016), or three */
    f->layout           = desc->nb_components == 1 ? VQ_LAYOUT_GRAY :
                          desc->comp[1].plane == desc->comp[2].plane ? VQ_LAYOUT_SEMIPLANAR :
                          VQ_LAYOUT_PLANAR;
    f->bytes_per_sample = depth > 8 ? 2 : 1;
    f->bitdepth         = depth;
    f->msb_aligned      = desc->comp[0].shift > 0;   /* p010 */
    f->chroma_shift_w   = desc->log2_chroma_w;
    f->chroma_shift_h   = desc->log2_chroma_h;

    /* CUDA frames in p016 or yuv444p16 do not say how many of their 16 bits
     * are used: NVDEC returns 12-bit 4:2:0 video as p016 (and 10-bit as p010,
     * so p016 straight from the decoder is 12-bit), 10/12-bit 4:4:4 video as
     * yuv444p16, and FFmpeg converts other formats to yuv444p16 in front of
     * hwupload (changing the chroma too).  Never guess: only p016 from the
     * decoder has a known depth; everything else needs bitdepth=. */
    if (!bitdepth && hw && (fmt == AV_PIX_FMT_P016 || fmt == AV_PIX_FMT_YUV444P16)) {
        if (fmt == AV_PIX_FMT_P016 && link_from_decoder(ctx->inputs[0]) &&
            link_from_decoder(ctx->inputs[1])) {
            bitdepth = 12;
            av_log(ctx, AV_LOG_VERBOSE, "p016 CUDA frames from the decoder scored as 12-bit "
                   "video (NVDEC's output for 12-bit 4:2:0); set bitdepth= otherwise\n");
        } else {
            av_log(ctx, AV_LOG_ERROR, "%s CUDA frames do not say their bit depth (NVDEC's "
                   "%s, or a conversion by FFmpeg in front of hwupload): give bitdepth=10, 12 "
                   "or 16, or score the software frames with device=cuda\n", desc->name,
                   fmt == AV_PIX_FMT_P016 ? "12-bit 4:2:0" : "10/12-bit 4:4:4");
            return AVERROR(EINVAL);
        }
    }
    if (bitdepth && bitdepth != depth) {
        if (depth != 16 || (bitdepth != 10 && bitdepth != 12)) {
            av_log(ctx, AV_LOG_ERROR, "bitdepth=%d does not fit pixel format "
                   "%s (only 10 or 12 in a 16-bit format)\n",
                   bitdepth, desc->name);
            return AVERROR(EINVAL);
        }
        f->bitdepth    = bitdepth;
        f->msb_aligned = 1;
    }
    return 0;
}

#if CONFIG_CUDA
/* Every input must be CUDA frames of one device and one sw_format. */
static int config_cuda(AVFilterContext *ctx, enum AVPixelFormat *sw_format)
{
    VQCUDAContext *s = ctx->priv;
    FilterLink *il0 = ff_filter_link(ctx->inputs[0]);
    FilterLink *ol  = ff_filter_link(ctx->outputs[0]);
    AVHWFramesContext *f0 = NULL;

    for (int i = 0; i < ctx->nb_inputs; i++) {
        FilterLink *il = ff_filter_link(ctx->inputs[i]);
        AVHWFramesContext *f;
        if (ctx->inputs[i]->format != AV_PIX_FMT_CUDA || !il->hw_frames_ctx) {
            av_log(ctx, AV_LOG_ERROR, "input %d: CUDA and software frames mixed, or CUDA "
                   "frames without a hardware frames context\n", i + 1);
            return AVERROR(EINVAL);
        }
        f = (AVHWFramesContext *)il->hw_frames_ctx->data;
        if (f->device_ctx->type != AV_HWDEVICE_TYPE_CUDA) {
            av_log(ctx, AV_LOG_ERROR, "input frames are not CUDA frames\n");
            return AVERROR(EINVAL);
        }
        if (!f0) {
            f0 = f;
            continue;
        }
        if (((AVCUDADeviceContext *)f0->device_ctx->hwctx)->cuda_ctx !=
            ((AVCUDADeviceContext *)f->device_ctx->hwctx)->cuda_ctx) {
            av_log(ctx, AV_LOG_ERROR, "input %d's frames are on another CUDA context than "
                   "the first input's: decode every input with one -hwaccel_device, or "
                   "upload with hwupload and one -filter_hw_device\n", i + 1);
            return AVERROR(EINVAL);
        }
        if (f0->sw_format != f->sw_format) {
            av_log(ctx, AV_LOG_ERROR, "input %d's CUDA frames differ in format from the "
                   "first input's (%s, %s)\n", i + 1, av_get_pix_fmt_name(f->sw_format),
                   av_get_pix_fmt_name(f0->sw_format));
            return AVERROR(EINVAL);
        }
    }
    if (s->device == VQ_EXECUTOR_CPU) {
        av_log(ctx, AV_LOG_ERROR, "device=cpu cannot read CUDA frames: "
               "hwdownload them, or use device=auto or cuda\n");
        return AVERROR(EINVAL);
    }

    av_buffer_unref(&s->hw_frames_ref);
    s->hw_frames_ref = av_buffer_ref(il0->hw_frames_ctx);
    ol->hw_frames_ctx = av_buffer_ref(il0->hw_frames_ctx);
    if (!s->hw_frames_ref || !ol->hw_frames_ctx)
        return AVERROR(ENOMEM);
    s->hwctx = f0->device_ctx->hwctx;
    s->cu    = s->hwctx->internal->cuda_dl;
    *sw_format = f0->sw_format;
    return 0;
}
#endif

/* The renditions' sessions: one ladder (one session for a plain pair),
 * each rendition at its input's size. */
static int open_ladder(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    int w[MAX_RENDITIONS], h[MAX_RENDITIONS];
    VqConfig cfg;
    char errbuf[512] = "";
    int err, ret;

    vq_config_default(&cfg);
    cfg.format        = s->run.format;
    cfg.executor      = s->device;
    cfg.model         = s->model_cfg;
    cfg.feature       = s->feature_cfg;
    cfg.n_subsample   = s->n_subsample;
    cfg.enable_psnr   = s->psnr;
    cfg.threads       = s->n_threads;
    cfg.keep_frames   = !!s->log_path;   /* on disk beyond a few MB: memory stays flat either way */
    cfg.scaler        = s->scaler;
    cfg.segment_frames    = s->segment_frames;
    cfg.segment_duration  = s->segment_duration;
    cfg.segment_keyframes = s->segment_mode == 1;
    cfg.stream_file       = NULL;     /* vq_ladder_set_stream, once the ladder opened */
    if (s->score_frames) {
        /* the piece is given frames A-score_context .. B (from 0 at most) */
        cfg.first_frame = piece_first(s);
        cfg.score_begin = s->score_begin;
        cfg.score_end   = s->score_end;
    }
#if CONFIG_CUDA
    if (s->cu) {
        cfg.cuda_stream = s->hwctx->stream;
        /* frames on the GPU: start the CUDA executor now, so that a missing
         * GPU is reported here rather than at the first frame */
        if (cfg.executor == VQ_EXECUTOR_AUTO)
            cfg.executor = VQ_EXECUTOR_CUDA;
    }
#endif

    for (int k = 0; k < s->nb_rend; k++) {
        w[k] = ctx->inputs[k]->w;
        h[k] = ctx->inputs[k]->h;
    }
    if ((ret = cuda_push(ctx)) < 0)
        return ret;
    err = vq_ladder_open(&s->run.ladder, &cfg, s->nb_rend, w, h, errbuf, sizeof(errbuf));
    cuda_pop(ctx);
    if (err < 0) {
        av_log(ctx, AV_LOG_ERROR, "libvqcuda cannot score %s (%d): %s\n",
               s->nb_rend > 1 ? "the renditions" : "this input", err, *errbuf ? errbuf : "no message");
        return vq_to_averror(err);
    }
    s->run.session = vq_ladder_session(s->run.ladder, 0);
    return 0;
}

/* Rendition input k against the reference: same format, no larger. */
static int check_rendition(AVFilterContext *ctx, int k)
{
    VQCUDAContext *s = ctx->priv;
    const AVFilterLink *l = ctx->inputs[k], *r = ctx->inputs[s->nb_rend];
    const char *what = s->nb_rend > 1 ? "rendition" : "main";
    char label[32];

    if (l->format != r->format) {
        av_log(ctx, AV_LOG_ERROR, "%s %d (%s) and reference (%s) differ in pixel format: "
               "bit depth and chroma subsampling must be the same\n", what, k + 1,
               av_get_pix_fmt_name(l->format), av_get_pix_fmt_name(r->format));
        return AVERROR(EINVAL);
    }
    if (l->w > r->w || l->h > r->h || ((l->w != r->w || l->h != r->h) && s->scaler == VQ_SCALER_NONE)) {
        av_log(ctx, AV_LOG_ERROR, "%s %d (%dx%d) and reference (%dx%d) differ in size%s\n",
               what, k + 1, l->w, l->h, r->w, r->h, l->w > r->w || l->h > r->h ?
               ": a rendition larger than its reference cannot be scored" :
               " and scaler=none: scale it upstream, or let vqcuda upscale it (scaler=bicubic)");
        return AVERROR(EINVAL);
    }
    snprintf(label, sizeof(label), "%s %d", what, k + 1);
    return size_check(ctx, label, l->w, l->h);
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    VQCUDAContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    AVFilterLink *reflink  = ctx->inputs[s->nb_rend];
    FilterLink *il = ff_filter_link(mainlink);
    FilterLink *ol = ff_filter_link(outlink);
    enum AVPixelFormat sw_format = mainlink->format;
    int ret;

    if (s->nb_rend == 1 && s->log_path && !s->run.session && ff_vqcuda_carry_take(s)) {
        s->carried = 1;
        av_log(ctx, AV_LOG_VERBOSE, "carrying on the scores of %s after the filter graph "
               "was re-created\n", s->log_path);
    }
    if (s->carried && s->run.dis_w == s->run.format.width && s->run.dis_h == s->run.format.height &&
        (mainlink->w != reflink->w || mainlink->h != reflink->h ||
         mainlink->format != reflink->format)) {
        /* FFmpeg re-created the graph for one input's change; the other's
         * comes next, and with it another graph: pass frames on till then */
        s->transition = 1;
        av_log(ctx, AV_LOG_VERBOSE, "inputs of two sizes after a re-initialisation: "
               "waiting for the other input's change\n");
    } else {
        for (int k = 0; k < s->nb_rend; k++)
            if ((ret = check_rendition(ctx, k)) < 0)
                return ret;
    }
    if ((ret = size_check(ctx, "reference", reflink->w, reflink->h)) < 0)
        return ret;
    if (mainlink->format == AV_PIX_FMT_CUDA) {
#if CONFIG_CUDA
        if ((ret = config_cuda(ctx, &sw_format)) < 0)
            return ret;
#else
        return AVERROR(ENOSYS);
#endif
    }
    if (!s->transition) {
        VqFormat nf;
        if ((ret = fill_format(ctx, sw_format, reflink->w, reflink->h,
                               mainlink->format == AV_PIX_FMT_CUDA, &nf)) < 0)
            return ret;
        /* a carried session keeps its format: frames taken over from the graph
         * before may still have it; the first pair of the new one starts a
         * new section (check_pair) */
        if (!s->carried) {
            s->run.format    = nf;
            s->run.sw_format = sw_format;
        }
        for (int k = 1; k < s->nb_rend; k++) {
            s->extra_w[k] = ctx->inputs[k]->w;
            s->extra_h[k] = ctx->inputs[k]->h;
        }
        if (!s->run.ladder) {
            s->run.dis_w = mainlink->w;
            s->run.dis_h = mainlink->h;
            if ((ret = open_ladder(ctx)) < 0)
                return ret;
        }
    }

    if (s->stream_path && !s->run.stream && s->run.session) {
        /* a file or a FIFO, opened once the options were accepted (a run
         * refused here leaves it as it was); every line is flushed as it is
         * written, so a reader sees each frame's scores as they are known */
        if (!(s->run.stream = avpriv_fopen_utf8(s->stream_path, "w"))) {
            ret = AVERROR(errno);
            av_log(ctx, AV_LOG_ERROR, "cannot open stream_path %s: %s\n", s->stream_path,
                   av_err2str(ret));
            return ret;
        }
        if ((ret = vq_ladder_set_stream(s->run.ladder, s->run.stream)) < 0)
            return lib_error(ctx, "vq_ladder_set_stream", ret, vq_ladder_error(s->run.ladder));
    }

    /* framesync as its dual-input form: rendition 1 drives the output (sync
     * 2, stops before its start), the other inputs follow it (sync 1) */
    if ((ret = ff_framesync_init(&s->fs, ctx, ctx->nb_inputs)) < 0)
        return ret;
    for (int i = 0; i < ctx->nb_inputs; i++) {
        FFFrameSyncIn *in = &s->fs.in[i];
        in->time_base = ctx->inputs[i]->time_base;
        in->sync      = i ? 1 : 2;
        in->before    = i ? EXT_NULL : EXT_STOP;
        in->after     = EXT_INFINITY;
    }
    outlink->w = reflink->w;
    outlink->h = reflink->h;
    if (mainlink->w != reflink->w || mainlink->h != reflink->h) {
        /* the output carries rendition 1's frames, at their own size */
        outlink->w = mainlink->w;
        outlink->h = mainlink->h;
    }
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ol->frame_rate = il->frame_rate;
    if ((ret = ff_framesync_configure(&s->fs)) < 0)
        return ret;
    outlink->time_base = s->fs.time_base;
    s->fs.on_event = do_vqcuda;

    if (av_cmp_q(mainlink->time_base, reflink->time_base))
        av_log(ctx, AV_LOG_WARNING, "main (%d/%d) and reference (%d/%d) time "
               "bases differ: frames pair by timestamp\n",
               mainlink->time_base.num, mainlink->time_base.den,
               reflink->time_base.num, reflink->time_base.den);
    return 0;
}

static int activate_frames(AVFilterContext *ctx);

static int activate(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    const int64_t t0 = thread_cpu_ns();
    int ret = activate_frames(ctx);
    s->cpu_filter_ns += thread_cpu_ns() - t0;
    return ret;
}

static int activate_frames(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    int ret;

    s->event_ran = 0;
    if (av_fifo_can_read(s->run.stash[0]) || av_fifo_can_read(s->run.stash[1]) || s->transition) {
        /* frames from the graph before a re-creation go first; with inputs
         * of two sizes, every frame waits for the next graph */
        if ((ret = ff_vqcuda_drain_stash(ctx)) != 0)
            return ret < 0 ? ret : 0;
    }
    ret = ff_framesync_activate(&s->fs);
    if (ret < 0)
        return ret;
    if ((s->fs.eof || s->main_ended) && !s->eof_sent)
        return finish_stream(ctx);
    /* a frame may have been kept back for its score: come back for more */
    if (s->event_ran)
        ff_filter_set_ready(ctx, 100);
    return 0;
}

/*
 * "finish": the program's output side stopped before the input ended
 * (ffmpeg: -frames, an output's -t; patches/ tell ffmpeg to send it before
 * it frees the graph).  Scoring ends as at the input's end - what was given
 * is scored, printed, logged and streamed alike - and its errors (a log
 * that cannot be written) reach the program as this command's result.
 * Without it, the graph's end looks like FFmpeg re-creating it.
 */
static int process_command(AVFilterContext *ctx, const char *cmd, const char *arg,
                           char *res, int res_len, int flags)
{
    VQCUDAContext *s = ctx->priv;

    if (strcmp(cmd, "finish"))
        return AVERROR(ENOSYS);
    if (s->eof_sent || !s->run.session)
        return 0;   /* ended already (its errors were returned then), or never started */
    av_log(ctx, AV_LOG_VERBOSE, "the output stopped before the input ended: scoring the "
           "%"PRId64" frames given\n", s->run.nb_submitted);
    s->closing = 1;     /* nothing more is sent downstream */
    return finish_scoring(ctx);
}

static av_cold void uninit(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    static const char *const pool_names[] = { "mean", "min", "max",
                                              "harmonic_mean" };
    /* going away before the end (FFmpeg re-creating the graph, or a stop):
     * score what was submitted and keep the session for a next instance */
    int carry = !s->eof_sent && s->run.session && s->log_path && s->nb_rend == 1;

    vq_output_release(ctx);
    if (carry)
        ff_vqcuda_collect_leftovers(ctx);
    ff_framesync_uninit(&s->fs);
    s->closing = 1;

    if (s->run.session && s->run.nb_submitted && !s->eof_sent) {
        /* neither the input's end nor the "finish" command came: a graph
         * re-created (the next instance carries the session on, and prints
         * its score at the end), or a program that frees the graph early */
        warn_unscored(ctx);
        if (!carry) {
            flush_session(ctx);
            print_scores(ctx);
        }
    }
    if (s->run.session && s->run.nb_submitted && !carry) {
        av_log(ctx, AV_LOG_VERBOSE, "pool %s over %"PRId64" scored frames\n",
               pool_names[s->pool], s->run.nb_scored);
        av_log(ctx, AV_LOG_VERBOSE, "host CPU of the filter's thread: %.3f ms per frame in the "
               "filter, of which %.3f in libvqcuda (%d rendition%s, %"PRId64" frames)\n",
               s->cpu_filter_ns / 1e6 / s->run.nb_submitted, s->cpu_lib_ns / 1e6 / s->run.nb_submitted,
               s->nb_rend, s->nb_rend > 1 ? "s" : "", s->run.nb_submitted);
    }
    /* what an early stop left (as if the input ended here; a session carried
     * on by a next instance goes on unchanged); the end of scoring wrote it
     * before */
    write_log(ctx);

    if (s->run.ladder) {
        int pushed = cuda_push(ctx) >= 0;
        if (carry)
            ff_vqcuda_carry_put(s);
        else
            vq_ladder_close(&s->run.ladder);
        s->run.session = NULL;
        if (pushed)
            cuda_pop(ctx);
    }
    release_frames(ctx);   /* closing: frees them */
    av_fifo_freep2(&s->run.pending);
    ff_vqcuda_stash_free(&s->run.stash[0]);
    ff_vqcuda_stash_free(&s->run.stash[1]);
    if (s->run.stream)
        fclose(s->run.stream);
    s->run.stream = NULL;
#if CONFIG_CUDA
    s->cu    = NULL;
    s->hwctx = NULL;
    av_buffer_unref(&s->hw_frames_ref);
#endif
}

#define OFFSET(x) offsetof(VQCUDAContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

static const AVOption vqcuda_options[] = {
    { "log_path", "write libvmaf's per-frame log to this file", OFFSET(log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt", "log format (auto: from log_path's extension, else xml)", OFFSET(log_fmt), AV_OPT_TYPE_INT, { .i64 = VQ_LOG_AUTO }, VQ_LOG_AUTO, VQ_LOG_SUB, FLAGS, .unit = "log_fmt" },
        { "auto", "from the extension of log_path", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_AUTO }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "json", "libvmaf's JSON log",             0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_JSON },  0, 0, FLAGS, .unit = "log_fmt" },
        { "xml",  "libvmaf's XML log",              0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_XML },   0, 0, FLAGS, .unit = "log_fmt" },
        { "csv",  "libvmaf's CSV log",              0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_CSV },   0, 0, FLAGS, .unit = "log_fmt" },
        { "sub",  "libvmaf's subtitle-style log",   0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_SUB },   0, 0, FLAGS, .unit = "log_fmt" },
    { "metadata", "values attached to each frame as lavfi.vqcuda.* metadata", OFFSET(metadata), AV_OPT_TYPE_INT, { .i64 = METADATA_DEFAULT }, METADATA_DEFAULT, METADATA_NONE, FLAGS, .unit = "metadata" },
        { "default", "every output of rendition 1, the models' outputs of every rendition", 0, AV_OPT_TYPE_CONST, { .i64 = METADATA_DEFAULT }, 0, 0, FLAGS, .unit = "metadata" },
        { "all",    "every output of every rendition", 0, AV_OPT_TYPE_CONST, { .i64 = METADATA_ALL },    0, 0, FLAGS, .unit = "metadata" },
        { "scores", "the models' outputs only",        0, AV_OPT_TYPE_CONST, { .i64 = METADATA_SCORES }, 0, 0, FLAGS, .unit = "metadata" },
        { "none",   "none (logs and live output only)", 0, AV_OPT_TYPE_CONST, { .i64 = METADATA_NONE },   0, 0, FLAGS, .unit = "metadata" },
    { "pool", "pooling of the VMAF score logged at the end", OFFSET(pool), AV_OPT_TYPE_INT, { .i64 = VQ_POOL_MEAN }, VQ_POOL_MEAN, VQ_POOL_HARMONIC_MEAN, FLAGS, .unit = "pool" },
        { "mean",          "arithmetic mean", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_MEAN },          0, 0, FLAGS, .unit = "pool" },
        { "min",           "minimum",         0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_MIN },           0, 0, FLAGS, .unit = "pool" },
        { "max",           "maximum",         0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_MAX },           0, 0, FLAGS, .unit = "pool" },
        { "harmonic_mean", "harmonic mean",   0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_HARMONIC_MEAN }, 0, 0, FLAGS, .unit = "pool" },
    { "model", "models, libvmaf's syntax: version=NAME (built in) or path=FILE, with :name=, :disable_clip=, :enable_transform=, :FEATURE.OPTION=; several separated by |; none: no model, the features alone", OFFSET(model_cfg), AV_OPT_TYPE_STRING, { .str = "version=vmaf_v0.6.1" }, 0, 0, FLAGS },
    { "feature", "more features, libvmaf's syntax: name=psnr|name=NAME:OPTION=VALUE", OFFSET(feature_cfg), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "n_subsample", "score every n-th frame", OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { "n_threads", "CPU executor threads (0: one)", OFFSET(n_threads), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "device", "where to compute", OFFSET(device), AV_OPT_TYPE_INT, { .i64 = VQ_EXECUTOR_AUTO }, VQ_EXECUTOR_AUTO, VQ_EXECUTOR_CUDA, FLAGS, .unit = "device" },
        { "auto", "the GPU when one is usable (software frames are uploaded), else the CPU", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_EXECUTOR_AUTO }, 0, 0, FLAGS, .unit = "device" },
        { "cuda", "the GPU (software frames are uploaded)", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_EXECUTOR_CUDA }, 0, 0, FLAGS, .unit = "device" },
        { "cpu",  "the CPU",                                0, AV_OPT_TYPE_CONST, { .i64 = VQ_EXECUTOR_CPU },  0, 0, FLAGS, .unit = "device" },
    { "psnr", "also compute psnr_y, psnr_cb, psnr_cr", OFFSET(psnr), AV_OPT_TYPE_BOOL, { .i64 = 1 }, 0, 1, FLAGS },
    { "segment_frames", "pool every N frames of the title as a segment", OFFSET(segment_frames), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "segment_duration", "pool every S seconds (the reference's timestamps) as a segment", OFFSET(segment_duration), AV_OPT_TYPE_DOUBLE, { .dbl = 0 }, 0, 1e9, FLAGS },
    { "segment", "segments by stream structure", OFFSET(segment_mode), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 1, FLAGS, .unit = "segment" },
        { "none",      "no segments (or by segment_frames / segment_duration)", 0, AV_OPT_TYPE_CONST, { .i64 = 0 }, 0, 0, FLAGS, .unit = "segment" },
        { "keyframes", "a segment starts at every key frame of the reference",  0, AV_OPT_TYPE_CONST, { .i64 = 1 }, 0, 0, FLAGS, .unit = "segment" },
    { "segment_path", "also write the segments as CSV to this file (%d: the rendition)", OFFSET(segment_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "stream_path", "live output: JSON Lines of every frame, segment and the pooled values, as they are known (a file or a FIFO)", OFFSET(stream_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "score_frames", "A-B: score title frames A..B-1 of the frames A-score_context..B given (a piece of a title, see vqcuda-merge)", OFFSET(score_frames), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "score_context", "with score_frames=A-B: the piece is given title frames A-N .. B (from frame 0 at most): N frames of context for motion (1 for libvmaf's default motion, 4 for the five-frame window with the moving average)", OFFSET(score_context), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, 16, FLAGS },
    { "inputs", "inputs: the renditions (of an encode ladder), then the reference last", OFFSET(nb_renditions_opt), AV_OPT_TYPE_INT, { .i64 = 2 }, 2, MAX_RENDITIONS + 1, FLAGS },
    { "pairing", "which distorted and reference frames make a pair", OFFSET(pairing), AV_OPT_TYPE_INT, { .i64 = PAIRING_TIMESTAMP }, PAIRING_TIMESTAMP, PAIRING_FRAMESYNC, FLAGS, .unit = "pairing" },
        { "timestamp", "frames of one time only (within a tick of the coarser time base); a main frame whose reference frame is of another time is passed on unscored, counted and listed in the log", 0, AV_OPT_TYPE_CONST, { .i64 = PAIRING_TIMESTAMP }, 0, 0, FLAGS, .unit = "pairing" },
        { "framesync", "libvmaf's: each main frame with the reference frame current at its time, whatever that frame's own time", 0, AV_OPT_TYPE_CONST, { .i64 = PAIRING_FRAMESYNC }, 0, 0, FLAGS, .unit = "pairing" },
    { "scaler", "renditions smaller than the reference are upscaled to it", OFFSET(scaler), AV_OPT_TYPE_INT, { .i64 = VQ_SCALER_BICUBIC }, VQ_SCALER_BICUBIC, VQ_SCALER_NONE, FLAGS, .unit = "scaler" },
        { "bicubic",     "swscale's scale=W:H:flags=bicubic+accurate_rnd, bit for bit", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_SCALER_BICUBIC },     0, 0, FLAGS, .unit = "scaler" },
        { "bicubic_x86", "swscale's scale=W:H:flags=bicubic as on x86, bit for bit",    0, AV_OPT_TYPE_CONST, { .i64 = VQ_SCALER_BICUBIC_X86 }, 0, 0, FLAGS, .unit = "scaler" },
        { "none",        "refuse renditions of another size",                          0, AV_OPT_TYPE_CONST, { .i64 = VQ_SCALER_NONE },        0, 0, FLAGS, .unit = "scaler" },
    { "bitdepth", "bits per sample when the format's 16 bits hold fewer, high-aligned (10 or 12 for NVDEC's yuv444p16; 16 for real 16-bit); 0: the format's, 12 for p016 CUDA frames straight from the decoder; other yuv444p16/p016 CUDA frames need it", OFFSET(bitdepth), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 16, FLAGS },
    { NULL }
};

FRAMESYNC_DEFINE_CLASS(vqcuda, VQCUDAContext, fs);
#if CONFIG_LIBVMAF_FILTER && !CONFIG_LIBVMAF
/* The same filter under libvmaf's name, for tools that hardcode it. */
FRAMESYNC_DEFINE_CLASS_EXT(libvmaf, VQCUDAContext, fs, vqcuda_options);
#endif
#if CONFIG_LIBVMAF_CUDA_FILTER && !CONFIG_LIBVMAF
/* And under libvmaf_cuda's, for the GPU's command lines (device=auto is
 * the GPU there: see init). */
FRAMESYNC_DEFINE_CLASS_EXT(libvmaf_cuda, VQCUDAContext, fs, vqcuda_options);
#endif

static const AVFilterPad vqcuda_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_output,
    },
};

/* vqcuda, and the same filter under the names tools hardcode */
#define DEFINE_VQCUDA_FILTER(fname, desc)                                       \
const VQ_FILTER ff_vf_##fname = {                                               \
    VQ_PUB(name)        = #fname,                                               \
    VQ_PUB(description) = NULL_IF_CONFIG_SMALL(desc),                           \
    .preinit            = fname##_framesync_preinit,                            \
    .init               = init,                                                 \
    .uninit             = uninit,                                               \
    .process_command    = process_command,                                      \
    .activate           = activate,                                             \
    .priv_size          = sizeof(VQCUDAContext),                                \
    VQ_PUB(priv_class)  = &fname##_class,                                       \
    /* no inputs listed: inputs=N makes them in init */                         \
    FILTER_OUTPUTS(vqcuda_outputs),                                             \
    FILTER_QUERY_FUNC2(query_formats),                                          \
    VQ_PUB(flags)       = AVFILTER_FLAG_METADATA_ONLY | AVFILTER_FLAG_DYNAMIC_INPUTS, \
    .flags_internal     = FF_FILTER_FLAG_HWFRAME_AWARE,                         \
}

DEFINE_VQCUDA_FILTER(vqcuda, "Calculate VMAF (libvmaf-exact) between two video streams, on the GPU or the CPU.");
#if CONFIG_LIBVMAF_FILTER && !CONFIG_LIBVMAF
DEFINE_VQCUDA_FILTER(libvmaf, "Calculate VMAF (libvmaf-exact, by vqcuda) between two video streams, on the GPU or the CPU.");
#endif
#if CONFIG_LIBVMAF_CUDA_FILTER && !CONFIG_LIBVMAF
DEFINE_VQCUDA_FILTER(libvmaf_cuda, "Calculate VMAF (libvmaf-exact, by vqcuda) between two video streams on the GPU.");
#endif
