/*
 * motion.cpp - the integer motion module (hostmath/module.hpp): libvmaf
 * v3.2.0's motion extractor (feature/integer_motion.c), its options and
 * outputs.  A temporal module that reads the reference alone: its row work
 * (kernels/motion/) runs on every frame and leaves per row the SAD of the
 * blurred reference against frame n-1 and, with motion_five_frame_window,
 * against n-2; a ladder's sessions run it once (ref_only).  Its fold, on
 * every frame in frame order, makes the frame's SAD score and feeds the
 * instance's VqMotion2 stream (motion_fold.h, its kept state), whose
 * motion2/motion3 come late: frame n-1's with frame n's SAD (frames 0 and 1
 * with frame 2's under the window), the last frame's at flush, as libvmaf's
 * flush() appends them (LateOutputs).
 */
#include <cstring>
#include <memory>
#include <vector>

#include "module.hpp"
#include "motion_fold.h"
#include "motion/motion_exec.h"

extern "C" const VqModuleCpu vq_motion_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_motion_module_cuda;
#endif

namespace vq {
namespace {

constexpr OptType B = OptType::Bool, D = OptType::Double;

/* integer_motion.c's options motion2/motion3 depend on */
VqMotion2Opts motion2_options(const FeatureOptions &o)
{
    VqMotion2Opts v;
    vq_motion2_opts_default(&v);
    v.blend_factor = o.get("motion_blend_factor");
    v.blend_offset = o.get("motion_blend_offset");
    v.max_val = o.get("motion_max_val");
    v.moving_average = o.get("motion_moving_average") != 0;
    v.five_frame_window = o.get("motion_five_frame_window") != 0;
    return v;
}

/* what the fold reads */
struct Setup {
    double fps_weight, max_val;
    bool force_zero, debug;
    int lag;        /* the SAD is against frame n - lag */
};

/* the instance's kept state: its stream, and the frames it made final
 * since the session last took them */
struct Kept {
    VqMotion2 m2;
    std::vector<VqMotion2Out> ready;
};

/* g.opt[0]: the lags to compute (VQ_MOTION_LAG1 or VQ_MOTION_LAG2; the
 * instances of a session share one row work, widened to both) */
std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    if (fmt.width < 3 || fmt.height < 3)
        return frame_refusal("motion: its 5-tap blur needs frames of at least 3x3", fmt);
    auto s = std::make_shared<Setup>();
    s->fps_weight = o.get("motion_fps_weight");
    s->max_val = o.get("motion_max_val");
    s->force_zero = o.get("motion_force_zero") != 0;
    s->debug = o.get("debug") != 0;
    const VqMotion2Opts m2 = motion2_options(o);
    s->lag = vq_motion2_lag(&m2);
    g.opt[0] = s->lag == 2 ? VQ_MOTION_LAG2 : VQ_MOTION_LAG1;
    for (int q = 1; q < 3; q++)     /* the reference's luma only */
        g.plane_w[q] = g.plane_h[q] = 0;
    words = VQ_MOTION_WORDS(fmt.height);
    g.fold_host = s.get();
    owner = std::move(s);
    return "";
}

/* one row work gives every lag: into computes b's lag too */
bool share(VqModuleGeom &into, const VqModuleGeom &b)
{
    into.opt[0] |= b.opt[0];
    return true;
}

std::string keep(const FeatureOptions &o, const VqModuleGeom &, const RunInfo &, const std::shared_ptr<void> &,
                 std::shared_ptr<void> &state)
{
    /* each section starts afresh, as a title of its own */
    auto k = std::make_shared<Kept>();
    const VqMotion2Opts opt = motion2_options(o);
    vq_motion2_init(&k->m2, &opt);
    state = std::move(k);
    return "";
}

/* every frame: its SAD score (0 before frame n-lag is there, as libvmaf),
 * the debug output the same, and into the motion2 stream */
void fold(const VqModuleGeom &g, const int64_t *section, int64_t frame, void *state, double *out)
{
    const Setup &s = *static_cast<const Setup *>(g.fold_host);
    Kept &k = *static_cast<Kept *>(state);
    double sad = 0.0;
    if (frame >= s.lag && !s.force_zero)
        sad = vq_motion_sad_score_rows(section + (size_t)(s.lag - 1) * g.h, g.w, g.h, s.fps_weight, s.max_val);
    out[0] = sad;
    if (s.debug)    /* VMAF_integer_feature_motion_score: the same score */
        out[1] = sad;
    VqMotion2Out o[2];
    const int n = vq_motion2_push(&k.m2, sad, o);
    k.ready.insert(k.ready.end(), o, o + n);
}

/* motion2, motion3: the flush outputs */
void put(const VqMotion2Out *o, int n, std::vector<LateValue> &out)
{
    for (int i = 0; i < n; i++) {
        out.push_back(LateValue{ o[i].index, true, 0, o[i].motion2 });
        out.push_back(LateValue{ o[i].index, true, 1, o[i].motion3 });
    }
}

int64_t take(void *state, std::vector<LateValue> &out)
{
    Kept &k = *static_cast<Kept *>(state);
    put(k.ready.data(), (int)k.ready.size(), out);
    k.ready.clear();
    return vq_motion2_final(&k.m2);
}

/* flush(), on a copy of the stream */
void rest(const void *state, std::vector<LateValue> &out)
{
    const Kept &k = *static_cast<const Kept *>(state);
    put(k.ready.data(), (int)k.ready.size(), out);
    VqMotion2 m2 = k.m2;
    VqMotion2Out o[2];
    const int n = vq_motion2_flush(&m2, o);
    put(o, n, out);
}

/* the spec's flush outputs, appended by libvmaf at flush */
const LateOutputs late = { nullptr, false, take, rest };

/* a piece's first scored frame reads motion of the frames before it */
int context(const FeatureOptions &o)
{
    const VqMotion2Opts m2 = motion2_options(o);
    return vq_motion2_context(&m2);
}

FeatureSpec spec()
{
    FeatureSpec s{
        "motion",
        {
            { "motion_force_zero", "force_0", B, 0, 0, 1, true, true },
            { "motion_blend_factor", "mbf", D, 1.0, 0.0, 1.0, true, true },
            { "motion_blend_offset", "mbo", D, 40.0, 0.0, 1000.0, true, true },
            { "motion_fps_weight", "mfw", D, 1.0, 0.0, 5.0, true, true },
            { "motion_max_val", "mmxv", D, 10000.0, 0.0, 10000.0, true, true },
            { "motion_five_frame_window", "mffw", B, 0, 0, 1, true, true },
            { "motion_moving_average", "mma", B, 0, 0, 1, true, true },
            { "debug", nullptr, B, 0, 0, 1, false, true },
        },
        { "VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion2_score",
          "VMAF_integer_feature_motion3_score" },
        { "VMAF_integer_feature_motion_sad_score" },
        { "VMAF_integer_feature_motion2_score", "VMAF_integer_feature_motion3_score" },
        /* debug=true: the SAD score again, under this name (alias integer_motion) */
        { "VMAF_integer_feature_motion_score" },
    };
    s.late = &late;
    return s;
}

}  // namespace

const Module &motion_module()
{
    static const Module m = [] {
        Module x{
            spec(),
            &vq_motion_module_cpu,
#if VQ_HAVE_CUDA
            &vq_motion_module_cuda,
#else
            nullptr,
#endif
            false,  /* the fold feeds the kept stream: on the caller's thread, in frame order */
            false,  /* luma only */
            plan,
            fold,
            share,
            nullptr,    /* the spec's outputs, its debug output under debug */
            keep,
            nullptr,    /* nothing in aggregate_metrics */
            true,       /* temporal: every frame */
        };
        x.ref_only = true;
        x.context = context;
        return x;
    }();
    return m;
}

}  // namespace vq
