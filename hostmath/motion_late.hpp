/*
 * motion_late.hpp - integer motion's motion2/motion3 as late outputs
 * (module.hpp's LateOutputs): the instance's VqMotion2 stream
 * (motion_fold.h), made at each section's start, fed the frame's SAD score
 * by the session's fold of the motion kind, its frames' values taken after
 * each frame and the rest at the end (flush()'s, as libvmaf appends them).
 * Integer motion's row work stays in the executors (fused with the VMAF
 * pipeline, shared by a ladder's sessions); this is its host half.
 */
#ifndef VQ_MOTION_LATE_HPP
#define VQ_MOTION_LATE_HPP

#include "module.hpp"
#include "motion_fold.h"

namespace vq {
namespace motion {

/* integer_motion.c's options motion2/motion3 depend on */
VqMotion2Opts options(const FeatureOptions &o);

/* the late outputs of the motion extractor's spec (registry.cpp) */
const LateOutputs &late_outputs();

/* the frame's SAD score into the instance's stream (its kept state) */
void push(void *state, double sad);

/* the frame its SAD is against, n - lag (2: the five-frame window), from
 * the stream's options */
int lag(const void *state);

}  // namespace motion
}  // namespace vq

#endif /* VQ_MOTION_LATE_HPP */
