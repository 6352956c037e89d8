/*
 * cuda_float_ansnr.cu - float_ansnr's CUDA table (kernels/module.h): the
 * kernels of kernels/cuda_float_small.cu (the planes to float, the two
 * filters at every pixel, a thread per row adding its columns in order),
 * with four float images of its own as scratch.  docs/float-small.md.
 */
#include "module.h"
#include "float_small_exec.h"

namespace {

int cuda_alloc(void **out, const VqModuleGeom *g)
{
    VqFloatSmallCuda *c = nullptr;
    const int e = vq_fs_cuda_alloc(&c, g->w, g->h, 1);
    *out = c;
    return e;
}

void cuda_free(void *s)
{
    vq_fs_cuda_free(static_cast<VqFloatSmallCuda *>(s));
}

int enqueue(void *s, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3], int64_t *d_section,
            void *stream, int)
{
    return vq_ansnr_cuda_run(static_cast<VqFloatSmallCuda *>(s), ref[0], dis[0], g->bpc, d_section, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_float_ansnr_cuda = { cuda_alloc, cuda_free, enqueue };
