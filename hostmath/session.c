/*
 * session.c - libvqcuda's public API (include/vqcuda.h): one scoring session.
 *
 * Per frame pair: an executor (CPU loops or CUDA kernels, kernels/) fills the
 * row-sum buffer (kernels/vq_rows.h); this file folds it into features with
 * hostmath/'s formulas, runs motion2/motion3 and the model once the next
 * frame is known, and hands results back in frame order.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vqcuda.h"
#include "fex_options.h"
#include "vq_common.h"
#include "vq_rows.h"
#include "adm_exec.h"
#include "adm_fold.h"
#include "adm_params.h"
#include "cuda_exec.h"
#include "model.h"
#include "motion_exec.h"
#include "motion_fold.h"
#include "output.h"
#include "pool.h"
#include "psnr_exec.h"
#include "psnr_fold.h"
#include "vif_exec.h"
#include "vif_fold.h"

/* Features in libvmaf's log order (a default run's JSON). */
enum {
    F_ADM2, F_AIM, F_ADM3, F_ADM_S0, F_ADM_S1, F_ADM_S2, F_ADM_S3,
    F_MOTION_SAD, F_VIF_S0, F_VIF_S1, F_VIF_S2, F_VIF_S3,
    F_PSNR_Y, F_PSNR_CB, F_PSNR_CR, F_MOTION2, F_MOTION3, F_VMAF,
    F_COUNT
};

static const char *const base_names[F_COUNT] = {
    "integer_adm2", "integer_aim", "integer_adm3", "integer_adm_scale0",
    "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3",
    "VMAF_integer_feature_motion_sad_score", "integer_vif_scale0",
    "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3",
    "psnr_y", "psnr_cb", "psnr_cr", "integer_motion2", "integer_motion3", "vmaf",
};

/* libvmaf's internal (model JSON) names of the features a model may use. */
static const struct { const char *name; int f; } model_features[] = {
    { "VMAF_integer_feature_adm2_score",       F_ADM2 },
    { "VMAF_integer_feature_motion2_score",    F_MOTION2 },
    { "VMAF_integer_feature_vif_scale0_score", F_VIF_S0 },
    { "VMAF_integer_feature_vif_scale1_score", F_VIF_S1 },
    { "VMAF_integer_feature_vif_scale2_score", F_VIF_S2 },
    { "VMAF_integer_feature_vif_scale3_score", F_VIF_S3 },
    { "VMAF_integer_feature_motion3_score",    F_MOTION3 },
    { "VMAF_integer_feature_adm3_score",       F_ADM3 },
    { "VMAF_integer_feature_aim_score",        F_AIM },
};

typedef struct FrameRec {
    double v[F_COUNT];
    uint8_t scored;     /* VIF/ADM/PSNR ran (n_subsample) */
} FrameRec;

struct VqSession {
    VqConfig cfg;
    VqFormat fmt;
    char err[512];
    char name_buf[F_COUNT][96];
    const char *names[F_COUNT];
    int present[F_COUNT];         /* written for scored frames */
    int nplanes;                  /* psnr planes */
    VqRowLayout layout;
    VqAdmParams adm;
    VqAdmOptions adm_opt;
    VqMotion2Opts motion2_opt;
    double motion_fps_weight, motion_max_val;
    double vif_egl;
    uint16_t *log2_table;
    VqModel *model;
    int model_f[VQ_MODEL_MAX_FEATURES];   /* model feature k -> F_* */

    int use_cuda;
    int executor_ready;
    VqCudaExec *cuda;

    VqVifCpu *vif_cpu;
    VqAdmCpu *adm_cpu;
    VqMotionCpu *motion_cpu;
    int64_t *rows;

    /* frames[i - base] for base <= i < n_submitted; without keep_frames the
     * received ones are dropped, so a long job holds a few frames only */
    FrameRec *frames;
    size_t cap;
    int64_t base;
    int64_t n_submitted, n_folded, n_received;
    VqMotion2 motion2;             /* motion2/3 of frame n-1 once frame n is folded */
    VqPoolAcc pool[F_COUNT];       /* libvmaf's pooling, one received frame at a time */
    int flushed;
};

