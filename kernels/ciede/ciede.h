/*
 * ciede.h - libvmaf v3.2.0's "ciede" extractor (feature ciede2000), the
 * arithmetic between its math-library calls, written once.
 *
 * Every step is a template over the number types: D is double or VqIvD (an
 * interval of doubles), F is float or VqIvF.  hostmath/ciede/ciede_fold.cpp runs
 * them on plain doubles/floats around glibc's pow/powf/atan2/sin/cos/exp: that
 * is the reference, bit for bit (docs/ciede.md lists every type and order).
 * The device stage (the second half of this file) runs the same steps on intervals
 * that enclose whatever glibc could return, and keeps a pixel's value only
 * where the interval of every float the reference rounds to is one float.
 *
 * An interval op evaluates the same IEEE round-to-nearest operation at the
 * corners: since rounding is monotone, RN(x op y) for every x, y in the
 * input intervals lies between the corners' RN results.  Point intervals
 * stay points and give exactly the reference's RN result.
 */
#ifndef VQ_CIEDE_H
#define VQ_CIEDE_H

#include <math.h>
#include <string.h>

#include "vq_common.h"
#include "ciede_exec.h"

/* ---- constants: the reference's constant expressions, as hex literals ----
 * (tests/test_ciede.cpp checks each against the expression itself) */
#define VQ_CIEDE_2PI         0x1.921fb54442d18p+2    /* 2. * M_PI */
#define VQ_CIEDE_PI          0x1.921fb54442d18p+1    /* M_PI */
#define VQ_CIEDE_PI_6        0x1.0c152382d7365p-1    /* M_PI / 6.0 */
#define VQ_CIEDE_PI_30       0x1.acee9f37bebd5p-4    /* M_PI / 30.0 */
#define VQ_CIEDE_7PI_20      0x1.197c987c952c4p+0    /* 7.0 * M_PI / 20.0 */
#define VQ_CIEDE_180_PI      0x1.ca5dc1a63c1f8p+5    /* 180.0 / M_PI */
#define VQ_CIEDE_PI_180      0x1.1df46a2529d39p-6    /* M_PI / 180.0 */
#define VQ_CIEDE_GAMMA_T     0x1.4141414141414p-5    /* 10. / 255. */
#define VQ_CIEDE_GAMMA_D     0x1.e54edcd0aeb60p-1    /* 1.0 / 1.055 */
#define VQ_CIEDE_LIN_D       0x1.3d0722149b580p-4    /* 1.0 / 12.92 */
#define VQ_CIEDE_LAB_EPS     0x1.22354d28f7cd6p-7    /* 216.0 / 24389.0 */
#define VQ_CIEDE_LAB_KAPPA   0x1.c3a5ed097b426p+9    /* 24389.0 / 27.0 */
#define VQ_CIEDE_1_116       0x1.1a7b9611a7b96p-7    /* 1.0 / 116.0 */
#define VQ_CIEDE_XN_INV      0x1.0d57268615430p+0    /* 1.0 / 0.95047 */
#define VQ_CIEDE_ZN_INV      0x1.d63ac153514f5p-1    /* 1.0 / 1.08883 */
#define VQ_CIEDE_THIRD       0x1.5555555555555p-2    /* 1.0 / 3.0 */
#define VQ_CIEDE_1_25        0x1.47ae147ae147bp-5    /* 1.0 / 25.0 */
#define VQ_CIEDE_25_7        6103515625.0            /* pow(25, 7), folded by the compiler */
#define VQ_CIEDE_25_7F       6103515648.0f           /* powf(25., 7), folded: RN_float(25^7) */
#define VQ_CIEDE_GAMMA_EXP   2.4                     /* pow(x, 2.4) */

/* ---- intervals ---- */
typedef struct VqIvD { double lo, hi; } VqIvD;
typedef struct VqIvF { float lo, hi; } VqIvF;

VQ_HD VqIvD vq_ivd(double lo, double hi) { VqIvD r; r.lo = lo; r.hi = hi; return r; }
VQ_HD VqIvF vq_ivf(float lo, float hi) { VqIvF r; r.lo = lo; r.hi = hi; return r; }
/* min / max that keep a NaN (an interval with a NaN end is undecided) */
VQ_HD double vq_dmin(double a, double b) { return a != a ? a : b != b ? b : a < b ? a : b; }
VQ_HD double vq_dmax(double a, double b) { return a != a ? a : b != b ? b : a > b ? a : b; }
VQ_HD float vq_fmin(float a, float b) { return a != a ? a : b != b ? b : a < b ? a : b; }
VQ_HD float vq_fmax(float a, float b) { return a != a ? a : b != b ? b : a > b ? a : b; }

