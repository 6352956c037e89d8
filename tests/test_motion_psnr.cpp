/*
 * test_motion_psnr.cpp - integer motion and psnr (CPU executor + host fold)
 * against libvmaf's golden values, on decoded frames.
 *
 * Needs VQ_RAW_DIR (<clip>.yuv, planar, all frames concatenated) and
 * VQ_GOLDEN_DIR (<pair>.json); skips without them.  A few frames per pair
 * by default; VQ_TEST_ALL_FRAMES=1 scores every frame of every pair.
 * Each pair is also read through other views of the same samples: the
 * chroma interleaved as NV12/P010 (step 2, padded pitch) and, for more than
 * 8 bits, every plane MSB-aligned (P010/P016: shift 16 - bpc).
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "clip_table.h"
#include "golden.h"
#include "test_util.h"
#include "motion/motion.h"
#include "motion/motion_exec.h"
#include "motion/motion_fold.h"
#include "psnr/psnr_exec.h"
#include "psnr/psnr_fold.h"
#include "vq_rows.h"

namespace {

using vq_test::env_dir;
using vq_test::file_exists;

struct Pair {
    const char *name, *ref, *dis;
    int w, h, bpc, ssw, ssh;    /* chroma shift (libvmaf: floor sizes) */
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

/* golden per-frame values: frames[i][name] */
using Frames = std::vector<std::map<std::string, double>>;

bool load_golden(const std::string &path, Frames *out)
{
    vq_test::GoldenLog log;
    std::string err;
    const vq_test::GoldenStatus st = vq_test::load_golden(path, &log, &err);
    if (st == vq_test::GoldenStatus::Bad)
        ADD_FAILURE() << err;
    if (st != vq_test::GoldenStatus::Ok)
        return false;
    out->clear();
    for (const vq_test::GoldenMetrics &m : log.frames)
        out->push_back(m.values);
    return true;
}

/* one decoded frame: planes as uint16 samples (8-bit too), planar */
struct Frame {
    int w, h, cw, ch, bpc;
    std::vector<uint16_t> plane[3];
};

bool read_frame(const std::string &path, const Pair &p, int index, Frame *fr)
{
    const int bytes = p.bpc > 8 ? 2 : 1;
    fr->w = p.w;
    fr->h = p.h;
    fr->cw = p.w >> p.ssw;
    fr->ch = p.h >> p.ssh;
    fr->bpc = p.bpc;
    const size_t luma = (size_t)fr->w * fr->h, chroma = (size_t)fr->cw * fr->ch;
    const size_t frame_bytes = (luma + 2 * chroma) * bytes;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return false;
    std::vector<uint8_t> raw(frame_bytes);
    bool ok = fseek(f, (long)(frame_bytes * index), SEEK_SET) == 0 &&
              fread(raw.data(), 1, frame_bytes, f) == frame_bytes;
    fclose(f);
    if (!ok)
        return false;
    size_t off = 0;
    for (int c = 0; c < 3; c++) {
        const size_t n = c ? chroma : luma;
        fr->plane[c].resize(n);
        for (size_t i = 0; i < n; i++)
            fr->plane[c][i] = bytes == 1 ? raw[off + i]
                                         : (uint16_t)(raw[off + 2 * i] | (raw[off + 2 * i + 1] << 8));
        off += n * bytes;
    }
    return true;
}

enum Layout { PLANAR, INTERLEAVED_CHROMA, MSB_ALIGNED };
const char *layout_name(Layout l)
{
    return l == PLANAR ? "planar" : l == INTERLEAVED_CHROMA ? "interleaved-chroma" : "msb-aligned";
}

/* The frame's samples re-stored in one layout, and views onto them. */
struct Stored {
    std::vector<uint8_t> buf[3];
    VqPlaneView view[3];
};

