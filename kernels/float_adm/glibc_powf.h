/*
 * glibc_powf.h - glibc's powf (2.28 and later, x86-64, its FMA variant) as
 * VQ_HD arithmetic, so that the device computes float_adm's per-pixel
 * powf(x, p) (adm_p_norm other than 3) to the bit as libvmaf's CPU code does
 * through the host's libm.
 *
 * glibc's powf (sysdeps/ieee754/flt-32/e_powf.c, from Arm's optimized-routines)
 * works in double: log2(x) from a 16-interval table and a degree-5 polynomial,
 * times y, then 2^t from a 32-entry table and a cubic; one rounding to float
 * at the end.  On a CPU with FMA and AVX2 (every x86-64 CPU libvmaf's users
 * run since 2013) glibc's ifunc picks the build compiled with -mfma, where
 * every a * b + c of that code is one fused multiply-add (read from the
 * disassembly of Debian 12's libm.so.6: nine vfmadd, see docs/float-adm.md).
 * This file does the same steps with explicit fma(): fma, +, *, and the
 * conversions are IEEE operations, so the host's and the device's results are
 * the same double and the same float.  Nothing else of libm is called.
 *
 * That this is the host's powf is a claim about the host's libm, not a
 * theorem: vq_glibc_powf_agrees() (hostmath/float_adm/glibc_powf_check.cpp) compares
 * it with the host's powf before a CUDA session takes such a float_adm;
 * test_float_adm's GlibcPowf.* over millions of inputs, and glibc_powf_gpu
 * (tests/glibc_powf_gpu.cu) on all 2^31 non-negative floats against the
 * host's powf of the machine with the GPU.
 *
 * The table and polynomial values are those of Arm's optimized-routines
 * (math/powf_log2_data.c, math/exp2f_data.c; MIT OR Apache-2.0 WITH
 * LLVM-exception), which glibc carries unchanged (compared entry by entry
 * with the data Debian 12's libm.so.6 loads; docs/float-adm.md section 9).
 * fma() is the one libm call here: exactly rounded by definition, so the
 * same on any host (vq_common.h's rule is about functions libms round
 * differently).
 */
#ifndef VQ_GLIBC_POWF_H
#define VQ_GLIBC_POWF_H

#include <stdint.h>
#if !defined(__CUDA_ARCH__)
#include <math.h>
#endif

#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Plain data: copied as is to the device. */
typedef struct VqPowfTables {
    double invc[16], logc[16];  /* log2: 1/c and log2(c) of each sub-interval */
    double log2_poly[5];        /* log1p(r)/ln2 ~ A0 r^5 + A1 r^4 + A2 r^3 + A3 r^2 + A4 r */
    uint64_t exp2_tab[32];      /* bits of 2^(i/32), less i << 47 */
    double exp2_poly[3];        /* 2^r ~ C0 r^3 + C1 r^2 + C2 r + 1 */
} VqPowfTables;

