/*
 * ssim - checkasm for float_ssim / float_ms_ssim: the CUDA executor
 * against the CPU executor on the same random frames, for many sizes, bit
 * depths, sample layouts, "scale" options and kinds of content (the sums
 * must be equal bit for bit: the GPU reproduces the reference's sequential
 * double sums).  Words outside the features asked for, and guard words
 * after the buffer, must keep their poison.  The words hold every sum the
 * outputs need, enable_lcs's means of l, c and s included (float_ssim's
 * four sums, float_ms_ssim's three per scale, whatever the options), and
 * those outputs, folded from each executor's words, are compared too.  Prints its seed and the first
 * differing word.
 *
 *   vqparity --test ssim [--seed N] [--sizes N] [--bench]
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

#include "ssim/ssim_exec.h"
#include "ssim/ssim_fold.h"

#include "parity_common.cuh"
#include "parity.h"

namespace ssim_parity {

/* how luma samples are stored */
struct Layout {
    const char *name;
    int bpc, bytes, shift;
};

static const Layout layouts[] = {
    { "8-bit", 8, 1, 0 },          { "10-bit lsb", 10, 2, 0 }, { "p010", 10, 2, 6 },
    { "12-bit lsb", 12, 2, 0 },    { "p016(12)", 12, 2, 4 },   { "16-bit", 16, 2, 0 },
};

/* what the distorted frame is made of */
enum Content { NOISY, IDENTICAL, INVERTED, UNRELATED, FLAT, NCONTENT };
static const char *content_name[NCONTENT] = { "noisy", "identical", "inverted", "unrelated", "flat" };

struct Plane {
    std::vector<uint8_t> host;
    uint8_t *dev = nullptr;
    ptrdiff_t pitch = 0;
};

static int sample_at(const Plane &p, const Layout &L, int i, int j)
{
    if (L.bytes == 1)
        return p.host[i * p.pitch + j];
    return ((const uint16_t *)&p.host[i * p.pitch])[j] >> L.shift;
}

static void make_plane(Plane &p, const Layout &L, int w, int h, const Plane *base, Content c)
{
    const int maxv = (1 << L.bpc) - 1;
    p.pitch = ((ptrdiff_t)w * L.bytes + 255) / 256 * 256 + 256 * (rnd() & 1);
    p.host.assign(p.pitch * h, 0xA5);
    const int phase = (int)(rnd() % 64);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int v;
            if (!base) {
                /* gradients, blocks and noise, with flat patches */
                v = ((i * 3 + j * 5 + phase) * (maxv + 1) / 512 + ((i / 16 + j / 16) % 2) * maxv / 3 +
                     (int)(rnd() % 16)) % (maxv + 1);
                if ((i / 24 + j / 40) % 7 == 0)
                    v = maxv / 3;
            } else {
                const int b = sample_at(*base, L, i, j);
                switch (c) {
                case NOISY: v = b + (int)(rnd() % 17) - 8; break;
                case IDENTICAL: v = b; break;
                case INVERTED: v = maxv - b; break;
                case UNRELATED: v = (int)(rnd() % (maxv + 1)); break;
                default: v = maxv / 2; break;
                }
            }
            v = v < 0 ? 0 : v > maxv ? maxv : v;
            if (L.bytes == 1)
                p.host[i * p.pitch + j] = (uint8_t)v;
            else
                ((uint16_t *)&p.host[i * p.pitch])[j] = (uint16_t)(v << L.shift);
        }
    CK(cudaMalloc(&p.dev, p.host.size()));
    CK(cudaMemcpy(p.dev, p.host.data(), p.host.size(), cudaMemcpyHostToDevice));
}

static VqPlaneView view(const Plane &p, const Layout &L, int w, int h, int dev)
{
    VqPlaneView v;
    v.data = dev ? p.dev : p.host.data();
    v.pitch = p.pitch;
    v.w = w;
    v.h = h;
    v.bytes = L.bytes;
    v.shift = L.shift;
    v.step = 1;
    return v;
}

static const int64_t POISON = (int64_t)0x7ead7ead7ead7eadLL;
#define GUARD 16

static const char *word_name(int k)
{
    static char buf[64];
    static const char *ss[4] = { "ssim l*c*s", "ssim l", "ssim c", "ssim s" };
    static const char *lcs = "lcs";
    if (k < VQ_MS_SSIM_SUM0)
        return ss[k];
    if (k < VQ_SSIM_NWORDS) {
        const int i = (k - VQ_MS_SSIM_SUM0) / 3, q = (k - VQ_MS_SSIM_SUM0) % 3;
        snprintf(buf, sizeof(buf), "ms scale %d %c", i, lcs[q]);
        return buf;
    }
    return "guard";
}

/* The name of output k of vq_ssim_outputs with enable_lcs (libvmaf's) */
static const char *lcs_output_name(int ms, int k)
{
    static char buf[64];
    static const char *ss[4] = { "float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s" };
    if (!ms)
        return ss[k];
    if (k == 0)
        return "float_ms_ssim";
    snprintf(buf, sizeof(buf), "float_ms_ssim_%c_scale%d", "lcs"[(k - 1) / VQ_MS_SSIM_SCALES],
             (k - 1) % VQ_MS_SSIM_SCALES);
    return buf;
}

