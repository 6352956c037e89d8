/*
 * test_ciede.cpp - ciede2000 (CPU executor + fold, and the device stage run
 * on the CPU + fold) against libvmaf's golden values; the refusals; the
 * device stage against the reference on random input; the constants.
 *
 * The fold (row words, exact rows and rows added pixel by pixel) against
 * the plain sequential double sum of the same floats, which is the
 * reference's definition.
 *
 * Golden tests need VQ_RAW_DIR (<clip>.yuv) and VQ_GOLDEN_DIR
 * (<pair>.features.json); they skip without them.  A few frames per pair by
 * default; VQ_TEST_ALL_FRAMES=1 scores every frame.  VQ_CIEDE_TIMING=1 prints
 * the time per frame of each path.
 */
/* GCC 12.2 (Debian 12) at -O2/-O3 SLP-vectorizes pairs of float
 * conversions and then folds (double)(float)x back to x: wrong code for the
 * reference's float roundings (docs/ciede.md, "Compiler").  No vectorizing in
 * this file. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-tree-loop-vectorize")
#endif
#include <gtest/gtest.h>

#include <limits.h>
#include <math.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ciede/ciede.h"
#include "ciede/ciede_exec.h"
#include "ciede/ciede_fold.h"
#include "clip_table.h"
#include "golden.h"
#include "test_util.h"

namespace {

using vq_test::env_dir;

struct Pair {
    const char *name, *ref, *dis;
    int w, h, bpc, ssx, ssy;
};

/* the pairs checked, in this order; their clips and geometry from tests/data/clips.tsv */
const std::vector<Pair> &pairs()
{
    static const std::vector<Pair> v = [] {
        std::vector<Pair> out;
        for (const char *name : { "dog1080", "dog1080_self", "birds720", "balle576", "dog1080p10", "dog2160",
                                  "odd577x323", "small36x34", "checker1080", "dog1080p12", "birds422p10" }) {
            const vq_test::ClipRow &c = vq_test::clip(name);
            out.push_back({ c.name.c_str(), c.ref.c_str(), c.dis.c_str(), c.w, c.h, c.bpc, c.ssx, c.ssy });
        }
        return out;
    }();
    return v;
}

bool env_flag(const char *var)
{
    const char *v = getenv(var);
    return v && *v && strcmp(v, "0");
}

struct Golden {
    std::vector<double> value;      /* per frame; null (infinity) as +inf */
    std::vector<bool> present;
    bool refused = false;
};

/* null (the reference's inf) as +inf: the reader's default */
bool load_golden(const std::string &path, Golden *out)
{
    vq_test::GoldenLog log;
    std::string err;
    const vq_test::GoldenStatus st = vq_test::load_golden(path, &log, &err);
    if (st == vq_test::GoldenStatus::Bad)
        ADD_FAILURE() << err;
    if (st != vq_test::GoldenStatus::Ok)
        return false;
    for (const vq_test::GoldenMetrics &m : log.frames) {
        out->present.push_back(m.has("ciede2000"));
        out->value.push_back(m.has("ciede2000") ? m.at("ciede2000") : 0.0);
    }
    out->refused = log.refuses("ciede");
    return true;
}

/* one frame, planar, samples as stored (8-bit: bytes; else uint16 LE) */
struct Frame {
    std::vector<uint8_t> plane[3];
    VqPlaneView view[3];
};

bool read_frame(const std::string &path, const Pair &p, int index, Frame *fr)
{
    const int bytes = p.bpc > 8 ? 2 : 1;
    const int cw = (p.w + p.ssx) >> p.ssx, ch = (p.h + p.ssy) >> p.ssy;   /* FFmpeg: ceil */
    const size_t luma = (size_t)p.w * p.h * bytes, chroma = (size_t)cw * ch * bytes;
    const size_t frame_bytes = luma + 2 * chroma;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return false;
    bool ok = fseeko(f, (off_t)(frame_bytes * index), SEEK_SET) == 0;
    for (int c = 0; c < 3 && ok; c++) {
        fr->plane[c].resize(c ? chroma : luma);
        ok = fread(fr->plane[c].data(), 1, fr->plane[c].size(), f) == fr->plane[c].size();
        VqPlaneView &v = fr->view[c];
        v.data = fr->plane[c].data();
        v.w = c ? cw : p.w;
        v.h = c ? ch : p.h;
        v.pitch = (ptrdiff_t)v.w * bytes;
        v.bytes = bytes;
        v.shift = 0;
        v.step = 1;
    }
    fclose(f);
    return ok;
}

double ms_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct Counts {
    int checked = 0, exact = 0;
};

enum Path { CPU_EXEC, DEV_STAGE };

