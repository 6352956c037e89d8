/*
 * test_ssim.cpp - float_ssim / float_ms_ssim: the taps, the geometry, the
 * exact emulation of the reference's sequential sums, and the CPU executor
 * + fold against libvmaf v3.2.0's golden scores (==) on every frame of
 * every pair.
 *
 * Golden tests read raw frames from $VQ_RAW_DIR/<clip>.yuv (planar, all
 * frames concatenated) and scores from $VQ_GOLDEN_DIR/<pair>.features.json
 * and <pair>.opt_lcs.json (enable_lcs: the means of l, c and s); they are
 * skipped when the raw frames or the first file are missing.  With $VQ_LIBVMAF_SRC (a libvmaf
 * v3.2.0 source tree) the tap tables are also compared with the reference's
 * own tables.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <time.h>

#include "clip_table.h"
#include "golden.h"
#include "registry.hpp"
#include "ssim/ssim.h"
#include "ssim/ssim_exec.h"
#include "ssim/ssim_fold.h"
#include "test_util.h"

namespace {

using vq_test::slurp;

/* the float a C literal with six decimals gives */
float six_decimals(double x)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%.6f", x);
    return strtof(buf, nullptr);
}

/* the float literals of the C array `name` in src, in order */
std::vector<float> c_array(const std::string &src, const std::string &name)
{
    std::vector<float> v;
    const size_t at = src.find(name);
    if (at == std::string::npos)
        return v;
    const size_t open = src.find('{', at), close = src.find("};", at);
    const std::string body = src.substr(open, close - open);
    static const std::regex num("-?[0-9]+\\.[0-9]+f");
    for (std::sregex_iterator it(body.begin(), body.end(), num), end; it != end; ++it)
        v.push_back(strtof(it->str().c_str(), nullptr));
    return v;
}

/* ---- taps ---------------------------------------------------------------- */

TEST(SsimTaps, GaussianIsTheNormalisedExpPrintedWithSixDecimals)
{
    double g[VQ_SSIM_WIN], sum = 0;
    for (int k = 0; k < VQ_SSIM_WIN; k++) {
        const int d = k - VQ_SSIM_WIN_R;
        g[k] = std::exp(-(d * d) / (2 * 1.5 * 1.5));
        sum += g[k];
    }
    for (int k = 0; k < VQ_SSIM_WIN; k++)
        EXPECT_EQ(vq_ssim_gauss_tap(k), six_decimals(g[k] / sum)) << k;
}

TEST(SsimTaps, LowPassTableIsSymmetricAndNearTheProductsOfTheOneDTaps)
{
    for (int v = 0; v < VQ_MS_SSIM_LPF; v++)
        for (int u = 0; u < VQ_MS_SSIM_LPF; u++) {
            const float t = vq_ms_ssim_lpf_tap(v, u);
            EXPECT_EQ(t, vq_ms_ssim_lpf_tap(u, v));
            EXPECT_EQ(t, vq_ms_ssim_lpf_tap(8 - v, u));
            const double p = (double)vq_ms_ssim_lpf_tap_1d(v) * vq_ms_ssim_lpf_tap_1d(u);
            EXPECT_NEAR(t, p, 1.5e-6) << v << "," << u;
            EXPECT_EQ(t, six_decimals(t)) << "six decimals";
        }
    /* the two entries where the table is not the rounded product */
    EXPECT_EQ(vq_ms_ssim_lpf_tap(4, 2), -0.047149f);
    EXPECT_EQ(six_decimals(0.602914 * -0.078201), -0.047148f);
    EXPECT_EQ(vq_ms_ssim_lpf_tap(3, 2), -0.020867f);
}

/* with the reference's source at hand: every tap equal */
TEST(SsimTaps, EqualTheReferenceTables)
{
    const char *dir = getenv("VQ_LIBVMAF_SRC");
    if (!dir)
        GTEST_SKIP() << "VQ_LIBVMAF_SRC not set";
    const std::string tools = slurp(std::string(dir) + "/src/feature/iqa/ssim_tools.h");
    const std::string ms = slurp(std::string(dir) + "/src/feature/ms_ssim.c");
    const std::vector<float> gh = c_array(tools, "g_gaussian_window_h[");
    const std::vector<float> lpf = c_array(ms, "g_lpf[LPF_LEN][LPF_LEN]");
    const std::vector<float> lh = c_array(ms, "g_lpf_h[");
    ASSERT_EQ(gh.size(), (size_t)VQ_SSIM_WIN);
    ASSERT_EQ(lpf.size(), (size_t)(VQ_MS_SSIM_LPF * VQ_MS_SSIM_LPF));
    ASSERT_EQ(lh.size(), (size_t)VQ_MS_SSIM_LPF);
    for (int k = 0; k < VQ_SSIM_WIN; k++)
        EXPECT_EQ(vq_ssim_gauss_tap(k), gh[k]) << k;
    for (int v = 0; v < VQ_MS_SSIM_LPF; v++) {
        EXPECT_EQ(vq_ms_ssim_lpf_tap_1d(v), lh[v]) << v;
        for (int u = 0; u < VQ_MS_SSIM_LPF; u++)
            EXPECT_EQ(vq_ms_ssim_lpf_tap(v, u), lpf[v * VQ_MS_SSIM_LPF + u]) << v << "," << u;
    }
}

/* ---- geometry ------------------------------------------------------------ */

