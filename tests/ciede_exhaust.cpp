/*
 * ciede_exhaust - checks the device stage's premises against this machine's
 * glibc, over every argument the reference can pass where that set is
 * countable (docs/ciede.md, "Why the device stage is exact"):
 *
 *   pow7    every float x in [0, 4096): glibc's powf(x, 7) and pow(x, 7) are
 *           one of the two neighbours of the exact x^7 that
 *           vq_ciede_pow7_bounds_f/_d compute (C' and C'bar are < 2048);
 *   sin     every float f in [-8, 8]: sin((double)f) and sin((double)f / 2)
 *           (the arguments sin(rad), sin(dh' / 2)) lie in the enclosure;
 *   cos     every float H in [0, 10]: the four cosines of T;
 *   exp     every float d in [-12, 12]: exp(-(d * d));
 *   stagea8 / stagea10: every Y'CbCr triple at 8 / 10 bits: the three
 *           pow(base, 2.4) and the three pow(c, 1.0 / 3.0) of the reference;
 *   stagea12 / stagea16: 2^30 random triples at 12 / 16 bits;
 *   atan2   2^30 random pairs of floats (uniform bits, and Lab-like ranges).
 *
 * "In the enclosure": vq_ciede_enclose(approximation) contains glibc's value
 * (the largest |approx - glibc| / |glibc| is printed too).  Exit 0 when every
 * check holds.  Minutes of CPU each: run by hand, not by ctest.
 *
 *   ciede_exhaust [pow7|sin|cos|exp|stagea8|stagea10|stagea12|stagea16|atan2|all]...
 */
/* GCC 12.2 (Debian 12) at -O2/-O3 SLP-vectorizes pairs of float
 * conversions and then folds (double)(float)x back to x: wrong code for the
 * reference's float roundings (docs/ciede.md, "Compiler").  No vectorizing in
 * this file. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-tree-loop-vectorize")
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ciede/ciede.h"

namespace {

struct Stat {
    uint64_t n = 0, bad = 0;
    double worst = 0;
    double worst_arg = 0;
    void merge(const Stat &o)
    {
        n += o.n;
        bad += o.bad;
        if (o.worst > worst) {
            worst = o.worst;
            worst_arg = o.worst_arg;
        }
    }
};

/* approximation vs glibc at one argument */
inline void cmp(Stat &s, double approx, double g, double arg)
{
    s.n++;
    const VqIvD e = vq_ciede_enclose(approx);
    if (!(e.lo <= g && g <= e.hi) || (approx == 0.0 && vq_f64_bits(approx) != vq_f64_bits(g)))
        s.bad++;
    const double r = g == 0 ? fabs(approx) : fabs(approx - g) / fabs(g);
    if (r > s.worst) {
        s.worst = r;
        s.worst_arg = arg;
    }
}

/* runs body(lo, hi, stat) over [0, n) split among the threads */
Stat parallel(uint64_t n, const std::function<void(uint64_t, uint64_t, Stat &)> &body)
{
    const unsigned nt = std::max(1u, std::thread::hardware_concurrency());
    std::vector<Stat> st(nt);
    std::vector<std::thread> th;
    for (unsigned t = 0; t < nt; t++)
        th.emplace_back([&, t] { body(n * t / nt, n * (t + 1) / nt, st[t]); });
    Stat all;
    for (unsigned t = 0; t < nt; t++) {
        th[t].join();
        all.merge(st[t]);
    }
    return all;
}

int report(const char *what, const Stat &s)
{
    printf("%-34s %llu checked, %llu outside, worst relative difference %.3g (2^%.1f) at %.17g\n", what,
           (unsigned long long)s.n, (unsigned long long)s.bad, s.worst, s.worst > 0 ? log2(s.worst) : -1100.0,
           s.worst_arg);
    fflush(stdout);
    return s.bad != 0;
}


int check_pow7()
{
    Stat s = parallel(vq_f32_bits(4096.0f), [](uint64_t lo, uint64_t hi, Stat &st) {
        for (uint64_t u = lo; u < hi; u++) {
            const float x = vq_f32_from_bits((uint32_t)u);
            float a, b;
            double c, d;
            vq_ciede_pow7_bounds_f(x, &a, &b);
            vq_ciede_pow7_bounds_d(x, &c, &d);
            const float p = powf(x, 7.0f);
            const double q = pow((double)x, 7.0);
            st.n++;
            if (!(vq_f32_bits(p) == vq_f32_bits(a) || vq_f32_bits(p) == vq_f32_bits(b)) ||
                !(vq_f64_bits(q) == vq_f64_bits(c) || vq_f64_bits(q) == vq_f64_bits(d)))
                st.bad++;
        }
    });
    return report("pow7: powf/pow(x, 7), x in [0, 4096)", s);
}

/* f over every float in [-m, m] */
Stat over_floats(float m, const std::function<void(float, Stat &)> &f)
{
    const uint64_t half = vq_f32_bits(m) + 1;   /* +0 .. m */
    return parallel(2 * half, [&](uint64_t lo, uint64_t hi, Stat &st) {
        for (uint64_t k = lo; k < hi; k++) {
            const uint32_t u = k < half ? (uint32_t)k : 0x80000000u | (uint32_t)(k - half);
            f(vq_f32_from_bits(u), st);
        }
    });
}

