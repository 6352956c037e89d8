/*
 * vmaf - checkasm for the VMAF features
 * (VIF/ADM/motion/PSNR): every CUDA feature kernel against the CPU
 * executor, on the same random frames, for many sizes, bit depths and
 * layouts; the row-sum buffers must be identical.  Prints its seed and the
 * first differing row.  Catches writes outside a feature's own sections
 * (everything else is poisoned).  Then ladders of sessions on the CUDA
 * executor against the CPU executor's.
 *
 *   vqparity --test vmaf [--seed N] [--sizes N] [--bench | --bench-sessions | --profile]
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

#include "adm/adm_exec.h"
#include "adm/adm_params.h"
#include "motion/motion_exec.h"
#include "psnr/psnr_exec.h"
#include "vif/vif_exec.h"
#include "vif/vif_fold.h"
#include "vq_common.h"
#include "vq_rows.h"
#include "vqcuda.h"

#include "frame.cuh"
#include "parity_common.cuh"
#include "parity.h"

namespace vmaf_parity {

using parity_frame::Frame;
using parity_frame::free_frame;
using parity_frame::views;

struct Layout {
    const char *name;
    int bpc, bytes, shift, semi, sw, sh;
};

static const Layout layouts[] = {
    { "yuv420p", 8, 1, 0, 0, 1, 1 },   { "nv12", 8, 1, 0, 1, 1, 1 },
    { "yuv444p", 8, 1, 0, 0, 0, 0 },   { "yuv420p10", 10, 2, 0, 0, 1, 1 },
    { "p010", 10, 2, 6, 1, 1, 1 },     { "yuv420p12", 12, 2, 0, 0, 1, 1 },
    { "p016(12)", 12, 2, 4, 1, 1, 1 }, { "yuv444p16", 16, 2, 0, 0, 0, 0 },
    { "yuv422p10", 10, 2, 0, 0, 1, 0 },
};

/* A frame (frame.cuh) in host and device memory with the same (padded) pitches. */
static void make_frame(Frame &f, const Layout &L, int w, int h, const Frame *base, int noise)
{
    int maxv = (1 << L.bpc) - 1;
    f.cw = (w + L.sw) >> L.sw;
    f.ch = (h + L.sh) >> L.sh;
    /* padded pitches; one frame in four has rows off the 16-byte alignment
     * (the kernels that read aligned words must fall back to samples) */
    const ptrdiff_t skew = (rnd() & 3) == 0 ? 2 : 0;
    f.pitch[0] = ((ptrdiff_t)w * L.bytes + 255) / 256 * 256 + 256 * (rnd() & 1) + skew;
    f.pitch[1] = ((ptrdiff_t)f.cw * L.bytes * 2 + 255) / 256 * 256 + skew;
    f.host[0].assign(f.pitch[0] * h, 0xA5);
    f.host[1].assign(f.pitch[1] * f.ch * (L.semi ? 1 : 2), 0x5A);
    for (int p = 0; p < 2; p++) {
        int rows = p ? f.ch * (L.semi ? 1 : 2) : h;
        int cols = p ? (L.semi ? f.cw * 2 : f.cw) : w;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) {
                int v;
                if (base) {
                    int b = L.bytes == 1 ? base->host[p][i * base->pitch[p] + j]
                                         : ((const uint16_t *)&base->host[p][i * base->pitch[p]])[j] >> L.shift;
                    v = b + (int)(rnd() % (2 * noise + 1)) - noise;
                } else {
                    /* smooth content with edges: gradients plus blocks plus noise */
                    v = ((i * 3 + j * 5) % (maxv + 1) + ((i / 16 + j / 16) % 2) * maxv / 3 + (int)(rnd() % 16)) % (maxv + 1);
                }
                v = v < 0 ? 0 : v > maxv ? maxv : v;
                if (L.bytes == 1)
                    f.host[p][i * f.pitch[p] + j] = (uint8_t)v;
                else
                    ((uint16_t *)&f.host[p][i * f.pitch[p]])[j] = (uint16_t)(v << L.shift);
            }
        CK(cudaMalloc(&f.dev[p], f.host[p].size()));
        CK(cudaMemcpy(f.dev[p], f.host[p].data(), f.host[p].size(), cudaMemcpyHostToDevice));
    }
}

/* idx's section in GpuSet's buffer: the row layout, motion's section (lag
 * 1's rows, then lag 2's) at l.total, psnr's section (pl) at psnr_off */
