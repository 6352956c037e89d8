/*
 * psnr_hvs - the CUDA psnr_hvs executor against the CPU executor, on
 * the same random frames, for many sizes, bit depths and layouts: the three
 * output words must be identical, and so must every term of the scratch
 * (which tells a term bug from a sum bug).  The output buffer is poisoned
 * and guarded on both sides, so a word not written, or one written outside
 * the three, is caught.  Prints its seed.
 *
 *   vqparity --test psnr_hvs [--seed N] [--sizes N] [--bench]
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <vector>

#include "psnr_hvs/psnr_hvs.h"
#include "psnr_hvs/psnr_hvs_exec.h"
#include "psnr_hvs/psnr_hvs_fold.h"
#include "vq_common.h"

#include "frame.cuh"
#include "parity_common.cuh"
#include "parity.h"

namespace psnr_hvs_parity {

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
    { "p016(12)", 12, 2, 4, 1, 1, 1 }, { "yuv422p10", 10, 2, 0, 0, 1, 0 },
    { "yuv444p12", 12, 2, 0, 0, 0, 0 },
};

/* A frame (frame.cuh) in host and device memory with the same (padded)
 * pitches, its plane sizes as libvmaf has them: chroma w >> sw, h >> sh;
 * content: 0 smooth with edges, 1 = base + noise of +-noise, 2 = copy of base */
