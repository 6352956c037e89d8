/*
 * float_moment.cpp - the float_moment module (hostmath/module.hpp): libvmaf
 * v3.2.0's float_moment extractor (feature/float_moment.c, moment.c), its row
 * work the float sums (kernels/float_sums/), its fold float_small_fold.h's
 * (each of the four sums / (w h)).  docs/float-small.md.
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
    /* moment.c divides by "w * h", an int */
    const std::string why = int_area_refusal("float_moment", fmt);
    if (!why.empty())
        return why;
    words = VQ_FS_WORDS(fmt.height);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t, void *, double *out)
{
    vq_float_moment_fold(section, g.w, g.h, out);
}

}  // namespace

/* float_moment.c: no options.  It provides "float_moment", a name it never
 * appends (a model naming it would find no value), so here it provides
 * nothing. */
/* a function-local static: made at its first use, whatever the order
 * in which the library's files are initialised */
const Module &float_moment_module()
{
    static const Module m = {
        FeatureSpec{ "float_moment", {}, {},
                     { "float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd" },
                     {} },
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
