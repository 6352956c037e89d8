/*
 * cuda_speed_chroma.cu - speed_chroma's CUDA table (kernels/module.h): steps
 * 1-3 of the four chroma planes (kernels/cuda_speed.cu), each 1/16 image into
 * the section; the host runs steps 4-7 in the fold.  docs/speed.md.
 */
#include <cuda_runtime.h>

#include "module.h"
#include "speed_exec.h"

namespace {

int cuda_alloc(void **out, const VqModuleGeom *g)
{
    VqSpeedCuda *c = vq_speed_cuda_alloc(static_cast<const VqSpeedGeom *>(g->host));
    *out = c;
    return c ? 0 : (int)cudaErrorMemoryAllocation;
}

void cuda_free(void *s)
{
    vq_speed_cuda_free(static_cast<VqSpeedCuda *>(s));
}

int enqueue(void *s, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3], int64_t *d_section,
            void *stream, int)
{
    const VqSpeedGeom *sg = static_cast<const VqSpeedGeom *>(g->host);
    const VqPlaneView planes[VQ_SPEED_IMAGES] = { ref[1], ref[2], dis[1], dis[2] };
    const size_t n = (size_t)sg->ow * sg->oh;
    for (int q = 0; q < VQ_SPEED_IMAGES; q++) {
        const int e = vq_speed_cuda_run(static_cast<VqSpeedCuda *>(s), planes[q], g->bpc,
                                        (float *)d_section + q * n, stream);
        if (e)
            return e;
    }
    return 0;
}

}  // namespace

extern "C" const VqModuleCuda vq_speed_chroma_cuda = { cuda_alloc, cuda_free, enqueue };