VQ_HD VqIvD operator+(VqIvD a, VqIvD b) { return vq_ivd(a.lo + b.lo, a.hi + b.hi); }
VQ_HD VqIvD operator-(VqIvD a, VqIvD b) { return vq_ivd(a.lo - b.hi, a.hi - b.lo); }
VQ_HD VqIvD operator*(VqIvD a, VqIvD b)
{
    const double p0 = a.lo * b.lo, p1 = a.lo * b.hi, p2 = a.hi * b.lo, p3 = a.hi * b.hi;
    return vq_ivd(vq_dmin(vq_dmin(p0, p1), vq_dmin(p2, p3)), vq_dmax(vq_dmax(p0, p1), vq_dmax(p2, p3)));
}
/* the divisor must not contain 0 (callers' divisors are > 0) */
VQ_HD VqIvD operator/(VqIvD a, VqIvD b)
{
    const double p0 = a.lo / b.lo, p1 = a.lo / b.hi, p2 = a.hi / b.lo, p3 = a.hi / b.hi;
    return vq_ivd(vq_dmin(vq_dmin(p0, p1), vq_dmin(p2, p3)), vq_dmax(vq_dmax(p0, p1), vq_dmax(p2, p3)));
}
VQ_HD VqIvD operator+(double a, VqIvD b) { return vq_ivd(a, a) + b; }
VQ_HD VqIvD operator+(VqIvD a, double b) { return a + vq_ivd(b, b); }
VQ_HD VqIvD operator-(double a, VqIvD b) { return vq_ivd(a, a) - b; }
VQ_HD VqIvD operator-(VqIvD a, double b) { return a - vq_ivd(b, b); }
VQ_HD VqIvD operator*(double a, VqIvD b) { return vq_ivd(a, a) * b; }
VQ_HD VqIvD operator*(VqIvD a, double b) { return a * vq_ivd(b, b); }
VQ_HD VqIvD operator/(VqIvD a, double b) { return a / vq_ivd(b, b); }

VQ_HD VqIvF operator+(VqIvF a, VqIvF b) { return vq_ivf(a.lo + b.lo, a.hi + b.hi); }
VQ_HD VqIvF operator-(VqIvF a, VqIvF b) { return vq_ivf(a.lo - b.hi, a.hi - b.lo); }
VQ_HD VqIvF operator*(VqIvF a, VqIvF b)
{
    const float p0 = a.lo * b.lo, p1 = a.lo * b.hi, p2 = a.hi * b.lo, p3 = a.hi * b.hi;
    return vq_ivf(vq_fmin(vq_fmin(p0, p1), vq_fmin(p2, p3)), vq_fmax(vq_fmax(p0, p1), vq_fmax(p2, p3)));
}
VQ_HD VqIvF operator/(VqIvF a, VqIvF b)
{
    const float p0 = a.lo / b.lo, p1 = a.lo / b.hi, p2 = a.hi / b.lo, p3 = a.hi / b.hi;
    return vq_ivf(vq_fmin(vq_fmin(p0, p1), vq_fmin(p2, p3)), vq_fmax(vq_fmax(p0, p1), vq_fmax(p2, p3)));
}
VQ_HD VqIvF operator+(VqIvF a, float b) { return a + vq_ivf(b, b); }
VQ_HD VqIvF operator*(float a, VqIvF b) { return vq_ivf(a, a) * b; }

/* sqrt (IEEE, correctly rounded on both sides), conversions */
VQ_HD double vq_sqrt(double x) { return sqrt(x); }
VQ_HD VqIvD vq_sqrt(VqIvD x) { return vq_ivd(sqrt(x.lo), sqrt(x.hi)); }
VQ_HD float vq_to_f(double x) { return (float)x; }
VQ_HD VqIvF vq_to_f(VqIvD x) { return vq_ivf((float)x.lo, (float)x.hi); }
VQ_HD double vq_to_d(float x) { return (double)x; }
VQ_HD VqIvD vq_to_d(VqIvF x) { return vq_ivd((double)x.lo, (double)x.hi); }


/* one float, known exactly: both ends the same bits, not NaN */
VQ_HD int vq_ivf_point(VqIvF x, float *out)
{
    *out = x.lo;
    return vq_f32_bits(x.lo) == vq_f32_bits(x.hi) && x.lo == x.lo;
}

