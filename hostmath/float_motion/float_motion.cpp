/*
 * float_motion.cpp - the float_motion module (hostmath/module.hpp): libvmaf
 * v3.2.0's float_motion extractor (feature/float_motion.c), its options and
 * outputs.  A temporal module: its row work (kernels/float_motion/) runs on
 * every frame, whatever n_subsample, and leaves per row the float SAD of the
 * blurred reference against the frame before; its fold, on every frame in
 * frame order, makes the frame's score and feeds the instance's motion2/
 * motion3 stream (float_motion_fold.h's Stream, its kept state), whose values
 * come late: frame i's with frame i+1's score, the last frame's at flush
 * (LateOutputs).  Under motion_force_zero nothing runs and every value is 0
 * with its frame.  docs/float-motion.md.
 */
#include <cstring>
#include <memory>
#include <vector>

#include "float_motion_fold.h"
#include "module.hpp"

extern "C" const VqModuleCpu vq_float_motion_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_float_motion_module_cuda;
#endif

namespace vq {
namespace {

constexpr OptType B = OptType::Bool, I = OptType::Int, D = OptType::Double;

const char *const motion2_name = "VMAF_feature_motion2_score";
const char *const motion3_name = "VMAF_feature_motion3_score";
const char *const motion_name = "VMAF_feature_motion_score";

/* float_motion.c's options */
fmotion::Options options_of(const FeatureOptions &o)
{
    fmotion::Options v;
    v.debug = o.get("debug") != 0;
    v.force_zero = o.get("motion_force_zero") != 0;
    v.fps_weight = o.get("motion_fps_weight");
    v.blend_factor = o.get("motion_blend_factor");
    v.blend_offset = o.get("motion_blend_offset");
    v.add_scale1 = o.get("motion_add_scale1") != 0;
    v.filter_size = (int)o.get("motion_filter_size");
    v.add_uv = o.get("motion_add_uv") != 0;
    v.max_val = o.get("motion_max_val");
    return v;
}

/* what the tables read (geom) and the fold (all of it) */
struct Setup {
    VqFloatMotionGeom geom;
    fmotion::Options o;
};

/* the instance's kept state: its stream, and the frames it made final
 * since the session last took them */
struct Kept {
    fmotion::Stream st;
    bool force_zero;
    std::vector<fmotion::Out> ready;
};

std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    auto s = std::make_shared<Setup>();
    s->o = options_of(o);
    const bool chroma = fmt.layout != VQ_LAYOUT_GRAY;
    const int cw = chroma ? fmt.width >> fmt.chroma_shift_w : 0;
    const int ch = chroma ? fmt.height >> fmt.chroma_shift_h : 0;
    const std::string why = fmotion::check(s->o, fmt.width, fmt.height, chroma, cw, ch);
    if (!why.empty())
        return why + " (frames " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) + ")";
    /* motion_force_zero: nothing to compute (nplanes 0, no words) */
    std::memset(&s->geom, 0, sizeof(s->geom));
    if (!s->o.force_zero)
        s->geom = fmotion::geom(s->o, fmt.width, fmt.height, cw, ch);
    for (int q = s->geom.nplanes > 1 ? 3 : 1; q < 3; q++)   /* no chroma copy without motion_add_uv */
        g.plane_w[q] = g.plane_h[q] = 0;
    words = s->geom.words;
    g.host = &s->geom;
    g.fold_host = s.get();
    owner = std::move(s);
    return "";
}

/* instances of one geometry (differing in fps_weight, the blend, max_val,
 * debug or force_zero) run one row work */
bool share(VqModuleGeom &into, const VqModuleGeom &b)
{
    return std::memcmp(into.host, b.host, sizeof(VqFloatMotionGeom)) == 0;
}

/* extract(): motion2, then (debug) motion; under motion_force_zero motion2,
 * motion3, motion, all with the frame */
std::vector<const char *> outputs(const FeatureOptions &o, const VqFormat &)
{
    std::vector<const char *> out = { motion2_name };
    if (o.get("motion_force_zero"))
        out.push_back(motion3_name);
    if (o.get("debug"))
        out.push_back(motion_name);
    return out;
}

