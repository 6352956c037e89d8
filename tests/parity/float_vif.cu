/*
 * float_vif - float_vif's and float_motion's CUDA kernels
 * (kernels/float_vif/cuda_float_vif.cu, float_motion/cuda_float_motion.cu) ==
 * their CPU loops (float_vif/cpu_float_vif.cpp, float_motion/cpu_float_motion.cpp),
 * word for word, on random
 * frames: sizes from 33x33 (and 1920x1080), 8 to 16 bits, planar and
 * semiplanar-style views (16-bit words with the sample in the high bits),
 * padded pitches, every prescale method, kernelscales, gain limits, sigmas,
 * skip_scale0; float_motion over 5 frames (its ring) with every filter
 * size, motion_add_scale1, motion_add_uv on 4:2:0/4:2:2/4:4:4.  The
 * device words are poisoned before each run and guarded on both sides;
 * each case also replays its work from a CUDA graph captured on the first
 * run (float_motion: one graph per phase), as the executor does.
 *   vqparity --test float_vif [--seed N (default 0x5eed0f10a7)] [--sizes N (cases, 60)]
 * 0: equal; 1: a difference.
 */
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "float_motion/float_motion_exec.h"
#include "float_motion/float_motion_fold.h"
#include "float_vif/float_vif_exec.h"
#include "float_vif/float_vif_fold.h"
#include "parity_common.cuh"
#include "parity.h"

namespace float_vif_parity {

const int64_t kPoison = (int64_t)0xA5A5A5A5A5A5A5A5ull;
constexpr size_t kGuard = 16;

struct HostPlane {
    std::vector<uint8_t> buf;
    VqPlaneView v;
};

/* a plane of random samples in one of three layouts (0 planar; 1 16-bit
 * words, sample in the high bits, every other word another plane's noise;
 * 2 the same at step 1), a padded pitch, noise in the padding */
HostPlane make_plane(int w, int h, int bpc, int layout, const HostPlane *like, ptrdiff_t keep_pitch = 0)
{
    HostPlane p;
    const int bytes = bpc > 8 || layout ? 2 : 1, step = layout == 1 ? 2 : 1;
    const int shift = layout && bpc < 16 ? 16 - bpc : 0;
    /* a random padding, or the pitch of the plane a graph was captured with */
    const ptrdiff_t pitch = keep_pitch ? keep_pitch
                                       : ((ptrdiff_t)w * bytes * step + 63) / 64 * 64 + 64 * (rnd() & 1);
    p.buf.resize((size_t)pitch * h);
    for (auto &b : p.buf)
        b = (uint8_t)rnd();
    p.v = VqPlaneView{ p.buf.data(), pitch, w, h, bytes, shift, step };
    const uint32_t mx = (1u << bpc) - 1;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            uint32_t v;
            if (like) {   /* the reference plus noise, sometimes equal */
                const int d = (rnd() % 4) ? (int)(rnd() % 33) - 16 : 0;
                const int64_t x = (int64_t)vq_sample(like->v, i, j) + d;
                v = (uint32_t)(x < 0 ? 0 : x > mx ? mx : x);
            } else {      /* smooth ramps, flat patches and noise */
                v = ((i / 8) % 3 == 0) ? (uint32_t)((j * 5 + i * 3) % (mx + 1)) : (rnd() & mx);
                if ((j / 16) % 4 == 1)
                    v = mx / 2;
            }
            uint8_t *q = p.buf.data() + (size_t)i * pitch + (size_t)j * step * bytes;
            if (bytes == 1) {
                *q = (uint8_t)v;
            } else {
                const uint16_t x = (uint16_t)(v << shift);
                memcpy(q, &x, 2);
            }
        }
    return p;
}

struct DevPlane {
    uint8_t *d = nullptr;
    size_t size = 0;
    VqPlaneView v;
    void up(const HostPlane &h)
    {
        if (h.buf.size() > size) {   /* a larger plane than the last: a new buffer */
            cudaFree(d);
            d = nullptr;
            CK(cudaMalloc(&d, h.buf.size()));
            size = h.buf.size();
        }
        CK(cudaMemcpy(d, h.buf.data(), h.buf.size(), cudaMemcpyHostToDevice));
        v = h.v;
        v.data = d;
    }
    ~DevPlane() { cudaFree(d); }
};

