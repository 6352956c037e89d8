/*
 * psnr_hvs_module.cpp - the psnr_hvs module (hostmath/module.hpp): libvmaf
 * v3.2.0's psnr_hvs extractor (feature/third_party/xiph/psnr_hvs.c), no
 * options.  Its plan refuses what the reference refuses (bpc > 12, gray)
 * and planes without one 8x8 block (the reference divides 0 by 0 there);
 * its row work (kernels/psnr_hvs/) leaves each plane's float sum in its
 * section's three words; its fold (psnr_hvs_fold.h) makes the four scores.
 * docs/psnr_hvs.md.
 */
#include <cstdio>
#include <memory>

#include "module.hpp"
#include "psnr_hvs/psnr_hvs_exec.h"
#include "psnr_hvs_fold.h"

extern "C" const VqModuleCpu vq_psnr_hvs_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_psnr_hvs_module_cuda;
#endif

namespace vq {
namespace {

std::string plan(const FeatureOptions &, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &)
{
    char msg[256] = "";
    const int nplanes = fmt.layout == VQ_LAYOUT_GRAY ? 1 : 3;
    if (vq_psnr_hvs_check(fmt.bitdepth, nplanes, g.plane_w, g.plane_h, msg, sizeof(msg)) < 0) {
        char why[400];
        snprintf(why, sizeof(why), "psnr_hvs cannot score %dx%d %d-bit frames: %s", fmt.width, fmt.height,
                 fmt.bitdepth, msg);
        return why;
    }
    words = VQ_PSNR_HVS_WORDS;
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t, void *, double *out)
{
    vq_psnr_hvs_fold(section, g.plane_w, g.plane_h, g.bpc, out);
}

}  // namespace

const Module &psnr_hvs_module()
{
    static const Module m = {
        FeatureSpec{
            "psnr_hvs", {},   /* psnr_hvs.c has no options */
            { "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs" },
            { "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs" },
            {},
        },
        &vq_psnr_hvs_module_cpu,
#if VQ_HAVE_CUDA
        &vq_psnr_hvs_module_cuda,
#else
        nullptr,
#endif
        true,   /* the fold reads the section and the plane sizes alone */
        true,   /* the chroma planes */
        plan,
        fold,
    };
    return m;
}

}  // namespace vq
