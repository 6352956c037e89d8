/*
 * cambi - checkasm for CAMBI: the CUDA executor against the CPU
 * executor on the same random frames, for many sizes, bit depths, layouts
 * and options; the per-frame words must be identical, and so must every
 * scale's c-values (the fold's fallback input).  The word buffer is
 * poisoned and followed by guard words: an unwritten word or a write
 * beyond the pass's words fails.  Prints its seed.
 *
 *   vqparity --test cambi [--seed N] [--sizes N] [--bench [--frame PATH WxH [--frame-only]]]
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "cambi/cambi.h"
#include "cambi/cambi_exec.h"
#include "cambi/cambi_fold.h"
#include "vq_common.h"

#include "parity_common.cuh"
#include "parity.h"

namespace cambi_parity {

/* luma layouts: bit depth, bytes per sample, msb shift, step between samples */
struct Layout {
    const char *name;
    int bpc, bytes, shift, step;
};

static const Layout layouts[] = {
    { "8-bit", 8, 1, 0, 1 },        { "10-bit", 10, 2, 0, 1 }, { "p010", 10, 2, 6, 1 },
    { "12-bit", 12, 2, 0, 1 },      { "p016(12)", 12, 2, 4, 1 }, { "16-bit", 16, 2, 0, 1 },
    { "8-bit step 2", 8, 1, 0, 2 }, { "9-bit", 9, 2, 0, 1 },
};

/* A luma plane in host and device memory with the same padded pitch:
 * banding-prone content (slow quantised ramps, flat areas, dither-like
 * noise) next to textured blocks, so that masks, bands and histograms are
 * all exercised. */
struct Plane {
    std::vector<uint8_t> host;
    uint8_t *dev = nullptr;
    ptrdiff_t pitch = 0;
    VqPlaneView view(int w, int h, const Layout &L, bool device) const
    {
        VqPlaneView v;
        v.data = device ? dev : host.data();
        v.pitch = pitch;
        v.w = w;
        v.h = h;
        v.bytes = L.bytes;
        v.shift = L.shift;
        v.step = L.step;
        return v;
    }
};

static void make_plane(Plane &pl, const Layout &L, int w, int h)
{
    const int maxv = (1 << L.bpc) - 1;
    const int scale10 = L.bpc >= 10 ? 1 << (L.bpc - 10) : 1;
    pl.pitch = ((ptrdiff_t)w * L.bytes * L.step + 255) / 256 * 256 + 128 * (rnd() & 1);
    pl.host.assign((size_t)pl.pitch * h, 0xA5);
    const int lo = (int)(rnd() % (unsigned)(maxv / 3 + 1));
    const int gx = 1 + (int)(rnd() % 4), gy = 1 + (int)(rnd() % 4);
    const int div = 16 + (int)(rnd() % 96);
    const int tex = 8 + (int)(rnd() % 32);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int v = lo + (i * gy + j * gx) * (L.bpc > 8 ? scale10 : 1) / div;
            if (((i / tex) + (j / tex)) % 4 == 0)
                v += (int)(rnd() % 64) * scale10;              /* texture */
            else if (rnd() % 12 == 0)
                v += (int)(rnd() % 3) - 1;                     /* dither */
            v = v < 0 ? 0 : (v > maxv ? maxv : v);
            uint8_t *row = &pl.host[(size_t)i * pl.pitch];
            if (L.bytes == 1)
                row[(size_t)j * L.step] = (uint8_t)v;
            else
                ((uint16_t *)row)[(size_t)j * L.step] = (uint16_t)(v << L.shift);
        }
    CK(cudaMalloc(&pl.dev, pl.host.size()));
    CK(cudaMemcpy(pl.dev, pl.host.data(), pl.host.size(), cudaMemcpyHostToDevice));
}

static const int64_t POISON = (int64_t)0x7ead7ead7ead7eadLL;
static int g_pooled_scales;   /* scales the executors pooled in the reference's order */
#define GUARD 64

