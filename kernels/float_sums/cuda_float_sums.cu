/*
 * cuda_float_sums.cu - the CUDA table (kernels/module.h) of the float sums
 * float_psnr and float_moment share: kernels/cuda_float_small.cu's warp per
 * row (exact integer sums) and finishing block.  docs/float-small.md.
 */
#include "module.h"
#include "float_small_exec.h"

namespace {

int cuda_alloc(void **out, const VqModuleGeom *g)
{
    VqFloatSmallCuda *c = nullptr;
    const int e = vq_fs_cuda_alloc(&c, g->w, g->h, 0);
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
    return vq_fs_cuda_run(static_cast<VqFloatSmallCuda *>(s), ref[0], dis[0], g->bpc, d_section, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_float_sums_cuda = { cuda_alloc, cuda_free, enqueue };