void run_pair(const Pair &p, Path path, bool all, Counts *cnt)
{
    const std::string raw = env_dir("VQ_RAW_DIR"), gdir = env_dir("VQ_GOLDEN_DIR");
    const std::string ref_path = raw + "/" + p.ref + ".yuv", dis_path = raw + "/" + p.dis + ".yuv";
    Golden g;
    FILE *t = fopen(ref_path.c_str(), "rb");
    if (t)
        fclose(t);
    if (!t || !load_golden(gdir + "/" + p.name + ".features.json", &g)) {
        printf("  %s: raw frames or golden file missing, not checked\n", p.name);
        return;
    }
    char err[256];
    ASSERT_EQ(vq_ciede_check(p.w, p.h, p.bpc, p.ssx, p.ssy, 1, err, sizeof(err)), 0) << err;
    ASSERT_FALSE(g.refused);
    const VqCiedeGeom geom = vq_ciede_geom(p.w, p.h, p.ssx, p.ssy, p.bpc);
    const int n = all ? (int)g.value.size() : std::min(p.w * p.h > 1000000 ? 1 : 3, (int)g.value.size());
    std::vector<int64_t> buf(vq_ciede_buffer_words(p.w, p.h)), px((size_t)p.w * p.h);
    int exact = 0, fb_max = 0;
    double ms = 0, fold_ms = 0, headroom = INFINITY;
    int64_t listed = 0, two = 0, fb_rows = 0;
    for (int i = 0; i < n; i++) {
        ASSERT_TRUE(g.present[i]) << p.name << " frame " << i << " has no ciede2000";
        Frame fr, fd;
        ASSERT_TRUE(read_frame(ref_path, p, i, &fr)) << p.ref << " frame " << i;
        ASSERT_TRUE(read_frame(dis_path, p, i, &fd)) << p.dis << " frame " << i;
        std::fill(buf.begin(), buf.end(), (int64_t)0x5A5A5A5A5A5A5A5A);
        std::fill(px.begin(), px.end(), (int64_t)0x5A5A5A5A5A5A5A5A);
        auto t0 = std::chrono::steady_clock::now();
        if (path == CPU_EXEC)
            vq_ciede_cpu_run(fr.view, fd.view, &geom, buf.data(), px.data());
        else
            vq_ciede_dev_cpu_run(fr.view, fd.view, &geom, buf.data(), nullptr, px.data());
        ms += ms_since(t0);
        for (size_t k = 0; k < (size_t)p.w * p.h; k++) {
            const uint32_t hi = (uint32_t)((uint64_t)px[k] >> 32);
            listed += hi == VQ_CIEDE_TAG_LIST;
            two += hi < 0x7f800000u;
        }
        ASSERT_EQ(vq_ciede_extra_entries(buf.data()), 0);
        const VqCiedeRowSource src = { px.data(), nullptr, nullptr };
        double score, sum;
        int fb = 0;
        t0 = std::chrono::steady_clock::now();
        ASSERT_EQ(vq_ciede_fold(&geom, buf.data(), nullptr, &src, &score, err, sizeof(err)), 0) << err;
        fold_ms += ms_since(t0);
        ASSERT_EQ(vq_ciede_fold_sum(&geom, buf.data(), nullptr, &src, &sum, &fb, err, sizeof(err)), 0) << err;
        /* the definition: the plain sequential sum of the pixels' values */
        double seq = 0;
        for (size_t k = 0; k < (size_t)p.w * p.h; k++) {
            float v;
            ASSERT_EQ(vq_ciede_word_value(&geom, buf.data(), nullptr, (uint64_t)px[k], k, &v, err, sizeof(err)), 0)
                << err;
            seq += v;
        }
        EXPECT_EQ(vq_f64_bits(sum), vq_f64_bits(seq)) << p.name << " frame " << i;
        /* every row forced pixel by pixel: the same sum */
        std::vector<int64_t> forced = buf;
        for (int r = 0; r < p.h; r++)
            forced[VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * r + 3] = VQ_CIEDE_KEY_FALLBACK;
        double fsum;
        ASSERT_EQ(vq_ciede_fold_sum(&geom, forced.data(), nullptr, &src, &fsum, nullptr, err, sizeof(err)), 0)
            << err;
        EXPECT_EQ(vq_f64_bits(fsum), vq_f64_bits(seq)) << p.name << " frame " << i << " pixel by pixel";
        /* the bound's headroom: 53 + t - log2(S + R), least over the rows */
        double s_run = 0;
        for (int r = 0; r < p.h; r++) {
            int t = s_run != 0 ? vq_ciede_tz_double(s_run) : INT_MAX;
            long double rsum = 0;
            double after = s_run;
            for (int j = 0; j < p.w; j++) {
                const size_t k = (size_t)r * p.w + j;
                float v;
                ASSERT_EQ(vq_ciede_word_value(&geom, buf.data(), nullptr, (uint64_t)px[k], k, &v, err, sizeof(err)),
                          0);
                if (v != 0)
                    t = std::min(t, vq_ciede_tz_float(v));
                rsum += v;
                after += v;
            }
            if (t != INT_MAX)
                headroom = std::min(headroom, 53.0 + t - (double)log2l((long double)s_run + rsum));
            s_run = after;
        }
        fb_rows += fb;
        fb_max = std::max(fb_max, fb);
        EXPECT_EQ(score, g.value[i]) << p.name << " frame " << i << (path == CPU_EXEC ? " cpu" : " dev");
        exact += score == g.value[i];
    }
    printf("  %-13s %s: %d/%d exact, rows added pixel by pixel per frame %.2f (max %d of %d), least headroom "
           "%.1f bits", p.name, path == CPU_EXEC ? "cpu" : "dev", exact, n, (double)fb_rows / n, fb_max, p.h,
           headroom);
    if (path == DEV_STAGE)
        printf(", per frame %.1f pixels to the host, %.1f two-candidate", (double)listed / n,
               (double)two / n);
    if (env_flag("VQ_CIEDE_TIMING"))
        printf(", %.1f ms/frame executor, %.3f ms/frame fold", ms / n, fold_ms / n);
    printf("\n");
    cnt->checked += n;
    cnt->exact += exact;
}

bool have_data()
{
    return !env_dir("VQ_RAW_DIR").empty() && !env_dir("VQ_GOLDEN_DIR").empty();
}

void run_all(Path path)
{
    Counts c;
    const bool all = env_flag("VQ_TEST_ALL_FRAMES");
    const char *only = getenv("VQ_CIEDE_PAIR");
    for (const Pair &p : pairs())
        if (!only || !*only || !strcmp(only, p.name))
            run_pair(p, path, all, &c);
    printf("ciede2000 %s: %d of %d frames exact\n", path == CPU_EXEC ? "cpu" : "dev", c.exact,
           c.checked);
    if (c.checked == 0)
        GTEST_SKIP() << "no pair's raw frames found in VQ_RAW_DIR";
}

}  // namespace

TEST(Ciede, GoldenCpuExecutor)
{
    if (!have_data())
        GTEST_SKIP() << "VQ_RAW_DIR or VQ_GOLDEN_DIR not set";
    run_all(CPU_EXEC);
}

TEST(Ciede, GoldenDeviceStageOnCpu)
{
    if (!have_data())
        GTEST_SKIP() << "VQ_RAW_DIR or VQ_GOLDEN_DIR not set";
    run_all(DEV_STAGE);
}

TEST(Ciede, Refusals)
{
    char err[256];
    for (const Pair &p : pairs())
        EXPECT_EQ(vq_ciede_check(p.w, p.h, p.bpc, p.ssx, p.ssy, 1, err, sizeof(err)), 0) << p.name;
    EXPECT_NE(vq_ciede_check(64, 64, 8, 1, 1, 0, err, sizeof(err)), 0);      /* gray */
    EXPECT_NE(strstr(err, "gray"), nullptr) << err;
    EXPECT_NE(vq_ciede_check(64, 64, 9, 1, 1, 1, err, sizeof(err)), 0);      /* 9 bits */
    EXPECT_NE(vq_ciede_check(64, 64, 14, 0, 0, 1, err, sizeof(err)), 0);
    EXPECT_NE(vq_ciede_check(64, 64, 8, 0, 1, 1, err, sizeof(err)), 0);      /* 4:4:0 */
    EXPECT_NE(vq_ciede_check(64, 63, 8, 1, 1, 1, err, sizeof(err)), 0);      /* 4:2:0, odd h */
    EXPECT_NE(strstr(err, "past"), nullptr) << err;
    EXPECT_NE(vq_ciede_check(129, 64, 8, 1, 1, 1, err, sizeof(err)), 0);     /* cw 64 = stride */
    EXPECT_EQ(vq_ciede_check(131, 64, 8, 1, 1, 1, err, sizeof(err)), 0);     /* padding read: 0 */
    EXPECT_EQ(vq_ciede_check(65, 63, 8, 0, 0, 1, err, sizeof(err)), 0);      /* 4:4:4: any size */
    EXPECT_EQ(vq_ciede_check(64, 63, 16, 1, 0, 1, err, sizeof(err)), 0);     /* 4:2:2, odd h */
    EXPECT_EQ(vq_ciede_check(63, 64, 10, 1, 0, 1, err, sizeof(err)), 0);
}

/* The hex constants are the reference's constant expressions. */
TEST(Ciede, Constants)
{
    volatile double pi = M_PI;
    EXPECT_EQ(VQ_CIEDE_2PI, 2. * pi);
    EXPECT_EQ(VQ_CIEDE_PI, pi);
    EXPECT_EQ(VQ_CIEDE_PI_6, pi / 6.0);
    EXPECT_EQ(VQ_CIEDE_PI_30, pi / 30.0);
    EXPECT_EQ(VQ_CIEDE_7PI_20, 7.0 * pi / 20.0);
    EXPECT_EQ(VQ_CIEDE_180_PI, 180.0 / pi);
    EXPECT_EQ(VQ_CIEDE_PI_180, pi / 180.0);
    volatile double one = 1.0;
    EXPECT_EQ(VQ_CIEDE_GAMMA_T, 10. * one / 255.);
    EXPECT_EQ(VQ_CIEDE_GAMMA_D, one / 1.055);
    EXPECT_EQ(VQ_CIEDE_LIN_D, one / 12.92);
    EXPECT_EQ(VQ_CIEDE_LAB_EPS, 216.0 * one / 24389.0);
    EXPECT_EQ(VQ_CIEDE_LAB_KAPPA, 24389.0 * one / 27.0);
    EXPECT_EQ(VQ_CIEDE_1_116, one / 116.0);
    EXPECT_EQ(VQ_CIEDE_XN_INV, one / 0.95047);
    EXPECT_EQ(VQ_CIEDE_ZN_INV, one / 1.08883);
    EXPECT_EQ(VQ_CIEDE_THIRD, one / 3.0);
    EXPECT_EQ(VQ_CIEDE_1_25, one / 25.0);
    volatile double b25 = 25, e7 = 7;
    EXPECT_EQ(VQ_CIEDE_25_7, pow(b25, e7));
    volatile float f25 = 25.f, f7 = 7.f;
    EXPECT_EQ(VQ_CIEDE_25_7F, powf(f25, f7));
}

