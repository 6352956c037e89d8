/*
 * rcp_table_gen.c - the table of this CPU's RCPSS (_mm_rcp_ss), for
 * float_adm's divisions (docs/float-adm.md, "The reciprocal").
 *
 * libvmaf's adm_tools.c divides as n * rcp_s(d), rcp_s(x) = xi + xi * (1 -
 * x * xi) with xi = _mm_rcp_ss(x): the CPU's approximate reciprocal, which
 * differs between vendors.  This program runs _mm_rcp_ss over every one of
 * the 2^32 floats and writes, on stdout, a C header that describes all of
 * them compactly:
 *
 *   - runs: rcp of 1.m (biased exponent 127) as runs of mantissas m with
 *     one result each (start mantissa, result bits);
 *   - per biased exponent e: the mantissas [lo, hi) where the result is
 *     regular, sign | (run bits + (127 - e) << 23) (the bits of exponent
 *     127 moved by the input's exponent) for both signs; the other
 *     mantissas are listed in the special runs (e, start mantissa, result
 *     bits; the input's sign ORed in).  Kind NAN (exponent 255): mantissa 0
 *     is special, every other mantissa gives the input with the quiet bit.
 *     (Intel documents that inputs just below 2^126 may or may not give
 *     tiny results, flushed to 0: an exponent may be regular only in part.)
 *   - special runs for the mantissas outside the regular ranges.
 *
 * Everything is verified before anything is written: the description is
 * rebuilt into a lookup here and compared with the CPU over all 2^32
 * inputs; any input the format cannot describe fails the run (exit 1) with
 * the input and both results.  The header is deterministic for one CPU.
 *
 * Build (static, runs anywhere x86-64, needs nothing installed):
 *     gcc -O2 -static -o rcp_table_gen scripts/rcp_table_gen.c
 * (or the CMake target rcp_table_gen).  Run:
 *     ./rcp_table_gen > rcp_table_intel.h          (name from the CPU's vendor)
 *     ./rcp_table_gen --name amd > rcp_table_amd.h
 *     ./rcp_table_gen --check rcp_table_amd.h      (is that file this CPU's? exit 0 if so)
 * The run takes a few seconds to a minute (2^32 RCPSS plus the check).
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xmmintrin.h>

#define MAX_RUNS 8192
#define MAX_SPECIAL 64

enum { KIND_RANGE = 0, KIND_NAN = 2 };

static uint32_t cpu_rcp(uint32_t b)
{
    float x, r;
    uint32_t o;
    memcpy(&x, &b, 4);
    r = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
    memcpy(&o, &r, 4);
    return o;
}

static uint32_t run_start[MAX_RUNS], run_bits[MAX_RUNS];
static int n_runs;
static uint32_t sp_e[MAX_SPECIAL], sp_start[MAX_SPECIAL], sp_bits[MAX_SPECIAL];
static int n_special;
static uint8_t kind[256];
static uint32_t reg_lo[256], reg_hi[256];   /* regular mantissas [lo, hi) */
static uint32_t base[1u << 23];     /* rcp bits of 1.m, m = 0 .. 2^23 - 1 */

/* the lookup the header describes (kernels/float_adm/rcp_table.h does the same) */
static uint32_t table_rcp(uint32_t b)
{
    const uint32_t s = b & 0x80000000u, e = (b >> 23) & 0xff, m = b & 0x7fffff;
    int lo, hi, i;
    if (m >= reg_lo[e] && m < reg_hi[e]) {
        lo = 0;
        hi = n_runs - 1;
        while (lo < hi) {   /* the last run with start <= m */
            const int mid = (lo + hi + 1) / 2;
            if (run_start[mid] <= m)
                lo = mid;
            else
                hi = mid - 1;
        }
        return s | (run_bits[lo] + (uint32_t)(127 - (int)e) * (1u << 23));
    }
    if (kind[e] == KIND_NAN && m)
        return b | 0x00400000u;
    for (i = n_special - 1; i >= 0; i--)
        if (sp_e[i] == e && sp_start[i] <= m)
            return s | sp_bits[i];
    return 0xdeadbeefu;     /* not described: the check fails */
}

static void cpu_name(char *vendor, char *brand, unsigned *fam, unsigned *model, unsigned *step)
{
    unsigned a = 0, b = 0, c = 0, d = 0, k;
    memset(vendor, 0, 13);
    memset(brand, 0, 49);
    __get_cpuid(0, &a, &b, &c, &d);
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    __get_cpuid(1, &a, &b, &c, &d);
    *step = a & 0xf;
    *fam = (a >> 8) & 0xf;
    *model = (a >> 4) & 0xf;
    if (*fam == 0xf)
        *fam += (a >> 20) & 0xff;
    if (*fam == 0x6 || *fam >= 0xf)
        *model |= ((a >> 16) & 0xf) << 4;
    if (__get_cpuid_max(0x80000000u, NULL) >= 0x80000004u)
        for (k = 0; k < 3; k++) {
            __get_cpuid(0x80000002u + k, &a, &b, &c, &d);
            memcpy(brand + 16 * k, &a, 4);
            memcpy(brand + 16 * k + 4, &b, 4);
            memcpy(brand + 16 * k + 8, &c, 4);
            memcpy(brand + 16 * k + 12, &d, 4);
        }
    /* trim the brand's padding */
    for (k = 48; k > 0 && (brand[k - 1] == ' ' || brand[k - 1] == 0); k--)
        brand[k - 1] = 0;
    while (brand[0] == ' ')
        memmove(brand, brand + 1, strlen(brand));
    for (k = 0; brand[k]; k++)
        if (brand[k] == '"' || brand[k] == '\\' || brand[k] == '*')
            brand[k] = '?';
}