#define VQ_POWF_TABLES_INIT                                                                          \
    {                                                                                               \
        { 0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010bp+0, 0x1.3c995b0b80385p+0,      \
          0x1.30d190c8864a5p+0, 0x1.25e227b0b8eap+0, 0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0,      \
          0x1.0953f419900a7p+0, 0x1p+0, 0x1.e608cfd9a47acp-1, 0x1.ca4b31f026aap-1,                   \
          0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1, 0x1.767dcf5534862p-1 },  \
        { -0x1.efec65b963019p-2, -0x1.b0b6832d4fca4p-2, -0x1.7418b0a1fb77bp-2, -0x1.39de91a6dcf7bp-2, \
          -0x1.01d9bf3f2b631p-2, -0x1.97c1d1b3b7afp-3, -0x1.2f9e393af3c9fp-3, -0x1.960cbbf788d5cp-4, \
          -0x1.a6f9db6475fcep-5, 0x0p+0, 0x1.338ca9f24f53dp-4, 0x1.476a9543891bap-3,                 \
          0x1.e840b4ac4e4d2p-3, 0x1.40645f0c6651cp-2, 0x1.88e9c2c1b9ff8p-2, 0x1.ce0a44eb17bccp-2 },  \
        { 0x1.27616c9496e0bp-2, -0x1.71969a075c67ap-2, 0x1.ec70a6ca7baddp-2, -0x1.7154748bef6c8p-1,  \
          0x1.71547652ab82bp+0 },                                                                   \
        { 0x3ff0000000000000ull, 0x3fefd9b0d3158574ull, 0x3fefb5586cf9890full, 0x3fef9301d0125b51ull, \
          0x3fef72b83c7d517bull, 0x3fef54873168b9aaull, 0x3fef387a6e756238ull, 0x3fef1e9df51fdee1ull, \
          0x3fef06fe0a31b715ull, 0x3feef1a7373aa9cbull, 0x3feedea64c123422ull, 0x3feece086061892dull, \
          0x3feebfdad5362a27ull, 0x3feeb42b569d4f82ull, 0x3feeab07dd485429ull, 0x3feea47eb03a5585ull, \
          0x3feea09e667f3bcdull, 0x3fee9f75e8ec5f74ull, 0x3feea11473eb0187ull, 0x3feea589994cce13ull, \
          0x3feeace5422aa0dbull, 0x3feeb737b0cdc5e5ull, 0x3feec49182a3f090ull, 0x3feed503b23e255dull, \
          0x3feee89f995ad3adull, 0x3feeff76f2fb5e47ull, 0x3fef199bdd85529cull, 0x3fef3720dcef9069ull, \
          0x3fef5818dcfba487ull, 0x3fef7c97337b9b5full, 0x3fefa4afa2a490daull, 0x3fefd0765b6e4540ull }, \
        { 0x1.c6af84b912394p-5, 0x1.ebfce50fac4f3p-3, 0x1.62e42ff0c52d6p-1 }                        \
    }

VQ_HD double vq_powf_fma(double a, double b, double c)
{
#if defined(__CUDA_ARCH__)
    return __fma_rn(a, b, c);
#else
    return fma(a, b, c);   /* correctly rounded by definition: the same double anywhere */
#endif
}

/* the bits of a signalling NaN */
VQ_HD int vq_powf_signalling(uint32_t ix)
{
    return 2u * (ix ^ 0x00400000u) > 2u * 0x7fc00000u;
}

/* 0: y (the bits of a finite non-zero float) is not an integer; 1: odd; 2: even */
VQ_HD int vq_powf_int_kind(uint32_t iy)
{
    const int e = (int)(iy >> 23 & 0xff);
    if (e < 0x7f)
        return 0;
    if (e > 0x7f + 23)
        return 2;
    const uint32_t frac = 1u << (0x7f + 23 - e);
    if (iy & (frac - 1))
        return 0;
    return (iy & frac) ? 1 : 2;
}

/* log2 of the float whose bits are ix (positive; a subnormal already
 * normalised, its exponent below the normal range) */
VQ_HD double vq_powf_log2(uint32_t ix, const VqPowfTables *t)
{
    /* x = 2^k z, z in [0x3f330000, 2 * that) as bits, in one of 16 sub-intervals */
    const uint32_t off = ix - 0x3f330000u;
    const int i = (int)((off >> 19) % 16);
    const uint32_t top = off & 0xff800000u;
    const int k = (int)((int32_t)top >> 23);
    const double z = (double)vq_f32_from_bits(ix - top);
    const double r = vq_powf_fma(z, t->invc[i], -1.0);      /* z / c - 1 */
    const double y0 = t->logc[i] + (double)k;
    const double *A = t->log2_poly;
    const double r2 = r * r;
    const double hi = vq_powf_fma(A[0], r, A[1]);
    const double mid = vq_powf_fma(A[2], r, A[3]);
    const double r4 = r2 * r2;
    double q = vq_powf_fma(A[4], r, y0);
    q = vq_powf_fma(mid, r2, q);
    return vq_powf_fma(hi, r4, q);
}

