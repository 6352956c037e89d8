/*
 * speed - speed_chroma's steps 1-3 on the GPU (kernels/cuda_speed.cu)
 * == on the CPU (hostmath/speed_chroma.cpp's dec16_image), bit for bit, on
 * random planes: every prescale method, down- and upscales, kernelscales,
 * 8 to 16 bits, planar and semiplanar (nv12/p010/p016) views, random sizes;
 * then the scores from either side's 1/16 images.
 * 0: equal; 1: a difference.
 *   vqparity --test speed [--seed N] [--sizes N (random cases, 40)]
 */
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "speed.h"
#include "speed_chroma.hpp"
#include "speed_exec.h"
#include "parity.h"

namespace speed_parity {

using namespace vq::speed;

/* layout: 0 planar; 1 semiplanar (the plane's samples at even positions of
 * an interleaved row, as nv12/p010's U); 2 semiplanar, 16-bit words holding
 * the sample in the high bits (p010's shift 6, p016-style for 12-bit: 4) */
static int run_case(int w, int h, int bpc, double ps, const char *method, double ks,
                    unsigned seed, int layout = 0)
{
    Setup st;
    Options &o = st.opt;
    o.prescale = ps;
    o.prescale_method = method;
    o.kernelscale = ks;
    const Dims dm = dims(o, w, h, 0, 0);
    if (!check(o, w, h, 0, 0, true, bpc).empty()) {
        printf("case %dx%d ps %g %s ks %g refused\n", w, h, ps, method, ks);
        return 0;
    }
    std::mt19937 rng(seed);
    const int bytes = bpc > 8 ? 2 : 1;
    const int step = layout ? 2 : 1;
    const int shift = layout == 2 && bpc < 16 ? 16 - bpc : 0;
    const ptrdiff_t pitch = ((ptrdiff_t)w * bytes * step + 63) / 64 * 64 + 64 * (rng() & 1);
    std::vector<uint8_t> host((size_t)pitch * h);
    for (auto &b : host)
        b = (uint8_t)rng();   /* the other plane's samples and the padding: noise */
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            const uint32_t v = rng() & ((1u << bpc) - 1);
            uint8_t *q = host.data() + (size_t)i * pitch + (size_t)j * step * bytes;
            if (bytes == 1)
                *q = (uint8_t)v;
            else {
                const uint16_t x = (uint16_t)(v << shift);
                memcpy(q, &x, 2);
            }
        }
    const VqPlaneView hv = { host.data(), pitch, w, h, bytes, shift, step };
    st.dm = dm;
    st.bpc = bpc;
    const std::vector<float> cpu = dec16_image(o, dm, hv, bpc);

    /* the executor's geometry (fill_geom: taps, ratios, lanczos tables) */
    fill_geom(st);
    const VqSpeedGeom &g = st.geom;
    VqSpeedCuda *c = vq_speed_cuda_alloc(&g);
    if (!c) {
        printf("alloc failed\n");
        return 1;
    }
    uint8_t *dev = nullptr;
    cudaMalloc(&dev, host.size());
    cudaMemcpy(dev, host.data(), host.size(), cudaMemcpyHostToDevice);
    /* a copy from pageable memory may still be in flight when cudaMemcpy
     * returns, and the kernels run on a non-blocking stream: wait for it */
    cudaDeviceSynchronize();
    VqPlaneView dv = hv;
    dv.data = dev;   /* the same pitch, step and shift */
    std::vector<float> gpu((size_t)dm.ow * dm.oh);
    const int e = vq_speed_cuda_dec16(c, dv, bpc, gpu.data());
    cudaFree(dev);
    vq_speed_cuda_free(c);
    if (e) {
        printf("CUDA error %d\n", e);
        return 1;
    }
    size_t bad = 0;
    for (size_t i = 0; i < cpu.size(); i++)
        bad += memcmp(&cpu[i], &gpu[i], sizeof(float)) != 0;
    bool sing_c, sing_g;
    const float sc = score_from_dec16(o, dm, cpu, cpu, &sing_c);
    const float sg = score_from_dec16(o, dm, gpu, gpu, &sing_g);
    printf("%-9s %4dx%-4d %2d-bit %s ps %-6g ks %-8g: %zu/%zu samples differ%s\n", method, w, h,
           bpc, layout == 0 ? "planar" : layout == 1 ? "semi  " : "semi16", ps, ks, bad, cpu.size(),
           (sc == sg && sing_c == sing_g) ? "" : ", scores differ");
    return bad != 0 || sc != sg;
}

}  // namespace speed_parity

int parity_speed(const ParityArgs &args)
{
    using namespace speed_parity;
    /* its own fixed seeds (the cases' from 1, the random sizes' 20261204)
     * unless --seed is given; --sizes: the random cases (40) */
    int fails = 0;
    unsigned seed = args.seed_given ? (unsigned)args.seed : 1;
    const unsigned size_seed = args.seed_given ? (unsigned)args.seed : 20261204;
    const int nrandom = args.sizes >= 0 ? args.sizes : 40;
    printf("speed: seed %u (the cases from it), %u (the random sizes)\n", seed, size_seed);
    const char *methods[] = { "nearest", "bilinear", "bicubic", "lanczos4" };
    for (const char *m : methods)
        for (double ps : { 1.0, 0.5, 0.6, 0.37, 1.5, 2.0 })
            fails += run_case(577, 323, 8, ps, m, 1.0, seed++);
    for (double ks : { 0.5, 1.5, 2.0, 360.0 / 97.0, 1.0 / 2.25 })
        fails += run_case(960, 540, 10, 0.6, "bilinear", ks, seed++);
    for (int bpc : { 8, 10, 12, 16 })
        fails += run_case(1920, 1080, bpc, 1.0, "nearest", 1.0, seed++);
    /* the layouts NVDEC gives (nv12, p010, p016) at the v1 models' options */
    for (int layout : { 1, 2 })
        for (int bpc : { 8, 10, 12 })
            if (layout == 1 || bpc > 8)
                fails += run_case(960, 540, bpc, layout == 1 ? 1.0 : 0.5, "bilinear", 1.0, seed++, layout);
    /* random sizes, depths, layouts, methods, prescales and kernelscales */
    const double kss[] = { 1.0, 0.5, 1.5, 2.0, 2.0 / 3.0, 2.4, 360.0 / 97.0, 4.0 / 3.0, 3.0, 1.6 };
    const int bpcs[] = { 8, 10, 12, 16 };
    std::mt19937 rr(size_seed);
    for (int k = 0; k < nrandom; k++) {
        const int w = 160 + (int)(rr() % 900), h = 160 + (int)(rr() % 600);
        const int bpc = bpcs[rr() % 4];
        const int layout = bpc == 8 ? (int)(rr() % 2) : (int)(rr() % 3);
        const double ps = 0.3 + (rr() % 171) / 100.0;   /* 0.3 .. 2.0 */
        fails += run_case(w, h, bpc, ps, methods[rr() % 4], kss[rr() % 10], seed++, layout);
    }
    printf(fails ? "FAIL: %d cases\n" : "all equal\n", fails);
    return fails ? 1 : 0;
}
