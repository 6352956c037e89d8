/*
 * vqparity - every CUDA kernel against the CPU executor, word for word, in
 * the manner of dav1d's checkasm: one program, one table of families (one
 * file each, tests/parity/<family>.cu), one printed seed from which each
 * family reseeds its generator, so that a family run alone reproduces what
 * it did in a full run.
 *
 *   vqparity [--test NAME[,NAME...]] [--seed N] [--sizes N] [--bench]
 *            [--bench-sessions] [--profile] [--frame PATH WxH] [--frame-only]
 *            [--pair REF DIST WxH]
 *   vqparity --list
 *
 * --test: the families to run (default: all; with --bench, those with a
 * bench; with a family's own flag, the families taking it). --sizes: the
 * random size (or case) count; without it each family runs its own default.
 * --bench-sessions, --profile (vmaf), --frame, --frame-only (cambi's
 * bench) and --pair (ciede's bench: a real pair) go to the families that
 * take them; naming another family with one
 * of them is an error.
 *
 * Exit 77 (ctest skip) without a CUDA device, 0 when every family selected
 * was equal, 1 when one differed, 2 on a bad command line. The last line
 * printed says which families passed and which failed.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "parity.h"

namespace {

/* the flags that belong to some families only */
enum : unsigned {
    F_BENCH_SESSIONS = 1u << 0,
    F_PROFILE = 1u << 1,
    F_FRAME = 1u << 2,   /* --frame, --frame-only */
    F_PAIR = 1u << 3,    /* --pair */
};

struct Family {
    const char *name;
    int (*run)(const ParityArgs &);
    bool has_bench;
    bool own_seed;    /* a fixed seed of its own unless --seed is given */
    unsigned takes;   /* F_* */
    const char *what;
};

/* The families, in the order they run. A new family: its file, its line here,
 * its name in tests/tests.cmake's VQ_PARITY_FAMILIES. */
const Family families[] = {
    { "vmaf", parity_vmaf, true, false, F_BENCH_SESSIONS | F_PROFILE,
      "VIF/ADM/motion/PSNR row sums, ADM's CSF modes, ladders of sessions (CUDA vs CPU executor)" },
    { "scale", parity_scale, true, false, 0, "the upscaler, every layout, both modes, byte for byte" },
    { "psnr_hvs", parity_psnr_hvs, true, false, 0, "psnr_hvs's output words, terms and ordered sums" },
    { "ssim", parity_ssim, true, false, 0, "float_ssim / float_ms_ssim sums and enable_lcs outputs" },
    { "ciede", parity_ciede, true, false, F_PAIR, "ciede2000's device stage, overflow list and folds" },
    { "cambi", parity_cambi, true, false, F_FRAME, "CAMBI words and c-values, options, pooling, dog2160 (VQ_RAW_DIR)" },
    { "float_small", parity_float_small, true, true, 0, "float_psnr, float_moment, float_ansnr, speed_temporal's steps 1-3" },
    { "float_vif", parity_float_vif, false, true, 0, "float_vif and float_motion words, graph replays" },
    { "float_adm", parity_float_adm, true, false, 0, "float_adm words, both reciprocals, graph replays" },
    { "speed", parity_speed, false, true, 0, "speed_chroma's steps 1-3 and scores" },
};

const char *flag_name(unsigned f)
{
    return f == F_BENCH_SESSIONS ? "--bench-sessions" : f == F_PROFILE ? "--profile"
                                  : f == F_PAIR           ? "--pair"
                                                          : "--frame/--frame-only";
}

/* what has run, for the last line; also written when a family ends the
 * program itself (parity_common.cuh's CK exits on a CUDA error) */
std::string g_passed, g_failed;
const char *g_running = nullptr;
int g_npassed = 0, g_nfailed = 0;
uint64_t g_seed = 0;

void add(std::string &list, const char *name)
{
    if (!list.empty())
        list += ' ';
    list += name;
}