static const char *section_name(const VqRowLayout &l, const VqPsnrLayout &pl, size_t psnr_off, size_t idx,
                                int *row)
{
    static char buf[64];
    struct { const char *n; size_t off, len, per; } s[] = {
        { "psnr_y", psnr_off + pl.off[0], (size_t)pl.h, 1 }, { "psnr_u", psnr_off + pl.off[1], (size_t)pl.ch, 1 },
        { "psnr_v", psnr_off + pl.off[2], (size_t)pl.ch, 1 }, { "motion", l.total, (size_t)l.h, 1 },
        { "motion_lag2", l.total + (size_t)l.h, (size_t)l.h, 1 },
        { "vif0", l.vif_off[0], (size_t)l.vif_h[0] * VQ_VIF_NSUMS, VQ_VIF_NSUMS },
        { "vif1", l.vif_off[1], (size_t)l.vif_h[1] * VQ_VIF_NSUMS, VQ_VIF_NSUMS },
        { "vif2", l.vif_off[2], (size_t)l.vif_h[2] * VQ_VIF_NSUMS, VQ_VIF_NSUMS },
        { "vif3", l.vif_off[3], (size_t)l.vif_h[3] * VQ_VIF_NSUMS, VQ_VIF_NSUMS },
        { "adm0", l.adm_off[0], (size_t)l.adm_h[0] * VQ_ADM_NSUMS, VQ_ADM_NSUMS },
        { "adm1", l.adm_off[1], (size_t)l.adm_h[1] * VQ_ADM_NSUMS, VQ_ADM_NSUMS },
        { "adm2", l.adm_off[2], (size_t)l.adm_h[2] * VQ_ADM_NSUMS, VQ_ADM_NSUMS },
        { "adm3", l.adm_off[3], (size_t)l.adm_h[3] * VQ_ADM_NSUMS, VQ_ADM_NSUMS },
    };
    for (auto &x : s)
        if (idx >= x.off && idx < x.off + x.len) {
            *row = (int)((idx - x.off) / x.per);
            snprintf(buf, sizeof(buf), "%s[%d]", x.n, (int)((idx - x.off) % x.per));
            return buf;
        }
    *row = -1;
    return "guard";
}

static const int64_t POISON = (int64_t)0x7ead7ead7ead7eadLL;
#define GUARD 64

/* A reference and a distorted frame on the device, for timing. */
static void make_device_pair(const Layout &L, int w, int h, Frame &ref, Frame &dis, VqPlaneView rd[3],
                             VqPlaneView dd[3])
{
    make_frame(ref, L, w, h, nullptr, 0);
    make_frame(dis, L, w, h, &ref, 8);
    views(ref, L, w, h, 1, rd);
    views(dis, L, w, h, 1, dd);
}

/* Everything one frame size needs: the row layout, ADM parameters and the
 * four features' CUDA states.  Motion makes both SADs, against frame n-1
 * and n-2 (the five-frame window), in its section after the layout
 * (motion_off = l.total); psnr's section after that (psnr_off); `words` in all. */
struct GpuSet {
    VqRowLayout l;
    VqPsnrLayout pl;
    size_t motion_off = 0, psnr_off = 0, words = 0;
    VqAdmParams ap;
    VqVifCuda *vif = nullptr;
    VqAdmCuda *adm = nullptr;
    VqMotionCuda *motion = nullptr;
    VqPsnrCuda *psnr = nullptr;
    int64_t *d_rows = nullptr;