#define FRAME(s, i) (&(s)->frames[(i) - (s)->base])

static int fail(VqSession *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof(s->err), fmt, ap);
    va_end(ap);
    return code;
}

const char *vqcuda_version(void)
{
    return VQ_VERSION_STRING;
}

void vq_config_default(VqConfig *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->executor = VQ_EXECUTOR_AUTO;
    cfg->n_subsample = 1;
    cfg->enable_psnr = 1;
    cfg->threads = 1;
    cfg->keep_frames = 1;
}

const char *vq_session_error(const VqSession *s)
{
    return s ? s->err : "no session";
}

const char *vq_session_executor_name(const VqSession *s)
{
    return s->use_cuda ? "cuda" : "cpu";
}

static int check_format(VqSession *s, const VqFormat *f)
{
    if (f->width < 33 || f->height < 33)
        return fail(s, VQ_EINVAL, "frame size %dx%d is below 33x33: libvmaf reads outside such "
                    "frames, so there is no reference result to match", f->width, f->height);
    if (f->bitdepth != 8 && f->bitdepth != 10 && f->bitdepth != 12 && f->bitdepth != 16)
        return fail(s, VQ_EINVAL, "bit depth %d is not supported (8, 10, 12 or 16, as libvmaf's psnr)",
                    f->bitdepth);
    if (f->bytes_per_sample != (f->bitdepth > 8 ? 2 : 1))
        return fail(s, VQ_EINVAL, "%d-bit samples in %d bytes are not supported",
                    f->bitdepth, f->bytes_per_sample);
    if (f->chroma_shift_w < 0 || f->chroma_shift_w > 1 || f->chroma_shift_h < 0 || f->chroma_shift_h > 1)
        return fail(s, VQ_EINVAL, "chroma subsampling %d/%d is not supported",
                    f->chroma_shift_w, f->chroma_shift_h);
    if (f->layout < VQ_LAYOUT_PLANAR || f->layout > VQ_LAYOUT_GRAY)
        return fail(s, VQ_EINVAL, "unknown plane layout %d", (int)f->layout);
    if (f->msb_aligned && f->bytes_per_sample != 2)
        return fail(s, VQ_EINVAL, "msb-aligned samples need 16-bit storage");
    return VQ_OK;
}

/* feature names: base name + the suffix the model's options give (libvmaf's rule) */
static void make_names(VqSession *s)
{
    for (int f = 0; f < F_COUNT; f++) {
        const char *suffix = "";
        if (f <= F_ADM_S3)
            suffix = vq_model_adm_suffix(s->model);
        else if (f >= F_VIF_S0 && f <= F_VIF_S3)
            suffix = vq_model_vif_suffix(s->model);
        snprintf(s->name_buf[f], sizeof(s->name_buf[f]), "%s%s", base_names[f], suffix);
        s->names[f] = s->name_buf[f];
    }
}

static int map_model_features(VqSession *s)
{
    int n = vq_model_feature_count(s->model);
    for (int k = 0; k < n; k++) {
        const char *name = vq_model_feature_name(s->model, k);
        int found = -1;
        for (size_t j = 0; j < sizeof(model_features) / sizeof(model_features[0]); j++)
            if (!strcmp(name, model_features[j].name))
                found = model_features[j].f;
        if (found < 0)
            return fail(s, VQ_EMODEL, "model feature '%s' is not computed by vqcuda "
                        "(integer adm/vif/motion only)", name);
        s->model_f[k] = found;
    }
    return VQ_OK;
}

/* The extractor options a model asks for: those the kernels implement are
 * applied, any other non-default value is refused rather than ignored. */