namespace {

/* random planes: uniform samples, or a smooth field with noise (close colors) */
struct RandFrame {
    std::vector<uint8_t> plane[3];
    VqPlaneView view[3];
};

void make_frame(std::mt19937 &rng, int w, int h, int bpc, int ssx, int ssy, int smooth, int pad,
                const RandFrame *base, RandFrame *f)
{
    const int bytes = bpc > 8 ? 2 : 1;
    const uint32_t maxv = (1u << bpc) - 1;
    for (int c = 0; c < 3; c++) {
        const int pw = c ? (w + ssx) >> ssx : w, ph = c ? (h + ssy) >> ssy : h;
        const ptrdiff_t pitch = (ptrdiff_t)pw * bytes + pad;
        f->plane[c].assign((size_t)pitch * ph, 0);
        for (int i = 0; i < ph; i++)
            for (int j = 0; j < pw; j++) {
                uint32_t v;
                if (base) {     /* the base frame plus a little noise */
                    const uint8_t *b = base->plane[c].data() + (size_t)i * pitch + (size_t)j * bytes;
                    const uint32_t bv = bytes == 1 ? b[0] : (uint32_t)(b[0] | (b[1] << 8));
                    const int d = (int)(rng() % 9) - 4;
                    v = (uint32_t)std::min<int64_t>(std::max<int64_t>((int64_t)bv + d, 0), maxv);
                } else if (smooth) {
                    v = (uint32_t)((double)maxv * (0.5 + 0.4 * sin(0.05 * i + 0.7 * c) * cos(0.03 * j)));
                } else {
                    v = rng() & maxv;
                }
                uint8_t *d = f->plane[c].data() + (size_t)i * pitch + (size_t)j * bytes;
                d[0] = (uint8_t)v;
                if (bytes == 2)
                    d[1] = (uint8_t)(v >> 8);
            }
        VqPlaneView &v = f->view[c];
        v.data = f->plane[c].data();
        v.pitch = pitch;
        v.w = pw;
        v.h = ph;
        v.bytes = bytes;
        v.shift = 0;
        v.step = 1;
    }
}

std::string sample_str(const RandFrame &r, const RandFrame &d, const VqCiedeGeom &g, size_t k)
{
    uint32_t s[6];
    vq_ciede_fetch(r.view, d.view, &g, (int)(k / g.w), (int)(k % g.w), s);
    char buf[96];
    snprintf(buf, sizeof(buf), "%u %u %u / %u %u %u", s[0], s[1], s[2], s[3], s[4], s[5]);
    return buf;
}

}  // namespace

/* The device stage + the host's resolution equals the reference per pixel,
 * on random input of many sizes, depths and subsamplings; the folds agree. */
TEST(Ciede, DeviceStageEqualsReferenceRandom)
{
    const unsigned seed = getenv("VQ_SEED") ? (unsigned)atoi(getenv("VQ_SEED")) : 20261201u;
    printf("seed %u (VQ_SEED to repeat)\n", seed);
    std::mt19937 rng(seed);
    static const int fmts[3][2] = { { 1, 1 }, { 1, 0 }, { 0, 0 } };
    static const int depths[4] = { 8, 10, 12, 16 };
    int64_t pixels = 0, listed = 0, two = 0;
    for (int it = 0; it < 48; it++) {
        const int ssx = fmts[it % 3][0], ssy = fmts[it % 3][1], bpc = depths[(it / 3) % 4];
        int w = 8 + (int)(rng() % 120), h = 8 + (int)(rng() % 90);
        char err[256];
        while (vq_ciede_check(w, h, bpc, ssx, ssy, 1, err, sizeof(err)))
            h++;    /* 4:2:0 wants an even height */
        const int mode = (it / 12) % 4;     /* 0 uniform, 1 smooth, 2/3 close pairs */
        RandFrame r, d;
        make_frame(rng, w, h, bpc, ssx, ssy, mode == 1 || mode == 3, (int)(rng() % 3) * 8, nullptr, &r);
        make_frame(rng, w, h, bpc, ssx, ssy, mode == 1, r.view[0].pitch - w * (bpc > 8 ? 2 : 1),
                   mode >= 2 ? &r : nullptr, &d);
        const VqCiedeGeom g = vq_ciede_geom(w, h, ssx, ssy, bpc);
        std::vector<int64_t> cpu(vq_ciede_buffer_words(w, h)), dev(cpu.size(), 0x5A5A5A5A5A5A5A5A);
        std::vector<int64_t> extra(2 * (size_t)w * h, 0x5A5A5A5A5A5A5A5A);
        std::vector<int64_t> cpx((size_t)w * h), dpx((size_t)w * h, 0x5A5A5A5A5A5A5A5A);
        vq_ciede_cpu_run(r.view, d.view, &g, cpu.data(), cpx.data());
        vq_ciede_dev_cpu_run(r.view, d.view, &g, dev.data(), extra.data(), dpx.data());
        for (size_t k = 0; k < (size_t)w * h; k++) {
            float a, b;
            ASSERT_EQ(vq_ciede_word_value(&g, cpu.data(), nullptr, (uint64_t)cpx[k], k, &a, err, sizeof(err)), 0)
                << err;
            ASSERT_EQ(vq_ciede_word_value(&g, dev.data(), extra.data(), (uint64_t)dpx[k], k, &b, err, sizeof(err)),
                      0) << err;
            const uint32_t hi = (uint32_t)((uint64_t)dpx[k] >> 32);
            listed += hi == VQ_CIEDE_TAG_LIST;
            two += hi < 0x7f800000u;
            ASSERT_TRUE(vq_f32_bits(a) == vq_f32_bits(b) || (a != a && b != b))
                << "seed " << seed << " it " << it << " " << w << "x" << h << " bpc " << bpc << " pixel "
                << k << ": " << a << " != " << b << " (word " << std::hex
                << (uint64_t)dpx[k] << std::dec << ", samples " << sample_str(r, d, g, k) << ")";
        }
        /* every special pixel has a list entry */
        int64_t specials = 0;
        for (size_t k = 0; k < (size_t)w * h; k++)
            specials += (uint32_t)((uint64_t)dpx[k] >> 32) != VQ_CIEDE_TAG_EXACT;
        EXPECT_EQ(dev[0], specials);
        double sc, sd, sd2;
        const VqCiedeRowSource cs = { cpx.data(), nullptr, nullptr }, ds = { dpx.data(), nullptr, nullptr };
        ASSERT_EQ(vq_ciede_fold(&g, cpu.data(), nullptr, &cs, &sc, err, sizeof(err)), 0) << err;
        ASSERT_EQ(vq_ciede_fold(&g, dev.data(), extra.data(), &ds, &sd, err, sizeof(err)), 0) << err;
        EXPECT_TRUE(sc == sd || (sc != sc && sd != sd)) << "it " << it;
        /* every row forced to fall back: the pixel words, the specials by position */
        for (int i = 0; i < h; i++)
            dev[VQ_CIEDE_ROW_OFF + VQ_CIEDE_ROW_WORDS * i + 3] = VQ_CIEDE_KEY_FALLBACK;
        int fb = 0;
        ASSERT_EQ(vq_ciede_fold_sum(&g, dev.data(), extra.data(), &ds, &sd2, &fb, err, sizeof(err)), 0) << err;
        EXPECT_EQ(fb, h);
        ASSERT_EQ(vq_ciede_fold(&g, dev.data(), extra.data(), &ds, &sd2, err, sizeof(err)), 0) << err;
        EXPECT_TRUE(sd2 == sd || (sd2 != sd2 && sd != sd)) << "it " << it;
        pixels += (int64_t)w * h;
    }
    printf("%lld pixels: %lld listed for the host, %lld two-candidate\n", (long long)pixels,
           (long long)listed, (long long)two);
}

