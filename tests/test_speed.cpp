/*
 * test_speed.cpp - speed_chroma (SpEED-QA on U and V, libvmaf v3.2.0) on the
 * CPU: the pieces (Gaussian taps, filter sizes, the eigen solver and the QR
 * solve on known matrices, the per-pixel helpers of kernels/speed.h), the
 * refusals, and every frame of every golden run (all VMAF v1.0.16 models,
 * with their options) equal to the reference's u, v, uv as doubles.
 *
 * Golden runs: tests/data/golden_parts/speed_chroma.json (made by
 * scripts/speed_golden_parts.py from shared/golden) and
 * speed_chroma_options.json (libvmaf's speed.c itself on other options,
 * docs/speed.md); raw frames from
 * $VQ_RAW_DIR/<clip>.yuv (planar, frames concatenated, 16-bit little-endian
 * above 8 bits); a run whose clips are missing is skipped.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "speed.h"
#include "speed_chroma.hpp"

namespace {

using namespace vq::speed;

Options v1_options()
{
    Options o;
    o.nn_floor = 0.1;
    o.sigma_nn = 0.19;
    o.weight_var_mode = 5;
    o.max_val = 45.0;
    return o;
}

/* ---- pieces -------------------------------------------------------------- */

TEST(SpeedPieces, FilterSizes)
{
    // vif_get_filter_size: 2^(4-scale)+1 times the kernelscale, up to odd,
    // at least 3
    EXPECT_EQ(filter_size(1, 1.0f), 9);
    EXPECT_EQ(filter_size(4, 1.0f), 3);
    EXPECT_EQ(filter_size(1, 0.5f), 5);
    EXPECT_EQ(filter_size(1, 2.0f), 19);
    EXPECT_EQ(filter_size(4, 2.0f), 5);
    EXPECT_EQ(filter_size(1, 360.0f / 97.0f), 35);
    EXPECT_EQ(filter_size(4, 0.5f), 3);
}

TEST(SpeedPieces, GaussianTaps)
{
    const std::vector<float> aa = antialias_taps(1.0f);
    ASSERT_EQ(aa.size(), 9u);
    const std::vector<float> lm = local_mean_taps(1.0f);
    ASSERT_EQ(lm.size(), 3u);
    for (const auto *t : { &aa, &lm }) {
        const size_t n = t->size();
        float sum = 0;
        for (size_t i = 0; i < n; i++) {
            EXPECT_EQ((*t)[i], (*t)[n - 1 - i]);   // symmetric, bit for bit
            sum += (*t)[i];
        }
        EXPECT_NEAR(sum, 1.0f, 1e-6f);
        for (size_t i = 0; i + 1 <= n / 2; i++)
            EXPECT_LT((*t)[i], (*t)[i + 1]);
    }
    // the anti-alias filter: sigma 2 * 9 / 5 = 3.6; the local mean: 3 / 5
    // = 0.6; the ratios of neighbouring taps are exp(-(2k+1) / (2 sigma^2))
    EXPECT_NEAR(aa[4] / aa[5], std::exp(1.0 / (2 * 3.6 * 3.6)), 1e-6);
    EXPECT_NEAR(lm[1] / lm[0], std::exp(1.0 / (2 * 0.6 * 0.6)), 1e-5);
    // a sanity bound on the float sum of the float taps (each a double exp
    // rounded to float); the taps' exact values are held by the golden runs
    const float sum_aa = aa[0] + aa[1] + aa[2] + aa[3] + aa[4] + aa[5] + aa[6] + aa[7] + aa[8];
    EXPECT_NEAR(sum_aa, 1.0f, 2e-7f);
}

TEST(SpeedPieces, Kernelscales)
{
    EXPECT_TRUE(kernelscale_valid(1.0f));
    EXPECT_TRUE(kernelscale_valid(1.5f));
    EXPECT_TRUE(kernelscale_valid(1.0005f));
    EXPECT_FALSE(kernelscale_valid(1.2f));
    EXPECT_FALSE(kernelscale_valid(4.0f));
    EXPECT_EQ(scale_method("nearest"), VQ_SPEED_NEAREST);
    EXPECT_EQ(scale_method("bilinear"), VQ_SPEED_BILINEAR);
    EXPECT_EQ(scale_method("bicubic"), VQ_SPEED_BICUBIC);
    EXPECT_EQ(scale_method("lanczos4"), VQ_SPEED_LANCZOS4);
    EXPECT_EQ(scale_method("area"), -1);
}

