/*
 * vqcuda filter: VMAF (libvmaf v3.2.0's integer features, bit for bit) of
 * a distorted input against a reference, computed by libvqcuda on the GPU
 * (CUDA frames stay on the device) or on the CPU.
 *
 * The filter only moves pictures and results: libvqcuda does every sum.
 * Scores arrive late (frame N's motion needs frame N+1, and the GPU folds
 * frame N while N+1 runs), so distorted frames wait in a FIFO and leave,
 * unchanged, with their lavfi.vqcuda.* metadata once their result is in.
 */

#include "config.h"
#include "config_components.h"

#include <string.h>
#include <vqcuda.h>

#include "libavutil/avstring.h"
#include "libavutil/dict.h"
#include "libavutil/error.h"
#include "libavutil/fifo.h"
#include "libavutil/file_open.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"
#include "video.h"

#if CONFIG_CUDA
#include "libavutil/cuda_check.h"
#include "libavutil/hwcontext.h"
#include "libavutil/hwcontext_cuda_internal.h"

#define CHECK_CU(x) FF_CUDA_CHECK_DL(ctx, s->cu, x)
#endif

/* log_fmt "auto": from log_path's extension, else libvmaf's default (xml) */
#define LOG_FMT_AUTO -1

/* A distorted frame waiting for its score.  The reference is kept too, so
 * that both pictures stay alive while the library may still read them. */
typedef struct PendingFrame {
    AVFrame *dist;
    AVFrame *ref;
    int64_t index;              /* submission number; -1: not scored */
} PendingFrame;

typedef struct VQCUDAContext {
    const AVClass *class;
    FFFrameSync fs;

    /* options */
    char *log_path;
    int log_fmt;
    int pool;
    char *model_cfg;
    int n_subsample;
    int n_threads;
    int device;
    int psnr;
    int bitdepth;

    /* model, parsed from model_cfg */
    char *model_path;
    char *model_version;

    VqSession *session;
    VqFormat format;
    AVFifo *pending;            /* PendingFrame, in output order */
    int64_t nb_submitted;
    int64_t nb_scored;          /* results received */
    int64_t nb_unpaired;        /* distorted frames without a new reference */
    int main_ended;             /* an event repeated the last distorted frame */
    int main_longer;            /* main frames left when framesync ended */
    int flushed;
    int eof_sent;
    int closing;                /* in uninit: results are dropped, not sent */
    int event_ran;

    /* the last reference frame scored, to see it repeated */
    const AVFrame *last_ref;
    int64_t last_ref_pts;

#if CONFIG_CUDA
    AVBufferRef *hw_frames_ref; /* keeps the device alive until uninit */
    AVCUDADeviceContext *hwctx;
    CudaFunctions *cu;
#endif
} VQCUDAContext;

static int vq_to_averror(int err)
{
    switch (err) {
    case VQ_ENOMEM: return AVERROR(ENOMEM);
    case VQ_EINVAL:
    case VQ_EMODEL: return AVERROR(EINVAL);
    default:        return AVERROR_EXTERNAL;
    }
}

