/*
 * cpu_speed.cpp - speed_chroma's and speed_temporal's steps 1-3 on the CPU
 * (docs/speed.md, docs/float-small.md): the same kernels/speed.h functions
 * the CUDA kernels of cuda_speed.cu call, in plain loops, on the same
 * geometry (VqSpeedGeom, filled by hostmath's fill_geom).  The whole plane
 * is converted (speed_temporal: the frame difference) and, when the
 * prescale runs, scaled; the anti-alias filter runs at the kept samples
 * only.
 */
#include <vector>

#include "speed.h"
#include "speed_exec.h"

namespace {

// steps 2-3 on the float plane f (w x h, packed)
void dec16_float(const VqSpeedGeom *g, const float *f, float *out)
{
    // 2. the prescale (sw x sh), when it runs
    std::vector<float> sc;
    const float *img = f;
    int stride = g->w;
    if (g->scaled) {
        sc.resize((size_t)g->sw * g->sh);
        for (int y = 0; y < g->sh; y++)
            for (int x = 0; x < g->sw; x++)
                sc[(size_t)y * g->sw + x] = vq_speed_prescale_at(g->method, f, g->w, g->h, g->w, g->ratio_x,
                                                                 g->ratio_y, x, y, g->lx0, g->ly0, g->lwx, g->lwy);
        img = sc.data();
        stride = g->sw;
    }
    // 3. the anti-alias filter, every 16th row and column
    for (int r = 0; r < g->oh; r++)
        for (int c = 0; c < g->ow; c++)
            out[(size_t)r * g->ow + c] = vq_speed_aa_dec16(img, g->sw, g->sh, stride, g->taps, g->fw, r, c);
}

}  // namespace

void vq_speed_cpu_dec16(const VqSpeedGeom *g, VqPlaneView plane, int bpc, float *out)
{
    // 1. the float plane (w x h)
    std::vector<float> f((size_t)g->w * g->h);
    for (int i = 0; i < g->h; i++)
        for (int j = 0; j < g->w; j++)
            f[(size_t)i * g->w + j] = vq_speed_to_float(vq_sample(plane, i, j), bpc);
    dec16_float(g, f.data(), out);
}

void vq_speed_temporal_cpu_dec16(const VqSpeedGeom *g, VqPlaneView prev, VqPlaneView cur, int bpc, float *out)
{
    // 1. the float difference of the two frames (w x h)
    std::vector<float> f((size_t)g->w * g->h);
    for (int i = 0; i < g->h; i++)
        for (int j = 0; j < g->w; j++)
            f[(size_t)i * g->w + j] = vq_speed_temporal_diff(vq_sample(prev, i, j), vq_sample(cur, i, j), bpc);
    dec16_float(g, f.data(), out);
}
