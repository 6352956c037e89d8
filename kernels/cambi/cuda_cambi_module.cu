/*
 * cuda_cambi_module.cu - the cambi module's CUDA table (module.h): on the
 * instance's stream, the distorted luma's pass (cuda_cambi.cu), with
 * heatmaps_path its c-values copied into the section, then with full_ref
 * the source pass on the reference luma (cambi_module.h's section).  No
 * kernel of its own: the passes' kernels are cuda_cambi.cu's.
 */
#include <cuda_runtime.h>

#include <new>

#include "cambi/cambi_exec.h"
#include "cambi/cambi_module.h"
#include "module.h"

namespace {

struct Scratch {
    VqCambiCuda *c[2] = { nullptr, nullptr };
};

const VqCambiModuleHost &host(const VqModuleGeom *g)
{
    return *static_cast<const VqCambiModuleHost *>(g->host);
}

int cambi_alloc(void **scratch, const VqModuleGeom *g)
{
    const VqCambiModuleHost &h = host(g);
    Scratch *s = new (std::nothrow) Scratch;
    *scratch = s;
    if (!s)
        return (int)cudaErrorMemoryAllocation;
    for (int k = 0; k < h.passes; k++) {
        const int ret = vq_cambi_cuda_alloc(&s->c[k], &h.p[k], h.t[k]);
        if (ret)
            return ret;
    }
    return 0;
}

void cambi_free(void *scratch)
{
    Scratch *s = static_cast<Scratch *>(scratch);
    for (VqCambiCuda *c : s->c)
        if (c)
            vq_cambi_cuda_free(c);
    delete s;
}

int cambi_enqueue(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                  int64_t *d_section, void *stream, int slot)
{
    (void)slot;
    Scratch *sc = static_cast<Scratch *>(scratch);
    const VqCambiModuleHost &h = host(g);
    int ret = vq_cambi_cuda_run(sc->c[0], dis[0], &h.l[0], d_section, stream);
    /* heatmaps_path: the distorted pass's c-values ride in the row buffer */
    for (int s = 0; !ret && h.cv && s < VQ_CAMBI_SCALES; s++)
        ret = vq_cambi_cuda_cvalues_device(sc->c[0], s, (float *)(d_section + h.cv_off[s]), stream);
    /* full_ref: the same kernels with the source pass's parameters on the
     * reference luma, after the distorted pass */
    if (!ret && h.passes > 1)
        ret = vq_cambi_cuda_run(sc->c[1], ref[0], &h.l[1], d_section, stream);
    return ret;
}

}  // namespace

extern "C" const VqModuleCuda vq_cambi_module_cuda = {
    cambi_alloc,
    cambi_free,
    cambi_enqueue,
    nullptr,    /* collect */
    nullptr,    /* fold_data */
    nullptr,    /* enqueue_every */
    nullptr,    /* phase */
    nullptr,    /* replayed */
};