static void make_frame(Frame &f, const Layout &L, int w, int h, const Frame *base, int noise)
{
    const int maxv = (1 << L.bpc) - 1;
    f.w = w;
    f.h = h;
    f.cw = w >> L.sw;
    f.ch = h >> L.sh;
    f.pitch[0] = ((ptrdiff_t)w * L.bytes + 255) / 256 * 256 + 256 * (rnd() & 1);
    f.pitch[1] = ((ptrdiff_t)f.cw * L.bytes * 2 + 255) / 256 * 256;
    f.host[0].assign(f.pitch[0] * h, 0xA5);
    f.host[1].assign(f.pitch[1] * f.ch * (L.semi ? 1 : 2), 0x5A);
    for (int p = 0; p < 2; p++) {
        const int rows = p ? f.ch * (L.semi ? 1 : 2) : h;
        const int cols = p ? (L.semi ? f.cw * 2 : f.cw) : w;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) {
                int v;
                if (base) {
                    const int b = L.bytes == 1 ? base->host[p][i * base->pitch[p] + j]
                                               : ((const uint16_t *)&base->host[p][i * base->pitch[p]])[j] >> L.shift;
                    v = noise ? b + (int)(rnd() % (2 * noise + 1)) - noise : b;
                } else {
                    v = ((i * 3 + j * 5) % (maxv + 1) + ((i / 16 + j / 16) % 2) * maxv / 3 + (int)(rnd() % 16)) % (maxv + 1);
                    if ((i / 8 + j / 8) % 7 == 0)
                        v = (int)(rnd() % (maxv + 1));   /* busy blocks: high masks */
                    if ((i / 8 + 2 * (j / 8)) % 11 == 0)
                        v = maxv / 2;                    /* flat blocks: mask 0 */
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

static const int64_t POISON = (int64_t)0x7ead7ead7ead7eadLL;
#define GUARD 16

/* Both executors over a 3-pair sequence (noisy, very noisy, identical). */
static int check(const Layout &L, int w, int h)
{
    const int pw[3] = { w, w >> L.sw, w >> L.sw }, ph[3] = { h, h >> L.sh, h >> L.sh };
    char msg[256];
    if (vq_psnr_hvs_check(L.bpc, 3, pw, ph, msg, sizeof(msg)) != 0)
        return 0;   /* refused: nothing to compare */
    VqPsnrHvsTables tab;
    vq_psnr_hvs_tables_init(&tab);
    VqPsnrHvsCuda *g = nullptr;
    CK((cudaError_t)vq_psnr_hvs_cuda_alloc(&g, pw, ph));
    int64_t *d_buf = nullptr;
    const size_t nbuf = GUARD + VQ_PSNR_HVS_WORDS + GUARD;
    CK(cudaMalloc(&d_buf, nbuf * sizeof(int64_t)));
    std::vector<int64_t> buf(nbuf);
    int bad = 0;
    const int noise[3] = { 6, 1 << (L.bpc - 3), 0 };
    for (int n = 0; n < 3 && !bad; n++) {
        Frame ref, dis;
        make_frame(ref, L, w, h, nullptr, 0);
        make_frame(dis, L, w, h, &ref, noise[n]);
        VqPlaneView rh[3], dh[3], rd[3], dd[3];
        views(ref, L, ref.w, ref.h, 0, rh);
        views(dis, L, dis.w, dis.h, 0, dh);
        views(ref, L, ref.w, ref.h, 1, rd);
        views(dis, L, dis.w, dis.h, 1, dd);
        int64_t cpu[VQ_PSNR_HVS_WORDS];
        vq_psnr_hvs_cpu_run(rh, dh, &tab, cpu);

        std::fill(buf.begin(), buf.end(), POISON);
        CK(cudaMemcpy(d_buf, buf.data(), nbuf * sizeof(int64_t), cudaMemcpyHostToDevice));
        CK((cudaError_t)vq_psnr_hvs_cuda_run(g, rd, dd, d_buf + GUARD, 0));
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(buf.data(), d_buf, nbuf * sizeof(int64_t), cudaMemcpyDeviceToHost));

        /* the terms first: a term mismatch explains a sum mismatch */
        for (int p = 0; p < 3 && !bad; p++) {
            size_t count = 0;
            const float *d_terms = vq_psnr_hvs_cuda_terms(g, p, &count);
            std::vector<float> want(count), got(count);
            vq_psnr_hvs_cpu_terms(rh[p], dh[p], p, &tab, want.data());
            CK(cudaMemcpy(got.data(), d_terms, count * sizeof(float), cudaMemcpyDeviceToHost));
            for (size_t k = 0; k < count; k++)
                if (memcmp(&got[k], &want[k], sizeof(float))) {
                    printf("FAIL %s %dx%d pair %d: plane %d block %zu term %zu: gpu %.9g cpu %.9g\n",
                           L.name, w, h, n, p, k / 64, k % 64, got[k], want[k]);
                    bad = 1;
                    break;
                }
        }
        for (size_t k = 0; k < nbuf && !bad; k++) {
            const bool inside = k >= GUARD && k < GUARD + VQ_PSNR_HVS_WORDS;
            const int64_t want = inside ? cpu[k - GUARD] : POISON;
            if (buf[k] != want) {
                if (inside)
                    printf("FAIL %s %dx%d pair %d: plane %d sum: gpu %08llx (%.9g) cpu %08llx (%.9g)\n",
                           L.name, w, h, n, (int)(k - GUARD), (unsigned long long)buf[k],
                           vq_f32_from_bits((uint32_t)buf[k]), (unsigned long long)want,
                           vq_f32_from_bits((uint32_t)want));
                else
                    printf("FAIL %s %dx%d pair %d: guard word %d written\n", L.name, w, h, n,
                           (int)k - GUARD);
                bad = 1;
            }
        }
        free_frame(ref);
        free_frame(dis);
    }
    cudaFree(d_buf);
    vq_psnr_hvs_cuda_free(g);
    return bad;
}

/* The sum kernel alone on synthetic terms made to hit its corners: ties
 * (few-bit terms), many binade changes, big jumps, long zero runs. */
static int check_sums(int reps)
{
    int bad = 0;
    for (int rep = 0; rep < reps && !bad; rep++) {
        std::vector<float> h[3];
        const float *d[3];
        size_t count[3];
        for (int p = 0; p < 3; p++) {
            const int kind = (rep * 3 + p) % 6;
            const size_t n = rep % 7 == 0 ? (size_t)(rnd() % 40) : (size_t)(rnd() % 400000);
            h[p].resize(n);
            for (size_t k = 0; k < n; k++) {
                float v;
                switch (kind) {
                case 0: v = (float)(rnd() % 1000) * 0.37f; break;
                case 1: v = (rnd() % 3) ? 0.f : ldexpf(1.0f, (int)(rnd() % 20) - 10); break;
                case 2: v = (float)(rnd() % 8); break;
                case 3: v = ldexpf((float)(rnd() % 4096), (int)(rnd() % 40) - 20); break;
                case 4: v = k < n / 3 ? 0.f : ((rnd() % 100 == 0) ? 1e9f : (float)(rnd() % 50) / 7.f); break;
                default: { const float e = (float)(rnd() % 100000) / 977.f; v = e * e; } break;
                }
                h[p][k] = v;
            }
            float *dp = nullptr;
            CK(cudaMalloc(&dp, (n ? n : 1) * sizeof(float)));
            if (n)
                CK(cudaMemcpy(dp, h[p].data(), n * sizeof(float), cudaMemcpyHostToDevice));
            d[p] = dp;
            count[p] = n;
        }
        int64_t *d_buf;
        const size_t nbuf = GUARD + VQ_PSNR_HVS_WORDS + GUARD;
        std::vector<int64_t> buf(nbuf, POISON);
        CK(cudaMalloc(&d_buf, nbuf * sizeof(int64_t)));
        CK(cudaMemcpy(d_buf, buf.data(), nbuf * sizeof(int64_t), cudaMemcpyHostToDevice));
        CK((cudaError_t)vq_psnr_hvs_cuda_sum(nullptr, d, count, d_buf + GUARD, 0));
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(buf.data(), d_buf, nbuf * sizeof(int64_t), cudaMemcpyDeviceToHost));
        for (size_t k = 0; k < nbuf; k++) {
            int64_t want = POISON;
            if (k >= GUARD && k < GUARD + VQ_PSNR_HVS_WORDS) {
                float s = 0;
                for (float x : h[k - GUARD])
                    s += x;
                want = (int64_t)vq_f32_bits(s);
            }
            if (buf[k] != want) {
                printf("FAIL sums rep %d word %d (n %zu): gpu %llx cpu %llx\n", rep, (int)k - GUARD,
                       k >= GUARD && k < GUARD + 3 ? count[k - GUARD] : (size_t)0,
                       (unsigned long long)buf[k], (unsigned long long)want);
                bad = 1;
                break;
            }
        }
        cudaFree(d_buf);
        for (int p = 0; p < 3; p++)
            cudaFree((void *)d[p]);
    }
    printf("  synthetic sums: %s\n", bad ? "FAILED" : "done");
    return bad;
}

/* GPU time per pair (CUDA events, after a warm-up), and the CPU's. */
static void bench(const Layout &L, int w, int h)
{
    const int pw[3] = { w, w >> L.sw, w >> L.sw }, ph[3] = { h, h >> L.sh, h >> L.sh };
    VqPsnrHvsTables tab;
    vq_psnr_hvs_tables_init(&tab);
    VqPsnrHvsCuda *g = nullptr;
    CK((cudaError_t)vq_psnr_hvs_cuda_alloc(&g, pw, ph));
    int64_t *d_out;
    CK(cudaMalloc(&d_out, VQ_PSNR_HVS_WORDS * sizeof(int64_t)));
    Frame ref, dis;
    make_frame(ref, L, w, h, nullptr, 0);
    make_frame(dis, L, w, h, &ref, 6);
    VqPlaneView rd[3], dd[3], rh[3], dh[3];
    views(ref, L, ref.w, ref.h, 1, rd);
    views(dis, L, dis.w, dis.h, 1, dd);
    views(ref, L, ref.w, ref.h, 0, rh);
    views(dis, L, dis.w, dis.h, 0, dh);
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const int reps = 20;
    float ms = 0;
    for (int pass = 0; pass < 2; pass++) {   /* pass 0: warm-up */
        CK(cudaEventRecord(e0, st));
        for (int r = 0; r < reps; r++)
            CK((cudaError_t)vq_psnr_hvs_cuda_run(g, rd, dd, d_out, st));
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
    }
    /* the ordered sums alone, on this pair's terms */
    const float *dt[3];
    size_t cnt[3];
    for (int p = 0; p < 3; p++)
        dt[p] = vq_psnr_hvs_cuda_terms(g, p, &cnt[p]);
    float sum_ms = 0;
    for (int pass = 0; pass < 2; pass++) {
        CK(cudaEventRecord(e0, st));
        for (int r = 0; r < reps; r++)
            CK((cudaError_t)vq_psnr_hvs_cuda_sum(g, dt, cnt, d_out, st));
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&sum_ms, e0, e1));
    }
    const clock_t c0 = clock();
    int64_t cpu[VQ_PSNR_HVS_WORDS];
    vq_psnr_hvs_cpu_run(rh, dh, &tab, cpu);
    const double cpu_ms = 1e3 * (double)(clock() - c0) / CLOCKS_PER_SEC;
    printf("bench psnr_hvs %s %dx%d: GPU %.1f us/pair (of which ordered sums %.1f us), CPU %.1f ms/pair\n",
           L.name, w, h, ms * 1e3 / reps, sum_ms * 1e3 / reps, cpu_ms);
    free_frame(ref);
    free_frame(dis);
    cudaFree(d_out);
    cudaStreamDestroy(st);
    vq_psnr_hvs_cuda_free(g);
}

}  // namespace psnr_hvs_parity

