/* cpu_exec.cpp - the CPU executor (see cpu_exec.h).  Every feature instance
 * is one task writing its own sections of the frame's buffer; tasks run on a
 * pool of threads that lives as long as the executor. */
#include "cpu_exec.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "adm_exec.h"
#include "cambi_exec.h"
#include "ciede_exec.h"
#include "motion_exec.h"
#include "psnr_exec.h"
#include "psnr_hvs_exec.h"
#include "scale_exec.h"
#include "ssim_exec.h"
#include "vif_exec.h"
#include "vqcuda.h"

namespace {

/* A fixed set of workers that run tasks 0..n-1 of one batch, the caller too. */
class TaskPool {
public:
    explicit TaskPool(int threads)
    {
        for (int i = 1; i < threads; i++)
            workers_.emplace_back([this] { work(); });
    }
    ~TaskPool()
    {
        {
            std::lock_guard<std::mutex> l(m_);
            stop_ = true;
        }
        cv_.notify_all();
        for (std::thread &t : workers_)
            t.join();
    }
    void run(int n, const std::function<void(int)> &fn)
    {
        if (workers_.empty() || n <= 1) {
            for (int i = 0; i < n; i++)
                fn(i);
            return;
        }
        {
            std::lock_guard<std::mutex> l(m_);
            fn_ = &fn;
            n_ = n;
            next_ = 0;
            done_ = 0;
            gen_++;
        }
        cv_.notify_all();
        drain();
        std::unique_lock<std::mutex> l(m_);
        done_cv_.wait(l, [this] { return done_ == n_; });
        fn_ = nullptr;
    }

private:
    void drain()
    {
        for (;;) {
            const int i = next_.fetch_add(1);
            if (i >= n_)
                return;
            (*fn_)(i);
            std::lock_guard<std::mutex> l(m_);
            if (++done_ == n_)
                done_cv_.notify_all();
        }
    }
    void work()
    {
        unsigned seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> l(m_);
                cv_.wait(l, [&] { return stop_ || (gen_ != seen && fn_); });
                if (stop_)
                    return;
                seen = gen_;
            }
            drain();
        }
    }
    std::vector<std::thread> workers_;
    std::mutex m_;
    std::condition_variable cv_, done_cv_;
    const std::function<void(int)> *fn_ = nullptr;
    int n_ = 0, done_ = 0;
    std::atomic<int> next_{0};
    unsigned gen_ = 0;
    bool stop_ = false;
};

/* a plane as libvmaf's picture holds it (floor-sized chroma) */
VqPlaneView plane_view(VqPlaneView v, const VqExecPlan *p, int plane)
{
    v.w = p->plane_w[plane];
    v.h = p->plane_h[plane];
    return v;
}

}  // namespace

struct VqCpuExec {
    VqExecPlan plan;
    const uint16_t *log2_table;
    std::vector<VqVifCpu *> vif;
    std::vector<VqAdmCpu *> adm;
    VqMotionCpu *motion = nullptr;
    VqScaleCpu *scale = nullptr;
    VqSsimCpu *ssim = nullptr;
    VqCambiCpu *cambi = nullptr;
    VqPsnrHvsTables hvs;
    std::vector<int64_t> rows;
    std::unique_ptr<TaskPool> pool;
    int threads = 1;
    ~VqCpuExec()
    {
        for (VqVifCpu *v : vif)
            vq_vif_cpu_free(v);
        for (VqAdmCpu *a : adm)
            vq_adm_cpu_free(a);
        if (motion)
            vq_motion_cpu_free(motion);
        if (scale)
            vq_scale_cpu_free(scale);
        if (ssim)
            vq_ssim_cpu_free(ssim);
        if (cambi)
            vq_cambi_cpu_free(cambi);
    }
};

