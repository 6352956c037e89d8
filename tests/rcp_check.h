/*
 * rcp_check.h - a table of kernels/float_adm/rcp_table.h against this CPU's
 * _mm_rcp_ss: every mantissa of a set of exponents (both signs), or every
 * one of the 2^32 floats.  Used by tests/rcp_table_check.cpp (a static
 * program to run on another machine) and tests/test_float_adm.cpp.
 */
#ifndef VQ_TESTS_RCP_CHECK_H
#define VQ_TESTS_RCP_CHECK_H

#include <stdint.h>
#include <string.h>
#include <xmmintrin.h>

#include "float_adm/rcp_table.h"

static inline uint32_t vq_test_cpu_rcp(uint32_t b)
{
    float x, r;
    uint32_t o;
    memcpy(&x, &b, 4);
    r = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
    memcpy(&o, &r, 4);
    return o;
}

/* the exponents checked in full by default: the edges (denormals, the
 * flush to zero at the top, inf/NaN) and a spread of regular ones */
static const int vq_test_rcp_exponents[] = { 0, 1, 2, 3, 64, 100, 125, 126, 127, 128, 129, 160, 200,
                                             250, 251, 252, 253, 254, 255 };

/* 0, or the number of inputs whose table result differs from the CPU's
 * (*first: the first such input); full: all 2^32 inputs */
static inline uint64_t vq_test_rcp_check(const VqRcpTable *t, int full, uint32_t *first)
{
    uint64_t bad = 0;
    const int ne = full ? 256 : (int)(sizeof(vq_test_rcp_exponents) / sizeof(int));
    for (int k = 0; k < ne; k++) {
        const uint32_t e = full ? (uint32_t)k : (uint32_t)vq_test_rcp_exponents[k];
        for (uint32_t sign = 0; sign < 2; sign++)
            for (uint32_t m = 0; m < (1u << 23); m++) {
                const uint32_t b = (sign << 31) | (e << 23) | m;
                if (vq_rcp_bits(t, b) != vq_test_cpu_rcp(b)) {
                    if (!bad)
                        *first = b;
                    bad++;
                }
            }
    }
    return bad;
}

#endif /* VQ_TESTS_RCP_CHECK_H */