/* The fold reads list entries past the inline ones from `extra`, and
 * rejects a buffer whose entries were not fetched; entries in any order. */
TEST(Ciede, FoldListOverflow)
{
    std::mt19937 rng(7);
    const int w = 64, h = 48;
    RandFrame r, d;
    make_frame(rng, w, h, 10, 1, 0, 0, 0, nullptr, &r);
    make_frame(rng, w, h, 10, 1, 0, 0, 0, nullptr, &d);
    const VqCiedeGeom g = vq_ciede_geom(w, h, 1, 0, 10);
    std::vector<int64_t> cpu(vq_ciede_buffer_words(w, h)), lst(cpu.size(), 0);
    std::vector<int64_t> cpx((size_t)w * h), lpx((size_t)w * h);
    std::vector<int64_t> extra(2 * (size_t)w * h);
    vq_ciede_cpu_run(r.view, d.view, &g, cpu.data(), cpx.data());
    /* every pixel listed, as the device would in a pathological frame, the
     * list in a scrambled order (the GPU's atomics) */
    std::vector<uint32_t> order((size_t)w * h);
    for (size_t k = 0; k < order.size(); k++)
        order[k] = (uint32_t)k;
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t pos = 0; pos < order.size(); pos++) {
        const uint32_t k = order[pos];
        uint32_t s[6];
        uint64_t e[2];
        vq_ciede_fetch(r.view, d.view, &g, (int)(k / w), (int)(k % w), s);
        vq_ciede_list_entry(s, k, e);
        int64_t *dst = pos < VQ_CIEDE_LIST_INLINE ? &lst[1 + 2 * pos] : &extra[2 * (pos - VQ_CIEDE_LIST_INLINE)];
        dst[0] = (int64_t)e[0];
        dst[1] = (int64_t)e[1];
        lpx[k] = (int64_t)(((uint64_t)VQ_CIEDE_TAG_LIST << 32) | (uint32_t)pos);
    }
    lst[0] = (int64_t)w * h;
    EXPECT_EQ(vq_ciede_extra_entries(lst.data()), (int64_t)w * h - VQ_CIEDE_LIST_INLINE);
    double a, b;
    char err[256];
    const VqCiedeRowSource cs = { cpx.data(), nullptr, nullptr }, ls = { lpx.data(), nullptr, nullptr };
    ASSERT_EQ(vq_ciede_fold(&g, cpu.data(), nullptr, &cs, &a, err, sizeof(err)), 0) << err;
    ASSERT_EQ(vq_ciede_fold(&g, lst.data(), extra.data(), &ls, &b, err, sizeof(err)), 0) << err;
    EXPECT_EQ(a, b);
    EXPECT_NE(vq_ciede_fold(&g, lst.data(), nullptr, &ls, &b, err, sizeof(err)), 0);
    /* an entry twice: rejected */
    lst[3] = lst[1];
    lst[4] = lst[2];
    EXPECT_NE(vq_ciede_fold(&g, lst.data(), extra.data(), &ls, &b, err, sizeof(err)), 0);
}

/* Identical frames: every dE00 is 0, the score +inf (golden: null). */
TEST(Ciede, IdenticalFramesScoreInfinity)
{
    std::mt19937 rng(3);
    RandFrame r;
    make_frame(rng, 40, 30, 8, 1, 1, 0, 0, nullptr, &r);
    const VqCiedeGeom g = vq_ciede_geom(40, 30, 1, 1, 8);
    std::vector<int64_t> buf(vq_ciede_buffer_words(40, 30));
    vq_ciede_dev_cpu_run(r.view, r.view, &g, buf.data(), nullptr, nullptr);
    double s;
    char err[256];
    /* no row needs its pixel words: none given */
    ASSERT_EQ(vq_ciede_fold(&g, buf.data(), nullptr, nullptr, &s, err, sizeof(err)), 0) << err;
    EXPECT_EQ(s, INFINITY);
}

/* A pixel whose two sample triples are equal: the reference's dE00 is +0
 * (docs/ciede.md section 12), and the device stage says so without stage A
 * or B.  Every 8-bit triple (a stride through them), random ones at the
 * other depths, and each depth's corners. */
TEST(Ciede, EqualSamplesAreExactZero)
{
    std::mt19937 rng(20261205u);
    int64_t n = 0;
    auto one = [&](uint32_t y, uint32_t u, uint32_t v, int bpc) {
        const uint32_t s[6] = { y, u, v, y, u, v };
        const float ref = vq_ciede_pixel_ref(s, bpc);
        ASSERT_EQ(vq_f32_bits(ref), 0u) << "bpc " << bpc << " samples " << y << " " << u << " " << v << ": " << ref;
        ASSERT_EQ(vq_ciede_dev_pixel(s, bpc), VQ_CIEDE_WORD_ZERO);
        n++;
    };
    for (uint32_t k = 0; k < (1u << 24); k += 29)
        one(k >> 16, (k >> 8) & 255u, k & 255u, 8);
    for (int bpc : { 8, 10, 12, 16 }) {
        const uint32_t m = (1u << bpc) - 1;
        for (uint32_t c = 0; c < 8; c++)
            one(c & 1 ? m : 0, c & 2 ? m : 0, c & 4 ? m : 0, bpc);
        for (int k = 0; k < 100000; k++)
            one(rng() & m, rng() & m, rng() & m, bpc);
    }
    printf("%lld equal-sample pixels: the reference's dE00 is +0\n", (long long)n);
}

/* Stage A from the table (the CUDA executor at 8 bits): each entry is
 * stage A's Lab or NaN where stage A lists, and the pixel word from two
 * entries is the device stage's own word; random pairs, pairs that differ
 * by a little (where equal Labs of unequal samples occur) and equal ones. */
TEST(Ciede, TableEntriesGiveTheDeviceStagesWord)
{
    std::mt19937 rng(20261206u);
    int64_t listed = 0, n = 0;
    for (int k = 0; k < 300000; k++) {
        uint32_t s[6];
        for (int c = 0; c < 3; c++)
            s[c] = rng() & 255u;
        for (int c = 0; c < 3; c++) {
            const int d = k % 3 == 0 ? (int)(rng() & 255u) - (int)s[c] : k % 3 == 1 ? (int)(rng() % 5) - 2 : 0;
            s[3 + c] = (uint32_t)std::min(255, std::max(0, (int)s[c] + d));
        }
        const VqCiedeLab c1 = vq_ciede_table_entry(vq_ciede_table_index(s[0], s[1], s[2]));
        const VqCiedeLab c2 = vq_ciede_table_entry(vq_ciede_table_index(s[3], s[4], s[5]));
        VqCiedeLab l1;
        const int ok1 = vq_ciede_dev_lab(s[0], s[1], s[2], 8, &l1);
        ASSERT_EQ(ok1, c1.l == c1.l);
        if (ok1) {
            ASSERT_EQ(vq_f32_bits(l1.l), vq_f32_bits(c1.l));
            ASSERT_EQ(vq_f32_bits(l1.a), vq_f32_bits(c1.a));
            ASSERT_EQ(vq_f32_bits(l1.b), vq_f32_bits(c1.b));
        }
        listed += !ok1;
        const uint64_t w = vq_ciede_dev_pixel(s, 8);
        ASSERT_EQ(vq_ciede_dev_pixel_labs(s, c1, c2), w)
            << "samples " << s[0] << " " << s[1] << " " << s[2] << " / " << s[3] << " " << s[4] << " " << s[5];
        n++;
    }
    printf("%lld pixels, %lld triples listed by stage A\n", (long long)n, (long long)listed);
}

