/*
 * float_small - float_psnr / float_moment ("the float sums") and
 * float_ansnr on the GPU (kernels/cuda_float_small.cu) == on the CPU
 * (kernels/cpu_float_small.cpp), word for word, on random frames: sizes from
 * 33x33, 8-16 bits, planar and semiplanar views (nv12/p010/p016-style
 * shifts) with noise in the other samples and padded pitches, the device
 * sections poisoned first (every word must be written); and 16-bit frames
 * whose second-moment totals pass the exactness bound (the raster-order
 * finish on both sides).  Then the folds of either side's words.
 * speed_temporal's steps 1-3 (kernels/cuda_speed.cu's convert_diff, prescale,
 * anti-alias) == the CPU's, on random frame pairs, options and layouts;
 * before a kept frame the GPU's image is 0 and its flag word 0.
 * 0: equal; 1: a difference.
 *   vqparity --test float_small [--seed N (default 20261204)] [--sizes N (random frames, 40)]
 *   vqparity --test float_small --bench    GPU time per 1080p 8-bit frame pair, per feature
 */
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "float_small.h"
#include "float_small_exec.h"
#include "float_small_fold.h"
#include "parity_common.cuh"
#include "parity.h"
#include "speed_chroma.hpp"
#include "speed_exec.h"

namespace float_small_parity {

/* kind: 0 random samples; 1 bright/dark column stripes (16 bits: the
 * second moments pass 2^37 on large frames, so the raster finish runs);
 * 2 a smooth gradient with small noise */
struct Plane {
    std::vector<uint8_t> host;
    VqPlaneView v;
};

Plane make_plane(int w, int h, int bpc, int layout, int kind, const Plane *base)
{
    Plane p;
    const int bytes = bpc > 8 ? 2 : 1;
    const int step = layout ? 2 : 1;
    const int shift = layout == 2 && bpc < 16 ? 16 - bpc : 0;
    const ptrdiff_t pitch = ((ptrdiff_t)w * bytes * step + 63) / 64 * 64 + 64 * (rnd() & 1);
    p.host.resize((size_t)pitch * h);
    for (auto &b : p.host)
        b = (uint8_t)rnd();   /* the other plane's samples and the padding: noise */
    const uint32_t maxv = (1u << bpc) - 1;
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int64_t v;
            if (base) {
                const int64_t d = (int64_t)(rnd() % 65) - 32;
                v = (int64_t)vq_sample(base->v, i, j) + d * (bpc > 8 ? (1 << (bpc - 8)) : 1);
            } else if (kind == 0) {
                v = rnd() & maxv;
            } else if (kind == 1) {
                v = (j & 1) ? (rnd() & (maxv >> 4)) : (int64_t)maxv - (rnd() & (maxv >> 3));
            } else {
                v = ((int64_t)(i + j) * (int64_t)maxv) / (w + h) + (rnd() & 7);
            }
            v = v < 0 ? 0 : v > (int64_t)maxv ? (int64_t)maxv : v;
            uint8_t *q = p.host.data() + (size_t)i * pitch + (size_t)j * step * bytes;
            if (bytes == 1) {
                *q = (uint8_t)v;
            } else {
                const uint16_t x = (uint16_t)((uint32_t)v << shift);
                memcpy(q, &x, 2);
            }
        }
    p.v = VqPlaneView{ p.host.data(), pitch, w, h, bytes, shift, step };
    return p;
}