/*
 * The outputs of float_ssim / float_ms_ssim with enable_lcs (the means of
 * l, c and s: float_ssim's, and float_ms_ssim's of every scale) folded from
 * the CPU's words and from the GPU's: equal, output by output, also with
 * enable_db (which changes the score alone).  1 on a difference.
 */
static int check_lcs(const VqSsimGeom &g, const int64_t *cpu_words, const int64_t *gpu_words,
                     const Layout &L, int scale_option, int frame)
{
    for (int db = 0; db < 2; db++) {
        const VqSsimOptions o = { 1, db, db };
        VqSsimScores sc, sg;
        char mc[256] = "", mg[256] = "";
        const int rc = vq_ssim_fold(&g, cpu_words, &o, &o, &sc, mc, sizeof mc);
        const int rg = vq_ssim_fold(&g, gpu_words, &o, &o, &sg, mg, sizeof mg);
        if (rc != rg) {
            printf("FAIL %s %dx%d frame %d: lcs fold: cpu %d (%s) gpu %d (%s)\n", L.name, g.w, g.h,
                   frame, rc, mc, rg, mg);
            return 1;
        }
        if (rc < 0)
            continue;   /* float_ms_ssim's infinite product: refused by both */
        for (int ms = 0; ms < 2; ms++) {
            if (!(g.features & (ms ? VQ_SSIM_F_MS_SSIM : VQ_SSIM_F_SSIM)))
                continue;
            double vc[1 + 3 * VQ_MS_SSIM_SCALES], vg[1 + 3 * VQ_MS_SSIM_SCALES];
            const int n = vq_ssim_outputs(&sc, ms, &o, vc);
            if (vq_ssim_outputs(&sg, ms, &o, vg) != n || n != (ms ? 1 + 3 * VQ_MS_SSIM_SCALES : 4)) {
                printf("FAIL %s %dx%d: %d lcs outputs\n", L.name, g.w, g.h, n);
                return 1;
            }
            for (int k = 0; k < n; k++)
                if (memcmp(&vc[k], &vg[k], sizeof(double))) {
                    printf("FAIL %s %dx%d scale %d frame %d enable_lcs%s: %s: gpu %.17g cpu %.17g\n",
                           L.name, g.w, g.h, scale_option, frame, db ? " enable_db clip_db" : "",
                           lcs_output_name(ms, k), vg[k], vc[k]);
                    return 1;
                }
        }
    }
    return 0;
}

/* Both executors over a 3-frame sequence; every frame's words compared. */
static int check(const Layout &L, int w, int h, int scale_option, int features)
{
    VqSsimGeom g;
    if (vq_ssim_geom_init(&g, w, h, L.bpc, features, scale_option) < 0)
        return 0;   /* a size the reference refuses: nothing to compare */
    VqSsimCpu *cpu = vq_ssim_cpu_alloc(&g);
    VqSsimCuda *gpu = nullptr;
    if (!cpu) {
        printf("FAIL %s %dx%d: CPU alloc\n", L.name, w, h);
        return 1;
    }
    CK((cudaError_t)vq_ssim_cuda_alloc(&gpu, &g));
    int64_t *d_words;
    CK(cudaMalloc(&d_words, (VQ_SSIM_NWORDS + GUARD) * sizeof(int64_t)));
    int bad = 0;
    for (int n = 0; n < 3 && !bad; n++) {
        const Content c = (Content)(n == 0 ? NOISY : rnd() % NCONTENT);
        Plane ref, dis;
        make_plane(ref, L, w, h, nullptr, NOISY);
        make_plane(dis, L, w, h, &ref, c);
        std::vector<int64_t> want(VQ_SSIM_NWORDS, POISON), got(VQ_SSIM_NWORDS + GUARD, POISON);
        if (vq_ssim_cpu_run(cpu, view(ref, L, w, h, 0), view(dis, L, w, h, 0), want.data()) < 0) {
            printf("FAIL %s %dx%d: CPU run\n", L.name, w, h);
            bad = 1;
        }
        CK(cudaMemcpy(d_words, got.data(), got.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
        CK((cudaError_t)vq_ssim_cuda_run(gpu, view(ref, L, w, h, 1), view(dis, L, w, h, 1), d_words, 0));
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got.data(), d_words, got.size() * sizeof(int64_t), cudaMemcpyDeviceToHost));
        for (int k = 0; k < VQ_SSIM_NWORDS + GUARD && !bad; k++) {
            const int64_t exp = k < VQ_SSIM_NWORDS ? want[k] : POISON;
            if (got[k] != exp) {
                double a, b;
                memcpy(&a, &got[k], 8);
                memcpy(&b, &exp, 8);
                printf("FAIL %s %dx%d scale %d features %d frame %d (%s): %s: gpu %.17g cpu %.17g\n",
                       L.name, w, h, scale_option, features, n, content_name[c], word_name(k), a, b);
                bad = 1;
            }
        }
        if (!bad) {   /* the fold takes what the words hold */
            VqSsimScores s;
            char msg[256];
            if (vq_ssim_fold(&g, got.data(), nullptr, nullptr, &s, msg, sizeof msg) < 0 &&
                c != INVERTED && c != UNRELATED) {
                printf("FAIL %s %dx%d frame %d: fold: %s\n", L.name, w, h, n, msg);
                bad = 1;
            }
        }
        if (!bad)   /* every output with enable_lcs (and the dB score) from both words */
            bad = check_lcs(g, want.data(), got.data(), L, scale_option, n);
        cudaFree(ref.dev);
        cudaFree(dis.dev);
    }
    cudaFree(d_words);
    vq_ssim_cuda_free(gpu);
    vq_ssim_cpu_free(cpu);
    return bad;
}