void store(const Frame &fr, Layout lay, Stored *s)
{
    const int bytes = fr.bpc > 8 ? 2 : 1;
    const int shift = lay == MSB_ALIGNED ? 16 - fr.bpc : 0;
    const int pad = 24;     /* pitch larger than the row, as decoders leave it */
    for (int c = 0; c < 3; c++) {
        const int w = c ? fr.cw : fr.w, h = c ? fr.ch : fr.h;
        const bool inter = lay == INTERLEAVED_CHROMA && c > 0;
        const ptrdiff_t pitch = (ptrdiff_t)w * bytes * (inter ? 2 : 1) + pad;
        std::vector<uint8_t> &b = inter ? s->buf[1] : s->buf[c];
        if (!inter || c == 1)
            b.assign((size_t)pitch * h, 0xA5);
        const int step = inter ? 2 : 1, first = inter ? c - 1 : 0;
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                const uint32_t v = (uint32_t)fr.plane[c][(size_t)i * w + j] << shift;
                uint8_t *d = b.data() + (size_t)i * pitch + (size_t)(j * step + first) * bytes;
                if (bytes == 1) {
                    d[0] = (uint8_t)v;
                } else {
                    const uint16_t v16 = (uint16_t)v;
                    memcpy(d, &v16, 2);
                }
            }
        VqPlaneView &v = s->view[c];
        v.data = b.data() + (size_t)first * bytes;
        v.pitch = pitch;
        v.w = w;
        v.h = h;
        v.bytes = bytes;
        v.shift = shift;
        v.step = step;
    }
}

struct Counts {
    int checked = 0, failed = 0;
};

/* Scores frames [0, n) of a pair through one layout; checks `check` frames. */
void run_pair(const Pair &p, Layout lay, int n_frames, bool all, Counts *cnt)
{
    const std::string raw = env_dir("VQ_RAW_DIR"), golden = env_dir("VQ_GOLDEN_DIR");
    const std::string ref_path = raw + "/" + p.ref + ".yuv", dis_path = raw + "/" + p.dis + ".yuv";
    Frames g;
    if (!file_exists(ref_path) || !file_exists(dis_path) || !load_golden(golden + "/" + p.name + ".json", &g)) {
        printf("  %s: raw frames or golden file missing, not checked\n", p.name);
        return;
    }
    const int n = all ? (int)g.size() : std::min(n_frames, (int)g.size());
    std::unique_ptr<VqMotionCpu, void (*)(VqMotionCpu *)> motion(vq_motion_cpu_alloc(p.w, p.h, VQ_MOTION_LAG1),
                                                               vq_motion_cpu_free);
    ASSERT_TRUE(motion);
    VqPsnrLayout pl;
    vq_psnr_layout_init(&pl, p.w, p.h, p.w >> p.ssw, p.h >> p.ssh);
    std::vector<int64_t> rows(VQ_MOTION_WORDS(p.h)), psnr_rows(pl.total);
    for (int i = 0; i < n; i++) {
        Frame fr, fd;
        ASSERT_TRUE(read_frame(ref_path, p, i, &fr)) << p.ref << " frame " << i;
        ASSERT_TRUE(read_frame(dis_path, p, i, &fd)) << p.dis << " frame " << i;
        Stored sr, sd;
        store(fr, lay, &sr);
        store(fd, lay, &sd);
        std::fill(rows.begin(), rows.end(), (int64_t)0x5A5A5A5A5A5A5A5A);  /* catch unwritten rows */
        std::fill(psnr_rows.begin(), psnr_rows.end(), (int64_t)0x5A5A5A5A5A5A5A5A);
        vq_motion_cpu_run(motion.get(), sr.view[0], p.bpc, rows.data());
        vq_psnr_cpu_run(sr.view, sd.view, 3, p.bpc, &pl, psnr_rows.data());

        double sad = vq_motion_sad_score_rows(rows.data(), p.w, p.h, VQ_MOTION_DEFAULT_FPS_WEIGHT,
                                              VQ_MOTION_DEFAULT_MAX_VAL);
        double psnr[3];
        vq_psnr_fold(&pl, psnr_rows.data(), 3, p.bpc, psnr);
        const double want[4] = { g[i]["VMAF_integer_feature_motion_sad_score"], g[i]["psnr_y"],
                                 g[i]["psnr_cb"], g[i]["psnr_cr"] };
        const double got[4] = { sad, psnr[0], psnr[1], psnr[2] };
        static const char *const what[4] = { "motion_sad", "psnr_y", "psnr_cb", "psnr_cr" };
        bool ok = true;
        for (int k = 0; k < 4; k++) {
            EXPECT_EQ(got[k], want[k]) << p.name << " " << layout_name(lay) << " frame " << i << " "
                                       << what[k];
            ok = ok && got[k] == want[k];
        }
        cnt->checked++;
        cnt->failed += !ok;
    }
}