/* the device words with guards: poisoned, run, fetched, guards checked */
struct DevWords {
    int64_t *d = nullptr;
    size_t n;
    explicit DevWords(size_t words) : n(words) { CK(cudaMalloc(&d, (n + 2 * kGuard) * 8)); }
    ~DevWords() { cudaFree(d); }
    int64_t *words() { return d + kGuard; }
    void poison()
    {
        std::vector<int64_t> p(n + 2 * kGuard, kPoison);
        CK(cudaMemcpy(d, p.data(), p.size() * 8, cudaMemcpyHostToDevice));
    }
    bool fetch(std::vector<int64_t> &out, const char *what)
    {
        std::vector<int64_t> all(n + 2 * kGuard);
        CK(cudaMemcpy(all.data(), d, all.size() * 8, cudaMemcpyDeviceToHost));
        for (size_t k = 0; k < kGuard; k++)
            if (all[k] != kPoison || all[kGuard + n + k] != kPoison) {
                printf("FAIL %s: a guard word was written\n", what);
                return false;
            }
        out.assign(all.begin() + kGuard, all.begin() + kGuard + n);
        return true;
    }
};

int compare(const std::vector<int64_t> &cpu, const std::vector<int64_t> &gpu, const char *what)
{
    for (size_t k = 0; k < cpu.size(); k++)
        if (cpu[k] != gpu[k]) {
            printf("FAIL %s: word %zu of %zu: cpu %016llx gpu %016llx%s\n", what, k, cpu.size(),
                   (unsigned long long)cpu[k], (unsigned long long)gpu[k], gpu[k] == kPoison ? " (not written)" : "");
            return 1;
        }
    return 0;
}

int vif_case(int w, int h, int bpc, int layout, const vq::fvif::Options &o, cudaStream_t st)
{
    char what[256];
    snprintf(what, sizeof(what), "float_vif %dx%d %d-bit layout %d ks %g ps %g %s egl %g snsq %g skip %d", w, h,
             bpc, layout, o.kernelscale, o.prescale, o.prescale_method.c_str(), o.enhn_gain_limit, o.sigma_nsq,
             (int)o.skip_scale0);
    if (!vq::fvif::check(o, w, h, bpc).empty())
        return 0;
    vq::fvif::Setup s;
    s.opt = o;
    vq::fvif::fill_geom(s, w, h);
    VqFloatVifCpu *cpu = vq_fvif_cpu_alloc(&s.geom);
    VqFloatVifCuda *gpu = nullptr;
    CK(vq_fvif_cuda_alloc(&gpu, &s.geom));
    DevWords dw(s.geom.words);
    DevPlane dr, dd;
    cudaGraphExec_t graph = nullptr;
    int fails = 0;
    ptrdiff_t pr = 0, pd = 0;   /* run 1 keeps run 0's pitches: its graph has them */
    for (int run = 0; run < 2 && !fails; run++) {   /* run 1: the graph of run 0, new pictures */
        const HostPlane r = make_plane(w, h, bpc, layout, nullptr, pr), d = make_plane(w, h, bpc, layout, &r, pd);
        pr = r.v.pitch;
        pd = d.v.pitch;
        std::vector<int64_t> want(s.geom.words), got;
        vq_fvif_cpu_run(cpu, &s.geom, r.v, d.v, bpc, want.data());
        dr.up(r);
        dd.up(d);
        dw.poison();
        if (!run) {
            cudaGraph_t g;
            CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
            CK(vq_fvif_cuda_run(gpu, dr.v, dd.v, bpc, dw.words(), st));
            CK(cudaStreamEndCapture(st, &g));
            CK(cudaGraphInstantiate(&graph, g, 0));
            CK(cudaGraphDestroy(g));
        }
        CK(cudaGraphLaunch(graph, st));
        CK(cudaStreamSynchronize(st));
        fails += !dw.fetch(got, what) || compare(want, got, what);
    }
    cudaGraphExecDestroy(graph);
    vq_fvif_cuda_free(gpu);
    vq_fvif_cpu_free(cpu);
    return fails;
}

