/*
 * test_float_small.cpp - float_psnr, float_moment, float_ansnr,
 * speed_temporal and null (libvmaf v3.2.0; docs/float-small.md) on the CPU:
 * the pieces of kernels/float_small.h, the exactness bound of the float
 * sums, the refusals, and whole sessions on synthetic 16-bit frames (the
 * depth the golden pairs lack, where the float sums' order matters) equal
 * to libvmaf's own values (tests/data/golden_parts/fsmall_synth16_*.json,
 * produced through libvmaf's API, C path, on the frames made by make_frames
 * below).  The 11 golden pairs and the options run through vqscore
 * (tests/cmake/float_small.cmake).
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "float_small.h"
#include "float_small_exec.h"
#include "float_small_fold.h"
#include "golden.h"
#include "vqcuda.h"

namespace {

/* ---- pieces -------------------------------------------------------------- */

TEST(FloatSmallPieces, PictureCopy)
{
    // picture_copy: 8 bits v + offset; above, v / 4, 16, 256 + offset (exact)
    EXPECT_EQ(vq_fs_copy(255, 8, 0), 255.0f);
    EXPECT_EQ(vq_fs_copy(0, 8, -128), -128.0f);
    EXPECT_EQ(vq_fs_copy(1023, 10, 0), 255.75f);
    EXPECT_EQ(vq_fs_copy(4095, 12, -128), 127.9375f);
    EXPECT_EQ(vq_fs_copy(65535, 16, 0), 255.99609375f);
    EXPECT_EQ(vq_fs_copy(1, 16, -128), -128.0f + 1.0f / 256);
}

TEST(FloatSmallPieces, TermsAreMultiplesOf2PowMinus16)
{
    // every term in units of 2^-16 is an integer: the fixed-point row sums are exact
    const int depths[] = { 8, 10, 12, 16 };
    uint32_t x = 12345;
    for (int bpc : depths)
        for (int n = 0; n < 20000; n++) {
            x = x * 1664525u + 1013904223u;
            const uint32_t a = (x >> 8) & ((1u << bpc) - 1), b = (x >> 3) & ((1u << bpc) - 1);
            float t[VQ_FS_NSUMS];
            vq_fs_terms(a, b, bpc, t);
            for (int k = 0; k < VQ_FS_NSUMS; k++) {
                const double u = (double)t[k] * 65536.0;
                ASSERT_EQ(u, std::floor(u)) << bpc << " " << a << " " << b;
                ASSERT_LT(t[k], 65536.0f);
                ASSERT_EQ(vq_fs_total_double(vq_fs_fixed(t[k])), (double)t[k]);
            }
        }
}

TEST(FloatSmallPieces, ExactnessBound)
{
    // up to 12 bits any frame's total is exact; at 16 bits while below 2^53 units of 2^-16
    EXPECT_TRUE(vq_fs_total_exact(INT64_MAX, 8));
    EXPECT_TRUE(vq_fs_total_exact(INT64_MAX, 10));
    EXPECT_TRUE(vq_fs_total_exact(((int64_t)1 << 61) - 1, 12));
    EXPECT_FALSE(vq_fs_total_exact((int64_t)1 << 61, 12));
    EXPECT_TRUE(vq_fs_total_exact(((int64_t)1 << 53) - 1, 16));
    EXPECT_FALSE(vq_fs_total_exact((int64_t)1 << 53, 16));
    EXPECT_FALSE(vq_fs_total_exact(-1, 8));
}

