/*
 * session.cpp - libvqcuda's public API (include/vqcuda.h): one scoring session.
 *
 * Per frame pair an executor (CPU loops or CUDA kernels, kernels/) fills the
 * row-sum buffer laid out by the feature plan; this file folds it into each
 * instance's outputs with hostmath/'s formulas, runs motion2/motion3 and the
 * models once the next frame is known, pools, and hands results back in
 * frame order.  Exceptions (vq::Error) stop at each extern "C" function.
 */
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "vqcuda.h"
#include "adm_fold.h"
#include "float_adm_fold.h"
#include "cpu_exec.h"
#include "cuda_exec.h"
#include "feature_plan.hpp"
#include "log_target.hpp"
#include "log_writer.hpp"
#include "motion_fold.h"
#include "pool.hpp"
#include "psnr_fold.h"
#include "psnr_hvs_fold.h"
#include "ref_share.hpp"
#include "scale_exec.h"
#include "scale_filter.h"
#include "ssim_fold.h"
#include "cambi_fold.h"
#include "cambi_heatmaps.h"
#include "ciede_fold.h"
#include "float_small_fold.h"
#include "float_motion_fold.h"
#include "float_vif_fold.h"
#include "vif_fold.h"
#include "vq_error.h"

namespace {

using vq::fail;

struct FrameRec {
    std::vector<double> v;      /* one per column */
    bool scored = false;        /* VIF/ADM/PSNR ran (n_subsample, the piece's range) */
    double time = NAN;          /* seconds, from the caller */
    bool key = false;           /* the reference frame is a key frame */
};

/* One segment's pooling, frames added in frame order. */
struct Segment {
    int64_t id = -1;
    int64_t first = 0, last = 0;        /* title frame numbers */
    double t0 = NAN, t1 = NAN;
    std::vector<vq::PoolAcc> pool;
    bool any = false;
};

struct MotionState {
    int inst;
    int lag;            /* its SAD is against frame n-lag (2: five-frame window) */
    VqMotion2 m2;
};

/* A float_motion instance: its motion2/motion3 stream (float_motion_fold.h) */
struct FloatMotionState {
    int inst;
    vq::fmotion::Stream st;
};

/* A psnr instance's run-long state: integer_psnr.c's init() values and, with
 * enable_apsnr, the SSE and pixel counts summed over the frames scored (for
 * apsnr_* at the end).  The sums go on across sections. */
struct PsnrState {
    int inst;
    VqPsnrParams pp;
    bool mse, apsnr;
    uint64_t sse[3] = { 0, 0, 0 }, n_pixels[3] = { 0, 0, 0 };
};

/* A run of frames of one size and format, scored as a title of its own. */
struct Section {
    int64_t first_frame;
    VqFormat fmt;
};

void check_size(int w, int h)
{
    if (w < 33 || h < 33)
        fail(VQ_EINVAL, "frame size %dx%d is below 33x33: libvmaf reads outside such frames, so there "
             "is no reference result to match", w, h);
}

void check_format(const VqFormat &f)
{
    check_size(f.width, f.height);
    if (f.bitdepth != 8 && f.bitdepth != 10 && f.bitdepth != 12 && f.bitdepth != 16)
        fail(VQ_EINVAL, "bit depth %d is not supported (8, 10, 12 or 16, as libvmaf's psnr)", f.bitdepth);
    if (f.bytes_per_sample != (f.bitdepth > 8 ? 2 : 1))
        fail(VQ_EINVAL, "%d-bit samples in %d bytes are not supported", f.bitdepth, f.bytes_per_sample);
    if (f.chroma_shift_w < 0 || f.chroma_shift_w > 1 || f.chroma_shift_h < 0 || f.chroma_shift_h > 1)
        fail(VQ_EINVAL, "chroma subsampling %d/%d is not supported", f.chroma_shift_w, f.chroma_shift_h);
    if (f.layout < VQ_LAYOUT_PLANAR || f.layout > VQ_LAYOUT_GRAY)
        fail(VQ_EINVAL, "unknown plane layout %d", (int)f.layout);
    if (f.msb_aligned && f.bytes_per_sample != 2)
        fail(VQ_EINVAL, "msb-aligned samples need 16-bit storage");
}

}  // namespace

struct VqSession {
    VqConfig cfg;
    std::string model_str, feature_str;
    VqFormat fmt;
    std::string err;
    bool failed = false;                    /* a call failed: heatmaps are not committed */
    /* cambi's heatmaps_path: temporary files from open() on, renamed at flush */
    VqCambiHeatmaps *heat = nullptr;
    std::unique_ptr<vq::FeaturePlan> plan;
    std::vector<const char *> names;        /* column names, for results */
    std::vector<unsigned char> kinds;       /* VQ_OUTPUT_* of each column */
    std::vector<double> result;             /* the last result's values */
    std::vector<uint16_t> log2_table;
    std::vector<MotionState> motion;
    std::vector<FloatMotionState> fmotion;
    std::vector<PsnrState> psnr;
    std::vector<Section> sections;
    int64_t motion_final = 0;               /* frames whose motion2/3 are known */
    bool use_cuda = false, executor_ready = false;
    FILE *stream = nullptr;
    int stream_errno = 0;                   /* the live output's first write error */
    std::vector<std::pair<double, double>> unpaired;    /* frames passed on unscored: times */
    VqCudaExec *cuda = nullptr;
    VqCpuExec *cpu = nullptr;
    VqScalePlan *scale = nullptr;           /* renditions smaller than the reference */
    /* a ladder (cfg.share_reference): the leader computes the reference's
     * motion, the members take its row sums from `share` */
    std::shared_ptr<vq::RefShare> share;
    bool share_leader = false;
    int share_member = -1;                  /* >= 0: a member (no motion of its own) */
    VqExecPlan exec_plan;                   /* plan->exec(), less what a member takes from the leader */
    int dis_w = 0, dis_h = 0;               /* distorted picture size */

