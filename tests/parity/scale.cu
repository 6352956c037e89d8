/*
 * scale - checkasm for the upscaler: the CUDA executor against the
 * CPU one (which test_scale holds to FFmpeg), on the same random pictures,
 * for random sizes, every bit depth, planar and semi-planar layouts, both
 * modes, and the identity.  Every output plane and the guard bytes after it
 * are poisoned before each run (twice, with two poisons, so an unwritten
 * sample cannot pass by chance); outputs must equal the CPU's byte for byte
 * and the guards must stay untouched.  Prints its seed and the first
 * difference.
 *
 *   vqparity --test scale [--seed N] [--sizes N (per layout, 12)] [--bench]
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

#include "scale_exec.h"
#include "scale_filter.h"
#include "vq_common.h"

#include "frame.cuh"
#include "parity_common.cuh"
#include "parity.h"

namespace scale_parity {

using parity_frame::Frame;
using parity_frame::free_frame;
using parity_frame::views;

struct Layout {
    const char *name;
    int bpc, bytes, shift, semi, sw, sh, nplanes;
};

static const Layout layouts[] = {
    { "yuv420p", 8, 1, 0, 0, 1, 1, 3 },     { "nv12", 8, 1, 0, 1, 1, 1, 3 },
    { "yuv444p", 8, 1, 0, 0, 0, 0, 3 },     { "gray", 8, 1, 0, 0, 0, 0, 1 },
    { "yuv410p", 8, 1, 0, 0, 2, 2, 3 },     { "yuv440p", 8, 1, 0, 0, 0, 1, 3 },
    { "yuv420p9", 9, 2, 0, 0, 1, 1, 3 },    { "yuv420p10", 10, 2, 0, 0, 1, 1, 3 },
    { "p010", 10, 2, 6, 1, 1, 1, 3 },       { "yuv422p10", 10, 2, 0, 0, 1, 0, 3 },
    { "yuv420p12", 12, 2, 0, 0, 1, 1, 3 },  { "p016(12)", 12, 2, 4, 1, 1, 1, 3 },
    { "yuv420p14", 14, 2, 0, 0, 1, 1, 3 },  { "yuv420p16", 16, 2, 0, 0, 1, 1, 3 },
    { "yuv444p16", 16, 2, 0, 0, 0, 0, 3 },
};

/* A source picture (frame.cuh) in host and device memory with the same (padded) pitches. */
static void make_frame(Frame &f, const Layout &L, int w, int h)
{
    const int maxv = (1 << L.bpc) - 1;
    f.cw = -((-w) >> L.sw);
    f.ch = -((-h) >> L.sh);
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
                switch ((i / 9 + j / 13) % 3) {
                case 0: v = (int)(rnd() % (maxv + 1)); break;           /* noise */
                case 1: v = (rnd() & 1) ? maxv : 0; break;              /* overshoot, clips */
                default: v = ((i * 3 + j * 5) * 7) % (maxv + 1); break; /* ramps */
                }
                if (L.bytes == 1)
                    f.host[p][i * f.pitch[p] + j] = (uint8_t)v;
                else
                    ((uint16_t *)&f.host[p][i * f.pitch[p]])[j] = (uint16_t)(v << L.shift);
            }
        CK(cudaMalloc(&f.dev[p], f.host[p].size()));
        CK(cudaMemcpy(f.dev[p], f.host[p].data(), f.host[p].size(), cudaMemcpyHostToDevice));
    }
}

static const size_t kGuard = 256;   /* cuda_scale.cu leaves this much after each plane */