    /* adm_opt: ADM's options (NULL: libvmaf's defaults) */
    int init(const Layout &L, int w, int h, const uint16_t *table, size_t guard,
             const VqAdmOptions *adm_opt = nullptr)
    {
        vq_row_layout_init(&l, w, h, w >> L.sw, h >> L.sh);
        vq_psnr_layout_init(&pl, w, h, w >> L.sw, h >> L.sh);
        motion_off = l.total;
        psnr_off = motion_off + VQ_MOTION_WORDS(h);
        words = psnr_off + pl.total;
        VqAdmOptions ao;
        vq_adm_options_default(&ao);
        if (adm_opt)
            ao = *adm_opt;
        if (vq_adm_params_init(&ap, w, h, L.bpc, &ao) < 0)
            return -1;
        CK((cudaError_t)vq_vif_cuda_alloc(&vif, w, h, table));
        CK((cudaError_t)vq_adm_cuda_alloc(&adm, w, h));
        CK((cudaError_t)vq_motion_cuda_alloc(&motion, w, h, VQ_MOTION_LAG1 | VQ_MOTION_LAG2));
        CK((cudaError_t)vq_psnr_cuda_alloc(&psnr, w, h));
        CK(cudaMalloc(&d_rows, (words + guard) * sizeof(int64_t)));
        return 0;
    }
    /* one frame pair, every feature (feature < 0) or one of them */
    void run(const Layout &L, const VqPlaneView rd[3], const VqPlaneView dd[3], cudaStream_t st, int feature = -1)
    {
        if (feature < 0 || feature == 0)
            CK((cudaError_t)vq_motion_cuda_run(motion, rd[0], L.bpc, d_rows + motion_off, st));
        if (feature < 0 || feature == 1)
            CK((cudaError_t)vq_vif_cuda_run(vif, rd[0], dd[0], L.bpc, 100.0, &l, d_rows, st));
        if (feature < 0 || feature == 2)
            CK((cudaError_t)vq_adm_cuda_run(adm, rd[0], dd[0], L.bpc, &ap, &l, d_rows, st));
        if (feature < 0 || feature == 3)
            CK((cudaError_t)vq_psnr_cuda_run(psnr, rd, dd, 3, L.bpc, &pl, d_rows + psnr_off, st));
    }
    ~GpuSet()
    {
        cudaFree(d_rows);
        vq_vif_cuda_free(vif);
        vq_adm_cuda_free(adm);
        vq_motion_cuda_free(motion);
        vq_psnr_cuda_free(psnr);
    }
};

/* Run both executors over a 5-frame sequence (motion's ring of three frames
 * goes round); compare every frame's buffer.  adm_opt: ADM's options (NULL:
 * the defaults), e.g. another CSF mode. */
