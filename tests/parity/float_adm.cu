/*
 * float_adm - float_adm's CUDA kernels against its CPU executor,
 * word for word (every row word of every scale), on random frames: sizes
 * from 33x33 to 1920x1080 (odd, tiny bands whose CM rect touches the edge),
 * 8/10/12/16 bits, LSB- and MSB-aligned 16-bit samples (P010/P016), padded
 * pitches, options (egl, bypass_cm, skip_scale0, skip_aim_scale, csf modes
 * 0/1/2/7, f1s/f2s, nvd/rdf) and both reciprocals (the AMD table, div; the
 * Intel one when it exists), content random, identical, inverted and flat.
 * The device buffer is poisoned before each run and followed by guard
 * words; each case also runs replayed from a captured CUDA graph.
 *
 *   vqparity --test float_adm [--seed N] [--sizes N (cases, 60)] [--bench (after the cases)]
 *
 * 0: all equal; 1: a difference (printed).
 */
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "float_adm/float_adm_exec.h"
#include "float_adm/float_adm_fold.h"
#include "parity_common.cuh"
#include "parity.h"
#include "float_adm/rcp_select.h"

namespace float_adm_parity {

const uint64_t kPoison = 0xababababababababull;
const int kGuard = 64;

struct Case {
    int w, h, bpc, msb, pad;
    int content;            /* 0 random, 1 identical, 2 inverted, 3 flat reference */
    VqFadmOptions o;
    const char *rcp;
};

std::string describe(const Case &c)
{
    char b[512];
    snprintf(b, sizeof(b), "%dx%d %d-bit%s pad %d content %d rcp %s egl %g bcm %d ssz %d sasc %d csf %d nvd %g rdf %d "
             "f1s0 %g f2s3 %g apn %g", c.w, c.h, c.bpc, c.msb ? " msb" : "", c.pad, c.content, c.rcp, c.o.enhn_gain_limit,
             c.o.bypass_cm, c.o.skip_scale0, c.o.skip_aim_scale, c.o.csf_mode, c.o.norm_view_dist,
             c.o.ref_display_height, c.o.f1s[0], c.o.f2s[3], c.o.p_norm);
    return b;
}

/* one case: 0 equal, 1 different (printed) */
int run_case(const Case &c, bool graph)
{
    char err[512] = "";
    const VqRcpTable *tab = vq_rcp_select(c.rcp, err, sizeof(err));
    if (!tab) {
        printf("skip %s: %s\n", describe(c).c_str(), err);
        return 0;
    }
    VqFadmParams p;
    if (vq_fadm_params_init(&p, c.w, c.h, c.bpc, &c.o, tab->mode, err, sizeof(err)) < 0) {
        printf("FAIL %s: params: %s\n", describe(c).c_str(), err);
        return 1;
    }
    const int bytes = c.bpc > 8 ? 2 : 1, shift = c.msb ? 16 - c.bpc : 0;
    const size_t pitch = (size_t)c.w * bytes + (size_t)c.pad;
    std::vector<uint8_t> ref(pitch * c.h), dis(pitch * c.h);
    const int maxv = (1 << c.bpc) - 1;
    const int base = (int)(rnd() % (unsigned)(maxv + 1));
    for (int i = 0; i < c.h; i++)
        for (int j = 0; j < c.w; j++) {
            int r = c.content == 3 ? base : (int)((i * 7 + j * 3 + (rnd() % 64)) * (maxv / 255.0 + 0.0)) % (maxv + 1);
            if (rnd() % 9 == 0)
                r = (int)(rnd() % (unsigned)(maxv + 1));
            int d = c.content == 1 ? r : c.content == 2 ? maxv - r : r + (int)(rnd() % 41) - 20;
            d = d < 0 ? 0 : d > maxv ? maxv : d;
            if (bytes == 1) {
                ref[i * pitch + j] = (uint8_t)r;
                dis[i * pitch + j] = (uint8_t)d;
            } else {
                const uint16_t rv = (uint16_t)(r << shift), dv = (uint16_t)(d << shift);
                memcpy(&ref[i * pitch + 2 * j], &rv, 2);
                memcpy(&dis[i * pitch + 2 * j], &dv, 2);
            }
        }
    VqPlaneView hv[2];
    for (int k = 0; k < 2; k++) {
        hv[k].data = k ? dis.data() : ref.data();
        hv[k].pitch = (ptrdiff_t)pitch;
        hv[k].w = c.w;
        hv[k].h = c.h;
        hv[k].bytes = bytes;
        hv[k].shift = shift;
        hv[k].step = 1;
    }
    size_t off[VQ_ADM_SCALES], total = 0;
    for (int s = 0; s < VQ_ADM_SCALES; s++) {
        off[s] = total;
        total += (size_t)p.s[s].h * VQ_FADM_NSUMS;
    }
    /* CPU */
    std::vector<int64_t> want(total, 0);
    VqFadmCpu *cpu = vq_fadm_cpu_alloc(&p);
    if (!cpu || vq_fadm_cpu_run(cpu, hv[0], hv[1], &p, tab, want.data(), off) < 0) {
        printf("FAIL %s: CPU run\n", describe(c).c_str());
        return 1;
    }
    vq_fadm_cpu_free(cpu);
    /* GPU */
    uint8_t *d_ref, *d_dis;
    int64_t *d_rows;
    CK(cudaMalloc(&d_ref, ref.size()));
    CK(cudaMalloc(&d_dis, dis.size()));
    CK(cudaMemcpy(d_ref, ref.data(), ref.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_dis, dis.data(), dis.size(), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&d_rows, (total + kGuard) * sizeof(int64_t)));
    VqPlaneView dv[2] = { hv[0], hv[1] };
    dv[0].data = d_ref;
    dv[1].data = d_dis;
    VqFadmCuda *gpu = nullptr;
    CK(vq_fadm_cuda_alloc(&gpu, &p, tab));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    int bad = 0;
    for (int pass = 0; pass < (graph ? 2 : 1) && !bad; pass++) {
        std::vector<int64_t> got(total + kGuard, (int64_t)kPoison);
        CK(cudaMemcpy(d_rows, got.data(), got.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
        if (pass == 0) {
            CK(vq_fadm_cuda_run(gpu, dv[0], dv[1], &p, d_rows, off, st));
        } else {
            cudaGraph_t g;
            cudaGraphExec_t ge;
            CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
            CK(vq_fadm_cuda_run(gpu, dv[0], dv[1], &p, d_rows, off, st));
            CK(cudaStreamEndCapture(st, &g));
            CK(cudaGraphInstantiate(&ge, g, 0));
            CK(cudaGraphLaunch(ge, st));
            CK(cudaGraphExecDestroy(ge));
            CK(cudaGraphDestroy(g));
        }
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(got.data(), d_rows, got.size() * sizeof(int64_t), cudaMemcpyDeviceToHost));
        for (size_t k = 0; k < total && bad < 5; k++)
            if (got[k] != want[k]) {
                int s = 0;
                while (s + 1 < VQ_ADM_SCALES && k >= off[s + 1])
                    s++;
                const size_t r = (k - off[s]) / VQ_FADM_NSUMS, q = (k - off[s]) % VQ_FADM_NSUMS;
                printf("FAIL %s%s: scale %d row %zu word %zu: cpu 0x%llx gpu 0x%llx\n", describe(c).c_str(),
                       pass ? " (graph)" : "", s, r, q, (unsigned long long)want[k], (unsigned long long)got[k]);
                bad++;
            }
        for (int k = 0; k < kGuard && !bad; k++)
            if (got[total + (size_t)k] != (int64_t)kPoison) {
                printf("FAIL %s: guard word %d written\n", describe(c).c_str(), k);
                bad++;
            }
    }
    vq_fadm_cuda_free(gpu);
    CK(cudaStreamDestroy(st));
    CK(cudaFree(d_ref));
    CK(cudaFree(d_dis));
    CK(cudaFree(d_rows));
    return bad ? 1 : 0;
}

Case random_case(int k)
{
    static const int fixed[][2] = { { 33, 33 }, { 36, 34 }, { 64, 48 }, { 97, 71 }, { 131, 64 }, { 200, 150 },
                                    { 577, 323 }, { 640, 360 }, { 1280, 720 }, { 1920, 1080 } };
    static const int bpcs[] = { 8, 10, 12, 16 };
    Case c;
    memset(&c, 0, sizeof(c));
    if (k < (int)(sizeof(fixed) / sizeof(fixed[0]))) {
        c.w = fixed[k][0];
        c.h = fixed[k][1];
    } else {
        c.w = 33 + (int)(rnd() % 700);
        c.h = 33 + (int)(rnd() % 400);
    }
    c.bpc = bpcs[rnd() % 4];
    c.msb = c.bpc > 8 && c.bpc < 16 && rnd() % 2;
    c.pad = rnd() % 3 == 0 ? (int)(rnd() % 64) * (c.bpc > 8 ? 2 : 1) : 0;
    c.content = k < 10 ? 0 : (int)(rnd() % 4);
    vq_fadm_options_default(&c.o);
    static const char *const rcps[] = { "amd", "amd", "div", "intel" };
    c.rcp = rcps[rnd() % 4];
    if (k >= 10) {
        const double egls[] = { 100.0, 1.0, 1.2 };
        c.o.enhn_gain_limit = egls[rnd() % 3];
        c.o.bypass_cm = rnd() % 5 == 0;
        c.o.skip_scale0 = rnd() % 6 == 0;
        c.o.skip_aim_scale = rnd() % 5 == 0 ? (int)(rnd() % 4) : -1;
        const int modes[] = { 0, 0, 1, 2, 7 };
        c.o.csf_mode = modes[rnd() % 5];
        if (rnd() % 4 == 0) {
            c.o.norm_view_dist = 0.75 + (rnd() % 100) * 0.2;
            c.o.ref_display_height = 1 + (int)(rnd() % 4320);
        }
        if (rnd() % 5 == 0) {
            c.o.f1s[0] = (rnd() % 20) * 0.5;
            c.o.f2s[3] = (rnd() % 20) * 0.5;
        }
        if (c.content == 3 && rnd() % 2)
            c.o.noise_weight = 0.5;
        if (rnd() % 3 == 0) {   /* glibc's powf per pixel (kernels/float_adm/glibc_powf.h) */
            const double apns[] = { 1.0, 2.5, 20.0, 1.0 + (double)(rnd() % 191) * 0.1 };
            c.o.p_norm = apns[rnd() % 4];
        }
    }
    return c;
}

}  // namespace float_adm_parity

int parity_float_adm(const ParityArgs &args)
{
    using namespace float_adm_parity;
    const int n = args.sizes >= 0 ? args.sizes : 60, bench = args.bench;
    const uint64_t seed = args.seed;
    rng_state = seed ? seed : 1;
    printf("float_adm: seed %llu, %d cases\n", (unsigned long long)seed, n);
    int fails = 0, ran = 0;
    for (int k = 0; k < n; k++) {
        const Case c = random_case(k);
        fails += run_case(c, k % 3 == 0);
        ran++;
    }
    printf("float_adm: %d of %d cases equal\n", ran - fails, ran);
    if (bench) {
        /* 1920x1080 8-bit, default options: GPU time per frame */
        Case c = random_case(9);
        c.bpc = 8;
        c.msb = c.pad = 0;
        c.rcp = "amd";
        char err[256];
        const VqRcpTable *tab = vq_rcp_select("amd", err, sizeof(err));
        VqFadmParams p;
        vq_fadm_params_init(&p, c.w, c.h, 8, &c.o, tab->mode, err, sizeof(err));
        size_t off[4], total = 0;
        for (int s = 0; s < 4; s++) {
            off[s] = total;
            total += (size_t)p.s[s].h * VQ_FADM_NSUMS;
        }
        uint8_t *d_ref, *d_dis;
        int64_t *d_rows;
        CK(cudaMalloc(&d_ref, (size_t)c.w * c.h));
        CK(cudaMalloc(&d_dis, (size_t)c.w * c.h));
        CK(cudaMemset(d_ref, 90, (size_t)c.w * c.h));
        CK(cudaMemset(d_dis, 100, (size_t)c.w * c.h));
        CK(cudaMalloc(&d_rows, total * sizeof(int64_t)));
        VqPlaneView r = { d_ref, c.w, c.w, c.h, 1, 0, 1 }, d = r;
        d.data = d_dis;
        VqFadmCuda *gpu;
        CK(vq_fadm_cuda_alloc(&gpu, &p, tab));
        cudaEvent_t a, b;
        CK(cudaEventCreate(&a));
        CK(cudaEventCreate(&b));
        CK(vq_fadm_cuda_run(gpu, r, d, &p, d_rows, off, 0));
        CK(cudaEventRecord(a, 0));
        for (int i = 0; i < 20; i++)
            CK(vq_fadm_cuda_run(gpu, r, d, &p, d_rows, off, 0));
        CK(cudaEventRecord(b, 0));
        CK(cudaEventSynchronize(b));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, a, b));
        printf("bench: 1920x1080 float_adm %.3f ms per frame (GPU)\n", ms / 20);
        vq_fadm_cuda_free(gpu);
    }
    return fails ? 1 : 0;
}