/* ---- sample fetch: libvmaf's scale_chroma_planes() ----
 * 4:4:4: the planes as they are.  Otherwise libvmaf upsamples into a 4:4:4
 * picture, reading its own picture of the input: chroma planes of
 * cw = w >> 1 samples, ch = h >> ssy rows, a stride of cw rounded up to 32
 * samples (padding zero).  Output row i reads chroma row i / 2 (4:2:0 and
 * 4:2:2 alike: the row step follows "horizontal subsampling"), and column j
 * reads flat offset j / 2 for 4:2:0 but j for 4:2:2 (the column step follows
 * "vertical subsampling"), so a 4:2:2 row runs on into the padding and the
 * next chroma row.  vq_ciede_check() refuses sizes where a read would leave
 * the plane. */
VQ_HD uint32_t vq_ciede_chroma_sample(const VqPlaneView v, const VqCiedeGeom *g, int i, int j)
{
    if (!g->ssx && !g->ssy)
        return vq_sample(v, i, j);
    const int64_t k = (int64_t)(i / 2) * g->stride + (g->ssy ? j / 2 : j);
    const int r = (int)(k / g->stride), c = (int)(k % g->stride);
    return c < g->cw ? vq_sample(v, r, c) : 0;
}

/* the six samples of pixel (i, j): ref Y U V, dis Y U V */
VQ_HD void vq_ciede_fetch(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                          int i, int j, uint32_t s[6])
{
    s[0] = vq_sample(ref[0], i, j);
    s[1] = vq_ciede_chroma_sample(ref[1], g, i, j);
    s[2] = vq_ciede_chroma_sample(ref[2], g, i, j);
    s[3] = vq_sample(dis[0], i, j);
    s[4] = vq_ciede_chroma_sample(dis[1], g, i, j);
    s[5] = vq_ciede_chroma_sample(dis[2], g, i, j);
}

/* ---- stage A: Y'CbCr -> Lab (get_lab_color), all double unless noted ---- */

/* the samples arrive as float (exact), then double */
VQ_HD void vq_ciede_rgb(uint32_t ys, uint32_t us, uint32_t vs, int bpc, double rgb[3])
{
    const double scale = (double)(1 << (bpc - 8));
    const double y = ((double)ys - 16. * scale) * (1. / (219. * scale));
    const double u = ((double)us - 128. * scale) * (1. / (224. * scale));
    const double v = ((double)vs - 128. * scale) * (1. / (224. * scale));
    rgb[0] = y + 1.28033 * v;
    rgb[1] = y - 0.21482 * u - 0.38059 * v;
    rgb[2] = y + 2.12798 * u;
}

/* rgb_to_xyz_map: c > 10/255: pow(base, 2.4); else c / 12.92 */
VQ_HD int vq_ciede_gamma_is_pow(double c) { return c > VQ_CIEDE_GAMMA_T; }
VQ_HD double vq_ciede_gamma_base(double c) { return (c + 0.055) * VQ_CIEDE_GAMMA_D; }
VQ_HD double vq_ciede_gamma_lin(double c) { return c * VQ_CIEDE_LIN_D; }

/* linear RGB -> X/Xn, Y, Z/Zn (the arguments of xyz_to_lab_map) */
template <class D>
VQ_HD void vq_ciede_xyz(D r, D g, D b, D out[3])
{
    const D x = r * 0.4124564390896921 + g * 0.357576077643909 + b * 0.18043748326639894;
    const D y = r * 0.21267285140562248 + g * 0.715152155287818 + b * 0.07217499330655958;
    const D z = r * 0.019333895582329317 + g * 0.119192025881303 + b * 0.9503040785363677;
    out[0] = x * VQ_CIEDE_XN_INV;
    out[1] = y;
    out[2] = z * VQ_CIEDE_ZN_INV;
}

/* xyz_to_lab_map (returns float): c > eps: (float)pow(c, 1/3); else linear */
VQ_HD int vq_ciede_lab_is_cbrt(double c) { return c > VQ_CIEDE_LAB_EPS; }
template <class D>
VQ_HD auto vq_ciede_lab_lin(D c) -> decltype(vq_to_f(c))
{
    return vq_to_f((VQ_CIEDE_LAB_KAPPA * c + 16.0) * VQ_CIEDE_1_116);
}

typedef struct VqCiedeLab { float l, a, b; } VqCiedeLab;

VQ_HD VqCiedeLab vq_ciede_lab(float fx, float fy, float fz)
{
    const double x = fx, y = fy, z = fz;
    VqCiedeLab c;
    c.l = (float)((116.0 * y) - 16.0);
    c.a = (float)(500.0 * (x - y));
    c.b = (float)(200.0 * (y - z));
    return c;
}

/* ---- stage B: ciede2000(), float variables, double where C promotes ---- */