extern "C" int vq_cpu_exec_open(VqCpuExec **out, const VqExecPlan *plan, const uint16_t *log2_table,
                                const VqScalePlan *dis_scale, int threads, char *err, size_t errlen)
{
    *out = nullptr;
    VqCpuExec *e = new (std::nothrow) VqCpuExec;
    if (!e) {
        std::snprintf(err, errlen, "out of memory");
        return VQ_ENOMEM;
    }
    e->plan = *plan;
    e->log2_table = log2_table;
    vq_psnr_hvs_tables_init(&e->hvs);
    bool ok = true;
    try {
        e->rows.assign(plan->total, 0);
        for (int k = 0; k < plan->n_vif; k++)
            ok = ok && (e->vif.push_back(vq_vif_cpu_alloc(plan->w, plan->h)), e->vif.back());
        for (int k = 0; k < plan->n_adm; k++)
            ok = ok && (e->adm.push_back(vq_adm_cpu_alloc(plan->w, plan->h)), e->adm.back());
        if (plan->motion)
            ok = ok && (e->motion = vq_motion_cpu_alloc(plan->w, plan->h));
        if (dis_scale)
            ok = ok && vq_scale_cpu_alloc(&e->scale, dis_scale) == 0;
        if (plan->ssim)
            ok = ok && (e->ssim = vq_ssim_cpu_alloc(&plan->ssim_geom));
        if (plan->cambi)
            ok = ok && (e->cambi = vq_cambi_cpu_alloc(&plan->cambi_p));
        e->threads = threads < 1 ? 1 : threads;
        e->pool.reset(new TaskPool(e->threads));
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
    /* tasks: motion, every VIF, every ADM, psnr; each writes only its sections */
    const int n_vif = score ? p->n_vif : 0, n_adm = score ? p->n_adm : 0;
    const int n_psnr = score && p->nplanes ? 1 : 0;
    /* psnr_hvs: one task per plane (each adds its own float sum in order) */
    const int n_hvs = score && p->psnr_hvs ? (p->plane_w[1] ? 3 : 1) : 0;
    const int n_ssim = score && p->ssim ? 1 : 0;
    const int n_cambi = score && p->cambi ? 1 : 0;
    /* ciede: the slowest per pixel (its libm calls), in row bands on every thread */
    const int n_ciede = score && p->ciede ? e->threads : 0;
    if (n_ciede)
        std::fill(r + p->ciede_off, r + p->ciede_off + VQ_CIEDE_PIX_OFF, 0);
    const int n = (p->motion ? 1 : 0) + n_vif + n_adm + n_ciede + n_cambi + n_hvs + n_ssim + n_psnr;
    std::atomic<int> failed{0};
    *rows = nullptr;
    /* the CPU loops add into rows that start at 0 (the GPU kernels write every word) */
    std::fill(e->rows.begin(), e->rows.end(), 0);
    e->pool->run(n, [&](int t) {
        if (p->motion && t-- == 0) {
            vq_motion_cpu_run(e->motion, ref[0], p->bpc, &p->base, r);
            return;
        }
        if (t < n_vif) {
            if (vq_vif_cpu_run(e->vif[t], ref[0], dis[0], p->bpc, p->vif_egl[t], e->log2_table,
                               &p->vif_layout[t], r) < 0)
                failed = 1;
            return;
        }
        t -= n_vif;
        if (t < n_adm) {
            if (vq_adm_cpu_run(e->adm[t], ref[0], dis[0], p->bpc, &p->adm[t], &p->adm_layout[t], r) < 0)
                failed = 2;
            return;
        }
        t -= n_adm;
        if (t < n_ciede) {
            const int r0 = p->h * t / n_ciede, r1 = p->h * (t + 1) / n_ciede;
            vq_ciede_cpu_run_rows(ref, dis, &p->ciede_geom, r + p->ciede_off, r0, r1);
            return;
        }
        t -= n_ciede;
        if (t < n_cambi) {  /* cambi reads the distorted luma only */
            if (vq_cambi_cpu_run(e->cambi, &p->cambi_p, p->cambi_tables, dis[0], &p->cambi_l, r) < 0)
                failed = 4;
            return;
        }
        t -= n_cambi;
        if (t < n_ssim) {
            if (vq_ssim_cpu_run(e->ssim, ref[0], dis[0], r + p->ssim_off) < 0)
                failed = 3;
            return;
        }
        t -= n_ssim;
        if (t < n_hvs) {
            r[p->psnr_hvs_off + t] = vq_psnr_hvs_cpu_plane(plane_view(ref[t], p, t), plane_view(dis[t], p, t),
                                                           t, &e->hvs);
            return;
        }
        vq_psnr_cpu_run(ref, dis, p->nplanes, p->bpc, &p->base, r);
    });
    if (failed) {
        std::snprintf(err, errlen, "CPU %s loops refused the frame (%dx%d, %d-bit)",
                      failed == 1 ? "VIF" : failed == 2 ? "ADM" : failed == 3 ? "SSIM" : "CAMBI", p->w, p->h, p->bpc);
        return VQ_EINVAL;
    }
    *rows = r;
    return VQ_OK;
}

extern "C" void vq_cpu_exec_close(VqCpuExec **e)
{
    if (e) {
        delete *e;
        *e = nullptr;
    }
}