static int apply_model_options(VqSession *s)
{
    const VqFexOptions *o = vq_model_fex_options(s->model);
    VqFexOptions d;
    vq_fex_options_default(&d);
#define UNSUPPORTED(field, opt)                                                     \
    if (o->field != d.field)                                                        \
        return fail(s, VQ_EMODEL, "model option %s is not supported by vqcuda", opt)
    UNSUPPORTED(vif_debug, "vif debug");
    UNSUPPORTED(vif_skip_scale0, "vif_skip_scale0");
    UNSUPPORTED(adm_debug, "adm debug");
    UNSUPPORTED(adm_csf_mode, "adm_csf_mode (only Watson 1997)");
    UNSUPPORTED(adm_skip_scale0, "adm_skip_scale0");
    UNSUPPORTED(adm_skip_aim, "adm_skip_aim");
    UNSUPPORTED(motion_force_zero, "motion_force_zero");
    UNSUPPORTED(motion_five_frame_window, "motion_five_frame_window");
    UNSUPPORTED(motion_debug, "motion debug");
#undef UNSUPPORTED
    vq_adm_options_default(&s->adm_opt);
    s->adm_opt.enhn_gain_limit = o->adm_enhn_gain_limit;
    s->adm_opt.norm_view_dist = o->adm_norm_view_dist;
    s->adm_opt.ref_display_height = o->adm_ref_display_height;
    s->adm_opt.noise_weight = o->adm_noise_weight;
    s->adm_opt.dlm_weight = o->adm_dlm_weight;
    s->adm_opt.min_val = o->adm_min_val;
    s->vif_egl = o->vif_enhn_gain_limit;
    vq_motion2_opts_default(&s->motion2_opt);
    s->motion2_opt.blend_factor = o->motion_blend_factor;
    s->motion2_opt.blend_offset = o->motion_blend_offset;
    s->motion2_opt.max_val = o->motion_max_val;
    s->motion2_opt.moving_average = o->motion_moving_average;
    vq_motion2_init(&s->motion2, &s->motion2_opt);
    s->motion_fps_weight = o->motion_fps_weight;
    s->motion_max_val = o->motion_max_val;
    return VQ_OK;
}

static VqPlaneView plane_view(const VqSession *s, const VqPicture *p, int plane, int interleaved_second)
{
    const VqFormat *f = &s->fmt;
    VqPlaneView v;
    int idx = plane;
    memset(&v, 0, sizeof(v));
    v.bytes = f->bytes_per_sample;
    v.shift = f->msb_aligned ? 16 - f->bitdepth : 0;
    v.step = 1;
    if (plane == 0) {
        v.w = f->width;
        v.h = f->height;
    } else {
        v.w = (f->width + (1 << f->chroma_shift_w) - 1) >> f->chroma_shift_w;
        v.h = (f->height + (1 << f->chroma_shift_h) - 1) >> f->chroma_shift_h;
        if (f->layout == VQ_LAYOUT_SEMIPLANAR) {
            idx = 1;
            v.step = 2;
        }
    }
    v.data = (const uint8_t *)p->data[idx];
    v.pitch = p->linesize[idx];
    if (plane && f->layout == VQ_LAYOUT_SEMIPLANAR && interleaved_second)
        v.data += v.bytes;
    return v;
}

/* CPU loops or CUDA kernels; AUTO decides on the first picture (device or host memory). */
static int init_executor(VqSession *s, int cuda)
{
    char err[512] = "";
    int ret;
    s->use_cuda = cuda;
    s->executor_ready = 1;
    if (cuda) {
        VqCudaExecConfig cc;
        memset(&cc, 0, sizeof(cc));
        cc.w = s->fmt.width;
        cc.h = s->fmt.height;
        cc.bpc = s->fmt.bitdepth;
        cc.nplanes = s->nplanes;
        cc.layout = s->layout;
        cc.adm = s->adm;
        cc.vif_egl = s->vif_egl;
        cc.vif_log2_table = s->log2_table;
        cc.stream = s->cfg.cuda_stream;
        ret = vq_cuda_exec_open(&s->cuda, &cc, err, sizeof(err));
        if (ret < 0)
            return fail(s, ret, "cuda executor: %s", err);
        return VQ_OK;
    }
    s->vif_cpu = vq_vif_cpu_alloc(s->fmt.width, s->fmt.height);
    s->adm_cpu = vq_adm_cpu_alloc(s->fmt.width, s->fmt.height);
    s->motion_cpu = vq_motion_cpu_alloc(s->fmt.width, s->fmt.height);
    s->rows = calloc(s->layout.total, sizeof(*s->rows));
    if (!s->vif_cpu || !s->adm_cpu || !s->motion_cpu || !s->rows)
        return fail(s, VQ_ENOMEM, "out of memory");
    return VQ_OK;
}