/* 2^xd rounded to float, xd in about [-149, 128]; sign_bias 1 << 16 negates */
VQ_HD float vq_powf_exp2(double xd, uint64_t sign_bias, const VqPowfTables *t)
{
    const double shift = 0x1.8p+52 / 32;
    double kd = xd + shift;                 /* k / 32 in the low bits */
    const uint64_t ki = vq_f64_bits(kd);
    kd -= shift;
    const double r = xd - kd;               /* in [-1/64, 1/64] */
    const uint64_t s_bits = t->exp2_tab[ki % 32] + ((ki + sign_bias) << 47);
    const double s = vq_f64_from_bits(s_bits);
    const double *C = t->exp2_poly;
    const double z = vq_powf_fma(C[0], r, C[1]);
    const double r2 = r * r;
    double y = vq_powf_fma(C[2], r, 1.0);
    y = vq_powf_fma(z, r2, y);
    return (float)(y * s);
}

/* powf(x, y), glibc's result in round-to-nearest (errno is not modelled) */
VQ_HD float vq_glibc_powf(float x, float y, const VqPowfTables *t)
{
    uint64_t sign_bias = 0;
    uint32_t ix = vq_f32_bits(x);
    const uint32_t iy = vq_f32_bits(y);
    const int y_zero_inf_nan = 2u * iy - 1u >= 2u * 0x7f800000u - 1u;
    if (ix - 0x00800000u >= 0x7f800000u - 0x00800000u || y_zero_inf_nan) {
        if (y_zero_inf_nan) {
            if (2u * iy == 0)
                return vq_powf_signalling(ix) ? x + y : 1.0f;
            if (ix == 0x3f800000u)
                return vq_powf_signalling(iy) ? x + y : 1.0f;
            if (2u * ix > 2u * 0x7f800000u || 2u * iy > 2u * 0x7f800000u)
                return x + y;
            if (2u * ix == 2u * 0x3f800000u)
                return 1.0f;
            if ((2u * ix < 2u * 0x3f800000u) == !(iy & 0x80000000u))
                return 0.0f;
            return y * y;
        }
        if (2u * ix - 1u >= 2u * 0x7f800000u - 1u) {   /* x is zero, infinite or NaN */
            float x2 = x * x;
            if ((ix & 0x80000000u) && vq_powf_int_kind(iy) == 1)
                x2 = -x2;
            return (iy & 0x80000000u) ? 1.0f / x2 : x2;
        }
        if (ix & 0x80000000u) {              /* finite x < 0 */
            const int kind = vq_powf_int_kind(iy);
            if (kind == 0)
                return (x - x) / (x - x);    /* NaN */
            if (kind == 1)
                sign_bias = 1u << 16;
            ix &= 0x7fffffffu;
        }
        if (ix < 0x00800000u) {              /* subnormal: normalised, exponent below range */
            ix = vq_f32_bits(vq_f32_from_bits(ix) * 0x1p23f) & 0x7fffffffu;
            ix -= 23u << 23;
        }
    }
    const double ylogx = (double)y * vq_powf_log2(ix, t);
    if ((vq_f64_bits(ylogx) >> 47 & 0xffff) >= (vq_f64_bits(126.0) >> 47)) {
        const uint32_t sign = sign_bias ? 0x80000000u : 0u;
        if (ylogx > 0x1.fffffffd1d571p+6)
            return vq_f32_from_bits(sign | 0x7f800000u);   /* overflow: infinity */
        if (ylogx <= -150.0)
            return vq_f32_from_bits(sign);                 /* underflow: zero */
        if (ylogx < -149.0)
            return vq_f32_from_bits(sign | 1u);            /* the least subnormal */
        /* (0x1.fffffffa3aae2p+6, 0x1.fffffffd1d571p+6]: round-to-nearest goes on */
    }
    return vq_powf_exp2(ylogx, sign_bias, t);
}

#ifdef __cplusplus
}
#endif
#endif /* VQ_GLIBC_POWF_H */