    /* frames[i - base] for base <= i < n_submitted; without keep_frames the
     * received ones are dropped, so a long job holds a few frames only */
    std::deque<FrameRec> frames;
    int64_t base = 0, n_submitted = 0, n_folded = 0, n_received = 0;
    std::vector<vq::PoolAcc> pool;          /* libvmaf's pooling, per column */
    Segment seg;                            /* the open segment */
    int64_t seg_key_count = 0;              /* segments by key frame: key frames seen */
    std::vector<vq::LogSegment> segments;   /* closed ones (the log keeps them) */
    std::vector<double> seg_values;         /* the last closed segment's pooled values, for results */
    int64_t seg_closed_first = 0;
    bool flushed = false;
    std::chrono::steady_clock::time_point t_start, t_end;
    /* VQ_TIMING=1 (docs/performance.md): where the caller's thread spends its
     * time, printed to stderr at close: the executor's submit, the wait for
     * a frame's sums, each instance's fold */
    struct Timing {
        bool on = false;
        int64_t frames = 0;
        double submit = 0, wait = 0, fold = 0;
        std::vector<double> inst;
    } timing;
    static double since(std::chrono::steady_clock::time_point t0)
    {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    void print_timing() const;

    /* Folds off the caller's thread: the instances whose
     * fold reads only the plan and the frame's row sums (deferred()) run on
     * fold workers, several frames at once, from a copy of the rows; the
     * ordered part (motion, shared reference, psnr's aggregate, ciede's
     * fallback rows, cambi's heatmaps) stays on the caller's thread.  A
     * frame is settled (its results can be received) once its job is done;
     * jobs settle in frame order, and an error thrown in one is thrown again
     * there.  VQ_FOLD_THREADS sets the workers (0: no deferral). */
    struct FoldJob {
        int64_t frame = 0, first = 0;
        double *v = nullptr;                /* the frame's columns (frames[] does not move them) */
        std::vector<size_t> insts;
        std::vector<int64_t> rows;
        std::vector<double> ms;             /* VQ_TIMING: each instance's fold */
        std::exception_ptr error;
        bool done = false;                  /* under fold_mutex */
    };
    int fold_threads = 0;
    std::vector<std::thread> fold_workers;
    std::mutex fold_mutex;
    std::condition_variable fold_cv;        /* a job posted, a job done, or the workers told to stop */
    std::deque<std::shared_ptr<FoldJob>> fold_queue;    /* posted, not yet taken */
    std::deque<std::shared_ptr<FoldJob>> fold_jobs;     /* posted, not yet settled: frame order */
    bool fold_stop = false;
    bool deferred(const vq::Instance &in) const;
    void fold_instance(size_t ii, const int64_t *rows, int64_t k, int64_t first, double *out);
    void post_fold(std::shared_ptr<FoldJob> job, const int64_t *rows);
    void fold_worker();
    void settle(bool wait);
    void stop_fold_workers();
    /* frames before this one are folded, their deferred instances included */
    int64_t n_settled() const { return fold_jobs.empty() ? n_folded : fold_jobs.front()->frame; }

    ~VqSession()
    {
        stop_fold_workers();
        if (timing.on)
            print_timing();
        if (share && share_leader) {
            /* what is in flight is folded, so that the members find its rows */
            try {
                while (use_cuda && cuda && vq_cuda_exec_in_flight(cuda) > 0)
                    collect_cuda();
            } catch (...) {
            }
            share->pump = nullptr;
            share->device_work = nullptr;
        }
        if (share && share_member >= 0)
            share->leave(share_member);
        vq_cuda_exec_close(&cuda);
        vq_cpu_exec_close(&cpu);
        vq_scale_plan_free(scale);
        vq_cambi_heatmaps_close(heat);   /* not committed: the temporary files go */
    }
    FrameRec &frame(int64_t i) { return frames[(size_t)(i - base)]; }

    void open();
    void join_share(VqSession *leader);
    void put_motion2(const MotionState &ms, int64_t first, const VqMotion2Out *o, int n);
    void put_fmotion(const FloatMotionState &fs, int64_t first, const vq::fmotion::Out *o, int n);
    void share_device_work();
    void make_plan();
    void end_section();
    void new_section(const VqFormat &f);
    void init_executor(bool on_device);
    void views(const VqPicture *p, VqPlaneView v[3], int w, int h) const;
    void make_scaler();
    /* kinds from the plan: a model's outputs are its consecutive columns */
    void set_kinds()
    {
        kinds.assign(names.size(), (unsigned char)VQ_OUTPUT_FEATURE);
        for (const vq::ModelUse &m : plan->models())
            for (int k = 0; k < m.n_outputs; k++)
                kinds[(size_t)(m.first_col + k)] = (unsigned char)VQ_OUTPUT_MODEL;
    }
    void fold(const int64_t *rows, bool scored);
    bool complete(int64_t i);
    void submit(const VqPicture *ref, const VqPicture *dis, double time, bool key);
    void collect_cuda();
    void flush();
    int receive(VqFrameResult *out);
    int64_t title(int64_t i) const { return cfg.first_frame + i; }
    bool in_range(int64_t i) const
    {
        return title(i) >= cfg.score_begin && (!cfg.score_end || title(i) < cfg.score_end);
    }
    int64_t segment_of(int64_t i);
    bool close_segment();
    void stream_frame(int64_t i, const FrameRec &fr);
    void stream_segment(const vq::LogSegment &g);
    void stream_pooled();
    void stream_put(const std::string &line);
    void write_log(const char *path, VqLogFormat fmt);
    std::vector<std::pair<std::string, double>> aggregates() const;

};

void VqSession::open()
{
    const char *tm = std::getenv("VQ_TIMING");
    timing.on = tm && *tm && std::strcmp(tm, "0") != 0;
    /* fold workers: a quarter of the cores, 1 to 4 */
    const char *ft = std::getenv("VQ_FOLD_THREADS");
    const unsigned ncores = std::thread::hardware_concurrency();
    fold_threads = ft && *ft ? std::atoi(ft) : (int)std::min(4u, std::max(1u, ncores / 4));
    fold_threads = std::max(0, std::min(fold_threads, 16));
    if (cfg.n_subsample < 1)
        cfg.n_subsample = 1;
    /* more threads than a machine can mean only exhaust its processes */
    const unsigned cores = std::thread::hardware_concurrency();
    const int max_threads = cores ? 4 * (int)cores : 64;
    if (cfg.threads < 0 || cfg.threads > max_threads)
        fail(VQ_EINVAL, "n_threads=%d: give 0 to %d (at most 4 threads for each of this machine's %u "
             "cores)", cfg.threads, max_threads, cores ? cores : 16);
    if ((cfg.segment_frames != 0) + (cfg.segment_duration != 0) + (cfg.segment_keyframes != 0) > 1)
        fail(VQ_EINVAL, "give one segment option: segment_frames, segment_duration or segment=keyframes");
    if (cfg.segment_frames < 0 || cfg.segment_duration < 0 || !std::isfinite(cfg.segment_duration))
        fail(VQ_EINVAL, "a segment length must be positive");
    if (cfg.first_frame < 0 || cfg.score_begin < 0 || (cfg.score_end && cfg.score_end <= cfg.score_begin))
        fail(VQ_EINVAL, "score_frames=%lld-%lld: the first frame must come before the end",
             (long long)cfg.score_begin, (long long)cfg.score_end);
    make_plan();
    /* a piece's first scored frames read motion of the frames before: as
     * many as its motion options need (motion_fold.h) must be given */
    int context = 1;
    for (const MotionState &ms : motion)
        context = std::max(context, vq_motion2_context(&ms.m2.opt));
    if (cfg.score_begin > 0 && cfg.first_frame > 0 && cfg.first_frame > cfg.score_begin - context)
        fail(VQ_EINVAL, "score_frames=%lld-...: motion of frame %lld needs frame %lld, which the piece "
             "does not give (it starts at %lld)", (long long)cfg.score_begin, (long long)cfg.score_begin,
             (long long)std::max<int64_t>(0, cfg.score_begin - context), (long long)cfg.first_frame);
    make_scaler();
    if (plan->exec().cambi_cv) {
        /* cambi's heatmaps_path: created and checked now, before any frame */
        char m[1024] = "";
        const int r = vq_cambi_heatmaps_open(&heat, plan->cambi_heatmaps_path().c_str(),
                                             &plan->exec().cambi_p, m, sizeof(m));
        if (r < 0)
            fail(r, "%s", m);
    }
    for (const std::string &c : plan->columns())
        names.push_back(c.c_str());
    set_kinds();
    pool.resize(names.size());
    seg.pool.resize(names.size());
    log2_table.resize(65536);
    vq_vif_log2_table(log2_table.data());
    if (cfg.share_reference)
        join_share(cfg.share_reference);
    if (cfg.executor != VQ_EXECUTOR_AUTO)
        init_executor(cfg.executor == VQ_EXECUTOR_CUDA);
}

/* A ladder's member: the reference's motion comes from the leader's folds. */
void VqSession::join_share(VqSession *leader)
{
    if (leader == this)
        fail(VQ_EINVAL, "share_reference: a session cannot share with itself");
    if (leader->share_member != -1)
        fail(VQ_EINVAL, "share_reference: that session takes its reference's motion from another one; "
             "give that one");
    if (std::memcmp(&leader->fmt, &fmt, sizeof(fmt)) != 0)
        fail(VQ_EINVAL, "share_reference: the sessions' reference formats differ (%dx%d %d-bit against %dx%d "
             "%d-bit, or the layout)", fmt.width, fmt.height, fmt.bitdepth, leader->fmt.width, leader->fmt.height,
             leader->fmt.bitdepth);
    if (leader->cfg.first_frame != cfg.first_frame)
        fail(VQ_EINVAL, "share_reference: the sessions start at different title frames");
    if (leader->n_submitted || leader->flushed)
        fail(VQ_EINVAL, "share_reference: that session was already given frames");
    if (motion.empty())
        return;     /* no motion here: nothing to take */
    if (!leader->plan->exec().motion)
        fail(VQ_EINVAL, "share_reference: that session computes no motion (its models and features need none)");
    if (plan->exec().motion & ~leader->plan->exec().motion)
        fail(VQ_EINVAL, "share_reference: this session's motion needs the SAD against frame n-%d, which "
             "that session does not compute (motion_five_frame_window differs: give a session with all "
             "of them first)", (plan->exec().motion & VQ_MOTION_LAG2) ? 2 : 1);
    if (!leader->share) {
        leader->share = std::make_shared<vq::RefShare>(fmt.height);
        leader->share_leader = true;
        leader->share->pump = [leader] {
            if (!leader->use_cuda || !leader->cuda || vq_cuda_exec_in_flight(leader->cuda) <= 0)
                return false;
            leader->collect_cuda();
            return true;
        };
        leader->share->device_work = [leader]() -> void * {
            return leader->use_cuda && leader->cuda ? vq_cuda_exec_ref(leader->cuda) : nullptr;
        };
    }
    share = leader->share;
    share_member = share->join();
    exec_plan.motion = 0;
}

/* A distorted picture of another size: swscale's upscaler, exactly. */
void VqSession::make_scaler()
{
    dis_w = cfg.dis_width ? cfg.dis_width : fmt.width;
    dis_h = cfg.dis_height ? cfg.dis_height : fmt.height;
    if (dis_w == fmt.width && dis_h == fmt.height)
        return;
    if (cfg.scaler == VQ_SCALER_NONE)
        fail(VQ_EINVAL, "the distorted picture is %dx%d, the reference %dx%d, and scaler=none "
             "was asked for", dis_w, dis_h, fmt.width, fmt.height);
    if (cfg.scaler != VQ_SCALER_BICUBIC && cfg.scaler != VQ_SCALER_BICUBIC_X86)
        fail(VQ_EINVAL, "unknown scaler %d", (int)cfg.scaler);
    const int np = fmt.layout == VQ_LAYOUT_GRAY ? 1 : 3;
    VqScaleFormat src = { dis_w, dis_h, fmt.bitdepth, fmt.chroma_shift_w, fmt.chroma_shift_h, np };
    VqScaleFormat dst = { fmt.width, fmt.height, fmt.bitdepth, fmt.chroma_shift_w, fmt.chroma_shift_h, np };
    char msg[256] = "";
    const int mode = cfg.scaler == VQ_SCALER_BICUBIC ? VQ_SCALE_BICUBIC : VQ_SCALE_BICUBIC_X86;
    const int ret = vq_scale_plan_create(&scale, &src, &dst, mode, msg, sizeof(msg));
    if (ret < 0)
        fail(ret, "cannot upscale the %dx%d distorted picture to the %dx%d reference: %s", dis_w, dis_h,
             fmt.width, fmt.height, msg);
}

/* The plan and the per-instance host state for the section's format. */
void VqSession::make_plan()
{
    check_format(fmt);
    plan = std::make_unique<vq::FeaturePlan>(fmt, model_str, feature_str, cfg.enable_psnr != 0);
    exec_plan = plan->exec();
    sections.push_back(Section{ n_submitted, fmt });
    motion.clear();
    for (size_t i = 0; i < plan->instances().size(); i++) {
        const vq::Instance &in = plan->instances()[i];
        if (in.opts.spec().kind != vq::FexKind::Motion)
            continue;
        VqMotion2Opts o;
        vq_motion2_opts_default(&o);
        o.blend_factor = in.opts.get("motion_blend_factor");
        o.blend_offset = in.opts.get("motion_blend_offset");
        o.max_val = in.opts.get("motion_max_val");
        o.moving_average = in.opts.get("motion_moving_average") != 0;
        o.five_frame_window = in.opts.get("motion_five_frame_window") != 0;
        MotionState st{ (int)i, vq_motion2_lag(&o), {} };
        vq_motion2_init(&st.m2, &o);
        motion.push_back(st);
    }
    fmotion.clear();
    for (size_t i = 0; i < plan->instances().size(); i++) {
        const vq::Instance &in = plan->instances()[i];
        if (in.opts.spec().kind == vq::FexKind::FloatMotion)
            fmotion.push_back(FloatMotionState{ (int)i, vq::fmotion::Stream(vq::float_motion_options(in.opts)) });
    }
    std::vector<PsnrState> before;
    before.swap(psnr);
    for (size_t i = 0; i < plan->instances().size(); i++) {
        const vq::Instance &in = plan->instances()[i];
        if (in.opts.spec().kind != vq::FexKind::Psnr)
            continue;
        PsnrState ps;
        ps.inst = (int)i;
        ps.mse = in.opts.get("enable_mse") != 0;
        ps.apsnr = in.opts.get("enable_apsnr") != 0;
        vq_psnr_params_init(&ps.pp, fmt.bitdepth, in.opts.get("reduced_hbd_peak") != 0, in.opts.get("min_sse"),
                            &plan->exec().base, plan->psnr_planes(in));
        if (ps.apsnr) {
            /* libvmaf's psnr runs on every frame, n_subsample or not (it is a
             * temporal extractor), and apsnr sums them all; the executors
             * give psnr's rows for the frames scored only */
            if (cfg.n_subsample > 1)
                fail(VQ_EINVAL, "psnr: enable_apsnr with n_subsample=%d is not supported: libvmaf sums the "
                     "SSE of every frame, and vqcuda computes psnr on the scored frames only", cfg.n_subsample);
            if (cfg.score_begin > 0 || cfg.score_end)
                fail(VQ_EINVAL, "psnr: enable_apsnr in a piece of a title (score_frames) is not supported: "
                     "apsnr sums the SSE of the whole title");
            /* a new section goes on with the sums of the one before */
            for (const PsnrState &b : before)
                if (b.inst == ps.inst && b.apsnr) {
                    if (b.pp.peak != ps.pp.peak)
                        fail(VQ_EINVAL, "psnr: enable_apsnr cannot go on across a change of bit depth "
                             "(%d to %d bits): apsnr has one peak value", b.pp.bpc, ps.pp.bpc);
                    std::memcpy(ps.sse, b.sse, sizeof(ps.sse));
                    std::memcpy(ps.n_pixels, b.n_pixels, sizeof(ps.n_pixels));
                }
        }
        psnr.push_back(ps);
    }
}

/* Everything submitted is folded and its motion2/3 made final, as at the
 * end of a title. */
void VqSession::end_section()
{
    while (use_cuda && cuda && vq_cuda_exec_in_flight(cuda) > 0)
        collect_cuda();
    settle(true);
    const int64_t first = sections.back().first_frame;
    for (MotionState &ms : motion) {
        VqMotion2Out o[2];
        const int n = vq_motion2_flush(&ms.m2, o);
        put_motion2(ms, first, o, n);
    }
    for (FloatMotionState &fs : fmotion) {
        vq::fmotion::Out o[1];
        const int n = fs.st.flush(o);
        put_fmotion(fs, first, o, n);
    }
    motion_final = n_folded;
}

/* A new size or format from the next frame on: what came before is scored
 * as a title of its own; the next section starts afresh (motion too). */
void VqSession::new_section(const VqFormat &f)
{
    if (flushed)
        fail(VQ_EINVAL, "new section after flush");
    if (share)
        fail(VQ_EINVAL, "the sessions of a ladder (share_reference) cannot change size");
    if (n_submitted == sections.back().first_frame) {   /* nothing in this one yet */
        sections.pop_back();
    } else {
        end_section();
    }
    if (scale)
        fail(VQ_EINVAL, "a rendition of another size than its reference cannot change size");
    const std::vector<std::string> before = plan->columns();
    if (heat && (f.width != fmt.width || f.height != fmt.height))
        fail(VQ_EINVAL, "cambi heatmaps_path: the frame size cannot change (%dx%d to %dx%d): the "
             "heatmap files have one size", fmt.width, fmt.height, f.width, f.height);
    fmt = f;
    dis_w = f.width;
    dis_h = f.height;
    make_plan();
    if (plan->columns() != before)
        fail(VQ_EINVAL, "the new format %dx%d gives other outputs than the one before (e.g. "
             "chroma psnr): it cannot continue the same log", f.width, f.height);
    names.clear();
    for (const std::string &c : plan->columns())
        names.push_back(c.c_str());
    set_kinds();
    vq_cuda_exec_close(&cuda);
    vq_cpu_exec_close(&cpu);
    executor_ready = false;
    if (cfg.executor != VQ_EXECUTOR_AUTO)
        init_executor(cfg.executor == VQ_EXECUTOR_CUDA);
    else if (use_cuda)
        init_executor(true);
}

/* CPU loops or CUDA kernels; AUTO decides on the first picture (device or
 * host memory), and takes the GPU for host pictures too when one is usable. */
void VqSession::init_executor(bool cuda_wanted)
{
    char e[512] = "";
    int ret;
    executor_ready = true;
    if (cfg.executor == VQ_EXECUTOR_AUTO && !cuda_wanted)
        cuda_wanted = vq_cuda_available(e, sizeof(e)) != 0 && !vq_exec_plan_gpu_lacks(&exec_plan);
    use_cuda = cuda_wanted;
    if (use_cuda) {
        VqCudaExecConfig cc;
        std::memset(&cc, 0, sizeof(cc));
        cc.plan = exec_plan;
        cc.dis_scale = scale;
        cc.vif_log2_table = log2_table.data();
        cc.stream = cfg.cuda_stream;
        if ((ret = vq_cuda_exec_open(&cuda, &cc, e, sizeof(e))) < 0)
            fail(ret, "cuda executor: %s", e);
        return;
    }
    if ((ret = vq_cpu_exec_open(&cpu, &exec_plan, log2_table.data(), scale, cfg.threads, e, sizeof(e))) < 0)
        fail(ret, "cpu executor: %s", e);
}

void VqSession::views(const VqPicture *p, VqPlaneView v[3], int width, int height) const
{
    for (int plane = 0; plane < 3; plane++) {
        VqPlaneView &x = v[plane];
        int idx = plane;
        std::memset(&x, 0, sizeof(x));
        x.bytes = fmt.bytes_per_sample;
        x.shift = fmt.msb_aligned ? 16 - fmt.bitdepth : 0;
        x.step = 1;
        if (plane == 0) {
            x.w = width;
            x.h = height;
        } else {
            x.w = (width + (1 << fmt.chroma_shift_w) - 1) >> fmt.chroma_shift_w;
            x.h = (height + (1 << fmt.chroma_shift_h) - 1) >> fmt.chroma_shift_h;
            if (fmt.layout == VQ_LAYOUT_SEMIPLANAR) {
                idx = 1;
                x.step = 2;
            }
        }
        x.data = (const uint8_t *)p->data[idx];
        x.pitch = p->linesize[idx];
        if (plane == 2 && fmt.layout == VQ_LAYOUT_SEMIPLANAR && x.data)
            x.data += x.bytes;
    }
}

/* adm's and float_adm's outputs: adm2, aim, adm3, the four scales; with
 * debug=true then extract()'s score, score_num, score_den and scores[] */
template <typename Scores>
static void put_adm_outputs(const Scores &a, int n_outputs, double *out)
{
    out[0] = a.adm2;
    out[1] = a.aim;
    out[2] = a.adm3;
    for (int k = 0; k < 4; k++)
        out[3 + k] = a.scale[k];
    if (n_outputs > 7) {
        out[7] = a.adm2;
        out[8] = a.num;
        out[9] = a.den;
        for (int k = 0; k < 4; k++) {
            out[10 + 2 * k] = a.num_scale[k];
            out[11 + 2 * k] = a.den_scale[k];
        }
    }
}

/* Row sums of frame n_folded -> every instance's outputs (motion2/3 of the
 * frame before, once this one's SAD is known). */
void VqSession::fold(const int64_t *rows, bool scored)
{
    const auto t_fold = std::chrono::steady_clock::now();
    const VqExecPlan &ep = plan->exec();
    FrameRec &fr = frame(n_folded);
    const std::vector<vq::Instance> &inst = plan->instances();
    const int64_t first = sections.back().first_frame;
    /* the reference's motion row sums, against frame n-1 and n-2: this
     * frame's, or the leader's of it */
    const int64_t *row_sad = rows + ep.base.motion_off;
    const int64_t *row_sad2 = (ep.motion & VQ_MOTION_LAG2) ? rows + ep.motion_lag2_off : nullptr;
    if (share_member >= 0) {
        while (!(row_sad = share->get(n_folded))) {
            if (!share->pump || !share->pump())
                fail(VQ_EINVAL, "frame %lld of the shared reference is unknown: the session this one shares "
                     "it with (share_reference) %s", (long long)n_folded,
                     share->pump ? "was not given it (give each frame to that one first)"
                                         : "was closed before it");
        }
        row_sad2 = row_sad + ep.base.h;     /* the share keeps both, lag 2 after lag 1 */
    } else if (share_leader && ep.motion) {
        share->put(n_folded, row_sad, row_sad2);
    }
    for (MotionState &ms : motion) {
        const vq::Instance &in = inst[(size_t)ms.inst];
        double s = 0.0;
        /* frames before the lag have no frame n-lag: 0, as libvmaf */
        if (n_folded - first >= ms.lag && !in.opts.get("motion_force_zero"))
            s = vq_motion_sad_score_rows(ms.lag == 2 ? row_sad2 : row_sad, ep.base.w, ep.base.h,
                                         in.opts.get("motion_fps_weight"), in.opts.get("motion_max_val"));
        fr.v[(size_t)in.first_col] = s;
        if (in.n_outputs > 1)   /* debug=true: VMAF_integer_feature_motion_score, the same score */
            fr.v[(size_t)in.first_col + 1] = s;
        VqMotion2Out o[2];
        const int n = vq_motion2_push(&ms.m2, s, o);
        put_motion2(ms, first, o, n);
    }
    /* float_motion: the SAD of frames n-1 and n (none at the section's
     * first frame), on every frame whatever n_subsample is */
    for (FloatMotionState &fs : fmotion) {
        const vq::Instance &in = inst[(size_t)fs.inst];
        const bool zero = in.opts.get("motion_force_zero") != 0;
        double s = 0.0;
        if (n_folded - first >= 1 && !zero)
            s = vq::fmotion::score(ep.fmotion[in.exec_index], rows + ep.fmotion_off[in.exec_index]);
        double motion;
        vq::fmotion::Out o[1];
        const int n = fs.st.push(s, &motion, o);
        if (in.opts.get("debug"))   /* VMAF_feature_motion_score: after motion2 (and motion3 under force_zero) */
            fr.v[(size_t)in.first_col + (zero ? 2 : 1)] = motion;
        put_fmotion(fs, first, o, n);
    }
    std::shared_ptr<FoldJob> job;
    if (scored) {
        for (size_t ii = 0; ii < inst.size(); ii++) {
            const vq::Instance &in = inst[ii];
            if (in.n_outputs == 0)  /* null: nothing to write */
                continue;
            if (deferred(in)) {     /* on a fold worker, after this frame's ordered part */
                if (!job) {
                    job = std::make_shared<FoldJob>();
                    job->frame = n_folded;
                    job->first = first;
                    job->v = fr.v.data();
                }
                job->insts.push_back(ii);
                continue;
            }
            const auto t_inst = std::chrono::steady_clock::now();
            fold_instance(ii, rows, n_folded, first, &fr.v[(size_t)in.first_col]);
            if (timing.on) {
                if (timing.inst.size() < inst.size())
                    timing.inst.resize(inst.size());
                timing.inst[ii] += since(t_inst);
            }
        }
    }
    if (job)
        post_fold(std::move(job), rows);
    if (timing.on) {
        timing.fold += since(t_fold);
        timing.frames++;
    }
    n_folded++;
    if (share_member >= 0)
        share->consumed(share_member, n_folded);
    /* motion2 of a frame needs the next one's SAD (frames 0 and 1 with the
     * five-frame window that of frame 2) */
    motion_final = n_folded;
    for (const MotionState &ms : motion)
        motion_final = std::min(motion_final, first + vq_motion2_final(&ms.m2));
    for (const FloatMotionState &fs : fmotion)
        motion_final = std::min(motion_final, first + fs.st.final_count());
}

/* Which instances fold on a worker: those whose fold reads the plan and
 * the frame's rows alone (either executor: on the CPU the fold then runs
 * beside the next frame's rows). */
bool VqSession::deferred(const vq::Instance &in) const
{
    if (fold_threads <= 0)
        return false;
    switch (in.opts.spec().kind) {
    case vq::FexKind::SpeedTemporal:
    case vq::FexKind::SpeedChroma:
    case vq::FexKind::PsnrHvs:
    case vq::FexKind::FloatSsim:
    case vq::FexKind::FloatMsSsim:
    case vq::FexKind::FloatVif:
    case vq::FexKind::FloatAdm:
    case vq::FexKind::FloatAnsnr:
    case vq::FexKind::FloatPsnr:
    case vq::FexKind::FloatMoment:
        return true;
    case vq::FexKind::Cambi:
        return !heat;   /* the heatmaps are written in frame order */
    default:
        return false;
    }
}

void VqSession::post_fold(std::shared_ptr<FoldJob> job, const int64_t *rows)
{
    job->rows.assign(rows, rows + plan->exec().total);
    if (fold_workers.empty())
        for (int t = 0; t < fold_threads; t++)
            fold_workers.emplace_back([this] { fold_worker(); });
    {
        std::lock_guard<std::mutex> l(fold_mutex);
        fold_queue.push_back(job);
    }
    fold_jobs.push_back(std::move(job));
    fold_cv.notify_all();
    /* a bounded backlog: the caller waits rather than queue without end */
    settle(false);
    while (fold_jobs.size() > (size_t)(2 * fold_threads + 1)) {
        std::shared_ptr<FoldJob> front = fold_jobs.front();
        {
            std::unique_lock<std::mutex> l(fold_mutex);
            fold_cv.wait(l, [&] { return front->done; });
        }
        settle(false);
    }
}

void VqSession::fold_worker()
{
    for (;;) {
        std::shared_ptr<FoldJob> job;
        {
            std::unique_lock<std::mutex> l(fold_mutex);
            fold_cv.wait(l, [&] { return fold_stop || !fold_queue.empty(); });
            if (fold_queue.empty())
                return;
            job = std::move(fold_queue.front());
            fold_queue.pop_front();
        }
        try {
            const std::vector<vq::Instance> &inst = plan->instances();
            for (size_t ii : job->insts) {
                const auto t0 = std::chrono::steady_clock::now();
                fold_instance(ii, job->rows.data(), job->frame, job->first, job->v + inst[ii].first_col);
                if (timing.on)
                    job->ms.push_back(since(t0));
            }
        } catch (...) {
            job->error = std::current_exception();
        }
        {
            std::lock_guard<std::mutex> l(fold_mutex);
            job->done = true;
        }
        fold_cv.notify_all();
    }
}

/* Done jobs leave fold_jobs in frame order (wait: every job); a job's
 * error is thrown here, on the caller's thread. */
void VqSession::settle(bool wait)
{
    while (!fold_jobs.empty()) {
        std::shared_ptr<FoldJob> job = fold_jobs.front();
        {
            std::unique_lock<std::mutex> l(fold_mutex);
            if (wait)
                fold_cv.wait(l, [&] { return job->done; });
            else if (!job->done)
                return;
        }
        fold_jobs.pop_front();
        if (timing.on) {
            if (timing.inst.size() < plan->instances().size())
                timing.inst.resize(plan->instances().size());
            for (size_t q = 0; q < job->ms.size(); q++)
                timing.inst[job->insts[q]] += job->ms[q];
        }
        if (job->error) {
            /* the jobs after it are dropped: the session has failed */
            while (!fold_jobs.empty()) {
                std::unique_lock<std::mutex> l(fold_mutex);
                std::shared_ptr<FoldJob> next = fold_jobs.front();
                fold_cv.wait(l, [&] { return next->done; });
                fold_jobs.pop_front();
            }
            std::rethrow_exception(job->error);
        }
    }
}

void VqSession::stop_fold_workers()
{
    {
        std::lock_guard<std::mutex> l(fold_mutex);
        fold_stop = true;
    }
    fold_cv.notify_all();
    for (std::thread &t : fold_workers)
        t.join();
    fold_workers.clear();
    fold_queue.clear();
    fold_jobs.clear();
}

/* One instance's per-frame outputs of frame k from its row sums: on the
 * caller's thread, or (deferred()) on a fold worker, where only the plan and
 * the rows are read. */
void VqSession::fold_instance(size_t ii, const int64_t *rows, int64_t k, int64_t first, double *out)
{
    const VqExecPlan &ep = plan->exec();
    const vq::Instance &in = plan->instances()[ii];
    switch (in.opts.spec().kind) {
    case vq::FexKind::Vif:
    {
        /* vif_skip_scale0: integer_vif.c write_scores() gives scale 0
         * the score 0 and, under debug, num 0 and den -1, and leaves
         * it out of the sums; scales 1-3 are unchanged (scale 1
         * subsamples the frame either way).  The executors' scale-0
         * words are then not read. */
        const bool skip0 = in.opts.get("vif_skip_scale0") != 0;
        vq_vif_fold(&ep.vif_layout[in.exec_index], rows, out);
        if (skip0)
            out[0] = 0.0f;
        if (in.n_outputs > 4) {
            /* debug=true: integer_vif.c write_scores(), from the same
             * float num/den of each scale */
            float num[4], den[4];
            for (int k = 0; k < 4; k++)
                vq_vif_fold_scale(&ep.vif_layout[in.exec_index], rows, k, &num[k], &den[k]);
            double score_num, score_den;
            if (skip0) {
                score_num = (double)num[1] + (double)num[2] + (double)num[3];
                score_den = (double)den[1] + (double)den[2] + (double)den[3];
                num[0] = 0.0f;
                den[0] = -1.0f;
            } else {
                score_num = (double)num[0] + (double)num[1] + (double)num[2] + (double)num[3];
                score_den = (double)den[0] + (double)den[1] + (double)den[2] + (double)den[3];
            }
            out[4] = score_den == 0.0 ? 1.0f : score_num / score_den;
            out[5] = score_num;
            out[6] = score_den;
            for (int k = 0; k < 4; k++) {
                out[7 + 2 * k] = num[k];
                out[8 + 2 * k] = den[k];
            }
        }
        break;
    }
    case vq::FexKind::Adm: {
        VqAdmScores a;
        const unsigned skip = (in.opts.get("adm_skip_aim") ? (unsigned)VQ_ADM_SKIP_AIM : 0u) |
                              (in.opts.get("adm_skip_scale0") ? (unsigned)VQ_ADM_SKIP_SCALE0 : 0u);
        vq_adm_fold_skip(&ep.adm[in.exec_index], &ep.adm_layout[in.exec_index], rows, skip, &a);
        put_adm_outputs(a, in.n_outputs, out);
        break;
    }
    case vq::FexKind::FloatAdm: {
        VqFadmScores a;
        char msg[256] = "";
        if (vq_fadm_fold(&ep.fadm[in.exec_index], rows, ep.fadm_off[in.exec_index], &a, msg,
                         sizeof(msg)) < 0)
            fail(VQ_EINVAL, "frame %lld: %s", (long long)k, msg);
        put_adm_outputs(a, in.n_outputs, out);
        break;
    }
    case vq::FexKind::Psnr: {
        PsnrState *ps = nullptr;
        for (PsnrState &x : psnr)
            if (x.inst == (int)ii)
                ps = &x;
        const int np = plan->psnr_planes(in);
        double p[3], m[3];
        uint64_t sse[3];
        vq_psnr_fold_params(&ps->pp, &ep.base, rows, np, p, m, sse);
        int j = 0;
        for (int k = 0; k < np; k++) {
            out[j++] = p[k];
            if (ps->mse)
                out[j++] = m[k];
        }
        if (ps->apsnr)
            for (int k = 0; k < np; k++) {
                const unsigned w = (unsigned)(k ? ep.base.cw : ep.base.w);
                const unsigned h = (unsigned)(k ? ep.base.ch : ep.base.h);
                ps->sse[k] += sse[k];
                ps->n_pixels[k] += h * w;    /* ref_pic->h[p] * ref_pic->w[p]: unsigned */
            }
        break;
    }
    case vq::FexKind::PsnrHvs:
        vq_psnr_hvs_fold(rows + ep.psnr_hvs_off, ep.plane_w, ep.plane_h, fmt.bitdepth, out);
        break;
    case vq::FexKind::FloatSsim:
    case vq::FexKind::FloatMsSsim: {
        const bool ms = in.opts.spec().kind == vq::FexKind::FloatMsSsim;
        VqSsimOptions o = { (int)in.opts.get("enable_lcs"), (int)in.opts.get("enable_db"),
                            (int)in.opts.get("clip_db") };
        VqSsimScores sc;
        char msg[256] = "";
        if (vq_ssim_fold(&ep.ssim_geom, rows + ep.ssim_off, &o, &o, &sc, msg, sizeof(msg)) < 0)
            fail(VQ_EINVAL, "frame %lld: %s", (long long)k, msg);
        /* the score, then its lcs outputs (the registry's debug_outputs) */
        double v[1 + 3 * VQ_MS_SSIM_SCALES];
        const int nv = vq_ssim_outputs(&sc, ms, &o, v);
        if (nv != in.n_outputs)
            fail(VQ_EINVAL, "%s: %d outputs planned, the fold gives %d", in.opts.spec().name,
                 in.n_outputs, nv);
        std::copy(v, v + nv, out);
        break;
    }
    case vq::FexKind::Ciede: {
        char msg[256] = "";
        const int64_t *extra = use_cuda ? vq_cuda_exec_ciede_extra(cuda) : nullptr;
        /* rows that fall back read the executor's pixel words: the CPU
         * executor's until its next run, the CUDA executor's (fetched
         * from the frame's slot) until the next submit; both come
         * after this fold */
        VqCiedeRowSource src = {};
        if (use_cuda) {
            src.fetch = vq_cuda_exec_ciede_fetch_rows;
            src.ctx = cuda;
        } else {
            src.px = vq_cpu_exec_ciede_pixels(cpu);
        }
        if (vq_ciede_fold(&ep.ciede_geom, rows + ep.ciede_off, extra, &src, &out[0], msg, sizeof(msg)) < 0)
            fail(VQ_EINVAL, "frame %lld: ciede: %s", (long long)k, msg);
        break;
    }
    case vq::FexKind::SpeedChroma: {   /* steps 4-7 on the executor's four 1/16 images */
        const vq::speed::Setup &sp = *static_cast<const vq::speed::Setup *>(ep.speed[in.exec_index]);
        const vq::speed::Result res =
            vq::speed::frame_from_dec16(sp, (const float *)(rows + ep.speed_off[in.exec_index]));
        out[0] = res.u;
        out[1] = res.v;
        out[2] = res.uv;
        break;
    }
    case vq::FexKind::Cambi:
        if (vq_cambi_fold_needs_cvalues(&ep.cambi_p, &ep.cambi_l, rows))
            fail(VQ_EINVAL, "frame %lld: cambi's top-k sum needs the c-values in the "
                 "reference's order, which the executors did not give", (long long)k);
        out[0] = vq_cambi_fold(&ep.cambi_p, &ep.cambi_l, rows, nullptr);
        if (in.n_outputs > 1) {
            /* full_ref: cambi.c extract()'s cambi_source, then
             * cambi_full_reference from the two unclipped scores */
            if (!ep.cambi_src || vq_cambi_fold_needs_cvalues(&ep.cambi_src_p, &ep.cambi_src_l, rows))
                fail(VQ_EINVAL, "frame %lld: cambi's source pass %s", (long long)k,
                     ep.cambi_src ? "needs the c-values in the reference's order, which the "
                                    "executors did not give" : "was not run");
            const double dist = vq_cambi_fold_unclipped(&ep.cambi_p, &ep.cambi_l, rows, nullptr);
            const double src = vq_cambi_fold_unclipped(&ep.cambi_src_p, &ep.cambi_src_l, rows, nullptr);
            out[1] = src < ep.cambi_src_p.max_val ? src : ep.cambi_src_p.max_val;
            out[2] = vq_cambi_full_reference(dist, src, ep.cambi_p.max_val);
        }
        if (heat && ep.cambi_cv) {
            /* cambi.c dump_c_values: the distorted pass, frame index */
            const float *cv[VQ_CAMBI_SCALES];
            for (int sc = 0; sc < VQ_CAMBI_SCALES; sc++)
                cv[sc] = (const float *)(rows + ep.cambi_cv_off[sc]);
            char m[1024] = "";
            const int r = vq_cambi_heatmaps_write(heat, title(k), cv, m, sizeof(m));
            if (r < 0)
                fail(r, "frame %lld: %s", (long long)k, m);
        }
        break;
    case vq::FexKind::FloatPsnr:
        out[0] = vq_float_psnr_fold(rows + ep.float_sums_off, ep.w, ep.h, fmt.bitdepth);
        break;
    case vq::FexKind::FloatMoment:
        vq_float_moment_fold(rows + ep.float_sums_off, ep.w, ep.h, out);
        break;
    case vq::FexKind::FloatAnsnr:
        vq_float_ansnr_fold(rows + ep.ansnr_off, ep.w, ep.h, fmt.bitdepth, out);
        break;
    case vq::FexKind::SpeedTemporal: {
        /* extract(): 0 at libvmaf's frame 0 (a section's first frame
         * here); after it, steps 4-6 on the executor's two images */
        const int64_t *sec = rows + ep.speed_t_off[in.exec_index];
        if (k == first) {
            out[0] = 0.0;
            break;
        }
        if (sec[0] != 1)
            fail(VQ_EINVAL, "frame %lld: speed_temporal: the executor did not keep the frame before",
                 (long long)k);
        const vq::speed::Setup &sp = *static_cast<const vq::speed::Setup *>(ep.speed_t[in.exec_index]);
        out[0] = vq::speed::temporal_from_dec16(sp, (const float *)(sec + 1));
        break;
    }
    case vq::FexKind::FloatVif:
        vq::fvif::fold(ep.fvif[in.exec_index], vq::float_vif_options(in.opts),
                       rows + ep.fvif_off[in.exec_index], out);
        break;
    case vq::FexKind::Null:
    case vq::FexKind::Motion:
    case vq::FexKind::FloatMotion:
        break;
    }
}

/* float_motion's motion2/motion3 made final: into their frames (motion3 is
 * a flush column, or the one after motion2 under motion_force_zero) */
void VqSession::put_fmotion(const FloatMotionState &fs, int64_t first, const vq::fmotion::Out *o, int n)
{
    const vq::Instance &in = plan->instances()[(size_t)fs.inst];
    const bool zero = in.opts.get("motion_force_zero") != 0;
    const size_t c3 = zero ? (size_t)in.first_col + 1 : (size_t)in.first_flush_col;
    for (int k = 0; k < n; k++) {
        frame(first + o[k].index).v[(size_t)in.first_col] = o[k].motion2;
        frame(first + o[k].index).v[c3] = o[k].motion3;
    }
}

/* motion2/motion3 made final: into their frames (section frame numbers from `first`) */
void VqSession::put_motion2(const MotionState &ms, int64_t first, const VqMotion2Out *o, int n)
{
    const vq::Instance &in = plan->instances()[(size_t)ms.inst];
    for (int k = 0; k < n; k++) {
        frame(first + o[k].index).v[(size_t)in.first_flush_col] = o[k].motion2;
        frame(first + o[k].index).v[(size_t)in.first_flush_col + 1] = o[k].motion3;
    }
}

/* The models' scores of frame i (its motion2 is known), and the running pools. */
/* ---- live output: JSON Lines, each line flushed as it is written ---- */

namespace {

void json_metrics(std::string &o, const std::vector<const char *> &names, const double *v, size_t stride)
{
    o += "{";
    for (size_t k = 0; k < names.size(); k++) {
        o += k ? ", \"" : "\"";
        o += names[k];
        o += "\": ";
        vq::append_json_number(o, v[k * stride]);
    }
    o += "}";
}

}  // namespace

/* one line of the live output, flushed; the first failure is kept (and
 * nothing written after it), for vq_session_stream_status */
void VqSession::stream_put(const std::string &line)
{
    if (!stream || stream_errno)
        return;
    errno = 0;
    if (std::fputs(line.c_str(), stream) < 0 || std::fflush(stream) != 0)
        stream_errno = errno ? errno : EIO;
}

void VqSession::stream_frame(int64_t i, const FrameRec &fr)
{
    if (!stream)
        return;
    std::string o = "{\"frameNum\": " + std::to_string(title(i));
    if (cfg.stream_rendition > 0)
        o += ", \"rendition\": " + std::to_string(cfg.stream_rendition);
    o += ", \"time\": ";
    vq::append_json_number(o, fr.time);
    o += ", \"metrics\": ";
    json_metrics(o, names, fr.v.data(), 1);
    o += "}\n";
    stream_put(o);
}

void VqSession::stream_segment(const vq::LogSegment &g)
{
    if (!stream)
        return;
    std::string o = "{\"segment\": {\"first_frame\": " + std::to_string(g.first_frame) +
                    ", \"last_frame\": " + std::to_string(g.last_frame) + ", \"start_time\": ";
    vq::append_json_number(o, g.start_time);
    o += ", \"end_time\": ";
    vq::append_json_number(o, g.end_time);
    if (cfg.stream_rendition > 0)
        o += ", \"rendition\": " + std::to_string(cfg.stream_rendition);
    o += ", \"pooled_metrics\": {";
    for (size_t k = 0; k < names.size(); k++) {
        const vq::Pooled &p = g.pooled[k];
        o += std::string(k ? ", \"" : "\"") + names[k] + "\": {\"min\": ";
        vq::append_json_number(o, p.min);
        o += ", \"max\": ";
        vq::append_json_number(o, p.max);
        o += ", \"mean\": ";
        vq::append_json_number(o, p.mean);
        o += ", \"harmonic_mean\": ";
        vq::append_json_number(o, p.harmonic_mean);
        o += "}";
    }
    o += "}}}\n";
    stream_put(o);
}

void VqSession::stream_pooled()
{
    if (!stream)
        return;
    std::string o = "{\"pooled_metrics\": {";
    for (size_t k = 0; k < names.size(); k++) {
        o += std::string(k ? ", \"" : "\"") + names[k] + "\": {";
        if (pool[k].count()) {
            const vq::Pooled p = pool[k].get();
            o += "\"min\": ";
            vq::append_json_number(o, p.min);
            o += ", \"max\": ";
            vq::append_json_number(o, p.max);
            o += ", \"mean\": ";
            vq::append_json_number(o, p.mean);
            o += ", \"harmonic_mean\": ";
            vq::append_json_number(o, p.harmonic_mean);
        }
        o += "}";
    }
    o += "}";
    if (cfg.stream_rendition > 0)
        o += ", \"rendition\": " + std::to_string(cfg.stream_rendition);
    o += "}\n";
    stream_put(o);
}

/* The segment a frame belongs to (only the order of the numbers matters). */
int64_t VqSession::segment_of(int64_t i)
{
    const FrameRec &fr = frame(i);
    if (cfg.segment_frames)
        return title(i) / cfg.segment_frames;
    if (cfg.segment_duration) {
        if (!std::isfinite(fr.time))
            fail(VQ_EINVAL, "segment_duration needs the frames' times (vq_session_submit_at)");
        return (int64_t)std::floor(fr.time / cfg.segment_duration);
    }
    if (cfg.segment_keyframes)
        return seg_key_count;
    return -1;
}

/* The open segment ends: to the list, the stream, and the next result. */
bool VqSession::close_segment()
{
    if (seg.id < 0 || !seg.any) {
        seg.id = -1;
        return false;
    }
    vq::LogSegment g;
    g.first_frame = seg.first;
    g.last_frame = seg.last;
    g.start_time = seg.t0;
    g.end_time = seg.t1;
    seg_values.clear();
    for (vq::PoolAcc &a : seg.pool) {
        const vq::Pooled p = a.count() ? a.get() : vq::Pooled{ NAN, NAN, NAN, NAN };
        g.pooled.push_back(p);
        seg_values.insert(seg_values.end(), { p.min, p.max, p.mean, p.harmonic_mean });
        a = vq::PoolAcc();
    }
    if (cfg.keep_frames)
        segments.push_back(g);
    seg_closed_first = seg.first;
    stream_segment(g);
    seg.id = -1;
    seg.any = false;
    return true;
}

/* The models' scores of frame i (its motion2 is known), the running pools
 * and the segment's.  true when frame i ends a segment. */
bool VqSession::complete(int64_t i)
{
    FrameRec &fr = frame(i);
    bool ended = false;
    if (fr.key && cfg.segment_keyframes && i > 0)
        seg_key_count++;
    if (!in_range(i))
        return false;
    if (fr.scored) {
        std::vector<double> in;
        for (const vq::ModelUse &m : plan->models()) {
            in.clear();
            for (int c : m.input_cols)
                in.push_back(fr.v[(size_t)c]);
            m.model->predict(in.data(), &fr.v[(size_t)m.first_col]);
        }
        for (size_t c = 0; c < pool.size(); c++)
            pool[c].add(fr.v[c]);
        stream_frame(i, fr);
    }
    if (cfg.segment_frames || cfg.segment_duration || cfg.segment_keyframes) {
        const int64_t id = segment_of(i);
        if (seg.id != id) {
            close_segment();
            seg.id = id;
            seg.first = title(i);
            seg.t0 = fr.time;
        }
        seg.last = title(i);
        seg.t1 = fr.time;
        if (fr.scored) {
            seg.any = true;
            for (size_t c = 0; c < pool.size(); c++)
                seg.pool[c].add(fr.v[c]);
        }
        /* does the next frame start another segment? (flushed: none comes) */
        int64_t next_id = -2;
        if (i + 1 < n_submitted && in_range(i + 1)) {
            const bool key_next = frame(i + 1).key && cfg.segment_keyframes;
            next_id = cfg.segment_keyframes ? (key_next ? id + 1 : id) : segment_of(i + 1);
        }
        if (next_id != id && (flushed || i + 1 < n_submitted || !in_range(i + 1)))
            ended = close_segment();
    }
    return ended;
}

/* A ladder on the GPU, before the first frame: the leader makes the
 * reference's VIF and ADM work for all; a member reads the leader's (when
 * the leader runs on the GPU too: else it does its own). */
void VqSession::share_device_work()
{
    char e[512] = "";
    int ret;
    if (share_leader) {
        if ((ret = vq_cuda_exec_lead(cuda, e, sizeof(e))) < 0)
            fail(ret, "cuda executor: %s", e);
    } else if (share_member >= 0 && share->device_work) {
        VqCudaRef *r = static_cast<VqCudaRef *>(share->device_work());
        if (r) {
            vq_cuda_exec_share(cuda, r);
            vq_cuda_ref_release(r);
        }
    }
}

void VqSession::collect_cuda()
{
    const int64_t *rows;
    char e[512] = "";
    const auto t0 = std::chrono::steady_clock::now();
    int ret = vq_cuda_exec_collect(cuda, &rows, e, sizeof(e));
    if (timing.on)
        timing.wait += since(t0);
    if (ret < 0)
        fail(ret, "cuda executor: %s", e);
    fold(rows, frame(n_folded).scored);
}

void VqSession::print_timing() const
{
    if (!plan)
        return;
    const double n = timing.frames ? (double)timing.frames : 1.0;
    std::fprintf(stderr, "vqcuda timing: %lld frames folded; per frame: executor submit %.3f ms, wait for the "
                 "sums %.3f ms, fold %.3f ms\n", (long long)timing.frames, timing.submit / n, timing.wait / n,
                 timing.fold / n);
    const std::vector<vq::Instance> &inst = plan->instances();
    for (size_t i = 0; i < timing.inst.size() && i < inst.size(); i++)
        std::fprintf(stderr, "vqcuda timing:   fold of %s: %.3f ms per frame\n",
                     inst[i].opts.spec().name, timing.inst[i] / n);
}

void VqSession::submit(const VqPicture *ref, const VqPicture *dis, double time, bool key)
{
    if (flushed)
        fail(VQ_EINVAL, "submit after flush");
    if (!ref || !dis || !ref->data[0] || !dis->data[0])
        fail(VQ_EINVAL, "missing picture");
    if (ref->on_device != dis->on_device)
        fail(VQ_EINVAL, "one picture is in device memory, the other in host memory");
    if (!executor_ready)
        init_executor(ref->on_device != 0);
    if (ref->on_device && !use_cuda)
        fail(VQ_EINVAL, "device pictures need the cuda executor (device=cpu was asked for)");
    if (!n_submitted)
        t_start = std::chrono::steady_clock::now();
    /* room for this frame; drop received frames unless they are kept */
    if (!cfg.keep_frames)
        while (base < n_received && base < n_folded - 1 && base < motion_final) {
            frames.pop_front();
            base++;
        }
    /* n_subsample counts title frames; a piece scores its own range only */
    const bool score = title(n_submitted) % cfg.n_subsample == 0 && in_range(n_submitted);
    FrameRec fr;
    fr.v.assign(names.size(), 0.0);
    fr.scored = score;
    fr.time = time;
    fr.key = key;
    frames.push_back(std::move(fr));
    VqPlaneView r[3], d[3];
    views(ref, r, fmt.width, fmt.height);
    views(dis, d, dis_w, dis_h);
    char e[512] = "";
    int ret;
    const auto t_submit = std::chrono::steady_clock::now();
    if (!use_cuda) {
        const int64_t *rows;
        if ((ret = vq_cpu_exec_run(cpu, r, d, score, &rows, e, sizeof(e))) < 0) {
            frames.pop_back();
            fail(ret, "cpu executor: %s", e);
        }
        fold(rows, score);
    } else {
        if (!n_submitted && share)
            share_device_work();
        if ((ret = vq_cuda_exec_submit(cuda, r, d, ref->on_device, score, e, sizeof(e))) < 0) {
            frames.pop_back();
            fail(ret, "cuda executor: %s", e);
        }
        if (timing.on)
            timing.submit += since(t_submit);
        /* fold the previous frame while this one runs */
        while (vq_cuda_exec_in_flight(cuda) > 1)
            collect_cuda();
    }
    n_submitted++;
}

void VqSession::flush()
{
    if (flushed)
        return;
    end_section();
    if (heat && !failed) {  /* the run ended well: the heatmaps replace the files */
        char m[1024] = "";
        const int r = vq_cambi_heatmaps_commit(heat, m, sizeof(m));
        if (r < 0)
            fail(r, "%s", m);
    }
    flushed = true;
    t_end = std::chrono::steady_clock::now();
    if (share && share_member >= 0) {
        share->leave(share_member);
        share_member = -2;  /* done: folds nothing more */
    }
}

int VqSession::receive(VqFrameResult *out)
{
    settle(false);
    const int64_t i = n_received;
    if (i >= n_settled())
        return flushed ? VQ_EOF : VQ_EAGAIN;
    /* motion2 of frame i needs frame i+1 (motion3 of frame 0 too; with the
     * five-frame window frames 0 and 1 need frame 2) */
    if (i >= motion_final)
        return VQ_EAGAIN;
    const bool seg_end = complete(i);
    FrameRec &fr = frame(i);
    out->index = title(i);
    out->n = fr.scored ? (int)names.size() : 0;
    result = fr.v;
    out->name = names.data();
    out->value = result.data();
    out->kind = kinds.data();
    out->segment_end = seg_end;
    out->segment_first = seg_end ? seg_closed_first : 0;
    out->segment_pooled = seg_end ? seg_values.data() : nullptr;
    n_received++;
    if (flushed && n_received == n_folded)
        stream_pooled();
    return VQ_OK;
}

/* The log as it stands; before flush, as if the input ended here (the last
 * frames' motion2/3 and scores made final on a copy: the session goes on). */
void VqSession::write_log(const char *path, VqLogFormat fmt_)
{
    if (!cfg.keep_frames)
        fail(VQ_EINVAL, "the session was opened without keep_frames: no per-frame log");
    if (!path)
        fail(VQ_EINVAL, "no log path");
    while (use_cuda && cuda && vq_cuda_exec_in_flight(cuda) > 0)
        collect_cuda();
    settle(true);
    std::deque<FrameRec> live;
    std::vector<vq::PoolAcc> live_pool;
    const int64_t live_received = n_received;
    /* the segment state and the live output go on from where the session stands */
    const Segment live_seg = seg;
    const std::vector<vq::LogSegment> live_segments = segments;
    const int64_t live_key_count = seg_key_count, live_closed_first = seg_closed_first;
    const std::vector<double> live_seg_values = seg_values;
    FILE *const live_stream = stream;
    if (!flushed) {
        live = frames;
        live_pool = pool;
        stream = nullptr;
        std::vector<MotionState> m = motion;
        const int64_t first = sections.back().first_frame;
        for (MotionState &ms : m) {
            VqMotion2Out o[2];
            const int n = vq_motion2_flush(&ms.m2, o);
            put_motion2(ms, first, o, n);
        }
        std::vector<FloatMotionState> fm = fmotion;
        for (FloatMotionState &fs : fm) {
            vq::fmotion::Out o[1];
            const int n = fs.st.flush(o);
            put_fmotion(fs, first, o, n);
        }
        for (; n_received < n_folded; n_received++)
            complete(n_received);
        close_segment();    /* the open one, as at the end of the input */
    }
    vq::LogTable t;
    t.version = vqcuda_version();
    t.width = fmt.width;
    t.height = fmt.height;
    t.names = plan->columns();
    for (int64_t i = base; i < n_received; i++) {
        const FrameRec &fr = frame(i);
        /* libvmaf's writers skip a frame with no value written: every frame
         * where nothing has outputs (the null extractor alone) */
        if (!fr.scored || t.names.empty())
            continue;
        t.frame_num.push_back(title(i));
        t.values.insert(t.values.end(), fr.v.begin(), fr.v.end());
    }
    for (const Section &x : sections)
        t.sections.push_back(vq::LogSection{ title(x.first_frame), x.fmt.width, x.fmt.height, x.fmt.bitdepth });
    t.segments = segments;
    t.unpaired = unpaired;
    t.segmented = cfg.segment_frames || cfg.segment_duration || cfg.segment_keyframes;
    if (cfg.score_begin > 0 || cfg.score_end) {
        t.piece = true;
        t.piece_begin = cfg.score_begin;
        t.piece_end = cfg.score_end ? cfg.score_end : title(n_submitted);
        t.piece_key = model_str + "|" + feature_str + "|psnr=" + std::to_string(cfg.enable_psnr) +
                      "|n_subsample=" + std::to_string(cfg.n_subsample) + "|" + std::to_string(fmt.width) +
                      "x" + std::to_string(fmt.height) + "x" + std::to_string(fmt.bitdepth) + "|dis=" +
                      std::to_string(dis_w) + "x" + std::to_string(dis_h) + "|scaler=" +
                      std::to_string((int)cfg.scaler) + "|segments=" + std::to_string(cfg.segment_frames) +
                      "," + std::to_string(cfg.segment_duration) + "," + std::to_string(cfg.segment_keyframes);
    }
    if (!t.frame_num.empty())
        for (const vq::PoolAcc &p : pool)
            t.pooled.push_back(p.get());
    t.aggregate = aggregates();
    const double secs = std::chrono::duration<double>((flushed ? t_end : std::chrono::steady_clock::now()) -
                                                      t_start).count();
    t.fps = secs > 0 ? (double)n_folded / secs : 0.0;
    if (!flushed) {     /* back to where the session stands */
        frames.swap(live);
        pool.swap(live_pool);
        n_received = live_received;
        seg = live_seg;
        segments = live_segments;
        seg_key_count = live_key_count;
        seg_closed_first = live_closed_first;
        seg_values = live_seg_values;
        stream = live_stream;
    }
    vq::write_log(path, fmt_, t);
}

/* The log's aggregate_metrics: what libvmaf's extractors set at flush
 * (psnr's apsnr_y/cb/cr under enable_apsnr: all three planes, whatever
 * enable_chroma), from the sums so far. */
std::vector<std::pair<std::string, double>> VqSession::aggregates() const
{
    static const char *const apsnr_name[3] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
    std::vector<std::pair<std::string, double>> out;
    for (const PsnrState &ps : psnr) {
        if (!ps.apsnr)
            continue;
        for (int i = 0; i < 3; i++) {
            const double v = vq_apsnr(ps.pp.peak, ps.sse[i], ps.n_pixels[i]);
            bool have = false;
            for (const auto &a : out)
                have = have || a.first == apsnr_name[i];
            if (!have)
                out.emplace_back(apsnr_name[i], v);
        }
    }
    return out;
}

/* ---- the C API --------------------------------------------------------- */

namespace {

template <typename F> int guarded(VqSession *s, F &&fn)
{
    if (!s)
        return VQ_EINVAL;
    try {
        fn();
        return VQ_OK;
    } catch (const vq::Error &e) {
        s->err = e.what();
        return e.code();
    } catch (const std::bad_alloc &) {
        s->err = "out of memory";
        return VQ_ENOMEM;
    } catch (const std::exception &e) {
        s->err = e.what();
        return VQ_EINVAL;
    }
}

/* A failed submit, new section or flush: the run failed, and cambi's
 * heatmaps (vq_cambi_heatmaps_commit at flush) leave the files as they were. */
int failing(VqSession *s, int ret)
{
    if (ret < 0 && s)
        s->failed = true;
    return ret;
}

}  // namespace

extern "C" {

const char *vqcuda_version(void)
{
    return VQ_VERSION_STRING;
}

void vq_config_default(VqConfig *cfg)
{
    std::memset(cfg, 0, sizeof(*cfg));
    cfg->struct_size = sizeof(*cfg);
    cfg->executor = VQ_EXECUTOR_AUTO;
    cfg->n_subsample = 1;
    cfg->enable_psnr = 1;
    cfg->threads = 1;
    cfg->keep_frames = 1;
}

const char *vq_session_error(const VqSession *s)
{
    return s ? s->err.c_str() : "no session";
}

const char *vq_session_executor_name(const VqSession *s)
{
    return !s ? "none" : s->use_cuda ? "cuda" : "cpu";
}

const char *vq_session_model_name(const VqSession *s, int i)
{
    if (!s || !s->plan || i < 0 || (size_t)i >= s->plan->models().size())
        return nullptr;
    return s->names[(size_t)s->plan->models()[(size_t)i].first_col];
}

int vq_session_open(VqSession **out, const VqConfig *cfg, char *errbuf, size_t errlen)
{
    *out = nullptr;
    if (!cfg || cfg->struct_size != sizeof(VqConfig)) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "VqConfig of another libvqcuda version (call vq_config_default)");
        return VQ_EINVAL;
    }
    VqSession *s = new (std::nothrow) VqSession;
    if (!s) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "out of memory");
        return VQ_ENOMEM;
    }
    int ret = guarded(s, [&] {
        s->cfg = *cfg;
        s->fmt = cfg->format;
        s->model_str = cfg->model ? cfg->model : "";
        s->feature_str = cfg->feature ? cfg->feature : "";
        s->cfg.model = s->cfg.feature = nullptr;
        s->stream = (FILE *)cfg->stream_file;
        s->open();
    });
    if (ret < 0) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "%s", s->err.c_str());
        delete s;
        return ret;
    }
    *out = s;
    return VQ_OK;
}