int vq_session_open(VqSession **out, const VqConfig *cfg, char *errbuf, size_t errlen)
{
    VqSession *s;
    int ret;
    char err[512] = "";

    *out = NULL;
    s = calloc(1, sizeof(*s));
    if (!s) {
        if (errbuf && errlen)
            snprintf(errbuf, errlen, "out of memory");
        return VQ_ENOMEM;
    }
    s->cfg = *cfg;
    s->fmt = cfg->format;
    for (int f = 0; f < F_COUNT; f++)
        vq_pool_acc_init(&s->pool[f]);
    if (s->cfg.n_subsample < 1)
        s->cfg.n_subsample = 1;
    if ((ret = check_format(s, &s->fmt)) < 0)
        goto fail;

    if (cfg->model_path && cfg->model_path[0])
        ret = vq_model_load_file(&s->model, cfg->model_path, err, sizeof(err));
    else
        ret = vq_model_load_builtin(&s->model, cfg->model_version ? cfg->model_version : "vmaf_v0.6.1",
                                    err, sizeof(err));
    if (ret < 0) {
        ret = fail(s, VQ_EMODEL, "%s", err);
        goto fail;
    }
    if ((ret = map_model_features(s)) < 0)
        goto fail;
    make_names(s);

    s->nplanes = !cfg->enable_psnr ? 0 : s->fmt.layout == VQ_LAYOUT_GRAY ? 1 : 3;
    for (int f = 0; f < F_COUNT; f++)
        s->present[f] = f < F_PSNR_Y || f > F_PSNR_CR || f - F_PSNR_Y < s->nplanes;
    {
        int cw = 0, ch = 0;
        if (s->nplanes == 3) {
            /* libvmaf's pictures have floor-sized chroma (w >> ss): psnr reads no more */
            cw = s->fmt.width >> s->fmt.chroma_shift_w;
            ch = s->fmt.height >> s->fmt.chroma_shift_h;
        }
        vq_row_layout_init(&s->layout, s->fmt.width, s->fmt.height, cw, ch);
    }

    if ((ret = apply_model_options(s)) < 0)
        goto fail;
    if (vq_adm_params_init(&s->adm, s->fmt.width, s->fmt.height, s->fmt.bitdepth, &s->adm_opt) < 0) {
        ret = fail(s, VQ_EINVAL, "ADM cannot score %dx%d frames", s->fmt.width, s->fmt.height);
        goto fail;
    }
    s->log2_table = malloc(65536 * sizeof(*s->log2_table));
    if (!s->log2_table) {
        ret = fail(s, VQ_ENOMEM, "out of memory");
        goto fail;
    }
    vq_vif_log2_table(s->log2_table);

    if (cfg->executor != VQ_EXECUTOR_AUTO &&
        (ret = init_executor(s, cfg->executor == VQ_EXECUTOR_CUDA)) < 0)
        goto fail;
    *out = s;
    return VQ_OK;

fail:
    if (errbuf && errlen)
        snprintf(errbuf, errlen, "%s", s->err);
    vq_session_close(&s);
    return ret;
}

