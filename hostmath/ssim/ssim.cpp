/*
 * ssim.cpp - the float_ssim and float_ms_ssim modules (hostmath/module.hpp):
 * libvmaf v3.2.0's float_ssim and float_ms_ssim extractors
 * (feature/float_ssim.c, float_ms_ssim.c, ssim.c, ms_ssim.c).  One row work
 * serves both (kernels/ssim/: the per-pixel terms and their sums in raster
 * order, VQ_SSIM_NWORDS words): the second of the two features shares the
 * first's, widened to both (share), as does an instance whose options act in
 * the fold alone (enable_lcs, enable_db, clip_db); float_ssim's decimation
 * (scale) is the row work's (two float_ssim of two scales cannot meet: their
 * outputs' names are the same, and the plan refuses them).  The plans refuse what
 * the reference refuses (depths, sizes); the fold makes the scores with
 * libvmaf's formulas (hostmath/ssim/ssim_fold.h).  docs/ssim.md.
 */
#include <cstdio>
#include <memory>
#include <string>

#include "module.hpp"
#include "ssim/ssim_exec.h"
#include "ssim_fold.h"
#include "vq_error.h"

extern "C" const VqModuleCpu vq_ssim_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_ssim_module_cuda;
#endif

namespace vq {
namespace {

constexpr OptType B = OptType::Bool, I = OptType::Int;

/* what an instance's fold reads */
struct FoldSet {
    VqSsimOptions o;
    bool ms;
};

/* the row work's geometry from its settings (opt[0] features, opt[1] float_ssim's scale or -1) */
int geom_of(const VqModuleGeom &g, VqSsimGeom *sg)
{
    return vq_ssim_module_geom(sg, g.w, g.h, g.bpc, g.opt);
}

std::string plan(bool ms, const char *name, const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g,
                 size_t &words, std::shared_ptr<const void> &owner)
{
    char msg[256] = "";
    if (vq_ssim_check_bpc(fmt.bitdepth, msg, sizeof(msg)) < 0 ||
        (ms ? vq_ms_ssim_check_size(fmt.width, fmt.height, msg, sizeof(msg))
            : vq_ssim_check_size(fmt.width, fmt.height, (int)o.get("scale"), msg, sizeof(msg))) < 0) {
        char why[512];
        std::snprintf(why, sizeof(why), "%s cannot score %dx%d %d-bit frames: %s", name, fmt.width, fmt.height,
                      fmt.bitdepth, msg);
        return why;
    }
    g.opt[0] = ms ? VQ_SSIM_F_MS_SSIM : VQ_SSIM_F_SSIM;
    g.opt[1] = ms ? -1 : (int64_t)o.get("scale");
    VqSsimGeom sg;
    if (geom_of(g, &sg) < 0) {
        char why[256];
        std::snprintf(why, sizeof(why), "float_ssim / float_ms_ssim cannot score %dx%d %d-bit frames", fmt.width,
                      fmt.height, fmt.bitdepth);
        return why;
    }
    auto fs = std::make_shared<FoldSet>();
    fs->o = VqSsimOptions{ (int)o.get("enable_lcs"), (int)o.get("enable_db"), (int)o.get("clip_db") };
    fs->ms = ms;
    words = VQ_SSIM_NWORDS;
    g.fold_host = fs.get();
    owner = std::move(fs);
    return "";
}

std::string plan_ssim(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                      std::shared_ptr<const void> &owner)
{
    return plan(false, "float_ssim", o, fmt, g, words, owner);
}

std::string plan_ms_ssim(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                         std::shared_ptr<const void> &owner)
{
    return plan(true, "float_ms_ssim", o, fmt, g, words, owner);
}

/* the score, then its lcs outputs (the spec's debug_outputs) */
void fold(const VqModuleGeom &g, const int64_t *section, int64_t frame, void *, double *out)
{
    const FoldSet &fs = *static_cast<const FoldSet *>(g.fold_host);
    VqSsimGeom sg;
    VqSsimScores sc;
    char msg[256] = "";
    if (geom_of(g, &sg) < 0 || vq_ssim_fold(&sg, section, &fs.o, &fs.o, &sc, msg, sizeof(msg)) < 0)
        fail(VQ_EINVAL, "frame %lld: %s", (long long)frame, msg);
    vq_ssim_outputs(&sc, fs.ms, &fs.o, out);
}

/* one row work for both features; float_ssim's decimation is the row work's */
bool share(VqModuleGeom &into, const VqModuleGeom &b)
{
    if (into.opt[1] >= 0 && b.opt[1] >= 0 && into.opt[1] != b.opt[1])
        return false;
    into.opt[0] |= b.opt[0];
    if (into.opt[1] < 0)
        into.opt[1] = b.opt[1];
    return true;
}

}  // namespace

/* float_ssim.c / float_ms_ssim.c: enable_lcs appends the means of l, c and
 * s (in this order, after the score; ms: l of scales 0..4, then c, then s);
 * enable_db and clip_db change the score only */
const Module &float_ssim_module()
{
    static const Module m = {
        FeatureSpec{
            "float_ssim",
            {
                { "enable_lcs", nullptr, B, 0, 0, 1, false, true },
                { "enable_db", nullptr, B, 0, 0, 1, false, true },
                { "clip_db", nullptr, B, 0, 0, 1, false, true },
                { "scale", nullptr, I, 0, 0, 10, false, true },
            },
            { "float_ssim" }, { "float_ssim" }, {},
            { "float_ssim_l", "float_ssim_c", "float_ssim_s" }, "enable_lcs",
        },
        &vq_ssim_module_cpu,
#if VQ_HAVE_CUDA
        &vq_ssim_module_cuda,
#else
        nullptr,
#endif
        true,   /* the fold reads the section and the options alone */
        false,  /* the luma only */
        plan_ssim,
        fold,
        share,
    };
    return m;
}

const Module &float_ms_ssim_module()
{
    static const Module m = {
        FeatureSpec{
            "float_ms_ssim",
            {
                { "enable_lcs", nullptr, B, 0, 0, 1, false, true },
                { "enable_db", nullptr, B, 0, 0, 1, false, true },
                { "clip_db", nullptr, B, 0, 0, 1, false, true },
            },
            { "float_ms_ssim" }, { "float_ms_ssim" }, {},
            { "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
              "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4", "float_ms_ssim_c_scale0",
              "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2", "float_ms_ssim_c_scale3",
              "float_ms_ssim_c_scale4", "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1",
              "float_ms_ssim_s_scale2", "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4" },
            "enable_lcs",
        },
        &vq_ssim_module_cpu,
#if VQ_HAVE_CUDA
        &vq_ssim_module_cuda,
#else
        nullptr,
#endif
        true,
        false,
        plan_ms_ssim,
        fold,
        share,
    };
    return m;
}

}  // namespace vq
