/*
 * cpu_speed_temporal.cpp - speed_temporal's CPU table (kernels/module.h):
 * on a scored frame, steps 1-3 of its two luma differences against the frame
 * before (kernels/cpu_speed.cpp's vq_speed_temporal_cpu_dec16), each a long
 * task of its own; after every frame (scored or not) that frame's lumas are
 * kept for the next one.  g->host is the instance's VqSpeedGeom; g->opt[0]
 * is speed_use_ref_diff (the distorted image from dis[n-1] - ref[n]).
 * Section: the flag word (1: the images are there; 0, as the executor
 * cleared it: no frame before), then the two 1/16 images.
 */
#include <new>
#include <vector>

#include "module.h"
#include "speed_exec.h"

namespace {

struct Scratch {
    std::vector<uint16_t> prev[2];  /* the frame before: ref, dis lumas (packed) */
    bool have_prev = false;
};

int cpu_alloc(void **out, const VqModuleGeom *g)
{
    Scratch *s = new (std::nothrow) Scratch;
    try {
        for (int k = 0; s && k < 2; k++)
            s->prev[k].assign((size_t)g->w * g->h, 0);
    } catch (const std::bad_alloc &) {
        delete s;
        s = nullptr;
    }
    *out = s;
    return s ? 0 : -1;
}

void cpu_free(void *s)
{
    delete static_cast<Scratch *>(s);
}

int step_rows(const VqModuleGeom *, int step)
{
    return step == 0 ? VQ_SPEED_T_IMAGES : 0;
}

/* image q: ref[n-1] - ref[n] (q 0); dis[n-1] - dis[n], or - ref[n] with speed_use_ref_diff (q 1) */
void rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
          int64_t *section, int, int q0, int q1)
{
    const Scratch *s = static_cast<const Scratch *>(scratch);
    const VqSpeedGeom *sg = static_cast<const VqSpeedGeom *>(g->host);
    if (!s->have_prev)
        return;
    for (int q = q0; q < q1; q++) {
        const VqPlaneView prev = vq_packed_u16_view(s->prev[q].data(), g->w, g->h);
        const VqPlaneView cur = q == 0 || g->opt[0] ? ref[0] : dis[0];
        vq_speed_temporal_cpu_dec16(sg, prev, cur, g->bpc, (float *)(section + 1) + (size_t)q * sg->ow * sg->oh);
        if (q == 0)
            section[0] = 1;
    }
}

/* this frame becomes the previous one */
void frame_end(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3])
{
    Scratch *s = static_cast<Scratch *>(scratch);
    for (int k = 0; k < 2; k++) {
        const VqPlaneView v = k ? dis[0] : ref[0];
        uint16_t *dst = s->prev[k].data();
        for (int i = 0; i < g->h; i++)
            for (int j = 0; j < g->w; j++)
                dst[(size_t)i * g->w + j] = (uint16_t)vq_sample(v, i, j);
    }
    s->have_prev = true;
}

}  // namespace

extern "C" const VqModuleCpu vq_speed_temporal_cpu = { cpu_alloc, cpu_free, 1, step_rows, rows, 1u, nullptr, nullptr,
                                                       nullptr, frame_end };
