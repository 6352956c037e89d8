/*
 * session_impl.hpp - the inside of libvqcuda's session (struct VqSession),
 * shared by the files that implement it: session.cpp (opening, sections,
 * executors, submit/receive), session_fold.cpp (row sums into outputs, the
 * fold workers), session_log.cpp (results, segments, pools, logs and the live
 * stream) and session_api.cpp (the extern "C" functions of include/vqcuda.h).
 * Not installed; nothing outside hostmath/ includes it.
 */
#ifndef VQ_SESSION_IMPL_HPP
#define VQ_SESSION_IMPL_HPP

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
#include "cpu_exec.h"
#include "cuda_exec.h"
#include "feature_plan.hpp"
#include "module.hpp"
#include "log_target.hpp"
#include "log_writer.hpp"
#include "pool.hpp"
#include "ref_share.hpp"
#include "scale_exec.h"
#include "scale_filter.h"
#include "float_small_fold.h"
#include "vq_error.h"

namespace vq {
namespace session {


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

/* A run of frames of one size and format, scored as a title of its own. */
struct Section {
    int64_t first_frame;
    VqFormat fmt;
};

/* the format checks of open() and new_section() */
void check_size(int w, int h);
void check_format(const VqFormat &f);

}  // namespace session
}  // namespace vq

struct VqSession {
    using FrameRec = vq::session::FrameRec;
    using Segment = vq::session::Segment;
    using Section = vq::session::Section;

    VqConfig cfg;
    std::string model_str, feature_str;
    VqFormat fmt;
    std::string err;
    bool failed = false;                    /* a call failed: no module's commit at flush */
    std::unique_ptr<vq::FeaturePlan> plan;
    std::vector<const char *> names;        /* column names, for results */
    std::vector<unsigned char> kinds;       /* VQ_OUTPUT_* of each column */
    std::vector<double> result;             /* the last result's values */
    /* what each instance keeps (Module::keep: integer motion's motion2
     * stream, say), by instance; carried into the next section's plan */
    std::vector<std::shared_ptr<void>> module_state;
    std::vector<Section> sections;
    /* frames whose motion2/3 and other late outputs (LateOutputs) are known */
    int64_t motion_final = 0;
    bool use_cuda = false, executor_ready = false;
    FILE *stream = nullptr;
    int stream_errno = 0;                   /* the live output's first write error */
    std::vector<std::pair<double, double>> unpaired;    /* frames passed on unscored: times */
    VqCudaExec *cuda = nullptr;
    VqCpuExec *cpu = nullptr;
    VqScalePlan *scale = nullptr;           /* renditions smaller than the reference */
    /* a ladder's (ladder.cpp): the reference's own work (the sections of
     * the ref_only modules: integer motion's), which rendition 1 computes
     * and puts into `share` (share_leader) and the other renditions fold
     * from it (share_member >= 0); the ladder owns it */
    vq::RefShare *share = nullptr;
    bool in_ladder = false;                 /* one of a ladder's renditions (n > 1) */
    bool share_leader = false;
    int share_member = -1;                  /* >= 0: a rendition after the first */
    std::vector<int> share_out;             /* rendition 1: the module instances it puts, in order */
    std::vector<int64_t> share_buf;         /* rendition 1: a frame's words, gathered */
    /* another rendition: per module instance of its plan, where its section
     * starts in a frame's words of `share` (-1: it runs its own) */
    std::vector<int64_t> share_in;
    const int64_t *shared_rows = nullptr;   /* another rendition, while it folds a frame: the words */
    VqExecPlan exec_plan;                   /* plan->exec(), less what a later rendition folds from `share` */
    int dis_w = 0, dis_h = 0;               /* distorted picture size */

    /* frames[i - base] for base <= i < n_submitted; the received ones are
     * dropped, so a long job holds a few frames only: with keep_frames
     * their values go to `kept` (on disk beyond a few MB) for the log */
    std::deque<FrameRec> frames;
    std::unique_ptr<vq::FrameLog> kept;
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
     * ordered part (motion, shared reference, modules' kept state, ciede's
     * fallback rows) stays on the caller's thread.  A
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
    bool in_order(size_t ii) const;
    bool deferred(size_t ii) const;
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
        if (share && share_member >= 0)
            share->leave(share_member);
        vq_cuda_exec_close(&cuda);
        vq_cpu_exec_close(&cpu);
        vq_scale_plan_free(scale);
    }
    FrameRec &frame(int64_t i) { return frames[(size_t)(i - base)]; }

    void open();
    /* the ladder's, before the first frame: rendition 1 puts its ref_only
     * modules' sections into rs; another rendition folds rs's instead of
     * running the row work of each of its own that rs gives as it is;
     * ref_parts: rendition 1's instances that it puts, for rs */
    std::vector<VqModuleExec> ref_parts() const;
    void lead_reference(vq::RefShare *rs);
    void follow_reference(vq::RefShare *rs);
    /* the executor for these pictures (host or device memory), once */
    void prepare(bool on_device);
    /* every frame in flight on the GPU folded */
    void drain();
    /* late outputs (vq::LateOutputs): the values made final since the last
     * frame into their frames; those still to come, as at the end of the
     * title (the instances' states unchanged) */
    void take_late(int64_t first);
    void rest_late(int64_t first);
    void put_late(size_t ii, int64_t first, const std::vector<vq::LateValue> &v);
    void make_plan();
    void end_section();
    void new_section(const VqFormat &f);
    void init_executor(bool on_device);
    void views(const VqPicture *p, VqPlaneView v[3], int w, int h) const;
    void make_scaler();
    /* kinds from the plan: a model's outputs are its consecutive columns,
     * its score first; a collection's (Model::output_names) then its
     * members' scores and the four of its interval */
    void set_kinds()
    {
        kinds.assign(names.size(), (unsigned char)VQ_OUTPUT_FEATURE);
        for (const vq::ModelUse &m : plan->models())
            for (int k = 0; k < m.n_outputs; k++)
                kinds[(size_t)(m.first_col + k)] =
                    (unsigned char)(!k || !m.model->is_collection() ? VQ_OUTPUT_MODEL
                                    : k < m.n_outputs - 4           ? VQ_OUTPUT_MEMBER
                                                                    : VQ_OUTPUT_INTERVAL);
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

#endif /* VQ_SESSION_IMPL_HPP */