/* pow(x, 7) and powf(x, 7) of floats: glibc returns one of the two
 * neighbours of the exact x^7 (tests/ciede_exhaust checks every float). */
TEST(Ciede, Pow7Neighbours)
{
    std::mt19937 rng(11);
    for (int it = 0; it < 2000000; it++) {
        uint32_t u = rng() % 0x7f800000u;
        if (it & 1)
            u = 0x3f000000u + rng() % 0x06000000u;     /* [0.5, 2^12): where C'bar lives */
        const float x = vq_f32_from_bits(u);
        float lo, hi;
        double dlo, dhi;
        vq_ciede_pow7_bounds_f(x, &lo, &hi);
        vq_ciede_pow7_bounds_d(x, &dlo, &dhi);
        const float p = powf(x, 7.0f);
        const double q = pow((double)x, 7.0);
        ASSERT_TRUE(vq_f32_bits(p) == vq_f32_bits(lo) || vq_f32_bits(p) == vq_f32_bits(hi)) << x;
        ASSERT_TRUE(vq_f64_bits(q) == vq_f64_bits(dlo) || vq_f64_bits(q) == vq_f64_bits(dhi)) << x;
        /* hi is lo's successor, or lo itself */
        ASSERT_TRUE(vq_f32_bits(hi) - vq_f32_bits(lo) <= 1 && vq_f64_bits(dhi) - vq_f64_bits(dlo) <= 1) << x;
        /* and they bracket x^7 (checked in long double where it is exact enough) */
        const long double x7 = powl((long double)x, 7.0L);
        if (x7 < 1e30L && x7 > 1e-30L) {
            ASSERT_LE((long double)lo, x7 * (1 + 1e-18L)) << x;
            ASSERT_GE((long double)hi, x7 * (1 - 1e-18L)) << x;
        }
    }
    float lo, hi;
    vq_ciede_pow7_bounds_f(11.0f, &lo, &hi);    /* 11^7 = 19487171: 25 bits, a midpoint */
    EXPECT_EQ(lo, 19487170.0f);
    EXPECT_EQ(hi, 19487172.0f);
    vq_ciede_pow7_bounds_f(2.0f, &lo, &hi);
    EXPECT_EQ(lo, 128.0f);
    EXPECT_EQ(hi, 128.0f);
    vq_ciede_pow7_bounds_f(4e5f, &lo, &hi);     /* overflow: FLT_MAX or inf */
    EXPECT_EQ(vq_f32_bits(lo), 0x7f7fffffu);
    EXPECT_EQ(hi, INFINITY);
    vq_ciede_pow7_bounds_f(1e-30f, &lo, &hi);   /* underflow: 0 or the least subnormal */
    EXPECT_EQ(lo, 0.0f);
    EXPECT_EQ(vq_f32_bits(hi), 1u);
}

/* The approximations behind the enclosures, against glibc, with room. */
TEST(Ciede, ApproximationsWithinMargin)
{
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u01(0.0, 1.0);
    double worst[6] = { 0 };
    auto rel = [](double a, double g) { return g == 0 ? fabs(a) : fabs(a - g) / fabs(g); };
    for (int it = 0; it < 400000; it++) {
        const double x24 = 0.085 + 2.2 * u01(rng), c = 0.0088 + 7.5 * u01(rng);
        const double ang = -40 + 80 * u01(rng), t = -130 * u01(rng);
        const double ay = -300 + 600 * u01(rng), ax = (it & 7) ? -300 + 600 * u01(rng) : 1e-3 * u01(rng);
        const double r[6] = {
            rel(vq_ciede_pow_approx(x24, VQ_CIEDE_GAMMA_EXP), pow(x24, VQ_CIEDE_GAMMA_EXP)),
            rel(vq_ciede_pow_approx(c, VQ_CIEDE_THIRD), pow(c, VQ_CIEDE_THIRD)),
            rel(vq_ciede_sincos_approx(ang, 0), sin(ang)),
            rel(vq_ciede_sincos_approx(ang, 1), cos(ang)),
            rel(vq_ciede_exp_approx(t), exp(t)),
            rel(vq_ciede_atan2_approx((float)ay, (float)ax), atan2((double)(float)ay, (double)(float)ax)),
        };
        for (int k = 0; k < 6; k++)
            worst[k] = std::max(worst[k], r[k]);
    }
    static const char *const name[6] = { "pow 2.4", "pow 1/3", "sin", "cos", "exp", "atan2" };
    for (int k = 0; k < 6; k++) {
        printf("  %-8s worst |approx - glibc| / |glibc| = %.3g (2^%.1f)\n", name[k], worst[k],
               worst[k] > 0 ? log2(worst[k]) : -1100.0);
        EXPECT_LT(worst[k], 0x1p-46) << name[k];
    }
}

