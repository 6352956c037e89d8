// float_vif_fold.cpp - see float_vif_fold.h and docs/float-vif.md.  Built
// with -ffp-contract=off; every expression keeps the reference's types.
#include "float_vif_fold.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "speed_chroma.hpp"

namespace vq {
namespace fvif {

std::string check(const Options &o, int w, int h, int bpc)
{
    char msg[256];
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return "float_vif: bit depth must be 8, 10, 12 or 16 (picture_copy reads other depths as 8-bit samples)";
    if (!speed::kernelscale_valid((float)o.kernelscale)) {
        std::snprintf(msg, sizeof(msg), "float_vif: invalid vif_kernelscale %g (libvmaf's compute_vif fails: "
                      "it accepts only the 21 values of vif_tools.h's list)", o.kernelscale);
        return msg;
    }
    if (speed::scale_method(o.prescale_method) < 0)
        return "float_vif: vif_prescale_method must be nearest, bilinear, bicubic or lanczos4";
    if (!(o.sigma_nsq > 0.0))
        return "float_vif: vif_sigma_nsq 0 makes libvmaf divide 0 by 0 (a NaN whose bits it then reads as "
               "a float's exponent): there is no defined result to match";
    Setup s;
    s.opt = o;
    fill_geom(s, w, h);
    const VqFloatVifGeom &g = s.geom;
    for (int k = g.first_scale; k < VQ_FVIF_SCALES; k++) {
        const int r = g.fw[k] / 2;
        if (g.sc_w[k] <= r || g.sc_h[k] <= r) {
            std::snprintf(msg, sizeof(msg), "float_vif: scale %d's image (%dx%d, from %dx%d after the prescale) is "
                          "too small for its %d-tap filter: libvmaf's mirrored borders would read outside it",
                          k, g.sc_w[k], g.sc_h[k], g.sw, g.sh, g.fw[k]);
            return msg;
        }
    }
    return "";
}

void fill_geom(Setup &s, int w, int h)
{
    VqFloatVifGeom &g = s.geom;
    std::memset(&g, 0, sizeof(g));
    const Options &o = s.opt;
    g.w = w;
    g.h = h;
    // init: "(int)(w * s->vif_prescale + 0.5)", w unsigned, in double
    g.sw = (int)((unsigned)w * o.prescale + 0.5);
    g.sh = (int)((unsigned)h * o.prescale + 0.5);
    g.scaled = g.sw != w || g.sh != h;   // equal sizes: vif_scale_frame_s copies
    g.method = speed::scale_method(o.prescale_method);
    g.ratio_x = (float)w / g.sw;
    g.ratio_y = (float)h / g.sh;
    s.lx0.clear();
    s.ly0.clear();
    s.lwx.clear();
    s.lwy.clear();
    if (g.scaled && g.method == VQ_SPEED_LANCZOS4) {
        speed::lanczos4_weights(g.sw, g.ratio_x, s.lwx, s.lx0);
        speed::lanczos4_weights(g.sh, g.ratio_y, s.lwy, s.ly0);
    }
    g.lx0 = s.lx0.empty() ? nullptr : s.lx0.data();
    g.ly0 = s.ly0.empty() ? nullptr : s.ly0.data();
    g.lwx = s.lwx.empty() ? nullptr : s.lwx.data();
    g.lwy = s.lwy.empty() ? nullptr : s.lwy.data();
    g.first_scale = o.skip_scale0 ? 1 : 0;
    size_t off = 0;
    for (int k = 0; k < VQ_FVIF_SCALES; k++) {
        // VIF_OPT_HANDLE_BORDERS: each scale keeps the whole image, halved
        g.sc_w[k] = k ? g.sc_w[k - 1] / 2 : g.sw;
        g.sc_h[k] = k ? g.sc_h[k - 1] / 2 : g.sh;
        // vif_get_filter(filter, scale, (float)vif_kernelscale)
        const std::vector<float> taps = speed::vif_taps(k, (float)o.kernelscale);
        g.fw[k] = (int)taps.size() <= VQ_FVIF_MAX_TAPS ? (int)taps.size() : VQ_FVIF_MAX_TAPS;
        std::memcpy(g.taps[k], taps.data(), sizeof(float) * (size_t)g.fw[k]);
        g.row_off[k] = off;
        if (k >= g.first_scale)
            off += (size_t)g.sc_h[k];
    }
    g.words = off;
    g.egl = (float)o.enhn_gain_limit;
    // "powf(vif_sigma_nsq, 2.0f) / (255.0*255.0)" into a float
    g.sigma_max_inv = (float)((double)::powf((float)o.sigma_nsq, 2.0f) / (255.0 * 255.0));
    g.sigma_nsq = o.sigma_nsq;
}

void scale_sums(const VqFloatVifGeom &g, const int64_t *words, int scale, float *num, float *den)
{
    // vif_statistic_s: "accum_num += accum_inner_num" row by row, in float
    float an = 0.0f, ad = 0.0f;
    for (int i = 0; i < g.sc_h[scale]; i++) {
        float n, d;
        vq_fvif_unpack(words[g.row_off[scale] + (size_t)i], &n, &d);
        an += n;
        ad += d;
    }
    *num = an;
    *den = ad;
}

void fold(const VqFloatVifGeom &g, const Options &o, const int64_t *words, double *out)
{
    double scores[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    for (int k = g.first_scale; k < VQ_FVIF_SCALES; k++) {
        float n, d;
        scale_sums(g, words, k, &n, &d);
        scores[2 * k] = n;
        scores[2 * k + 1] = d;
    }
    auto max = [](double x, double y) { return x > y ? x : y; };   // MAX(x, y)
    out[0] = o.skip_scale0 ? (double)0.0f : scores[0] / scores[1];
    for (int k = 1; k < 4; k++)
        out[k] = max(scores[2 * k] / scores[2 * k + 1], o.min_val[k - 1]);
    if (!o.debug)
        return;
    // compute_vif: the scales' num and den added in double, scale order
    double score_num = 0.0, score_den = 0.0;
    for (int k = g.first_scale; k < VQ_FVIF_SCALES; k++) {
        score_num += scores[2 * k];
        score_den += scores[2 * k + 1];
    }
    out[4] = score_den == 0.0 ? (double)1.0f : score_num / score_den;
    out[5] = score_num;
    out[6] = score_den;
    out[7] = o.skip_scale0 ? (double)0.0f : scores[0];
    out[8] = o.skip_scale0 ? (double)-1.0f : scores[1];
    for (int k = 1; k < 4; k++) {
        out[7 + 2 * k] = scores[2 * k];
        out[8 + 2 * k] = scores[2 * k + 1];
    }
}

}  // namespace fvif
}  // namespace vq
