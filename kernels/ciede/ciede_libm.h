/*
 * ciede_libm.h - a part of ciede.h, included there after the stage-B
 * formulas (it uses ciede.h's intervals and bit casts): what the host's libm
 * may return, bracketed without calling it on the device.  powf(x, 7) and
 * pow(x, 7) of a float as their two neighbours, exactly; exp, log, pow, sin,
 * cos and atan2 as approximations with enclosures wide enough to hold the
 * libm's result.
 */
#ifndef VQ_CIEDE_LIBM_H
#define VQ_CIEDE_LIBM_H

/* ---- powf(x, 7) and pow(x, 7) of a float x >= 0: the two neighbours ----
 * x = m 2^e exactly, x^7 = m^7 2^(7e) with m^7 < 2^168 computed exactly in
 * six 32-bit limbs; lo/hi are the values of the format that bracket it
 * (round down / round up, subnormals and overflow included; lo == hi when
 * x^7 is representable).  glibc's powf and pow return one of the two (their
 * error is below one ulp; tests/ciede_exhaust checks every float). */
VQ_HD void vq_ciede_pow7_exact(float x, uint32_t n[6], int *e7)
{
    const uint32_t u = vq_f32_bits(x);
    const uint32_t ef = u >> 23, fr = u & 0x7fffff;
    const uint32_t m = ef ? (fr | 0x800000) : fr;
    const int e = ef ? (int)ef - 150 : -149;
    for (int k = 0; k < 6; k++)
        n[k] = 0;
    n[0] = m;
    for (int it = 0; it < 6; it++) {
        uint64_t carry = 0;
        for (int k = 0; k < 6; k++) {
            const uint64_t t = (uint64_t)n[k] * m + carry;
            n[k] = (uint32_t)t;
            carry = t >> 32;
        }
    }
    *e7 = 7 * e;
}

/* limb k of the 192-bit number, 0 outside */
VQ_HD uint32_t vq_ciede_limb(const uint32_t n[6], int k)
{
    return k >= 0 && k < 6 ? n[k] : 0;
}

/* bits [lo_bit, lo_bit + 64) of the 192-bit number (bits outside are 0) */
VQ_HD uint64_t vq_ciede_bits64(const uint32_t n[6], int lo_bit)
{
    const int k = lo_bit >= 0 ? lo_bit >> 5 : -((-lo_bit + 31) >> 5);   /* floor(lo_bit / 32) */
    const int sh = lo_bit - 32 * k;                                      /* 0..31 */
    const uint64_t w0 = vq_ciede_limb(n, k), w1 = vq_ciede_limb(n, k + 1), w2 = vq_ciede_limb(n, k + 2);
    const uint64_t lo = w0 | (w1 << 32);
    return sh ? (lo >> sh) | (w2 << (64 - sh)) : lo;
}

/* any bit below `bit` set? */
VQ_HD int vq_ciede_any_below(const uint32_t n[6], int bit)
{
    for (int k = 0; k < 6; k++) {
        const int base = 32 * k;
        if (base >= bit)
            break;
        const int nb = bit - base >= 32 ? 32 : bit - base;
        const uint32_t mask = nb == 32 ? 0xffffffffu : ((1u << nb) - 1);
        if (n[k] & mask)
            return 1;
    }
    return 0;
}

/* Rounds N 2^E (N > 0) down and up into a binary format of p bits, minimum
 * normal exponent emin, maximum emax; returns the bit patterns (as uint64)
 * of lo and hi, where hi = lo + 1 when inexact (the next value up, inf
 * after the largest finite one). */
VQ_HD void vq_ciede_round_bounds(const uint32_t n[6], int E, int p, int emin, int emax,
                                 uint64_t *lo, uint64_t *hi)
{
    int t = -1;
    for (int k = 5; k >= 0 && t < 0; k--)
        if (n[k])
            for (int b = 31; b >= 0; b--)
                if ((n[k] >> b) & 1) {
                    t = 32 * k + b;
                    break;
                }
    if (t < 0) {
        *lo = *hi = 0;
        return;
    }
    const int ex = t + E;                                       /* value in [2^ex, 2^(ex+1)) */
    const int qe = ex - (p - 1) > emin - (p - 1) ? ex - (p - 1) : emin - (p - 1);  /* quantum */
    if (ex > emax) {    /* above the largest finite value: lo = max, hi = inf */
        *lo = (((uint64_t)(2 * emax + 1) << (p - 1)) - 1);
        *hi = *lo + 1;
        return;
    }
    const int s = qe - E;                                       /* bits of N below the quantum */
    const uint64_t mant = vq_ciede_bits64(n, s);                /* < 2^p */
    const int inexact = s > 0 && vq_ciede_any_below(n, s);
    /* pattern = (qe - qmin) << (p - 1) + mant, qmin = emin - (p - 1): valid
     * for subnormals (qe = qmin, mant < 2^(p-1)) and normals alike */
    const uint64_t bits = ((uint64_t)(qe - (emin - (p - 1))) << (p - 1)) + mant;
    *lo = bits;
    *hi = bits + (uint64_t)inexact;
}