static int library_error(AVFilterContext *ctx, int err, const char *call)
{
    VQCUDAContext *s = ctx->priv;
    const char *msg = s->session ? vq_session_error(s->session) : NULL;

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

/* model: "version=NAME" or "path=FILE", ':'-separated key=value like libvmaf */
static int parse_model(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    AVDictionary *dict = NULL;
    const AVDictionaryEntry *e = NULL;
    int ret;

    if (!s->model_cfg || !*s->model_cfg) {
        s->model_version = av_strdup("vmaf_v0.6.1");
        return s->model_version ? 0 : AVERROR(ENOMEM);
    }
    if (strchr(s->model_cfg, '|')) {
        av_log(ctx, AV_LOG_ERROR, "model '%s': only one model is supported\n",
               s->model_cfg);
        return AVERROR(EINVAL);
    }
    ret = av_dict_parse_string(&dict, s->model_cfg, "=", ":", 0);
    if (ret < 0) {
        av_log(ctx, AV_LOG_ERROR, "model '%s' is not key=value[:key=value]\n",
               s->model_cfg);
        goto end;
    }
    while ((e = av_dict_iterate(dict, e))) {
        char **dst = !strcmp(e->key, "version") ? &s->model_version :
                     !strcmp(e->key, "path")    ? &s->model_path    : NULL;
        if (dst) {
            if (!(*dst = av_strdup(e->value))) {
                ret = AVERROR(ENOMEM);
                goto end;
            }
        } else if ((!strcmp(e->key, "disable_clip") ||
                    !strcmp(e->key, "enable_transform")) &&
                   (!strcmp(e->value, "false") || !strcmp(e->value, "0"))) {
            continue;           /* libvmaf's defaults: nothing to change */
        } else if (!strcmp(e->key, "name") && !strcmp(e->value, "vmaf")) {
            continue;
        } else {
            av_log(ctx, AV_LOG_ERROR, "model option %s=%s is not supported "
                   "(supported: version=NAME or path=FILE)\n", e->key, e->value);
            ret = AVERROR(EINVAL);
            goto end;
        }
    }
    if (!!s->model_version == !!s->model_path) {
        av_log(ctx, AV_LOG_ERROR, "model '%s': give exactly one of version= "
               "and path=\n", s->model_cfg);
        ret = AVERROR(EINVAL);
    }
end:
    av_dict_free(&dict);
    return ret;
}

static av_cold int init(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    int ret = parse_model(ctx);

    if (ret < 0)
        return ret;
    if (s->log_path) {
        /* the log is written at the end: find out now if it cannot be */
        FILE *f = avpriv_fopen_utf8(s->log_path, "w");
        if (!f) {
            ret = AVERROR(errno);
            av_log(ctx, AV_LOG_ERROR, "cannot write log_path %s: %s\n",
                   s->log_path, av_err2str(ret));
            return ret;
        }
        fclose(f);
    }
    s->pending = av_fifo_alloc2(8, sizeof(PendingFrame), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->pending)
        return AVERROR(ENOMEM);
    s->last_ref_pts = AV_NOPTS_VALUE;
    return 0;
}

/* Hand frames downstream in order: every unscored frame at the head, and
 * scored frames up to index upto; the one whose result is res gets it. */
static int release_frames(AVFilterContext *ctx, int64_t upto,
                          const VqFrameResult *res)
{
    VQCUDAContext *s = ctx->priv;
    PendingFrame p;
    int ret;

    while (av_fifo_peek(s->pending, &p, 1, 0) >= 0) {
        if (p.index > upto)
            break;
        av_fifo_drain2(s->pending, 1);
        av_frame_free(&p.ref);
        if (s->closing) {
            av_frame_free(&p.dist);
            continue;
        }
        if (res && p.index == res->index) {
            for (int i = 0; i < res->n; i++) {
                char key[128], value[32];
                snprintf(key, sizeof(key), "lavfi.vqcuda.%s", res->name[i]);
                snprintf(value, sizeof(value), "%.17g", res->value[i]);
                ret = av_dict_set(&p.dist->metadata, key, value, 0);
                if (ret < 0) {
                    av_frame_free(&p.dist);
                    return ret;
                }
            }
        }
        ret = ff_filter_frame(ctx->outputs[0], p.dist);
        if (ret < 0)
            return ret;
    }
    return 0;
}

static int queue_frame(AVFilterContext *ctx, AVFrame *dist, AVFrame *ref,
                       int64_t index)
{
    VQCUDAContext *s = ctx->priv;
    PendingFrame p = { .dist = dist, .ref = ref, .index = index };
    int ret = av_fifo_write(s->pending, &p, 1);

    if (ret < 0) {
        av_frame_free(&dist);
        av_frame_free(&ref);
    }
    return ret;
}

/* Take every result the library has ready (after flush: all of them). */
static int receive_results(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;

    for (;;) {
        VqFrameResult res;
        int err, ret = cuda_push(ctx);

        if (ret < 0)
            return ret;
        err = vq_session_receive(s->session, &res);
        cuda_pop(ctx);
        if (err == VQ_EOF)
            return 0;
        if (err == VQ_EAGAIN) {
            if (!s->flushed)
                return 0;
            av_log(ctx, AV_LOG_ERROR, "libvqcuda returned no result after "
                   "flush, %"PRId64" of %"PRId64" frames scored\n",
                   s->nb_scored, s->nb_submitted);
            return AVERROR_EXTERNAL;
        }
        if (err < 0)
            return library_error(ctx, err, "vq_session_receive");
        s->nb_scored++;
        ret = release_frames(ctx, res.index, &res);
        if (ret < 0)
            return ret;
    }
}

static int flush_session(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    int err, ret;

    if (!s->session || s->flushed)
        return 0;
    s->flushed = 1;
    if ((ret = cuda_push(ctx)) < 0)
        return ret;
    err = vq_session_flush(s->session);
    cuda_pop(ctx);
    if (err < 0)
        return library_error(ctx, err, "vq_session_flush");
    return receive_results(ctx);
}

static void warn_unscored(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;

    if (s->nb_unpaired)
        av_log(ctx, AV_LOG_WARNING, "the inputs differ in length or rate: "
               "%"PRId64" main frames had no new reference frame and were "
               "passed through unscored\n", s->nb_unpaired);
    if (s->main_ended)
        av_log(ctx, AV_LOG_WARNING, "the reference input is longer than the "
               "main input: its frames after the main input's end are ignored\n");
    if (s->main_longer)
        av_log(ctx, AV_LOG_WARNING, "the main input is longer than the "
               "reference input: its frames after the reference's end are "
               "dropped (shortest or eof_action=endall)\n");
    if (s->nb_unpaired || s->main_ended || s->main_longer)
        av_log(ctx, AV_LOG_WARNING, "scored the %"PRId64" common frames\n",
               s->nb_submitted);
}

/* Both inputs are done (or the main one is): score what is left, send it. */
static int finish_stream(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->outputs[0];
    int ret;

    s->eof_sent = 1;
    /* frames still queued on an input: it was the longer one */
    if (ff_inlink_queued_frames(ctx->inputs[0]))
        s->main_longer = 1;
    if (ff_inlink_queued_frames(ctx->inputs[1]))
        s->main_ended = 1;
    ret = flush_session(ctx);
    if (ret >= 0)
        ret = release_frames(ctx, INT64_MAX, NULL);
    warn_unscored(ctx);
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

static int check_frame(AVFilterContext *ctx, const AVFrame *f, const char *which)
{
    AVFilterLink *outlink = ctx->outputs[0];

    if (f->width != outlink->w || f->height != outlink->h) {
        av_log(ctx, AV_LOG_ERROR, "%s frame is %dx%d, the stream started at "
               "%dx%d: size changes are not supported\n",
               which, f->width, f->height, outlink->w, outlink->h);
        return AVERROR(EINVAL);
    }
    if (f->format != outlink->format) {
        av_log(ctx, AV_LOG_ERROR, "%s frame format changed to %s\n",
               which, av_get_pix_fmt_name(f->format));
        return AVERROR(EINVAL);
    }
    return 0;
}

static int do_vqcuda(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    VQCUDAContext *s = ctx->priv;
    AVFrame *dist, *ref, *ref_keep;
    VqPicture pic_ref, pic_dist;
    int on_device = ctx->inputs[0]->format == AV_PIX_FMT_CUDA;
    int ret, err;

    ret = ff_framesync_dualinput_get(fs, &dist, &ref);
    if (ret < 0)
        return ret;
    s->event_ran = 1;

    /* The main input ended and framesync repeats its last frame against the
     * longer reference: nothing new to score or to send. */
    if (fs->in[0].sync == 0) {
        av_frame_free(&dist);
        s->main_ended = 1;
        return 0;
    }
    if ((ret = check_frame(ctx, dist, "main")) < 0) {
        av_frame_free(&dist);
        return ret;
    }

    /* No reference yet, or the last one again (shorter or slower reference):
     * score only frames that have a reference frame of their own. */
    if (!ref || (ref == s->last_ref && fs->in[1].pts == s->last_ref_pts)) {
        s->nb_unpaired++;
        ret = queue_frame(ctx, dist, NULL, -1);
        return ret < 0 ? ret : release_frames(ctx, -1, NULL);
    }
    s->last_ref     = ref;
    s->last_ref_pts = fs->in[1].pts;
    if ((ret = check_frame(ctx, ref, "reference")) < 0) {
        av_frame_free(&dist);
        return ret;
    }
    if (dist->color_range != ref->color_range && !s->nb_submitted)
        av_log(ctx, AV_LOG_WARNING, "main and reference use different color "
               "ranges (%s, %s)\n", av_color_range_name(dist->color_range),
               av_color_range_name(ref->color_range));

    ref_keep = av_frame_clone(ref);
    if (!ref_keep) {
        av_frame_free(&dist);
        return AVERROR(ENOMEM);
    }
    fill_picture(&pic_ref, ref, on_device);
    fill_picture(&pic_dist, dist, on_device);

    if ((ret = cuda_push(ctx)) < 0) {
        av_frame_free(&dist);
        av_frame_free(&ref_keep);
        return ret;
    }
    err = vq_session_submit(s->session, &pic_ref, &pic_dist);
    cuda_pop(ctx);
    if (err < 0) {
        av_frame_free(&dist);
        av_frame_free(&ref_keep);
        return library_error(ctx, err, "vq_session_submit");
    }

    if (!s->nb_submitted)   /* "auto" is settled by the first picture */
        av_log(ctx, AV_LOG_VERBOSE, "libvqcuda %s, executor %s\n",
               vqcuda_version(), vq_session_executor_name(s->session));
    ret = queue_frame(ctx, dist, ref_keep, s->nb_submitted++);
    if (ret < 0)
        return ret;
    return receive_results(ctx);
}

/* The pixel formats the library reads, and how its planes are laid out. */
static const struct {
    enum AVPixelFormat fmt;
    enum VqLayout layout;
} format_layouts[] = {
    { AV_PIX_FMT_YUV420P,     VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_YUV422P,     VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_YUV444P,     VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_YUV420P10LE, VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_YUV422P10LE, VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_YUV444P10LE, VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_YUV420P12LE, VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_YUV422P12LE, VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_YUV444P12LE, VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_YUV444P16LE, VQ_LAYOUT_PLANAR },
    { AV_PIX_FMT_GRAY8,       VQ_LAYOUT_GRAY },
    { AV_PIX_FMT_GRAY10LE,    VQ_LAYOUT_GRAY },
    { AV_PIX_FMT_GRAY12LE,    VQ_LAYOUT_GRAY },
    { AV_PIX_FMT_NV12,        VQ_LAYOUT_SEMIPLANAR },
    { AV_PIX_FMT_P010LE,      VQ_LAYOUT_SEMIPLANAR },
    { AV_PIX_FMT_P016LE,      VQ_LAYOUT_SEMIPLANAR },
};

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
    return ff_formats_ref(ff_make_format_list(pix_fmts), &cfg_in[1]->formats);
}

static int fill_format(AVFilterContext *ctx, enum AVPixelFormat fmt,
                       int w, int h, int hw, VqFormat *f)
{
    VQCUDAContext *s = ctx->priv;
    int bitdepth = s->bitdepth;
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(fmt);
    int i, depth;

    for (i = 0; i < FF_ARRAY_ELEMS(format_layouts); i++)
        if (format_layouts[i].fmt == fmt)
            break;
    if (!desc || i == FF_ARRAY_ELEMS(format_layouts)) {
        av_log(ctx, AV_LOG_ERROR, "pixel format %s is not supported\n",
               av_get_pix_fmt_name(fmt));
        return AVERROR(EINVAL);
    }
    depth = desc->comp[0].depth;

    memset(f, 0, sizeof(*f));
    f->width            = w;
    f->height           = h;
    f->layout           = format_layouts[i].layout;
    f->bytes_per_sample = depth > 8 ? 2 : 1;
    f->bitdepth         = depth;
    f->msb_aligned      = desc->comp[0].shift > 0;   /* p010 */
    f->chroma_shift_w   = desc->log2_chroma_w;
    f->chroma_shift_h   = desc->log2_chroma_h;

    /* NVDEC returns 12-bit 4:2:0 video as p016, and 10/12-bit 4:4:4 as
     * yuv444p16, with the samples in the high bits; nothing in the frame says
     * so, hence the option.  NVDEC makes p016 only of 12-bit video (10-bit is
     * p010), so that is the default for p016 CUDA frames. */
    if (!bitdepth && hw && fmt == AV_PIX_FMT_P016) {
        bitdepth = 12;
        av_log(ctx, AV_LOG_VERBOSE, "p016 CUDA frames scored as 12-bit video "
               "(NVDEC's output for 12-bit 4:2:0); set bitdepth=16 otherwise\n");
    }
    if (!bitdepth && hw && fmt == AV_PIX_FMT_YUV444P16)
        av_log(ctx, AV_LOG_WARNING, "yuv444p16 CUDA frames are scored as 16-bit "
               "video; NVDEC gives 10- and 12-bit 4:4:4 video in this format: "
               "set bitdepth=10 or 12 for those\n");
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
/* Both inputs must be CUDA frames of one device and one sw_format. */
static int config_cuda(AVFilterContext *ctx, enum AVPixelFormat *sw_format)
{
    VQCUDAContext *s = ctx->priv;
    FilterLink *il0 = ff_filter_link(ctx->inputs[0]);
    FilterLink *il1 = ff_filter_link(ctx->inputs[1]);
    FilterLink *ol  = ff_filter_link(ctx->outputs[0]);
    AVHWFramesContext *f0, *f1;

    if (!il0->hw_frames_ctx || !il1->hw_frames_ctx) {
        av_log(ctx, AV_LOG_ERROR, "CUDA input without a hardware frames "
               "context\n");
        return AVERROR(EINVAL);
    }
    f0 = (AVHWFramesContext *)il0->hw_frames_ctx->data;
    f1 = (AVHWFramesContext *)il1->hw_frames_ctx->data;
    if (f0->device_ctx->type != AV_HWDEVICE_TYPE_CUDA ||
        f1->device_ctx->type != AV_HWDEVICE_TYPE_CUDA) {
        av_log(ctx, AV_LOG_ERROR, "input frames are not CUDA frames\n");
        return AVERROR(EINVAL);
    }
    if (((AVCUDADeviceContext *)f0->device_ctx->hwctx)->cuda_ctx !=
        ((AVCUDADeviceContext *)f1->device_ctx->hwctx)->cuda_ctx) {
        av_log(ctx, AV_LOG_ERROR, "main and reference frames are on different "
               "CUDA contexts: decode both with one -hwaccel_device, or upload "
               "with hwupload and one -filter_hw_device\n");
        return AVERROR(EINVAL);
    }
    if (f0->sw_format != f1->sw_format) {
        av_log(ctx, AV_LOG_ERROR, "main and reference CUDA frames differ in "
               "format (%s, %s)\n", av_get_pix_fmt_name(f0->sw_format),
               av_get_pix_fmt_name(f1->sw_format));
        return AVERROR(EINVAL);
    }
    if (s->device == VQ_EXECUTOR_CPU) {
        av_log(ctx, AV_LOG_ERROR, "device=cpu cannot read CUDA frames: "
               "hwdownload them, or use device=auto or cuda\n");
        return AVERROR(EINVAL);
    }

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

static int open_session(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    VqConfig cfg;
    char errbuf[256] = "";
    int err, ret;

    vq_config_default(&cfg);
    cfg.format        = s->format;
    cfg.executor      = s->device;
    cfg.model_path    = s->model_path;
    cfg.model_version = s->model_version;
    cfg.n_subsample   = s->n_subsample;
    cfg.enable_psnr   = s->psnr;
    cfg.threads       = s->n_threads;
    cfg.keep_frames   = !!s->log_path;   /* else memory stays flat on long jobs */
#if CONFIG_CUDA
    if (s->cu) {
        cfg.cuda_stream = s->hwctx->stream;
        /* frames on the GPU: start the CUDA executor now, so that a missing
         * GPU is reported here rather than at the first frame */
        if (cfg.executor == VQ_EXECUTOR_AUTO)
            cfg.executor = VQ_EXECUTOR_CUDA;
    }
#endif

    if ((ret = cuda_push(ctx)) < 0)
        return ret;
    err = vq_session_open(&s->session, &cfg, errbuf, sizeof(errbuf));
    cuda_pop(ctx);
    if (err < 0) {
        av_log(ctx, AV_LOG_ERROR, "libvqcuda cannot score this input (%d): "
               "%s\n", err, *errbuf ? errbuf : "no message");
        return vq_to_averror(err);
    }
    return 0;
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    VQCUDAContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    AVFilterLink *reflink  = ctx->inputs[1];
    FilterLink *il = ff_filter_link(mainlink);
    FilterLink *ol = ff_filter_link(outlink);
    enum AVPixelFormat sw_format = mainlink->format;
    int ret;

    if (mainlink->w != reflink->w || mainlink->h != reflink->h) {
        av_log(ctx, AV_LOG_ERROR, "main (%dx%d) and reference (%dx%d) differ "
               "in size\n", mainlink->w, mainlink->h, reflink->w, reflink->h);
        return AVERROR(EINVAL);
    }
    if (mainlink->format != reflink->format) {
        av_log(ctx, AV_LOG_ERROR, "main (%s) and reference (%s) differ in "
               "pixel format\n", av_get_pix_fmt_name(mainlink->format),
               av_get_pix_fmt_name(reflink->format));
        return AVERROR(EINVAL);
    }
    if (mainlink->w < 33 || mainlink->h < 33) {
        av_log(ctx, AV_LOG_ERROR, "input is %dx%d: VMAF needs at least 33x33 "
               "(smaller pictures make libvmaf read outside the frame)\n",
               mainlink->w, mainlink->h);
        return AVERROR(EINVAL);
    }
    if (mainlink->format == AV_PIX_FMT_CUDA) {
#if CONFIG_CUDA
        if ((ret = config_cuda(ctx, &sw_format)) < 0)
            return ret;
#else
        return AVERROR(ENOSYS);
#endif
    }
    if ((ret = fill_format(ctx, sw_format, mainlink->w, mainlink->h,
                           mainlink->format == AV_PIX_FMT_CUDA, &s->format)) < 0)
        return ret;
    if (!s->session && (ret = open_session(ctx)) < 0)
        return ret;

    ret = ff_framesync_init_dualinput(&s->fs, ctx);
    if (ret < 0)
        return ret;
    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
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

static int activate(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    int ret;

    s->event_ran = 0;
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

static enum VqLogFormat log_format(const VQCUDAContext *s)
{
    const char *ext;

    if (s->log_fmt != LOG_FMT_AUTO)
        return s->log_fmt;
    ext = strrchr(s->log_path, '.');
    if (ext && !av_strcasecmp(ext, ".json"))
        return VQ_LOG_JSON;
    if (ext && !av_strcasecmp(ext, ".csv"))
        return VQ_LOG_CSV;
    return VQ_LOG_XML;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    static const char *const pool_names[] = { "mean", "min", "max",
                                              "harmonic_mean" };

    ff_framesync_uninit(&s->fs);
    s->closing = 1;

    if (s->session && s->nb_submitted) {
        double score;
        int err;

        if (!s->eof_sent) {
            flush_session(ctx);
            warn_unscored(ctx);
        }
        err = vq_session_pooled(s->session, "vmaf", s->pool, &score);
        if (err < 0)
            library_error(ctx, err, "vq_session_pooled");
        else
            av_log(ctx, AV_LOG_INFO, "VMAF score: %f\n", score);
        av_log(ctx, AV_LOG_VERBOSE, "pool %s over %"PRId64" scored frames\n",
               pool_names[s->pool], s->nb_scored);

        if (s->log_path) {
            err = vq_session_write_log(s->session, s->log_path, log_format(s));
            if (err < 0)
                library_error(ctx, err, "vq_session_write_log");
        }
    } else if (s->session && s->log_path) {
        av_log(ctx, AV_LOG_WARNING, "no frame was scored, %s not written\n",
               s->log_path);
    }

    if (s->session) {
        if (cuda_push(ctx) >= 0) {
            vq_session_close(&s->session);
            cuda_pop(ctx);
        } else {
            vq_session_close(&s->session);
        }
    }
    if (s->pending)
        release_frames(ctx, INT64_MAX, NULL);   /* closing: frees them */
    av_fifo_freep2(&s->pending);
    av_freep(&s->model_path);
    av_freep(&s->model_version);
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
    { "log_fmt", "log format (auto: from log_path's extension, else xml)", OFFSET(log_fmt), AV_OPT_TYPE_INT, { .i64 = LOG_FMT_AUTO }, LOG_FMT_AUTO, VQ_LOG_CSV, FLAGS, .unit = "log_fmt" },
        { "auto", "from the extension of log_path", 0, AV_OPT_TYPE_CONST, { .i64 = LOG_FMT_AUTO }, 0, 0, FLAGS, .unit = "log_fmt" },
        { "json", "libvmaf's JSON log",             0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_JSON },  0, 0, FLAGS, .unit = "log_fmt" },
        { "xml",  "libvmaf's XML log",              0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_XML },   0, 0, FLAGS, .unit = "log_fmt" },
        { "csv",  "libvmaf's CSV log",              0, AV_OPT_TYPE_CONST, { .i64 = VQ_LOG_CSV },   0, 0, FLAGS, .unit = "log_fmt" },
    { "pool", "pooling of the VMAF score logged at the end", OFFSET(pool), AV_OPT_TYPE_INT, { .i64 = VQ_POOL_MEAN }, VQ_POOL_MEAN, VQ_POOL_HARMONIC_MEAN, FLAGS, .unit = "pool" },
        { "mean",          "arithmetic mean", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_MEAN },          0, 0, FLAGS, .unit = "pool" },
        { "min",           "minimum",         0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_MIN },           0, 0, FLAGS, .unit = "pool" },
        { "max",           "maximum",         0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_MAX },           0, 0, FLAGS, .unit = "pool" },
        { "harmonic_mean", "harmonic mean",   0, AV_OPT_TYPE_CONST, { .i64 = VQ_POOL_HARMONIC_MEAN }, 0, 0, FLAGS, .unit = "pool" },
    { "model", "model: version=NAME (built in) or path=FILE (libvmaf JSON)", OFFSET(model_cfg), AV_OPT_TYPE_STRING, { .str = "version=vmaf_v0.6.1" }, 0, 0, FLAGS },
    { "n_subsample", "score every n-th frame", OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { "n_threads", "CPU executor threads (0: one)", OFFSET(n_threads), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "device", "where to compute", OFFSET(device), AV_OPT_TYPE_INT, { .i64 = VQ_EXECUTOR_AUTO }, VQ_EXECUTOR_AUTO, VQ_EXECUTOR_CUDA, FLAGS, .unit = "device" },
        { "auto", "the GPU for CUDA frames, else the CPU", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_EXECUTOR_AUTO }, 0, 0, FLAGS, .unit = "device" },
        { "cuda", "the GPU (software frames are uploaded)", 0, AV_OPT_TYPE_CONST, { .i64 = VQ_EXECUTOR_CUDA }, 0, 0, FLAGS, .unit = "device" },
        { "cpu",  "the CPU",                                0, AV_OPT_TYPE_CONST, { .i64 = VQ_EXECUTOR_CPU },  0, 0, FLAGS, .unit = "device" },
    { "psnr", "also compute psnr_y, psnr_cb, psnr_cr", OFFSET(psnr), AV_OPT_TYPE_BOOL, { .i64 = 1 }, 0, 1, FLAGS },
    { "bitdepth", "bits per sample when the format's 16 bits hold fewer, high-aligned (10 or 12 for NVDEC's yuv444p16); 0: the format's, but 12 for p016 CUDA frames", OFFSET(bitdepth), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 16, FLAGS },
    { NULL }
};

