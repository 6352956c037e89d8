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