int parity_psnr_hvs(const ParityArgs &args)
{
    using namespace psnr_hvs_parity;
    const uint64_t seed = args.seed;
    const int nrandom = args.sizes >= 0 ? args.sizes : 6, do_bench = args.bench;
    rng_state = seed ? seed : 1;
    printf("psnr_hvs: seed %llu\n", (unsigned long long)seed);
    if (do_bench) {
        bench(layouts[1], 1920, 1080);
        bench(layouts[4], 1920, 1080);
        bench(layouts[1], 3840, 2160);
        return 0;
    }
    std::vector<std::pair<int, int>> sizes = { { 16, 16 }, { 17, 17 }, { 23, 19 }, { 36, 34 },
                                               { 64, 48 }, { 97, 71 }, { 577, 323 },
                                               { 1920, 1080 }, { 3840, 2160 } };
    for (int k = 0; k < nrandom; k++)
        sizes.push_back({ 16 + (int)(rnd() % 1400), 16 + (int)(rnd() % 800) });
    int fails = check_sums(40), runs = 1;
    for (auto &sz : sizes) {
        for (const Layout &L : layouts) {
            if (sz.first >= 3840 && L.bpc != 8 && L.bpc != 10)
                continue;   /* keep the run short: 4K at 8 and 10 bit */
            fails += check(L, sz.first, sz.second);
            runs++;
        }
        printf("  %dx%d: done (%d failures so far)\n", sz.first, sz.second, fails);
        fflush(stdout);
    }
    printf("psnr_hvs: %d passed, %d failed (seed %llu)\n", runs - fails, fails,
           (unsigned long long)seed);
    return fails ? 1 : 0;
}
