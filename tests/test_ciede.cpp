/*
 * test_ciede.cpp - ciede2000 (CPU executor + fold, and the device stage run
 * on the CPU + fold) against libvmaf's golden values; the refusals; the
 * device stage against the reference on random input; the constants.
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

#include <math.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ciede.h"
#include "ciede_exec.h"
#include "ciede_fold.h"
#include "json.h"

namespace {

struct Pair {
    const char *name, *ref, *dis;
    int w, h, bpc, ssx, ssy;
};

const Pair kPairs[] = {
    { "dog1080", "dog1080_ref", "dog1080_crf34", 1920, 1080, 8, 1, 1 },
    { "dog1080_self", "dog1080_ref", "dog1080_ref", 1920, 1080, 8, 1, 1 },
    { "birds720", "birds720_ref", "birds720_crf30", 1280, 720, 8, 1, 1 },
    { "balle576", "balle576_ref", "balle576_crf36", 720, 576, 8, 1, 1 },
    { "dog1080p10", "dog1080p10_ref", "dog1080p10_crf30", 1920, 1080, 10, 1, 1 },
    { "dog2160", "dog2160_ref", "dog2160_crf32", 3840, 2160, 8, 1, 1 },
    { "odd577x323", "odd577x323_ref", "odd577x323_dist", 577, 323, 8, 0, 0 },
    { "small36x34", "small36x34_ref", "small36x34_dist", 36, 34, 8, 1, 1 },
    { "checker1080", "checker1080_ref", "checker1080_dist", 1920, 1080, 8, 1, 1 },
    { "dog1080p12", "dog1080p12_ref", "dog1080p12_crf30", 1920, 1080, 12, 1, 1 },
    { "birds422p10", "birds422p10_ref", "birds422p10_dist", 640, 360, 10, 1, 0 },
};

std::string env_dir(const char *var)
{
    const char *v = getenv(var);
    return v && *v ? std::string(v) : std::string();
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

bool load_golden(const std::string &path, Golden *out)
{
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return false;
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        text.append(buf, n);
    fclose(f);
    VqJson *root = nullptr;
    char err[256];
    if (vq_json_parse(text.data(), text.size(), &root, err, sizeof(err)) < 0) {
        ADD_FAILURE() << path << ": " << err;
        return false;
    }
    const VqJson *frames = vq_json_get(root, "frames");
    for (size_t i = 0; frames && i < frames->n; i++) {
        const VqJson *m = vq_json_get(&frames->item[i], "metrics");
        const VqJson *v = m ? vq_json_get(m, "ciede2000") : nullptr;
        out->present.push_back(v != nullptr);
        out->value.push_back(!v ? 0.0 : v->type == VQ_JSON_NULL ? INFINITY : v->number);
    }
    const VqJson *refused = vq_json_get(root, "refused");
    for (size_t i = 0; refused && i < refused->n; i++)
        if (refused->item[i].type == VQ_JSON_STRING && !strcmp(refused->item[i].str, "ciede"))
            out->refused = true;
    vq_json_free(root);
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
    std::vector<int64_t> buf(vq_ciede_buffer_words(p.w, p.h));
    int exact = 0;
    double ms = 0, fold_ms = 0;
    int64_t listed = 0, two = 0;
    for (int i = 0; i < n; i++) {
        ASSERT_TRUE(g.present[i]) << p.name << " frame " << i << " has no ciede2000";
        Frame fr, fd;
        ASSERT_TRUE(read_frame(ref_path, p, i, &fr)) << p.ref << " frame " << i;
        ASSERT_TRUE(read_frame(dis_path, p, i, &fd)) << p.dis << " frame " << i;
        std::fill(buf.begin(), buf.end(), (int64_t)0x5A5A5A5A5A5A5A5A);
        auto t0 = std::chrono::steady_clock::now();
        if (path == CPU_EXEC)
            vq_ciede_cpu_run(fr.view, fd.view, &geom, buf.data());
        else
            vq_ciede_dev_cpu_run(fr.view, fd.view, &geom, buf.data(), nullptr);
        ms += ms_since(t0);
        for (size_t k = 0; k < (size_t)p.w * p.h; k++) {
            const uint32_t hi = (uint32_t)((uint64_t)buf[VQ_CIEDE_PIX_OFF + k] >> 32);
            listed += hi == VQ_CIEDE_TAG_LIST;
            two += hi < 0x7f800000u;
        }
        ASSERT_EQ(vq_ciede_extra_entries(buf.data()), 0);
        double score;
        t0 = std::chrono::steady_clock::now();
        ASSERT_EQ(vq_ciede_fold(&geom, buf.data(), nullptr, &score, err, sizeof(err)), 0) << err;
        fold_ms += ms_since(t0);
        EXPECT_EQ(score, g.value[i]) << p.name << " frame " << i << (path == CPU_EXEC ? " cpu" : " dev");
        exact += score == g.value[i];
    }
    printf("  %-13s %s: %d/%d exact", p.name, path == CPU_EXEC ? "cpu" : "dev", exact, n);
    if (path == DEV_STAGE)
        printf(", per frame %.1f pixels to the host, %.1f two-candidate", (double)listed / n,
               (double)two / n);
    if (env_flag("VQ_CIEDE_TIMING"))
        printf(", %.1f ms/frame executor, %.2f ms/frame fold", ms / n, fold_ms / n);
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
    for (const Pair &p : kPairs)
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
    for (const Pair &p : kPairs)
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
        vq_ciede_cpu_run(r.view, d.view, &g, cpu.data());
        vq_ciede_dev_cpu_run(r.view, d.view, &g, dev.data(), extra.data());
        for (size_t k = 0; k < (size_t)w * h; k++) {
            float a, b;
            ASSERT_EQ(vq_ciede_pixel_value(&g, cpu.data(), nullptr, k, &a, err, sizeof(err)), 0) << err;
            ASSERT_EQ(vq_ciede_pixel_value(&g, dev.data(), extra.data(), k, &b, err, sizeof(err)), 0) << err;
            const uint32_t hi = (uint32_t)((uint64_t)dev[VQ_CIEDE_PIX_OFF + k] >> 32);
            listed += hi == VQ_CIEDE_TAG_LIST;
            two += hi < 0x7f800000u;
            ASSERT_TRUE(vq_f2u(a) == vq_f2u(b) || (a != a && b != b))
                << "seed " << seed << " it " << it << " " << w << "x" << h << " bpc " << bpc << " pixel "
                << k << ": " << a << " != " << b << " (word " << std::hex
                << (uint64_t)dev[VQ_CIEDE_PIX_OFF + k] << std::dec << ", samples " << sample_str(r, d, g, k) << ")";
        }
        double sc, sd;
        ASSERT_EQ(vq_ciede_fold(&g, cpu.data(), nullptr, &sc, err, sizeof(err)), 0) << err;
        ASSERT_EQ(vq_ciede_fold(&g, dev.data(), extra.data(), &sd, err, sizeof(err)), 0) << err;
        EXPECT_TRUE(sc == sd || (sc != sc && sd != sd)) << "it " << it;
        pixels += (int64_t)w * h;
    }
    printf("%lld pixels: %lld listed for the host, %lld two-candidate\n", (long long)pixels,
           (long long)listed, (long long)two);
}

/* The fold reads list entries past the inline ones from `extra`, and
 * rejects a buffer whose entries were not fetched. */