int vq_session_submit(VqSession *s, const VqPicture *ref, const VqPicture *dis)
{
    return failing(s, guarded(s, [&] { s->submit(ref, dis, NAN, false); }));
}

int vq_session_submit_at(VqSession *s, const VqPicture *ref, const VqPicture *dis, double time,
                         int keyframe)
{
    return failing(s, guarded(s, [&] { s->submit(ref, dis, time, keyframe != 0); }));
}

int vq_session_new_section(VqSession *s, const VqFormat *fmt)
{
    return failing(s, guarded(s, [&] {
        if (!fmt)
            fail(VQ_EINVAL, "no format");
        s->new_section(*fmt);
    }));
}

int vq_session_flush(VqSession *s)
{
    return failing(s, guarded(s, [&] { s->flush(); }));
}

int vq_session_receive(VqSession *s, VqFrameResult *out)
{
    int ret = VQ_OK;
    const int g = guarded(s, [&] { ret = s->receive(out); });
    return g < 0 ? g : ret;
}

int vq_session_pooled(VqSession *s, const char *name, enum VqPool pool, double *out)
{
    return guarded(s, [&] {
        const int c = name ? s->plan->column(name) : -1;
        if (c < 0)
            fail(VQ_EINVAL, "no feature named '%s'", name ? name : "(null)");
        if (!s->pool[(size_t)c].count())
            fail(VQ_EINVAL, "no frame was scored");
        const vq::Pooled p = s->pool[(size_t)c].get();
        *out = pool == VQ_POOL_MIN ? p.min : pool == VQ_POOL_MAX ? p.max
             : pool == VQ_POOL_HARMONIC_MEAN ? p.harmonic_mean : p.mean;
    });
}

