/*
 * vif.cpp - the integer VIF module (hostmath/module.hpp): libvmaf v3.2.0's
 * vif extractor (feature/integer_vif.c), its options and outputs.  Its row
 * work (kernels/vif/) leaves per row of each of the four scales the
 * reference's four int64 accumulators; the fold (vif_fold.h) makes the
 * scales' scores as write_scores() does.  The reference's part of the
 * work on the GPU (its scale images and moments) is made once for a
 * ladder's renditions (the CUDA table's ref_* hooks).
 */
#include <cstring>
#include <memory>
#include <vector>

#include "module.hpp"
#include "vif_fold.h"
#include "vif/vif_exec.h"

extern "C" const VqModuleCpu vq_vif_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_vif_module_cuda;
#endif

namespace vq {
namespace {

constexpr OptType B = OptType::Bool, D = OptType::Double;

/* the log2 table every instance reads (built once) */
const uint16_t *log2_table()
{
    static const std::vector<uint16_t> t = [] {
        std::vector<uint16_t> v(65536);
        vq_vif_log2_table(v.data());
        return v;
    }();
    return t.data();
}

/* what the tables read (geom) and the fold (all of it) */
struct Setup {
    VqVifGeom geom;
    bool skip0, debug;
};

std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    auto s = std::make_shared<Setup>();
    std::memset(&s->geom, 0, sizeof(s->geom));
    /* the layout's VIF sections alone, from the section's start */
    words = vq_row_layout_one(&s->geom.l, fmt.width, fmt.height, VQ_ROWS_VIF);
    s->geom.egl = o.get("vif_enhn_gain_limit");
    s->geom.log2_table = log2_table();
    /* vif_skip_scale0: integer_vif.c write_scores() gives scale 0 the
     * score 0 and, under debug, num 0 and den -1, and leaves it out of the
     * sums; scales 1-3 are unchanged (scale 1 subsamples the frame either
     * way).  The row work's scale-0 words are then not read. */
    s->skip0 = o.get("vif_skip_scale0") != 0;
    s->debug = o.get("debug") != 0;
    for (int q = 1; q < 3; q++)     /* the luma only */
        g.plane_w[q] = g.plane_h[q] = 0;
    g.host = &s->geom;
    g.fold_host = s.get();
    owner = std::move(s);
    return "";
}

/* instances of one enhancement gain limit (differing in skip_scale0 or
 * debug, which the fold reads) run one row work */
bool share(VqModuleGeom &into, const VqModuleGeom &b)
{
    return static_cast<const VqVifGeom *>(into.host)->egl == static_cast<const VqVifGeom *>(b.host)->egl;
}

/* write_scores(): the four scales' scores, then under debug the totals and
 * each scale's num and den */
void fold(const VqModuleGeom &g, const int64_t *section, int64_t, void *, double *out)
{
    const Setup &s = *static_cast<const Setup *>(g.fold_host);
    const VqRowLayout &l = s.geom.l;
    vq_vif_fold(&l, section, out);
    if (s.skip0)
        out[0] = 0.0f;
    if (!s.debug)
        return;
    /* debug=true: integer_vif.c write_scores(), from the same float num/den of each scale */
    float num[4], den[4];
    for (int k = 0; k < 4; k++)
        vq_vif_fold_scale(&l, section, k, &num[k], &den[k]);
    double score_num, score_den;
    if (s.skip0) {
        score_num = (double)num[1] + (double)num[2] + (double)num[3];
        score_den = (double)den[1] + (double)den[2] + (double)den[3];
        num[0] = 0.0f;
        den[0] = -1.0f;
    } else {
        score_num = (double)num[0] + (double)num[1] + (double)num[2] + (double)num[3];
        score_den = (double)den[0] + (double)den[1] + (double)den[2] + (double)den[3];
    }
    out[4] = score_den == 0.0 ? 1.0f : score_num / score_den;
    out[5] = score_num;
    out[6] = score_den;
    for (int k = 0; k < 4; k++) {
        out[7 + 2 * k] = num[k];
        out[8 + 2 * k] = den[k];
    }
}

FeatureSpec spec()
{
    return FeatureSpec{
        "vif",
        {
            { "debug", nullptr, B, 0, 0, 1, false, true },
            { "vif_enhn_gain_limit", "egl", D, 100.0, 1.0, 100.0, true, true },
            { "vif_skip_scale0", "ssclz", B, 0, 0, 1, true, true },
        },
        { "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
          "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score" },
        { "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
          "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score" },
        {},
        /* debug=true: write_scores()'s further outputs */
        { "integer_vif", "integer_vif_num", "integer_vif_den", "integer_vif_num_scale0",
          "integer_vif_den_scale0", "integer_vif_num_scale1", "integer_vif_den_scale1",
          "integer_vif_num_scale2", "integer_vif_den_scale2", "integer_vif_num_scale3",
          "integer_vif_den_scale3" },
    };
}

}  // namespace

const Module &vif_module()
{
    static const Module m = {
        spec(),
        &vq_vif_module_cpu,
#if VQ_HAVE_CUDA
        &vq_vif_module_cuda,
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