namespace {

/* A frame's dE00 values given as an executor gives them: pixel words (exact,
 * or special with a list entry) and row words made by the executors' own
 * helpers.  v[k] is the value of pixel k: the definition of the sum is the
 * plain sequential double sum of v in raster order. */
enum Kind : uint8_t { K_EXACT, K_TWO, K_LISTED };

struct Synth {
    int w = 0, h = 0;
    std::vector<float> v;
    std::vector<uint8_t> kind;
    std::vector<int64_t> buf, px, extra;
};

/* a C'bar whose x^7 lies between two floats, and whether glibc's powf
 * gives the lower one */
float two_cbar(std::mt19937 &rng, bool *lower)
{
    for (;;) {
        const float x = 1.0f + (float)(rng() % 100000) * 0.01f;
        float lo, hi;
        vq_ciede_pow7_bounds_f(x, &lo, &hi);
        if (vq_f32_bits(lo) == vq_f32_bits(hi))
            continue;
        const float p = powf(x, 7.0f);
        *lower = vq_f32_bits(p) == vq_f32_bits(lo);
        return x;
    }
}

/* a two-candidate word that resolves to v (>= 0) */
uint64_t two_word(std::mt19937 &rng, float v)
{
    bool lower;
    const float cbp = two_cbar(rng, &lower);
    const uint32_t b = vq_f32_bits(v);
    const uint32_t lo = lower ? b : ((b + 1) | 0x80000000u);    /* else: one float down from b + 1 */
    return ((uint64_t)vq_f32_bits(cbp) << 32) | lo;
}

/* the buffer, pixel words and list of s (kinds and values set; a listed
 * pixel's value is replaced by the reference's value of random samples) */
void build(Synth &s, std::mt19937 &rng, bool scramble)
{
    const size_t n = (size_t)s.w * s.h;
    s.buf.assign(vq_ciede_buffer_words(s.w, s.h), 0);
    s.px.assign(n, 0);
    std::vector<size_t> special;
    std::vector<uint64_t> ent;
    for (size_t k = 0; k < n; k++) {
        if (s.kind[k] == K_EXACT) {
            s.px[k] = (int64_t)vq_ciede_exact_word(vq_f32_bits(s.v[k]));
            continue;
        }
        uint64_t e[2];
        if (s.kind[k] == K_TWO) {
            const uint64_t word = two_word(rng, s.v[k]);
            s.px[k] = (int64_t)word;
            vq_ciede_two_entry(word, (uint32_t)k, e);
        } else {
            uint32_t smp[6];
            for (int c = 0; c < 6; c++)
                smp[c] = (c % 3 ? 16 : 0) + rng() % 224;
            s.v[k] = vq_ciede_pixel_ref(smp, 8);
            vq_ciede_list_entry(smp, (uint32_t)k, e);
        }
        special.push_back(k);
        ent.push_back(e[0]);
        ent.push_back(e[1]);
    }
    std::vector<size_t> order(special.size());
    for (size_t q = 0; q < order.size(); q++)
        order[q] = q;
    if (scramble)
        std::shuffle(order.begin(), order.end(), rng);
    s.extra.assign(2 * n + 2, 0);
    for (size_t pos = 0; pos < order.size(); pos++) {
        const size_t q = order[pos];
        int64_t *dst = pos < VQ_CIEDE_LIST_INLINE ? &s.buf[1 + 2 * pos] : &s.extra[2 * (pos - VQ_CIEDE_LIST_INLINE)];
        dst[0] = (int64_t)ent[2 * q];
        dst[1] = (int64_t)ent[2 * q + 1];
        if (s.kind[special[q]] == K_LISTED)
            s.px[special[q]] = (int64_t)(((uint64_t)VQ_CIEDE_TAG_LIST << 32) | (uint32_t)pos);
    }
    s.buf[0] = (int64_t)special.size();
    for (int i = 0; i < s.h; i++) {
        VqCiedeRowAcc acc;
        vq_ciede_acc_zero(&acc);
        for (int j = 0; j < s.w; j++)
            vq_ciede_acc_word(&acc, (uint64_t)s.px[(size_t)i * s.w + j]);
        vq_ciede_acc_store(&acc, &s.buf[VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * i]);
    }
}

double seq_sum(const Synth &s)
{
    double sum = 0;
    for (float x : s.v)
        sum += x;
    return sum;
}

/* a fetch source over host pixel words, counting its calls */
struct Fetcher {
    const int64_t *px;
    int w, calls, rows;
};

int fetch_rows(void *ctx, int row0, int nrows, int64_t *dst)
{
    Fetcher *f = (Fetcher *)ctx;
    f->calls++;
    f->rows += nrows;
    memcpy(dst, f->px + (size_t)row0 * f->w, sizeof(int64_t) * (size_t)nrows * f->w);
    return 0;
}

bool same_double(double a, double b)
{
    return vq_f64_bits(a) == vq_f64_bits(b) || (a != a && b != b);
}

/* folds s with host pixel words and through a fetch source; both must give
 * the sequential sum's bits; returns the rows that fell back */
int check_fold(const Synth &s, const char *what)
{
    const VqCiedeGeom g = vq_ciede_geom(s.w, s.h, 0, 0, 8);
    const double want = seq_sum(s);
    char err[256];
    double a = -1, b = -1;
    int fa = -1, fbk = -1;
    const VqCiedeRowSource hs = { s.px.data(), nullptr, nullptr };
    Fetcher f = { s.px.data(), s.w, 0, 0 };
    const VqCiedeRowSource fs = { nullptr, fetch_rows, &f };
    EXPECT_EQ(vq_ciede_fold_sum(&g, s.buf.data(), s.extra.data(), &hs, &a, &fa, err, sizeof(err)), 0)
        << what << ": " << err;
    EXPECT_EQ(vq_ciede_fold_sum(&g, s.buf.data(), s.extra.data(), &fs, &b, &fbk, err, sizeof(err)), 0)
        << what << ": " << err;
    EXPECT_TRUE(same_double(a, want)) << what << ": fold " << a << " (" << std::hexfloat << a
                                      << "), sequential " << want << std::defaultfloat;
    EXPECT_TRUE(same_double(b, want)) << what << ": fold through fetch " << b;
    EXPECT_EQ(fa, fbk) << what;
    /* windows of rows do not overlap; a window of n > 1 rows follows one of
     * n / 2 rows that were all needed */
    EXPECT_LE(f.rows, s.h) << what;
    EXPECT_LE(f.calls, fa) << what;
    EXPECT_LE(f.rows, 3 * fa) << what;
    return fa;
}

float rand_value(std::mt19937 &rng, int mode)
{
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    switch (mode) {
    case 0: return 20.0f * u(rng);                                  /* ordinary */
    case 1: return 0.0f;
    case 2: return ldexpf(1.0f + u(rng), -(int)(rng() % 76) - 4);    /* tiny: 2^-4 .. 2^-80 */
    case 3: return (float)(rng() % 4096) / 8.0f;                    /* dyadic */
    case 4: return ldexpf(1.0f + u(rng), 20 + (int)(rng() % 14));    /* large: up to 2^34 */
    case 5: return vq_f32_from_bits(1 + rng() % 0x7fffffu);                   /* subnormal */
    default: {
        static const float odd[] = { NAN, INFINITY, -1.0f, -0.0f, 0x1p-149f, 0x1p32f, 0x1.fffffep31f, 0x1p-64f,
                                     0x1.000002p-64f, 0x1p-65f };
        return odd[rng() % (sizeof(odd) / sizeof(odd[0]))];
    }
    }
}

}  // namespace

/* The fold equals the plain sequential double sum on random frames: rows of
 * ordinary, zero, tiny, dyadic, large, subnormal and odd values (NaN, inf,
 * negative, -0, 2^32, below 2^-64), some pixels two-candidate or listed,
 * the list scrambled. */
TEST(Ciede, FoldEqualsSequentialSumRandom)
{
    const unsigned seed = getenv("VQ_SEED") ? (unsigned)atoi(getenv("VQ_SEED")) : 20261203u;
    printf("seed %u (VQ_SEED to repeat)\n", seed);
    std::mt19937 rng(seed);
    int64_t rows = 0, fallback = 0, frames_nan = 0;
    for (int it = 0; it < 400; it++) {
        Synth s;
        s.w = 1 + (int)(rng() % (it % 4 == 0 ? 3000 : 300));
        s.h = 1 + (int)(rng() % 40);
        const size_t n = (size_t)s.w * s.h;
        s.v.resize(n);
        s.kind.assign(n, K_EXACT);
        /* per row a mix of modes: ordinary values (with zeros, dyadic ones)
         * in most rows, tiny, large or subnormal ones in some; odd values rare */
        for (int i = 0; i < s.h; i++) {
            static const int mixes[8][4] = { { 0, 0, 0, 1 }, { 0, 1, 1, 3 }, { 0, 3, 3, 1 }, { 0, 0, 1, 1 },
                                             { 0, 1, 2, 3 }, { 0, 4, 1, 0 }, { 3, 1, 5, 0 }, { 0, 1, 2, 4 } };
            const int *mix = mixes[rng() % 8];
            const unsigned rare = rng() % 16 ? 0 : 50 + rng() % 1000;     /* of 10^5 */
            for (int j = 0; j < s.w; j++) {
                int mode = mix[rng() % 4];
                if ((mode == 2 || mode == 4 || mode == 5) && rng() % 100000 >= rare)
                    mode = 0;
                if (rng() % 100000 < (it % 8 == 7 ? 200u : 2u))
                    mode = 6;
                const size_t k = (size_t)i * s.w + j;
                s.v[k] = rand_value(rng, mode);
                const unsigned r = rng() % 1000;
                const bool ok_two = s.v[k] >= 0 && !std::isnan(s.v[k]) && s.v[k] < INFINITY &&
                                    vq_f32_bits(s.v[k]) < 0x7f000000u;
                s.kind[k] = r < 20 && ok_two ? K_TWO : r < 22 ? K_LISTED : K_EXACT;
            }
        }
        build(s, rng, it & 1);
        char what[64];
        snprintf(what, sizeof(what), "seed %u it %d %dx%d", seed, it, s.w, s.h);
        fallback += check_fold(s, what);
        rows += s.h;
        frames_nan += std::isnan(seq_sum(s));
        if (HasFailure())
            return;
    }
    printf("  %lld rows, %lld added pixel by pixel; %lld frames NaN\n", (long long)rows, (long long)fallback,
           (long long)frames_nan);
}

