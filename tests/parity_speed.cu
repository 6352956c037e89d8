/*
 * parity_speed.cu - speed_chroma's steps 1-3 on the GPU (kernels/cuda_speed.cu)
 * == on the CPU (hostmath/speed_chroma.cpp's dec16_image), bit for bit, on
 * random planes: every prescale method, down- and upscales, kernelscales,
 * 8 to 16 bits; then the scores from either side's 1/16 images.
 * Exit 0: equal; 1: a difference; 77: no CUDA device.
 */
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "speed.h"
#include "speed_chroma.hpp"
#include "speed_exec.h"

using namespace vq::speed;

static int run_case(int w, int h, int bpc, double ps, const char *method, double ks,
                    unsigned seed)
{
    Options o;
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
    std::vector<uint8_t> host((size_t)w * h * bytes);
    for (size_t i = 0; i < host.size() / bytes; i++) {
        const uint32_t v = rng() & ((1u << bpc) - 1);
        if (bytes == 1)
            host[i] = (uint8_t)v;
        else
            ((uint16_t *)host.data())[i] = (uint16_t)v;
    }
    const VqPlaneView hv = { host.data(), (ptrdiff_t)w * bytes, w, h, bytes, 0, 1 };
    const std::vector<float> cpu = dec16_image(o, dm, hv, bpc);

    VqSpeedGeom g;
    memset(&g, 0, sizeof g);
    g.w = dm.w; g.h = dm.h; g.sw = dm.sw; g.sh = dm.sh; g.ow = dm.ow; g.oh = dm.oh;
    g.scaled = dm.scaled && (dm.sw != dm.w || dm.sh != dm.h);
    g.method = scale_method(o.prescale_method);
    g.ratio_x = (float)dm.w / dm.sw;
    g.ratio_y = (float)dm.h / dm.sh;
    const std::vector<float> taps = antialias_taps((float)ks);
    g.fw = (int)taps.size();
    memcpy(g.taps, taps.data(), sizeof(float) * taps.size());
    std::vector<float> lwx, lwy;
    std::vector<int> lx0, ly0;
    if (g.scaled && g.method == VQ_SPEED_LANCZOS4) {
        lanczos4_weights(dm.sw, g.ratio_x, lwx, lx0);
        lanczos4_weights(dm.sh, g.ratio_y, lwy, ly0);
        g.lx0 = lx0.data(); g.ly0 = ly0.data(); g.lwx = lwx.data(); g.lwy = lwy.data();
    }
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
    dv.data = dev;
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
    printf("%-9s %4dx%-4d %2d-bit ps %-4g ks %-8g: %zu/%zu samples differ%s\n", method, w, h,
           bpc, ps, ks, bad, cpu.size(), (sc == sg && sing_c == sing_g) ? "" : ", scores differ");
    return bad != 0 || sc != sg;
}

int main()
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
        printf("no CUDA device\n");
        return 77;
    }
    int fails = 0;
    unsigned seed = 1;
    const char *methods[] = { "nearest", "bilinear", "bicubic", "lanczos4" };
    for (const char *m : methods)
        for (double ps : { 1.0, 0.5, 0.6, 0.37, 1.5, 2.0 })
            fails += run_case(577, 323, 8, ps, m, 1.0, seed++);
    for (double ks : { 0.5, 1.5, 2.0, 360.0 / 97.0, 1.0 / 2.25 })
        fails += run_case(960, 540, 10, 0.6, "bilinear", ks, seed++);
    for (int bpc : { 8, 10, 12, 16 })
        fails += run_case(1920, 1080, bpc, 1.0, "nearest", 1.0, seed++);
    printf(fails ? "FAIL: %d cases\n" : "all equal\n", fails);
    return fails ? 1 : 0;
}