std::string keep(const FeatureOptions &o, const VqModuleGeom &, const RunInfo &, const std::shared_ptr<void> &,
                 std::shared_ptr<void> &state)
{
    /* each section starts afresh, as a title of its own */
    const fmotion::Options fo = options_of(o);
    state = std::make_shared<Kept>(Kept{ fmotion::Stream(fo), fo.force_zero, {} });
    return "";
}

/* every frame: its score S(n), the SAD of frames n-1 and n (none at the
 * section's first frame), into the stream; the debug motion value now */
void fold(const VqModuleGeom &g, const int64_t *section, int64_t frame, void *state, double *out)
{
    const Setup &s = *static_cast<const Setup *>(g.fold_host);
    Kept &k = *static_cast<Kept *>(state);
    double score = 0.0;
    if (frame >= 1 && !s.o.force_zero)
        score = fmotion::score(s.geom, section);
    double motion;
    fmotion::Out o[1];
    const int n = k.st.push(score, &motion, o);
    if (s.o.debug)  /* VMAF_feature_motion_score: after motion2 (and motion3 under force_zero) */
        out[s.o.force_zero ? 2 : 1] = motion;
    k.ready.insert(k.ready.end(), o, o + n);
}

/* motion3: the flush column, first appended with frame 1; under
 * motion_force_zero a per-frame output */
std::vector<const char *> flush_outputs(const FeatureOptions &o)
{
    if (o.get("motion_force_zero"))
        return {};
    return { motion3_name };
}

void put(const Kept &k, const fmotion::Out *o, int n, std::vector<LateValue> &out)
{
    for (int i = 0; i < n; i++) {
        out.push_back(LateValue{ o[i].index, false, 0, o[i].motion2 });
        out.push_back(k.force_zero ? LateValue{ o[i].index, false, 1, o[i].motion3 }
                                   : LateValue{ o[i].index, true, 0, o[i].motion3 });
    }
}

int64_t take(void *state, std::vector<LateValue> &out)
{
    Kept &k = *static_cast<Kept *>(state);
    put(k, k.ready.data(), (int)k.ready.size(), out);
    k.ready.clear();
    return k.st.final_count();
}

/* flush(): the last frame's motion2/motion3, on a copy of the stream */
void rest(const void *state, std::vector<LateValue> &out)
{
    const Kept &k = *static_cast<const Kept *>(state);
    put(k, k.ready.data(), (int)k.ready.size(), out);
    fmotion::Stream st = k.st;
    fmotion::Out o[1];
    const int n = st.flush(o);
    put(k, o, n, out);
}

const LateOutputs late = { flush_outputs, true, take, rest };

FeatureSpec spec()
{
    FeatureSpec s{
        "float_motion",
        {
            { "debug", nullptr, B, 1, 0, 1, false, true },
            { "motion_force_zero", "force_0", B, 0, 0, 1, true, true },
            { "motion_fps_weight", "mfw", D, 1.0, 0.0, 5.0, true, true },
            { "motion_blend_factor", "mbf", D, 1.0, 0.0, 1.0, true, true },
            { "motion_blend_offset", "mbo", D, 40.0, 0.0, 1000.0, true, true },
            { "motion_add_scale1", "mdc", B, 0, 0, 1, true, true },
            { "motion_filter_size", "mfs", I, 5, 0, 9, true, true },
            { "motion_add_uv", "mau", B, 0, 0, 1, true, true },
            { "motion_max_val", "mmxv", D, 10000.0, 0.0, 10000.0, true, true },
        },
        /* (models may read motion2 and motion3; VMAF_feature_motion_score,
         * a debug output, is not offered to them) */
        { motion2_name, motion3_name },
        { motion2_name },
        { motion3_name },
        { motion_name },
    };
    s.late = &late;
    return s;
}

}  // namespace

const Module &float_motion_module()
{
    static const Module m = {
        spec(),
        &vq_float_motion_module_cpu,
#if VQ_HAVE_CUDA
        &vq_float_motion_module_cuda,
#else
        nullptr,
#endif
        false,  /* the fold feeds the kept stream: on the caller's thread, in frame order */
        true,   /* the reference's chroma planes, under motion_add_uv (the plan clears the others' sizes) */
        plan,
        fold,
        share,
        outputs,
        keep,
        nullptr,    /* nothing in aggregate_metrics */
        true,       /* temporal: every frame */
    };
    return m;
}

}  // namespace vq
