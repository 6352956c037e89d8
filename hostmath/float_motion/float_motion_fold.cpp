// float_motion_fold.cpp - see float_motion_fold.h and docs/float-motion.md.
// Built with -ffp-contract=off; every expression keeps the reference's types.
#include "float_motion_fold.h"

#include <cstring>

namespace vq {
namespace fmotion {

std::string check(const Options &o, int w, int h, bool chroma, int cw, int ch)
{
    (void)w;
    (void)h;
    if (o.add_uv && !chroma)
        return "float_motion: motion_add_uv needs chroma planes (libvmaf's init refuses 4:0:0)";
    if (o.add_uv && o.add_scale1 && (cw != w || ch != h))
        return "float_motion: motion_add_scale1 with motion_add_uv on subsampled chroma: libvmaf scales "
               "each chroma image with a row stride made from the chroma width while it is stored at the "
               "luma's, reading memory it never wrote (no defined result to match)";
    if (o.add_uv && (cw < 3 || ch < 3))
        return "float_motion: the chroma planes are too small for the 5-tap blur's mirrored borders";
    return "";
}

VqFloatMotionGeom geom(const Options &o, int w, int h, int cw, int ch)
{
    VqFloatMotionGeom g;
    std::memset(&g, 0, sizeof(g));
    g.nplanes = o.add_uv ? 3 : 1;
    g.fw = vq_fmotion_taps(o.filter_size, g.taps);
    g.scale1 = o.add_scale1 ? 1 : 0;
    size_t off = 0;
    for (int p = 0; p < g.nplanes; p++) {
        g.w[p] = p ? cw : w;
        g.h[p] = p ? ch : h;
        g.row_off[p] = off;
        off += (size_t)g.h[p];
        if (g.scale1) {
            // vmaf_image_sad_c: "(int)(width * 0.5 + 0.5)" in double
            g.sw[p] = (int)(g.w[p] * 0.5 + 0.5);
            g.sh[p] = (int)(g.h[p] * 0.5 + 0.5);
            g.ratio_x[p] = (float)g.w[p] / g.sw[p];
            g.ratio_y[p] = (float)g.h[p] / g.sh[p];
            g.row1_off[p] = off;
            off += (size_t)g.sh[p];
        }
    }
    g.words = off;
    return g;
}

double score(const VqFloatMotionGeom &g, const int64_t *words)
{
    double total = 0.0;
    for (int p = 0; p < g.nplanes; p++) {
        // vmaf_image_sad_c: "accum += accum_line" in float, then
        // "(float)(accum / (width * height))": a float over an int product
        float accum = 0.0f;
        for (int i = 0; i < g.h[p]; i++)
            accum += vq_fmotion_value(words[g.row_off[p] + (size_t)i]);
        float m = (float)(accum / (float)(g.w[p] * g.h[p]));
        if (g.scale1) {
            float a1 = 0.0f;
            for (int i = 0; i < g.sh[p]; i++)
                a1 += vq_fmotion_value(words[g.row1_off[p] + (size_t)i]);
            const float m1 = (float)(a1 / (float)(g.sw[p] * g.sh[p]));
            m = m + m1;     // "return motion_scale0 + motion_scale1": float
        }
        // extract(): score (a double) of luma, then "score += score_u;
        // score += score_v"
        total = p ? total + (double)m : (double)m;
    }
    return total;
}

double blend(double x, double factor, double offset)
{
    // motion_blend_tools.h: "motion_score * blend_factor + (1 - blend_factor)
    // * MIN(blend_offset, motion_score)"
    return x * factor + (1 - factor) * min_of(offset, x);
}

int Stream::push(double s, double *motion, Out *out)
{
    const int64_t n = n_++;
    if (o_.force_zero) {    // extract(): 0 for motion2, motion3 (and motion) at once
        *motion = 0.0;
        out[0] = Out{ n, 0.0, 0.0 };
        return 1;
    }
    if (n == 0) {           // motion2 0 (and motion 0); motion3 comes with frame 1
        *motion = 0.0;
        return 0;
    }
    const double fps = o_.fps_weight, mx = o_.max_val;
    *motion = min_of(s * fps, mx);
    if (n == 1) {           // motion3 of frame 0 from this score
        out[0] = Out{ 0, 0.0, min_of(blend(s * fps, o_.blend_factor, o_.blend_offset), mx) };
        prev_ = s;
        return 1;
    }
    // "score2 = score2 < score ? score2 : score": score2 is the SAD of
    // frames n-1 and n-2, this frame's predecessor's score (the same sums)
    const double m = prev_ < s ? prev_ : s;
    out[0] = Out{ n - 1, min_of(m * fps, mx), min_of(blend(m * fps, o_.blend_factor, o_.blend_offset), mx) };
    prev_ = s;
    return 1;
}

int Stream::flush(Out *out)
{
    if (flushed_ || o_.force_zero || n_ == 0) {
        flushed_ = true;
        return 0;
    }
    flushed_ = true;
    const int64_t last = n_ - 1;
    if (last == 0) {        // flush(): motion3 0 (motion2 0 came with the frame)
        out[0] = Out{ 0, 0.0, 0.0 };
        return 1;
    }
    const double fps = o_.fps_weight, mx = o_.max_val;
    out[0] = Out{ last, min_of(prev_ * fps, mx),
                  min_of(blend(prev_ * fps, o_.blend_factor, o_.blend_offset), mx) };
    return 1;
}

}  // namespace fmotion
}  // namespace vq