static std::string word_name(const VqCambiParams &p, const VqCambiLayout &l, size_t k)
{
    char buf[96];
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        if (k == l.sel_off[s]) {
            snprintf(buf, sizeof(buf), "scale %d T", s);
            return buf;
        }
        if (k >= l.row_off[s] && k < l.row_off[s] + (size_t)p.sh[s] * VQ_CAMBI_ROW_WORDS) {
            const size_t r = (k - l.row_off[s]) / VQ_CAMBI_ROW_WORDS;
            static const char *what[] = { "count", "sum", "minexp" };
            snprintf(buf, sizeof(buf), "scale %d row %zu %s", s, r,
                     what[(k - l.row_off[s]) % VQ_CAMBI_ROW_WORDS]);
            return buf;
        }
    }
    return "guard";
}

/* Frame n of a raw planar 8-bit clip (luma only read) into a Plane. */
static bool load_raw(Plane &pl, const char *path, int w, int h, int n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    const size_t luma = (size_t)w * h, frame = luma + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2);
    pl.pitch = w;
    pl.host.resize(luma);
    const bool ok = fseek(f, (long)(n * frame), SEEK_SET) == 0 && fread(pl.host.data(), 1, luma, f) == luma;
    fclose(f);
    if (ok) {
        CK(cudaMalloc(&pl.dev, luma));
        CK(cudaMemcpy(pl.dev, pl.host.data(), luma, cudaMemcpyHostToDevice));
    }
    return ok;
}

/* Both executors over three frames of one case (random content, or frames
 * 0..2 of a raw 8-bit clip); 0 when everything matches. */
static int check(const Layout &L, int w, int h, const VqCambiOptions &o, int is_src, const char *tag,
                 const char *raw = nullptr)
{
    char msg[256];
    if (vq_cambi_check(&o, w, h, L.bpc, msg, sizeof(msg)))
        return 0;   /* refused: nothing to compare */
    VqCambiParams p;
    std::vector<VqCambiTables> t(1);
    if (vq_cambi_setup(&o, w, h, L.bpc, is_src, &p, t.data(), msg, sizeof(msg))) {
        printf("FAIL %s %dx%d %s: setup: %s\n", L.name, w, h, tag, msg);
        return 1;
    }
    VqCambiLayout l;
    vq_cambi_layout_init(&l, &p, 0);
    VqCambiCpu *cpu = vq_cambi_cpu_alloc(&p);
    VqCambiCuda *gpu = nullptr;
    CK(vq_cambi_cuda_alloc(&gpu, &p, t.data()));
    int64_t *d_words = nullptr;
    CK(cudaMalloc(&d_words, (l.total + GUARD) * sizeof(int64_t)));
    std::vector<int64_t> want(l.total), got(l.total + GUARD);
    std::vector<float> cvg;
    int bad = 0;
    for (int n = 0; n < 3 && !bad; n++) {
        Plane pl;
        if (raw) {
            if (!load_raw(pl, raw, w, h, n))
                break;
        } else {
            make_plane(pl, L, w, h);
        }
        std::fill(want.begin(), want.end(), POISON);
        if (vq_cambi_cpu_run(cpu, &p, t.data(), pl.view(w, h, L, false), &l, want.data())) {
            printf("FAIL %s %dx%d %s: cpu run refused\n", L.name, w, h, tag);
            bad = 1;
            break;
        }
        std::fill(got.begin(), got.end(), POISON);
        CK(cudaMemcpy(d_words, got.data(), got.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
        CK(vq_cambi_cuda_run(gpu, pl.view(w, h, L, true), &l, d_words, 0));
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got.data(), d_words, got.size() * sizeof(int64_t), cudaMemcpyDeviceToHost));
        for (size_t k = 0; k < l.total + GUARD && !bad; k++) {
            const int64_t wv = k < l.total ? want[k] : POISON;
            if (got[k] != wv || (k < l.total && wv == POISON)) {
                printf("FAIL %s %dx%d %s frame %d: word %zu (%s): gpu %lld cpu %lld\n", L.name, w, h,
                       tag, n, k, word_name(p, l, k).c_str(), (long long)got[k], (long long)wv);
                bad = 1;
            }
        }
        for (int s = 0; s < VQ_CAMBI_SCALES; s++)
            g_pooled_scales += want[l.sel_off[s] + VQ_CAMBI_SEL_POOLED] == VQ_CAMBI_POOL_EXECUTOR;
        for (int s = 0; s < VQ_CAMBI_SCALES && !bad; s++) {
            const size_t ns = (size_t)p.sw[s] * p.sh[s];
            cvg.assign(ns, -1.0f);
            CK(vq_cambi_cuda_cvalues(gpu, s, cvg.data(), 0));
            CK(cudaDeviceSynchronize());
            const float *cvc = vq_cambi_cpu_cvalues(cpu, s);
            for (size_t x = 0; x < ns; x++)
                if (vq_f32_bits(cvg[x]) != vq_f32_bits(cvc[x])) {
                    printf("FAIL %s %dx%d %s frame %d: scale %d c-value (%zu, %zu): gpu %.9g cpu %.9g\n",
                           L.name, w, h, tag, n, s, x / p.sw[s], x % p.sw[s], cvg[x], cvc[x]);
                    bad = 1;
                    break;
                }
        }
        if (!bad && n == 0) {
            const float *cvs[VQ_CAMBI_SCALES];
            for (int s = 0; s < VQ_CAMBI_SCALES; s++)
                cvs[s] = vq_cambi_cpu_cvalues(cpu, s);
            const double a = vq_cambi_fold(&p, &l, want.data(), cvs);
            const double b = vq_cambi_fold(&p, &l, got.data(), cvs);
            if (!(a == b)) {
                printf("FAIL %s %dx%d %s: fold %.17g vs %.17g\n", L.name, w, h, tag, a, b);
                bad = 1;
            }
        }
        cudaFree(pl.dev);
    }
    cudaFree(d_words);
    vq_cambi_cuda_free(gpu);
    vq_cambi_cpu_free(cpu);
    return bad;
}

