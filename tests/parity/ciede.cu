/*
 * ciede - the CUDA ciede kernel against the same device stage run
 * on the CPU (vq_ciede_dev_cpu_run), on random frames of many sizes, bit
 * depths and layouts: the list count and every row word must be identical,
 * the list entries the same set (the kernel takes positions with an atomic,
 * so their order may differ), and every pixel word of the slot's pixel
 * buffer (vq_ciede_cuda_fetch_rows) identical, except that a listed pixel's
 * list position may differ: there the two list entries must be identical.
 * The buffer is poisoned before the run and followed by guard words.  Then
 * the folds of both and of the CPU executor (the reference, glibc) must be
 * equal, and the GPU's fold with every row forced to be added pixel by pixel
 * (the pixel words fetched from the device, in windows of rows) too.
 *
 *   vqparity --test ciede [--seed N] [--sizes N] [--bench [--pair REF DIST WxH]]
 *
 * The random frames are smooth, uniform or flat (a distorted frame made
 * from its reference with a little noise, or of its own): flat ones repeat
 * their six samples on most pixels (the kernel runs a block's equal samples
 * once); some 10-bit planar frames hold samples wider than 10 bits.
 *
 * --bench: 1920x1080 and 3840x2160 nv12 (8 bit) and p010: kernel time (CUDA
 * events, after a warm-up), the buffer's download into pinned memory, the
 * host's fold, and a fetch of every row's pixel words (what a frame whose
 * rows all fall back would cost).  With --pair, the first frames of two
 * 8-bit 4:2:0 raw files (a real reference and distorted frame) are checked
 * as above, then benched, alone.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "ciede/ciede.h"
#include "ciede/ciede_exec.h"
#include "ciede/ciede_fold.h"

#include "frame.cuh"
#include "parity_common.cuh"
#include "parity.h"

namespace ciede_parity {

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
    { "yuv422p10", 10, 2, 0, 0, 1, 0 }, { "yuv422p", 8, 1, 0, 0, 1, 0 },
};

/* A frame (frame.cuh) in host and device memory with the same (padded)
 * pitches: plane 0 luma; plane 1 both chroma planes (stacked, or interleaved). */
static void make_frame(Frame &f, const Layout &L, int w, int h, const Frame *base, int noise)
{
    const int maxv = (1 << L.bpc) - 1;
    const int mode = rnd() % 3;     /* smooth, uniform random, flat */
    /* 10-bit planar: now and then samples past 10 bits (garbage in the
     * 16-bit words' high bits: the reference reads them as they are) */
    const int wide = L.bytes == 2 && !L.shift && L.bpc == 10 && rnd() % 4 == 0;
    f.cw = (w + L.sw) >> L.sw;
    f.ch = (h + L.sh) >> L.sh;
    f.pitch[0] = ((ptrdiff_t)w * L.bytes + 255) / 256 * 256 + 256 * (rnd() & 1);
    f.pitch[1] = ((ptrdiff_t)f.cw * L.bytes * 2 + 255) / 256 * 256;
    f.host[0].assign(f.pitch[0] * h, 0xA5);
    f.host[1].assign(f.pitch[1] * f.ch * (L.semi ? 1 : 2), 0x5A);
    const int flat = (int)(rnd() % (maxv + 1));
    for (int p = 0; p < 2; p++) {
        const int rows = p ? f.ch * (L.semi ? 1 : 2) : h;
        const int cols = p ? (L.semi ? f.cw * 2 : f.cw) : w;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) {
                int v;
                if (base) {
                    const int b = L.bytes == 1 ? base->host[p][i * base->pitch[p] + j]
                                               : ((const uint16_t *)&base->host[p][i * base->pitch[p]])[j] >> L.shift;
                    v = b + (int)(rnd() % (2 * noise + 1)) - noise;
                } else if (mode == 0) {
                    v = ((i * 3 + j * 5) % (maxv + 1) + ((i / 16 + j / 16) % 2) * maxv / 3 + (int)(rnd() % 16)) % (maxv + 1);
                } else if (mode == 1) {
                    v = (int)(rnd() % (maxv + 1));
                } else {
                    v = flat;
                }
                v = v < 0 ? 0 : v > maxv ? maxv : v;
                if (wide && rnd() % 16 == 0)
                    v = (int)(rnd() % 65536);
                if (L.bytes == 1)
                    f.host[p][i * f.pitch[p] + j] = (uint8_t)v;
                else
                    ((uint16_t *)&f.host[p][i * f.pitch[p]])[j] = (uint16_t)(v << L.shift);
            }
        CK(cudaMalloc(&f.dev[p], f.host[p].size()));
        CK(cudaMemcpy(f.dev[p], f.host[p].data(), f.host[p].size(), cudaMemcpyHostToDevice));
    }
}

