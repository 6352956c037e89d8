/*
 * speed_temporal.cpp - the speed_temporal module (hostmath/module.hpp):
 * libvmaf v3.2.0's speed_temporal extractor (feature/speed.c,
 * SpeedTemporalState: its own options table, no weight mode, and
 * speed_max_val only renames: the score is not clipped).  Its plan checks
 * the options and the size as the reference's init does and makes the
 * set-up (hostmath/speed_chroma.hpp's Setup); its row work
 * (kernels/speed_temporal/) leaves steps 1-3 of the two luma differences
 * against the frame before, keeping every frame for the next; its fold runs
 * steps 4-6 (0 at a section's first frame, libvmaf's frame 0).
 * docs/float-small.md.
 */
#include <memory>

#include "module.hpp"
#include "speed_chroma.hpp"
#include "speed_exec.h"
#include "vq_error.h"

extern "C" const VqModuleCpu vq_speed_temporal_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_speed_temporal_cuda;
#endif

namespace vq {
namespace {

constexpr OptType B = OptType::Bool, D = OptType::Double, E = OptType::Enum;

std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    auto st = std::make_shared<speed::Setup>();
    st->opt = speed::shared_options(o);     /* weight_var_mode 0: SpeedTemporalState sets none */
    st->bpc = fmt.bitdepth;
    const std::string why = speed::temporal_check(st->opt, fmt.width, fmt.height, fmt.bitdepth);
    if (!why.empty())
        return frame_refusal(why, fmt);
    st->dm = speed::dims(st->opt, fmt.width, fmt.height, 0, 0);
    speed::fill_geom(*st);
    words = vq_speed_temporal_words(&st->geom);
    g.opt[0] = o.get("speed_use_ref_diff") != 0;
    g.host = &st->geom;         /* the executors' tables read the geometry */
    g.fold_host = st.get();     /* the fold, the whole set-up */
    owner = std::move(st);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t frame, void *, double *out)
{
    /* extract(): 0 at libvmaf's frame 0 (a section's first frame here);
     * after it, steps 4-6 on the executor's two images */
    if (frame == 0) {
        out[0] = 0.0;
        return;
    }
    if (section[0] != 1)
        fail(VQ_EINVAL, "frame %lld of the section: speed_temporal: the executor did not keep the frame before",
             (long long)frame);
    const speed::Setup &sp = *static_cast<const speed::Setup *>(g.fold_host);
    out[0] = speed::temporal_from_dec16(sp, (const float *)(section + 1));
}

}  // namespace

const Module &speed_temporal_module()
{
    static const Module m = {
        FeatureSpec{
            "speed_temporal",
            {
                { "speed_kernelscale", "ks", D, 1.0, 0.1, 4.0, true, true },
                { "speed_prescale", "ps", D, 1.0, 0.1, 4.0, true, true },
                { "speed_prescale_method", "psm", E, 0, 0, 3, true, true, speed::prescale_methods },
                { "speed_sigma_nn", "snn", D, 0.29, 0.1, 2.0, true, true },
                { "speed_nn_floor", "nnf", D, 0.0, 0.0, 1.0, true, true },
                { "speed_max_val", "mxv", D, 1000.0, 0.0, 1000.0, true, true },
                { "speed_use_ref_diff", "urd", B, 0, 0, 1, true, true },
            },
            { "Speed_temporal_feature_speed_temporal_score" },
            { "Speed_temporal_feature_speed_temporal_score" },
            {},
        },
        &vq_speed_temporal_cpu,
#if VQ_HAVE_CUDA
        &vq_speed_temporal_cuda,
#else
        nullptr,
#endif
        true,   /* the fold reads the section and the set-up alone */
        false,  /* the luma only */
        plan,
        fold,
    };
    return m;
}

}  // namespace vq