/* build the description from the CPU; 0, or -1 with a message */
static int derive(void)
{
    static uint8_t reg[1u << 23];
    uint32_t m, e, prev = 0;
    n_runs = 0;
    for (m = 0; m < (1u << 23); m++) {
        base[m] = cpu_rcp((127u << 23) | m);
        if (m == 0 || base[m] != prev) {
            if (n_runs == MAX_RUNS) {
                fprintf(stderr, "rcp_table_gen: more than %d runs at exponent 127: the format "
                        "cannot hold this CPU's RCPSS\n", MAX_RUNS);
                return -1;
            }
            run_start[n_runs] = m;
            run_bits[n_runs++] = base[m];
            prev = base[m];
        }
    }
    n_special = 0;
    for (e = 0; e < 256; e++) {
        int nan = e == 255;
        uint32_t lo = 0, hi = 0, cur = 0;
        for (m = 0; m < (1u << 23); m++) {
            const uint32_t x = (e << 23) | m, r = cpu_rcp(x), rn = cpu_rcp(x | 0x80000000u);
            const int64_t ex = (int64_t)base[m] + (int64_t)(127 - (int)e) * (1 << 23);
            const int in_range = ex >= (1 << 23) && ex < (int64_t)(255u << 23);
            reg[m] = in_range && r == (uint32_t)ex && rn == (r | 0x80000000u);
            if (m && (r != (x | 0x00400000u) || rn != (x | 0x80400000u)))
                nan = 0;
        }
        /* the longest range of regular mantissas */
        for (m = 0; m <= (1u << 23); m++) {
            if (m < (1u << 23) && reg[m]) {
                cur++;
                continue;
            }
            if (cur > hi - lo) {
                lo = m - cur;
                hi = m;
            }
            cur = 0;
        }
        kind[e] = nan ? KIND_NAN : KIND_RANGE;
        reg_lo[e] = nan ? 0 : lo;
        reg_hi[e] = nan ? 0 : hi;
        /* the other mantissas' runs (positive inputs; mantissa 0 only for NAN) */
        for (m = 0; m < (nan ? 1u : (1u << 23)); m++) {
            const uint32_t r = cpu_rcp((e << 23) | m);
            if (m >= reg_lo[e] && m < reg_hi[e])
                continue;
            if (n_special == 0 || sp_e[n_special - 1] != e || m == reg_hi[e] || r != sp_bits[n_special - 1]) {
                if (n_special == MAX_SPECIAL) {
                    fprintf(stderr, "rcp_table_gen: more than %d special runs (exponent %u): the "
                            "format cannot hold this CPU's RCPSS\n", MAX_SPECIAL, e);
                    return -1;
                }
                sp_e[n_special] = e;
                sp_start[n_special] = m;
                sp_bits[n_special++] = r & 0x7fffffffu;
            }
        }
    }
    return 0;
}

/* every input: the description against the CPU */
static int check_all(const char *what)
{
    uint64_t n;
    for (n = 0; n < (1ull << 32); n++) {
        const uint32_t b = (uint32_t)n, want = cpu_rcp(b), got = table_rcp(b);
        if (got != want) {
            fprintf(stderr, "rcp_table_gen: %s: rcp(0x%08x): this CPU 0x%08x, the table 0x%08x\n",
                    what, b, want, got);
            return -1;
        }
    }
    return 0;
}

