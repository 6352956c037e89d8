/* cpu_exec.cpp - the CPU executor (see cpu_exec.h).  A frame is a short
 * list of steps (the modules' steps: VIF's and ADM's scales depend on the
 * previous one); each step is a list of work items - row bands of the
 * modules' steps, rows that must be added in order on one thread, and
 * modules run whole as one task (split_features) - that run on a pool of
 * threads living as long as the executor.  Every item writes only its own rows of the
 * frame's buffer, so the buffer does not depend on the number of threads. */
#include "cpu_exec.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include "scale_exec.h"
#include "vqcuda.h"

namespace {

/*
 * A fixed set of workers that run tasks 0..n-1 of one batch, the caller too.
 * A worker takes a batch's function and size under the lock and counts
 * itself active until it has left the batch; the next batch starts only
 * when no worker is still in the previous one, so a straggler can never
 * take a task of the next batch from the reset counter (which would run it
 * twice) nor read the batch's fields while they are rewritten.
 */
class TaskPool {
public:
    /* threads - 1 workers (the caller is the last); started() tells how
     * many could be made: when the system refuses one (a process limit),
     * those made are stopped again and the pool is not to be used */
    explicit TaskPool(int threads)
    {
        for (int i = 1; i < threads; i++) {
            try {
                workers_.emplace_back([this] { work(); });
            } catch (const std::system_error &e) {
                failed_ = e.code().value();
                stop();
                return;
            }
        }
    }
    ~TaskPool() { stop(); }
    /* 0, or the errno of the thread the system refused */
    int failed() const { return failed_; }
    int started() const { return (int)workers_.size(); }
    void run(int n, const std::function<void(int)> &fn)
    {
        if (workers_.empty() || n <= 1) {
            for (int i = 0; i < n; i++)
                fn(i);
            return;
        }
        {
            std::unique_lock<std::mutex> l(m_);
            idle_cv_.wait(l, [this] { return active_ == 0; });
            fn_ = &fn;
            n_ = n;
            next_ = 0;
            done_ = 0;
            gen_++;
        }
        cv_.notify_all();
        drain(&fn, n);
        std::unique_lock<std::mutex> l(m_);
        done_cv_.wait(l, [&] { return done_ == n; });
        fn_ = nullptr;
    }

private:
    void stop()
    {
        {
            std::lock_guard<std::mutex> l(m_);
            stop_ = true;
        }
        cv_.notify_all();
        for (std::thread &t : workers_)
            if (t.joinable())
                t.join();
    }
    void drain(const std::function<void(int)> *fn, int n)
    {
        for (;;) {
            const int i = next_.fetch_add(1);
            if (i >= n)
                return;
            (*fn)(i);
            std::lock_guard<std::mutex> l(m_);
            if (++done_ == n)
                done_cv_.notify_all();
        }
    }
    void work()
    {
        unsigned seen = 0;
        for (;;) {
            const std::function<void(int)> *fn;
            int n;
            {
                std::unique_lock<std::mutex> l(m_);
                cv_.wait(l, [&] { return stop_ || (gen_ != seen && fn_); });
                if (stop_)
                    return;
                seen = gen_;
                fn = fn_;
                n = n_;
                active_++;
            }
            drain(fn, n);
            std::lock_guard<std::mutex> l(m_);
            if (--active_ == 0)
                idle_cv_.notify_all();
        }
    }
    std::vector<std::thread> workers_;
    std::mutex m_;
    std::condition_variable cv_, done_cv_, idle_cv_;
    const std::function<void(int)> *fn_ = nullptr;   /* the batch running, under m_ */
    int n_ = 0, done_ = 0, active_ = 0;              /* under m_ */
    std::atomic<int> next_{0};
    unsigned gen_ = 0;
    bool stop_ = false;
    int failed_ = 0;
};

/* One work item of module instance inst: rows [a, b) of its step (kModule),
 * or its whole frame as one task (kModuleRun). */
enum : uint8_t { kModule, kModuleRun };
struct Item {
    uint8_t op, inst;
    int16_t step;
    int32_t a, b;       /* rows [a, b) */
};

/* steps of one frame: the modules' step k run side by side (VIF's 4, ADM's
 * 8, at most VQ_MODULE_MAX_STEPS) */
constexpr int kSteps = VQ_MODULE_MAX_STEPS;

}  // namespace

struct VqCpuExec {
    VqExecPlan plan;
    VqScaleCpu *scale = nullptr;
    std::vector<int64_t> rows;
    void *module_scratch[VQ_EXEC_MAX_MODULES] = {};    /* each module instance's, from its table */
    std::vector<Item> items[kSteps];
    std::unique_ptr<TaskPool> pool;
    int threads = 1;
    ~VqCpuExec()
    {
        if (scale)
            vq_scale_cpu_free(scale);
        for (int k = 0; k < plan.n_modules; k++)
            if (module_scratch[k])
                plan.module[k].cpu->free(module_scratch[k]);
    }
};