TEST(SpeedPieces, EigenvaluesKnown)
{
    // a diagonal matrix: its diagonal, exactly
    std::vector<float> a(25 * 25, 0.0f);
    for (int i = 0; i < 25; i++)
        a[i * 25 + i] = (float)(i + 1);
    std::vector<float> e = eigenvalues(a, 25);
    std::sort(e.begin(), e.end());
    for (int i = 0; i < 25; i++)
        EXPECT_EQ(e[i], (float)(i + 1));
    // [[2,1],[1,2]]: 3 and 1
    e = eigenvalues({ 2, 1, 1, 2 }, 2);
    std::sort(e.begin(), e.end());
    EXPECT_NEAR(e[0], 1.0f, 1e-6f);
    EXPECT_NEAR(e[1], 3.0f, 1e-6f);
    // the 1-D Laplacian (tridiagonal 2, -1): 2 - 2 cos(k pi / (n + 1))
    const int n = 25;
    std::vector<float> l(n * n, 0.0f);
    for (int i = 0; i < n; i++) {
        l[i * n + i] = 2;
        if (i + 1 < n)
            l[i * n + i + 1] = l[(i + 1) * n + i] = -1;
    }
    e = eigenvalues(l, n);
    std::sort(e.begin(), e.end());
    for (int k = 1; k <= n; k++)
        EXPECT_NEAR(e[k - 1], 2 - 2 * std::cos(k * M_PI / (n + 1)), 2e-6) << k;
    // a dense symmetric matrix: Q D Q' with Q a Householder reflection
    std::vector<double> v(n);
    double vv = 0;
    for (int i = 0; i < n; i++) {
        v[i] = std::sin(1.0 + i);
        vv += v[i] * v[i];
    }
    std::vector<float> m(n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++) {
                const double qik = (i == k) - 2 * v[i] * v[k] / vv;
                const double qjk = (j == k) - 2 * v[j] * v[k] / vv;
                s += qik * (k + 1) * qjk;
            }
            m[i * n + j] = (float)s;
        }
    for (int i = 0; i < n; i++)   // exactly symmetric
        for (int j = 0; j < i; j++)
            m[j * n + i] = m[i * n + j];
    e = eigenvalues(m, n);
    std::sort(e.begin(), e.end());
    for (int k = 0; k < n; k++)
        EXPECT_NEAR(e[k], k + 1, 1e-4 * (k + 1)) << k;
}

TEST(SpeedPieces, SolveKnown)
{
    const int n = 25, m = 3;
    // a well-conditioned matrix: diagonally dominant
    std::vector<float> a(n * n), b(n * m), xt(n * m);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i * n + j] = i == j ? 30.0f : (float)std::sin(0.3 * (i + 2 * j));
    for (int i = 0; i < n * m; i++)
        xt[i] = (float)std::cos(0.7 * i);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += (double)a[i * n + k] * xt[k * m + j];
            b[i * m + j] = (float)s;
        }
    std::vector<float> x;
    ASSERT_TRUE(solve(a, n, b, m, x));
    for (int i = 0; i < n * m; i++)
        EXPECT_NEAR(x[i], xt[i], 1e-5) << i;
    // a diagonal element of R below 1e-6 in magnitude: the reference's
    // error (a Householder step on a diagonal matrix only flips a sign)
    std::vector<float> s(n * n, 0.0f);
    for (int i = 0; i < n; i++)
        s[i * n + i] = i == 7 ? 1e-7f : 1.0f;
    EXPECT_FALSE(solve(s, n, b, m, x));
}