TEST(SsimGeometry, AutoScaleAndSizes)
{
    EXPECT_EQ(vq_ssim_auto_scale(1920, 1080, 0), 4);   /* 4.21875 */
    EXPECT_EQ(vq_ssim_auto_scale(3840, 2160, 0), 8);   /* 8.4375 */
    EXPECT_EQ(vq_ssim_auto_scale(1280, 720, 0), 3);    /* 2.8125 */
    EXPECT_EQ(vq_ssim_auto_scale(720, 576, 0), 2);     /* 2.25 */
    EXPECT_EQ(vq_ssim_auto_scale(640, 360, 0), 1);
    EXPECT_EQ(vq_ssim_auto_scale(577, 323, 0), 1);
    EXPECT_EQ(vq_ssim_auto_scale(36, 34, 0), 1);       /* _round gives 0 */
    EXPECT_EQ(vq_ssim_auto_scale(500, 384, 0), 2);     /* 1.5: half away from zero */
    EXPECT_EQ(vq_ssim_auto_scale(500, 383, 0), 1);
    EXPECT_EQ(vq_ssim_auto_scale(36, 34, 7), 7);
    EXPECT_EQ(vq_ssim_decimated(1080, 4), 270);
    EXPECT_EQ(vq_ssim_decimated(577, 3), 193);         /* + (w & 1), whatever the factor */
    EXPECT_EQ(vq_ssim_decimated(135, 2), 68);

    VqSsimGeom g;
    ASSERT_EQ(vq_ssim_geom_init(&g, 1920, 1080, 8, VQ_SSIM_F_SSIM | VQ_SSIM_F_MS_SSIM, 0), 0);
    EXPECT_EQ(g.sw, 480);
    EXPECT_EQ(g.sh, 270);
    const int mw[5] = { 1920, 960, 480, 240, 120 }, mh[5] = { 1080, 540, 270, 135, 68 };
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(g.msw[i], mw[i]);
        EXPECT_EQ(g.msh[i], mh[i]);
    }
    EXPECT_EQ(vq_ssim_geom_init(&g, 1920, 1080, 9, VQ_SSIM_F_SSIM, 0), -1);
    EXPECT_EQ(vq_ssim_geom_init(&g, 1920, 1080, 8, VQ_SSIM_F_SSIM, 11), -1);
    EXPECT_EQ(vq_ssim_geom_init(&g, 36, 34, 8, VQ_SSIM_F_SSIM, 0), 0);
    EXPECT_EQ(vq_ssim_geom_init(&g, 36, 34, 8, VQ_SSIM_F_MS_SSIM, 0), -1);
}

TEST(SsimGeometry, MsSsimRefusesBelow176)
{
    char msg[256];
    EXPECT_LT(vq_ms_ssim_check_size(36, 34, msg, sizeof msg), 0);
    EXPECT_NE(strstr(msg, "176"), nullptr) << msg;
    EXPECT_LT(vq_ms_ssim_check_size(175, 1000, msg, sizeof msg), 0);
    EXPECT_LT(vq_ms_ssim_check_size(1000, 175, msg, sizeof msg), 0);
    EXPECT_EQ(vq_ms_ssim_check_size(176, 176, msg, sizeof msg), 0);
    /* the reference's own loop, on every size up to 400 */
    for (int w = 1; w < 400; w++) {
        int cw = w, ok = 1;
        for (int i = 0; i < 5; i++, cw /= 2)
            ok = ok && cw >= 11;
        ASSERT_EQ(vq_ms_ssim_check_size(w, 400, nullptr, 0) == 0, ok == 1) << w;
    }
    EXPECT_EQ(vq_ssim_check_size(36, 34, 0, msg, sizeof msg), 0);
    EXPECT_LT(vq_ssim_check_size(36, 34, 4, msg, sizeof msg), 0);   /* 9x9 after decimation */
    EXPECT_LT(vq_ssim_check_size(10, 34, 0, msg, sizeof msg), 0);
    EXPECT_LT(vq_ssim_check_bpc(9, msg, sizeof msg), 0);
    EXPECT_EQ(vq_ssim_check_bpc(12, msg, sizeof msg), 0);
}

TEST(SsimGeometry, SymmetricBorder)
{
    EXPECT_EQ(vq_ssim_reflect(-1, 10), 0);
    EXPECT_EQ(vq_ssim_reflect(-4, 10), 3);
    EXPECT_EQ(vq_ssim_reflect(10, 10), 9);
    EXPECT_EQ(vq_ssim_reflect(13, 10), 6);
    EXPECT_EQ(vq_ssim_reflect(5, 10), 5);
}

/* The constants, as float arithmetic gives them. */
TEST(SsimTerms, ConstantsAndIdenticalFlatInput)
{
    const float k1l = 0.01f * 255.0f, k2l = 0.03f * 255.0f;
    EXPECT_EQ(vq_ssim_c1(), k1l * k1l);
    EXPECT_EQ(vq_ssim_c2(), k2l * k2l);
    EXPECT_EQ(vq_ssim_c3(), k2l * k2l / 2.0f);
    /* identical flat windows: c = s = 1 (the clamp of sigma_both); l is
     * near 1 only (a double numerator over a float denominator) */
    const VqSsimTerms t = vq_ssim_terms(100.0f, 100.0f, 10000.0f, 10000.0f, 9999.99f);
    EXPECT_NEAR(t.l, 1.0, 1e-7);
    EXPECT_NE(t.l, 1.0);
    EXPECT_EQ(t.c, 1.0);
    EXPECT_EQ(t.s, 1.0);
    EXPECT_EQ(t.ssim, t.l);
}

/* ---- exact emulation of a sequential double sum ---------------------------- */

double seq_sum(const std::vector<double> &t)
{
    double s = 0.0;
    for (double x : t)
        s += x;
    return s;
}

/*
 * What cuda_ssim.cu does, on the host.  Summaries, each for the key of an
 * approximate running sum (added in another order, then spoiled by
 * approx_err): per row, and per VQ_SEQ_SEG-term segment of a row.  The
 * composition takes up to 32 summaries at once, the way the GPU's warp
 * does: every one checked against the integer the ones before it would
 * give, the first that fails handled alone (a row: by its segments, a
 * segment: term by term).  Counts the rows and segments not taken whole.
 */
struct Lanes {
    /* S after items[0 .. count) in batches of 32; fail(i, s) handles item i */
    template <class Fail>
    static void compose(double &s, const VqSeqRow *items, int count, Fail fail)
    {
        for (int i0 = 0; i0 < count;) {
            const int64_t key = vq_seq_key(s);
            const int64_t m = key == VQ_SEQ_UNUSABLE ? 0 : vq_seq_mantissa(s);
            int64_t excl = 0;
            int f = 0;   /* the first lane that fails, as __ballot_sync + __ffs give it */
            for (; f < 32 && i0 + f < count; f++) {
                const VqSeqRow &r = items[i0 + f];
                const bool ok = key != VQ_SEQ_UNUSABLE && r.key == key &&
                                m + excl + r.lo >= VQ_SEQ_M_LO && m + excl + r.hi <= VQ_SEQ_M_HI;
                if (!ok)
                    break;
                excl += r.d;
            }
            if (f > 0)
                s = vq_seq_with_mantissa(s, m + excl);
            if (i0 + f >= count)
                break;
            if (f < 32) {
                fail(i0 + f, s);
                i0 += f + 1;
            } else {
                i0 += 32;
            }
        }
    }
};