static const int64_t kPoison = 0x5A5A5A5A5A5A5A5All;
static const size_t kGuard = 64;

static const int64_t *entry(const int64_t *buf, const std::vector<int64_t> &extra, uint32_t pos)
{
    return pos < VQ_CIEDE_LIST_INLINE ? buf + 1 + 2 * (size_t)pos
                                      : extra.data() + 2 * (size_t)(pos - VQ_CIEDE_LIST_INLINE);
}

/* the list entries as a sorted set */
static std::vector<std::pair<uint64_t, uint64_t>> entries(const int64_t *buf, const std::vector<int64_t> &extra)
{
    std::vector<std::pair<uint64_t, uint64_t>> v;
    for (int64_t p = 0; p < buf[0]; p++) {
        const int64_t *e = entry(buf, extra, (uint32_t)p);
        v.push_back({ (uint64_t)e[0], (uint64_t)e[1] });
    }
    std::sort(v.begin(), v.end());
    return v;
}

/* the fold's row source over the slot's device pixel words */
struct DevRows {
    VqCiedeCuda *cu;
    int slot, calls;
};

static int dev_fetch(void *ctx, int row0, int nrows, int64_t *dst)
{
    DevRows *d = (DevRows *)ctx;
    d->calls++;
    return vq_ciede_cuda_fetch_rows(d->cu, d->slot, row0, nrows, dst);
}

/* Frames of a real pair: the first frame of an 8-bit 4:2:0 raw file, in
 * the yuv420p layout (layouts[0]). */
static void load_frame(Frame &f, const char *path, int w, int h)
{
    f.cw = (w + 1) >> 1;
    f.ch = (h + 1) >> 1;
    f.pitch[0] = w;
    f.pitch[1] = f.cw;
    f.host[0].assign((size_t)w * h, 0);
    f.host[1].assign((size_t)f.cw * f.ch * 2, 0);
    FILE *in = fopen(path, "rb");
    if (!in || fread(f.host[0].data(), 1, f.host[0].size(), in) != f.host[0].size() ||
        fread(f.host[1].data(), 1, f.host[1].size(), in) != f.host[1].size()) {
        fprintf(stderr, "vqparity ciede: cannot read a %dx%d frame from %s\n", w, h, path);
        exit(2);
    }
    fclose(in);
    for (int p = 0; p < 2; p++) {
        CK(cudaMalloc(&f.dev[p], f.host[p].size()));
        CK(cudaMemcpy(f.dev[p], f.host[p].data(), f.host[p].size(), cudaMemcpyHostToDevice));
    }
}

