/*
 * glibc_powf_check.h - whether this host's powf is the one
 * kernels/float_adm/glibc_powf.h reproduces (glibc 2.28+, its x86-64 FMA build), for
 * a given exponent: the CUDA executor runs float_adm's adm_p_norm other
 * than 3 only where it is, since the reference calls the host's powf.
 */
#ifndef VQ_GLIBC_POWF_CHECK_H
#define VQ_GLIBC_POWF_CHECK_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if powf(x, y) == vq_glibc_powf(x, y) bit for bit on 2^17 + 13 inputs x
 * spread over every non-negative float (zero, subnormals, the under- and
 * overflowing ends, NaN, infinity); else 0 and, if x_out, the first x that
 * differs.  About 5 ms, once per exponent in a process (the answer is kept). */
int vq_glibc_powf_agrees(float y, float *x_out);

#ifdef __cplusplus
}
#endif
#endif /* VQ_GLIBC_POWF_CHECK_H */
