// float_vif_fold.h - libvmaf v3.2.0's float_vif on the host: its options,
// what it refuses, the geometry the executors run (taps from exp and sqrt,
// sigma_max_inv from powf, the prescale's lanczos4 weights from sin), and
// the fold of the executors' row sums into the outputs (docs/float-vif.md).
#ifndef VQ_FLOAT_VIF_FOLD_H
#define VQ_FLOAT_VIF_FOLD_H

#include <string>
#include <vector>

#include "float_vif/float_vif.h"

namespace vq {
namespace fvif {

// float_vif.c's options, with its defaults
struct Options {
    double enhn_gain_limit = 100.0;     // vif_enhn_gain_limit (egl), 1 .. 100
    double kernelscale = 1.0;           // vif_kernelscale (ks), 0.1 .. 4, one of vif_tools.h's list
    double prescale = 1.0;              // vif_prescale (ps), 0.1 .. 4
    std::string prescale_method = "nearest";   // vif_prescale_method (pm)
    double sigma_nsq = 2.0;             // vif_sigma_nsq (snsq), 0 .. 5
    bool skip_scale0 = false;           // vif_skip_scale0 (ssclz)
    double min_val[3] = { 0.0, 0.0, 0.0 };   // vif_scale1/2/3_min_val (s1miv ...), 0 .. 1
    bool debug = false;
};

// An error message when the reference refuses these options at this size
// (or computes from memory it never wrote, or NaN), else "".
std::string check(const Options &o, int w, int h, int bpc);

// One instance's geometry and the tables its pointers point into.
struct Setup {
    Options opt;
    VqFloatVifGeom geom{};
    std::vector<int> lx0, ly0;
    std::vector<float> lwx, lwy;
};

// Fill s.geom for a w x h picture (check() must have passed); the words
// of its row-buffer section are laid out from 0.
void fill_geom(Setup &s, int w, int h);

// The outputs from the executor's words (geom.words of them), in libvmaf's
// order: vif_scale0..3, then under debug vif, vif_num, vif_den and
// vif_num_scale0, vif_den_scale0, ... vif_den_scale3 (4 or 15 values).
// (geometry from the executor's instance; min_val and debug from o)
void fold(const VqFloatVifGeom &g, const Options &o, const int64_t *words, double *out);

// compute_vif's per-scale float sums of the row sums (scores[2s], [2s+1]).
void scale_sums(const VqFloatVifGeom &g, const int64_t *words, int scale, float *num, float *den);

}  // namespace fvif
}  // namespace vq

#endif