int run_case(int w, int h, int bpc, int layout, int kind, VqFloatSmallCuda **cache, int *cw, int *ch)
{
    Plane ref = make_plane(w, h, bpc, layout, kind, nullptr);
    Plane dis = make_plane(w, h, bpc, layout, kind, &ref);
    /* the CPU executor's words (as cpu_exec.cpp runs them, in two bands) */
    std::vector<int64_t> fs_cpu(VQ_FS_WORDS(h), 0), an_cpu(VQ_ANSNR_WORDS(h), 0);
    vq_fs_cpu_rows(ref.v, dis.v, bpc, fs_cpu.data(), 0, h / 2);
    vq_fs_cpu_rows(ref.v, dis.v, bpc, fs_cpu.data(), h / 2, h);
    vq_fs_cpu_finish(ref.v, dis.v, bpc, fs_cpu.data());
    std::vector<float> fr((size_t)w * h), fd((size_t)w * h);
    vq_ansnr_cpu_convert_rows(ref.v, dis.v, bpc, fr.data(), fd.data(), 0, h);
    vq_ansnr_cpu_rows(fr.data(), fd.data(), w, h, an_cpu.data(), 0, h);
    int64_t tot = 0;
    for (int i = 0; i < h; i++)
        tot += fs_cpu[VQ_FS_NSUMS * (1 + (size_t)i) + VQ_FS_REF2];
    const bool raster = !vq_fs_total_exact(tot, bpc);

    /* the GPU's */
    if (!*cache || *cw != w || *ch != h) {
        vq_fs_cuda_free(*cache);
        *cache = nullptr;
        CK(vq_fs_cuda_alloc(cache, w, h, 1));
        *cw = w;
        *ch = h;
    }
    uint8_t *dref, *ddis;
    int64_t *dfs, *dan;
    CK(cudaMalloc(&dref, ref.host.size()));
    CK(cudaMalloc(&ddis, dis.host.size()));
    CK(cudaMalloc(&dfs, fs_cpu.size() * sizeof(int64_t)));
    CK(cudaMalloc(&dan, an_cpu.size() * sizeof(int64_t)));
    CK(cudaMemcpy(dref, ref.host.data(), ref.host.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ddis, dis.host.data(), dis.host.size(), cudaMemcpyHostToDevice));
    CK(cudaMemset(dfs, 0x5a, fs_cpu.size() * sizeof(int64_t)));   /* poison */
    CK(cudaMemset(dan, 0xa5, an_cpu.size() * sizeof(int64_t)));
    CK(cudaDeviceSynchronize());
    VqPlaneView rv = ref.v, dv = dis.v;
    rv.data = dref;
    dv.data = ddis;
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CK(vq_fs_cuda_run(*cache, rv, dv, bpc, dfs, st));
    CK(vq_ansnr_cuda_run(*cache, rv, dv, bpc, dan, st));
    CK(cudaStreamSynchronize(st));
    CK(cudaStreamDestroy(st));
    std::vector<int64_t> fs_gpu(fs_cpu.size()), an_gpu(an_cpu.size());
    CK(cudaMemcpy(fs_gpu.data(), dfs, fs_gpu.size() * sizeof(int64_t), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(an_gpu.data(), dan, an_gpu.size() * sizeof(int64_t), cudaMemcpyDeviceToHost));
    cudaFree(dref);
    cudaFree(ddis);
    cudaFree(dfs);
    cudaFree(dan);
    size_t bad_fs = 0, bad_an = 0;
    for (size_t k = 0; k < fs_cpu.size(); k++)
        bad_fs += fs_cpu[k] != fs_gpu[k];
    for (size_t k = 0; k < an_cpu.size(); k++)
        bad_an += an_cpu[k] != an_gpu[k];
    /* the folds of either side */
    const double pc = vq_float_psnr_fold(fs_cpu.data(), w, h, bpc), pg = vq_float_psnr_fold(fs_gpu.data(), w, h, bpc);
    double mc[4], mg[4], ac[2], ag[2];
    vq_float_moment_fold(fs_cpu.data(), w, h, mc);
    vq_float_moment_fold(fs_gpu.data(), w, h, mg);
    vq_float_ansnr_fold(an_cpu.data(), w, h, bpc, ac);
    vq_float_ansnr_fold(an_gpu.data(), w, h, bpc, ag);
    const bool folds = pc == pg && !memcmp(mc, mg, sizeof(mc)) && !memcmp(ac, ag, sizeof(ac));
    printf("%4dx%-4d %2d-bit %s %s%s: float sums %zu/%zu words differ, ansnr %zu/%zu%s\n", w, h, bpc,
           layout == 0 ? "planar" : layout == 1 ? "semi  " : "semi16", kind == 0 ? "random " : kind == 1 ? "stripes" : "smooth ",
           raster ? " (raster finish)" : "", bad_fs, fs_cpu.size(), bad_an, an_cpu.size(),
           folds ? "" : ", folds differ");
    return bad_fs || bad_an || !folds;
}

/* speed_temporal: one pair of frames (prev, cur) through steps 1-3 */
int run_temporal(int w, int h, int bpc, int layout, double ps, const char *method, double ks, bool ref_diff)
{
    vq::speed::Setup st;
    st.opt.prescale = ps;
    st.opt.prescale_method = method;
    st.opt.kernelscale = ks;
    st.bpc = bpc;
    if (!vq::speed::temporal_check(st.opt, w, h, bpc).empty()) {
        printf("speed_temporal %dx%d ps %g %s ks %g: refused\n", w, h, ps, method, ks);
        return 0;
    }
    st.dm = vq::speed::dims(st.opt, w, h, 0, 0);
    vq::speed::fill_geom(st);
    const VqSpeedGeom &g = st.geom;
    Plane prev = make_plane(w, h, bpc, layout, 2, nullptr);
    Plane cur = make_plane(w, h, bpc, layout, 0, ref_diff ? nullptr : &prev);
    const size_t n = (size_t)g.ow * g.oh;
    std::vector<float> cpu(n);
    vq_speed_temporal_cpu_dec16(&g, prev.v, cur.v, bpc, cpu.data());
    VqSpeedCuda *c = vq_speed_cuda_alloc(&g);
    if (!c) {
        printf("speed_temporal alloc failed\n");
        return 1;
    }
    uint8_t *dp, *dc;
    float *dout;
    int *have;
    int64_t *flag;
    CK(cudaMalloc(&dp, prev.host.size()));
    CK(cudaMalloc(&dc, cur.host.size()));
    CK(cudaMalloc(&dout, n * sizeof(float)));
    CK(cudaMalloc(&have, sizeof(int)));
    CK(cudaMalloc(&flag, sizeof(int64_t)));
    CK(cudaMemcpy(dp, prev.host.data(), prev.host.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, cur.host.data(), cur.host.size(), cudaMemcpyHostToDevice));
    VqPlaneView pv = prev.v, cv = cur.v;
    pv.data = dp;
    cv.data = dc;
    size_t bad = 0, nonzero = 0;
    int64_t f[2];
    for (int hp = 0; hp < 2; hp++) {
        CK(cudaMemset(have, 0, sizeof(int)));
        if (hp)
            CK(cudaMemcpy(have, &hp, sizeof(int), cudaMemcpyHostToDevice));
        CK(cudaMemset(dout, 0x5a, n * sizeof(float)));   /* poison */
        CK(cudaMemset(flag, 0x5a, sizeof(int64_t)));
        CK(cudaDeviceSynchronize());
        cudaStream_t s;
        CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        CK(vq_speed_temporal_cuda_flag(have, flag, s));
        CK(vq_speed_temporal_cuda_run(c, pv, cv, bpc, have, dout, s));
        CK(cudaStreamSynchronize(s));
        CK(cudaStreamDestroy(s));
        std::vector<float> gpu(n);
        CK(cudaMemcpy(gpu.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&f[hp], flag, sizeof(int64_t), cudaMemcpyDeviceToHost));
        for (size_t k = 0; k < n; k++) {
            if (hp)
                bad += memcmp(&cpu[k], &gpu[k], sizeof(float)) != 0;
            else
                nonzero += gpu[k] != 0.0f || std::signbit(gpu[k]);
        }
    }
    cudaFree(dp);
    cudaFree(dc);
    cudaFree(dout);
    cudaFree(have);
    cudaFree(flag);
    vq_speed_cuda_free(c);
    const bool ok = bad == 0 && nonzero == 0 && f[0] == 0 && f[1] == 1;
    printf("speed_temporal %4dx%-4d %2d-bit %s ps %-5g %-8s ks %-6g: %zu/%zu samples differ%s\n", w, h, bpc,
           layout == 0 ? "planar" : layout == 1 ? "semi  " : "semi16", ps, method, ks, bad, n,
           nonzero || f[0] != 0 || f[1] != 1 ? ", the first frame's image or flag is wrong" : "");
    return !ok;
}

/* GPU time per 1920x1080 8-bit frame pair (CUDA events, after a warm-up) */
int bench()
{
    const int w = 1920, h = 1080, n = 50;
    Plane ref = make_plane(w, h, 8, 0, 2, nullptr);
    Plane dis = make_plane(w, h, 8, 0, 2, &ref);
    uint8_t *dr, *dd;
    int64_t *sec;
    int *have;
    CK(cudaMalloc(&dr, ref.host.size()));
    CK(cudaMalloc(&dd, dis.host.size()));
    CK(cudaMemcpy(dr, ref.host.data(), ref.host.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dd, dis.host.data(), dis.host.size(), cudaMemcpyHostToDevice));
    VqPlaneView rv = ref.v, dv = dis.v;
    rv.data = dr;
    dv.data = dd;
    VqFloatSmallCuda *c = nullptr;
    CK(vq_fs_cuda_alloc(&c, w, h, 1));
    vq::speed::Setup st;
    st.bpc = 8;
    st.dm = vq::speed::dims(st.opt, w, h, 0, 0);
    vq::speed::fill_geom(st);
    VqSpeedCuda *sc = vq_speed_cuda_alloc(&st.geom);
    uint16_t *prev[2];
    CK(cudaMalloc(&sec, (VQ_FS_WORDS(h) + VQ_ANSNR_WORDS(h) + vq_speed_temporal_words(&st.geom)) * sizeof(int64_t)));
    CK(cudaMalloc(&have, sizeof(int)));
    CK(cudaMemset(have, 0, sizeof(int)));
    for (int k = 0; k < 2; k++)
        CK(cudaMalloc(&prev[k], (size_t)w * h * 2));
    CK(cudaDeviceSynchronize());
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    int64_t *an = sec + VQ_FS_WORDS(h), *tp = an + VQ_ANSNR_WORDS(h);
    const size_t ni = (size_t)st.geom.ow * st.geom.oh;
    for (int f = 0; f < 3; f++) {
        float ms[3];
        for (int k = 0; k < 3; k++) {
            CK(cudaEventRecord(a, s));
            for (int r = 0; r < n; r++) {
                if (k == 0)
                    CK(vq_fs_cuda_run(c, rv, dv, 8, sec, s));
                else if (k == 1)
                    CK(vq_ansnr_cuda_run(c, rv, dv, 8, an, s));
                else {
                    const VqPlaneView pr = vq_packed_u16_view(prev[0], w, h), pd = vq_packed_u16_view(prev[1], w, h);
                    CK(vq_speed_temporal_cuda_flag(have, tp, s));
                    CK(vq_speed_temporal_cuda_run(sc, pr, rv, 8, have, (float *)(tp + 1), s));
                    CK(vq_speed_temporal_cuda_run(sc, pd, dv, 8, have, (float *)(tp + 1) + ni, s));
                    CK(vq_speed_temporal_cuda_keep(rv, dv, prev[0], prev[1], have, s));
                }
            }
            CK(cudaEventRecord(b, s));
            CK(cudaEventSynchronize(b));
            CK(cudaEventElapsedTime(&ms[k], a, b));
        }
        if (f == 2)   /* the first rounds warm up */
            printf("bench 1920x1080 8-bit, GPU ms per frame pair: float_psnr+float_moment %.3f, float_ansnr %.3f, "
                   "speed_temporal %.3f\n", ms[0] / n, ms[1] / n, ms[2] / n);
    }
    CK(cudaStreamDestroy(s));
    vq_speed_cuda_free(sc);
    vq_fs_cuda_free(c);
    cudaFree(dr);
    cudaFree(dd);
    cudaFree(sec);
    cudaFree(have);
    cudaFree(prev[0]);
    cudaFree(prev[1]);
    return 0;
}

}  // namespace float_small_parity