FRAMESYNC_DEFINE_CLASS(vqcuda, VQCUDAContext, fs);

static const AVFilterPad vqcuda_inputs[] = {
    {
        .name = "main",
        .type = AVMEDIA_TYPE_VIDEO,
    },
    {
        .name = "reference",
        .type = AVMEDIA_TYPE_VIDEO,
    },
};

static const AVFilterPad vqcuda_outputs[] = {
    {
        .name         = "default",
        .type         = AVMEDIA_TYPE_VIDEO,
        .config_props = config_output,
    },
};

const AVFilter ff_vf_vqcuda = {
    .name           = "vqcuda",
    .description    = NULL_IF_CONFIG_SMALL("Calculate VMAF (libvmaf-exact) between two video streams, on the GPU or the CPU."),
    .preinit        = vqcuda_framesync_preinit,
    .init           = init,
    .uninit         = uninit,
    .activate       = activate,
    .priv_size      = sizeof(VQCUDAContext),
    .priv_class     = &vqcuda_class,
    FILTER_INPUTS(vqcuda_inputs),
    FILTER_OUTPUTS(vqcuda_outputs),
    FILTER_QUERY_FUNC2(query_formats),
    .flags          = AVFILTER_FLAG_METADATA_ONLY,
    .flags_internal = FF_FILTER_FLAG_HWFRAME_AWARE,
};