TEST(Ciede, FoldListOverflow)
{
    std::mt19937 rng(7);
    const int w = 64, h = 48;
    RandFrame r, d;
    make_frame(rng, w, h, 10, 1, 0, 0, 0, nullptr, &r);
    make_frame(rng, w, h, 10, 1, 0, 0, 0, nullptr, &d);
    const VqCiedeGeom g = vq_ciede_geom(w, h, 1, 0, 10);
    std::vector<int64_t> cpu(vq_ciede_buffer_words(w, h)), lst(cpu.size());
    std::vector<int64_t> extra(2 * (size_t)w * h);
    vq_ciede_cpu_run(r.view, d.view, &g, cpu.data());
    /* every pixel listed, as the device would in a pathological frame */
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            uint32_t s[6];
            uint64_t e[2];
            const size_t k = (size_t)i * w + j;
            vq_ciede_fetch(r.view, d.view, &g, i, j, s);
            vq_ciede_list_entry(s, (uint32_t)k, e);
            int64_t *dst = k < VQ_CIEDE_LIST_INLINE ? &lst[1 + 2 * k] : &extra[2 * (k - VQ_CIEDE_LIST_INLINE)];
            dst[0] = (int64_t)e[0];
            dst[1] = (int64_t)e[1];
            lst[VQ_CIEDE_PIX_OFF + k] = (int64_t)(((uint64_t)VQ_CIEDE_TAG_LIST << 32) | (uint32_t)k);
        }
    lst[0] = (int64_t)w * h;
    EXPECT_EQ(vq_ciede_extra_entries(lst.data()), (int64_t)w * h - VQ_CIEDE_LIST_INLINE);
    double a, b;
    char err[256];
    ASSERT_EQ(vq_ciede_fold(&g, cpu.data(), nullptr, &a, err, sizeof(err)), 0) << err;
    ASSERT_EQ(vq_ciede_fold(&g, lst.data(), extra.data(), &b, err, sizeof(err)), 0) << err;
    EXPECT_EQ(a, b);
    EXPECT_NE(vq_ciede_fold(&g, lst.data(), nullptr, &b, err, sizeof(err)), 0);
}

