/* rcp_select.cpp - see rcp_select.h. */
#include "rcp_select.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace {

#include "rcp_table_amd.h"
#include "rcp_table_intel.h"

/* the generated arrays as a VqRcpTable, with the bucket index */
template <size_t NR, size_t NS>
std::unique_ptr<VqRcpTable> build(const uint32_t (&runs)[NR][2], const uint32_t (&exps)[256][3],
                                  const uint32_t (&special)[NS][3])
{
    static_assert(NR <= VQ_RCP_MAX_RUNS && NS <= VQ_RCP_MAX_SPECIAL, "table too large for VqRcpTable");
    auto t = std::make_unique<VqRcpTable>();
    std::memset(t.get(), 0, sizeof(*t));
    t->mode = VQ_RCP_TABLE;
    t->n_runs = (int32_t)NR;
    t->n_special = (int32_t)NS;
    for (int e = 0; e < 256; e++) {
        t->kind[e] = (uint8_t)exps[e][0];
        t->reg_lo[e] = exps[e][1];
        t->reg_hi[e] = exps[e][2];
    }
    for (size_t i = 0; i < NR; i++) {
        t->run_start[i] = runs[i][0];
        t->run_bits[i] = runs[i][1];
    }
    for (size_t i = 0; i < NS; i++) {
        t->sp_e[i] = special[i][0];
        t->sp_start[i] = special[i][1];
        t->sp_bits[i] = special[i][2];
    }
    size_t r = 0;
    for (uint32_t b = 0; b < VQ_RCP_BUCKETS; b++) {
        const uint32_t m = b << (23 - VQ_RCP_BUCKET_BITS);
        while (r + 1 < NR && runs[r + 1][0] <= m)
            r++;
        t->bucket[b] = (uint16_t)r;
    }
    return t;
}

const VqRcpTable *table_amd()
{
    static std::once_flag once;
    static std::unique_ptr<VqRcpTable> t;
    std::call_once(once, [] { t = build(vq_rcp_amd_runs, vq_rcp_amd_exp, vq_rcp_amd_special); });
    return t.get();
}

const VqRcpTable *table_intel()
{
#ifdef VQ_RCP_INTEL_MISSING
    return nullptr;
#else
    static std::once_flag once;
    static std::unique_ptr<VqRcpTable> t;
    std::call_once(once, [] { t = build(vq_rcp_intel_runs, vq_rcp_intel_exp, vq_rcp_intel_special); });
    return t.get();
#endif
}

const VqRcpTable *table_div()
{
    static VqRcpTable *t = [] {
        static VqRcpTable d;
        std::memset(&d, 0, sizeof(d));
        d.mode = VQ_RCP_DIV;
        return &d;
    }();
    return t;
}

}  // namespace

extern "C" const char *vq_rcp_cpu_vendor(void)
{
#if defined(__x86_64__) || defined(__i386__)
    static char vendor[13] = "";
    static std::once_flag once;
    std::call_once(once, [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        if (__get_cpuid(0, &a, &b, &c, &d)) {
            std::memcpy(vendor, &b, 4);
            std::memcpy(vendor + 4, &d, 4);
            std::memcpy(vendor + 8, &c, 4);
        }
    });
    return vendor;
#else
    return "";
#endif
}

extern "C" const char *vq_rcp_auto_name(void)
{
#if defined(__SSE2__)
    const char *v = vq_rcp_cpu_vendor();
    if (!std::strcmp(v, "AuthenticAMD"))
        return "amd";
    if (!std::strcmp(v, "GenuineIntel"))
        return "intel";
    return nullptr;
#else
    return "div";
#endif
}

extern "C" const char *vq_rcp_table_cpu(const char *name)
{
    if (!std::strcmp(name, "amd"))
        return VQ_RCP_AMD_CPU;
#ifndef VQ_RCP_INTEL_MISSING
    if (!std::strcmp(name, "intel"))
        return VQ_RCP_INTEL_CPU;
#endif
    return nullptr;
}

extern "C" const VqRcpTable *vq_rcp_select(const char *which, char *err, size_t errlen)
{
    const bool is_auto = !std::strcmp(which, "auto");
    const char *name = is_auto ? vq_rcp_auto_name() : which;
    if (!name) {
        std::snprintf(err, errlen, "rcp=auto: this CPU's vendor '%s' has no RCPSS table (vqcuda has AMD's; "
                      "give rcp=amd, rcp=intel or rcp=div to say whose reciprocal to reproduce)",
                      vq_rcp_cpu_vendor());
        return nullptr;
    }
    if (!std::strcmp(name, "amd"))
        return table_amd();
    if (!std::strcmp(name, "div"))
        return table_div();
    if (!std::strcmp(name, "intel")) {
        if (const VqRcpTable *t = table_intel())
            return t;
        std::snprintf(err, errlen, "rcp=%s%s: vqcuda has no table of Intel's RCPSS yet "
                      "(hostmath/float_adm/rcp_table_intel.h is a placeholder until scripts/rcp_table_gen.c has run "
                      "on an Intel CPU), so libvmaf's float_adm as it runs on Intel cannot be reproduced; "
                      "rcp=amd reproduces it on AMD CPUs",
                      which, is_auto ? " (a GenuineIntel CPU)" : "");
        return nullptr;
    }
    std::snprintf(err, errlen, "rcp=%s: unknown (auto, amd, intel, div)", which);
    return nullptr;
}
