/*
 * cuda_speed_temporal.cu - speed_temporal's CUDA table (kernels/module.h)
 * around kernels/cuda_speed.cu's kernels: on a scored frame the flag word
 * and steps 1-3 of the two luma differences against the kept frame (zero
 * images and flag 0 while there is none: the device flag, so that every
 * frame's graph is the same); on every frame, after them, the frame's
 * lumas are kept.  g->host is the instance's VqSpeedGeom; g->opt[0] is
 * speed_use_ref_diff.
 */
#include <new>

#include <cuda_runtime.h>

#include "module.h"
#include "speed_exec.h"

namespace {

struct Scratch {
    VqSpeedCuda *c = nullptr;
    uint16_t *prev[2] = { nullptr, nullptr };   /* the frame before: ref, dis lumas (packed) */
    int *have_prev = nullptr;                   /* device: 1 once a frame was kept */
};

void cuda_free(void *scratch)
{
    Scratch *s = static_cast<Scratch *>(scratch);
    if (!s)
        return;
    vq_speed_cuda_free(s->c);
    for (int k = 0; k < 2; k++)
        cudaFree(s->prev[k]);
    cudaFree(s->have_prev);
    delete s;
}

int cuda_alloc(void **out, const VqModuleGeom *g)
{
    Scratch *s = new (std::nothrow) Scratch;
    *out = s;
    if (!s)
        return (int)cudaErrorMemoryAllocation;
    if (!(s->c = vq_speed_cuda_alloc(static_cast<const VqSpeedGeom *>(g->host))))
        return (int)cudaErrorMemoryAllocation;
    cudaError_t e = cudaSuccess;
    for (int k = 0; k < 2 && e == cudaSuccess; k++)
        e = cudaMalloc(&s->prev[k], (size_t)g->w * g->h * sizeof(uint16_t));
    if (e == cudaSuccess)
        e = cudaMalloc(&s->have_prev, sizeof(int));
    if (e == cudaSuccess)
        e = cudaMemset(s->have_prev, 0, sizeof(int));
    if (e == cudaSuccess)   /* before any kernel of a non-blocking stream reads it */
        e = cudaDeviceSynchronize();
    return (int)e;
}

int enqueue(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
            int64_t *d_section, void *stream, int)
{
    Scratch *s = static_cast<Scratch *>(scratch);
    const VqSpeedGeom *sg = static_cast<const VqSpeedGeom *>(g->host);
    const size_t n = (size_t)sg->ow * sg->oh;
    int ret = vq_speed_temporal_cuda_flag(s->have_prev, d_section, stream);
    for (int q = 0; !ret && q < VQ_SPEED_T_IMAGES; q++) {
        /* extract(): ref[n-1] - ref[n]; dis[n-1] - dis[n], or - ref[n] (speed_use_ref_diff) */
        const VqPlaneView prev = vq_packed_u16_view(s->prev[q], g->w, g->h);
        const VqPlaneView cur = q == 0 || g->opt[0] ? ref[0] : dis[0];
        ret = vq_speed_temporal_cuda_run(s->c, prev, cur, g->bpc, s->have_prev, (float *)(d_section + 1) + q * n,
                                         stream);
    }
    return ret;
}

/* every frame (scored or not) becomes the next one's previous frame */
int enqueue_every(void *scratch, const VqModuleGeom *, const VqPlaneView ref[3], const VqPlaneView dis[3],
                  void *stream)
{
    Scratch *s = static_cast<Scratch *>(scratch);
    return vq_speed_temporal_cuda_keep(ref[0], dis[0], s->prev[0], s->prev[1], s->have_prev, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_speed_temporal_cuda = { cuda_alloc, cuda_free, enqueue, nullptr, nullptr,
                                                         enqueue_every };