int parity_float_small(const ParityArgs &args)
{
    using namespace float_small_parity;
    if (args.bench)
        return bench();
    /* its own fixed seed unless --seed is given; --sizes: the random frames (40) */
    const uint64_t seed = args.seed_given ? args.seed : 20261204;
    const int nrandom = args.sizes >= 0 ? args.sizes : 40;
    rng_state = seed ? seed : 1;
    printf("float_small: seed %llu\n", (unsigned long long)seed);
    VqFloatSmallCuda *c = nullptr;
    int cw = 0, ch = 0, fails = 0;
    /* minimum sizes, every depth, each layout */
    for (int bpc : { 8, 10, 12, 16 })
        for (int layout = 0; layout < 3; layout++)
            if (layout != 2 || bpc > 8)
                fails += run_case(33, 33, bpc, layout, (int)(rnd() % 3), &c, &cw, &ch);
    /* 1080p at every depth */
    for (int bpc : { 8, 10, 12, 16 })
        fails += run_case(1920, 1080, bpc, 0, 2, &c, &cw, &ch);
    /* 16 bits, large bright/dark stripes: the raster-order finish */
    fails += run_case(3840, 2160, 16, 0, 1, &c, &cw, &ch);
    fails += run_case(3200, 1800, 16, 2, 1, &c, &cw, &ch);
    /* random sizes, depths, layouts, contents */
    const int bpcs[] = { 8, 10, 12, 16 };
    for (int k = 0; k < nrandom; k++) {
        const int w = 33 + (int)(rnd() % 1000), h = 33 + (int)(rnd() % 700);
        const int bpc = bpcs[rnd() % 4];
        const int layout = bpc == 8 ? (int)(rnd() % 2) : (int)(rnd() % 3);
        fails += run_case(w, h, bpc, layout, (int)(rnd() % 3), &c, &cw, &ch);
    }
    vq_fs_cuda_free(c);
    /* speed_temporal */
    const char *methods[] = { "nearest", "bilinear", "bicubic", "lanczos4" };
    const double kss[] = { 1.0, 0.5, 1.5, 2.0, 2.0 / 3.0, 360.0 / 97.0 };
    fails += run_temporal(1920, 1080, 8, 0, 1.0, "nearest", 1.0, false);
    fails += run_temporal(1920, 1080, 10, 2, 1.0, "nearest", 1.0, true);
    for (int k = 0; k < 24; k++) {
        const int w = 80 + (int)(rnd() % 1200), h = 80 + (int)(rnd() % 700);
        const int bpc = bpcs[rnd() % 4];
        const int layout = bpc == 8 ? (int)(rnd() % 2) : (int)(rnd() % 3);
        const double ps = (rnd() % 2) ? 1.0 : 0.3 + (rnd() % 70) / 100.0;   /* 1, or 0.3 .. 0.99 */
        fails += run_temporal(w, h, bpc, layout, ps, methods[rnd() % 4], kss[rnd() % 6], rnd() % 2);
    }
    printf(fails ? "FAIL: %d cases\n" : "all equal\n", fails);
    return fails ? 1 : 0;
}