/*
 * The cooperative pooling kernel alone (vq_cambi_cuda_pool_test) against
 * the reference's quick_select + sum on the host, on c-value-like arrays
 * whose double sum rounds (so the order matters): the frames above only
 * sometimes need it.
 */
static int check_pool(int reps)
{
    VqCambiOptions o;
    vq_cambi_default_options(&o);
    char msg[256];
    VqCambiParams p;
    std::vector<VqCambiTables> t(1);
    CK(vq_cambi_setup(&o, 3840, 2160, 8, 0, &p, t.data(), msg, sizeof(msg)) ? cudaErrorInvalidValue : cudaSuccess);
    VqCambiCuda *gpu = nullptr;
    CK(vq_cambi_cuda_alloc(&gpu, &p, t.data()));
    const int nmax = p.sw[0] * p.sh[0];
    float *d_cv = nullptr;
    int64_t *d_hdr = nullptr;
    CK(cudaMalloc(&d_cv, (size_t)nmax * sizeof(float)));
    CK(cudaMalloc(&d_hdr, VQ_CAMBI_SEL_WORDS * sizeof(int64_t)));
    int bad = 0, tried = 0;
    for (int it = 0; it < reps && !bad; it++) {
        const int n = it == 0 ? nmax : 150000 + (int)(rnd() % (unsigned)(nmax - 150000));
        std::vector<float> cv(n);
        const int zeros = (int)(rnd() % 60), pmax = 1000 + (int)(rnd() % 3000);
        for (auto &v : cv) {
            if ((int)(rnd() % 100) < zeros)
                v = 0.0f;
            else if (rnd() % 100 == 0)
                v = 2.0f * t[0].recip[3];                        /* 2/3: lowest bit 2^-24 */
            else {
                const int wd = 1 + (int)(rnd() % 9), p0 = 1 + (int)(rnd() % pmax), p1 = 1 + (int)(rnd() % pmax);
                v = (float)(wd * p0 * p1) * t[0].recip[p0 + p1 < VQ_CAMBI_LUT_SIZE ? p0 + p1 : VQ_CAMBI_LUT_SIZE - 1];
            }
        }
        const double topk = it % 3 == 0 ? 0.6 : (it % 3 == 1 ? 1.0 : (rnd() % 1000 + 1) / 1000.0);
        int k = (int)(topk * n);
        k = k < 1 ? 1 : (k > n ? n : k);
        /* the pool mode and g, as the executors decide them */
        std::vector<uint32_t> b(n);
        for (int x = 0; x < n; x++)
            b[x] = vq_f32_bits(cv[x]);
        std::vector<uint32_t> sorted = b;
        std::nth_element(sorted.begin(), sorted.begin() + (k - 1), sorted.end(), std::greater<uint32_t>());
        const uint32_t tb = sorted[k - 1];
        int64_t cnt = 0;
        uint64_t hi = 0, lo = 0;
        int minexp = VQ_CAMBI_NONE_EXP;
        for (uint32_t x : b)
            if (x > tb) {
                cnt++;
                const uint64_t f = vq_cambi_fixed32(x);
                lo += f;
                hi += lo < f;
                minexp = minexp < vq_cambi_lowbit_exp(x) ? minexp : vq_cambi_lowbit_exp(x);
            }
        int g = 0;
        if (vq_cambi_pool_mode(tb, cnt, hi, lo, minexp, k, n, &g) != VQ_CAMBI_POOL_EXECUTOR)
            continue;
        tried++;
        std::vector<float> ref = cv;
        const double want = vq_cambi_topk_sum_ref(ref.data(), n, k);
        CK(cudaMemcpy(d_cv, cv.data(), (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
        CK(vq_cambi_cuda_pool_test(gpu, d_cv, n, k, g, d_hdr));
        int64_t hdr[VQ_CAMBI_SEL_WORDS];
        CK(cudaMemcpy(hdr, d_hdr, sizeof(hdr), cudaMemcpyDeviceToHost));
        double got;
        memcpy(&got, &hdr[VQ_CAMBI_SEL_SUM], sizeof(got));
        if (!(got == want)) {
            printf("FAIL pool n %d k %d g %d: gpu %.17g reference order %.17g\n", n, k, g, got, want);
            bad = 1;
        }
    }
    printf("  pool kernel: %d arrays in the reference's order%s\n", tried, bad ? " (failed)" : "");
    cudaFree(d_cv);
    cudaFree(d_hdr);
    vq_cambi_cuda_free(gpu);
    return bad;
}

/* GPU time of one pass per frame (CUDA events, after a warm-up), the
 * launches it takes, and the c-value download the fallback costs. */
static void bench(const Layout &L, int w, int h, const char *what = "defaults",
                  const char *raw = NULL)
{
    VqCambiOptions o;
    vq_cambi_default_options(&o);
    if (!strcmp(what, "v1")) {   /* the VMAF v1.0.16 models' cambi */
        o.cambi_high_res_speedup = 1080;
        o.cambi_max_val = 17;
        o.cambi_vis_lum_threshold = 0.06;
    }
    char msg[256];
    VqCambiParams p;
    std::vector<VqCambiTables> t(1);
    if (vq_cambi_setup(&o, w, h, L.bpc, 0, &p, t.data(), msg, sizeof(msg))) {
        printf("bench %dx%d: %s\n", w, h, msg);
        return;
    }
    VqCambiLayout l;
    vq_cambi_layout_init(&l, &p, 0);
    VqCambiCuda *gpu = nullptr;
    CK(vq_cambi_cuda_alloc(&gpu, &p, t.data()));
    int64_t *d_words = nullptr;
    CK(cudaMalloc(&d_words, l.total * sizeof(int64_t)));
    Plane pl;
    if (raw) {
        if (!load_raw(pl, raw, w, h, 0)) {
            printf("bench: cannot read a %dx%d frame from %s\n", w, h, raw);
            return;
        }
    } else {
        make_plane(pl, L, w, h);
    }
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    float ms = 0;
    const int reps = 20;
    for (int pass = 0; pass < 2; pass++) {
        CK(cudaEventRecord(e0, st));
        for (int r = 0; r < reps; r++)
            CK(vq_cambi_cuda_run(gpu, pl.view(w, h, L, true), &l, d_words, st));
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&ms, e0, e1));
    }
    float *pinned = nullptr;
    CK(cudaMallocHost(&pinned, (size_t)p.sw[0] * p.sh[0] * sizeof(float)));
    float ms_copy = 0;
    CK(cudaEventRecord(e0, st));
    CK(vq_cambi_cuda_cvalues(gpu, 0, pinned, st));
    CK(vq_cambi_cuda_cvalues(gpu, 1, pinned, st));
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms_copy, e0, e1));
    cudaGraph_t graph;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    CK(vq_cambi_cuda_run(gpu, pl.view(w, h, L, true), &l, d_words, st));
    CK(cudaStreamEndCapture(st, &graph));
    size_t nnodes = 0;
    CK(cudaGraphGetNodes(graph, NULL, &nnodes));
    CK(cudaGraphDestroy(graph));
    printf("bench %s %dx%d %s%s: %.1f us/frame (%zu graph nodes); scales 0+1 c-values to the host %.1f us\n",
           L.name, w, h, what, raw ? " (a real frame)" : "", ms * 1e3 / reps, nnodes, ms_copy * 1e3);
    cudaFreeHost(pinned);
    cudaFree(pl.dev);
    cudaFree(d_words);
    vq_cambi_cuda_free(gpu);
    cudaStreamDestroy(st);
}

}  // namespace cambi_parity