namespace {

/*
 * Which of the modules with a whole-frame task (SSIM's, CAMBI's) run in
 * row bands.  In bands a feature spreads over every thread, but SSIM then
 * keeps its terms and adds them on one thread afterwards (more memory
 * traffic), and CAMBI runs 23 steps instead of one task.  As one task each
 * they cost nothing extra and run beside each other and the banded
 * features; that is the better split until a task is longer than the
 * frame's work divided by the threads.  The costs: single-thread
 * nanoseconds per luma pixel measured on the development machine
 * (AVX-512), only their ratios matter (the modules' from their tables'
 * hints; a module without a whole-frame task always runs in its steps'
 * bands).  VQ_CPU_BANDS=all|none forces either way (tests).
 */
struct Split {
    bool module[VQ_EXEC_MAX_MODULES] = {};  /* a module with a whole-frame task: in its steps' bands */
};

Split split_features(const VqExecPlan *p, int threads)
{
    Split sp;
    if (threads < 2)
        return sp;
    const char *env = std::getenv("VQ_CPU_BANDS");
    if (env && (!std::strcmp(env, "all") || !std::strcmp(env, "none"))) {
        const bool all = env[0] == 'a';
        for (int k = 0; k < p->n_modules; k++)
            sp.module[k] = all;
        return sp;
    }
    const double px = (double)p->w * p->h;
    double cost[VQ_EXEC_MAX_MODULES], modules = 0.0;   /* their hints (kernels/module.h) */
    for (int k = 0; k < p->n_modules; k++) {
        const VqModuleCpu *c = p->module[k].cpu;
        cost[k] = (c->cost && !p->module[k].skip ? c->cost(&p->module[k].g) : 0.0) * px;
        modules += cost[k];
    }
    const double fair = modules / threads;
    for (int k = 0; k < p->n_modules; k++)
        sp.module[k] = cost[k] > fair;
    return sp;
}

}  // namespace

extern "C" int vq_cpu_exec_open(VqCpuExec **out, const VqExecPlan *plan,
                                const VqScalePlan *dis_scale, int threads, char *err, size_t errlen)
{
    *out = nullptr;
    VqCpuExec *e = new (std::nothrow) VqCpuExec;
    if (!e) {
        std::snprintf(err, errlen, "out of memory");
        return VQ_ENOMEM;
    }
    e->plan = *plan;
    bool ok = true;
    try {
        e->rows.assign(plan->total, 0);
        e->threads = threads < 1 ? 1 : threads;
        const Split sp = split_features(plan, e->threads);
        for (int k = 0; k < plan->n_modules; k++) {
            VqModuleExec &m = e->plan.module[k];    /* the executor's copy: its threads, its split */
            m.g.cpu_threads = e->threads;
            m.g.cpu_bands = !m.cpu->run || sp.module[k];
            if (m.skip)     /* a ladder's member: the leader runs it */
                continue;
            ok = ok && m.cpu->steps <= kSteps && m.cpu->alloc(&e->module_scratch[k], &m.g) == 0;
        }
        if (dis_scale)
            ok = ok && vq_scale_cpu_alloc(&e->scale, dis_scale) == 0;
        e->pool.reset(new TaskPool(e->threads));
        if (const int f = e->pool->failed()) {
            /* nothing runs yet: stop cleanly, saying how far it got */
            std::snprintf(err, errlen, "%d threads asked for, the system refused thread %d (%s): "
                          "lower n_threads, or raise the process limit (ulimit -u)",
                          e->threads, e->pool->started() + 2, std::strerror(f));
            delete e;
            return VQ_ENOMEM;
        }
    } catch (const std::bad_alloc &) {
        ok = false;
    }
    if (!ok) {
        delete e;
        std::snprintf(err, errlen, "out of memory (CPU executor, %dx%d)", plan->w, plan->h);
        return VQ_ENOMEM;
    }
    *out = e;
    return VQ_OK;
}