double emulated_sum(const std::vector<double> &t, int n, double approx_err, int *slow_rows,
                    int *slow_segs)
{
    const int rows = (int)(t.size() / n), nseg = (n + VQ_SEQ_SEG - 1) / VQ_SEQ_SEG;
    std::vector<VqSeqRow> row_sum(rows), seg_sum((size_t)rows * nseg);
    double approx = 0.0;
    for (int r = 0; r < rows; r++) {
        const double *p = &t[(size_t)r * n];
        row_sum[r] = vq_seq_summary(p, n, vq_seq_key(approx * (1.0 + approx_err)));
        for (int g = 0; g < nseg; g++) {
            const int k0 = g * VQ_SEQ_SEG, m = std::min(VQ_SEQ_SEG, n - k0);
            seg_sum[(size_t)r * nseg + g] =
                vq_seq_summary(p + k0, m, vq_seq_key(approx * (1.0 + approx_err)));
            for (int k = k0 + m - 1; k >= k0; k--)   /* another order than the reference's */
                approx += p[k];
        }
    }
    double s = 0.0;
    *slow_rows = *slow_segs = 0;
    Lanes::compose(s, row_sum.data(), rows, [&](int r, double &s1) {
        ++*slow_rows;
        Lanes::compose(s1, &seg_sum[(size_t)r * nseg], nseg, [&](int g, double &s2) {
            ++*slow_segs;
            const int k0 = g * VQ_SEQ_SEG, m = std::min(VQ_SEQ_SEG, n - k0);
            for (int k = 0; k < m; k++)
                s2 += t[(size_t)r * n + k0 + k];
        });
    });
    return s;
}

TEST(SsimSeqSum, TermUnitsRoundToNearestEvenAndFlagTies)
{
    const int64_t key = VQ_SEQ_KEY(10, 0);   /* |S| in [1024, 2048): u = 2^-42 */
    const double u = std::ldexp(1.0, -42);
    int64_t d;
    EXPECT_EQ(vq_seq_term_units(3 * u, key, &d), 0);
    EXPECT_EQ(d, 3);
    EXPECT_EQ(vq_seq_term_units(2.5 * u, key, &d), 1);   /* a tie */
    EXPECT_EQ(vq_seq_term_units(2.75 * u, key, &d), 0);
    EXPECT_EQ(d, 3);
    EXPECT_EQ(vq_seq_term_units(-2.25 * u, key, &d), 0);
    EXPECT_EQ(d, -2);
    EXPECT_EQ(vq_seq_term_units(2.25 * u, VQ_SEQ_KEY(10, 1), &d), 0);   /* negative sum */
    EXPECT_EQ(d, -2);
    EXPECT_EQ(vq_seq_term_units(64.0, key, &d), 1);    /* >= 2^48 u */
    EXPECT_EQ(vq_seq_term_units(NAN, key, &d), 1);
    EXPECT_EQ(vq_seq_term_units(INFINITY, key, &d), 1);
    EXPECT_EQ(vq_seq_key(0.0), VQ_SEQ_UNUSABLE);
    EXPECT_EQ(vq_seq_key(1500.0), VQ_SEQ_KEY(10, 0));
    EXPECT_EQ(vq_seq_key(-1500.0), VQ_SEQ_KEY(10, 1));
    EXPECT_EQ(vq_seq_key(0.75), VQ_SEQ_KEY(-1, 0));
    EXPECT_NE(vq_seq_key(0.75), VQ_SEQ_UNUSABLE);
    EXPECT_EQ(vq_seq_key(1e-300), VQ_SEQ_UNUSABLE);   /* e < -900 */
    int64_t d1;
    EXPECT_EQ(vq_seq_term_units(std::ldexp(3.0, -52), VQ_SEQ_KEY(-1, 0), &d1), 0);   /* u = 2^-53 */
    EXPECT_EQ(d1, 6);
}

/* rows of SSIM-like terms: c (doubles near 1), s (float values, some
 * negative), with the approximate prefix right, a little off, or wrong */
TEST(SsimSeqSum, EmulationEqualsTermByTermSum)
{
    std::mt19937_64 rng(20240611);
    std::uniform_real_distribution<double> U(0.0, 1.0);
    struct Case { int n, rows; int kind; double err; };
    const Case cases[] = {
        { 1910, 200, 0, 0.0 }, { 1910, 200, 1, 0.0 }, { 470, 260, 0, 1e-9 },
        { 110, 58, 2, 0.0 },   { 26, 24, 0, 0.3 },    { 300, 300, 3, 0.0 },
        { 33, 500, 4, 0.0 },   { 1000, 40, 1, -0.7 }, { 700, 90, 5, 0.0 },
    };
    for (const Case &cs : cases) {
        std::vector<double> t((size_t)cs.n * cs.rows);
        for (size_t i = 0; i < t.size(); i++) {
            switch (cs.kind) {
            case 0: t[i] = 0.9 + 0.1 * U(rng); break;                   /* c-like */
            case 1: t[i] = (double)(float)(1.2 * U(rng) - 0.2); break;  /* s-like */
            case 2: t[i] = (double)(float)(2.0 * U(rng) - 1.0); break;  /* wandering sign */
            case 3: t[i] = (double)(float)(U(rng) < 0.5 ? 1.0 : 0.5 + std::ldexp(1.0, -24)); break;
            case 5: t[i] = -(0.9 + 0.1 * U(rng)); break;                /* a negative sum */
            default: t[i] = 1.0 + std::ldexp(1.0 + 2 * std::floor(U(rng) * 4), -(40 + (int)(rng() % 12)));
                break;   /* ties in every binade the sum passes */
            }
        }
        int slow_rows, slow_segs;
        const double want = seq_sum(t);
        const double got = emulated_sum(t, cs.n, cs.err, &slow_rows, &slow_segs);
        EXPECT_EQ(got, want) << "kind " << cs.kind << " n " << cs.n;
        printf("  kind %d, %d x %d, prediction error %g: %d rows not whole, %d segments term "
               "by term\n", cs.kind, cs.n, cs.rows, cs.err, slow_rows, slow_segs);
    }
}

/* ---- the executor against the plain composition of ssim.h ----------------- */