/* Room for frames up to index n - 1; drops received frames unless kept. */
static int grow_frames(VqSession *s, int64_t n)
{
    if (!s->cfg.keep_frames && s->n_received - s->base >= 256) {
        int64_t drop = s->n_received - s->base;
        memmove(s->frames, s->frames + drop, (size_t)(n - 1 - s->n_received) * sizeof(*s->frames));
        s->base = s->n_received;
    }
    if ((size_t)(n - s->base) <= s->cap)
        return 0;
    size_t cap = s->cap ? s->cap * 2 : 256;
    while (cap < (size_t)(n - s->base))
        cap *= 2;
    FrameRec *f = realloc(s->frames, cap * sizeof(*f));
    if (!f)
        return fail(s, VQ_ENOMEM, "out of memory");
    s->frames = f;
    s->cap = cap;
    return 0;
}

/* Row sums of frame n_folded -> its features (all but motion2/3 and vmaf). */
static void fold_frame(VqSession *s, const int64_t *rows, int scored)
{
    FrameRec *fr = FRAME(s, s->n_folded);
    int64_t idx;
    double m2, m3;
    fr->scored = (uint8_t)scored;
    fr->v[F_MOTION_SAD] = vq_motion_sad_score(&s->layout, rows, s->motion_fps_weight, s->motion_max_val);
    if (s->n_folded == 0)
        fr->v[F_MOTION_SAD] = 0.0;
    if (vq_motion2_push(&s->motion2, fr->v[F_MOTION_SAD], &idx, &m2, &m3)) {
        FRAME(s, idx)->v[F_MOTION2] = m2;
        FRAME(s, idx)->v[F_MOTION3] = m3;
    }
    if (scored) {
        double vif[4], psnr[3];
        VqAdmScores adm;
        vq_vif_fold(&s->layout, rows, vif);
        for (int k = 0; k < 4; k++)
            fr->v[F_VIF_S0 + k] = vif[k];
        vq_adm_fold(&s->adm, &s->layout, rows, &adm);
        fr->v[F_ADM2] = adm.adm2;
        fr->v[F_AIM] = adm.aim;
        fr->v[F_ADM3] = adm.adm3;
        for (int k = 0; k < 4; k++)
            fr->v[F_ADM_S0 + k] = adm.scale[k];
        if (s->nplanes) {
            vq_psnr_fold(&s->layout, rows, s->nplanes, s->fmt.bitdepth, psnr);
            for (int k = 0; k < s->nplanes; k++)
                fr->v[F_PSNR_Y + k] = psnr[k];
        }
    }
    s->n_folded++;
}

/* The model's score of frame i (its motion2 is known), and the running pools. */
static void complete_frame(VqSession *s, int64_t i)
{
    FrameRec *fr = FRAME(s, i);
    if (!fr->scored)
        return;
    double feat[VQ_MODEL_MAX_FEATURES];
    int nf = vq_model_feature_count(s->model);
    for (int k = 0; k < nf; k++)
        feat[k] = fr->v[s->model_f[k]];
    vq_model_predict(s->model, feat, &fr->v[F_VMAF]);
    for (int f = 0; f < F_COUNT; f++)
        vq_pool_acc_add(&s->pool[f], fr->v[f]);
}

typedef struct VifJob {
    VqSession *s;
    VqPlaneView r, d;
} VifJob;

static void *vif_job(void *arg)
{
    VifJob *j = arg;
    vq_vif_cpu_run(j->s->vif_cpu, j->r, j->d, j->s->fmt.bitdepth, j->s->vif_egl, j->s->log2_table,
                   &j->s->layout, j->s->rows);
    return NULL;
}

static int run_cpu(VqSession *s, const VqPicture *ref, const VqPicture *dis, int score)
{
    VqPlaneView r[3], d[3];
    for (int p = 0; p < 3; p++) {
        r[p] = plane_view(s, ref, p, p == 2);
        d[p] = plane_view(s, dis, p, p == 2);
    }
    memset(s->rows, 0, s->layout.total * sizeof(*s->rows));
    vq_motion_cpu_run(s->motion_cpu, r[0], s->fmt.bitdepth, &s->layout, s->rows);
    if (score) {
        /* VIF and ADM write disjoint sections of rows: with 2+ threads, VIF runs beside ADM */
        VifJob job = { s, r[0], d[0] };
        pthread_t th;
        int threaded = s->cfg.threads > 1 && !pthread_create(&th, NULL, vif_job, &job);
        if (!threaded)
            vif_job(&job);
        vq_adm_cpu_run(s->adm_cpu, r[0], d[0], s->fmt.bitdepth, &s->adm, &s->layout, s->rows);
        if (s->nplanes)
            vq_psnr_cpu_run(r, d, s->nplanes, s->fmt.bitdepth, &s->layout, s->rows);
        if (threaded)
            pthread_join(th, NULL);
    }
    fold_frame(s, s->rows, score);
    return VQ_OK;
}

