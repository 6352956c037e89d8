/*
 * ciede_fold.cpp - ciede2000 on the host (see ciede_fold.h, docs/ciede.md).
 *
 * The reference's math calls, as libvmaf's ciede.c makes them once the
 * compiler has folded pow(x, 2) into x * x and pow(25, 7), powf(25., 7)
 * into constants: pow(base, 2.4), pow(c, 1.0 / 3.0), pow(cbar, 7),
 * atan2, sin, cos, exp (double) and powf(C'bar, 7) (float).  The arithmetic
 * between them is kernels/ciede.h's, shared with the device stage.
 */
/* GCC 12.2 (Debian 12) at -O2/-O3 SLP-vectorizes pairs of float
 * conversions and then folds (double)(float)x back to x: wrong code for the
 * reference's float roundings (docs/ciede.md, "Compiler").  No vectorizing in
 * this file. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-tree-loop-vectorize")
#endif
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ciede.h"
#include "ciede_fold.h"
#include "vqcuda.h"

namespace {

VqCiedeLab lab_ref(uint32_t ys, uint32_t us, uint32_t vs, int bpc)
{
    double rgb[3], lin[3], xyz[3];
    float f[3];
    vq_ciede_rgb(ys, us, vs, bpc, rgb);
    for (int c = 0; c < 3; c++)
        lin[c] = vq_ciede_gamma_is_pow(rgb[c]) ? pow(vq_ciede_gamma_base(rgb[c]), VQ_CIEDE_GAMMA_EXP)
                                               : vq_ciede_gamma_lin(rgb[c]);
    vq_ciede_xyz<double>(lin[0], lin[1], lin[2], xyz);
    for (int c = 0; c < 3; c++)
        f[c] = vq_ciede_lab_is_cbrt(xyz[c]) ? (float)pow(xyz[c], VQ_CIEDE_THIRD)
                                            : vq_ciede_lab_lin<double>(xyz[c]);
    return vq_ciede_lab(f[0], f[1], f[2]);
}

float hue_ref(float b, float ap)
{
    if (vq_ciede_hue_is_zero(b, ap))
        return 0.0f;
    return vq_ciede_hue_wrap((float)atan2((double)b, (double)ap));
}

float de00_ref(VqCiedeLab c1, VqCiedeLab c2)
{
    const VqCiedeB0 b0 = vq_ciede_b0(c1, c2);
    const double p = pow((double)b0.cbar, 7.0);
    const float ap1 = vq_ciede_a_prime<double>(c1.a, p);
    const float ap2 = vq_ciede_a_prime<double>(c2.a, p);
    const float cp1 = vq_ciede_hypot(ap1, c1.b);
    const float cp2 = vq_ciede_hypot(ap2, c2.b);
    const float cbp = (cp1 + cp2) / 2;
    VqCiedeB1 b1;
    b1.dl = b0.dl;
    b1.dcp = cp2 - cp1;
    b1.s_l = vq_ciede_s_l(b0.lbar);
    b1.s_c = vq_ciede_s_c(cbp);
    const float h1 = hue_ref(c1.b, ap1);
    const float h2 = hue_ref(c2.b, ap2);
    const float dhp = vq_ciede_delta_h_prime(b0.c1, b0.c2, h1, h2);
    b1.dhp_big = vq_ciede_delta_H<double>(cp1, cp2, sin(vq_ciede_dh_sin_arg(dhp)));
    const float hbp = vq_ciede_h_bar_prime(h1, h2);
    double arg[4];
    vq_ciede_t_args(hbp, arg);
    const float t = vq_ciede_t<double>(cos(arg[0]), cos(arg[1]), cos(arg[2]), cos(arg[3]));
    b1.s_h = vq_ciede_s_h(cbp, t);
    const float deg = vq_ciede_rt_degrees(hbp);
    const float rad = vq_ciede_rt_rad<double>(exp(vq_ciede_rt_exp_arg(deg)));
    const float p7 = powf(cbp, 7.0f);
    const float rt = vq_ciede_rt<double>(p7, sin((double)rad));
    return vq_ciede_de00(&b1, rt);
}

int fail(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "ciede: %s", msg);
    return VQ_EINVAL;
}

/* the value of a two-candidate word: glibc's powf decides */
int resolve_two(uint32_t hi, uint32_t lo, float *out, char *err, size_t errlen)
{
    const float cbp = vq_u2f(hi);
    float p_lo, p_hi;
    vq_ciede_pow7_bounds_f(cbp, &p_lo, &p_hi);
    const float p = powf(cbp, 7.0f);
    const uint32_t base = lo & 0x7fffffffu;
    if (vq_f2u(p) == vq_f2u(p_lo)) {
        *out = vq_u2f(base);
        return 0;
    }
    if (vq_f2u(p) == vq_f2u(p_hi)) {
        *out = vq_u2f(lo >> 31 ? base - 1 : base + 1);
        return 0;
    }
    return fail(err, errlen, "glibc's powf(x, 7) is neither float next to x^7: cannot be exact");
}

}  // namespace