TEST(FloatSmallPieces, AnsnrFilters)
{
    // the 3x3 taps are sixteenths; the 5x5 taps are k/571 rounded to float,
    // symmetric, their exact sum 571/571
    float s3 = 0;
    for (int k = 0; k < 9; k++)
        s3 += vq_ansnr_ref_coef(k);
    EXPECT_EQ(s3, 1.0f);
    EXPECT_EQ(vq_ansnr_ref_coef(4), 0.25f);
    double s5 = 0;
    for (int k = 0; k < 25; k++) {
        EXPECT_EQ(vq_ansnr_dis_coef(k), vq_ansnr_dis_coef(24 - k));
        s5 += (double)vq_ansnr_dis_coef(k);
    }
    EXPECT_NEAR(s5, 1.0, 1e-7);
    EXPECT_EQ(vq_ansnr_dis_coef(12), (float)(127.0 / 571.0));
    // ansnr_filter2d_s's border: -1 -> 1, n -> n-1, n+1 -> n-2
    EXPECT_EQ(vq_ansnr_mirror(-1, 10), 1);
    EXPECT_EQ(vq_ansnr_mirror(-2, 10), 2);
    EXPECT_EQ(vq_ansnr_mirror(10, 10), 9);
    EXPECT_EQ(vq_ansnr_mirror(11, 10), 8);
    // a constant image: the 3x3 filter keeps it exactly (sixteenths), the
    // 5x5 one only nearly (its float taps do not sum to 1 exactly)
    std::vector<float> img(40 * 36, 3.0f);
    float sig, noise;
    vq_ansnr_row(img.data(), img.data(), 40, 40, 36, 0, &sig, &noise);
    EXPECT_EQ(sig, 40 * 9.0f);
    EXPECT_LT(noise, 1e-9f);
    EXPECT_EQ(vq_ansnr_filter_at(img.data(), 40, 40, 36, 1, 35, 39), 3.0f);
}

TEST(FloatSmallPieces, AnsnrCpuRowsAreTheRowFunction)
{
    // the CPU loop (the inner columns a tap at a time across the row) gives
    // vq_ansnr_row's floats, bit for bit, borders and small sizes included
    uint32_t x = 777;
    for (int n = 0; n < 30; n++) {
        x = x * 1664525u + 1013904223u;
        const int w = 33 + (int)(x >> 8) % 300, h = 33 + (int)(x >> 20) % 200;
        std::vector<float> a((size_t)w * h), b((size_t)w * h);
        for (size_t k = 0; k < a.size(); k++) {
            x = x * 1664525u + 1013904223u;
            a[k] = (float)(int)(x >> 24) - 128.0f + (float)((x >> 4) & 15) / 16.0f;
            b[k] = a[k] + (float)(int)((x >> 10) & 31) - 16.0f;
        }
        std::vector<int64_t> sec(VQ_ANSNR_WORDS(h));
        vq_ansnr_cpu_rows(a.data(), b.data(), w, h, sec.data(), 0, h);
        for (int i = 0; i < h; i++) {
            float sig, noise;
            vq_ansnr_row(a.data(), b.data(), w, w, h, i, &sig, &noise);
            ASSERT_EQ(vq_fs_word_float(sec[2 * (size_t)i]), sig) << w << "x" << h << " row " << i;
            ASSERT_EQ(vq_fs_word_float(sec[2 * (size_t)i + 1]), noise) << w << "x" << h << " row " << i;
        }
    }
}

TEST(FloatSmallPieces, FoldEdges)
{
    // identical frames: noise 0 -> float_psnr psnr_max, ansnr psnr_max, anpsnr psnr_max
    const int w = 40, h = 36;
    std::vector<int64_t> fs(VQ_FS_WORDS(h), 0), an(VQ_ANSNR_WORDS(h), 0);
    const int depths[] = { 8, 10, 12, 16 };
    const double maxes[] = { 60.0, 72.0, 84.0, 108.0 };
    for (int k = 0; k < 4; k++) {
        EXPECT_EQ(vq_float_psnr_fold(fs.data(), w, h, depths[k]), maxes[k]);
        double o[2];
        for (int i = 0; i < h; i++)
            an[2 * (size_t)i] = vq_fs_float_word(100.0f);
        vq_float_ansnr_fold(an.data(), w, h, depths[k], o);
        EXPECT_EQ(o[0], maxes[k]);
        EXPECT_EQ(o[1], maxes[k]);
    }
    double peak, pmax;
    EXPECT_EQ(vq_float_peak(9, &peak, &pmax), -1);
}

/* ---- sessions ------------------------------------------------------------ */

/* The synthetic 16-bit frames of the fsmall_synth16_* goldens (the same
 * generator produced the raw files libvmaf scored).  stripes: even columns
 * bright (60000 + 0..4095), odd ones dark (0..4095), so that the second
 * moments' sums pass 2^37 (a 3840x2160 frame) while dark terms are fine
 * multiples of 2^-16: the reference's raster order then rounds, and the
 * exact total is not its result.  random: every sample uniform. */