TEST(SpeedPieces, Samples)
{
    EXPECT_EQ(vq_speed_to_float(0, 8), -128.0f);
    EXPECT_EQ(vq_speed_to_float(255, 8), 127.0f);
    EXPECT_EQ(vq_speed_to_float(1023, 10), 127.75f);
    EXPECT_EQ(vq_speed_to_float(4095, 12), 127.9375f);
    EXPECT_EQ(vq_speed_to_float(65535, 16), 255.99609375f - 128.0f);
    // the filter's mirror: -k -> k, n-1+k -> n-1-k
    EXPECT_EQ(vq_speed_reflect(-3, 10), 3);
    EXPECT_EQ(vq_speed_reflect(10, 10), 8);
    EXPECT_EQ(vq_speed_reflect(5, 10), 5);
    // the prescale position: (x + 0.5) * ratio - 0.5
    EXPECT_EQ(vq_speed_scale_pos(0, 2.0f), 0.5f);
    EXPECT_EQ(vq_speed_scale_pos(3, 0.5f), 1.25f);
    // bilinear on a ramp is the position's value inside; mirrored outside
    std::vector<float> ramp(4 * 4);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            ramp[i * 4 + j] = (float)(10 * i + j);
    EXPECT_EQ(vq_speed_bilinear(ramp.data(), 4, 4, 4, 1.25f, 2.5f), 26.25f);
    EXPECT_EQ(vq_speed_bilinear(ramp.data(), 4, 4, 4, 3.0f, 3.0f), 33.0f);
    // x = -0.25: floor -1 mirrors to 1, dx = -1.25 from it: the quirk
    EXPECT_EQ(vq_speed_bilinear(ramp.data(), 4, 4, 4, -0.25f, 0.0f),
              (1 - 0.0f) * (1 - -1.25f) * 1.0f + (1 - 0.0f) * -1.25f * 0.0f);
    EXPECT_EQ(vq_speed_bicubic(ramp.data(), 4, 4, 4, 1.0f, 2.0f), 21.0f);
    EXPECT_EQ(vq_speed_nearest(ramp.data(), 4, 2.0f, 2.0f, 1, 1), 22.0f);
}

TEST(SpeedPieces, Refusals)
{
    const Options o = v1_options();
    // small36x34: chroma 18x17, 1/16 image 1x1: no 5x5 block
    EXPECT_NE(check(o, 36, 34, 1, 1, true, 8), "");
    // the smallest 4:2:0 accepted: chroma 80x80 -> a 5x5 1/16 image
    EXPECT_EQ(check(o, 160, 160, 1, 1, true, 8), "");
    EXPECT_NE(check(o, 158, 160, 1, 1, true, 8), "");
    EXPECT_NE(check(o, 160, 158, 1, 1, true, 8), "");
    EXPECT_EQ(check(o, 80, 80, 0, 0, true, 8), "");
    EXPECT_NE(check(o, 1920, 1080, 1, 1, false, 8), "");   // 4:0:0
    Options b = o;
    b.prescale_method = "area";
    EXPECT_NE(check(b, 1920, 1080, 1, 1, true, 8), "");
    b = o;
    b.kernelscale = 1.2;
    EXPECT_NE(check(b, 1920, 1080, 1, 1, true, 8), "");
    b = o;
    b.weight_var_mode = 7;
    EXPECT_NE(check(b, 1920, 1080, 1, 1, true, 8), "");
    b = o;
    b.prescale = 1.0009;   // not scaled, yet 960 * 1.0009 rounds to 961
    EXPECT_NE(check(b, 1920, 1080, 1, 1, true, 8), "");
    b.prescale = 1.0004;
    EXPECT_EQ(check(b, 1920, 1080, 1, 1, true, 8), "");
    b.prescale = 0.5;      // 1/16 of a half-size 540x270 chroma: 16x8
    EXPECT_EQ(check(b, 1080, 540, 1, 1, true, 8), "");
    EXPECT_NE(check(b, 1080, 300, 1, 1, true, 8), "");
}

/* A flat plane: its covariance matrix is 0: singular on both sides, and
 * the score of singular planes is computed from zero solutions: 0 */