static int check(const Layout &L, int w, int h, const uint16_t *table,
                 const VqAdmOptions *adm_opt = nullptr)
{
    GpuSet g;
    if (g.init(L, w, h, table, GUARD, adm_opt) < 0) {
        printf("FAIL %s %dx%d: adm params refused\n", L.name, w, h);
        return 1;
    }
    const VqRowLayout &l = g.l;
    VqVifCpu *vc = vq_vif_cpu_alloc(w, h);
    VqAdmCpu *ac = vq_adm_cpu_alloc(w, h);
    VqMotionCpu *mc = vq_motion_cpu_alloc(w, h, VQ_MOTION_LAG1 | VQ_MOTION_LAG2);
    std::vector<int64_t> cpu(g.words), gpu(g.words + GUARD);
    int bad = 0;
    const int nf = 5;
    Frame ref[nf], dis[nf];
    for (int n = 0; n < nf && !bad; n++) {
        make_frame(ref[n], L, w, h, n ? &ref[n - 1] : nullptr, 3 + 2 * (n & 1));
        make_frame(dis[n], L, w, h, &ref[n], n == 2 ? (1 << (L.bpc - 3)) : 6);
        VqPlaneView rh[3], dh[3], rd[3], dd[3];
        views(ref[n], L, w, h, 0, rh);
        views(dis[n], L, w, h, 0, dh);
        views(ref[n], L, w, h, 1, rd);
        views(dis[n], L, w, h, 1, dd);
        std::fill(cpu.begin(), cpu.end(), 0);
        vq_motion_cpu_run(mc, rh[0], L.bpc, cpu.data() + g.motion_off);
        vq_vif_cpu_run(vc, rh[0], dh[0], L.bpc, 100.0, table, &l, cpu.data());
        vq_adm_cpu_run(ac, rh[0], dh[0], L.bpc, &g.ap, &l, cpu.data());
        vq_psnr_cpu_run(rh, dh, 3, L.bpc, &g.pl, cpu.data() + g.psnr_off);

        /* poison everything: each feature must write every element of its
         * sections (the executor does not clear them), and nothing beyond */
        std::fill(gpu.begin(), gpu.end(), POISON);
        CK(cudaMemcpy(g.d_rows, gpu.data(), gpu.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
        g.run(L, rd, dd, 0);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(gpu.data(), g.d_rows, gpu.size() * sizeof(int64_t), cudaMemcpyDeviceToHost));
        for (size_t k = 0; k < g.words + GUARD; k++) {
            int64_t want = k < g.words ? cpu[k] : POISON;
            if (gpu[k] != want) {
                int row;
                const char *sec = section_name(l, g.pl, g.psnr_off, k, &row);
                printf("FAIL %s %dx%d frame %d: %s row %d: gpu %lld cpu %lld\n", L.name, w, h, n, sec, row,
                       (long long)gpu[k], (long long)want);
                bad = 1;
                break;
            }
        }
    }
    for (int n = 0; n < nf; n++) {
        free_frame(ref[n]);
        free_frame(dis[n]);
    }
    vq_vif_cpu_free(vc);
    vq_adm_cpu_free(ac);
    vq_motion_cpu_free(mc);
    return bad;
}

/* GPU time of each feature per frame pair (CUDA events, after a warm-up),
 * and the launches one pair takes (a captured graph's nodes). */
static void bench(const Layout &L, int w, int h, const uint16_t *table)
{
    GpuSet g;
    if (g.init(L, w, h, table, 0) < 0)
        return;
    const VqRowLayout &l = g.l;
    Frame ref, dis;
    VqPlaneView rd[3], dd[3];
    make_device_pair(L, w, h, ref, dis, rd, dd);
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const char *names[4] = { "motion", "vif", "adm", "psnr" };
    float ms[4];
    const int reps = 50;
    for (int f = 0; f < 4; f++) {
        for (int pass = 0; pass < 2; pass++) {   /* pass 0: warm-up */
            CK(cudaEventRecord(e0, st));
            for (int r = 0; r < reps; r++)
                g.run(L, rd, dd, st, f);
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms[f], e0, e1));
        }
        ms[f] /= reps;
    }
    /* the executor's arrangement (kernels/cuda_exec.cu): ADM on one side
     * stream, motion and PSNR on another, VIF on the main one, joined */
    float fork_ms = 0;
    {
        cudaStream_t side[2];
        cudaEvent_t fork, join[2];
        for (int k = 0; k < 2; k++) {
            CK(cudaStreamCreate(&side[k]));
            CK(cudaEventCreateWithFlags(&join[k], cudaEventDisableTiming));
        }
        CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
        for (int pass = 0; pass < 2; pass++) {
            CK(cudaEventRecord(e0, st));
            for (int r = 0; r < reps; r++) {
                CK(cudaEventRecord(fork, st));
                for (int k = 0; k < 2; k++)
                    CK(cudaStreamWaitEvent(side[k], fork, 0));
                g.run(L, rd, dd, side[1], 0);
                g.run(L, rd, dd, side[0], 2);
                g.run(L, rd, dd, side[1], 3);
                g.run(L, rd, dd, st, 1);
                for (int k = 0; k < 2; k++) {
                    CK(cudaEventRecord(join[k], side[k]));
                    CK(cudaStreamWaitEvent(st, join[k], 0));
                }
            }
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&fork_ms, e0, e1));
        }
        fork_ms /= reps;
        for (int k = 0; k < 2; k++) {
            CK(cudaStreamDestroy(side[k]));
            CK(cudaEventDestroy(join[k]));
        }
        CK(cudaEventDestroy(fork));
    }
    cudaGraph_t graph;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    g.run(L, rd, dd, st);
    CK(cudaStreamEndCapture(st, &graph));
    size_t nnodes = 0;
    CK(cudaGraphGetNodes(graph, NULL, &nnodes));
    std::vector<cudaGraphNode_t> nodes(nnodes);
    CK(cudaGraphGetNodes(graph, nodes.data(), &nnodes));
    int kernels = 0, others = 0;
    for (auto n : nodes) {
        cudaGraphNodeType t;
        CK(cudaGraphNodeGetType(n, &t));
        if (t == cudaGraphNodeTypeKernel) kernels++; else others++;
    }
    CK(cudaGraphDestroy(graph));
    double luma = (double)w * h * L.bytes, chroma = 2.0 * l.cw * l.ch * L.bytes;
    /* fewest bytes each must read: motion 1 luma plane (+ its copy), vif/adm 2, psnr 2 frames */
    double need[4] = { 2 * luma, 2 * luma, 2 * luma, 2 * (luma + chroma) };
    double total = 0;
    printf("bench %s %dx%d:", L.name, w, h);
    for (int f = 0; f < 4; f++) {
        total += ms[f];
        printf("  %s %.1f us (%.0f GB/s of the minimum bytes)", names[f], ms[f] * 1e3, need[f] / (ms[f] * 1e-3) / 1e9);
    }
    printf("  total %.1f us/pair one after another, %.1f us/pair on the executor's 3 streams;"
           " %d kernel launches + %d memsets per pair (+1 copy to the host: the executor)\n",
           total * 1e3, fork_ms * 1e3, kernels, others);
    free_frame(ref);
    free_frame(dis);
    cudaStreamDestroy(st);
}