uint32_t hsh(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

uint16_t sample(bool stripes, int frame, int plane, int i, int j, bool dis)
{
    const uint32_t h = hsh((uint32_t)frame * 0x9E3779B1u ^
                           hsh((uint32_t)plane * 0x85EBCA77u ^ hsh((uint32_t)i * 0xC2B2AE3Du ^ (uint32_t)j)));
    int v = stripes ? ((j & 1) ? (int)(h & 4095) : 60000 + (int)(h & 4095)) : (int)(h & 0xffff);
    if (dis) {
        v += (int)(hsh(h ^ 0x5bd1e995u) % 1537) - 768;
        v = v < 0 ? 0 : v > 65535 ? 65535 : v;
    }
    return (uint16_t)v;
}

struct Frame16 {
    std::vector<uint16_t> p[3];
    VqPicture pic;
};

Frame16 make_frame(bool stripes, bool gray, int w, int h, int frame, bool dis)
{
    Frame16 f;
    std::memset(&f.pic, 0, sizeof(f.pic));
    for (int q = 0; q < (gray ? 1 : 3); q++) {
        const int pw = q ? (w + 1) / 2 : w, ph = q ? (h + 1) / 2 : h;
        f.p[q].resize((size_t)pw * ph);
        for (int i = 0; i < ph; i++)
            for (int j = 0; j < pw; j++)
                f.p[q][(size_t)i * pw + j] = sample(stripes, frame, q, i, j, dis);
        f.pic.data[q] = f.p[q].data();
        f.pic.linesize[q] = pw * 2;
    }
    return f;
}

/* a log of tests/data/golden_parts: false if it is not there; one that
 * cannot be read as a log throws */
bool load_part(const std::string &name, vq_test::GoldenLog *g)
{
    const char *dir = std::getenv("VQ_GOLDEN_DIR");
    std::string path = std::string(dir ? dir : "") + "/../golden_parts/" + name;
    std::string err;
    const vq_test::GoldenStatus st = vq_test::load_golden(path, g, &err);
    if (st == vq_test::GoldenStatus::Bad)
        throw std::runtime_error(err);
    return st == vq_test::GoldenStatus::Ok;
}

VqConfig config16(int w, int h, bool gray, const char *features)
{
    VqConfig c;
    vq_config_default(&c);
    c.format.width = w;
    c.format.height = h;
    c.format.bitdepth = 16;
    c.format.bytes_per_sample = 2;
    c.format.chroma_shift_w = gray ? 0 : 1;
    c.format.chroma_shift_h = gray ? 0 : 1;
    c.format.layout = gray ? VQ_LAYOUT_GRAY : VQ_LAYOUT_PLANAR;
    c.executor = VQ_EXECUTOR_CPU;
    c.model = "none";
    c.feature = features;
    c.enable_psnr = 0;
    return c;
}

const char *kAll = "name=float_psnr|name=float_ansnr|name=float_moment|name=speed_temporal";

void run_synth(const char *golden, bool stripes, bool gray, int w, int h, int threads)
{
    vq_test::GoldenLog g;
    if (!load_part(golden, &g))
        GTEST_SKIP() << golden << " not found";
    VqConfig c = config16(w, h, gray, kAll);
    c.threads = threads;
    char err[256];
    VqSession *s = nullptr;
    ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
    const size_t nframes = g.nframes();
    std::vector<std::vector<std::pair<std::string, double>>> got;
    auto drain = [&] {
        VqFrameResult r;
        while (vq_session_receive(s, &r) == VQ_OK) {
            got.emplace_back();
            for (int k = 0; k < r.n; k++)
                got.back().emplace_back(r.name[k], r.value[k]);
        }
    };
    for (size_t n = 0; n < nframes; n++) {
        Frame16 ref = make_frame(stripes, gray, w, h, (int)n, false);
        Frame16 dis = make_frame(stripes, gray, w, h, (int)n, true);
        ASSERT_EQ(vq_session_submit(s, &ref.pic, &dis.pic), VQ_OK) << vq_session_error(s);
        drain();
    }
    ASSERT_EQ(vq_session_flush(s), VQ_OK);
    drain();
    ASSERT_EQ(got.size(), nframes);
    int checked = 0;
    for (size_t n = 0; n < nframes; n++)
        for (const auto &[key, want] : g.frames[n].values) {
            bool found = false;
            for (const auto &[name, v] : got[n])
                if (name == key) {
                    EXPECT_EQ(v, want) << golden << " frame " << n << " " << key;
                    found = true;
                    checked++;
                }
            EXPECT_TRUE(found) << key;
        }
    for (const auto &[key, pools] : g.pooled) {
        static const char *const names[] = { "min", "max", "mean", "harmonic_mean" };
        static const VqPool methods[] = { VQ_POOL_MIN, VQ_POOL_MAX, VQ_POOL_MEAN, VQ_POOL_HARMONIC_MEAN };
        for (int k = 0; k < 4; k++) {
            double v;
            ASSERT_EQ(vq_session_pooled(s, key.c_str(), methods[k], &v), VQ_OK) << key;
            EXPECT_EQ(v, pools.at(names[k])) << key << " " << names[k];
            checked++;
        }
    }
    EXPECT_EQ(checked, (int)(nframes * 8 + 8 * 4));
    vq_session_close(&s);
}

TEST(FloatSmallGolden, Synth16StripesGray)
{
    run_synth("fsmall_synth16_stripes_gray.json", true, true, 3840, 2160, 1);
}

TEST(FloatSmallGolden, Synth16StripesGrayThreads)
{
    run_synth("fsmall_synth16_stripes_gray.json", true, true, 3840, 2160, 3);
}

TEST(FloatSmallGolden, Synth16Random420)
{
    run_synth("fsmall_synth16_random_420.json", false, false, 640, 360, 1);
}

TEST(FloatSmallGolden, StripesNeedTheRasterOrder)
{
    // the stripes frame's second-moment total is past the bound, and the
    // exact total is not the reference's value: the raster-order finish is
    // what makes float_moment_ref2nd right
    vq_test::GoldenLog g;
    if (!load_part("fsmall_synth16_stripes_gray.json", &g))
        GTEST_SKIP() << "golden not found";
    const int w = 3840, h = 2160;
    Frame16 ref = make_frame(true, true, w, h, 0, false);
    Frame16 dis = make_frame(true, true, w, h, 0, true);
    VqPlaneView rv = { (const uint8_t *)ref.p[0].data(), (ptrdiff_t)w * 2, w, h, 2, 0, 1 };
    VqPlaneView dv = { (const uint8_t *)dis.p[0].data(), (ptrdiff_t)w * 2, w, h, 2, 0, 1 };
    std::vector<int64_t> sec(VQ_FS_WORDS(h), 0);
    vq_fs_cpu_rows(rv, dv, 16, sec.data(), 0, h);
    int64_t tot = 0;
    for (int i = 0; i < h; i++)
        tot += sec[VQ_FS_NSUMS * (1 + (size_t)i) + VQ_FS_REF2];
    EXPECT_FALSE(vq_fs_total_exact(tot, 16));
    const double want = g.value(0, "float_moment_ref2nd");
    EXPECT_NE(vq_fs_total_double(tot) / (w * h), want);
    vq_fs_cpu_finish(rv, dv, 16, sec.data());
    double m[4];
    vq_float_moment_fold(sec.data(), w, h, m);
    EXPECT_EQ(m[2], want);
}

/* ---- names, options, refusals -------------------------------------------- */

VqConfig config8(int w, int h, const char *features)
{
    VqConfig c;
    vq_config_default(&c);
    c.format.width = w;
    c.format.height = h;
    c.format.bitdepth = 8;
    c.format.bytes_per_sample = 1;
    c.format.chroma_shift_w = 1;
    c.format.chroma_shift_h = 1;
    c.format.layout = VQ_LAYOUT_PLANAR;
    c.executor = VQ_EXECUTOR_CPU;
    c.model = "none";
    c.feature = features;
    c.enable_psnr = 0;
    return c;
}

std::string open_error(int w, int h, const char *features)
{
    VqConfig c = config8(w, h, features);
    char err[512] = "";
    VqSession *s = nullptr;
    const int r = vq_session_open(&s, &c, err, sizeof(err));
    vq_session_close(&s);
    return r == VQ_OK ? "" : err;
}

TEST(FloatSmallOptions, Refusals)
{
    // the 1/16 luma image must hold a 5x5 block: from 80x80 (small36x34 fails in libvmaf)
    EXPECT_NE(open_error(79, 200, "name=speed_temporal").find("image too small"), std::string::npos);
    EXPECT_EQ(open_error(80, 80, "name=speed_temporal"), "");
    // a prescale making the frame taller writes past libvmaf's frame buffers
    EXPECT_NE(open_error(320, 240, "name=speed_temporal:speed_prescale=2").find("past the end"),
              std::string::npos);
    EXPECT_NE(open_error(960, 240, "name=speed_temporal:speed_prescale=1.0009").find("close to 1"),
              std::string::npos);
    EXPECT_NE(open_error(320, 240, "name=speed_temporal:speed_kernelscale=0.3").find("kernelscale"),
              std::string::npos);
    EXPECT_NE(open_error(320, 240, "name=speed_temporal:speed_prescale_method=area"), "");
    EXPECT_NE(open_error(320, 240, "name=speed_temporal:speed_weight_var_mode=5"), "");   // speed_chroma's only
    EXPECT_NE(open_error(320, 240, "name=float_psnr:enable_chroma=true"), "");           // no options
    EXPECT_NE(open_error(320, 240, "name=null:x=1"), "");
    EXPECT_EQ(open_error(320, 240, "name=speed_temporal:speed_prescale=0.5:speed_prescale_method=lanczos4"), "");
}

std::vector<std::string> columns(const char *features)
{
    VqConfig c = config8(320, 240, features);
    char err[512] = "";
    VqSession *s = nullptr;
    std::vector<std::string> out;
    if (vq_session_open(&s, &c, err, sizeof(err)) != VQ_OK)
        return { std::string("error: ") + err };
    std::vector<uint8_t> y(320 * 240, 100), uv(160 * 120, 128);
    VqPicture p;
    std::memset(&p, 0, sizeof(p));
    p.data[0] = y.data();
    p.data[1] = p.data[2] = uv.data();
    p.linesize[0] = 320;
    p.linesize[1] = p.linesize[2] = 160;
    EXPECT_EQ(vq_session_submit(s, &p, &p), VQ_OK);
    EXPECT_EQ(vq_session_flush(s), VQ_OK);
    VqFrameResult r;
    if (vq_session_receive(s, &r) == VQ_OK)
        for (int k = 0; k < r.n; k++)
            out.push_back(r.name[k]);
    vq_session_close(&s);
    return out;
}

TEST(FloatSmallOptions, Names)
{
    using V = std::vector<std::string>;
    EXPECT_EQ(columns("name=float_moment|name=float_ansnr|name=float_psnr"),
              (V{ "float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd",
                  "float_ansnr", "float_anpsnr", "float_psnr" }));
    // feature_name.c: alias, then non-default FEATURE_PARAMs sorted by option name (bool: the alias alone)
    EXPECT_EQ(columns("name=speed_temporal:speed_use_ref_diff=true:speed_max_val=10:speed_kernelscale=2"),
              (V{ "speed_temporal_ks_2_mxv_10_urd" }));
    EXPECT_EQ(columns("name=speed_temporal:speed_prescale=0.5:speed_prescale_method=bicubic"),
              (V{ "speed_temporal_ps_0.5_psm_bicubic" }));
    // null: no outputs, beside others or alone
    EXPECT_EQ(columns("name=null|name=float_psnr"), (V{ "float_psnr" }));
    EXPECT_EQ(columns("name=null"), V{});
}

TEST(FloatSmallOptions, NullWritesNoFrames)
{
    // libvmaf with --feature null alone writes no frame and no pooled value
    VqConfig c = config8(320, 240, "name=null");
    char err[512] = "";
    VqSession *s = nullptr;
    ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
    std::vector<uint8_t> y(320 * 240, 100), uv(160 * 120, 128);
    VqPicture p;
    std::memset(&p, 0, sizeof(p));
    p.data[0] = y.data();
    p.data[1] = p.data[2] = uv.data();
    p.linesize[0] = 320;
    p.linesize[1] = p.linesize[2] = 160;
    for (int n = 0; n < 3; n++)
        ASSERT_EQ(vq_session_submit(s, &p, &p), VQ_OK) << vq_session_error(s);
    ASSERT_EQ(vq_session_flush(s), VQ_OK);
    VqFrameResult r;
    int n = 0;
    while (vq_session_receive(s, &r) == VQ_OK) {
        EXPECT_EQ(r.n, 0);
        n++;
    }
    EXPECT_EQ(n, 3);
    char path[] = "/tmp/vq_null_XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    ASSERT_EQ(vq_session_write_log(s, path, VQ_LOG_JSON), VQ_OK) << vq_session_error(s);
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::remove(path);
    const nlohmann::json j = nlohmann::json::parse(ss.str());
    EXPECT_TRUE(j["frames"].empty()) << ss.str();
    EXPECT_TRUE(j["pooled_metrics"].empty()) << ss.str();
    vq_session_close(&s);
}

}  // namespace
