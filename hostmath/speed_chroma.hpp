// speed_chroma.hpp - libvmaf v3.2.0's speed_chroma (SpEED-QA on U and V),
// on the CPU, standalone: options, their checks, the Gaussian taps, the
// sequential parts (steps 4-6 of docs/speed.md: the 1/16 image's local-mean
// removal, est_params' covariance, eigenvalues and linear solve, entropies,
// the score) and the whole per-frame computation.  Sessions use it through
// Setup (feature_plan.cpp), the executors' steps 1-3 and frame_from_dec16.
#ifndef VQ_SPEED_CHROMA_HPP
#define VQ_SPEED_CHROMA_HPP

#include <string>
#include <vector>

#include "registry.hpp"
#include "speed.h"
#include "speed_exec.h"

namespace vq {
namespace speed {

// The options of libvmaf's speed_chroma, with its defaults (speed.c).
struct Options {
    double kernelscale = 1.0;            // speed_kernelscale (ks), 0.1 .. 4.0
    double prescale = 1.0;               // speed_prescale (ps), 0.1 .. 4.0
    std::string prescale_method = "nearest";   // speed_prescale_method (psm)
    double sigma_nn = 0.29;              // speed_sigma_nn (snn), 0.1 .. 2.0
    double nn_floor = 0.0;               // speed_nn_floor (nnf), 0.0 .. 1.0
    double max_val = 1000.0;             // speed_max_val (mxv), 0 .. 1000
    int weight_var_mode = 0;             // speed_weight_var_mode (wvm), 0 .. 6
};

// The prescale methods' names (speed_prescale_method, float_vif's
// vif_prescale_method: strings in libvmaf, checked at init; an enum option
// of these names here), in VQ_SPEED_* order, nullptr-terminated
extern const char *const prescale_methods[];

// The six options speed_chroma and speed_temporal share, from an instance's
// parsed options (weight_var_mode stays 0: speed_temporal has none)
Options shared_options(const FeatureOptions &o);

// The reference's plane geometry for one chroma plane (speed.c's
// SpeedDimensions), from the plane's size as init_chroma computes it.
struct Dims {
    int w = 0, h = 0;           // original chroma plane (luma w >> ss_x ...)
    int sw = 0, sh = 0;         // after the prescale: (int)(w * ps + 0.5)
    int ow = 0, oh = 0;         // operating (1/16) image: sw >> 4, sh >> 4
    int tw = 0, th = 0;         // truncated to whole 5x5 blocks
    int bw = 0, bh = 0;         // blocks across and down
    bool scaled = false;        // the prescale runs (ps not within 1e-3 of 1)
};

// An error message when the reference refuses (or cannot be matched) with
// these options at this frame size and layout, else "".  chroma_ss_x/_y:
// 1 where the chroma planes are subsampled (4:2:0: both, 4:2:2: x);
// monochrome: the reference refuses 4:0:0 (pass has_chroma false).
std::string check(const Options &opt, int luma_w, int luma_h, int chroma_ss_x,
                  int chroma_ss_y, bool has_chroma, int bpc);

// The chroma plane size speed_chroma works on: init_chroma's w / 2, h / 2
// (truncating: an odd 4:2:0 frame's last chroma column/row is not used).
Dims dims(const Options &opt, int luma_w, int luma_h, int chroma_ss_x, int chroma_ss_y);

// vif_get_filter_size(scale, kernelscale): the kernelscale as a float
int filter_size(int scale, float kernelscale);
// speed_get_antialias_filter(out, NUM_SCALES, ks) / vif_get_filter(out,
// NUM_SCALES, ks): the taps (exp in double, float sum, float division)
std::vector<float> antialias_taps(float kernelscale);
std::vector<float> local_mean_taps(float kernelscale);
// vif_get_filter(out, scale, kernelscale): the Gaussian of
// filter_size(scale, ks) taps, stdev "window_size / 5.0f" (float_vif's
// filters; local_mean_taps is scale 4's)
std::vector<float> vif_taps(int scale, float kernelscale);
bool kernelscale_valid(float kernelscale);
int scale_method(const std::string &name);   // VqSpeedScaleMethod, -1: unknown

// Eigenvalues of a symmetric n x n float matrix (row-major), as speed.c's
// compute_eigenvalues: Householder tridiagonalisation and implicit QR, in
// float; the result in the order the reference leaves them.
std::vector<float> eigenvalues(const std::vector<float> &a, int n);
// Solve A X = B (A n x n, B n x m) by speed.c's Householder QR; false where
// a diagonal element of R is below 1e-6 in magnitude (the reference's error).
bool solve(const std::vector<float> &a, int n, const std::vector<float> &b, int m,
           std::vector<float> &x);

// est_params on the (local-mean-removed) 1/16 image d (ow x oh, row-major):
// entropies and variances per block; false where the covariance matrix is
// singular (the reference's -EINVAL: the solution is then all zeros).
bool est_params(const Dims &dm, const std::vector<float> &d, float sigma_nn,
                std::vector<float> &entropies, std::vector<float> &variances);

// get_speed_score
float score(const Dims &dm, const std::vector<float> &ent_ref,
            const std::vector<float> &var_ref, const std::vector<float> &ent_dis,
            const std::vector<float> &var_dis, float sigma_nn, float nn_floor,
            int weight_var_mode);

// Steps 1-3 for one plane (the per-pixel work, kernels/speed.h): the
// anti-aliased image's every 16th sample, ow x oh, row-major.
std::vector<float> dec16_image(const Options &opt, const Dims &dm, const VqPlaneView &plane,
                               int bpc);
// Step 4, in place: the 1/16 image minus its local mean (vif_get_filter(4, ks)).
void remove_local_mean(const Options &opt, const Dims &dm, std::vector<float> &d);
// Steps 1-4.
std::vector<float> operating_image(const Options &opt, const Dims &dm,
                                   const VqPlaneView &plane, int bpc);
// The lanczos4 prescale's per-axis tables (sin in double: host only): for
// each of n output positions, the floor of its source position (x0) and 9
// weights (w, VQ_SPEED_LANCZOS_TAPS per position).
void lanczos4_weights(int n, float ratio, std::vector<float> &w, std::vector<int> &x0);

// Steps 4-6 for one plane pair, from steps 1-3's outputs (wherever they were
// computed): the score, and whether either side was singular.
float score_from_dec16(const Options &opt, const Dims &dm, std::vector<float> ref,
                       std::vector<float> dis, bool *singular);

// speed_extract_score for one plane pair: the score, and whether either
// side was singular (the reference's return value).
float plane_score(const Options &opt, const Dims &dm, const VqPlaneView &ref,
                  const VqPlaneView &dis, int bpc, bool *singular);

struct Result {
    double u = 0, v = 0, uv = 0;    // as libvmaf appends them (clipped)
};

// extract_chroma's last step: uv, the one-plane-singular fallback, the clip.
Result combine(const Options &opt, float su, bool err_u, float sv, bool err_v);

// One frame: the reference's and the distorted's U and V planes (views whose
// w, h may exceed dims()' w, h), bpc 8/10/12/16.  check() must have passed.
Result chroma_frame(const Options &opt, const Dims &dm, const VqPlaneView &ref_u,
                    const VqPlaneView &ref_v, const VqPlaneView &dis_u,
                    const VqPlaneView &dis_v, int bpc);

// One speed_chroma instance of a session (exec_plan.h's speed[k]): its
// options, the geometry at the session's size, the bit depth, and what the
// CUDA executor needs for steps 1-3 (geom; its lanczos4 tables point into
// the vectors here).
struct Setup {
    Options opt;
    Dims dm;
    int bpc = 8;
    VqSpeedGeom geom{};
    std::vector<int> lx0, ly0;
    std::vector<float> lwx, lwy;
};

// Fill s.geom (and the lanczos4 tables) from s.opt and s.dm.
void fill_geom(Setup &s);

// The frame from the four 1/16 images steps 1-3 left in an executor's row
// buffer (exec_plan.h: ref U, ref V, dis U, dis V, ow * oh floats each):
// steps 4-7.  The two planes run on two threads.
Result frame_from_dec16(const Setup &s, const float *images);

// ---- speed_temporal (speed.c's SpeedTemporalState, docs/float-small.md) ----
// The same machinery on luma frame differences: ref[n-1] - ref[n] against
// dis[n-1] - dis[n] (or - ref[n] with speed_use_ref_diff); weight mode 0
// (no option for it), no clip (speed_max_val only renames).

// An error message when the reference refuses (or cannot be matched) with
// these options at this luma size, else "".
std::string temporal_check(const Options &opt, int w, int h, int bpc);

// The score extract() appends for a frame after the first, from steps 1-3's
// two images (ow * oh floats each: the reference's difference, then the
// distorted's): steps 4-6; one side singular: 0.
double temporal_from_dec16(const Setup &s, const float *images);

}  // namespace speed
}  // namespace vq

#endif