int parity_cambi(const ParityArgs &args)
{
    using namespace cambi_parity;
    const uint64_t seed = args.seed;
    const int nrandom = args.sizes >= 0 ? args.sizes : 6, do_bench = args.bench;
    const int fw = args.frame_w, fh = args.frame_h;
    const int frame_only = args.frame_only;   /* with --frame: that frame's benches only */
    const char *frame = args.frame;           /* PATH WxH: 8-bit 4:2:0 raw */
    rng_state = seed ? seed : 1;
    printf("cambi: seed %llu\n", (unsigned long long)seed);
    if (do_bench) {
        if (!frame || !frame_only) {
            bench(layouts[0], 1920, 1080);
            bench(layouts[2], 1920, 1080);
            bench(layouts[0], 3840, 2160);
            bench(layouts[2], 3840, 2160);
            bench(layouts[0], 1920, 1080, "v1");
            bench(layouts[0], 3840, 2160, "v1");
        }
        if (frame) {
            bench(layouts[0], fw, fh, "defaults", frame);
            bench(layouts[0], fw, fh, "v1", frame);
        }
        return 0;
    }
    int fails = 0, runs = 0;
    VqCambiOptions def;
    vq_cambi_default_options(&def);

    /* default options over sizes (edges of the size rule, odd sizes, the
     * golden sizes) and every layout */
    std::vector<std::pair<int, int>> sizes = { { 216, 216 }, { 216, 150 }, { 300, 216 }, { 577, 323 },
                                               { 640, 360 }, { 1920, 1080 }, { 3840, 2160 } };
    for (int k = 0; k < nrandom; k++)
        sizes.push_back({ 216 + (int)(rnd() % 1200), 120 + (int)(rnd() % 700) });
    for (auto &sz : sizes) {
        for (const Layout &L : layouts) {
            if (sz.first >= 3840 && L.bpc != 8 && L.shift != 6)
                continue;   /* keep the run short: 4K at 8 bit and p010 */
            fails += check(L, sz.first, sz.second, def, 0, "default");
            runs++;
        }
        printf("  %dx%d: done (%d failures so far)\n", sz.first, sz.second, fails);
        fflush(stdout);
    }

    /* options: each changes a stage's parameters */
    struct Opt {
        const char *tag;
        void (*set)(VqCambiOptions &o, int w, int h);
        int is_src;
    };
    static const Opt opts[] = {
        { "enc 2/3 size", [](VqCambiOptions &o, int w, int h) { o.enc_width = w * 2 / 3; o.enc_height = h * 2 / 3; }, 0 },
        { "enc_bitdepth 10", [](VqCambiOptions &o, int, int) { o.enc_bitdepth = 10; }, 0 },
        { "enc_bitdepth 8", [](VqCambiOptions &o, int, int) { o.enc_bitdepth = 8; }, 0 },
        { "mlc 0", [](VqCambiOptions &o, int, int) { o.max_log_contrast = 0; }, 0 },
        { "mlc 3", [](VqCambiOptions &o, int, int) { o.max_log_contrast = 3; }, 0 },
        { "mlc 5", [](VqCambiOptions &o, int, int) { o.max_log_contrast = 5; }, 0 },
        { "window 15", [](VqCambiOptions &o, int, int) { o.window_size = 15; }, 0 },
        { "window 100", [](VqCambiOptions &o, int, int) { o.window_size = 100; }, 0 },
        { "topk 0.01", [](VqCambiOptions &o, int, int) { o.topk = 0.01; }, 0 },
        { "topk 1", [](VqCambiOptions &o, int, int) { o.cambi_topk = 1.0; }, 0 },
        { "tvi 0.1", [](VqCambiOptions &o, int, int) { o.tvi_threshold = 0.1; }, 0 },
        { "vlt 5", [](VqCambiOptions &o, int, int) { o.cambi_vis_lum_threshold = 5.0; }, 0 },
        { "pq", [](VqCambiOptions &o, int, int) { o.eotf = "pq"; }, 0 },
        { "hrs 1080", [](VqCambiOptions &o, int, int) { o.cambi_high_res_speedup = 1080; }, 0 },
        { "src pass 3/4", [](VqCambiOptions &o, int w, int h) { o.full_ref = 1; o.src_width = w * 3 / 4; o.src_height = h * 3 / 4; }, 1 },
    };
    const std::pair<int, int> osizes[] = { { 577, 323 }, { 1920, 1080 } };
    for (const Opt &op : opts)
        for (auto &sz : osizes)
            for (int li : { 0, 2 }) {
                VqCambiOptions o = def;
                op.set(o, sz.first, sz.second);
                fails += check(layouts[li], sz.first, sz.second, o, op.is_src, op.tag);
                runs++;
            }
    fails += check_pool(12);
    runs++;
    /* real video: dog2160 needs the reference's order at scales 0 and 1
     * (and runs the compact column kernel); dog1080, the window kernel on
     * a real frame */
    const char *raw_dir = getenv("VQ_RAW_DIR");
    if (raw_dir) {
        const std::string clip1080 = std::string(raw_dir) + "/dog1080_crf34.yuv";
        if (FILE *f1 = fopen(clip1080.c_str(), "rb")) {
            fclose(f1);
            fails += check(layouts[0], 1920, 1080, def, 0, "dog1080_crf34", clip1080.c_str());
            runs++;
        }
        const std::string clip = std::string(raw_dir) + "/dog2160_crf32.yuv";
        FILE *f = fopen(clip.c_str(), "rb");
        if (f) {
            fclose(f);
            fails += check(layouts[0], 3840, 2160, def, 0, "dog2160_crf32", clip.c_str());
            runs++;
        }
    }
    printf("cambi: %d passed, %d failed (seed %llu); %d scales pooled in the reference's "
           "order on both\n", runs - fails, fails, (unsigned long long)seed, g_pooled_scales);
    return fails ? 1 : 0;
}