bool have_data()
{
    return !env_dir("VQ_RAW_DIR").empty() && !env_dir("VQ_GOLDEN_DIR").empty();
}

bool all_frames()
{
    const char *v = getenv("VQ_TEST_ALL_FRAMES");
    return v && *v && strcmp(v, "0");
}

}  // namespace

/* The default pairs through planar views: a few frames each, or all. */
TEST(MotionPsnr, GoldenPlanar)
{
    if (!have_data())
        GTEST_SKIP() << "VQ_RAW_DIR or VQ_GOLDEN_DIR not set";
    Counts c;
    const bool all = all_frames();
    for (const Pair &p : pairs()) {
        /* the large clips cost most: two frames (motion needs two) */
        const int n = p.w * p.h > 1000000 ? 2 : 4;
        run_pair(p, PLANAR, n, all, &c);
    }
    printf("motion/psnr planar: %d of %d frames exact\n", c.checked - c.failed, c.checked);
    if (c.checked == 0)
        GTEST_SKIP() << "no pair's raw frames found in VQ_RAW_DIR";
}

/* The chroma interleaved (NV12 / P010 style), read with step 2. */
TEST(MotionPsnr, GoldenInterleavedChroma)
{
    if (!have_data())
        GTEST_SKIP() << "VQ_RAW_DIR or VQ_GOLDEN_DIR not set";
    Counts c;
    const bool all = all_frames();
    for (const Pair &p : pairs()) {
        if (strcmp(p.name, "small36x34") && strcmp(p.name, "birds422p10") &&
            strcmp(p.name, "odd577x323") && strcmp(p.name, "dog1080p10") && !all)
            continue;
        run_pair(p, INTERLEAVED_CHROMA, 3, all, &c);
    }
    printf("motion/psnr interleaved chroma: %d of %d frames exact\n", c.checked - c.failed, c.checked);
    if (c.checked == 0)
        GTEST_SKIP() << "no pair's raw frames found in VQ_RAW_DIR";
}

/* More than 8 bits stored MSB-aligned (P010 / P016), read with a shift. */
TEST(MotionPsnr, GoldenMsbAligned)
{
    if (!have_data())
        GTEST_SKIP() << "VQ_RAW_DIR or VQ_GOLDEN_DIR not set";
    Counts c;
    const bool all = all_frames();
    for (const Pair &p : pairs()) {
        if (p.bpc == 8)
            continue;
        run_pair(p, MSB_ALIGNED, 3, all, &c);
    }
    printf("motion/psnr msb-aligned: %d of %d frames exact\n", c.checked - c.failed, c.checked);
    if (c.checked == 0)
        GTEST_SKIP() << "no high-bit-depth pair's raw frames found in VQ_RAW_DIR";
}

/* The first frame has no previous one: rows 0, score 0, as libvmaf. */
TEST(MotionPsnr, FirstFrameScoresZero)
{
    const int w = 40, h = 35;
    std::vector<uint8_t> pix((size_t)w * h);
    for (size_t i = 0; i < pix.size(); i++)
        pix[i] = (uint8_t)(i * 37 + (i >> 3));
    VqPlaneView v = { pix.data(), w, w, h, 1, 0, 1 };
    std::vector<int64_t> rows(VQ_MOTION_WORDS(h), -1);
    VqMotionCpu *m = vq_motion_cpu_alloc(w, h, VQ_MOTION_LAG1);
    ASSERT_NE(m, nullptr);
    vq_motion_cpu_run(m, v, 8, rows.data());
    for (int i = 0; i < 2 * h; i++)     /* lag 2's rows too: zeros, as it is not asked for */
        EXPECT_EQ(rows[i], 0);
    EXPECT_EQ(vq_motion_sad_score_rows(rows.data(), w, h, 1.0, 10000.0), 0.0);
    /* the same frame again: prev - cur is 0 everywhere */
    std::fill(rows.begin(), rows.end(), -1);
    vq_motion_cpu_run(m, v, 8, rows.data());
    for (int i = 0; i < 2 * h; i++)
        EXPECT_EQ(rows[i], 0);
    vq_motion_cpu_free(m);
    EXPECT_EQ(vq_motion_cpu_alloc(2, 40, VQ_MOTION_LAG1), nullptr);
}