/* A 1920x1080 frame of typical values (0.3 .. 12, three in ten 0), with
 * two-candidate and listed pixels at the given rates per 100000, built. */
Synth typical_1080p(std::mt19937 &rng, unsigned two_per_1e5, unsigned listed_per_1e5)
{
    Synth s;
    s.w = 1920;
    s.h = 1080;
    s.v.resize((size_t)s.w * s.h);
    s.kind.assign(s.v.size(), K_EXACT);
    std::uniform_real_distribution<float> u(0.3f, 12.0f);
    for (size_t k = 0; k < s.v.size(); k++) {
        s.v[k] = rng() % 10 < 3 ? 0.0f : u(rng);
        s.kind[k] = rng() % 100000 < two_per_1e5 ? K_TWO : rng() % 100000 < listed_per_1e5 ? K_LISTED : K_EXACT;
    }
    build(s, rng, true);
    return s;
}

/* Typical values: every row exact, no pixel words needed (none given). */
TEST(Ciede, FoldExactRowsNeedNoPixelWords)
{
    std::mt19937 rng(21);
    Synth s = typical_1080p(rng, 3, 2);
    const VqCiedeGeom g = vq_ciede_geom(s.w, s.h, 0, 0, 8);
    double sum;
    int fb = -1;
    char err[256];
    ASSERT_EQ(vq_ciede_fold_sum(&g, s.buf.data(), nullptr, nullptr, &sum, &fb, err, sizeof(err)), 0) << err;
    EXPECT_EQ(fb, 0);
    EXPECT_EQ(vq_f64_bits(sum), vq_f64_bits(seq_sum(s)));
}

/* A row whose only fine value is a special pixel's: its tz must count.  S
 * = 64 * 2^31 = 2^37 after row 0; row 1 holds integers and one
 * two-candidate (or, second case, listed) pixel of value 1 + 2^-20: the
 * sequential adds round (ulp(2^37) = 2^-15), so the row must fall back. */
TEST(Ciede, FoldSpecialDecidesTz)
{
    std::mt19937 rng(23);
    for (int listed = 0; listed < 2; listed++) {
        Synth s;
        s.w = 64;
        s.h = 2;
        s.v.assign(128, 0x1p31f);
        s.kind.assign(128, K_EXACT);
        for (int j = 0; j < 64; j++)
            s.v[64 + j] = (float)(1 + j % 5);
        s.kind[64 + 17] = listed ? K_LISTED : K_TWO;
        s.v[64 + 17] = 1.0f + 0x1p-20f;
        /* a listed pixel's value is the reference's on random samples: one
         * with low bits (tz < -15), which the adds at 2^37 must round */
        do
            build(s, rng, false);
        while (vq_ciede_tz_float(s.v[64 + 17]) >= -15);
        long double exact = 0;
        for (float x : s.v)
            exact += x;     /* 2^37 + (< 2^9) with bits down to 2^-40: exact in 64 bits */
        const double seq = seq_sum(s);
        ASSERT_NE((long double)seq, exact) << "the case must round";
        EXPECT_EQ(check_fold(s, listed ? "listed special" : "two-candidate special"), 1);
        /* the row words alone (the special excluded) say tz >= 0: exact by them */
        EXPECT_GE(VQ_CIEDE_TZ_BIAS - (int)s.buf[VQ_CIEDE_ROW_OFF + VQ_CIEDE_ROW_WORDS + 3], 0);
    }
}

/* tz(S) counts: S has low bits, the next row integers of 2^31. */
TEST(Ciede, FoldRunningSumDecidesTz)
{
    std::mt19937 rng(29);
    Synth s;
    s.w = 100;
    s.h = 2;
    s.v.assign(200, 0x1p31f);
    s.kind.assign(200, K_EXACT);
    for (int j = 0; j < 100; j++)
        s.v[j] = 0.1f;
    build(s, rng, false);
    long double exact = 0;
    for (float x : s.v)
        exact += x;
    ASSERT_NE((long double)seq_sum(s), exact) << "the case must round";
    EXPECT_EQ(check_fold(s, "tz of S"), 1);
}

/* Wide rows: 2^21 values just below 2^32 in a row (limb sums near 2^53),
 * a row of 2^21 ones, a row of ordinary values. */
TEST(Ciede, FoldWideRows)
{
    std::mt19937 rng(31);
    Synth s;
    s.w = 1 << 21;
    s.h = 3;
    s.v.resize((size_t)3 << 21);
    s.kind.assign(s.v.size(), K_EXACT);
    std::uniform_real_distribution<float> u(0.0f, 20.0f);
    for (size_t j = 0; j < (size_t)s.w; j++) {
        s.v[j] = 0x1.fffffep31f;
        s.v[s.w + j] = 1.0f;
        s.v[2 * (size_t)s.w + j] = u(rng);
    }
    s.kind[5] = K_TWO;
    build(s, rng, false);
    EXPECT_EQ(s.buf[VQ_CIEDE_ROW_OFF + 2], (int64_t)((0xffffffull << 8) * ((1u << 21) - 1)));
    const int fb = check_fold(s, "wide");
    EXPECT_LE(fb, 1);   /* rows 0 and 1 exact; row 2 (tz ~ -20 against S ~ 2^53) falls back */
}

/* NaN and inf: the row and every later one are added pixel by pixel. */
TEST(Ciede, FoldNanInf)
{
    std::mt19937 rng(37);
    for (float odd : { NAN, INFINITY }) {
        Synth s;
        s.w = 50;
        s.h = 6;
        s.v.assign(300, 1.5f);
        s.kind.assign(300, K_EXACT);
        s.v[2 * 50 + 7] = odd;
        build(s, rng, false);
        EXPECT_EQ(check_fold(s, std::isnan(odd) ? "nan" : "inf"), 4);
        const VqCiedeGeom g = vq_ciede_geom(s.w, s.h, 0, 0, 8);
        const VqCiedeRowSource hs = { s.px.data(), nullptr, nullptr };
        double score;
        char err[256];
        ASSERT_EQ(vq_ciede_fold(&g, s.buf.data(), nullptr, &hs, &score, err, sizeof(err)), 0) << err;
        EXPECT_TRUE(std::isnan(odd) ? std::isnan(score) : score == -INFINITY) << score;
    }
    /* a row that needs its pixel words and has none: an error, not a guess */
    Synth s;
    s.w = 4;
    s.h = 1;
    s.v.assign(4, 0x1p-70f);
    s.kind.assign(4, K_EXACT);
    build(s, rng, false);
    const VqCiedeGeom g = vq_ciede_geom(4, 1, 0, 0, 8);
    double sum;
    char err[256];
    EXPECT_NE(vq_ciede_fold_sum(&g, s.buf.data(), nullptr, nullptr, &sum, nullptr, err, sizeof(err)), 0);
}