static int collect_cuda(VqSession *s)
{
    const int64_t *rows;
    char err[512] = "";
    int ret = vq_cuda_exec_collect(s->cuda, &rows, err, sizeof(err));
    if (ret < 0)
        return fail(s, ret, "cuda executor: %s", err);
    fold_frame(s, rows, FRAME(s, s->n_folded)->scored);
    return VQ_OK;
}

int vq_session_submit(VqSession *s, const VqPicture *ref, const VqPicture *dis)
{
    int score, ret;
    if (s->flushed)
        return fail(s, VQ_EINVAL, "submit after flush");
    if ((ret = grow_frames(s, s->n_submitted + 1)) < 0)
        return ret;
    if (!ref || !dis || !ref->data[0] || !dis->data[0])
        return fail(s, VQ_EINVAL, "missing picture");
    if (ref->on_device != dis->on_device)
        return fail(s, VQ_EINVAL, "one picture is in device memory, the other in host memory");
    if (!s->executor_ready && (ret = init_executor(s, ref->on_device)) < 0)
        return ret;
    if (ref->on_device && !s->use_cuda)
        return fail(s, VQ_EINVAL, "device pictures need the cuda executor (device=cpu was asked for)");
    score = s->n_submitted % s->cfg.n_subsample == 0;
    memset(FRAME(s, s->n_submitted), 0, sizeof(FrameRec));
    FRAME(s, s->n_submitted)->scored = (uint8_t)score;
    if (!s->use_cuda) {
        ret = run_cpu(s, ref, dis, score);
    } else {
        VqPlaneView r[3], d[3];
        char err[512] = "";
        for (int p = 0; p < 3; p++) {
            r[p] = plane_view(s, ref, p, p == 2);
            d[p] = plane_view(s, dis, p, p == 2);
        }
        ret = vq_cuda_exec_submit(s->cuda, r, d, ref->on_device, score, err, sizeof(err));
        if (ret < 0)
            return fail(s, ret, "cuda executor: %s", err);
        /* fold the previous frame while this one runs */
        while (ret >= 0 && vq_cuda_exec_in_flight(s->cuda) > 1)
            ret = collect_cuda(s);
    }
    if (ret < 0)
        return ret;
    s->n_submitted++;
    return VQ_OK;
}

int vq_session_flush(VqSession *s)
{
    int ret = VQ_OK;
    int64_t idx;
    double m2, m3;
    if (s->flushed)
        return VQ_OK;
    while (s->use_cuda && ret >= 0 && vq_cuda_exec_in_flight(s->cuda) > 0)
        ret = collect_cuda(s);
    if (ret < 0)
        return ret;
    if (vq_motion2_flush(&s->motion2, &idx, &m2, &m3)) {
        FRAME(s, idx)->v[F_MOTION2] = m2;
        FRAME(s, idx)->v[F_MOTION3] = m3;
    }
    s->flushed = 1;
    return ret;
}

int vq_session_receive(VqSession *s, VqFrameResult *out)
{
    int64_t i = s->n_received;
    FrameRec *fr;
    if (i >= s->n_folded)
        return s->flushed ? VQ_EOF : VQ_EAGAIN;
    /* motion2 of frame i needs frame i+1 (motion3 of frame 0 too) */
    if (!s->flushed && i + 1 >= s->n_folded)
        return VQ_EAGAIN;
    fr = FRAME(s, i);
    complete_frame(s, i);
    out->index = i;
    out->n = 0;
    if (fr->scored) {
        for (int f = 0; f < F_COUNT; f++) {
            if (!s->present[f])
                continue;
            out->name[out->n] = s->names[f];
            out->value[out->n] = fr->v[f];
            out->n++;
        }
    }
    s->n_received++;
    return VQ_OK;
}