/* A picture of a Frame, host or device memory. */
static VqPicture picture(const Frame &f, const Layout &L, int dev)
{
    VqPicture x;
    memset(&x, 0, sizeof(x));
    x.on_device = dev;
    for (int p = 0; p < 2; p++) {
        x.data[p] = dev ? (const void *)f.dev[p] : (const void *)f.host[p].data();
        x.linesize[p] = f.pitch[p];
    }
    if (!L.semi) {
        x.data[2] = (const uint8_t *)x.data[1] + (size_t)f.ch * f.pitch[1];
        x.linesize[2] = f.pitch[1];
    }
    return x;
}

static VqConfig session_config(const Layout &L, int w, int h)
{
    VqConfig c;
    vq_config_default(&c);
    c.format.width = w;
    c.format.height = h;
    c.format.bitdepth = L.bpc;
    c.format.bytes_per_sample = L.bytes;
    c.format.msb_aligned = L.shift > 0;
    c.format.chroma_shift_w = L.sw;
    c.format.chroma_shift_h = L.sh;
    c.format.layout = L.semi ? VQ_LAYOUT_SEMIPLANAR : VQ_LAYOUT_PLANAR;
    return c;
}

/* The library as a user runs it: a ladder of nrend renditions (1: a plain
 * pair) on the CUDA executor (graphs, side streams, staging copies, the copy
 * back, the folds), the same device pair submitted again and again.  With
 * two frames in flight the wall time per frame is the GPU's time per frame
 * when the host keeps up (its CPU time per frame is printed beside it). */
static void bench_sessions(const Layout &L, int w, int h, int nrend, int graphs)
{
    Frame ref, dis;
    VqPlaneView rd[3], dd[3];
    make_device_pair(L, w, h, ref, dis, rd, dd);
    setenv("VQ_CUDA_GRAPHS", graphs ? "1" : "0", 1);
    VqConfig c = session_config(L, w, h);
    c.executor = VQ_EXECUTOR_CUDA;
    c.keep_frames = 0;
    VqLadder *l = nullptr;
    char err[256] = "";
    if (vq_ladder_open(&l, &c, nrend, nullptr, nullptr, err, sizeof(err)) < 0) {
        printf("bench sessions: %s\n", err);
        return;
    }
    const VqPicture pr = picture(ref, L, 1), pd = picture(dis, L, 1);
    const std::vector<const VqPicture *> pds((size_t)nrend, &pd);
    auto now = [](clockid_t id) {
        struct timespec t;
        clock_gettime(id, &t);
        return t.tv_sec + t.tv_nsec * 1e-9;
    };
    const int warm = 20, n = 300;
    double t0 = 0, c0 = 0;
    for (int i = 0; i < warm + n; i++) {
        if (i == warm) {
            t0 = now(CLOCK_MONOTONIC);
            c0 = now(CLOCK_THREAD_CPUTIME_ID);
        }
        VqFrameResult r;
        int k;
        if (vq_ladder_submit(l, &pr, pds.data(), NAN, 0) < 0) {
            printf("bench sessions: %s\n", vq_ladder_error(l));
            vq_ladder_close(&l);
            return;
        }
        while (vq_ladder_receive(l, &k, &r) == VQ_OK) {
        }
    }
    vq_ladder_flush(l);
    const double wall = now(CLOCK_MONOTONIC) - t0, cpu = now(CLOCK_THREAD_CPUTIME_ID) - c0;
    printf("bench sessions %s %dx%d, %d rendition%s, graphs %s: %.1f us per frame (wall), host CPU %.1f us "
           "per frame\n", L.name, w, h, nrend, nrend > 1 ? "s" : "", graphs ? "on" : "off",
           wall / n * 1e6, cpu / n * 1e6);
    vq_ladder_close(&l);
    free_frame(ref);
    free_frame(dis);
}

/*
 * A ladder through the public API: one reference, renditions of its size and
 * smaller (upscaled), scored as one ladder on the GPU (device pictures; the
 * reference's work done once: motion, VIF's images and moments, ADM's bands
 * and denominators) and each as a session of its own on the CPU (host
 * pictures).  Every frame's values must be identical.  ends 0: every
 * rendition to the last frame; 1: rendition 3 ends two frames early; 2:
 * rendition 2 after the second frame and rendition 3 one frame early (an
 * ended rendition's frames in flight fold rendition 1's motion).
 */