VQ_HD void vq_ciede_pow7_bounds_f(float x, float *lo, float *hi)
{
    uint32_t n[6];
    int e7;
    uint64_t l, h;
    if (x == 0.0f) {
        *lo = *hi = 0.0f;
        return;
    }
    vq_ciede_pow7_exact(x, n, &e7);
    vq_ciede_round_bounds(n, e7, 24, -126, 127, &l, &h);
    *lo = vq_f32_from_bits((uint32_t)l);
    *hi = vq_f32_from_bits((uint32_t)h);
}

VQ_HD void vq_ciede_pow7_bounds_d(float x, double *lo, double *hi)
{
    uint32_t n[6];
    int e7;
    uint64_t l, h;
    if (x == 0.0f) {
        *lo = *hi = 0.0;
        return;
    }
    vq_ciede_pow7_exact(x, n, &e7);
    vq_ciede_round_bounds(n, e7, 53, -1022, 1023, &l, &h);
    *lo = vq_f64_from_bits(l);
    *hi = vq_f64_from_bits(h);
}

/* ===================== the device stage ===================== */
/*
 * Device code may not call the math library (its sin is not glibc's sin).
 * Each of glibc's continuous calls is replaced by an enclosure: a value v
 * from the approximations below (pure IEEE double arithmetic: +, -, *, /,
 * sqrt; the same bits on host and device) widened to
 *     [v - m, v + m],  m = |v| 2^-44 + 2^-1032,
 * which holds glibc's result g whenever |v - g| <= 2^-46 |g| (rounding
 * v -+ m costs at most 2^-53 |v|).  glibc's pow, exp, sin, cos, atan2 are
 * within an ulp (2^-52) of the true value, these approximations within
 * 2^-49 of glibc: tests/ciede_exhaust.cpp finds at most 2^-49.1 over every
 * float-derived argument (and 2^30 samples where the set is too large);
 * docs/ciede.md has the figures.  pow(x, 7) and powf(x, 7) of a float x need
 * no approximation: the two neighbours of the exact x^7 are computed
 * exactly (above).
 */