/* sqrt(pow(a, 2) + pow(b, 2)): the compiler turns pow(x, 2) into x * x */
VQ_HD float vq_ciede_hypot(float a, float b)
{
    return (float)sqrt((double)a * (double)a + (double)b * (double)b);
}

typedef struct VqCiedeB0 {
    float dl, lbar, c1, c2, cbar;
} VqCiedeB0;

VQ_HD VqCiedeB0 vq_ciede_b0(VqCiedeLab c1, VqCiedeLab c2)
{
    VqCiedeB0 r;
    r.dl = c2.l - c1.l;
    r.lbar = (c1.l + c2.l) / 2;
    r.c1 = vq_ciede_hypot(c1.a, c1.b);
    r.c2 = vq_ciede_hypot(c2.a, c2.b);
    r.cbar = (r.c1 + r.c2) / 2;
    return r;
}

/* a' = a + (a / 2) * (1 - sqrt(P / (P + 25^7))), P = pow(cbar, 7) */
template <class D>
VQ_HD auto vq_ciede_a_prime(float a, D p) -> decltype(vq_to_f(p))
{
    return vq_to_f((double)a + (double)(a / 2) * (1.0 - vq_sqrt(p / (p + VQ_CIEDE_25_7))));
}

/* S_L, S_C (float) */
VQ_HD float vq_ciede_s_l(float lbar)
{
    const float t = lbar - 50;
    const double t2 = (double)t * (double)t;
    return (float)(1. + ((0.015 * t2) / sqrt(20 + t2)));
}
VQ_HD float vq_ciede_s_c(float cbp) { return (float)(1. + 0.045 * (double)cbp); }

/* h' after atan2: a negative angle gets 2 pi added (in double) */
VQ_HD float vq_ciede_hue_wrap(float h) { return h < 0.0 ? (float)((double)h + VQ_CIEDE_2PI) : h; }

/* get_h_prime's early exit: atan2 is called only when this is 0 */
VQ_HD int vq_ciede_hue_is_zero(float b, float ap) { return b == 0.0 && ap == 0.0; }

VQ_HD float vq_ciede_delta_h_prime(float c1, float c2, float h1, float h2)
{
    if (c1 == 0.0 || c2 == 0.0)
        return 0.0f;
    if (fabsf(h1 - h2) <= VQ_CIEDE_PI)
        return h2 - h1;
    if (h2 <= h1)
        return (float)((double)(h2 - h1) + VQ_CIEDE_2PI);
    return (float)((double)(h2 - h1) - VQ_CIEDE_2PI);
}

VQ_HD float vq_ciede_h_bar_prime(float h1, float h2)
{
    return fabs((double)(h1 - h2)) > VQ_CIEDE_PI ? (float)(((double)(h1 + h2) + VQ_CIEDE_2PI) / 2.0)
                                                 : (float)((double)(h1 + h2) / 2.0);
}

/* delta H' = 2 sqrt(C'1 C'2) sin(dh' / 2); the sine's argument: */
VQ_HD double vq_ciede_dh_sin_arg(float dhp) { return (double)dhp / 2.0; }
template <class D>
VQ_HD auto vq_ciede_delta_H(float cp1, float cp2, D s) -> decltype(vq_to_f(s))
{
    return vq_to_f(2.0 * sqrt((double)(cp1 * cp2)) * s);
}

/* T: the four cosines' arguments, then the sum */
VQ_HD void vq_ciede_t_args(float hbp, double arg[4])
{
    const double h = hbp;
    arg[0] = h - VQ_CIEDE_PI_6;
    arg[1] = 2.0 * h;
    arg[2] = 3.0 * h + VQ_CIEDE_PI_30;
    arg[3] = 4.0 * h - VQ_CIEDE_7PI_20;
}
template <class D>
VQ_HD auto vq_ciede_t(D c0, D c1, D c2, D c3) -> decltype(vq_to_f(c0))
{
    return vq_to_f(1.0 - 0.17 * c0 + 0.24 * c1 + 0.32 * c2 - 0.20 * c3);
}

VQ_HD float vq_ciede_s_h(float cbp, float t) { return (float)(1.0 + 0.015 * (double)cbp * (double)t); }