/* GPU time per frame pair (CUDA events after a warm-up) and launches per pair */
static void bench(const Layout &L, int w, int h, int features)
{
    VqSsimGeom g;
    if (vq_ssim_geom_init(&g, w, h, L.bpc, features, 0) < 0)
        return;
    VqSsimCuda *gpu;
    CK((cudaError_t)vq_ssim_cuda_alloc(&gpu, &g));
    Plane ref, dis;
    make_plane(ref, L, w, h, nullptr, NOISY);
    make_plane(dis, L, w, h, &ref, NOISY);
    int64_t *d_words;
    CK(cudaMalloc(&d_words, VQ_SSIM_NWORDS * sizeof(int64_t)));
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const VqPlaneView vr = view(ref, L, w, h, 1), vd = view(dis, L, w, h, 1);
    const int reps = 30;
    float ms = 0;
    for (int pass = 0; pass < 2; pass++) {
        CK(cudaEventRecord(e0, st));
        for (int r = 0; r < reps; r++)
            CK((cudaError_t)vq_ssim_cuda_run(gpu, vr, vd, d_words, st));
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
    }
    cudaGraph_t graph;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    CK((cudaError_t)vq_ssim_cuda_run(gpu, vr, vd, d_words, st));
    CK(cudaStreamEndCapture(st, &graph));
    size_t nodes = 0;
    CK(cudaGraphGetNodes(graph, NULL, &nodes));
    CK(cudaGraphDestroy(graph));
    printf("bench %s %dx%d %s: %.1f us/pair, %zu launches\n", L.name, w, h,
           features == VQ_SSIM_F_SSIM ? "float_ssim" : features == VQ_SSIM_F_MS_SSIM ? "float_ms_ssim" : "both",
           ms * 1e3 / reps, nodes);
    cudaFree(d_words);
    cudaFree(ref.dev);
    cudaFree(dis.dev);
    cudaStreamDestroy(st);
    vq_ssim_cuda_free(gpu);
}

}  // namespace ssim_parity

int parity_ssim(const ParityArgs &args)
{
    using namespace ssim_parity;
    const uint64_t seed = args.seed;
    const int nrandom = args.sizes >= 0 ? args.sizes : 8, do_bench = args.bench;
    rng_state = seed ? seed : 1;
    printf("ssim: seed %llu\n", (unsigned long long)seed);
    const int both = VQ_SSIM_F_SSIM | VQ_SSIM_F_MS_SSIM;
    if (do_bench) {
        for (int f : { (int)VQ_SSIM_F_SSIM, (int)VQ_SSIM_F_MS_SSIM, both }) {
            bench(layouts[0], 1920, 1080, f);
            bench(layouts[2], 1920, 1080, f);
            bench(layouts[0], 3840, 2160, f);
        }
        return 0;
    }
    struct Size { int w, h; };
    std::vector<Size> sizes = { { 11, 11 }, { 33, 33 }, { 36, 34 }, { 175, 200 }, { 176, 176 },
                                { 177, 181 }, { 383, 385 }, { 577, 323 }, { 720, 576 },
                                { 1280, 720 }, { 1920, 1080 }, { 3840, 2160 } };
    for (int k = 0; k < nrandom; k++)
        sizes.push_back({ 11 + (int)(rnd() % 1500), 11 + (int)(rnd() % 900) });
    int fails = 0, runs = 0;
    for (const Size &sz : sizes) {
        for (const Layout &L : layouts) {
            if (sz.w >= 3840 && L.bpc != 8 && L.bpc != 10)
                continue;   /* keep the run short */
            const int scale = (rnd() % 3) ? 0 : 1 + (int)(rnd() % 10);
            for (int f : { both, (int)VQ_SSIM_F_SSIM, (int)VQ_SSIM_F_MS_SSIM }) {
                if (f != both && (sz.w > 1000 || L.bpc == 12))
                    continue;
                fails += check(L, sz.w, sz.h, f == VQ_SSIM_F_MS_SSIM ? 0 : scale, f);
                runs++;
            }
        }
        printf("  %dx%d: done (%d failures so far)\n", sz.w, sz.h, fails);
        fflush(stdout);
    }
    printf("ssim: %d passed, %d failed (seed %llu)\n", runs - fails, fails,
           (unsigned long long)seed);
    return fails ? 1 : 0;
}