/* exp(r), |r| <= 0.35: Taylor to r^14 */
#define VQ_CIEDE_EXP_POLY(r) (0x1.0000000000000p+0 + (r) * (0x1.0000000000000p+0 + (r) * (0x1.0000000000000p-1 + (r) * (0x1.5555555555555p-3 + (r) * (0x1.5555555555555p-5 + (r) * (0x1.1111111111111p-7 + (r) * (0x1.6c16c16c16c17p-10 + (r) * (0x1.a01a01a01a01ap-13 + (r) * (0x1.a01a01a01a01ap-16 + (r) * (0x1.71de3a556c734p-19 + (r) * (0x1.27e4fb7789f5cp-22 + (r) * (0x1.ae64567f544e4p-26 + (r) * (0x1.1eed8eff8d898p-29 + (r) * (0x1.6124613a86d09p-33 + (r) * (0x1.93974a8c07c9dp-37)))))))))))))))
/* sin(r) = r + r z S(z), z = r^2, |r| <= pi/4: Taylor to r^19 */
#define VQ_CIEDE_SIN_POLY(z) (-0x1.5555555555555p-3 + (z) * (0x1.1111111111111p-7 + (z) * (-0x1.a01a01a01a01ap-13 + (z) * (0x1.71de3a556c734p-19 + (z) * (-0x1.ae64567f544e4p-26 + (z) * (0x1.6124613a86d09p-33 + (z) * (-0x1.ae7f3e733b81fp-41 + (z) * (0x1.952c77030ad4ap-49 + (z) * (-0x1.2f49b46814157p-57)))))))))
/* cos(r) = 1 + z C(z): Taylor to r^20 */
#define VQ_CIEDE_COS_POLY(z) (-0x1.0000000000000p-1 + (z) * (0x1.5555555555555p-5 + (z) * (-0x1.6c16c16c16c17p-10 + (z) * (0x1.a01a01a01a01ap-16 + (z) * (-0x1.27e4fb7789f5cp-22 + (z) * (0x1.1eed8eff8d898p-29 + (z) * (-0x1.93974a8c07c9dp-37 + (z) * (0x1.ae7f3e733b81fp-45 + (z) * (-0x1.6827863b97d97p-53 + (z) * (0x1.e542ba4020225p-62))))))))))
/* ln(m) = 2 s L(z), s = (m-1)/(m+1), z = s^2 <= 0.0295: to s^25 */
#define VQ_CIEDE_LOG_POLY(z) (0x1.0000000000000p+0 + (z) * (0x1.5555555555555p-2 + (z) * (0x1.999999999999ap-3 + (z) * (0x1.2492492492492p-3 + (z) * (0x1.c71c71c71c71cp-4 + (z) * (0x1.745d1745d1746p-4 + (z) * (0x1.3b13b13b13b14p-4 + (z) * (0x1.1111111111111p-4 + (z) * (0x1.e1e1e1e1e1e1ep-5 + (z) * (0x1.af286bca1af28p-5 + (z) * (0x1.8618618618618p-5 + (z) * (0x1.642c8590b2164p-5 + (z) * (0x1.47ae147ae147bp-5)))))))))))))
/* atan(t) = t A(z), z = t^2, |t| <= tan(pi/16): to t^25 */
#define VQ_CIEDE_ATAN_POLY(z) (0x1.0000000000000p+0 + (z) * (-0x1.5555555555555p-2 + (z) * (0x1.999999999999ap-3 + (z) * (-0x1.2492492492492p-3 + (z) * (0x1.c71c71c71c71cp-4 + (z) * (-0x1.745d1745d1746p-4 + (z) * (0x1.3b13b13b13b14p-4 + (z) * (-0x1.1111111111111p-4 + (z) * (0x1.e1e1e1e1e1e1ep-5 + (z) * (-0x1.af286bca1af28p-5 + (z) * (0x1.8618618618618p-5 + (z) * (-0x1.642c8590b2164p-5 + (z) * (0x1.47ae147ae147bp-5)))))))))))))

#define VQ_CIEDE_ENC_REL 0x1p-44
#define VQ_CIEDE_ENC_ABS 0x1p-1032   /* subnormal results only */

/* Cody-Waite pi/2 (33 + 33 + 53 bits) and ln 2 (32 + 53 bits), from a
 * 300-bit pi and ln 2; k * hi parts are exact for |k| < 2^20. */
#define VQ_CIEDE_PIO2_1   0x1.921fb54400000p+0
#define VQ_CIEDE_PIO2_2   0x1.0b4611a600000p-34
#define VQ_CIEDE_PIO2_3   0x1.3198a2e037073p-69
#define VQ_CIEDE_2_PI     0x1.45f306dc9c883p-1
#define VQ_CIEDE_LN2_HI   0x1.62e42ff000000p-1
#define VQ_CIEDE_LN2_LO   (-0x1.718432a1b0e26p-35)
#define VQ_CIEDE_INV_LN2  0x1.71547652b82fep+0
#define VQ_CIEDE_ROUND_MAGIC 0x1.8p52

/* An exact zero stays a point: the approximations return 0 only for
 * sin(+-0) and atan2(+-0, x > 0), where IEEE 754 (and glibc) give that zero
 * exactly.  NaN stays NaN (the pixel then goes to the host). */
VQ_HD VqIvD vq_ciede_enclose(double v)
{
    if (v == 0.0)
        return vq_ivd(v, v);
    const double m = fabs(v) * VQ_CIEDE_ENC_REL + VQ_CIEDE_ENC_ABS;
    return vq_ivd(v - m, v + m);
}

/* nearest integer of |x| < 2^51, as a double */
VQ_HD double vq_ciede_rint(double x)
{
    return (x + VQ_CIEDE_ROUND_MAGIC) - VQ_CIEDE_ROUND_MAGIC;
}

/* 2^k for -1022 <= k <= 1023 */
VQ_HD double vq_ciede_exp2i(int k)
{
    return vq_f64_from_bits((uint64_t)(k + 1023) << 52);
}

