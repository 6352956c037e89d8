/*
 * ciede.cpp - the ciede module (hostmath/module.hpp): libvmaf v3.2.0's ciede
 * extractor (feature/ciede.c), no options.  Its plan refuses what the
 * reference refuses or would compute from memory it never wrote
 * (vq_ciede_check); its row work (kernels/ciede/) leaves per row its sum's
 * words, a pathological frame's list, and keeps each pixel's word for the
 * fold (the executor's fold_data); its fold adds the rows in the
 * reference's order and makes the score.  docs/ciede.md.
 */
#include <cstdio>
#include <memory>

#include "ciede/ciede_exec.h"
#include "ciede_fold.h"
#include "module.hpp"
#include "vq_error.h"

extern "C" const VqModuleCpu vq_ciede_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_ciede_module_cuda;
#endif

namespace vq {
namespace {

std::string plan(const FeatureOptions &, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    char msg[256] = "";
    if (vq_ciede_check(fmt.width, fmt.height, fmt.bitdepth, fmt.chroma_shift_w, fmt.chroma_shift_h,
                       fmt.layout != VQ_LAYOUT_GRAY, msg, sizeof(msg)) < 0) {
        char why[400];
        std::snprintf(why, sizeof(why), "ciede cannot score %dx%d %d-bit frames: %s", fmt.width, fmt.height,
                      fmt.bitdepth, msg);
        return why;
    }
    auto geom = std::make_shared<VqCiedeGeom>(
        vq_ciede_geom(fmt.width, fmt.height, fmt.chroma_shift_w, fmt.chroma_shift_h, fmt.bitdepth));
    words = vq_ciede_buffer_words(fmt.width, fmt.height);
    g.host = geom.get();
    owner = std::move(geom);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t frame, void *, double *out)
{
    const VqCiedeFoldData *fd = static_cast<const VqCiedeFoldData *>(g.exec_data);
    char msg[256] = "";
    if (vq_ciede_fold(static_cast<const VqCiedeGeom *>(g.host), section, fd ? fd->extra : nullptr,
                      fd ? &fd->src : nullptr, &out[0], msg, sizeof(msg)) < 0)
        fail(VQ_EINVAL, "frame %lld: ciede: %s", (long long)frame, msg);
}

}  // namespace

const Module &ciede_module()
{
    static const Module m = {
        FeatureSpec{
            "ciede", {},   /* ciede.c has no options */
            { "ciede2000" }, { "ciede2000" }, {},
        },
        &vq_ciede_module_cpu,
#if VQ_HAVE_CUDA
        &vq_ciede_module_cuda,
#else
        nullptr,
#endif
        false,  /* the fold reads the executor's pixel words, valid until its next frame */
        true,   /* the chroma planes */
        plan,
        fold,
    };
    return m;
}

}  // namespace vq
