/* motion_late.cpp - see motion_late.hpp. */
#include "motion_late.hpp"

#include <memory>
#include <vector>

namespace vq {
namespace motion {
namespace {

/* an instance's stream, and the frames it made final since the session
 * last took them */
struct Kept {
    VqMotion2 m2;
    std::vector<VqMotion2Out> ready;
};

std::shared_ptr<void> start(const FeatureOptions &o)
{
    auto k = std::make_shared<Kept>();
    const VqMotion2Opts opt = options(o);
    vq_motion2_init(&k->m2, &opt);
    return k;
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

}  // namespace

VqMotion2Opts options(const FeatureOptions &o)
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

const LateOutputs &late_outputs()
{
    /* the spec's flush outputs, appended by libvmaf at flush */
    static const LateOutputs l = { nullptr, false, take, rest, start };
    return l;
}

int lag(const void *state)
{
    return vq_motion2_lag(&static_cast<const Kept *>(state)->m2.opt);
}

void push(void *state, double sad)
{
    Kept &k = *static_cast<Kept *>(state);
    VqMotion2Out o[2];
    const int n = vq_motion2_push(&k.m2, sad, o);
    k.ready.insert(k.ready.end(), o, o + n);
}

}  // namespace motion
}  // namespace vq