int check_sin()
{
    Stat s = over_floats(8.0f, [](float f, Stat &st) {
        cmp(st, vq_ciede_sincos_approx((double)f, 0), sin((double)f), f);
        cmp(st, vq_ciede_sincos_approx((double)f / 2.0, 0), sin((double)f / 2.0), (double)f / 2.0);
    });
    return report("sin: f, f / 2 for floats |f| <= 8", s);
}

int check_cos()
{
    const uint64_t n = vq_f32_bits(10.0f) + 1;
    Stat s = parallel(n, [](uint64_t lo, uint64_t hi, Stat &st) {
        for (uint64_t u = lo; u < hi; u++) {
            double arg[4];
            vq_ciede_t_args(vq_f32_from_bits((uint32_t)u), arg);
            for (int k = 0; k < 4; k++)
                cmp(st, vq_ciede_sincos_approx(arg[k], 1), cos(arg[k]), arg[k]);
        }
    });
    return report("cos: T's four arguments, H in [0, 10]", s);
}

int check_exp()
{
    Stat s = over_floats(12.0f, [](float d, Stat &st) {
        const double t = vq_ciede_rt_exp_arg(d);
        cmp(st, vq_ciede_exp_approx(t), exp(t), t);
    });
    return report("exp: -(d * d), floats |d| <= 12", s);
}

/* the reference's Stage A calls for one triple */
inline void stage_a(uint32_t y, uint32_t u, uint32_t v, int bpc, Stat &st)
{
    double rgb[3], lin[3], xyz[3];
    vq_ciede_rgb(y, u, v, bpc, rgb);
    for (int c = 0; c < 3; c++) {
        if (vq_ciede_gamma_is_pow(rgb[c])) {
            const double b = vq_ciede_gamma_base(rgb[c]);
            lin[c] = pow(b, VQ_CIEDE_GAMMA_EXP);
            cmp(st, vq_ciede_pow_approx(b, VQ_CIEDE_GAMMA_EXP), lin[c], b);
        } else {
            lin[c] = vq_ciede_gamma_lin(rgb[c]);
        }
    }
    vq_ciede_xyz<double>(lin[0], lin[1], lin[2], xyz);
    for (int c = 0; c < 3; c++)
        if (vq_ciede_lab_is_cbrt(xyz[c]))
            cmp(st, vq_ciede_pow_approx(xyz[c], VQ_CIEDE_THIRD), pow(xyz[c], VQ_CIEDE_THIRD), xyz[c]);
}

int check_stage_a(int bpc, int random)
{
    const uint64_t m = 1ull << bpc;
    Stat s;
    if (!random) {
        s = parallel(m * m * m, [&](uint64_t lo, uint64_t hi, Stat &st) {
            for (uint64_t k = lo; k < hi; k++)
                stage_a((uint32_t)(k % m), (uint32_t)(k / m % m), (uint32_t)(k / m / m), bpc, st);
        });
    } else {
        s = parallel(1ull << 30, [&](uint64_t lo, uint64_t hi, Stat &st) {
            std::mt19937_64 rng(lo * 7919 + bpc);
            for (uint64_t k = lo; k < hi; k++) {
                const uint64_t r = rng();
                stage_a((uint32_t)(r % m), (uint32_t)((r >> 16) % m), (uint32_t)((r >> 32) % m), bpc, st);
            }
        });
    }
    char what[64];
    snprintf(what, sizeof(what), "stage A %d bit%s", bpc, random ? " (2^30 random triples)" : "");
    return report(what, s);
}

int check_atan2()
{
    Stat s = parallel(1ull << 30, [](uint64_t lo, uint64_t hi, Stat &st) {
        std::mt19937_64 rng(lo + 17);
        std::uniform_real_distribution<float> lab(-1200.0f, 1200.0f);
        for (uint64_t k = lo; k < hi; k++) {
            float y, x;
            if (k & 1) {
                const uint64_t r = rng();
                y = vq_f32_from_bits((uint32_t)r);
                x = vq_f32_from_bits((uint32_t)(r >> 32));
                if (!(fabsf(y) < INFINITY && fabsf(x) < INFINITY) || (x == 0 && y == 0))
                    continue;
            } else {
                y = lab(rng);
                x = (k & 2) ? lab(rng) : lab(rng) * 1e-4f;
            }
            cmp(st, vq_ciede_atan2_approx(y, x), atan2((double)y, (double)x), y / (double)x);
        }
    });
    return report("atan2: 2^30 random float pairs", s);
}

}  // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> what;
    for (int i = 1; i < argc; i++)
        what.push_back(argv[i]);
    if (what.empty() || (what.size() == 1 && what[0] == "all"))
        what = { "pow7", "sin", "cos", "exp", "stagea8", "stagea10", "stagea12", "stagea16", "atan2" };
    int bad = 0;
    for (const std::string &w : what) {
        if (w == "pow7") bad |= check_pow7();
        else if (w == "sin") bad |= check_sin();
        else if (w == "cos") bad |= check_cos();
        else if (w == "exp") bad |= check_exp();
        else if (w == "stagea8") bad |= check_stage_a(8, 0);
        else if (w == "stagea10") bad |= check_stage_a(10, 0);
        else if (w == "stagea12") bad |= check_stage_a(12, 1);
        else if (w == "stagea16") bad |= check_stage_a(16, 1);
        else if (w == "atan2") bad |= check_atan2();
        else {
            fprintf(stderr, "unknown check %s\n", w.c_str());
            return 2;
        }
    }
    printf("%s\n", bad ? "SOME CHECK FAILED" : "all checks hold");
    return bad;
}