/* Identical frames: every dE00 is 0, the score +inf (golden: null). */
TEST(Ciede, IdenticalFramesScoreInfinity)
{
    std::mt19937 rng(3);
    RandFrame r;
    make_frame(rng, 40, 30, 8, 1, 1, 0, 0, nullptr, &r);
    const VqCiedeGeom g = vq_ciede_geom(40, 30, 1, 1, 8);
    std::vector<int64_t> buf(vq_ciede_buffer_words(40, 30));
    vq_ciede_dev_cpu_run(r.view, r.view, &g, buf.data(), nullptr);
    double s;
    char err[256];
    ASSERT_EQ(vq_ciede_fold(&g, buf.data(), nullptr, &s, err, sizeof(err)), 0) << err;
    EXPECT_EQ(s, INFINITY);
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
        const float x = vq_u2f(u);
        float lo, hi;
        double dlo, dhi;
        vq_ciede_pow7_bounds_f(x, &lo, &hi);
        vq_ciede_pow7_bounds_d(x, &dlo, &dhi);
        const float p = powf(x, 7.0f);
        const double q = pow((double)x, 7.0);
        ASSERT_TRUE(vq_f2u(p) == vq_f2u(lo) || vq_f2u(p) == vq_f2u(hi)) << x;
        ASSERT_TRUE(vq_d2u(q) == vq_d2u(dlo) || vq_d2u(q) == vq_d2u(dhi)) << x;
        /* hi is lo's successor, or lo itself */
        ASSERT_TRUE(vq_f2u(hi) - vq_f2u(lo) <= 1 && vq_d2u(dhi) - vq_d2u(dlo) <= 1) << x;
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
    EXPECT_EQ(vq_f2u(lo), 0x7f7fffffu);
    EXPECT_EQ(hi, INFINITY);
    vq_ciede_pow7_bounds_f(1e-30f, &lo, &hi);   /* underflow: 0 or the least subnormal */
    EXPECT_EQ(lo, 0.0f);
    EXPECT_EQ(vq_f2u(hi), 1u);
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

/* The host's share of the GPU path at 1920x1080: the fold of a buffer of
 * exact words (the sequential double sum) and the cost of resolving
 * two-candidate and listed pixels.  Printed, not asserted. */
TEST(Ciede, FoldCost1080p)
{
    const int w = 1920, h = 1080;
    const VqCiedeGeom g = vq_ciede_geom(w, h, 1, 1, 8);
    std::vector<int64_t> buf(vq_ciede_buffer_words(w, h), 0);
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> de(0.0f, 20.0f);
    for (size_t k = 0; k < (size_t)w * h; k++)
        buf[VQ_CIEDE_PIX_OFF + k] = (int64_t)(((uint64_t)VQ_CIEDE_TAG_EXACT << 32) | vq_f2u(de(rng)));
    double best = 1e30, s;
    char err[256];
    for (int it = 0; it < 7; it++) {
        const auto t0 = std::chrono::steady_clock::now();
        ASSERT_EQ(vq_ciede_fold(&g, buf.data(), nullptr, &s, err, sizeof(err)), 0) << err;
        best = std::min(best, ms_since(t0));
    }
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
    printf("  fold of 1920x1080 exact words: %.2f ms (best of 7); a listed pixel %.2f us, "
           "a two-candidate pixel's powf %.1f ns\n", best, listed_us, powf_ns);
}
