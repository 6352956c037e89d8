/*
 * session_fold.cpp - a frame's row sums into every instance's outputs: the ordered
 * part on the caller's thread (motion, the shared reference, modules' kept state,
 * ciede), the rest on the fold workers; motion2/motion3 and the
 * other late outputs made final into their frames.
 */
#include <algorithm>
#include <system_error>

#include "session_impl.hpp"

using vq::fail;

/* Row sums of frame n_folded -> every instance's outputs (motion2/3 of the
 * frame before, and other late outputs, once this one's are known). */
void VqSession::fold(const int64_t *rows, bool scored)
{
    const auto t_fold = std::chrono::steady_clock::now();
    const VqExecPlan &ep = plan->exec();
    FrameRec &fr = frame(n_folded);
    const std::vector<vq::Instance> &inst = plan->instances();
    const int64_t first = sections.back().first_frame;
    /* a ladder: the sections of the reference's own work (ref_only
     * modules), which rendition 1 puts and the others fold */
    if (share_member >= 0 && std::any_of(share_in.begin(), share_in.end(), [](int64_t o) { return o >= 0; })) {
        if (!(shared_rows = share->get(n_folded)))  /* the ladder's order makes this impossible */
            fail(VQ_EINVAL, "frame %lld of the reference's work is not known: rendition 1 of the ladder has not "
                 "folded it", (long long)n_folded);
    } else if (share_leader) {
        share_buf.clear();
        for (int k : share_out)
            share_buf.insert(share_buf.end(), rows + ep.module[k].off, rows + ep.module[k].off + ep.module[k].words);
        share->put(n_folded, share_buf.data());
    }
    std::shared_ptr<FoldJob> job;
    for (size_t ii = 0; ii < inst.size(); ii++) {
        const vq::Instance &in = inst[ii];
        if (in.n_outputs == 0)  /* null: nothing to write */
            continue;
        /* a temporal module (integer motion, float_motion) folds every frame, whatever
         * n_subsample is (on the caller's thread: it has state) */
        const vq::Module *m = in.opts.spec().module;
        if (!scored && !(m && m->temporal))
            continue;
        if (deferred(ii)) {     /* on a fold worker, after this frame's ordered part */
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
    if (job)
        post_fold(std::move(job), rows);
    if (timing.on) {
        timing.fold += since(t_fold);
        timing.frames++;
    }
    shared_rows = nullptr;
    n_folded++;
    if (share_member >= 0)
        share->consumed(share_member, n_folded);
    /* motion2 of a frame needs the next one's SAD (frames 0 and 1 with the
     * five-frame window that of frame 2), float_motion's the next score */
    motion_final = n_folded;
    take_late(first);
}

/* The late outputs made final by this frame's folds, into their frames;
 * motion_final goes no further than what every instance made final. */
void VqSession::take_late(int64_t first)
{
    const std::vector<vq::Instance> &inst = plan->instances();
    std::vector<vq::LateValue> v;
    for (size_t ii = 0; ii < inst.size(); ii++) {
        const vq::LateOutputs *late = inst[ii].opts.spec().late;
        if (!late)
            continue;
        v.clear();
        const int64_t final = late->take(module_state[ii].get(), v);
        put_late(ii, first, v);
        motion_final = std::min(motion_final, first + final);
    }
}

/* The late outputs still to come, as if the title ended here (the states
 * stay as they are: a log mid-way, the session goes on). */
void VqSession::rest_late(int64_t first)
{
    const std::vector<vq::Instance> &inst = plan->instances();
    std::vector<vq::LateValue> v;
    for (size_t ii = 0; ii < inst.size(); ii++) {
        const vq::LateOutputs *late = inst[ii].opts.spec().late;
        if (!late)
            continue;
        v.clear();
        late->rest(module_state[ii].get(), v);
        put_late(ii, first, v);
    }
}

/* late values into their frames (section frame numbers from `first`): a
 * per-frame output's column, or a flush output's */
void VqSession::put_late(size_t ii, int64_t first, const std::vector<vq::LateValue> &v)
{
    const vq::Instance &in = plan->instances()[ii];
    for (const vq::LateValue &x : v)
        frame(first + x.frame).v[(size_t)((x.flush ? in.first_flush_col : in.first_col) + x.k)] = x.value;
}

/* Which instances always fold on the caller's thread, in frame order: all
 * but the modules whose fold reads the plan and the frame's rows alone and
 * that keep no state (module.hpp: deferrable, keep).  Such a fold may read
 * what the executor kept of the frame. */
bool VqSession::in_order(size_t ii) const
{
    const vq::Instance &in = plan->instances()[ii];
    return !in.opts.spec().module->deferrable ||
           (ii < module_state.size() && module_state[ii]) || exec_plan.module[in.exec_index].skip;
}

/* Which instances fold on a worker: the others, while there are fold
 * workers (either executor: on the CPU the fold then runs beside the next
 * frame's rows). */
bool VqSession::deferred(size_t ii) const
{
    return fold_threads > 0 && !in_order(ii);
}

void VqSession::post_fold(std::shared_ptr<FoldJob> job, const int64_t *rows)
{
    if (fold_workers.empty()) {
        /* as many as the system gives (a farm's process may be at its
         * thread limit): none, and the folds run on this thread */
        for (int t = 0; t < fold_threads; t++) {
            try {
                fold_workers.emplace_back([this] { fold_worker(); });
            } catch (const std::system_error &) {
                break;
            }
        }
        if (fold_workers.empty()) {
            fold_threads = 0;   /* deferred() is false from now on */
            const std::vector<vq::Instance> &inst = plan->instances();
            for (size_t ii : job->insts)
                fold_instance(ii, rows, job->frame, job->first, job->v + inst[ii].first_col);
            return;
        }
    }
    job->rows.assign(rows, rows + plan->exec().total);
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
    const VqModuleExec &x = ep.module[in.exec_index];
    /* a ladder's rendition after the first: rendition 1's section of a module it skips */
    const int64_t *section = exec_plan.module[in.exec_index].skip
                                 ? shared_rows + share_in[(size_t)in.exec_index] : rows + x.off;
    const vq::Module &m = *in.opts.spec().module;
    VqModuleGeom g = plan->module_geom(in);
    /* a fold that is never deferred (on this thread) may read what the
     * executor kept of the frame (deferred() also follows fold_threads,
     * which a worker's failure may change while folds run) */
    if (in_order(ii))
        g.exec_data = use_cuda ? vq_cuda_exec_module_fold_data(cuda, in.exec_index)
                               : vq_cpu_exec_module_fold_data(cpu, in.exec_index);
    m.fold(g, section, k - first, module_state[ii].get(), out);
}

/* The models' scores of frame i (its motion2 is known), and the running pools. */
/* ---- live output: JSON Lines, each line flushed as it is written ---- */