TEST(SpeedPieces, FlatPlanesSingular)
{
    const Options o = v1_options();
    const int w = 320, h = 240;
    std::vector<uint8_t> flat((size_t)w * h, 128), noise((size_t)w * h);
    uint32_t s = 1;
    for (auto &x : noise) {
        s = s * 1664525u + 1013904223u;
        x = (uint8_t)(s >> 24);
    }
    const Dims dm = dims(o, w, h, 0, 0);
    const VqPlaneView vf = { flat.data(), w, w, h, 1, 0, 1 };
    const VqPlaneView vn = { noise.data(), w, w, h, 1, 0, 1 };
    bool singular = false;
    EXPECT_EQ(plane_score(o, dm, vf, vf, 8, &singular), 0.0f);
    EXPECT_TRUE(singular);
    // one side singular: 0 (not an inflated score)
    EXPECT_EQ(plane_score(o, dm, vn, vf, 8, &singular), 0.0f);
    EXPECT_TRUE(singular);
    // the same plane on both sides: weight mode 5 mixes the variances in
    // double (0.75 v + 0.25 v, then 1 + that) where the reference side
    // adds 1 + v in float: the two logs differ by a rounding, the score is
    // not 0 (the reference's arithmetic); weight mode 0 gives 0
    const float sn = plane_score(o, dm, vn, vn, 8, &singular);
    EXPECT_FALSE(singular);
    EXPECT_GT(sn, 0.0f);
    EXPECT_LT(sn, 1e-4f);
    Options o0 = o;
    o0.weight_var_mode = 0;
    EXPECT_EQ(plane_score(o0, dm, vn, vn, 8, &singular), 0.0f);
    // U singular, V not: uv is V's score
    const Result r = chroma_frame(o, dm, vf, vn, vf, vn, 8);
    EXPECT_EQ(r.u, 0.0);
    EXPECT_EQ(r.uv, r.v);
    // pinned: libvmaf's speed.c on these planes (docs/speed.md's
    // harness, 4:4:4 320x240, v1 options): U flat on both sides, V the
    // same noise on both: 0, 3.814697265625e-06, 3.814697265625e-06
    EXPECT_EQ(r.v, 3.814697265625e-06);
    EXPECT_EQ(r.uv, 3.814697265625e-06);
    // U: noise against flat (one side singular: 0), V as above
    const Result r2 = chroma_frame(o, dm, vn, vn, vf, vn, 8);
    EXPECT_EQ(r2.u, 0.0);
    EXPECT_EQ(r2.v, 3.814697265625e-06);
    EXPECT_EQ(r2.uv, 3.814697265625e-06);
    const Result r0 = chroma_frame(o0, dm, vf, vn, vf, vn, 8);   // weight mode 0: all 0
    EXPECT_EQ(r0.u, 0.0);
    EXPECT_EQ(r0.v, 0.0);
    EXPECT_EQ(r0.uv, 0.0);
}

/* ---- golden -------------------------------------------------------------- */

struct Run {
    std::string name;
    nlohmann::json j;
};

void PrintTo(const Run &r, std::ostream *os) { *os << r.name; }

std::vector<Run> load_runs(const char *file)
{
    std::vector<Run> runs;
    std::ifstream f(std::string(VQ_TEST_GOLDEN_DIR "/../golden_parts/") + file);
    if (!f)
        return runs;
    std::stringstream ss;
    ss << f.rdbuf();
    const nlohmann::json all = nlohmann::json::parse(ss.str());
    for (const auto &r : all["runs"]) {
        std::string n = r["pair"].get<std::string>() + "_" + r["model"].get<std::string>();
        for (char &c : n)
            if (!isalnum((unsigned char)c))
                c = '_';
        if (!r.contains("u") && !r.contains("refused_by_reference"))
            continue;
        runs.push_back({ n, r });
    }
    return runs;
}

std::string run_name(const ::testing::TestParamInfo<Run> &info) { return info.param.name; }

Options run_options(const nlohmann::json &j)
{
    Options o;
    if (j.contains("kernelscale")) o.kernelscale = j["kernelscale"].get<double>();
    if (j.contains("prescale")) o.prescale = j["prescale"].get<double>();
    if (j.contains("prescale_method")) o.prescale_method = j["prescale_method"].get<std::string>();
    if (j.contains("sigma_nn")) o.sigma_nn = j["sigma_nn"].get<double>();
    if (j.contains("nn_floor")) o.nn_floor = j["nn_floor"].get<double>();
    if (j.contains("max_val")) o.max_val = j["max_val"].get<double>();
    if (j.contains("weight_var_mode")) o.weight_var_mode = j["weight_var_mode"].get<int>();
    return o;
}