/* R_T: degrees = (H' in degrees - 275) / 25, float at each step */
VQ_HD float vq_ciede_rt_degrees(float hbp)
{
    const float deg = (float)((double)hbp * VQ_CIEDE_180_PI);
    return (float)(((double)deg - 275.0) * VQ_CIEDE_1_25);
}
/* exp's argument: -(powf(degrees, 2)), the compiler's degrees * degrees */
VQ_HD double vq_ciede_rt_exp_arg(float d) { return (double)-(d * d); }
/* degrees_to_radians((float)(60 * exp(...))) */
template <class D>
VQ_HD auto vq_ciede_rt_rad(D e) -> decltype(vq_to_f(e))
{
    return vq_to_f(vq_to_d(vq_to_f(60.0 * e)) * VQ_CIEDE_PI_180);
}
/* -2 sqrt(P7 / (P7 + 25^7)) sin(rad), P7 = powf(C'bar, 7) in float */
template <class D>
VQ_HD auto vq_ciede_rt(float p7, D s) -> decltype(vq_to_f(s))
{
    return vq_to_f(-2.0 * sqrt((double)(p7 / (p7 + VQ_CIEDE_25_7F))) * s);
}

/* the last step: k_L = 0.65f, k_C = 1.0f, k_H = 4.0f (float members) */
typedef struct VqCiedeB1 {
    float dl, dcp, dhp_big, s_l, s_c, s_h;
} VqCiedeB1;

VQ_HD float vq_ciede_de00(const VqCiedeB1 *b, float rt)
{
    const float lightness = b->dl / (0.65f * b->s_l);
    const float chroma = b->dcp / (1.0f * b->s_c);
    const float hue = b->dhp_big / (4.0f * b->s_h);
    return (float)sqrt((double)lightness * (double)lightness + (double)chroma * (double)chroma +
                       (double)hue * (double)hue + (double)(rt * chroma * hue));
}

/* powf / pow of 7 and the libm approximations (a part of this file) */
#include "ciede_libm.h"

/* ---- stage A on the device: Lab, or 0 when a float is not decided ---- */
VQ_HD int vq_ciede_dev_lab(uint32_t ys, uint32_t us, uint32_t vs, int bpc, VqCiedeLab *out)
{
    double rgb[3];
    VqIvD lin[3], xyz[3];
    float f[3];
    vq_ciede_rgb(ys, us, vs, bpc, rgb);
    for (int c = 0; c < 3; c++) {
        if (vq_ciede_gamma_is_pow(rgb[c])) {
            lin[c] = vq_ciede_enclose(vq_ciede_pow_approx(vq_ciede_gamma_base(rgb[c]), VQ_CIEDE_GAMMA_EXP));
        } else {
            const double l = vq_ciede_gamma_lin(rgb[c]);
            lin[c] = vq_ivd(l, l);
        }
    }
    vq_ciede_xyz<VqIvD>(lin[0], lin[1], lin[2], xyz);
    for (int c = 0; c < 3; c++) {
        VqIvF fi;
        if (vq_ciede_lab_is_cbrt(xyz[c].lo)) {
            /* x^(1/3) is increasing: glibc's value lies in the ends' enclosures */
            fi = vq_to_f(vq_ivd(vq_ciede_enclose(vq_ciede_pow_approx(xyz[c].lo, VQ_CIEDE_THIRD)).lo,
                                vq_ciede_enclose(vq_ciede_pow_approx(xyz[c].hi, VQ_CIEDE_THIRD)).hi));
        } else if (!vq_ciede_lab_is_cbrt(xyz[c].hi)) {
            fi = vq_ciede_lab_lin<VqIvD>(xyz[c]);
        } else {
            return 0;   /* the branch itself is not decided */
        }
        if (!vq_ivf_point(fi, &f[c]))
            return 0;
    }
    *out = vq_ciede_lab(f[0], f[1], f[2]);
    return 1;
}

VQ_HD int vq_ciede_dev_hue(float b, float ap, float *out)
{
    if (vq_ciede_hue_is_zero(b, ap)) {
        *out = 0.0f;
        return 1;
    }
    float h;
    if (!vq_ivf_point(vq_to_f(vq_ciede_enclose(vq_ciede_atan2_approx((double)b, (double)ap))), &h))
        return 0;
    *out = vq_ciede_hue_wrap(h);
    return 1;
}

/* ---- stage B on the device ----
 * Returns the pixel word's 64 bits, or 0 when the host must recompute the
 * pixel (0 is no valid word: its hi32 would be the candidate +0.0 with a
 * lo32 of +0.0, which stage B never emits: equal candidates are exact). */