void at_exit(void)
{
    if (!g_running)
        return;
    fflush(stdout);
    printf("vqparity: %s ended the program (exit inside the family); %d passed (%s), %d failed (%s) "
           "before it (seed %llu)\n",
           g_running, g_npassed, g_passed.c_str(), g_nfailed, g_failed.c_str(), (unsigned long long)g_seed);
    fflush(stdout);
}

/* the environment as a family found it: a family that sets a variable
 * (vmaf's benches set VQ_CUDA_GRAPHS and VQ_CUDA_REF_SHARE) leaves the next
 * family the environment it would have had as a program of its own */
std::vector<std::string> env_save(void)
{
    std::vector<std::string> v;
    for (char **e = environ; *e; e++)
        v.push_back(*e);
    return v;
}

void env_restore(const std::vector<std::string> &v)
{
    if (env_save() == v)
        return;
    clearenv();
    for (const std::string &kv : v) {
        const size_t eq = kv.find('=');
        if (eq != std::string::npos)
            setenv(kv.substr(0, eq).c_str(), kv.c_str() + eq + 1, 1);
    }
}

void usage(FILE *f)
{
    fprintf(f,
            "usage: vqparity [--test NAME[,NAME...]] [--seed N] [--sizes N] [--bench]\n"
            "                [--bench-sessions] [--profile] [--frame PATH WxH] [--frame-only]\n"
            "                [--pair REF DIST WxH]\n"
            "       vqparity --list\n");
}

const Family *find(const std::string &name)
{
    for (const Family &f : families)
        if (name == f.name)
            return &f;
    return nullptr;
}

}  // namespace