static int check_ladder(const Layout &L, int w, int h, const char *model, int ends,
                        const char *feature = nullptr)
{
    const int nframes = 6;
    struct Rend { int w, h, last; };
    std::vector<Rend> rend = { { w, h, nframes }, { w, h, ends == 2 ? 2 : nframes },
                               { (w * 2 / 3) & ~1, (h * 2 / 3) & ~1, nframes - (ends == 1 ? 2 : ends == 2 ? 1 : 0) } };
    std::vector<Frame> ref((size_t)nframes);
    std::vector<std::vector<Frame>> dis(rend.size(), std::vector<Frame>((size_t)nframes));
    for (int i = 0; i < nframes; i++) {
        make_frame(ref[(size_t)i], L, w, h, i ? &ref[(size_t)i - 1] : nullptr, i ? 24 : 0);
        for (size_t k = 0; k < rend.size(); k++) {
            const bool same = rend[k].w == w && rend[k].h == h;
            make_frame(dis[k][(size_t)i], L, rend[k].w, rend[k].h, same ? &ref[(size_t)i] : nullptr,
                       same ? 4 + 6 * (int)k : 0);
        }
    }
    std::vector<std::vector<std::vector<double>>> got(2, std::vector<std::vector<double>>(rend.size()));
    int fails = 0;
    char err[512] = "";
    VqConfig c = session_config(L, w, h);
    c.model = model;
    c.feature = feature;
    c.enable_psnr = 1;
    /* the CPU: each rendition alone */
    c.executor = VQ_EXECUTOR_CPU;
    for (size_t k = 0; k < rend.size() && !fails; k++) {
        VqSession *s = nullptr;
        c.dis_width = rend[k].w;
        c.dis_height = rend[k].h;
        if (vq_session_open(&s, &c, err, sizeof(err)) < 0) {
            printf("FAIL ladder %s %dx%d: open: %s\n", L.name, w, h, err);
            return 1;
        }
        for (int i = 0; i < rend[k].last && !fails; i++) {
            const VqPicture pr = picture(ref[(size_t)i], L, 0), pd = picture(dis[k][(size_t)i], L, 0);
            if (vq_session_submit(s, &pr, &pd) < 0) {
                printf("FAIL ladder %s %dx%d: submit: %s\n", L.name, w, h, vq_session_error(s));
                fails++;
            }
        }
        VqFrameResult r;
        if (!fails && vq_session_flush(s) == VQ_OK)
            while (vq_session_receive(s, &r) == VQ_OK)
                got[0][k].insert(got[0][k].end(), r.value, r.value + r.n);
        vq_session_close(&s);
    }
    /* the GPU: one ladder */
    c.executor = VQ_EXECUTOR_CUDA;
    c.dis_width = c.dis_height = 0;
    std::vector<int> dw, dh;
    for (const Rend &r : rend) {
        dw.push_back(r.w);
        dh.push_back(r.h);
    }
    VqLadder *l = nullptr;
    if (!fails && vq_ladder_open(&l, &c, (int)rend.size(), dw.data(), dh.data(), err, sizeof(err)) < 0) {
        printf("FAIL ladder %s %dx%d: open: %s\n", L.name, w, h, err);
        fails++;
    }
    for (int i = 0; i < nframes && l && !fails; i++) {
        std::vector<VqPicture> pd(rend.size());
        std::vector<const VqPicture *> pp(rend.size(), nullptr);
        for (size_t k = 0; k < rend.size(); k++)
            if (i < rend[k].last) {
                pd[k] = picture(dis[k][(size_t)i], L, 1);
                pp[k] = &pd[k];
            }
        const VqPicture pr = picture(ref[(size_t)i], L, 1);
        if (vq_ladder_submit(l, &pr, pp.data(), NAN, 0) < 0) {
            printf("FAIL ladder %s %dx%d: submit: %s\n", L.name, w, h, vq_ladder_error(l));
            fails++;
        }
    }
    if (l && !fails) {
        int k, ret = VQ_EOF;
        VqFrameResult r;
        if (vq_ladder_flush(l) < 0) {
            printf("FAIL ladder %s %dx%d: flush: %s\n", L.name, w, h, vq_ladder_error(l));
            fails++;
        }
        while (!fails && (ret = vq_ladder_receive(l, &k, &r)) == VQ_OK)
            got[1][(size_t)k].insert(got[1][(size_t)k].end(), r.value, r.value + r.n);
        if (!fails && ret != VQ_EOF) {
            printf("FAIL ladder %s %dx%d: receive: %d %s\n", L.name, w, h, ret, vq_ladder_error(l));
            fails++;
        }
    }
    vq_ladder_close(&l);
    for (size_t k = 0; k < rend.size() && !fails; k++) {
        const std::vector<double> &a = got[0][k], &b = got[1][k];
        if (a.empty() || a.size() != b.size()) {
            printf("FAIL ladder %s %dx%d ends %d rendition %zu: %zu values on the CPU, %zu on the GPU\n",
                   L.name, w, h, ends, k + 1, a.size(), b.size());
            fails++;
            continue;
        }
        for (size_t j = 0; j < a.size(); j++)
            if (memcmp(&a[j], &b[j], sizeof(double))) {
                printf("FAIL ladder %s %dx%d ends %d rendition %zu: value %zu: %.17g (CPU) vs %.17g (GPU)\n",
                       L.name, w, h, ends, k + 1, j, a[j], b[j]);
                fails++;
                break;
            }
    }
    for (int i = 0; i < nframes; i++) {
        free_frame(ref[(size_t)i]);
        for (size_t k = 0; k < rend.size(); k++)
            free_frame(dis[k][(size_t)i]);
    }
    return fails ? 1 : 0;
}

