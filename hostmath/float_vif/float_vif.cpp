/*
 * float_vif.cpp - the float_vif module (hostmath/module.hpp): libvmaf
 * v3.2.0's float_vif extractor (feature/float_vif.c, vif.c, vif_tools.c).
 * Its plan checks the options and the size as the reference's init does
 * and makes the set-up (float_vif_fold.h's Setup: the taps, sigma_max_inv,
 * the prescale's lanczos4 tables, the executors' VqFloatVifGeom); its row
 * work (kernels/float_vif/) leaves per row of each scale the float num and
 * den sums; its fold adds the rows in order and makes the scores.  Options
 * that act in the fold alone (the scales' min_val, debug) share one
 * section.  docs/float-vif.md.
 */
#include <cstring>
#include <memory>

#include "float_vif/float_vif_exec.h"
#include "float_vif_fold.h"
#include "module.hpp"
#include "speed_chroma.hpp"

extern "C" const VqModuleCpu vq_float_vif_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_float_vif_module_cuda;
#endif

namespace vq {
namespace {

constexpr OptType B = OptType::Bool, D = OptType::Double, E = OptType::Enum;

fvif::Options options(const FeatureOptions &o)
{
    fvif::Options v;
    v.enhn_gain_limit = o.get("vif_enhn_gain_limit");
    v.kernelscale = o.get("vif_kernelscale");
    v.prescale = o.get("vif_prescale");
    v.prescale_method = o.get_str("vif_prescale_method");
    v.sigma_nsq = o.get("vif_sigma_nsq");
    v.skip_scale0 = o.get("vif_skip_scale0") != 0;
    v.min_val[0] = o.get("vif_scale1_min_val");
    v.min_val[1] = o.get("vif_scale2_min_val");
    v.min_val[2] = o.get("vif_scale3_min_val");
    v.debug = o.get("debug") != 0;
    return v;
}

std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    auto st = std::make_shared<fvif::Setup>();
    st->opt = options(o);
    const std::string why = fvif::check(st->opt, fmt.width, fmt.height, fmt.bitdepth);
    if (!why.empty())
        return frame_refusal(why, fmt);
    fvif::fill_geom(*st, fmt.width, fmt.height);
    words = st->geom.words;
    g.host = &st->geom;         /* the executors' tables read the geometry */
    g.fold_host = st.get();     /* the fold, the options too */
    owner = std::move(st);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t, void *, double *out)
{
    const fvif::Setup &st = *static_cast<const fvif::Setup *>(g.fold_host);
    /* the section's geometry is its row work's (g.host): that of the first
     * instance that shares it, equal to this one's but for table addresses */
    fvif::fold(*static_cast<const VqFloatVifGeom *>(g.host), st.opt, section, out);
}

/* one row work per geometry (min_val and debug act in the fold) */
bool share(VqModuleGeom &into, const VqModuleGeom &b)
{
    return !std::memcmp(into.host, b.host, sizeof(VqFloatVifGeom));
}

}  // namespace

const Module &float_vif_module()
{
    static const Module m = {
        FeatureSpec{
            "float_vif",
            {
                { "debug", nullptr, B, 0, 0, 1, false, true },
                { "vif_enhn_gain_limit", "egl", D, 100.0, 1.0, 100.0, true, true },
                { "vif_kernelscale", "ks", D, 1.0, 0.1, 4.0, true, true },
                { "vif_prescale", "ps", D, 1.0, 0.1, 4.0, true, true },
                { "vif_scale1_min_val", "s1miv", D, 0.0, 0.0, 1.0, true, true },
                { "vif_scale2_min_val", "s2miv", D, 0.0, 0.0, 1.0, true, true },
                { "vif_scale3_min_val", "s3miv", D, 0.0, 0.0, 1.0, true, true },
                { "vif_prescale_method", "pm", E, 0, 0, 3, true, true, speed::prescale_methods },
                { "vif_sigma_nsq", "snsq", D, 2.0, 0.0, 5.0, true, true },
                { "vif_skip_scale0", "ssclz", B, 0, 0, 1, true, true },
            },
            { "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
              "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score" },
            { "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
              "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score" },
            {},
            /* debug=true: extract()'s further outputs (no alias: printed as they are) */
            { "vif", "vif_num", "vif_den", "vif_num_scale0", "vif_den_scale0", "vif_num_scale1",
              "vif_den_scale1", "vif_num_scale2", "vif_den_scale2", "vif_num_scale3", "vif_den_scale3" },
        },
        &vq_float_vif_module_cpu,
#if VQ_HAVE_CUDA
        &vq_float_vif_module_cuda,
#else
        nullptr,
#endif
        true,   /* the fold reads the section and the set-up alone */
        false,  /* the luma only */
        plan,
        fold,
        share,
    };
    return m;
}

}  // namespace vq