/* e^y for |y| <= 700 (NaN beyond: the caller's pixel goes to the host) */
VQ_HD double vq_ciede_exp_approx(double y)
{
    if (!(fabs(y) <= 700.0))
        return NAN;
    const double kd = vq_ciede_rint(y * VQ_CIEDE_INV_LN2);
    const double r = (y - kd * VQ_CIEDE_LN2_HI) - kd * VQ_CIEDE_LN2_LO;
    const double p = VQ_CIEDE_EXP_POLY(r);
    const int k = (int)kd;
    /* split the scale so that neither factor leaves the normal range */
    return p * vq_ciede_exp2i(k / 2) * vq_ciede_exp2i(k - k / 2);
}

/* ln x for normal x > 0 */
VQ_HD double vq_ciede_log_approx(double x)
{
    if (!(x >= 0x1p-1022 && x < INFINITY))
        return NAN;
    const uint64_t u = vq_f64_bits(x);
    int e = (int)(u >> 52) - 1023;
    double m = vq_f64_from_bits((u & 0x000fffffffffffffull) | 0x3ff0000000000000ull);   /* [1, 2) */
    if (m > 0x1.6a09e667f3bcdp+0) {     /* > sqrt 2: m / 2 in [0.707, 1) */
        m *= 0.5;
        e++;
    }
    const double s = (m - 1.0) / (m + 1.0);
    const double z = s * s;
    const double lnm = 2.0 * s * VQ_CIEDE_LOG_POLY(z);
    const double ed = (double)e;
    return (ed * VQ_CIEDE_LN2_HI + lnm) + ed * VQ_CIEDE_LN2_LO;
}

/* x^y = e^(y ln x), x > 0 (what glibc's pow(x, 2.4) and pow(c, 1.0/3.0) compute) */
VQ_HD double vq_ciede_pow_approx(double x, double y)
{
    return vq_ciede_exp_approx(y * vq_ciede_log_approx(x));
}

/* sin and cos of r, |r| <= pi/4 + a little */
VQ_HD double vq_ciede_sin_kernel(double r)
{
    if (r == 0.0)
        return r;   /* sin(+-0) = +-0 */
    const double z = r * r;
    return r + r * z * VQ_CIEDE_SIN_POLY(z);
}
VQ_HD double vq_ciede_cos_kernel(double r)
{
    const double z = r * r;
    return 1.0 + z * VQ_CIEDE_COS_POLY(z);
}

/* sin (want_cos 0) or cos (1) of |x| <= 1e5 */
VQ_HD double vq_ciede_sincos_approx(double x, int want_cos)
{
    if (!(fabs(x) <= 1e5))
        return NAN;
    const double kd = vq_ciede_rint(x * VQ_CIEDE_2_PI);
    const double r = ((x - kd * VQ_CIEDE_PIO2_1) - kd * VQ_CIEDE_PIO2_2) - kd * VQ_CIEDE_PIO2_3;
    const int q = ((int)kd + want_cos) & 3;
    /* sin(x) = sin(r + q pi/2); cos(x) = sin(x + pi/2) */
    switch (q) {
    case 0: return vq_ciede_sin_kernel(r);
    case 1: return vq_ciede_cos_kernel(r);
    case 2: return -vq_ciede_sin_kernel(r);
    default: return -vq_ciede_cos_kernel(r);
    }
}

/* atan t, 0 <= t <= 1: two halvings atan t = 2 atan(t / (1 + sqrt(1 + t^2))) */
VQ_HD double vq_ciede_atan01(double t)
{
    for (int k = 0; k < 2; k++)
        t = t / (1.0 + sqrt(1.0 + t * t));
    return 4.0 * (t * VQ_CIEDE_ATAN_POLY(t * t));
}

/* atan2(y, x) for finite y, x, not both zero */
VQ_HD double vq_ciede_atan2_approx(double y, double x)
{
    const double ay = fabs(y), ax = fabs(x);
    if (!(ax < INFINITY && ay < INFINITY) || (ax == 0.0 && ay == 0.0))
        return NAN;
    double a = ay <= ax ? vq_ciede_atan01(ay / ax) : VQ_CIEDE_PI / 2 - vq_ciede_atan01(ax / ay);
    if (vq_f64_bits(x) >> 63)
        a = VQ_CIEDE_PI - a;
    return vq_f64_bits(y) >> 63 ? -a : a;
}

#endif /* VQ_CIEDE_LIBM_H */
