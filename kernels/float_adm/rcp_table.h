/*
 * rcp_table.h - a CPU's RCPSS (_mm_rcp_ss, the approximate reciprocal) as
 * data, so that both executors divide as libvmaf's float_adm does on that
 * CPU (adm_tools.c: DIVS(n, d) = n * rcp_s(d), rcp_s(x) = xi + xi * (1 - x *
 * xi), xi = _mm_rcp_ss(x)).  RCPSS is not specified to the bit and AMD's and
 * Intel's differ (rcp(1.3f): AMD 0x3f44f000, Intel 0x3f44e800), so a table
 * per vendor, each generated on such a CPU by scripts/rcp_table_gen.c and
 * checked there on all 2^32 inputs (docs/float-adm.md).
 *
 * The table (rcp_table_gen.c explains the format): runs of mantissas with
 * one result at biased exponent 127; per exponent the range of mantissas
 * where the result is regular (the exponent-127 result moved by 127 - e)
 * and a kind (NaN: the input quieted, exponent 255); the special runs for
 * the mantissas outside those ranges.  A bucket index over the mantissa's
 * top bits finds the run in a step or two.
 *
 * VQ_RCP_DIV: no table, n / d as IEEE division: libvmaf built without
 * __SSE2__ (aarch64 and other non-x86 builds) divides so.
 */
#ifndef VQ_RCP_TABLE_H
#define VQ_RCP_TABLE_H

#include <stdint.h>
#include <string.h>

#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_RCP_MAX_RUNS 8192
#define VQ_RCP_MAX_SPECIAL 64
#define VQ_RCP_BUCKET_BITS 12       /* buckets on the mantissa's top 12 bits */
#define VQ_RCP_BUCKETS (1 << VQ_RCP_BUCKET_BITS)

enum { VQ_RCP_TABLE = 0, VQ_RCP_DIV = 1 };
enum { VQ_RCP_KIND_RANGE = 0, VQ_RCP_KIND_NAN = 2 };

/* Plain data (no pointers): copied as is to the device. */
typedef struct VqRcpTable {
    int32_t mode;                   /* VQ_RCP_TABLE or VQ_RCP_DIV (nothing else used) */
    int32_t n_runs, n_special;
    uint8_t kind[256];              /* per biased exponent */
    uint32_t reg_lo[256], reg_hi[256];  /* per biased exponent: regular mantissas [lo, hi) */
    uint16_t bucket[VQ_RCP_BUCKETS];    /* run holding mantissa b << (23 - VQ_RCP_BUCKET_BITS) */
    uint32_t run_start[VQ_RCP_MAX_RUNS];
    uint32_t run_bits[VQ_RCP_MAX_RUNS]; /* result bits of 1.m */
    uint32_t sp_e[VQ_RCP_MAX_SPECIAL], sp_start[VQ_RCP_MAX_SPECIAL], sp_bits[VQ_RCP_MAX_SPECIAL];
} VqRcpTable;

/* RCPSS of the bits b, as the table's CPU computes it */
VQ_HD uint32_t vq_rcp_bits(const VqRcpTable *t, uint32_t b)
{
    const uint32_t s = b & 0x80000000u, e = (b >> 23) & 0xffu, m = b & 0x7fffffu;
    if (m >= t->reg_lo[e] && m < t->reg_hi[e]) {
        int i = t->bucket[m >> (23 - VQ_RCP_BUCKET_BITS)];
        while (i + 1 < t->n_runs && t->run_start[i + 1] <= m)
            i++;
        return s | (t->run_bits[i] + (uint32_t)(127 - (int)e) * (1u << 23));
    }
    if (t->kind[e] == VQ_RCP_KIND_NAN && m)
        return b | 0x00400000u;
    for (int i = t->n_special - 1; i >= 0; i--)
        if (t->sp_e[i] == e && t->sp_start[i] <= m)
            return s | t->sp_bits[i];
    return s;   /* not reached for a table the generator verified */
}

/* adm_tools.c's rcp_s: one Newton step on the CPU's estimate, all float */
VQ_HD float vq_rcp_s(const VqRcpTable *t, float x)
{
    const float xi = vq_f32_from_bits(vq_rcp_bits(t, vq_f32_bits(x)));
    return xi + xi * (1.0f - x * xi);
}

/* adm_tools.c's DIVS(n, d) */
VQ_HD float vq_rcp_div(const VqRcpTable *t, float n, float d)
{
    if (t->mode == VQ_RCP_DIV)
        return n / d;
    return n * vq_rcp_s(t, d);
}

#ifdef __cplusplus
}
#endif
#endif /* VQ_RCP_TABLE_H */