/* vq_motion_vtap32/vfinish32 (the CUDA kernel's vertical pass up to 15 bits)
 * equal the int64 pass: the five-tap windows at the extremes (every sample
 * pair 0/max or max/0, all 32 sign patterns) and random ones, every depth
 * 8..15. */

TEST(MotionPsnr, NarrowVerticalPassEqualsTheWideOne)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    auto rnd = [&s]() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    };
    int checked = 0;
    for (int bpc = 8; bpc <= VQ_MOTION_NARROW_MAX_BPC; bpc++) {
        const uint32_t maxv = (1u << bpc) - 1;
        for (int n = 0; n < 32 + 20000; n++) {
            uint32_t p[5], c[5];
            for (int k = 0; k < 5; k++) {
                if (n < 32) {   /* the extremes: +max or -max per tap */
                    const bool up = (n >> k) & 1;
                    p[k] = up ? maxv : 0;
                    c[k] = up ? 0 : maxv;
                } else {
                    p[k] = (uint32_t)(rnd() % (maxv + 1));
                    c[k] = (uint32_t)(rnd() % (maxv + 1));
                }
            }
            int64_t wide = 0;
            int32_t narrow = 0;
            for (int k = 0; k < 5; k++) {
                vq_motion_vtap(&wide, k, p[k], c[k]);
                vq_motion_vtap32(&narrow, k, p[k], c[k]);
                ASSERT_EQ((int64_t)narrow, wide) << "bpc " << bpc << " tap " << k;
            }
            ASSERT_EQ(vq_motion_vfinish32(narrow, bpc), vq_motion_vfinish(wide, bpc)) << "bpc " << bpc;
            checked++;
        }
        /* all taps at +max and at -max: the largest sums */
        int64_t wide = 0;
        int32_t narrow = 0;
        for (int k = 0; k < 5; k++) {
            vq_motion_vtap(&wide, k, maxv, 0);
            vq_motion_vtap32(&narrow, k, maxv, 0);
        }
        EXPECT_EQ(wide, (int64_t)65536 * maxv);
        EXPECT_EQ(vq_motion_vfinish32(narrow, bpc), vq_motion_vfinish(wide, bpc));
    }
    EXPECT_EQ(checked, 8 * (32 + 20000));
}

/* integer_psnr.c's options in the host fold: init()'s peak and psnr_max,
 * mse, and flush()'s apsnr at its edges (the goldens: opt_psnr) */
TEST(MotionPsnr, PsnrOptionsAndApsnr)
{
    VqPsnrLayout l;
    vq_psnr_layout_init(&l, 64, 36, 32, 18);
    VqPsnrParams pp;
    vq_psnr_params_init(&pp, 10, 1, 0.0, &l, 3);
    EXPECT_EQ(pp.peak, 1020u);                      /* (255 * 1) << 2 */
    EXPECT_EQ(pp.psnr_max[1], 72.0);                /* (6 * bpc) + 12 */
    vq_psnr_params_init(&pp, 10, 0, 0.5, &l, 3);
    EXPECT_EQ(pp.peak, 1023u);
    EXPECT_EQ(pp.psnr_max[0], std::ceil(10. * std::log10(1023.0 * 1023.0 / (0.5 / (64 * 36)))));
    EXPECT_EQ(pp.psnr_max[2], std::ceil(10. * std::log10(1023.0 * 1023.0 / (0.5 / (32 * 18)))));
    vq_psnr_params_init(&pp, 16, 0, 0.0, &l, 1);
    EXPECT_EQ(pp.peak, 65535u);                     /* peak * peak still fits in uint32 */
    /* no error at all: the cap; a plane never summed: -inf (JSON null), as flush() gives */
    EXPECT_EQ(vq_apsnr(255, 0, 1000), std::ceil(10 * std::log10(255.0 * 255.0 * 1000 * 2)));
    EXPECT_TRUE(std::isinf(vq_apsnr(255, 0, 0)) && vq_apsnr(255, 0, 0) < 0);
    EXPECT_EQ(vq_apsnr(255, 65025, 1), 10 * (std::log10(65025.0) + std::log10(1.0) - std::log10(65025.0)));
}