/* The per-pixel terms of one image pair (w x h), each output by the
 * functions of ssim.h one at a time, in the reference's structure. */
struct Terms {
    int n = 0, rows = 0;
    std::vector<double> v[4];   /* l*c*s, l, c, s */
};

Terms naive_terms(const std::vector<float> &ref, const std::vector<float> &cmp, int w, int h)
{
    const int R = VQ_SSIM_WIN_R, dw = w - 2 * R, dh = h - 2 * R;
    std::vector<float> in[5] = { ref, cmp, ref, ref, ref };
    for (size_t i = 0; i < ref.size(); i++) {
        in[2][i] = ref[i] * ref[i];
        in[3][i] = cmp[i] * cmp[i];
        in[4][i] = ref[i] * cmp[i];
    }
    std::vector<float> hp[5], mom[5];
    for (int p = 0; p < 5; p++) {
        hp[p].resize((size_t)dw * h);
        mom[p].resize((size_t)dw * dh);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < dw; x++)
                hp[p][(size_t)y * dw + x] = vq_ssim_gauss_pass(&in[p][(size_t)y * w + x], 1);
        for (int y = 0; y < dh; y++)
            for (int x = 0; x < dw; x++)
                mom[p][(size_t)y * dw + x] = vq_ssim_gauss_pass(&hp[p][(size_t)y * dw + x], dw);
    }
    Terms t;
    t.n = dw;
    t.rows = dh;
    for (auto &v : t.v)
        v.resize((size_t)dw * dh);
    for (size_t i = 0; i < (size_t)dw * dh; i++) {
        const VqSsimTerms s = vq_ssim_terms(mom[0][i], mom[1][i], mom[2][i], mom[3][i], mom[4][i]);
        t.v[0][i] = s.ssim;
        t.v[1][i] = s.l;
        t.v[2][i] = s.c;
        t.v[3][i] = s.s;
    }
    return t;
}

/* Every scale's terms, decimating with vq_ssim_box_pixel / vq_ms_ssim_lpf_pixel:
 * [0] float_ssim's image, [1 + i] float_ms_ssim's scale i. */
std::vector<Terms> naive_all(const VqSsimGeom &g, const VqPlaneView &vr, const VqPlaneView &vd)
{
    const float sc = vq_ssim_sample_scale(g.bpc);
    std::vector<float> r((size_t)g.w * g.h), d(r.size());
    for (int i = 0; i < g.h; i++)
        for (int j = 0; j < g.w; j++) {
            r[(size_t)i * g.w + j] = vq_ssim_sample(vr, i, j, sc);
            d[(size_t)i * g.w + j] = vq_ssim_sample(vd, i, j, sc);
        }
    std::vector<Terms> out;
    if (g.features & VQ_SSIM_F_SSIM) {
        std::vector<float> br = r, bd = d;
        if (g.scale > 1) {
            br.assign((size_t)g.sw * g.sh, 0.0f);
            bd.assign(br.size(), 0.0f);
            for (int y = 0; y < g.sh; y++)
                for (int x = 0; x < g.sw; x++) {
                    br[(size_t)y * g.sw + x] = vq_ssim_box_pixel(r.data(), g.w, g.h, x, y, g.scale);
                    bd[(size_t)y * g.sw + x] = vq_ssim_box_pixel(d.data(), g.w, g.h, x, y, g.scale);
                }
        }
        out.push_back(naive_terms(br, bd, g.sw, g.sh));
    } else {
        out.emplace_back();
    }
    if (g.features & VQ_SSIM_F_MS_SSIM) {
        std::vector<float> cr = r, cd = d;
        for (int i = 0; i < VQ_MS_SSIM_SCALES; i++) {
            if (i) {
                std::vector<float> nr((size_t)g.msw[i] * g.msh[i]), nd(nr.size());
                for (int y = 0; y < g.msh[i]; y++)
                    for (int x = 0; x < g.msw[i]; x++) {
                        nr[(size_t)y * g.msw[i] + x] =
                            vq_ms_ssim_lpf_pixel(cr.data(), g.msw[i - 1], g.msh[i - 1], x, y);
                        nd[(size_t)y * g.msw[i] + x] =
                            vq_ms_ssim_lpf_pixel(cd.data(), g.msw[i - 1], g.msh[i - 1], x, y);
                    }
                cr.swap(nr);
                cd.swap(nd);
            }
            out.push_back(naive_terms(cr, cd, g.msw[i], g.msh[i]));
        }
    }
    return out;
}

double word_value(const int64_t *words, int k)
{
    double v;
    memcpy(&v, &words[k], sizeof(v));
    return v;
}

/* random frames: smooth content with edges, the distorted one noisy */
void random_pair(std::mt19937 &rng, int w, int h, int bpc, std::vector<uint16_t> &a,
                 std::vector<uint16_t> &b)
{
    const int maxv = (1 << bpc) - 1;
    a.resize((size_t)w * h);
    b.resize(a.size());
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int v = ((i * 3 + j * 5) * (maxv + 1) / 1024 + ((i / 16 + j / 16) % 2) * maxv / 3 +
                     (int)(rng() % 16)) % (maxv + 1);
            int e = v + (int)(rng() % 33) - 16;
            if ((i / 40 + j / 50) % 5 == 0)
                v = e = maxv / 2;      /* identical flat patches */
            a[(size_t)i * w + j] = (uint16_t)v;
            b[(size_t)i * w + j] = (uint16_t)(e < 0 ? 0 : e > maxv ? maxv : e);
        }
}

/* random_pair's frames and their luma views (8-bit: one byte a sample) */
struct RandomFrames {
    std::vector<uint16_t> a, b;
    std::vector<uint8_t> a8, b8;
    VqPlaneView vr, vd;
    RandomFrames(std::mt19937 &rng, int w, int h, int bpc)
    {
        random_pair(rng, w, h, bpc, a, b);
        a8.assign(a.begin(), a.end());
        b8.assign(b.begin(), b.end());
        const bool narrow = bpc == 8;
        vr = { narrow ? a8.data() : (const uint8_t *)a.data(), (ptrdiff_t)w * (narrow ? 1 : 2), w, h,
               narrow ? 1 : 2, 0, 1 };
        vd = vr;
        vd.data = narrow ? b8.data() : (const uint8_t *)b.data();
    }
    RandomFrames(const RandomFrames &) = delete;
};