/* one case; returns the number of failures */
static int run_case(const Layout &L, int sw, int sh, int dw, int dh, int mode)
{
    const VqScaleFormat s{ sw, sh, L.bpc, L.sw, L.sh, L.nplanes };
    const VqScaleFormat d{ dw, dh, L.bpc, L.sw, L.sh, L.nplanes };
    VqScalePlan *plan;
    char msg[512];
    if (vq_scale_plan_create(&plan, &s, &d, mode, msg, sizeof(msg)) != 0) {
        printf("FAIL %s %dx%d -> %dx%d mode %d: plan refused: %s\n", L.name, sw, sh, dw, dh, mode, msg);
        return 1;
    }
    Frame f;
    make_frame(f, L, sw, sh);
    VqPlaneView hv[3], dv[3], ho[3], dout[3];
    views(f, L, sw, sh, 0, hv);
    views(f, L, sw, sh, 1, dv);

    VqScaleCpu *cpu;
    if (vq_scale_cpu_alloc(&cpu, plan) != 0 || vq_scale_cpu_run(cpu, hv) != 0) {
        printf("FAIL %s: CPU executor\n", L.name);
        exit(1);
    }
    vq_scale_cpu_output(cpu, ho);
    VqScaleCuda *gpu;
    CK((cudaError_t)vq_scale_cuda_alloc(&gpu, plan));
    vq_scale_cuda_output(gpu, dout);

    int fails = 0;
    const uint8_t poisons[2] = { 0xA5, 0x5A };
    for (int k = 0; k < 2 && !fails; k++) {
        for (int p = 0; p < L.nplanes; p++)
            CK(cudaMemset((void *)dout[p].data, poisons[k], dout[p].pitch * dout[p].h + kGuard));
        CK((cudaError_t)vq_scale_cuda_run(gpu, dv, nullptr));
        CK(cudaDeviceSynchronize());
        for (int p = 0; p < L.nplanes && !fails; p++) {
            const size_t n = (size_t)dout[p].pitch * dout[p].h;
            std::vector<uint8_t> got(n + kGuard);
            CK(cudaMemcpy(got.data(), dout[p].data, n + kGuard, cudaMemcpyDeviceToHost));
            if (memcmp(got.data(), ho[p].data, n)) {
                size_t i = 0;
                while (got[i] == ho[p].data[i])
                    i++;
                const size_t smp = i / (size_t)ho[p].bytes;
                printf("FAIL %s %dx%d -> %dx%d mode %d plane %d: first difference at row %zu col %zu"
                       " (poison %#x)\n", L.name, sw, sh, dw, dh, mode, p, smp / ho[p].w,
                       smp % ho[p].w, poisons[k]);
                fails++;
            }
            for (size_t i = n; i < n + kGuard && !fails; i++)
                if (got[i] != poisons[k]) {
                    printf("FAIL %s %dx%d -> %dx%d mode %d plane %d: write %zu bytes past the plane\n",
                           L.name, sw, sh, dw, dh, mode, p, i - n);
                    fails++;
                }
        }
    }
    vq_scale_cuda_free(gpu);
    vq_scale_cpu_free(cpu);
    vq_scale_plan_free(plan);
    free_frame(f);
    return fails;
}

static void bench(void)
{
    const int rung[3][2] = { { 1280, 720 }, { 960, 540 }, { 640, 360 } };
    for (int m = 0; m < 2; m++)
        for (auto &r : rung) {
            const Layout &L = layouts[0];
            const VqScaleFormat s{ r[0], r[1], 8, 1, 1, 3 }, d{ 1920, 1080, 8, 1, 1, 3 };
            VqScalePlan *plan;
            char msg[256];
            if (vq_scale_plan_create(&plan, &s, &d, m, msg, sizeof(msg)) != 0) {
                printf("bench: %s\n", msg);
                exit(1);
            }
            Frame f;
            make_frame(f, L, r[0], r[1]);
            VqPlaneView dv[3];
            views(f, L, r[0], r[1], 1, dv);
            VqScaleCuda *gpu;
            CK((cudaError_t)vq_scale_cuda_alloc(&gpu, plan));
            cudaStream_t st;
            CK(cudaStreamCreate(&st));
            for (int i = 0; i < 10; i++)
                CK((cudaError_t)vq_scale_cuda_run(gpu, dv, st));
            cudaEvent_t e0, e1;
            CK(cudaEventCreate(&e0));
            CK(cudaEventCreate(&e1));
            const int n = 200;
            CK(cudaEventRecord(e0, st));
            for (int i = 0; i < n; i++)
                CK((cudaError_t)vq_scale_cuda_run(gpu, dv, st));
            CK(cudaEventRecord(e1, st));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            printf("bench %dx%d -> 1920x1080 yuv420p %s: %.3f ms per frame\n", r[0], r[1],
                   m ? "bicubic_x86" : "bicubic", ms / n);
            cudaEventDestroy(e0);
            cudaEventDestroy(e1);
            cudaStreamDestroy(st);
            vq_scale_cuda_free(gpu);
            vq_scale_plan_free(plan);
            free_frame(f);
        }
}

}  // namespace scale_parity

int parity_scale(const ParityArgs &args)
{
    using namespace scale_parity;
    const uint64_t seed = args.seed;
    const int nsizes = args.sizes >= 0 ? args.sizes : 12, do_bench = args.bench;
    rng_state = seed ? seed : 1;
    printf("scale: seed %llu\n", (unsigned long long)seed);
    if (do_bench) {
        bench();
        return 0;
    }
    int fails = 0, cases = 0;
    const int nl = (int)(sizeof(layouts) / sizeof(layouts[0]));
    for (int li = 0; li < nl; li++) {
        const Layout &L = layouts[li];
        for (int k = 0; k < nsizes; k++) {
            int dw = 8 + (int)(rnd() % 700), dh = 8 + (int)(rnd() % 500);
            int sw = 8 + (int)(rnd() % (dw - 7)), sh = 8 + (int)(rnd() % (dh - 7));
            if (k == 0) {   /* the 720p rung */
                sw = 1280, sh = 720, dw = 1920, dh = 1080;
            } else if (k == 1) {    /* the identity */
                sw = dw, sh = dh;
            } else if (k == 2) {    /* one direction unscaled */
                sw = dw;
            }
            for (int mode = 0; mode < 2; mode++) {
                fails += run_case(L, sw, sh, dw, dh, mode);
                cases++;
            }
        }
    }
    printf("%s: %d/%d cases equal (seed %llu)\n", fails ? "FAIL" : "OK", cases - fails, cases,
           (unsigned long long)seed);
    return fails ? 1 : 0;
}