VQ_HD uint64_t vq_ciede_dev_de00(VqCiedeLab c1, VqCiedeLab c2)
{
    const VqCiedeB0 b0 = vq_ciede_b0(c1, c2);
    VqIvD p;
    vq_ciede_pow7_bounds_d(b0.cbar, &p.lo, &p.hi);     /* glibc's pow(cbar, 7) is one of the two */
    float ap1, ap2, h1, h2, dH, t, rad;
    if (!vq_ivf_point(vq_ciede_a_prime<VqIvD>(c1.a, p), &ap1) ||
        !vq_ivf_point(vq_ciede_a_prime<VqIvD>(c2.a, p), &ap2))
        return 0;
    const float cp1 = vq_ciede_hypot(ap1, c1.b);
    const float cp2 = vq_ciede_hypot(ap2, c2.b);
    const float cbp = (cp1 + cp2) / 2;
    VqCiedeB1 b1;
    b1.dl = b0.dl;
    b1.dcp = cp2 - cp1;
    b1.s_l = vq_ciede_s_l(b0.lbar);
    b1.s_c = vq_ciede_s_c(cbp);
    if (!vq_ciede_dev_hue(c1.b, ap1, &h1) || !vq_ciede_dev_hue(c2.b, ap2, &h2))
        return 0;
    const float dhp = vq_ciede_delta_h_prime(b0.c1, b0.c2, h1, h2);
    const VqIvD s = vq_ciede_enclose(vq_ciede_sincos_approx(vq_ciede_dh_sin_arg(dhp), 0));
    if (!vq_ivf_point(vq_ciede_delta_H<VqIvD>(cp1, cp2, s), &dH))
        return 0;
    b1.dhp_big = dH;
    const float hbp = vq_ciede_h_bar_prime(h1, h2);
    double arg[4];
    VqIvD c[4];
    vq_ciede_t_args(hbp, arg);
    for (int k = 0; k < 4; k++)
        c[k] = vq_ciede_enclose(vq_ciede_sincos_approx(arg[k], 1));
    if (!vq_ivf_point(vq_ciede_t<VqIvD>(c[0], c[1], c[2], c[3]), &t))
        return 0;
    b1.s_h = vq_ciede_s_h(cbp, t);
    const float deg = vq_ciede_rt_degrees(hbp);
    const VqIvD e = vq_ciede_enclose(vq_ciede_exp_approx(vq_ciede_rt_exp_arg(deg)));
    if (!vq_ivf_point(vq_ciede_rt_rad<VqIvD>(e), &rad))
        return 0;
    const VqIvD sn = vq_ciede_enclose(vq_ciede_sincos_approx((double)rad, 0));
    /* powf(C'bar, 7): glibc returns one of the two floats around the exact value */
    float q_lo, q_hi, rt_lo, rt_hi;
    vq_ciede_pow7_bounds_f(cbp, &q_lo, &q_hi);
    if (!vq_ivf_point(vq_ciede_rt<VqIvD>(q_lo, sn), &rt_lo))
        return 0;
    const float d_lo = vq_ciede_de00(&b1, rt_lo);
    if (vq_f32_bits(q_lo) == vq_f32_bits(q_hi))
        return vq_ciede_exact_word(vq_f32_bits(d_lo));
    if (!vq_ivf_point(vq_ciede_rt<VqIvD>(q_hi, sn), &rt_hi))
        return 0;
    const float d_hi = vq_ciede_de00(&b1, rt_hi);
    const uint32_t ul = vq_f32_bits(d_lo), uh = vq_f32_bits(d_hi);
    if (ul == uh && d_lo == d_lo)
        return vq_ciede_exact_word(ul);
    /* two candidates: d_lo >= +0 and finite, d_hi its neighbour */
    if (ul >= 0x7f800000u || !(uh == ul + 1 || (ul > 0 && uh == ul - 1)))
        return 0;
    const uint32_t cb = vq_f32_bits(cbp);
    if (cb >= 0x7f800000u)
        return 0;
    return ((uint64_t)cb << 32) | ul | (uh == ul - 1 ? 0x80000000u : 0u);
}

/* The exact word of dE00 = +0: the word of a pixel whose two sample
 * triples are equal.  Equal samples give equal Lab floats, and then the
 * reference's every difference is 0: dL' = 0, dC' = 0, h'1 = h'2 so dh' = 0
 * and dH' = 2 sqrt(.) sin(+0) = +0 (sqrt(C'1 C'2) is finite: C' < 1941);
 * S_L, S_C >= 1 and S_H >= 1 (T >= 1 - .17 - .24 - .32 - .20 > 0), so the
 * three quotients are +-0, R_T is finite (|sin| <= 1, P7 < 2^128), and
 * dE00 = sqrt(+0 + +-0) = +0 (docs/ciede.md section 12). */
#define VQ_CIEDE_WORD_ZERO vq_ciede_exact_word(0u)

VQ_HD int vq_ciede_same_samples(const uint32_t s[6])
{
    return s[0] == s[3] && s[1] == s[4] && s[2] == s[5];
}