/* Two frame pairs through every feature (the first one warms up), for ncu. */
static void bench_profile(const Layout &L, int w, int h, const uint16_t *table)
{
    GpuSet g;
    if (g.init(L, w, h, table, 0) < 0)
        return;
    Frame ref, dis;
    VqPlaneView rd[3], dd[3];
    make_device_pair(L, w, h, ref, dis, rd, dd);
    for (int pass = 0; pass < 2; pass++) {
        g.run(L, rd, dd, 0);
        CK(cudaDeviceSynchronize());
    }
    free_frame(ref);
    free_frame(dis);
    printf("profile %s %dx%d: 2 pairs run\n", L.name, w, h);
}

}  // namespace vmaf_parity

int parity_vmaf(const ParityArgs &args)
{
    using namespace vmaf_parity;
    const uint64_t seed = args.seed;
    const int nrandom = args.sizes >= 0 ? args.sizes : 6;
    const int do_bench = args.bench_sessions ? 2 : args.bench ? 1 : 0, do_profile = args.profile;
    rng_state = seed ? seed : 1;
    printf("vmaf: seed %llu\n", (unsigned long long)seed);
    static uint16_t table[65536];
    vq_vif_log2_table(table);
    if (do_profile) {   /* for ncu: --launch-skip the first pair's launches */
        bench_profile(layouts[1], 1920, 1080, table);
        return 0;
    }
    if (do_bench) {
        if (do_bench == 1) {
            bench(layouts[1], 1920, 1080, table);
            bench(layouts[4], 1920, 1080, table);
            bench(layouts[1], 3840, 2160, table);
            bench(layouts[4], 3840, 2160, table);
        }
        for (int graphs = 1; graphs >= 0; graphs--)
            for (int nrend = 1; nrend <= 4; nrend += 3) {
                bench_sessions(layouts[1], 1920, 1080, nrend, graphs);
                bench_sessions(layouts[1], 3840, 2160, nrend, graphs);
            }
        /* a ladder with each rendition doing its own VIF/ADM reference work */
        setenv("VQ_CUDA_REF_SHARE", "0", 1);
        printf("with VQ_CUDA_REF_SHARE=0:\n");
        bench_sessions(layouts[1], 1920, 1080, 4, 1);
        bench_sessions(layouts[1], 3840, 2160, 4, 1);
        unsetenv("VQ_CUDA_REF_SHARE");
        bench_sessions(layouts[1], 1920, 1080, 4, 1);
        bench_sessions(layouts[4], 1920, 1080, 1, 1);
        bench_sessions(layouts[4], 3840, 2160, 1, 1);
        return 0;
    }
    std::vector<std::pair<int, int>> sizes = { { 33, 33 }, { 34, 35 }, { 36, 34 }, { 64, 48 }, { 97, 71 },
                                               { 577, 323 }, { 1920, 1080 }, { 3840, 2160 } };
    for (int k = 0; k < nrandom; k++)
        sizes.push_back({ 33 + (int)(rnd() % 1400), 33 + (int)(rnd() % 800) });
    int fails = 0, runs = 0;
    for (auto &sz : sizes) {
        for (const Layout &L : layouts) {
            if (sz.first >= 3840 && L.bpc != 8 && L.bpc != 10)
                continue;   /* keep the run short: 4K at 8 and 10 bit */
            fails += check(L, sz.first, sz.second, table);
            runs++;
        }
        printf("  %dx%d: done (%d failures so far)\n", sz.first, sz.second, fails);
        fflush(stdout);
    }
    /* ADM's other contrast sensitivity functions (adm_csf_mode 1-3): other
     * multipliers, Barten's wrapped ones among them (docs/adm_csf.md) */
    {
        struct Csf { int mode; double nvd; int rdh; double scf, scfd; };
        const Csf csfs[] = { { 1, 3.0, 1080, 1.0, 1.0 }, { 1, 5.0, 2160, 0.37, 2.5 },
                             { 1, 1.5, 2160, 50.0, 0.0 }, { 2, 3.0, 1080, 1.0, 1.0 },
                             { 2, 5.0, 1080, 1.0, 1.0 }, { 2, 1.5, 2160, 1.0, 1.0 },
                             { 2, 3.0, 2160, 1.0, 1.0 }, { 3, 3.0, 1080, 1.0, 1.0 },
                             { 3, 5.0, 2160, 1.0, 1.0 }, { 3, 5.0, 720, 1.0, 1.0 } };
        const std::pair<int, int> csizes[4] = { { 1920, 1080 }, { 577, 323 }, { 36, 34 },
                                                { 33 + (int)(rnd() % 1400), 33 + (int)(rnd() % 800) } };
        for (const Csf &c : csfs) {
            VqAdmOptions ao;
            vq_adm_options_default(&ao);
            ao.csf_mode = c.mode;
            ao.norm_view_dist = c.nvd;
            ao.ref_display_height = c.rdh;
            ao.csf_scale = c.scf;
            ao.csf_diag_scale = c.scfd;
            for (const auto &sz : csizes)
                for (int li = 0; li < (int)(sizeof(layouts) / sizeof(layouts[0])); li++) {
                    if (sz.first >= 1920 && li != 1 && li != 4)
                        continue;   /* keep the run short: 1080p in two layouts */
                    fails += check(layouts[li], sz.first, sz.second, table, &ao);
                    runs++;
                }
            printf("  adm_csf_mode %d nvd %g rdh %d scf %g scfd %g: done (%d failures so far)\n", c.mode,
                   c.nvd, c.rdh, c.scf, c.scfd, fails);
            fflush(stdout);
        }
    }
    /* ladders: the reference's work done once for the renditions (hostmath/ladder.cpp, kernels/cuda_exec_ref.cuh) */
    {
        const char *models[2] = { nullptr, "version=vmaf_v0.6.1|version=vmaf_v0.6.1neg:name=vmaf_neg" };
        const std::pair<int, int> lsizes[3] = { { 1920, 1080 }, { 97, 71 },
                                                { 64 + (int)(rnd() % 900), 64 + (int)(rnd() % 500) } };
        for (int li : { 1, 4, 0, 7 })
            for (const auto &sz : lsizes)
                for (int ends = 0; ends < 3; ends++) {
                    const int m = (li + ends) % 2;
                    if (sz.first >= 1920 && ends && li != 1)
                        continue;
                    fails += check_ladder(layouts[li], sz.first, sz.second, models[m], ends);
                    runs++;
                }
        /* the five-frame window's motion (against frame n-2) shared too, beside the model's */
        const char *mffw = "name=motion:motion_five_frame_window=true:motion_moving_average=true:"
                           "motion_max_val=18";
        for (int li : { 1, 4 })
            for (int ends = 0; ends < 3; ends++) {
                fails += check_ladder(layouts[li], lsizes[1].first, lsizes[1].second, models[0], ends, mffw);
                runs++;
            }
        /* no ref_only module (no motion): the GPU's VIF and ADM reference part is still made once */
        for (int li : { 1, 4 })
            for (int ends = 0; ends < 2; ends++) {
                fails += check_ladder(layouts[li], lsizes[1].first, lsizes[1].second, "none", ends,
                                      "name=vif|name=adm|name=adm:adm_enhn_gain_limit=1.2");
                runs++;
            }
        printf("  ladders: done (%d failures so far)\n", fails);
    }
    printf("vmaf: %d passed, %d failed (seed %llu)\n", runs - fails, fails, (unsigned long long)seed);
    return fails ? 1 : 0;
}