/* 1 on failure; random frames, or the pair given (gr, gd: kept) */
static int check(const Layout &L, int w, int h, VqCiedeCuda *cu, const Frame *gr = nullptr,
                 const Frame *gd = nullptr)
{
    char err[256];
    if (vq_ciede_check(w, h, L.bpc, L.sw, L.sh, 1, err, sizeof(err)))
        return 0;   /* the reference refuses it */
    Frame r, d;
    if (gr) {
        r = *gr;
        d = *gd;
    } else {
        make_frame(r, L, w, h, nullptr, 0);
        if (rnd() & 1)
            make_frame(d, L, w, h, &r, 1 + (int)(rnd() % 6));
        else
            make_frame(d, L, w, h, nullptr, 0);
    }
    VqPlaneView hr[3], hd[3], dr[3], dd[3];
    views(r, L, w, h, 0, hr);
    views(d, L, w, h, 0, hd);
    views(r, L, w, h, 1, dr);
    views(d, L, w, h, 1, dd);
    const VqCiedeGeom g = vq_ciede_geom(w, h, L.sw, L.sh, L.bpc);
    const size_t words = vq_ciede_buffer_words(w, h), npx = (size_t)w * h;

    std::vector<int64_t> cpu(words), cpu_extra(2 * npx), ref(words), cpu_px(npx), ref_px(npx);
    vq_ciede_dev_cpu_run(hr, hd, &g, cpu.data(), cpu_extra.data(), cpu_px.data());
    vq_ciede_cpu_run(hr, hd, &g, ref.data(), ref_px.data());

    int64_t *d_buf;
    CK(cudaMalloc(&d_buf, (words + kGuard) * sizeof(int64_t)));
    std::vector<int64_t> gpu(words + kGuard, kPoison);
    CK(cudaMemcpy(d_buf, gpu.data(), gpu.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
    int e = vq_ciede_cuda_run(cu, 0, dr, dd, &g, d_buf, 0);
    if (e) {
        fprintf(stderr, "vq_ciede_cuda_run: %s\n", cudaGetErrorString((cudaError_t)e));
        exit(1);
    }
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(gpu.data(), d_buf, gpu.size() * sizeof(int64_t), cudaMemcpyDeviceToHost));
    cudaFree(d_buf);
    std::vector<int64_t> gpu_extra(2 * npx), gpu_px(npx, kPoison);
    e = vq_ciede_cuda_fetch_list(cu, 0, gpu[0], gpu_extra.data(), 0);
    if (!e)
        e = vq_ciede_cuda_fetch_rows(cu, 0, 0, h, gpu_px.data());
    if (e) {
        fprintf(stderr, "vq_ciede_cuda_fetch_list / _rows: %s\n", cudaGetErrorString((cudaError_t)e));
        exit(1);
    }

    int fail = 0;
    for (size_t k = 0; k < kGuard && !fail; k++)
        if (gpu[words + k] != kPoison) {
            printf("FAIL %s %dx%d: guard word %zu written\n", L.name, w, h, k);
            fail = 1;
        }
    if (!fail && gpu[0] != cpu[0]) {
        printf("FAIL %s %dx%d: %lld list entries on the GPU, %lld on the CPU\n", L.name, w, h,
               (long long)gpu[0], (long long)cpu[0]);
        fail = 1;
    }
    for (int64_t k = gpu[0]; k < VQ_CIEDE_LIST_INLINE && !fail; k++)
        if (gpu[1 + 2 * k] || gpu[2 + 2 * k]) {
            printf("FAIL %s %dx%d: unused list entry %lld not cleared\n", L.name, w, h, (long long)k);
            fail = 1;
        }
    for (size_t k = VQ_CIEDE_ROW_OFF; k < words && !fail; k++)
        if (gpu[k] != cpu[k]) {
            const size_t row = (k - VQ_CIEDE_ROW_OFF) / VQ_CIEDE_ROW_WORDS, which = (k - VQ_CIEDE_ROW_OFF) % VQ_CIEDE_ROW_WORDS;
            printf("FAIL %s %dx%d: row %zu word %zu: cpu %016llx gpu %016llx\n", L.name, w, h, row, which,
                   (unsigned long long)cpu[k], (unsigned long long)gpu[k]);
            fail = 1;
        }
    if (!fail && entries(gpu.data(), gpu_extra) != entries(cpu.data(), cpu_extra)) {
        printf("FAIL %s %dx%d: the list entries differ\n", L.name, w, h);
        fail = 1;
    }
    int64_t two = 0;
    for (size_t k = 0; k < npx && !fail; k++) {
        const uint64_t wc = (uint64_t)cpu_px[k], wg = (uint64_t)gpu_px[k];
        two += (uint32_t)(wc >> 32) < 0x7f800000u;
        if ((uint32_t)(wc >> 32) == VQ_CIEDE_TAG_LIST && (uint32_t)(wg >> 32) == VQ_CIEDE_TAG_LIST) {
            if ((int64_t)(uint32_t)wg >= gpu[0]) {
                printf("FAIL %s %dx%d: pixel (%zu, %zu): list position %u past the list\n", L.name, w, h, k / w,
                       k % w, (uint32_t)wg);
                fail = 1;
                break;
            }
            const int64_t *ec = entry(cpu.data(), cpu_extra, (uint32_t)wc);
            const int64_t *eg = entry(gpu.data(), gpu_extra, (uint32_t)wg);
            if (ec[0] == eg[0] && ec[1] == eg[1])
                continue;
        } else if (wc == wg) {
            continue;
        }
        printf("FAIL %s %dx%d: pixel (%zu, %zu): cpu %016llx gpu %016llx\n", L.name, w, h, k / w, k % w,
               (unsigned long long)wc, (unsigned long long)wg);
        fail = 1;
    }
    if (!fail) {
        double sr, sc, sg, sf;
        const VqCiedeRowSource rs = { ref_px.data(), nullptr, nullptr }, cs = { cpu_px.data(), nullptr, nullptr };
        DevRows dev = { cu, 0, 0 };
        const VqCiedeRowSource gs = { nullptr, dev_fetch, &dev };
        /* every row forced to be added pixel by pixel, from the device's pixel words */
        std::vector<int64_t> forced(gpu.begin(), gpu.begin() + words);
        for (int i = 0; i < h; i++)
            forced[VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * i + 3] = VQ_CIEDE_KEY_FALLBACK;
        const int ok = !vq_ciede_fold(&g, ref.data(), nullptr, &rs, &sr, err, sizeof(err)) &&
                       !vq_ciede_fold(&g, cpu.data(), cpu_extra.data(), &cs, &sc, err, sizeof(err)) &&
                       !vq_ciede_fold(&g, gpu.data(), gpu_extra.data(), &gs, &sg, err, sizeof(err)) &&
                       !vq_ciede_fold(&g, forced.data(), gpu_extra.data(), &gs, &sf, err, sizeof(err));
        const int same = ok && (sr == sc || (sr != sr && sc != sc)) && (sr == sg || (sr != sr && sg != sg)) &&
                         (sr == sf || (sr != sr && sf != sf));
        if (!same) {
            printf("FAIL %s %dx%d: scores reference %.17g, device stage on the CPU %.17g, GPU %.17g, GPU "
                   "pixel by pixel %.17g %s\n", L.name, w, h, sr, sc, sg, sf, ok ? "" : err);
            fail = 1;
        }
    }
    if (!fail && (cpu[0] || two))
        printf("    %s %dx%d: %lld list entries, %lld of them two-candidate\n", L.name, w, h, (long long)cpu[0],
               (long long)two);
    if (!gr) {
        free_frame(r);
        free_frame(d);
    }
    return fail;
}

static void bench(const Layout &L, int w, int h, VqCiedeCuda *cu, const char *what, const Frame *gr = nullptr,
                  const Frame *gd = nullptr)
{
    Frame r, d;
    if (gr) {
        r = *gr;
        d = *gd;
    } else {
        make_frame(r, L, w, h, nullptr, 0);
        make_frame(d, L, w, h, &r, 3);
    }
    VqPlaneView dr[3], dd[3];
    views(r, L, w, h, 1, dr);
    views(d, L, w, h, 1, dd);
    const VqCiedeGeom g = vq_ciede_geom(w, h, L.sw, L.sh, L.bpc);
    const size_t words = vq_ciede_buffer_words(w, h);
    int64_t *d_buf, *h_buf;
    CK(cudaMalloc(&d_buf, words * sizeof(int64_t)));
    CK(cudaMallocHost(&h_buf, words * sizeof(int64_t)));
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1, e2;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventCreate(&e2));
    for (int k = 0; k < 3; k++)
        CK((cudaError_t)vq_ciede_cuda_run(cu, 0, dr, dd, &g, d_buf, st));
    CK(cudaStreamSynchronize(st));
    const int n = 20;
    float kern = 0, copy = 0;
    double fold = 0, fetch = 0;
    std::vector<int64_t> px((size_t)w * h);
    for (int k = 0; k < n; k++) {
        CK(cudaEventRecord(e0, st));
        CK((cudaError_t)vq_ciede_cuda_run(cu, 0, dr, dd, &g, d_buf, st));
        CK(cudaEventRecord(e1, st));
        CK(cudaMemcpyAsync(h_buf, d_buf, words * sizeof(int64_t), cudaMemcpyDeviceToHost, st));
        CK(cudaEventRecord(e2, st));
        CK(cudaEventSynchronize(e2));
        float a, b;
        CK(cudaEventElapsedTime(&a, e0, e1));
        CK(cudaEventElapsedTime(&b, e1, e2));
        kern += a;
        copy += b;
        std::vector<int64_t> extra(2 * (size_t)vq_ciede_extra_entries(h_buf));
        auto t0 = std::chrono::steady_clock::now();
        if (!extra.empty())
            CK((cudaError_t)vq_ciede_cuda_fetch_list(cu, 0, h_buf[0], extra.data(), st));
        double s;
        char err[256];
        DevRows dev = { cu, 0, 0 };
        const VqCiedeRowSource gs = { nullptr, dev_fetch, &dev };
        if (vq_ciede_fold(&g, h_buf, extra.empty() ? nullptr : extra.data(), &gs, &s, err, sizeof(err)))
            printf("fold: %s\n", err);
        fold += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        t0 = std::chrono::steady_clock::now();
        CK((cudaError_t)vq_ciede_cuda_fetch_rows(cu, 0, 0, h, px.data()));
        fetch += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    printf("bench %s%s%s%s %dx%d: kernel %.3f ms, download %.3f ms (%.3f MB), host fold %.3f ms per frame; "
           "%lld list entries; every row's pixel words %.3f ms\n", L.name, *what ? " (" : "", what, *what ? ")" : "", w, h, kern / n, copy / n,
           words * 8e-6, fold / n, (long long)h_buf[0], fetch / n);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaEventDestroy(e2);
    cudaStreamDestroy(st);
    cudaFreeHost(h_buf);
    cudaFree(d_buf);
    if (!gr) {
        free_frame(r);
        free_frame(d);
    }
}

}  // namespace ciede_parity