int main(int argc, char **argv)
{
    ParityArgs args = {};
    args.seed = (uint64_t)time(NULL);
    args.sizes = -1;
    unsigned given = 0;   /* F_* given */
    const char *tests = nullptr;
    bool list = false;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--test") && i + 1 < argc)
            tests = argv[++i];
        else if (!strncmp(o, "--test=", 7))
            tests = o + 7;
        else if (!strcmp(o, "--list"))
            list = true;
        else if (!strcmp(o, "--seed") && i + 1 < argc) {
            char *end;
            args.seed = strtoull(argv[++i], &end, 0);
            if (*end || end == argv[i]) {
                fprintf(stderr, "vqparity: --seed %s: not a number\n", argv[i]);
                return 2;
            }
            args.seed_given = true;
        } else if (!strcmp(o, "--sizes") && i + 1 < argc) {
            char *end;
            const long n = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || n < 0 || n > 1000000) {
                fprintf(stderr, "vqparity: --sizes %s: not a count\n", argv[i]);
                return 2;
            }
            args.sizes = (int)n;
        } else if (!strcmp(o, "--bench"))
            args.bench = true;
        else if (!strcmp(o, "--bench-sessions")) {
            args.bench_sessions = true;
            given |= F_BENCH_SESSIONS;
        } else if (!strcmp(o, "--profile")) {
            args.profile = true;
            given |= F_PROFILE;
        } else if (!strcmp(o, "--frame-only")) {
            args.frame_only = true;
            given |= F_FRAME;
        } else if (!strcmp(o, "--frame") && i + 2 < argc) {   /* PATH WxH: 8-bit 4:2:0 raw */
            args.frame = argv[++i];
            if (sscanf(argv[++i], "%dx%d", &args.frame_w, &args.frame_h) != 2 || args.frame_w <= 0 ||
                args.frame_h <= 0) {
                fprintf(stderr, "vqparity: --frame %s %s: the size is WxH\n", args.frame, argv[i]);
                return 2;
            }
            given |= F_FRAME;
        } else if (!strcmp(o, "--pair") && i + 3 < argc) {   /* REF DIST WxH: 8-bit 4:2:0 raw */
            args.pair[0] = argv[++i];
            args.pair[1] = argv[++i];
            if (sscanf(argv[++i], "%dx%d", &args.pair_w, &args.pair_h) != 2 || args.pair_w <= 0 ||
                args.pair_h <= 0) {
                fprintf(stderr, "vqparity: --pair %s %s %s: the size is WxH\n", args.pair[0], args.pair[1], argv[i]);
                return 2;
            }
            given |= F_PAIR;
        } else if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "vqparity: unknown or incomplete option %s\n", o);
            usage(stderr);
            return 2;
        }
    }
    if (list) {
        for (const Family &f : families) {
            std::string extra;
            if (f.has_bench)
                extra += " --bench";
            for (unsigned b : { F_BENCH_SESSIONS, F_PROFILE, F_FRAME, F_PAIR })
                if (f.takes & b)
                    extra += std::string(" ") + flag_name(b);
            printf("%-12s %s%s%s\n", f.name, f.what, extra.empty() ? "" : "  (takes", extra.empty() ? "" : (extra + ")").c_str());
        }
        return 0;
    }

    /* the selection */
    const bool bench_mode = args.bench || args.bench_sessions || args.profile;
    std::vector<const Family *> run;
    if (tests) {
        std::string s(tests);
        size_t p = 0;
        while (p <= s.size()) {
            size_t q = s.find(',', p);
            if (q == std::string::npos)
                q = s.size();
            const std::string name = s.substr(p, q - p);
            p = q + 1;
            if (name.empty())
                continue;
            const Family *f = find(name);
            if (!f) {
                fprintf(stderr, "vqparity: no family \"%s\" (vqparity --list names them)\n", name.c_str());
                return 2;
            }
            for (unsigned b : { F_BENCH_SESSIONS, F_PROFILE, F_FRAME, F_PAIR })
                if ((given & b) && !(f->takes & b)) {
                    fprintf(stderr, "vqparity: %s is not a flag of %s\n", flag_name(b), f->name);
                    return 2;
                }
            bool dup = false;
            for (const Family *r : run)
                dup |= r == f;
            if (!dup)
                run.push_back(f);
        }
        if (run.empty()) {
            fprintf(stderr, "vqparity: --test names no family\n");
            return 2;
        }
    } else {
        for (const Family &f : families)
            if (!(given & ~f.takes) && (!bench_mode || f.has_bench))
                run.push_back(&f);
        if (run.empty()) {
            fprintf(stderr, "vqparity: no family takes all of these flags\n");
            return 2;
        }
    }

    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("SKIP: no CUDA device (%s)\n", cudaGetErrorString(cudaGetLastError()));
        return 77;
    }
    std::string own;   /* the families running on a fixed seed of their own */
    for (const Family *f : run)
        if (f->own_seed && !args.seed_given && !(bench_mode && !f->has_bench))
            add(own, f->name);
    printf("vqparity: seed %llu%s%s%s\n", (unsigned long long)args.seed, own.empty() ? "" : " (",
           own.c_str(), own.empty() ? "" : ": their own fixed seeds, which --seed replaces)");
    fflush(stdout);
    g_seed = args.seed;
    atexit(at_exit);

    std::string skipped;
    const std::vector<std::string> env = env_save();
    for (const Family *f : run) {
        if (bench_mode && !f->has_bench) {
            add(skipped, f->name);
            printf("== %s: no bench\n", f->name);
            continue;
        }
        printf("== %s: %s\n", f->name, f->what);
        fflush(stdout);
        g_running = f->name;
        const int rc = f->run(args);
        fflush(stdout);
        env_restore(env);
        g_running = nullptr;
        if (rc) {
            add(g_failed, f->name);
            g_nfailed++;
        } else {
            add(g_passed, f->name);
            g_npassed++;
        }
        printf("-- %s: %s\n", f->name, rc ? "FAILED" : bench_mode ? "done" : "passed");
        fflush(stdout);
    }
    printf("vqparity: %d %s (%s), %d failed (%s)%s%s%s, seed %llu\n", g_npassed, bench_mode ? "done" : "passed",
           g_passed.c_str(), g_nfailed, g_failed.c_str(), skipped.empty() ? "" : ", no bench (",
           skipped.c_str(), skipped.empty() ? "" : ")", (unsigned long long)args.seed);
    return g_nfailed ? 1 : 0;
}