extern "C" float vq_ciede_pixel_ref(const uint32_t s[6], int bpc)
{
    return de00_ref(lab_ref(s[0], s[1], s[2], bpc), lab_ref(s[3], s[4], s[5], bpc));
}

extern "C" int vq_ciede_check(int w, int h, int bpc, int ssx, int ssy, int has_chroma, char *err,
                              size_t errlen)
{
    char msg[256];
    if (w <= 0 || h <= 0)
        return fail(err, errlen, "empty picture");
    if (!has_chroma)
        return fail(err, errlen, "needs chroma: libvmaf refuses gray (YUV400) input");
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16) {
        snprintf(msg, sizeof(msg), "%d bits per sample: libvmaf scores 8, 10, 12 or 16", bpc);
        return fail(err, errlen, msg);
    }
    if (!((ssx == 1 && ssy == 1) || (ssx == 1 && ssy == 0) || (ssx == 0 && ssy == 0)))
        return fail(err, errlen, "chroma subsampling other than 4:2:0, 4:2:2, 4:4:4");
    if (ssx || ssy) {
        const VqCiedeGeom g = vq_ciede_geom(w, h, ssx, ssy, bpc);
        const int64_t last = (int64_t)((h - 1) / 2) * g.stride + (ssy ? (w - 1) / 2 : (w - 1));
        if (g.cw <= 0 || g.ch <= 0 || last >= (int64_t)g.ch * g.stride) {
            snprintf(msg, sizeof(msg),
                     "%dx%d 4:2:%d: libvmaf's chroma upsampling would read past its %dx%d chroma "
                     "plane (undefined)", w, h, ssy ? 0 : 2, g.cw, g.ch);
            return fail(err, errlen, msg);
        }
    }
    return 0;
}

extern "C" int64_t vq_ciede_extra_entries(const int64_t *buf)
{
    return buf[0] > VQ_CIEDE_LIST_INLINE ? buf[0] - VQ_CIEDE_LIST_INLINE : 0;
}

extern "C" int vq_ciede_pixel_value(const VqCiedeGeom *g, const int64_t *buf, const int64_t *extra,
                                    size_t k, float *out, char *err, size_t errlen)
{
    const uint64_t word = (uint64_t)buf[VQ_CIEDE_PIX_OFF + k];
    const uint32_t hi = (uint32_t)(word >> 32), lo = (uint32_t)word;
    if (hi == VQ_CIEDE_TAG_EXACT) {
        *out = vq_u2f(lo);
        return 0;
    }
    if (hi == VQ_CIEDE_TAG_LIST) {
        if ((int64_t)lo >= buf[0])
            return fail(err, errlen, "list position past the list");
        const int64_t *e = lo < VQ_CIEDE_LIST_INLINE ? buf + 1 + 2 * (size_t)lo
                                                     : extra ? extra + 2 * (size_t)(lo - VQ_CIEDE_LIST_INLINE)
                                                             : nullptr;
        if (!e)
            return fail(err, errlen, "list entries past the inline ones were not fetched");
        const uint64_t w0 = (uint64_t)e[0], w1 = (uint64_t)e[1];
        if ((uint32_t)w0 != (uint32_t)k)
            return fail(err, errlen, "list entry of another pixel");
        const uint32_t s[6] = { (uint32_t)(w0 >> 32) & 0xffff, (uint32_t)(w0 >> 48),
                                (uint32_t)w1 & 0xffff,         (uint32_t)(w1 >> 16) & 0xffff,
                                (uint32_t)(w1 >> 32) & 0xffff, (uint32_t)(w1 >> 48) };
        *out = vq_ciede_pixel_ref(s, g->bpc);
        return 0;
    }
    if (hi >= 0x7f800000u)
        return fail(err, errlen, "bad pixel word");
    return resolve_two(hi, lo, out, err, errlen);
}

extern "C" int vq_ciede_fold(const VqCiedeGeom *g, const int64_t *buf, const int64_t *extra,
                             double *score, char *err, size_t errlen)
{
    const size_t n = (size_t)g->w * (size_t)g->h;
    const int64_t *px = buf + VQ_CIEDE_PIX_OFF;
    double sum = 0.;
    for (size_t k = 0; k < n; k++) {
        const uint64_t word = (uint64_t)px[k];
        float v;
        if ((uint32_t)(word >> 32) == VQ_CIEDE_TAG_EXACT) {
            v = vq_u2f((uint32_t)word);
        } else {
            const int r = vq_ciede_pixel_value(g, buf, extra, k, &v, err, errlen);
            if (r)
                return r;
        }
        sum += v;
    }
    /* libvmaf: de00_sum / (ref_pic->w[0] * ref_pic->h[0]), an unsigned product */
    *score = 45. - 20. * log10(sum / (double)((unsigned)g->w * (unsigned)g->h));
    return 0;
}
