/*
 * float_ansnr.cpp - the float_ansnr module (hostmath/module.hpp): libvmaf
 * v3.2.0's float_ansnr extractor (feature/float_ansnr.c, ansnr.c,
 * ansnr_tools.c), its row work in kernels/float_ansnr/, its fold
 * (float_small_fold.h: the rows' float sums in row order, then
 * float_ansnr and float_anpsnr).  docs/float-small.md.
 */
#include <cstdint>

#include "module.hpp"
#include "float_small_exec.h"
#include "float_small_fold.h"

extern "C" const VqModuleCpu vq_float_ansnr_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_float_ansnr_cuda;
#endif

namespace vq {
namespace {

std::string plan(const FeatureOptions &, const VqFormat &fmt, VqModuleGeom &, size_t &words,
                 std::shared_ptr<const void> &)
{
    /* ansnr.c divides by and multiplies with "w * h", an int; float_ansnr.c's
     * init takes 8, 10, 12 and 16 bits (the session's formats) */
    const std::string why = int_area_refusal("float_ansnr", fmt);
    if (!why.empty())
        return why;
    words = VQ_ANSNR_WORDS(fmt.height);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t, void *, double *out)
{
    vq_float_ansnr_fold(section, g.w, g.h, g.bpc, out);
}

}  // namespace

/* float_ansnr.c: no options; it provides "float_ansnr" (a model may ask for
 * it) but not "float_anpsnr" */
/* a function-local static: made at its first use, whatever the order
 * in which the library's files are initialised */
const Module &float_ansnr_module()
{
    static const Module m = {
        FeatureSpec{ "float_ansnr", {}, { "float_ansnr" }, { "float_ansnr", "float_anpsnr" }, {} },
        &vq_float_ansnr_cpu,
#if VQ_HAVE_CUDA
        &vq_float_ansnr_cuda,
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