TEST(SsimCpu, EqualsThePlainCompositionOfTheKernels)
{
    std::mt19937 rng(7);
    struct Case { int w, h, bpc, scale; };
    const Case cases[] = { { 176, 176, 8, 0 }, { 177, 181, 10, 0 }, { 390, 385, 12, 0 },
                           { 203, 240, 16, 3 }, { 250, 190, 8, 10 }, { 36, 34, 8, 0 },
                           { 11, 11, 8, 1 },   { 401, 777, 10, 0 } };
    for (const Case &cs : cases) {
        const RandomFrames f(rng, cs.w, cs.h, cs.bpc);
        const VqPlaneView &vr = f.vr, &vd = f.vd;
        const int features =
            VQ_SSIM_F_SSIM | (vq_ms_ssim_check_size(cs.w, cs.h, nullptr, 0) == 0 ? VQ_SSIM_F_MS_SSIM : 0);
        VqSsimGeom g;
        ASSERT_EQ(vq_ssim_geom_init(&g, cs.w, cs.h, cs.bpc, features, cs.scale), 0) << cs.w;
        VqSsimCpu *c = vq_ssim_cpu_alloc(&g);
        ASSERT_NE(c, nullptr);
        int64_t words[VQ_SSIM_NWORDS];
        for (auto &x : words)
            x = 0x7ead7ead7ead7eadLL;
        ASSERT_EQ(vq_ssim_cpu_run(c, vr, vd, words), 0);
        vq_ssim_cpu_free(c);

        const std::vector<Terms> t = naive_all(g, vr, vd);
        if (features & VQ_SSIM_F_SSIM) {
            for (int k = 0; k < 4; k++)
                EXPECT_EQ(word_value(words, VQ_SSIM_SUM_SSIM + k), seq_sum(t[0].v[k]))
                    << cs.w << "x" << cs.h << " float_ssim sum " << k;
        }
        for (int i = 0; (features & VQ_SSIM_F_MS_SSIM) && i < VQ_MS_SSIM_SCALES; i++)
            for (int k = 0; k < 3; k++)
                EXPECT_EQ(word_value(words, VQ_MS_SSIM_SUM0 + 3 * i + k), seq_sum(t[1 + i].v[1 + k]))
                    << cs.w << "x" << cs.h << " scale " << i << " sum " << k;
        if (!(features & VQ_SSIM_F_MS_SSIM)) {
            for (int k = VQ_MS_SSIM_SUM0; k < VQ_SSIM_NWORDS; k++)
                EXPECT_EQ(words[k], 0x7ead7ead7ead7eadLL) << "word " << k << " written";
        }
    }
}

/* random band boundaries over [0, n): nb bands (some may be empty) */
std::vector<std::pair<int, int>> random_bands(std::mt19937 &rng, int n, int nb)
{
    std::vector<int> cut = { 0, n };
    for (int k = 1; k < nb; k++)
        cut.push_back((int)(rng() % (unsigned)(n + 1)));
    std::sort(cut.begin(), cut.end());
    std::vector<std::pair<int, int>> b;
    for (size_t k = 0; k + 1 < cut.size(); k++)
        b.emplace_back(cut[k], cut[k + 1]);
    return b;
}

/*
 * The banded runs (cpu_exec.cpp's items at n_threads > 1) against the
 * whole-frame run: every word bit for bit, on random frames of every kind
 * of size, each feature alone and both, random bands run by 3 threads at
 * once, steps in the order ssim_exec.h gives.
 */
TEST(SsimCpu, BandsEqualTheWholeFrameRun)
{
    std::mt19937 rng(11);
    struct Case { int w, h, bpc, scale; };
    const Case cases[] = { { 176, 176, 8, 0 }, { 177, 181, 10, 0 }, { 390, 385, 12, 0 },
                           { 203, 240, 16, 3 }, { 250, 190, 8, 10 }, { 36, 34, 8, 0 },
                           { 11, 11, 8, 1 },   { 401, 777, 10, 0 }, { 640, 360, 8, 0 } };
    const int kWorkers = 3;
    for (const Case &cs : cases)
        for (int features = 1; features <= 3; features++) {
            if ((features & VQ_SSIM_F_MS_SSIM) && vq_ms_ssim_check_size(cs.w, cs.h, nullptr, 0) < 0)
                continue;
            VqSsimGeom g;
            if (vq_ssim_geom_init(&g, cs.w, cs.h, cs.bpc, features, cs.scale) < 0) {
                EXPECT_EQ(features & VQ_SSIM_F_SSIM, VQ_SSIM_F_SSIM) << cs.w;   /* float_ssim's minimum */
                continue;
            }
            const RandomFrames f(rng, cs.w, cs.h, cs.bpc);

            int64_t whole[VQ_SSIM_NWORDS], banded[VQ_SSIM_NWORDS];
            for (int k = 0; k < VQ_SSIM_NWORDS; k++)
                whole[k] = banded[k] = 0x7ead7ead7ead7eadLL;
            VqSsimCpu *c1 = vq_ssim_cpu_alloc(&g);
            ASSERT_NE(c1, nullptr);
            ASSERT_EQ(vq_ssim_cpu_run(c1, f.vr, f.vd, whole), 0);
            vq_ssim_cpu_free(c1);

            VqSsimCpu *c = vq_ssim_cpu_alloc(&g);
            ASSERT_NE(c, nullptr);
            ASSERT_EQ(vq_ssim_cpu_bands(c, kWorkers), 0);
            /* the stages in their steps, each in random bands */
            VqSsimStage st[VQ_SSIM_MAX_STAGES];
            const int nst = vq_ssim_cpu_stages(&g, st);
            struct It { int stage, a, b; };
            std::vector<It> steps[8];
            for (int k = 0; k < nst; k++) {
                ASSERT_LT(st[k].step, 8);
                if (st[k].op == VQ_SSIM_OP_SUM)
                    steps[st[k].step].push_back(It{ k, 0, 0 });
                else
                    for (auto &r : random_bands(rng, st[k].rows, 1 + (int)(rng() % 6)))
                        steps[st[k].step].push_back(It{ k, r.first, r.second });
            }
            std::atomic<int> bad{ 0 };
            for (auto &v : steps) {
                std::atomic<size_t> next{ 0 };
                std::vector<std::thread> th;
                for (int t = 0; t < kWorkers; t++)
                    th.emplace_back([&] {
                        for (size_t k; (k = next++) < v.size();)
                            if (vq_ssim_cpu_stage_run(c, &st[v[k].stage], f.vr, f.vd, v[k].a, v[k].b, banded) < 0)
                                bad++;
                    });
                for (auto &t : th)
                    t.join();
            }
            vq_ssim_cpu_free(c);
            EXPECT_EQ(bad.load(), 0);
            for (int k = 0; k < VQ_SSIM_NWORDS; k++)
                EXPECT_EQ(banded[k], whole[k]) << cs.w << "x" << cs.h << " features " << features
                                               << " word " << k;
        }
}