extern "C" int vq_cpu_exec_run(VqCpuExec *e, const VqPlaneView ref[3], const VqPlaneView dis_in[3], int score,
                               const int64_t **rows, char *err, size_t errlen)
{
    const VqExecPlan *p = &e->plan;
    VqPlaneView dis[3] = { dis_in[0], dis_in[1], dis_in[2] };
    if (e->scale) {     /* the rendition, upscaled to the reference's size */
        if (vq_scale_cpu_run(e->scale, dis_in) < 0) {
            std::snprintf(err, errlen, "the upscaler refused a %dx%d picture", dis_in[0].w, dis_in[0].h);
            return VQ_EINVAL;
        }
        vq_scale_cpu_output(e->scale, dis);
    }
    int64_t *r = e->rows.data();
    *rows = nullptr;
    /* the CPU loops add into rows that start at 0 (the GPU kernels write every word) */
    std::fill(e->rows.begin(), e->rows.end(), 0);

    /* the modules that run on this frame: all on a scored one, the temporal ones on every frame */
    bool runs[VQ_EXEC_MAX_MODULES];
    for (int k = 0; k < p->n_modules; k++)
        runs[k] = !p->module[k].skip && (score || p->module[k].temporal);
    for (int k = 0; k < p->n_modules; k++) {
        const VqModuleExec &m = p->module[k];
        if (runs[k] && m.cpu->check && m.cpu->check(e->module_scratch[k], &m.g, ref, dis) < 0) {
            std::snprintf(err, errlen, "CPU %s loops refused the frame (%dx%d)", m.name, ref[0].w, ref[0].h);
            return VQ_EINVAL;
        }
    }

    /* the steps' items; bands: several per thread, so that they balance */
    const int per = e->threads > 1 ? 4 * e->threads : 1;
    /* rows [base, base + h) in bands */
    auto bands = [per](std::vector<Item> &v, uint8_t op, int inst, int step, int h, int most = 0, int base = 0) {
        const int nb = std::min(h, most > 0 ? std::min(most, per) : per);
        for (int b = 0; b < nb; b++)
            v.push_back(Item{ op, (uint8_t)inst, (int16_t)step, (int32_t)(base + (int64_t)h * b / nb),
                              (int32_t)(base + (int64_t)h * (b + 1) / nb) });
    };
    for (std::vector<Item> &v : e->items)
        v.clear();
    for (int k = 0; k < p->n_modules; k++)   /* modules run as one task (split_features): the long ones first */
        if (runs[k] && !p->module[k].g.cpu_bands)
            e->items[0].push_back(Item{ kModuleRun, (uint8_t)k, 0, 0, 0 });
    for (int k = 0; k < p->n_modules; k++) {   /* a module's steps: their parts in bands */
        const VqModuleExec &m = p->module[k];
        for (int s = 0; runs[k] && m.g.cpu_bands && s < m.cpu->steps && s < kSteps; s++) {
            VqModulePart parts[VQ_MODULE_MAX_PARTS];
            int np = 1;
            if (m.cpu->step_parts)
                np = std::min(m.cpu->step_parts(&m.g, s, parts), (int)VQ_MODULE_MAX_PARTS);
            else
                parts[0] = VqModulePart{ m.cpu->step_rows(&m.g, s), 0, (int)(m.cpu->long_steps >> s & 1u) };
            std::vector<Item> first;    /* long tasks: first in the step, one item per row */
            for (int q = 0, base = 0; q < np; base += parts[q].rows, q++) {
                if (parts[q].rows <= 0)
                    continue;
                if (parts[q].first)
                    for (int i = base; i < base + parts[q].rows; i++)
                        first.push_back(Item{ kModule, (uint8_t)k, (int16_t)s, i, i + 1 });
                else
                    bands(e->items[s], kModule, k, s, parts[q].rows, parts[q].most, base);
            }
            e->items[s].insert(e->items[s].begin(), first.begin(), first.end());
        }
    }

    std::atomic<int> failed_module{-1};
    for (int step = 0; step < kSteps; step++) {
        const std::vector<Item> &v = e->items[step];
        e->pool->run((int)v.size(), [&](int n) {
            const Item &it = v[n];
            const int k = it.inst;
            switch (it.op) {
            case kModule: {
                const VqModuleExec &m = p->module[k];
                m.cpu->rows(e->module_scratch[k], &m.g, ref, dis, r + m.off, it.step, it.a, it.b);
                break;
            }
            case kModuleRun: {
                const VqModuleExec &m = p->module[k];
                if (m.cpu->run(e->module_scratch[k], &m.g, ref, dis, r + m.off) < 0)
                    failed_module = k;
                break;
            }
            }
        });
    }
    for (int k = 0; k < p->n_modules; k++) {   /* state kept for the next frame */
        const VqModuleExec &m = p->module[k];
        if (!m.skip && m.cpu->frame_end)
            m.cpu->frame_end(e->module_scratch[k], &m.g, ref, dis);
    }
    for (int k = 0; k < p->n_modules; k++)
        if (runs[k] && p->module[k].cpu->rows_failed && p->module[k].cpu->rows_failed(e->module_scratch[k]))
            failed_module = k;
    if (failed_module >= 0) {
        std::snprintf(err, errlen, "CPU %s loops refused the frame (%dx%d, %d-bit)",
                      p->module[failed_module].name,
                      p->w, p->h, p->bpc);
        return VQ_EINVAL;
    }
    *rows = r;
    return VQ_OK;
}

extern "C" const void *vq_cpu_exec_module_fold_data(const VqCpuExec *e, int k)
{
    if (!e || k < 0 || k >= e->plan.n_modules || e->plan.module[k].skip || !e->plan.module[k].cpu->fold_data)
        return nullptr;
    return e->plan.module[k].cpu->fold_data(e->module_scratch[k]);
}

extern "C" void vq_cpu_exec_close(VqCpuExec **e)
{
    if (e) {
        delete *e;
        *e = nullptr;
    }
}
