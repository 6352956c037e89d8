/*
 * adm.cpp - the integer ADM module (hostmath/module.hpp): libvmaf v3.2.0's
 * adm extractor (feature/integer_adm.c), its options (integer_adm.c's
 * option table) and outputs.  Its row work (kernels/adm/) leaves per band
 * row of each of the four scales the raw integer sums of the denominators,
 * the CM numerators and the AIM numerators; the fold (adm_fold.h) applies
 * the per-row shifts and the reference's float steps.  Its parameters
 * (adm_params.cpp: band sizes, rectangles, CSF factors, shifts) are made
 * here once per format, with the host's libm.  The reference's part of the
 * work on the GPU (its DWT bands and denominators) is made once for a
 * ladder's renditions (the CUDA table's ref_* hooks).
 */
#include <cstring>
#include <memory>

#include "module.hpp"
#include "adm_outputs.hpp"
#include "adm_fold.h"
#include "adm/adm_exec.h"
#include "c_locale.h"

extern "C" const VqModuleCpu vq_adm_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_adm_module_cuda;
#endif

namespace vq {
namespace {

constexpr OptType B = OptType::Bool, I = OptType::Int, D = OptType::Double;

/* what the tables read (geom) and the fold (all of it) */
struct Setup {
    VqAdmGeom geom;
    unsigned skip;      /* adm_fold.h's VQ_ADM_SKIP_* */
    bool debug;
};

VqAdmOptions adm_options(const FeatureOptions &o)
{
    VqAdmOptions a;
    vq_adm_options_default(&a);
    a.enhn_gain_limit = o.get("adm_enhn_gain_limit");
    a.norm_view_dist = o.get("adm_norm_view_dist");
    a.ref_display_height = (int)o.get("adm_ref_display_height");
    a.noise_weight = o.get("adm_noise_weight");
    a.dlm_weight = o.get("adm_dlm_weight");
    a.min_val = o.get("adm_min_val");
    a.csf_mode = (int)o.get("adm_csf_mode");
    a.csf_scale = o.get("adm_csf_scale");
    a.csf_diag_scale = o.get("adm_csf_diag_scale");
    return a;
}

std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    const VqAdmOptions opt = adm_options(o);
    char nvd[64];
    vq_snprintf_c(nvd, sizeof(nvd), "%g", opt.norm_view_dist);
    if (opt.norm_view_dist * opt.ref_display_height < 3.0 * 1080)
        return std::string("adm: adm_norm_view_dist ") + nvd + " * adm_ref_display_height " +
               std::to_string(opt.ref_display_height) + " is below 3 * 1080, which libvmaf's integer ADM refuses";
    /* libvmaf would score these with a factor of -22 (its -EINVAL as a float) */
    if (!vq_adm_csf_supported(&opt))
        return "adm: adm_csf_mode " + std::to_string(opt.csf_mode) +
               " has no contrast sensitivity table for adm_ref_display_height " +
               std::to_string(opt.ref_display_height) + " at adm_norm_view_dist " + nvd + "; supported: " +
               vq_adm_csf_pairs();
    auto s = std::make_shared<Setup>();
    /* compared with memcmp (share): no stray padding */
    std::memset(&s->geom, 0, sizeof(s->geom));
    if (vq_adm_params_init(&s->geom.p, fmt.width, fmt.height, fmt.bitdepth, &opt) < 0 ||
        vq_adm_params_init(&s->geom.ref_part_params, fmt.width, fmt.height, fmt.bitdepth, nullptr) < 0)
        return "adm cannot score " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) + " " +
               std::to_string(fmt.bitdepth) + "-bit frames with these options (" + o.suffix() + ")";
    /* the layout's ADM sections alone, from the section's start */
    words = vq_row_layout_one(&s->geom.l, fmt.width, fmt.height, VQ_ROWS_ADM);
    s->skip = (o.get("adm_skip_aim") ? (unsigned)VQ_ADM_SKIP_AIM : 0u) |
              (o.get("adm_skip_scale0") ? (unsigned)VQ_ADM_SKIP_SCALE0 : 0u);
    s->debug = o.get("debug") != 0;
    for (int q = 1; q < 3; q++)     /* the luma only */
        g.plane_w[q] = g.plane_h[q] = 0;
    g.host = &s->geom;
    g.fold_host = s.get();
    owner = std::move(s);
    return "";
}

/* instances of the same parameters (differing in what the fold alone
 * reads: adm_skip_aim, adm_skip_scale0, debug) run one row work */
bool share(VqModuleGeom &into, const VqModuleGeom &b)
{
    return !std::memcmp(into.host, b.host, sizeof(VqAdmGeom));
}

/* integer_adm.c's outputs: adm2, aim, adm3, the four scales; under debug
 * extract()'s further ones */
void fold(const VqModuleGeom &g, const int64_t *section, int64_t, void *, double *out)
{
    const Setup &s = *static_cast<const Setup *>(g.fold_host);
    VqAdmScores a;
    vq_adm_fold_skip(&s.geom.p, &s.geom.l, section, s.skip, &a);
    put_adm_outputs(a, s.debug ? 18 : 7, out);
}

FeatureSpec spec()
{
    return FeatureSpec{
        "adm",
        {
            { "debug", nullptr, B, 0, 0, 1, false, true },
            { "adm_csf_scale", "scf", D, 1.0, 0.0, 50.0, true, true },
            { "adm_csf_diag_scale", "scfd", D, 1.0, 0.0, 50.0, true, true },
            { "adm_dlm_weight", "dlmw", D, 0.5, 0.0, 1.0, true, true },
            { "adm_enhn_gain_limit", "egl", D, 100.0, 1.0, 100.0, true, true },
            { "adm_norm_view_dist", "nvd", D, 3.0, 0.75, 24.0, true, true },
            { "adm_ref_display_height", "rdh", I, 1080, 1, 4320, true, true },
            { "adm_csf_mode", "csf", I, 0, 0, 3, true, true },
            { "adm_noise_weight", "nw", D, 0.03125, 0.0, 1500.0, true, true },
            { "adm_skip_aim", nullptr, B, 0, 0, 1, false, true },
            { "adm_skip_scale0", "ssz", B, 0, 0, 1, true, true },
            { "adm_min_val", "min", D, 0.0, 0.0, 1.0, true, true },
        },
        { "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score",
          "VMAF_integer_feature_adm3_score", "integer_adm_scale0", "integer_adm_scale1",
          "integer_adm_scale2", "integer_adm_scale3" },
        { "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score",
          "VMAF_integer_feature_adm3_score", "integer_adm_scale0", "integer_adm_scale1",
          "integer_adm_scale2", "integer_adm_scale3" },
        {},
        /* debug=true: extract()'s further outputs */
        { "integer_adm", "integer_adm_num", "integer_adm_den", "integer_adm_num_scale0",
          "integer_adm_den_scale0", "integer_adm_num_scale1", "integer_adm_den_scale1",
          "integer_adm_num_scale2", "integer_adm_den_scale2", "integer_adm_num_scale3",
          "integer_adm_den_scale3" },
    };
}

}  // namespace

const Module &adm_module()
{
    static const Module m = {
        spec(),
        &vq_adm_module_cpu,
#if VQ_HAVE_CUDA
        &vq_adm_module_cuda,
#else
        nullptr,
#endif
        false,  /* its fold is a few microseconds: on the caller's thread, in frame order */
        false,  /* luma only */
        plan,
        fold,
        share,
    };
    return m;
}

}  // namespace vq
