/*
 * rcp_table_check - is vqcuda's RCPSS table for this CPU's vendor (or the
 * one named) this CPU's _mm_rcp_ss?  Built static (the CMake target
 * rcp_table_check), so it runs on any x86-64 Linux machine.
 *
 *   rcp_table_check [--table auto|amd|intel] [--full]
 *
 * Default: every mantissa of 19 exponents (the edges and a spread), both
 * signs (8 * 10^8 inputs, seconds); --full: all 2^32 floats (a minute).
 * Exit 0: equal; 1: not equal (the first input and both results printed);
 * 77: vqcuda has no table for this vendor (reason printed).
 */
#include <cpuid.h>
#include <cstdio>
#include <cstring>

#include "rcp_check.h"
#include "float_adm/rcp_select.h"

int main(int argc, char **argv)
{
    const char *which = "auto";
    int full = 0;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--table") && i + 1 < argc)
            which = argv[++i];
        else if (!std::strcmp(argv[i], "--full"))
            full = 1;
        else {
            std::fprintf(stderr, "usage: rcp_table_check [--table auto|amd|intel] [--full]\n");
            return 2;
        }
    }
    char brand[49] = "";
    unsigned r[4];
    for (unsigned k = 0; k < 3; k++)
        if (__get_cpuid(0x80000002u + k, &r[0], &r[1], &r[2], &r[3]))
            std::memcpy(brand + 16 * k, r, 16);
    std::printf("this CPU: %s \"%s\"\n", vq_rcp_cpu_vendor(), brand);
    char err[512] = "";
    const VqRcpTable *t = vq_rcp_select(which, err, sizeof(err));
    if (!t) {
        std::printf("SKIP: %s\n", err);
        return 77;
    }
    if (t->mode != VQ_RCP_TABLE) {
        std::printf("SKIP: rcp=%s divides exactly: there is no table to check\n", which);
        return 77;
    }
    const char *name = !std::strcmp(which, "auto") ? vq_rcp_auto_name() : which;
    std::printf("table: %s, generated on %s\n", name, vq_rcp_table_cpu(name));
    uint32_t first = 0;
    const uint64_t bad = vq_test_rcp_check(t, full, &first);
    const char *what = full ? "all 2^32 floats" : "every mantissa of 19 exponents, both signs";
    if (bad) {
        std::printf("FAIL: %llu inputs differ (%s); first rcp(0x%08x): this CPU 0x%08x, the table 0x%08x\n",
                    (unsigned long long)bad, what, first, vq_test_cpu_rcp(first), vq_rcp_bits(t, first));
        return 1;
    }
    std::printf("OK: the %s table equals this CPU's RCPSS on %s\n", name, what);
    return 0;
}