/* The GPU's emulation on real terms (dog1080 frame 0, if at hand): equal,
 * and how often it must add term by term. */
TEST(SsimSeqSum, EmulationOnRealTerms)
{
    const char *raw_dir = getenv("VQ_RAW_DIR");
    const vq_test::ClipRow &c = vq_test::clip("dog1080");
    FILE *fr = raw_dir ? fopen((std::string(raw_dir) + "/" + c.ref + ".yuv").c_str(), "rb") : nullptr;
    FILE *fd = raw_dir ? fopen((std::string(raw_dir) + "/" + c.dis + ".yuv").c_str(), "rb") : nullptr;
    if (!fr || !fd) {
        if (fr) fclose(fr);
        if (fd) fclose(fd);
        GTEST_SKIP() << "no dog1080 raw clips";
    }
    const int w = c.w, h = c.h;
    std::vector<uint8_t> a((size_t)w * h), b(a.size());
    ASSERT_EQ(fread(a.data(), 1, a.size(), fr), a.size());
    ASSERT_EQ(fread(b.data(), 1, b.size(), fd), b.size());
    fclose(fr);
    fclose(fd);
    const VqPlaneView vr = { a.data(), w, w, h, 1, 0, 1 }, vd = { b.data(), w, w, h, 1, 0, 1 };
    VqSsimGeom g;
    ASSERT_EQ(vq_ssim_geom_init(&g, w, h, 8, VQ_SSIM_F_SSIM | VQ_SSIM_F_MS_SSIM, 0), 0);
    const std::vector<Terms> t = naive_all(g, vr, vd);
    const char *names[4] = { "lcs", "l", "c", "s" };
    for (size_t i = 0; i < t.size(); i++)
        for (int k = i ? 1 : 0; k < 4; k++) {
            int rows, segs;
            EXPECT_EQ(emulated_sum(t[i].v[k], t[i].n, 0.0, &rows, &segs), seq_sum(t[i].v[k]));
            printf("  %s %s (%d x %d): %d of %d rows not whole, %d segments term by term\n",
                   i ? "ms scale" : "float_ssim", names[k], t[i].n, t[i].rows, rows, t[i].rows,
                   segs);
        }
}

/* ---- enable_lcs: the outputs, their names and order ------------------------ */

/* the VqSsimScores field a libvmaf output name holds */
double scores_field(const VqSsimScores &s, const std::string &name)
{
    if (name == "float_ssim") return s.float_ssim;
    if (name == "float_ssim_l") return s.ssim_l;
    if (name == "float_ssim_c") return s.ssim_c;
    if (name == "float_ssim_s") return s.ssim_s;
    if (name == "float_ms_ssim") return s.float_ms_ssim;
    static const std::regex ms("float_ms_ssim_([lcs])_scale([0-4])");
    std::smatch m;
    if (!std::regex_match(name, m, ms))
        return NAN;
    const int i = m[2].str()[0] - '0';
    const char q = m[1].str()[0];
    return q == 'l' ? s.ms_l[i] : q == 'c' ? s.ms_c[i] : s.ms_s[i];
}

/* distinct values in every field */
VqSsimScores numbered_scores()
{
    VqSsimScores s;
    s.float_ssim = 1;
    s.ssim_l = 2;
    s.ssim_c = 3;
    s.ssim_s = 4;
    s.float_ms_ssim = 5;
    for (int i = 0; i < VQ_MS_SSIM_SCALES; i++) {
        s.ms_l[i] = 10 + i;
        s.ms_c[i] = 20 + i;
        s.ms_s[i] = 30 + i;
    }
    return s;
}

/* The registry's names (outputs, then the enable_lcs outputs) are the
 * columns of the reference's log in its order, and vq_ssim_outputs puts
 * each field where its name is. */
TEST(SsimLcs, OutputsInTheReferencesOrder)
{
    const char *golden_dir = getenv("VQ_GOLDEN_DIR");
    vq_test::GoldenLog g;
    std::string gerr;
    const vq_test::GoldenStatus st =
        golden_dir ? vq_test::load_golden(std::string(golden_dir) + "/dog1080.opt_lcs.json", &g, &gerr)
                   : vq_test::GoldenStatus::Missing;
    if (st == vq_test::GoldenStatus::Missing)
        GTEST_SKIP() << "no dog1080.opt_lcs.json";
    ASSERT_TRUE(st == vq_test::GoldenStatus::Ok) << gerr;
    std::vector<std::string> seen[2];   /* float_ssim*, float_ms_ssim*: the log's order */
    for (const std::string &k : g.frames.at(0).names) {
        if (k.rfind("float_ms_ssim", 0) == 0)
            seen[1].push_back(k);
        else if (k.rfind("float_ssim", 0) == 0)
            seen[0].push_back(k);
    }
    ASSERT_EQ(seen[0].size(), 4u);
    ASSERT_EQ(seen[1].size(), 16u);
    const VqSsimScores sc = numbered_scores();
    const VqSsimOptions on = { 1, 0, 0 }, off = { 0, 0, 0 };
    for (int ms = 0; ms < 2; ms++) {
        const vq::FeatureSpec *spec = vq::find_extractor(ms ? "float_ms_ssim" : "float_ssim");
        ASSERT_NE(spec, nullptr);
        EXPECT_STREQ(spec->debug_option, "enable_lcs");
        std::vector<std::string> names(spec->outputs.begin(), spec->outputs.end());
        names.insert(names.end(), spec->debug_outputs.begin(), spec->debug_outputs.end());
        EXPECT_EQ(names, seen[ms]);
        double v[1 + 3 * VQ_MS_SSIM_SCALES];
        ASSERT_EQ(vq_ssim_outputs(&sc, ms, &on, v), (int)seen[ms].size());
        for (size_t k = 0; k < seen[ms].size(); k++)
            EXPECT_EQ(v[k], scores_field(sc, seen[ms][k])) << seen[ms][k];
        ASSERT_EQ(vq_ssim_outputs(&sc, ms, &off, v), 1);
        EXPECT_EQ(v[0], ms ? sc.float_ms_ssim : sc.float_ssim);
        ASSERT_EQ(vq_ssim_outputs(&sc, ms, nullptr, v), 1);
    }
}

