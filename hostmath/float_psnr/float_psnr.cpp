/*
 * float_psnr.cpp - the float_psnr module (hostmath/module.hpp): libvmaf
 * v3.2.0's float_psnr extractor (feature/float_psnr.c, psnr.c), its row work
 * the float sums (kernels/float_sums/), its fold float_small_fold.h's
 * (MIN(10 log10(peak^2 / MAX(noise / (w h), 1e-10)), psnr_max)).
 * docs/float-small.md.
 */
#include <cstdint>

#include "module.hpp"
#include "float_small_exec.h"
#include "float_small_fold.h"

extern "C" const VqModuleCpu vq_float_sums_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_float_sums_cuda;
#endif

namespace vq {
namespace {

std::string plan(const FeatureOptions &, const VqFormat &fmt, VqModuleGeom &, size_t &words,
                 std::shared_ptr<const void> &)
{
    /* psnr.c divides by "w * h", an int; float_psnr.c's init takes 8, 10,
     * 12 and 16 bits (the session's formats) */
    const std::string why = int_area_refusal("float_psnr", fmt);
    if (!why.empty())
        return why;
    words = VQ_FS_WORDS(fmt.height);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t, void *, double *out)
{
    out[0] = vq_float_psnr_fold(section, g.w, g.h, g.bpc);
}

}  // namespace

/* float_psnr.c: no options */
/* a function-local static: made at its first use, whatever the order
 * in which the library's files are initialised */
const Module &float_psnr_module()
{
    static const Module m = {
        FeatureSpec{ "float_psnr", {}, { "float_psnr" }, { "float_psnr" }, {} },
        &vq_float_sums_cpu,
#if VQ_HAVE_CUDA
        &vq_float_sums_cuda,
#else
        nullptr,
#endif
        true,
        false,
        plan,
        fold,
    };
    return m;
}

}  // namespace vq