int motion_case(int w, int h, int bpc, int layout, int ssx, int ssy, const vq::fmotion::Options &o, cudaStream_t st)
{
    char what[256];
    const int cw = w >> ssx, ch = h >> ssy;
    snprintf(what, sizeof(what), "float_motion %dx%d (chroma %dx%d) %d-bit layout %d mfs %d mdc %d mau %d", w, h, cw,
             ch, bpc, layout, o.filter_size, (int)o.add_scale1, (int)o.add_uv);
    if (!vq::fmotion::check(o, w, h, true, cw, ch).empty())
        return 0;
    const VqFloatMotionGeom g = vq::fmotion::geom(o, w, h, cw, ch);
    VqFloatMotionCpu *cpu = vq_fmotion_cpu_alloc(&g);
    VqFloatMotionCuda *gpu = nullptr;
    CK(vq_fmotion_cuda_alloc(&gpu, &g));
    DevWords dw(g.words);
    DevPlane dp[3];
    cudaGraphExec_t graph[2] = { nullptr, nullptr };
    int fails = 0;
    ptrdiff_t pq[3] = { 0, 0, 0 };   /* later frames keep frame 0's pitches: the graphs have them */
    for (int n = 0; n < 5 && !fails; n++) {
        HostPlane hp[3];
        VqPlaneView hv[3], dv[3];
        for (int q = 0; q < 3; q++) {
            hp[q] = make_plane(q ? cw : w, q ? ch : h, bpc, layout, nullptr, pq[q]);
            pq[q] = hp[q].v.pitch;
            hv[q] = hp[q].v;
            dp[q].up(hp[q]);
            dv[q] = dp[q].v;
        }
        std::vector<int64_t> want(g.words), got;
        vq_fmotion_cpu_run(cpu, &g, hv, bpc, want.data());
        dw.poison();
        const int phase = vq_fmotion_cuda_phase(gpu);
        if (phase < 0) {   /* the first frame: enqueued directly, as the executor does */
            CK(vq_fmotion_cuda_run(gpu, dv, bpc, dw.words(), st));
        } else if (!graph[phase]) {
            cudaGraph_t gr;
            CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
            CK(vq_fmotion_cuda_run(gpu, dv, bpc, dw.words(), st));
            CK(cudaStreamEndCapture(st, &gr));
            CK(cudaGraphInstantiate(&graph[phase], gr, 0));
            CK(cudaGraphDestroy(gr));
            CK(cudaGraphLaunch(graph[phase], st));
        } else {
            CK(cudaGraphLaunch(graph[phase], st));
            vq_fmotion_cuda_replayed(gpu);
        }
        CK(cudaStreamSynchronize(st));
        char w2[300];
        snprintf(w2, sizeof(w2), "%s frame %d", what, n);
        fails += !dw.fetch(got, w2) || compare(want, got, w2);
        if (!fails && n && vq::fmotion::score(g, want.data()) != vq::fmotion::score(g, got.data()))
            fails++;
    }
    for (auto &x : graph)
        if (x)
            cudaGraphExecDestroy(x);
    vq_fmotion_cuda_free(gpu);
    vq_fmotion_cpu_free(cpu);
    return fails;
}

}  // namespace float_vif_parity

int parity_float_vif(const ParityArgs &args)
{
    using namespace float_vif_parity;
    /* its own fixed seed unless --seed is given */
    const uint64_t seed = args.seed_given ? args.seed : 0x5eed0f10a7ull;
    const int cases = args.sizes >= 0 ? args.sizes : 60;
    rng_state = seed;
    printf("float_vif: seed %llu, %d cases\n", (unsigned long long)seed, cases);
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    const double ks[] = { 1.0, 0.5, 1.5, 2.0, 2.0 / 3.0, 2.4, 360.0 / 97.0, 1.0 / 2.25, 3.0 };
    const char *methods[] = { "nearest", "bilinear", "bicubic", "lanczos4" };
    const int depths[] = { 8, 10, 12, 16 };
    int fails = 0, ran = 0;
    for (int c = 0; c < cases; c++) {
        const bool big = c % 20 == 0;
        const int w = big ? 1920 : 33 + (int)(rnd() % 700), h = big ? 1080 : 33 + (int)(rnd() % 500);
        const int bpc = depths[rnd() % 4], layout = bpc > 8 ? (int)(rnd() % 3) : (int)(rnd() % 2) * 2;
        vq::fvif::Options o;
        o.kernelscale = ks[rnd() % 9];
        o.prescale = rnd() % 3 ? 1.0 : (rnd() % 2 ? 0.5 + (rnd() % 40) / 100.0 : 1.1 + (rnd() % 60) / 100.0);
        o.prescale_method = methods[rnd() % 4];
        o.enhn_gain_limit = rnd() % 2 ? 100.0 : 1.0 + (rnd() % 30) / 10.0;
        o.sigma_nsq = rnd() % 2 ? 2.0 : 0.1 + (rnd() % 49) / 10.0;
        o.skip_scale0 = rnd() % 6 == 0;
        fails += vif_case(w, h, bpc, layout, o, st);
        vq::fmotion::Options m;
        m.filter_size = (int)(rnd() % 10);
        m.add_scale1 = rnd() % 2;
        m.add_uv = rnd() % 2;
        const int ss = (int)(rnd() % 3);   /* 4:2:0, 4:2:2, 4:4:4 */
        fails += motion_case(w, h, bpc, layout, ss < 2, ss == 0, m, st);
        ran++;
    }
    CK(cudaStreamDestroy(st));
    printf("float_vif: %d cases, %s\n", ran, fails ? "DIFFERENCES" : "all equal");
    return fails ? 1 : 0;
}