/* enable_lcs is implemented (not refused) and names nothing (not a
 * FEATURE_PARAM: the names stay libvmaf's) */
TEST(SsimLcs, OptionAcceptedNamesUnchanged)
{
    for (const char *ex : { "float_ssim", "float_ms_ssim" }) {
        const vq::FeatureSpec *spec = vq::find_extractor(ex);
        ASSERT_NE(spec, nullptr);
        vq::FeatureOptions o(*spec);
        o.set("enable_lcs", "true");
        EXPECT_EQ(o.get("enable_lcs"), 1.0);
        EXPECT_NO_THROW(o.check_implemented()) << ex;
        EXPECT_EQ(o.suffix(), "") << ex;
        EXPECT_EQ(o.printed_name(spec->debug_outputs[0]), spec->debug_outputs[0]);
    }
}

/* enable_db / clip_db change the score only: the means are the same
 * floats (float_ssim.c and float_ms_ssim.c convert `score` alone) */
TEST(SsimLcs, DbLeavesTheMeansAlone)
{
    std::mt19937 rng(29);
    const RandomFrames f(rng, 260, 200, 8);
    VqSsimGeom g;
    ASSERT_EQ(vq_ssim_geom_init(&g, 260, 200, 8, VQ_SSIM_F_SSIM | VQ_SSIM_F_MS_SSIM, 0), 0);
    VqSsimCpu *c = vq_ssim_cpu_alloc(&g);
    ASSERT_NE(c, nullptr);
    int64_t words[VQ_SSIM_NWORDS];
    ASSERT_EQ(vq_ssim_cpu_run(c, f.vr, f.vd, words), 0);
    vq_ssim_cpu_free(c);
    const VqSsimOptions plain = { 1, 0, 0 }, db = { 1, 1, 1 };
    VqSsimScores a, b;
    ASSERT_EQ(vq_ssim_fold(&g, words, &plain, &plain, &a, nullptr, 0), 0);
    ASSERT_EQ(vq_ssim_fold(&g, words, &db, &db, &b, nullptr, 0), 0);
    EXPECT_NE(a.float_ssim, b.float_ssim);
    EXPECT_NE(a.float_ms_ssim, b.float_ms_ssim);
    for (int ms = 0; ms < 2; ms++) {
        double va[1 + 3 * VQ_MS_SSIM_SCALES], vb[1 + 3 * VQ_MS_SSIM_SCALES];
        const int n = vq_ssim_outputs(&a, ms, &plain, va);
        ASSERT_EQ(vq_ssim_outputs(&b, ms, &db, vb), n);
        for (int k = 1; k < n; k++) {
            EXPECT_EQ(va[k], vb[k]) << ms << " " << k;
            EXPECT_EQ(va[k], (double)(float)va[k]) << "a float mean";
            EXPECT_GT(va[k], 0.0);
        }
    }
    /* the means are those of the sums: float_ssim_l = (float)(l_sum / (w' h')) */
    const int n0 = (g.sw - 10) * (g.sh - 10);
    EXPECT_EQ(a.ssim_l, (double)(float)(word_value(words, VQ_SSIM_SUM_SSIM + 1) / (double)n0));
    EXPECT_EQ(a.ssim_s, (double)(float)(word_value(words, VQ_SSIM_SUM_SSIM + 3) / (double)n0));
    const int n4 = (g.msw[4] - 10) * (g.msh[4] - 10);
    EXPECT_EQ(a.ms_c[4], (double)(float)(word_value(words, VQ_MS_SSIM_SUM0 + 12 + 1) / (double)n4));
}

/* ---- golden ------------------------------------------------------------- */