int vq_session_write_log(VqSession *s, const char *path, enum VqLogFormat fmt)
{
    return guarded(s, [&] { s->write_log(path, fmt); });
}

int vq_session_set_stream(VqSession *s, void *stream_file)
{
    return guarded(s, [&] {
        if (s->n_submitted)
            fail(VQ_EINVAL, "the live output is set before the first frame");
        s->stream = (FILE *)stream_file;
        s->stream_errno = 0;
    });
}

int vq_session_stream_status(VqSession *s)
{
    return guarded(s, [&] {
        if (s->stream_errno)
            fail(VQ_EIO, "writing the live output failed: %s (nothing was written to it after that)",
                 std::strerror(s->stream_errno));
    });
}

int vq_session_note_unpaired(VqSession *s, double time, double ref_time)
{
    return guarded(s, [&] { s->unpaired.emplace_back(time, ref_time); });
}

int vq_frame_size_check(int width, int height, char *errbuf, size_t errlen)
{
    try {
        check_size(width, height);
        return VQ_OK;
    } catch (const vq::Error &e) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "%s", e.what());
        return e.code();
    }
}

int vq_log_check(const char *path, char *errbuf, size_t errlen)
{
    try {
        vq::log_target_check(path ? path : "");
        return VQ_OK;
    } catch (const vq::Error &e) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "%s", e.what());
        return e.code();
    } catch (const std::bad_alloc &) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "out of memory");
        return VQ_ENOMEM;
    }
}

int vq_log_remove(const char *path)
{
    try {
        return path && vq::log_target_remove(path) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

int vq_session_write_segments(VqSession *s, const char *path)
{
    return guarded(s, [&] {
        if (!path)
            fail(VQ_EINVAL, "no segment path");
        if (!s->cfg.keep_frames)
            fail(VQ_EINVAL, "the session was opened without keep_frames: no segment log");
        vq::LogTable t;
        t.names = s->plan->columns();
        t.segments = s->segments;
        vq::write_segments_csv(path, t);
    });
}

void vq_session_close(VqSession **ps)
{
    if (ps) {
        delete *ps;
        *ps = nullptr;
    }
}

}  // extern "C"