/* --check FILE: read a header this program wrote and compare it with this CPU */
static int read_header(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int section = 0, nr = 0, ns = 0, nk = 0;
    if (!f) {
        perror(path);
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        unsigned a, b, c;
        if (strstr(line, "_runs[")) section = 1;
        else if (strstr(line, "_exp[")) section = 2;
        else if (strstr(line, "_special[")) section = 3;
        else if (section == 1 && sscanf(line, " { 0x%x, 0x%x }", &a, &b) == 2 && nr < MAX_RUNS) {
            run_start[nr] = a;
            run_bits[nr++] = b;
        } else if (section == 2 && nk < 256 && sscanf(line, " { %u, 0x%x, 0x%x }", &a, &b, &c) == 3) {
            kind[nk] = (uint8_t)a;
            reg_lo[nk] = b;
            reg_hi[nk++] = c;
        } else if (section == 3 && sscanf(line, " { %u, 0x%x, 0x%x }", &a, &b, &c) == 3 && ns < MAX_SPECIAL) {
            sp_e[ns] = a;
            sp_start[ns] = b;
            sp_bits[ns++] = c;
        }
    }
    fclose(f);
    n_runs = nr;
    n_special = ns;
    if (nr == 0 || nk != 256) {
        fprintf(stderr, "%s: not a table this program wrote (%d runs, %d exponent kinds)\n", path, nr, nk);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    char vendor[13], brand[49];
    const char *name = NULL, *check = NULL;
    unsigned fam, model, step;
    int i;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--name") && i + 1 < argc)
            name = argv[++i];
        else if (!strcmp(argv[i], "--check") && i + 1 < argc)
            check = argv[++i];
        else {
            fprintf(stderr, "usage: rcp_table_gen [--name NAME] > rcp_table_NAME.h\n"
                            "       rcp_table_gen --check rcp_table_NAME.h\n");
            return 2;
        }
    }
    cpu_name(vendor, brand, &fam, &model, &step);
    fprintf(stderr, "rcp_table_gen: %s \"%s\" family 0x%x model 0x%x stepping %u\n", vendor, brand,
            fam, model, step);
    if (check) {
        if (read_header(check) < 0)
            return 1;
        if (check_all(check) < 0) {
            fprintf(stderr, "rcp_table_gen: %s is NOT this CPU's RCPSS\n", check);
            return 1;
        }
        fprintf(stderr, "rcp_table_gen: %s equals this CPU's RCPSS on all 2^32 inputs\n", check);
        return 0;
    }
    if (!name)
        name = !strcmp(vendor, "AuthenticAMD") ? "amd" : !strcmp(vendor, "GenuineIntel") ? "intel" : NULL;
    if (!name) {
        fprintf(stderr, "rcp_table_gen: vendor %s: give the table's name with --name\n", vendor);
        return 2;
    }
    for (i = 0; name[i]; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '_')) {
            fprintf(stderr, "rcp_table_gen: --name: lower-case letters, digits and _ only\n");
            return 2;
        }
    if (derive() < 0 || check_all("self-check") < 0)
        return 1;
    {
        int regular = 0, e0 = -1, e1 = -1, k;
        for (k = 0; k < 256; k++)
            if (reg_lo[k] == 0 && reg_hi[k] == (1u << 23)) {
                regular++;
                e0 = e0 < 0 ? k : e0;
                e1 = k;
            }
        fprintf(stderr, "rcp_table_gen: %d runs at exponent 127, %d regular exponents (%d..%d), "
                "%d special runs; verified on all 2^32 inputs\n", n_runs, regular, e0, e1, n_special);
    }

    char up[64];
    for (i = 0; name[i] && i < 63; i++)
        up[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
    up[i] = 0;
    printf("/*\n * rcp_table_%s.h - GENERATED by scripts/rcp_table_gen.c; do not edit.\n", name);
    printf(" * _mm_rcp_ss (RCPSS) of every float as this CPU computes it:\n");
    printf(" *     %s \"%s\" (family 0x%x, model 0x%x, stepping %u)\n", vendor, brand, fam, model, step);
    printf(" * verified there on all 2^32 inputs.  Format: scripts/rcp_table_gen.c;\n");
    printf(" * lookup: kernels/float_adm/rcp_table.h; docs/float-adm.md.\n */\n");
    printf("#define VQ_RCP_%s_CPU \"%s %s (family 0x%x, model 0x%x, stepping %u)\"\n", up, vendor, brand,
           fam, model, step);
    printf("#define VQ_RCP_%s_NRUNS %d\n#define VQ_RCP_%s_NSPECIAL %d\n\n", up, n_runs, up, n_special);
    printf("/* { first mantissa, rcp bits of 1.m } */\n");
    printf("static const uint32_t vq_rcp_%s_runs[%d][2] = {\n", name, n_runs);
    for (i = 0; i < n_runs; i++)
        printf("    { 0x%06x, 0x%08x },\n", run_start[i], run_bits[i]);
    printf("};\n\n/* per biased exponent: { kind (0 range, 2 NaN), regular mantissas [lo, hi) } */\n");
    printf("static const uint32_t vq_rcp_%s_exp[256][3] = {\n", name);
    for (i = 0; i < 256; i++)
        printf("    { %d, 0x%06x, 0x%06x },\n", kind[i], reg_lo[i], reg_hi[i]);
    printf("};\n\n/* { biased exponent, first mantissa, result bits without the sign } */\n");
    printf("static const uint32_t vq_rcp_%s_special[%d][3] = {\n", name, n_special);
    for (i = 0; i < n_special; i++)
        printf("    { %u, 0x%06x, 0x%08x },\n", sp_e[i], sp_start[i], sp_bits[i]);
    printf("};\n");
    return 0;
}