int parity_ciede(const ParityArgs &args)
{
    using namespace ciede_parity;
    const uint64_t seed = args.seed;
    const int nrandom = args.sizes >= 0 ? args.sizes : 6, do_bench = args.bench;
    rng_state = seed ? seed : 1;
    printf("ciede: seed %llu\n", (unsigned long long)seed);
    if (do_bench && args.pair[0]) {
        /* a real pair: checked, then benched with and without the table */
        const int w = args.pair_w, h = args.pair_h;
        Frame r, d;
        load_frame(r, args.pair[0], w, h);
        load_frame(d, args.pair[1], w, h);
        VqCiedeCuda *cu;
        CK((cudaError_t)vq_ciede_cuda_alloc(&cu, w, h, 8, 1, -1));
        const int fails = check(layouts[0], w, h, cu, &r, &d);
        printf("ciede: the pair %s\n", fails ? "DIFFERS" : "is equal");
        bench(layouts[0], w, h, cu, "table, real pair", &r, &d);
        vq_ciede_cuda_free(cu);
        CK((cudaError_t)vq_ciede_cuda_alloc(&cu, w, h, 0, 1, -1));
        bench(layouts[0], w, h, cu, "no table, real pair", &r, &d);
        vq_ciede_cuda_free(cu);
        free_frame(r);
        free_frame(d);
        return fails ? 1 : 0;
    }
    if (do_bench) {
        VqCiedeCuda *cu;
        for (auto sz : { std::make_pair(1920, 1080), std::make_pair(3840, 2160) }) {
            /* 8 bits with stage A's table (as the executor runs it), then
             * without (stage A per pixel, as at other depths) */
            CK((cudaError_t)vq_ciede_cuda_alloc(&cu, sz.first, sz.second, 8, 1, -1));
            bench(layouts[1], sz.first, sz.second, cu, "table");
            vq_ciede_cuda_free(cu);
            CK((cudaError_t)vq_ciede_cuda_alloc(&cu, sz.first, sz.second, 0, 1, -1));
            bench(layouts[1], sz.first, sz.second, cu, "no table");
            bench(layouts[4], sz.first, sz.second, cu, "");
            vq_ciede_cuda_free(cu);
        }
        return 0;
    }
    std::vector<std::pair<int, int>> sizes = { { 1, 2 }, { 7, 4 }, { 36, 34 }, { 64, 48 }, { 97, 71 },
                                               { 131, 64 }, { 577, 323 }, { 640, 360 }, { 1920, 1080 } };
    for (int k = 0; k < nrandom; k++)
        sizes.push_back({ 1 + (int)(rnd() % 900), 2 * (1 + (int)(rnd() % 300)) });
    int fails = 0, runs = 0;
    for (auto &sz : sizes) {
        VqCiedeCuda *cu;
        /* bpc 8: the 8-bit layouts read stage A from the table (unless
         * VQ_CUDA_CIEDE_TABLE=0), the others compute it */
        CK((cudaError_t)vq_ciede_cuda_alloc(&cu, sz.first, sz.second, 8, 1, -1));
        for (const Layout &L : layouts) {
            if (sz.first * sz.second > 1000000 && L.bpc != 8 && L.bpc != 10)
                continue;   /* keep the run short: the CPU side is slow */
            fails += check(L, sz.first, sz.second, cu);
            runs++;
        }
        vq_ciede_cuda_free(cu);
        printf("  %dx%d: done (%d failures so far)\n", sz.first, sz.second, fails);
        fflush(stdout);
    }
    printf("ciede: %d passed, %d failed (seed %llu)\n", runs - fails, fails, (unsigned long long)seed);
    return fails ? 1 : 0;
}