/* The row words' helpers: tz, fixed point, flags. */
TEST(Ciede, RowWordHelpers)
{
    EXPECT_EQ(vq_ciede_tz_float(1.0f), 0);
    EXPECT_EQ(vq_ciede_tz_float(3.0f), 0);
    EXPECT_EQ(vq_ciede_tz_float(0.75f), -2);
    EXPECT_EQ(vq_ciede_tz_float(0x1p-149f), -149);
    EXPECT_EQ(vq_ciede_tz_float(vq_f32_from_bits(0x00400000u)), -127);
    EXPECT_EQ(vq_ciede_tz_float(0x1.000002p0f), -23);
    EXPECT_EQ(vq_ciede_tz_double(0x1p-1074), -1074);
    EXPECT_EQ(vq_ciede_tz_double(0x1.0000000000001p0), -52);
    EXPECT_EQ(vq_ciede_tz_double(6.0), 1);
    uint64_t l[3];
    int tz = 99;
    EXPECT_EQ(vq_ciede_fix(0.0f, l, &tz), 0);
    EXPECT_EQ(vq_ciede_fix(-0.0f, l, &tz), 0);
    EXPECT_EQ(vq_ciede_fix(NAN, l, &tz), -1);
    EXPECT_EQ(vq_ciede_fix(INFINITY, l, &tz), -1);
    EXPECT_EQ(vq_ciede_fix(-1.0f, l, &tz), -1);
    EXPECT_EQ(vq_ciede_fix(0x1p32f, l, &tz), -1);
    EXPECT_EQ(vq_ciede_fix(0x1p-65f, l, &tz), -1);
    EXPECT_EQ(vq_ciede_fix(0x1.8p-64f, l, &tz), -1);    /* tz -65 */
    ASSERT_EQ(vq_ciede_fix(0x1p-64f, l, &tz), 1);
    EXPECT_EQ(l[0], 1u);
    EXPECT_EQ(l[1] | l[2], 0u);
    EXPECT_EQ(tz, -64);
    ASSERT_EQ(vq_ciede_fix(1.0f, l, &tz), 1);
    EXPECT_EQ(l[0] | l[1], 0u);
    EXPECT_EQ(l[2], 1u);
    ASSERT_EQ(vq_ciede_fix(0x1.fffffep31f, l, &tz), 1);
    EXPECT_EQ(l[2], 0xffffff00u);
    EXPECT_EQ(tz, 8);
    ASSERT_EQ(vq_ciede_fix(0x1.fffffep-33f, l, &tz), 1);     /* m 2^-56 * 2^64 = m << 8: limbs 0, 1 */
    EXPECT_EQ(l[0], 0xffffff00u);
    EXPECT_EQ(l[1], 0u);
    ASSERT_EQ(vq_ciede_fix(0x1.fffffep-17f, l, &tz), 1);     /* m << 24: across limbs 0 and 1 */
    EXPECT_EQ(l[0], 0xff000000u);
    EXPECT_EQ(l[1], 0xffffu);
    EXPECT_EQ(l[2], 0u);
    /* every float: the limbs hold x 2^64 */
    std::mt19937 rng(41);
    for (int it = 0; it < 1000000; it++) {
        const float x = vq_f32_from_bits(rng() % 0x4f800000u);
        if (vq_ciede_fix(x, l, &tz) <= 0)
            continue;
        const long double v = ((long double)l[2] * 0x1p64L + (long double)l[1] * 0x1p32L + (long double)l[0]);
        ASSERT_EQ(v, ldexpl((long double)x, 64)) << x;
        ASSERT_EQ(tz, vq_ciede_tz_float(x));
        ASSERT_TRUE(l[0] < 0x100000000ull && l[1] < 0x100000000ull && l[2] < 0x100000000ull);
    }
}

namespace {

/* the fold before the row words: the sequential sum over every pixel word */
__attribute__((noinline)) double previous_fold(const VqCiedeGeom *g, const int64_t *buf, const int64_t *px)
{
    const size_t n = (size_t)g->w * (size_t)g->h;
    double sum = 0.;
    char err[256];
    for (size_t k = 0; k < n; k++) {
        const uint64_t word = (uint64_t)px[k];
        float v;
        if ((uint32_t)(word >> 32) == VQ_CIEDE_TAG_EXACT) {
            v = vq_f32_from_bits((uint32_t)word);
        } else if (vq_ciede_word_value(g, buf, nullptr, word, k, &v, err, sizeof(err))) {
            return NAN;
        }
        sum += v;
    }
    return sum;
}

}  // namespace

/* The host's share of the GPU path at 1920x1080: the fold of a frame (row
 * words, a few specials) against the previous fold (the sequential double
 * sum of every pixel word), on typical values; and the fold when every row
 * falls back.  Printed, not asserted. */
TEST(Ciede, FoldCost1080p)
{
    std::mt19937 rng(9);
    Synth s = typical_1080p(rng, 1, 1);
    const VqCiedeGeom g = vq_ciede_geom(s.w, s.h, 1, 1, 8);
    const VqCiedeRowSource hs = { s.px.data(), nullptr, nullptr };
    char err[256];
    auto time = [&](auto fn) {
        double best = 1e30, tot = 0;
        for (int it = 0; it < 15; it++) {
            const auto t0 = std::chrono::steady_clock::now();
            fn();
            const double ms = ms_since(t0);
            best = std::min(best, ms);
            tot += ms;
        }
        return std::make_pair(best, tot / 15);
    };
    double s_new = 0, s_old = 0, s_all = 0;
    int fb = -1;
    const auto t_new = time([&] {
        ASSERT_EQ(vq_ciede_fold_sum(&g, s.buf.data(), nullptr, &hs, &s_new, &fb, err, sizeof(err)), 0) << err;
    });
    /* the previous fold: every pixel word in raster order */
    const auto t_old = time([&] { s_old = previous_fold(&g, s.buf.data(), s.px.data()); });
    std::vector<int64_t> forced = s.buf;
    for (int i = 0; i < s.h; i++)
        forced[VQ_CIEDE_ROW_OFF + VQ_CIEDE_ROW_WORDS * i + 3] = VQ_CIEDE_KEY_FALLBACK;
    const auto t_all = time([&] {
        ASSERT_EQ(vq_ciede_fold_sum(&g, forced.data(), nullptr, &hs, &s_all, nullptr, err, sizeof(err)), 0) << err;
    });
    EXPECT_EQ(vq_f64_bits(s_new), vq_f64_bits(s_old));
    EXPECT_EQ(vq_f64_bits(s_all), vq_f64_bits(s_old));
    /* the executors' side on the CPU: the row words of every pixel word */
    const auto t_rows = time([&] {
        for (int i = 0; i < s.h; i++) {
            VqCiedeRowAcc acc;
            vq_ciede_acc_zero(&acc);
            for (int j = 0; j < s.w; j++)
                vq_ciede_acc_word(&acc, (uint64_t)s.px[(size_t)i * s.w + j]);
            vq_ciede_acc_store(&acc, &forced[VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * i]);
        }
    });
    printf("  1920x1080, %lld specials: fold %.3f ms (best of 15; mean %.3f), %d rows pixel by pixel;\n"
           "  previous fold (every pixel word) %.3f ms (mean %.3f); every row forced pixel by pixel %.3f ms;\n"
           "  row words on the CPU %.3f ms\n",
           (long long)s.buf[0], t_new.first, t_new.second, fb, t_old.first, t_old.second, t_all.first,
           t_rows.first);
    /* per listed pixel: the reference on its samples; per two-candidate: one powf */
    uint32_t smp[6] = { 81, 90, 240, 82, 91, 238 };
    auto t0 = std::chrono::steady_clock::now();
    volatile float sink = 0;
    for (int k = 0; k < 20000; k++) {
        smp[0] = 16 + k % 200;
        sink = sink + vq_ciede_pixel_ref(smp, 8);
    }
    const double listed_us = ms_since(t0) * 1000 / 20000;
    t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < 200000; k++)
        sink = sink + powf(40.0f + k * 1e-4f, 7.0f);
    const double powf_ns = ms_since(t0) * 1e6 / 200000;
    printf("  a listed pixel %.2f us, a two-candidate pixel's powf %.1f ns\n", listed_us, powf_ns);
}