/* The device stage of one pixel: its word, or 0 (list it). */
VQ_HD uint64_t vq_ciede_dev_pixel(const uint32_t s[6], int bpc)
{
    if (vq_ciede_same_samples(s))
        return VQ_CIEDE_WORD_ZERO;
    VqCiedeLab c1, c2;
    if (!vq_ciede_dev_lab(s[0], s[1], s[2], bpc, &c1) || !vq_ciede_dev_lab(s[3], s[4], s[5], bpc, &c2))
        return 0;
    return vq_ciede_dev_de00(c1, c2);
}

/* ---- stage A from a table (8 bits per sample; docs/ciede.md section 12) ----
 * Stage A depends on the sample triple alone: at 8 bits its 2^24 results
 * are made once (vq_ciede_table_entry for every index, on the GPU) and each
 * pixel reads its two instead of computing them.  An entry is stage A's Lab
 * of (Y, U, V) = (index >> 16, (index >> 8) & 255, index & 255), or a Lab
 * whose L is NaN where stage A lists the pixel (a decided L is never NaN: it
 * is 116 fy - 16 of a finite fy; and listing is always safe). */
#define VQ_CIEDE_TABLE_BITS 24
#define VQ_CIEDE_TABLE_ENTRIES (1u << VQ_CIEDE_TABLE_BITS)

VQ_HD VqCiedeLab vq_ciede_table_entry(uint32_t index)
{
    VqCiedeLab c;
    if (!vq_ciede_dev_lab(index >> 16, (index >> 8) & 255u, index & 255u, 8, &c) || c.l != c.l)
        c.l = vq_f32_from_bits(0x7fc00000u);
    return c;
}

VQ_HD uint32_t vq_ciede_table_index(uint32_t y, uint32_t u, uint32_t v)
{
    return (y << 16) | (u << 8) | v;
}

/* vq_ciede_dev_pixel at 8 bits with stage A's results given: c1, c2 the
 * table's entries of the two sample triples.  The same word. */
VQ_HD uint64_t vq_ciede_dev_pixel_labs(const uint32_t s[6], VqCiedeLab c1, VqCiedeLab c2)
{
    if (vq_ciede_same_samples(s))
        return VQ_CIEDE_WORD_ZERO;
    if (c1.l != c1.l || c2.l != c2.l)
        return 0;
    return vq_ciede_dev_de00(c1, c2);
}

/* the two words of a list entry: a listed pixel (its samples) */
VQ_HD void vq_ciede_list_entry(const uint32_t s[6], uint32_t index, uint64_t e[2])
{
    e[0] = (uint64_t)index | ((uint64_t)s[0] << 32) | ((uint64_t)s[1] << 48);
    e[1] = (uint64_t)s[2] | ((uint64_t)s[3] << 16) | ((uint64_t)s[4] << 32) | ((uint64_t)s[5] << 48);
}

/* a two-candidate pixel (its pixel word) */
VQ_HD void vq_ciede_two_entry(uint64_t word, uint32_t index, uint64_t e[2])
{
    e[0] = (uint64_t)(index | VQ_CIEDE_ENTRY_TWO);
    e[1] = word;
}

/* ---- the row words (kernels/ciede/ciede_exec.h, docs/ciede.md section 5) ----
 * A float x > 0 is m 2^e (m < 2^24 an integer); tz(x), the exponent of its
 * lowest set bit, is e + ctz(m).  With tz >= -FIX_FRAC and x < 2^FIX_EXP,
 * x 2^FIX_FRAC is an integer below 2^96: three 32-bit limbs.  Each limb is
 * summed in a uint64 over at most 2^31 pixels: no overflow, and integer sums
 * do not depend on the order (the GPU reduces by warps and atomics). */
VQ_HD int vq_ciede_ctz32(uint32_t x)    /* x != 0 */
{
#if defined(__CUDA_ARCH__)
    return __ffs((int)x) - 1;
#else
    return __builtin_ctz(x);
#endif
}

VQ_HD int vq_ciede_ctz64(uint64_t x)    /* x != 0 */
{
#if defined(__CUDA_ARCH__)
    return __ffsll((long long)x) - 1;
#else
    return __builtin_ctzll(x);
#endif
}

/* tz of a finite float x != 0 (the sign ignored) */
VQ_HD int vq_ciede_tz_float(float x)
{
    const uint32_t u = vq_f32_bits(x) & 0x7fffffffu;
    const uint32_t be = u >> 23, m = u & 0x7fffffu;
    return be ? (int)be - 150 + vq_ciede_ctz32(m | 0x800000u) : -149 + vq_ciede_ctz32(m);
}

