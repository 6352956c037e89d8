/*
 * float_adm.cpp - the float_adm module (hostmath/module.hpp): libvmaf
 * v3.2.0's float_adm extractor (feature/float_adm.c, adm.c, adm_tools.c).
 * Its plan turns the options into the kernels' parameters (the CSF factors
 * with libm, float_adm_fold.h) and picks the reciprocal table its divisions
 * reproduce (rcp, vqcuda's own option: hostmath/float_adm/rcp_select.cpp); its row
 * work (kernels/float_adm/) leaves per band row of each scale the row's
 * float sums; its fold adds the rows in order and makes the scores.
 * Options that act in the fold alone (debug) share one section; the CUDA
 * executor refuses an adm_p_norm other than 3 where the host's powf is not
 * glibc's.  docs/float-adm.md.
 */
#include <cstring>
#include <memory>
#include <string>

#include "adm_outputs.hpp"
#include "float_adm/float_adm_exec.h"
#include "float_adm_fold.h"
#include "module.hpp"
#include "rcp_select.h"
#include "vq_error.h"

extern "C" const VqModuleCpu vq_float_adm_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_float_adm_module_cuda;
#endif

namespace vq {
namespace {

constexpr OptType B = OptType::Bool, I = OptType::Int, D = OptType::Double, E = OptType::Enum;
/* rcp (vqcuda's own option): whose RCPSS its divisions reproduce */
const char *const rcp_choices[] = { "auto", "amd", "intel", "div", nullptr };

VqFadmOptions options(const FeatureOptions &o)
{
    VqFadmOptions a;
    vq_fadm_options_default(&a);
    a.enhn_gain_limit = o.get("adm_enhn_gain_limit");
    a.norm_view_dist = o.get("adm_norm_view_dist");
    a.noise_weight = o.get("adm_noise_weight");
    a.csf_scale = o.get("adm_csf_scale");
    a.csf_diag_scale = o.get("adm_csf_diag_scale");
    a.ref_display_height = (int)o.get("adm_ref_display_height");
    a.csf_mode = (int)o.get("adm_csf_mode");
    a.bypass_cm = (int)o.get("adm_bypass_cm");
    a.adm3_apply_hm = (int)o.get("adm_adm3_apply_hm");
    a.p_norm = o.get("adm_p_norm");
    a.dlm_weight = o.get("adm_dlm_weight");
    a.min_val = o.get("adm_min_val");
    static const char *const f1[4] = { "adm_f1s0", "adm_f1s1", "adm_f1s2", "adm_f1s3" };
    static const char *const f2[4] = { "adm_f2s0", "adm_f2s1", "adm_f2s2", "adm_f2s3" };
    for (int s = 0; s < 4; s++) {
        a.f1s[s] = o.get(f1[s]);
        a.f2s[s] = o.get(f2[s]);
    }
    a.skip_aim_scale = (int)o.get("adm_skip_aim_scale");
    a.skip_scale0 = (int)o.get("adm_skip_scale0");
    return a;
}

/* the instance: the executors' part (a kernels/ type) and the fold's */
struct Setup {
    VqFadmInstance inst;
    bool debug;
};

std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    char msg[512] = "";
    const VqRcpTable *rcp = vq_rcp_select(o.get_str("rcp"), msg, sizeof(msg));
    if (!rcp)
        return std::string("float_adm: ") + msg;
    auto st = std::make_shared<Setup>();
    const VqFadmOptions fo = options(o);
    if (vq_fadm_params_init(&st->inst.p, fmt.width, fmt.height, fmt.bitdepth, &fo, rcp->mode, msg, sizeof(msg)) < 0)
        return frame_refusal(msg, fmt);
    st->inst.rcp = rcp;
    vq_fadm_instance_layout(&st->inst);
    st->debug = o.get("debug") != 0;
    words = st->inst.words;
    if (!st->inst.p.powf_gpu)
        g.cuda_lacks = "float_adm (adm_p_norm other than 3 with a host powf other than glibc's)";
    g.host = &st->inst;
    g.fold_host = st.get();
    owner = std::move(st);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t frame, void *, double *out)
{
    const Setup &st = *static_cast<const Setup *>(g.fold_host);
    const VqFadmInstance &in = *static_cast<const VqFadmInstance *>(g.host);
    VqFadmScores a;
    char msg[256] = "";
    if (vq_fadm_fold(&in.p, section, in.off, &a, msg, sizeof(msg)) < 0)
        fail(VQ_EINVAL, "frame %lld: %s", (long long)frame, msg);
    put_adm_outputs(a, st.debug ? 18 : 7, out);
}

/* one row work per parameter set and table (debug acts in the fold) */
bool share(VqModuleGeom &into, const VqModuleGeom &b)
{
    const VqFadmInstance &x = *static_cast<const VqFadmInstance *>(into.host);
    const VqFadmInstance &y = *static_cast<const VqFadmInstance *>(b.host);
    return !std::memcmp(&x.p, &y.p, sizeof(x.p)) && x.rcp == y.rcp;
}

}  // namespace