class SpeedGolden : public ::testing::TestWithParam<Run> {};

TEST_P(SpeedGolden, CpuScoresEqualReference)
{
    const nlohmann::json &r = GetParam().j;
    const Options o = run_options(r["options"]);
    const int w = r["w"], h = r["h"], ssx = r["ss_x"], ssy = r["ss_y"], bpc = r["bpc"];
    const std::string why = check(o, w, h, ssx, ssy, true, bpc);
    if (r.contains("refused_by_reference")) {
        EXPECT_NE(why, "") << "the reference refused: " << r["refused_by_reference"];
        return;
    }
    ASSERT_EQ(why, "");
    const char *raw_dir = getenv("VQ_RAW_DIR");
    if (!raw_dir)
        GTEST_SKIP() << "VQ_RAW_DIR not set";
    FILE *fr = fopen((std::string(raw_dir) + "/" + r["reference"].get<std::string>() + ".yuv").c_str(), "rb");
    FILE *fd = fopen((std::string(raw_dir) + "/" + r["distorted"].get<std::string>() + ".yuv").c_str(), "rb");
    if (!fr || !fd) {
        if (fr) fclose(fr);
        if (fd) fclose(fd);
        GTEST_SKIP() << "raw clips of " << r["pair"] << " missing in " << raw_dir;
    }
    const Dims dm = dims(o, w, h, ssx, ssy);
    const int bytes = bpc > 8 ? 2 : 1;
    // the decoder's chroma planes round up; speed_chroma uses w >> ss_x
    const int cw = (w + ssx) >> ssx, ch = (h + ssy) >> ssy;
    const size_t luma = (size_t)w * h * bytes, chroma = (size_t)cw * ch * bytes;
    const size_t frame = luma + 2 * chroma;
    std::vector<uint8_t> ref(2 * chroma), dis(2 * chroma);
    const auto &gu = r["u"], &gv = r["v"], &guv = r["uv"];
    const size_t nf = gu.size();
    int exact_u = 0, exact_v = 0, exact_uv = 0;
    for (size_t f = 0; f < nf; f++) {
        ASSERT_EQ(fseek(fr, (long)(f * frame + luma), SEEK_SET), 0);
        ASSERT_EQ(fseek(fd, (long)(f * frame + luma), SEEK_SET), 0);
        ASSERT_EQ(fread(ref.data(), 1, 2 * chroma, fr), 2 * chroma);
        ASSERT_EQ(fread(dis.data(), 1, 2 * chroma, fd), 2 * chroma);
        auto view = [&](const std::vector<uint8_t> &b, int plane) {
            return VqPlaneView{ b.data() + plane * chroma, (ptrdiff_t)cw * bytes, cw, ch, bytes, 0, 1 };
        };
        const Result s = chroma_frame(o, dm, view(ref, 0), view(ref, 1), view(dis, 0), view(dis, 1), bpc);
        const double eu = gu[f], ev = gv[f], euv = guv[f];
        exact_u += s.u == eu;
        exact_v += s.v == ev;
        exact_uv += s.uv == euv;
        EXPECT_EQ(s.u, eu) << "frame " << f;
        EXPECT_EQ(s.v, ev) << "frame " << f;
        EXPECT_EQ(s.uv, euv) << "frame " << f;
    }
    fclose(fr);
    fclose(fd);
    printf("%s: exact u %d/%zu, v %d/%zu, uv %d/%zu\n", GetParam().name.c_str(), exact_u, nf,
           exact_v, nf, exact_uv, nf);
}

// the v1.0.16 models, through libvmaf's vmaf tool (shared/golden)
INSTANTIATE_TEST_SUITE_P(Runs, SpeedGolden, ::testing::ValuesIn(load_runs("speed_chroma.json")),
                         run_name);
// the other options (prescale methods and factors, kernelscales, weight
// modes, sigma_nn, nn_floor, max_val, libvmaf's defaults): libvmaf's own
// speed.c and vif_tools.c in a harness (docs/speed.md)
INSTANTIATE_TEST_SUITE_P(Options, SpeedGolden,
                         ::testing::ValuesIn(load_runs("speed_chroma_options.json")), run_name);

}  // namespace