/* tz of a finite double x != 0 (the sign ignored) */
VQ_HD int vq_ciede_tz_double(double x)
{
    const uint64_t u = vq_f64_bits(x) & 0x7fffffffffffffffull;
    const uint32_t be = (uint32_t)(u >> 52);
    const uint64_t m = u & 0xfffffffffffffull;
    return be ? (int)be - 1075 + vq_ciede_ctz64(m | 0x10000000000000ull) : -1074 + vq_ciede_ctz64(m);
}

/* One value's fixed-point form: 0 for +0 and -0 (nothing to add); 1 with
 * limb[] = x 2^FIX_FRAC in 32-bit limbs and *tz; -1 when x is not
 * representable (NaN, inf, negative, >= 2^FIX_EXP, tz < -FIX_FRAC). */
VQ_HD int vq_ciede_fix(float x, uint64_t limb[3], int *tz)
{
    const uint32_t u = vq_f32_bits(x);
    limb[0] = limb[1] = limb[2] = 0;
    if ((u & 0x7fffffffu) == 0)
        return 0;
    /* >= 2^32 (0x4f800000), inf, NaN, and every negative (sign bit) */
    if (u >= (uint32_t)(127 + VQ_CIEDE_FIX_EXP) << 23)
        return -1;
    const uint32_t be = u >> 23;
    const uint32_t m = be ? (u & 0x7fffffu) | 0x800000u : u;
    const int e = be ? (int)be - 150 : -149;
    *tz = e + vq_ciede_ctz32(m);
    if (*tz < -VQ_CIEDE_FIX_FRAC)
        return -1;
    const int sh = e + VQ_CIEDE_FIX_FRAC;   /* x 2^FRAC = m 2^sh, sh <= 72 */
    if (sh < 0) {                           /* -sh <= ctz(m) <= 23: exact */
        limb[0] = m >> -sh;
    } else if (sh < 32) {
        const uint64_t t = (uint64_t)m << sh;
        limb[0] = t & 0xffffffffu;
        limb[1] = t >> 32;
    } else if (sh < 64) {
        const uint64_t t = (uint64_t)m << (sh - 32);
        limb[1] = t & 0xffffffffu;
        limb[2] = t >> 32;
    } else {
        limb[2] = (uint64_t)m << (sh - 64);
    }
    return 1;
}

/* A row's words while they are made: limb sums and the key (ciede_exec.h). */
typedef struct VqCiedeRowAcc {
    uint64_t limb[3];
    uint64_t key;
} VqCiedeRowAcc;

VQ_HD void vq_ciede_acc_zero(VqCiedeRowAcc *a)
{
    a->limb[0] = a->limb[1] = a->limb[2] = 0;
    a->key = 0;
}

/* add one exact value */
VQ_HD void vq_ciede_acc_value(VqCiedeRowAcc *a, float x)
{
    uint64_t l[3];
    int tz = 0;
    const int r = vq_ciede_fix(x, l, &tz);
    if (r < 0) {
        a->key = a->key > VQ_CIEDE_KEY_FALLBACK ? a->key : VQ_CIEDE_KEY_FALLBACK;
    } else if (r > 0) {
        const uint64_t k = (uint64_t)(VQ_CIEDE_TZ_BIAS - tz);
        a->limb[0] += l[0];
        a->limb[1] += l[1];
        a->limb[2] += l[2];
        a->key = a->key > k ? a->key : k;
    }
}

/* add a pixel word: exact words add their value, the others (the
 * specials, which have list entries) nothing */
VQ_HD void vq_ciede_acc_word(VqCiedeRowAcc *a, uint64_t word)
{
    if ((uint32_t)(word >> 32) == VQ_CIEDE_TAG_EXACT)
        vq_ciede_acc_value(a, vq_f32_from_bits((uint32_t)word));
}

VQ_HD void vq_ciede_acc_merge(VqCiedeRowAcc *a, const VqCiedeRowAcc *b)
{
    a->limb[0] += b->limb[0];
    a->limb[1] += b->limb[1];
    a->limb[2] += b->limb[2];
    a->key = a->key > b->key ? a->key : b->key;
}

VQ_HD void vq_ciede_acc_store(const VqCiedeRowAcc *a, int64_t *row_words)
{
    row_words[0] = (int64_t)a->limb[0];
    row_words[1] = (int64_t)a->limb[1];
    row_words[2] = (int64_t)a->limb[2];
    row_words[3] = (int64_t)a->key;
}

#endif /* VQ_CIEDE_H */
