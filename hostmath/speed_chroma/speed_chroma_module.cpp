/*
 * speed_chroma_module.cpp - the speed_chroma module (hostmath/module.hpp):
 * libvmaf v3.2.0's speed_chroma extractor (feature/speed.c, SpeedChromaState;
 * VMAF v1.0.16's chroma feature).  Its plan checks the options and the
 * format as the reference's init does and makes the set-up
 * (hostmath/speed_chroma.hpp's Setup: dimensions, the lanczos4 tables, the
 * executors' VqSpeedGeom); its row work, steps 1-3 on the four chroma planes,
 * is in kernels/speed_chroma/; its fold runs steps 4-7 (local means,
 * covariances, eigenvalues, QR solve, entropies, the score) on the four 1/16
 * images.  docs/speed.md.
 */
#include <memory>

#include "module.hpp"
#include "speed_chroma.hpp"
#include "speed_exec.h"

extern "C" const VqModuleCpu vq_speed_chroma_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_speed_chroma_cuda;
#endif

namespace vq {
namespace {

constexpr OptType I = OptType::Int, D = OptType::Double, E = OptType::Enum;

std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    auto st = std::make_shared<speed::Setup>();
    st->opt = speed::shared_options(o);
    st->opt.weight_var_mode = (int)o.get("speed_weight_var_mode");
    st->bpc = fmt.bitdepth;
    const bool chroma = fmt.layout != VQ_LAYOUT_GRAY;
    const std::string why = speed::check(st->opt, fmt.width, fmt.height, fmt.chroma_shift_w, fmt.chroma_shift_h,
                                         chroma, fmt.bitdepth);
    if (!why.empty())
        return frame_refusal(why, fmt);
    st->dm = speed::dims(st->opt, fmt.width, fmt.height, fmt.chroma_shift_w, fmt.chroma_shift_h);
    speed::fill_geom(*st);
    words = vq_speed_words(&st->geom);
    g.host = &st->geom;         /* the executors' tables read the geometry */
    g.fold_host = st.get();     /* the fold, the whole set-up */
    owner = std::move(st);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t, void *, double *out)
{
    const speed::Setup &sp = *static_cast<const speed::Setup *>(g.fold_host);
    const speed::Result r = speed::frame_from_dec16(sp, (const float *)section);
    out[0] = r.u;
    out[1] = r.v;
    out[2] = r.uv;
}

}  // namespace

/* speed.c's speed_chroma options (every one a FEATURE_PARAM; its outputs
 * are its provided features, printed under alias.c's speed_chroma_* names) */
/* a function-local static: made at its first use, whatever the order
 * in which the library's files are initialised */
const Module &speed_chroma_module()
{
    static const Module m = {
        FeatureSpec{
            "speed_chroma",
            {
                { "speed_kernelscale", "ks", D, 1.0, 0.1, 4.0, true, true },
                { "speed_prescale", "ps", D, 1.0, 0.1, 4.0, true, true },
                { "speed_prescale_method", "psm", E, 0, 0, 3, true, true, speed::prescale_methods },
                { "speed_sigma_nn", "snn", D, 0.29, 0.1, 2.0, true, true },
                { "speed_nn_floor", "nnf", D, 0.0, 0.0, 1.0, true, true },
                { "speed_max_val", "mxv", D, 1000.0, 0.0, 1000.0, true, true },
                { "speed_weight_var_mode", "wvm", I, 0, 0, 6, true, true },
            },
            { "Speed_chroma_feature_speed_chroma_u_score", "Speed_chroma_feature_speed_chroma_v_score",
              "Speed_chroma_feature_speed_chroma_uv_score" },
            { "Speed_chroma_feature_speed_chroma_u_score", "Speed_chroma_feature_speed_chroma_v_score",
              "Speed_chroma_feature_speed_chroma_uv_score" },
            {},
        },
        &vq_speed_chroma_cpu,
#if VQ_HAVE_CUDA
        &vq_speed_chroma_cuda,
#else
        nullptr,
#endif
        true,   /* steps 4-7 read the set-up and the images alone */
        true,   /* the chroma planes */
        plan,
        fold,
    };
    return m;
}

}  // namespace vq
