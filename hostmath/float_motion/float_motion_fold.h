// float_motion_fold.h - libvmaf v3.2.0's float_motion on the host: its
// options, refusals, the executors' geometry, the frame's score from the
// row sums, and motion2/motion3/motion as float_motion.c appends them
// (docs/float-motion.md).
#ifndef VQ_FLOAT_MOTION_FOLD_H
#define VQ_FLOAT_MOTION_FOLD_H

#include <cstdint>
#include <string>

#include "float_motion/float_motion.h"

namespace vq {
namespace fmotion {

// float_motion.c's options, with its defaults
struct Options {
    bool debug = true;              // debug: also VMAF_feature_motion_score
    bool force_zero = false;        // motion_force_zero (force_0)
    double fps_weight = 1.0;        // motion_fps_weight (mfw), 0 .. 5
    double blend_factor = 1.0;      // motion_blend_factor (mbf), 0 .. 1
    double blend_offset = 40.0;     // motion_blend_offset (mbo), 0 .. 1000
    bool add_scale1 = false;        // motion_add_scale1 (mdc)
    int filter_size = 5;            // motion_filter_size (mfs), 0 .. 9: 1 no-op, 3, else 5 taps
    bool add_uv = false;            // motion_add_uv (mau)
    double max_val = 10000.0;       // motion_max_val (mmxv), 0 .. 10000
};

// An error message where the reference refuses or reads memory it never
// wrote, else "".  chroma: the format has chroma planes; cw, ch: their size
// as libvmaf's picture has it (w >> ss, h >> ss).
std::string check(const Options &o, int w, int h, bool chroma, int cw, int ch);

// The executors' geometry (words of the row-buffer section from 0).
VqFloatMotionGeom geom(const Options &o, int w, int h, int cw, int ch);

// The score S(n) of frame n >= 1 (compute_motion of frames n-1 and n, and
// its chroma terms under add_uv) from the executor's words.
double score(const VqFloatMotionGeom &g, const int64_t *words);

// motion_blend(), and MIN(x, y) as float_motion.c writes them
double blend(double x, double factor, double offset);
inline double min_of(double x, double y) { return x < y ? x : y; }

// Streaming motion2/motion3, as extract() and flush() append them.  Frame
// n's push makes frame n-1 final (frame 0 at push 1); flush the last.
struct Out {
    int64_t index;
    double motion2, motion3;
};

class Stream {
public:
    explicit Stream(const Options &o) : o_(o) {}
    // frame n (0, 1, ...) with its score (ignored at n = 0): the debug
    // motion value of frame n into *motion; 0 or 1 frames made final
    int push(double s, double *motion, Out *out);
    // the end of the title: the last frame (0 or 1 of them)
    int flush(Out *out);
    // frames whose motion2/motion3 are final
    int64_t final_count() const { return o_.force_zero || flushed_ ? n_ : (n_ > 0 ? n_ - 1 : 0); }

private:
    Options o_;
    int64_t n_ = 0;         // frames pushed
    double prev_ = 0.0;     // S(n-1)
    bool flushed_ = false;
};

}  // namespace fmotion
}  // namespace vq

#endif