static int feature_by_name(const VqSession *s, const char *name)
{
    for (int f = 0; f < F_COUNT; f++)
        if (s->present[f] && !strcmp(name, s->names[f]))
            return f;
    return -1;
}

int vq_session_pooled(VqSession *s, const char *name, enum VqPool pool, double *out)
{
    int f = feature_by_name(s, name);
    VqPooled p;
    if (f < 0)
        return fail(s, VQ_EINVAL, "no feature named '%s'", name);
    if (vq_pool_acc_get(&s->pool[f], &p) < 0)
        return fail(s, VQ_EINVAL, "no frame was scored");
    switch (pool) {
    case VQ_POOL_MIN: *out = p.min; break;
    case VQ_POOL_MAX: *out = p.max; break;
    case VQ_POOL_HARMONIC_MEAN: *out = p.harmonic_mean; break;
    default: *out = p.mean; break;
    }
    return VQ_OK;
}

int vq_session_write_log(VqSession *s, const char *path, enum VqLogFormat fmt)
{
    VqLogData d;
    int ret, nf = 0, fidx[F_COUNT];
    size_t nframes = 0;
    memset(&d, 0, sizeof(d));
    if (!s->cfg.keep_frames)
        return fail(s, VQ_EINVAL, "the session was opened without keep_frames: no per-frame log");
    for (int f = 0; f < F_COUNT; f++)
        if (s->present[f])
            fidx[nf++] = f;
    for (int64_t i = 0; i < s->n_received; i++)
        nframes += FRAME(s, i)->scored;
    d.n_features = nf;
    d.n_frames = nframes;
    d.names = calloc(nf, sizeof(*d.names));
    d.frame_num = calloc(nframes + 1, sizeof(*d.frame_num));
    d.values = calloc((nframes + 1) * nf, sizeof(*d.values));
    d.pooled = calloc(nf, sizeof(*d.pooled));
    if (!d.names || !d.frame_num || !d.values || !d.pooled) {
        ret = fail(s, VQ_ENOMEM, "out of memory");
        goto end;
    }
    for (int k = 0; k < nf; k++)
        d.names[k] = s->names[fidx[k]];
    {
        size_t r = 0;
        for (int64_t i = 0; i < s->n_received; i++) {
            if (!FRAME(s, i)->scored)
                continue;
            d.frame_num[r] = i;
            for (int k = 0; k < nf; k++)
                d.values[r * nf + k] = FRAME(s, i)->v[fidx[k]];
            r++;
        }
    }
    if (nframes)
        for (int k = 0; k < nf; k++)
            vq_pool_acc_get(&s->pool[fidx[k]], &d.pooled[k]);
    d.version = vqcuda_version();
    d.width = s->fmt.width;
    d.height = s->fmt.height;
    ret = vq_log_write(path, fmt, &d);
    if (ret < 0)
        ret = fail(s, VQ_EINVAL, "cannot write log '%s': %s", path, strerror(errno));
end:
    free(d.names);
    free(d.frame_num);
    free(d.values);
    free(d.pooled);
    return ret;
}

void vq_session_close(VqSession **ps)
{
    VqSession *s = ps ? *ps : NULL;
    if (!s)
        return;
    vq_cuda_exec_close(&s->cuda);
    if (s->vif_cpu) vq_vif_cpu_free(s->vif_cpu);
    if (s->adm_cpu) vq_adm_cpu_free(s->adm_cpu);
    if (s->motion_cpu) vq_motion_cpu_free(s->motion_cpu);
    vq_model_free(&s->model);
    free(s->rows);
    free(s->log2_table);
    free(s->frames);
    free(s);
    *ps = NULL;
}