/* float_adm.c (libvmaf's order; its alias of adm_ref_display_height is
 * "rdf"); rcp is vqcuda's: which CPU's approximate reciprocal the
 * divisions reproduce (docs/float-adm.md), not a feature parameter */
const Module &float_adm_module()
{
    static const Module m = {
        FeatureSpec{
            "float_adm",
            {
                { "debug", nullptr, B, 0, 0, 1, false, true },
                { "adm_enhn_gain_limit", "egl", D, 100.0, 1.0, 100.0, true, true },
                { "adm_norm_view_dist", "nvd", D, 3.0, 0.75, 24.0, true, true },
                { "adm_noise_weight", "nw", D, 0.03125, 0.0, 1500.0, true, true },
                { "adm_csf_scale", "scf", D, 1.0, 0.0, 50.0, true, true },
                { "adm_csf_diag_scale", "scfd", D, 1.0, 0.0, 50.0, true, true },
                { "adm_ref_display_height", "rdf", I, 1080, 1, 4320, true, true },
                { "adm_csf_mode", "csf", I, 0, 0, 9, true, true },
                { "adm_bypass_cm", "bcm", I, 0, 0, 1, true, true },
                { "adm_adm3_apply_hm", "aah", B, 0, 0, 1, true, true },
                { "adm_p_norm", "apn", D, 3.0, 1.0, 20.0, true, true },
                { "adm_dlm_weight", "dlmw", D, 0.5, 0.0, 1.0, true, true },
                { "adm_min_val", "min", D, 0.0, 0.0, 1.0, true, true },
                { "adm_f1s0", "f1s0", D, -1.0, -1.0, 10.0, true, true },
                { "adm_f1s1", "f1s1", D, -1.0, -1.0, 10.0, true, true },
                { "adm_f1s2", "f1s2", D, -1.0, -1.0, 10.0, true, true },
                { "adm_f1s3", "f1s3", D, -1.0, -1.0, 10.0, true, true },
                { "adm_f2s0", "f2s0", D, -1.0, -1.0, 10.0, true, true },
                { "adm_f2s1", "f2s1", D, -1.0, -1.0, 10.0, true, true },
                { "adm_f2s2", "f2s2", D, -1.0, -1.0, 10.0, true, true },
                { "adm_f2s3", "f2s3", D, -1.0, -1.0, 10.0, true, true },
                { "adm_skip_aim_scale", "sasc", I, -1, 0, 3, true, true },
                { "adm_skip_scale0", "ssz", B, 0, 0, 1, true, true },
                { "rcp", nullptr, E, 0, 0, 3, false, true, rcp_choices },
            },
            { "VMAF_feature_adm2_score", "VMAF_feature_aim_score", "VMAF_feature_adm3_score",
              "VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score", "VMAF_feature_adm_scale2_score",
              "VMAF_feature_adm_scale3_score" },
            { "VMAF_feature_adm2_score", "VMAF_feature_aim_score", "VMAF_feature_adm3_score",
              "VMAF_feature_adm_scale0_score", "VMAF_feature_adm_scale1_score", "VMAF_feature_adm_scale2_score",
              "VMAF_feature_adm_scale3_score" },
            {},
            /* debug=true: extract()'s further outputs */
            { "adm", "adm_num", "adm_den", "adm_num_scale0", "adm_den_scale0", "adm_num_scale1",
              "adm_den_scale1", "adm_num_scale2", "adm_den_scale2", "adm_num_scale3", "adm_den_scale3" },
        },
        &vq_float_adm_module_cpu,
#if VQ_HAVE_CUDA
        &vq_float_adm_module_cuda,
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