/* CPU time of this thread: the machine may be shared */
double thread_seconds()
{
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

struct GoldenPair {
    const char *pair;        /* <pair>.features.json in VQ_GOLDEN_DIR */
    const char *ref, *dis;   /* clips in VQ_RAW_DIR */
    int w, h, bpc;
    int cw, ch;              /* chroma plane size: only to step over frames */
};

/* the pair's clips and geometry, from tests/data/clips.tsv */
GoldenPair golden_pair(const char *pair)
{
    const vq_test::ClipRow &c = vq_test::clip(pair);
    return { c.name.c_str(), c.ref.c_str(), c.dis.c_str(), c.w, c.h, c.bpc, c.cw(), c.ch() };
}

std::string pair_name(const ::testing::TestParamInfo<GoldenPair> &info)
{
    std::string n = info.param.pair;
    for (char &c : n)
        if (!isalnum((unsigned char)c))
            c = '_';
    return n;
}

class SsimGolden : public ::testing::TestWithParam<GoldenPair> {};

TEST_P(SsimGolden, CpuScoresEqualReference)
{
    const GoldenPair &p = GetParam();
    const char *raw_dir = getenv("VQ_RAW_DIR"), *golden_dir = getenv("VQ_GOLDEN_DIR");
    if (!raw_dir || !golden_dir)
        GTEST_SKIP() << "VQ_RAW_DIR / VQ_GOLDEN_DIR not set";
    vq_test::GoldenLog golden, lcs_golden;
    std::string gerr;
    const vq_test::GoldenStatus st =
        vq_test::load_golden(std::string(golden_dir) + "/" + p.pair + ".features.json", &golden, &gerr);
    FILE *fr = fopen((std::string(raw_dir) + "/" + p.ref + ".yuv").c_str(), "rb");
    FILE *fd = fopen((std::string(raw_dir) + "/" + p.dis + ".yuv").c_str(), "rb");
    if (st == vq_test::GoldenStatus::Missing || !fr || !fd) {
        if (fr) fclose(fr);
        if (fd) fclose(fd);
        GTEST_SKIP() << p.pair << " or its raw clips are missing";
    }
    ASSERT_TRUE(st == vq_test::GoldenStatus::Ok) << gerr;
    const bool ms_refused = golden.refuses("float_ms_ssim");

    /* enable_lcs: the reference's run with both extractors' lcs outputs, or its refusal */
    const vq_test::GoldenStatus lcs_st =
        vq_test::load_golden(std::string(golden_dir) + "/" + p.pair + ".opt_lcs.json", &lcs_golden, &gerr);
    ASSERT_FALSE(lcs_st == vq_test::GoldenStatus::Missing) << p.pair << ".opt_lcs.json is missing";
    ASSERT_TRUE(lcs_st == vq_test::GoldenStatus::Ok) << gerr;
    const bool lcs_refused = lcs_golden.has_str("refused_by_reference");
    if (lcs_refused) {   /* the whole run fails: float_ms_ssim's extract (its size) */
        EXPECT_NE(lcs_golden.str("refused_by_reference").find("\"float_ms_ssim\""),
                  std::string::npos);
    }
    EXPECT_EQ(lcs_refused, ms_refused) << p.pair;
    const VqSsimOptions lcs = { 1, 0, 0 };
    const vq::FeatureSpec *spec[2] = { vq::find_extractor("float_ssim"), vq::find_extractor("float_ms_ssim") };
    ASSERT_TRUE(spec[0] && spec[1]);

    /* the refusal: ours exactly where the reference's */
    char msg[256] = "";
    EXPECT_EQ(vq_ms_ssim_check_size(p.w, p.h, msg, sizeof msg) < 0, ms_refused) << msg;
    ASSERT_EQ(vq_ssim_check_size(p.w, p.h, 0, msg, sizeof msg), 0) << msg;
    const int features = VQ_SSIM_F_SSIM | (ms_refused ? 0 : VQ_SSIM_F_MS_SSIM);

    VqSsimGeom g;
    ASSERT_EQ(vq_ssim_geom_init(&g, p.w, p.h, p.bpc, features, 0), 0);
    VqSsimCpu *c = vq_ssim_cpu_alloc(&g);
    ASSERT_NE(c, nullptr);

    const int bytes = p.bpc > 8 ? 2 : 1;
    const size_t luma = (size_t)p.w * p.h * bytes;
    const size_t frame = luma + 2 * (size_t)p.cw * p.ch * bytes;
    std::vector<uint8_t> ref(luma), dis(luma);
    const std::vector<vq_test::GoldenMetrics> &frames = golden.frames;
    if (!lcs_refused) {
        ASSERT_EQ(lcs_golden.frames.size(), frames.size()) << p.pair;
    }
    int nf = 0, exact_ssim = 0, exact_ms = 0, n_lcs = 0, exact_lcs = 0;
    double secs = 0;
    for (size_t f = 0; f < frames.size(); f++) {
        ASSERT_EQ(fseek(fr, (long)(f * frame), SEEK_SET), 0);
        ASSERT_EQ(fseek(fd, (long)(f * frame), SEEK_SET), 0);
        ASSERT_EQ(fread(ref.data(), 1, luma, fr), luma);
        ASSERT_EQ(fread(dis.data(), 1, luma, fd), luma);
        const VqPlaneView vr = { ref.data(), (ptrdiff_t)p.w * bytes, p.w, p.h, bytes, 0, 1 };
        const VqPlaneView vd = { dis.data(), (ptrdiff_t)p.w * bytes, p.w, p.h, bytes, 0, 1 };
        int64_t words[VQ_SSIM_NWORDS];
        const double t0 = thread_seconds();
        ASSERT_EQ(vq_ssim_cpu_run(c, vr, vd, words), 0);
        secs += thread_seconds() - t0;
        VqSsimScores s;
        ASSERT_EQ(vq_ssim_fold(&g, words, nullptr, nullptr, &s, msg, sizeof msg), 0) << msg;
        const vq_test::GoldenMetrics &m = frames[f];
        nf++;
        const double want_ssim = m.at("float_ssim");
        EXPECT_EQ(s.float_ssim, want_ssim) << p.pair << " frame " << f;
        exact_ssim += s.float_ssim == want_ssim;
        if (!ms_refused) {
            const double want_ms = m.at("float_ms_ssim");
            EXPECT_EQ(s.float_ms_ssim, want_ms) << p.pair << " frame " << f;
            exact_ms += s.float_ms_ssim == want_ms;
        } else {
            EXPECT_FALSE(m.has("float_ms_ssim") && !m.is_null("float_ms_ssim"));
        }
        /* enable_lcs: every output of both extractors, by the registry's names */
        for (int ms = 0; ms < 2 && !lcs_refused; ms++) {
            const vq_test::GoldenMetrics &lm = lcs_golden.frames[f];
            double v[1 + 3 * VQ_MS_SSIM_SCALES];
            const int nv = vq_ssim_outputs(&s, ms, &lcs, v);
            ASSERT_EQ((size_t)nv, spec[ms]->outputs.size() + spec[ms]->debug_outputs.size());
            for (int k = 0; k < nv; k++) {
                const char *name = k ? spec[ms]->debug_outputs[(size_t)k - 1] : spec[ms]->outputs[0];
                ASSERT_TRUE(lm.has(name)) << p.pair << " frame " << f << " " << name;
                const double want = lm.at(name);
                EXPECT_EQ(v[k], want) << p.pair << " frame " << f << " " << name;
                n_lcs++;
                exact_lcs += v[k] == want;
            }
        }
    }
    printf("  %s: float_ssim %d/%d exact, float_ms_ssim %s%d/%d exact; enable_lcs: %s%d/%d values "
           "exact; CPU time %.1f ms/frame\n",
           p.pair, exact_ssim, nf, ms_refused ? "refused (as the reference), " : "",
           exact_ms, ms_refused ? 0 : nf, lcs_refused ? "refused (as the reference), " : "", exact_lcs,
           n_lcs, 1e3 * secs / nf);
    vq_ssim_cpu_free(c);
    fclose(fr);
    fclose(fd);
}

INSTANTIATE_TEST_SUITE_P(
    Pairs, SsimGolden,
    ::testing::Values(golden_pair("dog1080"), golden_pair("dog1080_self"), golden_pair("birds720"),
                      golden_pair("balle576"), golden_pair("dog1080p10"), golden_pair("dog1080p12"),
                      golden_pair("dog2160"), golden_pair("odd577x323"), golden_pair("small36x34"),
                      golden_pair("checker1080"), golden_pair("birds422p10")),
    pair_name);

} // namespace
