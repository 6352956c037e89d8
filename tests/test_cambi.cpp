/*
 * test_cambi.cpp - CAMBI: the host tables, each stage against a direct
 * transcription of the reference's in-place loops, the top-k fold against
 * the reference's quick_select, and the CPU executor + fold against
 * libvmaf v3.2.0's golden scores (==) on every frame of every pair.
 *
 * Golden tests read raw frames from $VQ_RAW_DIR/<clip>.yuv and scores from
 * $VQ_GOLDEN_DIR/<pair>.features.json; skipped when either is missing.
 * VQ_CAMBI_FRAMES=N limits each pair to its first N frames (debugging).
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cambi/cambi.h"
#include "cambi/cambi_exec.h"
#include "cambi/cambi_fold.h"
#include "clip_table.h"
#include "golden.h"
#include "vqcuda.h"

namespace {

struct CambiSetup {
    VqCambiParams p;
    std::vector<VqCambiTables> t = std::vector<VqCambiTables>(1);
    VqCambiLayout l;
};

int setup(CambiSetup &s, int w, int h, int bpc, const VqCambiOptions *opt = nullptr)
{
    VqCambiOptions o;
    vq_cambi_default_options(&o);
    if (opt)
        o = *opt;
    char msg[256];
    const int err = vq_cambi_setup(&o, w, h, bpc, 0, &s.p, s.t.data(), msg, sizeof(msg));
    if (!err)
        vq_cambi_layout_init(&s.l, &s.p, 0);
    return err;
}

/* ---- tables ------------------------------------------------------------ */

/* The reference's literal table equals 1.0f / i except at these entries
 * (found by parsing its literals; "%.9g" of the double 1/i rounds across a
 * float midpoint there). */
TEST(CambiTables, ReciprocalTable)
{
    static const int differ[] = { 82,   83,   244,  488,  504,  510,  528,  564,  614,  664,  749,
                                  760,  892,  1419, 1699, 1906, 2040, 2071, 2112, 2223, 2443, 2555,
                                  2740, 2927, 3285, 3515, 3525, 3705, 3795, 3797, 3812, 3837, 3885,
                                  4033, 4080, 4091, 4095, 4130, 4142, 4203, 4218, 4224 };
    std::vector<float> r(VQ_CAMBI_LUT_SIZE);
    vq_cambi_recip_table(r.data());
    EXPECT_EQ(r[0], 0.0f);
    size_t next = 0;
    double sum = 0;
    for (int i = 1; i < VQ_CAMBI_LUT_SIZE; i++) {
        const bool want_differ = next < sizeof(differ) / sizeof(differ[0]) && differ[next] == i;
        if (want_differ) {
            next++;
            EXPECT_NE(r[i], 1.0f / (float)i) << i;
            /* the neighbouring float of 1.0f / i */
            EXPECT_TRUE(r[i] == std::nextafter(1.0f / (float)i, 0.0f) ||
                        r[i] == std::nextafter(1.0f / (float)i, 1.0f)) << i;
        } else {
            EXPECT_EQ(r[i], 1.0f / (float)i) << i;
        }
    }
    for (int i = 0; i < VQ_CAMBI_LUT_SIZE; i++)
        sum += r[i];
    EXPECT_EQ(sum, 8.9261086102342233);   /* the reference table's sum, in order */
    /* quoted literals */
    EXPECT_EQ(r[82], 0.0121951224f);
    EXPECT_EQ(r[3], 0.333333333f);
    EXPECT_EQ(r[4225], 0.000236686391f);
}

/* TVI thresholds of the defaults (bt1886, 0.019, 10-bit limited range):
 * the largest luma whose step of d is still visible, found by brute force
 * over the reference's formula (Python, double precision): 178, 305, 432,
 * 559; stored + num_diffs. */
TEST(CambiTables, DefaultTviAndBand)
{
    CambiSetup s;
    ASSERT_EQ(setup(s, 1920, 1080, 8), 0);
    EXPECT_EQ(s.p.num_diffs, 4);
    EXPECT_EQ(s.p.tvi_for_diff[0], 178 + 4);
    EXPECT_EQ(s.p.tvi_for_diff[1], 305 + 4);
    EXPECT_EQ(s.p.tvi_for_diff[2], 432 + 4);
    EXPECT_EQ(s.p.tvi_for_diff[3], 559 + 4);
    EXPECT_EQ(s.p.vlt_luma, 0);
    EXPECT_EQ(s.p.band_base, 0);
    EXPECT_EQ(s.p.band_size, 564);
    EXPECT_EQ(s.p.diff_weights[0], 1);
    EXPECT_EQ(s.p.diff_weights[3], 4);
    EXPECT_EQ(s.p.antidither, 1);
    CambiSetup s10;
    ASSERT_EQ(setup(s10, 1920, 1080, 10), 0);
    EXPECT_EQ(s10.p.antidither, 0);
}

/* window: ((65 * (w + h)) / 375 >> 4) | 1; mask index:
 * (49 + 3 * (ceil_log2((w >> 6) * (h >> 6)) - 11) - 1) >> 1; top-k count
 * (int)(0.6 * n) */
TEST(CambiTables, WindowMaskIndexTopk)
{
    struct {
        int w, h, window, mask_index;
    } cases[] = { { 3840, 2160, 65, 24 }, { 1920, 1080, 33, 21 }, { 1280, 720, 21, 19 },
                  { 720, 576, 15, 18 },   { 640, 360, 11, 16 },   { 577, 323, 9, 16 },
                  { 216, 100, 3, 10 } };
    for (auto &c : cases) {
        CambiSetup s;
        ASSERT_EQ(setup(s, c.w, c.h, 8), 0) << c.w << "x" << c.h;
        EXPECT_EQ(s.p.window, c.window) << c.w;
        EXPECT_EQ(s.p.pad, c.window / 2) << c.w;
        EXPECT_EQ(s.p.mask_index, c.mask_index) << c.w;
        EXPECT_EQ(s.p.pixels_in_window, c.window * c.window) << c.w;
        int sw = c.w, sh = c.h;
        for (int k = 0; k < VQ_CAMBI_SCALES; k++) {
            EXPECT_EQ(s.p.sw[k], sw);
            EXPECT_EQ(s.p.sh[k], sh);
            EXPECT_EQ(s.p.topk_count[k], (int)(0.6 * sw * sh));
            sw = (sw + 1) / 2;
            sh = (sh + 1) / 2;
        }
    }
}

/* ---- refusals ---------------------------------------------------------- */

TEST(CambiCheck, SizeRefusals)
{
    VqCambiOptions o;
    vq_cambi_default_options(&o);
    char msg[256] = "";
    EXPECT_EQ(vq_cambi_check(&o, 36, 34, 8, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_NE(strstr(msg, "216"), nullptr) << msg;
    EXPECT_EQ(vq_cambi_check(&o, 215, 215, 8, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_EQ(vq_cambi_check(&o, 216, 215, 8, msg, sizeof(msg)), 0) << msg;
    EXPECT_EQ(vq_cambi_check(&o, 215, 216, 8, msg, sizeof(msg)), 0) << msg;
    EXPECT_EQ(vq_cambi_check(&o, 577, 323, 8, msg, sizeof(msg)), 0) << msg;
    /* a very wide strip: scale 4 is 2 rows high, the window's half width 10 */
    EXPECT_EQ(vq_cambi_check(&o, 1920, 32, 8, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_NE(strstr(msg, "outside"), nullptr) << msg;
    o.window_size = 127;   /* adjusts to 127 at 4K: beyond the reciprocal table */
    EXPECT_EQ(vq_cambi_check(&o, 3840, 2160, 8, msg, sizeof(msg)), VQ_EINVAL);
    vq_cambi_default_options(&o);
    o.eotf = "srgb";
    EXPECT_EQ(vq_cambi_check(&o, 1920, 1080, 8, msg, sizeof(msg)), VQ_EINVAL);
    o.eotf = "pq";
    EXPECT_EQ(vq_cambi_check(&o, 1920, 1080, 8, msg, sizeof(msg)), 0) << msg;
}

/* ---- stages against the reference's in-place loops --------------------- */

std::vector<uint16_t> random_image(std::mt19937 &rng, int w, int h, int levels, int base)
{
    std::vector<uint16_t> img((size_t)w * h);
    /* smooth ramps with few levels, so that equal neighbours are common */
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            img[(size_t)i * w + j] =
                (uint16_t)(base + ((i / 3 + j / 5) % levels) + (rng() % 8 == 0 ? rng() % 3 : 0));
    return img;
}

TEST(CambiStages, AntiDitherEqualsInPlace)
{
    std::mt19937 rng(7);
    for (int it = 0; it < 20; it++) {
        const int w = 1 + (int)(rng() % 40), h = 1 + (int)(rng() % 40);
        std::vector<uint16_t> img = random_image(rng, w, h, 1023, 0), ref = img;
        /* the reference: rows top-down, each pixel from itself, right, below */
        for (int i = 0; i + 1 < h; i++) {
            for (int j = 0; j + 1 < w; j++)
                ref[i * w + j] = (ref[i * w + j] + ref[i * w + j + 1] + ref[(i + 1) * w + j] +
                                  ref[(i + 1) * w + j + 1]) >> 2;
            ref[i * w + w - 1] = (ref[i * w + w - 1] + ref[(i + 1) * w + w - 1]) >> 1;
        }
        for (int j = 0; j + 1 < w; j++)
            ref[(h - 1) * w + j] = (ref[(h - 1) * w + j] + ref[(h - 1) * w + j + 1]) >> 1;
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++)
                ASSERT_EQ(vq_cambi_antidither_at(img.data(), w, w, h, i, j), ref[i * w + j]);
    }
}

TEST(CambiStages, ModeFilterEqualsInPlace)
{
    std::mt19937 rng(8);
    for (int it = 0; it < 30; it++) {
        const int w = 1 + (int)(rng() % 30), h = 1 + (int)(rng() % 30);
        std::vector<uint16_t> img((size_t)w * h);
        for (auto &v : img)
            v = (uint16_t)(rng() % 4);
        std::vector<uint16_t> ref = img, buf(3 * (size_t)w);
        /* the reference: 3 cyclic lines of horizontal modes, row i-1 written
         * once line i is read */
        int cur = 0;
        for (int i = 0; i < h; i++) {
            buf[cur * w] = ref[i * w];
            for (int j = 1; j < w - 1; j++)
                buf[cur * w + j] = vq_cambi_mode3(ref[i * w + j - 1], ref[i * w + j], ref[i * w + j + 1]);
            buf[cur * w + w - 1] = ref[i * w + w - 1];
            if (i > 1)
                for (int j = 0; j < w; j++)
                    ref[(i - 1) * w + j] = vq_cambi_mode3(buf[j], buf[w + j], buf[2 * w + j]);
            cur = cur + 1 == 3 ? 0 : cur + 1;
        }
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++)
                ASSERT_EQ(vq_cambi_mode_at(img.data(), w, w, h, i, j), ref[i * w + j])
                    << w << "x" << h << " at " << i << "," << j;
    }
    /* mode3 is symmetric */
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++) {
                const uint16_t m = vq_cambi_mode3(a, b, c);
                EXPECT_EQ(m, vq_cambi_mode3(b, a, c));
                EXPECT_EQ(m, vq_cambi_mode3(c, b, a));
                EXPECT_EQ(m, vq_cambi_mode3(a, c, b));
            }
}

TEST(CambiStages, LowbitAndFixed)
{
    EXPECT_EQ(vq_cambi_lowbit_exp(vq_f32_bits(1.0f)), 0);
    EXPECT_EQ(vq_cambi_lowbit_exp(vq_f32_bits(0.5f)), -1);
    EXPECT_EQ(vq_cambi_lowbit_exp(vq_f32_bits(12.0f)), 2);
    EXPECT_EQ(vq_cambi_lowbit_exp(vq_f32_bits(1.0f / 3.0f)), -25);
    EXPECT_EQ(vq_cambi_fixed32(vq_f32_bits(1.0f)), 1ull << 32);
    EXPECT_EQ(vq_cambi_fixed32(vq_f32_bits(9506.25f)), (uint64_t)(9506.25 * 4294967296.0));
    const float t = 2.0f / 3.0f;
    EXPECT_EQ((double)vq_cambi_fixed32(vq_f32_bits(t)), std::ldexp((double)t, 32));
}

/* The CPU's row words (selects the compiler vectorises) equal the count,
 * vq_cambi_fixed32 sum and vq_cambi_lowbit_exp minimum taken one by one:
 * every exponent with mantissas 0, 1, all ones and random ones, against T
 * of 0, of values inside the row and of the largest bits. */
TEST(CambiCpu, RowWords)
{
    std::mt19937 rng(29);
    std::vector<uint32_t> bits;
    for (uint32_t e = 0; e < 256; e++)
        for (uint32_t m : { 0u, 1u, 0x7fffffu, 0x400000u, (uint32_t)rng() & 0x7fffffu, (uint32_t)rng() & 0x7fffffu })
            bits.push_back(e << 23 | m);
    for (int i = 0; i < 4000; i++)      /* c-value-like: 0 often, else below 2^14 */
        bits.push_back(i % 3 ? 0u : vq_f32_bits((float)(rng() % 100000) / 7.0f));
    std::shuffle(bits.begin(), bits.end(), rng);
    std::vector<float> row(bits.size());
    for (size_t j = 0; j < bits.size(); j++)
        memcpy(&row[j], &bits[j], sizeof(float));
    for (uint32_t tb : { 0u, bits[17], bits[400], bits[2000], 0x46000000u, 0x7fffffffu, 0xffffffffu }) {
        for (int n : { 0, 1, 31, 257, (int)row.size() }) {
            int64_t cnt = 0;
            uint64_t sum = 0;
            int minexp = VQ_CAMBI_NONE_EXP;
            for (int j = 0; j < n; j++)
                if (bits[(size_t)j] > tb) {
                    cnt++;
                    sum += vq_cambi_fixed32(bits[(size_t)j]);
                    minexp = std::min(minexp, vq_cambi_lowbit_exp(bits[(size_t)j]));
                }
            int64_t out[VQ_CAMBI_ROW_WORDS] = {};
            vq_cambi_row_words(row.data(), n, tb, out);
            EXPECT_EQ(out[VQ_CAMBI_ROW_COUNT], cnt) << tb << " " << n;
            EXPECT_EQ((uint64_t)out[VQ_CAMBI_ROW_SUM], sum) << tb << " " << n;
            EXPECT_EQ(out[VQ_CAMBI_ROW_MINEXP], minexp) << tb << " " << n;
        }
    }
}

/* The fold's top-k mean (exact-sum shortcut) equals the reference's
 * quick_select + sequential sum, on c-value-like data. */
TEST(CambiFold, WordsEqualQuickSelect)
{
    std::mt19937 rng(11);
    std::vector<float> recip(VQ_CAMBI_LUT_SIZE);
    vq_cambi_recip_table(recip.data());
    int exact = 0;
    for (int it = 0; it < 200; it++) {
        const int n = 1 + (int)(rng() % 5000);
        const double topk = it % 3 ? 0.6 : (rng() % 1000 + 1) / 1000.0;
        std::vector<float> cv(n);
        const int zeros = (int)(rng() % 100);
        for (auto &v : cv) {
            if ((int)(rng() % 100) < zeros) {
                v = 0.0f;
                continue;
            }
            const int w = 1 + (int)(rng() % 4), p0 = 1 + (int)(rng() % 300), p1 = 1 + (int)(rng() % 300);
            v = (float)(w * p0 * p1) * recip[p0 + p1];
        }
        const int kk = (int)(topk * n);
        const int k = kk < 1 ? 1 : (kk > n ? n : kk);
        /* the words an executor writes, for one row holding everything */
        std::vector<uint32_t> b(n);
        for (int x = 0; x < n; x++)
            b[x] = vq_f32_bits(cv[x]);
        std::vector<uint32_t> sorted = b;
        std::sort(sorted.begin(), sorted.end(), std::greater<uint32_t>());
        const uint32_t tb = sorted[k - 1];
        int64_t cnt = 0;
        uint64_t sum = 0;
        int minexp = VQ_CAMBI_NONE_EXP;
        for (uint32_t x : b)
            if (x > tb) {
                cnt++;
                sum += vq_cambi_fixed32(x);
                minexp = std::min(minexp, vq_cambi_lowbit_exp(x));
            }
        VqCambiParams p;
        memset(&p, 0, sizeof(p));
        for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
            p.sw[s] = n;
            p.sh[s] = 1;
            p.topk_count[s] = k;
        }
        p.pixels_in_window = 1;
        p.max_val = 1e300;
        VqCambiLayout l;
        vq_cambi_layout_init(&l, &p, 0);
        std::vector<int64_t> words(l.total);
        for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
            words[l.sel_off[s]] = tb;
            words[l.row_off[s] + VQ_CAMBI_ROW_COUNT] = cnt;
            words[l.row_off[s] + VQ_CAMBI_ROW_SUM] = (int64_t)sum;
            words[l.row_off[s] + VQ_CAMBI_ROW_MINEXP] = minexp;
        }
        const double mean = vq_cambi_topk_mean_reference(cv.data(), n, k);
        double want = 0.0;   /* the score's weighting, as the reference adds it */
        for (int wgt : { 16, 8, 4, 2, 1 })
            want += mean * wgt;
        const unsigned need = vq_cambi_fold_needs_cvalues(&p, &l, words.data());
        if (!need) {
            exact++;
            const double got = vq_cambi_fold(&p, &l, words.data(), nullptr);
            EXPECT_EQ(got, want) << "n " << n << " k " << k;
        }
        const float *cvs[VQ_CAMBI_SCALES] = { cv.data(), cv.data(), cv.data(), cv.data(), cv.data() };
        EXPECT_EQ(vq_cambi_fold(&p, &l, words.data(), cvs), want);
    }
    EXPECT_GT(exact, 150);
}

/* ---- options: libvmaf v3.2.0's cambi.c itself, C path ------------------- */

/*
 * Scores of the first two frames with non-default options, from the
 * reference's own cambi.c (C path: ARCH_X86 0) compiled into a small
 * driver that calls its init/extract directly (the vmaf tool's option
 * parsing skipped).  With full_ref: cambi, cambi_source, cambi_full_reference.
 * src=SRC: the pair's reference clip is the source picture.
 */
struct OracleCase {
    const char *clip;
    const char *opts;
    std::vector<std::vector<double>> frames;
};

struct OracleClip {
    const char *key, *dis, *ref;
    int w, h, bpc;
    size_t chroma_bytes;   /* per frame, to step over */
};

/* a pair of tests/data/clips.tsv under this test's short key */
OracleClip oracle_clip(const char *key, const char *pair)
{
    const vq_test::ClipRow &c = vq_test::clip(pair);
    return { key, c.dis.c_str(), c.ref.c_str(), c.w, c.h, c.bpc, 2 * (size_t)c.cw() * c.ch() * c.bytes() };
}

const OracleClip oracle_clips[] = {
    oracle_clip("odd", "odd577x323"),
    oracle_clip("b422", "birds422p10"),
    oracle_clip("p12", "dog1080p12"),
    oracle_clip("d1080", "dog1080"),
};

const OracleCase oracle_cases[] = {
    { "odd", "encw=400 ench=200", { { 0.00063003663003663012 }, { 0.00031397174254317112 } } },
    { "odd", "encbd=10", { { 0.0084567419302997351 }, { 0.0087220698083469734 } } },
    { "odd", "ws=15", { { 0.00064146692980143565 }, { 0.00049520272361497993 } } },
    { "odd", "ws=127", { { 0.00030151393109380996 }, { 0.0001418964602792073 } } },
    { "odd", "topk=0.01", { { 0.013607097411320669 }, { 0.010217113665389528 } } },
    { "odd", "topk=0.5 ctpk=0.2", { { 0.00026867871030116544 }, { 0.00019805902158843337 } } },
    { "odd", "tvit=0.001", { { 0.88129674079393094 }, { 0.75445340229673863 } } },
    { "odd", "vlt=10", { { 0.00013678784270779816 }, { 0.00016506757453832663 } } },
    { "odd", "vlt=100", { { 0 }, { 0 } } },
    { "odd", "mlc=0", { { 0 }, { 0 } } },
    { "odd", "mlc=3", { { 0.25243602929696257 }, { 0.18906597799541486 } } },
    { "odd", "mlc=5", { { 0.3355585884952143 }, { 0.24741593032820303 } } },
    { "odd", "eotf=pq", { { 0.87978805947807714 }, { 0.75311097263065052 } } },
    { "odd", "ceot=pq", { { 0.87978805947807714 }, { 0.75311097263065052 } } },
    { "odd", "cmxv=0.0001", { { 0.0001 }, { 0.0001 } } },
    { "odd", "fullref=1 src=SRC srcw=400 srch=220", { { 0.00022390684092740357, 0.0017619342177945696, 0 }, { 0.00016506757453832663, 0.00097535120850054241, 0 } } },
    { "odd", "encbd=8", { { 0.00022390684092740357 }, { 0.00016506757453832663 } } },
    { "odd", "topk=0.0001", { { 0.84262740366743416 }, { 0.07407407407407407 } } },
    { "odd", "vlt=50 mlc=5", { { 0.32699657036228336 }, { 0.24237022427128566 } } },
    { "b422", "encw=400 ench=200", { { 0.0015977673228656601 }, { 0.0027358601109511191 } } },
    { "b422", "encbd=10", { { 0.010176645809355763 }, { 0.0060666290363481905 } } },
    { "b422", "ws=15", { { 0.013888582930643371 }, { 0.017015367763149949 } } },
    { "b422", "ws=127", { { 0.0044405236016459466 }, { 0.0028828007081026807 } } },
    { "b422", "topk=0.01", { { 0.56055568543128498 }, { 0.35171416864360111 } } },
    { "b422", "topk=0.5 ctpk=0.2", { { 0.012211974971226914 }, { 0.00727995484361783 } } },
    { "b422", "tvit=0.001", { { 1.1136116209658184 }, { 0.96437130201673327 } } },
    { "b422", "vlt=10", { { 0.0084457332015686407 }, { 0.0055428803408508094 } } },
    { "b422", "vlt=100", { { 0 }, { 0 } } },
    { "b422", "mlc=0", { { 0 }, { 0 } } },
    { "b422", "mlc=3", { { 0.53935118625559619 }, { 0.46741628284464082 } } },
    { "b422", "mlc=5", { { 0.72360844101319399 }, { 0.64597678671553027 } } },
    { "b422", "eotf=pq", { { 1.1136116209658184 }, { 0.96437130201673327 } } },
    { "b422", "ceot=pq", { { 1.1136116209658184 }, { 0.96437130201673327 } } },
    { "b422", "cmxv=0.0001", { { 0.0001 }, { 0.0001 } } },
    { "b422", "fullref=1 src=SRC srcw=400 srch=220", { { 0.010176645809355763, 0.011285449443051772, 0 }, { 0.0060666290363481905, 0.0095422615810316445, 0 } } },
    { "b422", "encbd=8", { { 0.00062309546377222532 }, { 8.0958908971536542e-05 } } },
    { "b422", "topk=0.0001", { { 6.8799780426888937 }, { 4.1536956411705059 } } },
    { "b422", "vlt=50 mlc=5", { { 0.69992553730653817 }, { 0.62951881666595055 } } },
    { "p12", "hrs=1080", { { 1.1255089266096605 }, { 1.1396391676626969 } } },
    { "p12", "encw=1280 ench=720", { { 0.88406831250897377 }, { 0.87712042870622131 } } },
    { "d1080", "fullref=1 src=SRC srcw=1280 srch=720", { { 5.4731910131010251, 3.6838596987448016, 1.7893313143562235 }, { 5.3562590471128964, 3.2378666569808647, 2.1183923901320316 } } },
};

void parse_options(const std::string &spec, VqCambiOptions *o, std::vector<std::string> &keep)
{
    keep.reserve(16);
    size_t pos = 0;
    while (pos < spec.size()) {
        size_t end = spec.find(' ', pos);
        if (end == std::string::npos)
            end = spec.size();
        const std::string kv = spec.substr(pos, end - pos);
        pos = end + 1;
        const size_t eq = kv.find('=');
        if (eq == std::string::npos)
            continue;
        const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
        keep.push_back(v);
        const char *vs = keep.back().c_str();
        if (k == "encw") o->enc_width = atoi(vs);
        else if (k == "ench") o->enc_height = atoi(vs);
        else if (k == "encbd") o->enc_bitdepth = atoi(vs);
        else if (k == "srcw") o->src_width = atoi(vs);
        else if (k == "srch") o->src_height = atoi(vs);
        else if (k == "ws") o->window_size = atoi(vs);
        else if (k == "topk") o->topk = atof(vs);
        else if (k == "ctpk") o->cambi_topk = atof(vs);
        else if (k == "tvit") o->tvi_threshold = atof(vs);
        else if (k == "vlt") o->cambi_vis_lum_threshold = atof(vs);
        else if (k == "mlc") o->max_log_contrast = atoi(vs);
        else if (k == "eotf") o->eotf = vs;
        else if (k == "ceot") o->cambi_eotf = vs;
        else if (k == "hrs") o->cambi_high_res_speedup = atoi(vs);
        else if (k == "cmxv") o->cambi_max_val = atof(vs);
        else if (k == "fullref") o->full_ref = atoi(vs);
    }
}

bool read_luma(const std::string &path, size_t frame, size_t luma, size_t chroma,
               std::vector<uint8_t> &buf)
{
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return false;
    buf.resize(luma);
    const bool ok = fseek(f, (long)(frame * (luma + chroma)), SEEK_SET) == 0 &&
                    fread(buf.data(), 1, luma, f) == luma;
    fclose(f);
    return ok;
}

TEST(CambiOptions, EqualReferenceCambiC)
{
    const char *raw_dir = getenv("VQ_RAW_DIR");
    if (!raw_dir)
        GTEST_SKIP() << "VQ_RAW_DIR not set";
    int checked = 0;
    for (const OracleCase &oc : oracle_cases) {
        const OracleClip *clip = nullptr;
        for (const OracleClip &c : oracle_clips)
            if (!strcmp(c.key, oc.clip))
                clip = &c;
        ASSERT_NE(clip, nullptr);
        VqCambiOptions o;
        vq_cambi_default_options(&o);
        std::vector<std::string> keep;
        parse_options(oc.opts, &o, keep);
        char msg[256];
        ASSERT_EQ(vq_cambi_check(&o, clip->w, clip->h, clip->bpc, msg, sizeof(msg)), 0)
            << oc.opts << ": " << msg;
        const int passes = o.full_ref ? 2 : 1;
        CambiSetup st[2];
        VqCambiCpu *cpu[2] = { nullptr, nullptr };
        for (int k = 0; k < passes; k++) {
            ASSERT_EQ(vq_cambi_setup(&o, clip->w, clip->h, clip->bpc, k, &st[k].p, st[k].t.data(),
                                     msg, sizeof(msg)), 0) << msg;
            vq_cambi_layout_init(&st[k].l, &st[k].p, 0);
            cpu[k] = vq_cambi_cpu_alloc(&st[k].p);
        }
        const int bytes = clip->bpc > 8 ? 2 : 1;
        const size_t luma = (size_t)clip->w * clip->h * bytes;
        for (size_t f = 0; f < oc.frames.size(); f++) {
            double unclipped[2];
            bool have = true;
            for (int k = 0; k < passes && have; k++) {
                std::vector<uint8_t> buf;
                const std::string file = std::string(raw_dir) + "/" + (k ? clip->ref : clip->dis) + ".yuv";
                have = read_luma(file, f, luma, clip->chroma_bytes, buf);
                if (!have)
                    break;
                const VqPlaneView v = { buf.data(), (ptrdiff_t)clip->w * bytes, clip->w, clip->h, bytes, 0, 1 };
                std::vector<int64_t> words(st[k].l.total);
                ASSERT_EQ(vq_cambi_cpu_run(cpu[k], &st[k].p, st[k].t.data(), v, &st[k].l, words.data()), 0);
                const float *cvs[VQ_CAMBI_SCALES];
                for (int s = 0; s < VQ_CAMBI_SCALES; s++)
                    cvs[s] = vq_cambi_cpu_cvalues(cpu[k], s);
                unclipped[k] = vq_cambi_fold_unclipped(&st[k].p, &st[k].l, words.data(), cvs);
                /* the clipped fold is the unclipped one through cambi_max_val */
                EXPECT_EQ(vq_cambi_fold(&st[k].p, &st[k].l, words.data(), cvs),
                          std::min(unclipped[k], o.cambi_max_val));
            }
            if (!have)
                break;
            const std::vector<double> &want = oc.frames[f];
            EXPECT_EQ(std::min(unclipped[0], o.cambi_max_val), want[0]) << oc.clip << " [" << oc.opts << "] frame " << f;
            if (passes == 2) {
                ASSERT_EQ(want.size(), 3u);
                EXPECT_EQ(std::min(unclipped[1], o.cambi_max_val), want[1]) << oc.opts << " source";
                EXPECT_EQ(vq_cambi_full_reference(unclipped[0], unclipped[1], o.cambi_max_val), want[2])
                    << oc.opts << " full reference";
            }
            checked++;
        }
        for (int k = 0; k < passes; k++)
            vq_cambi_cpu_free(cpu[k]);
    }
    printf("[cambi] options: %d frame scores checked against cambi.c\n", checked);
}

/* ---- the CUDA executor's algorithms, emulated on the host ---------------- */

long g_trimmed_rows = 0;   /* rows the emulated blocks skipped (the tests check some are) */
int g_slot_cap = 0;        /* the compact kernels' slots (cvalue_slots_cap); 0: the full kernels alone */
long g_compact_blocks = 0, g_full_blocks = 0;   /* blocks each kernel did, with a cap */

/*
 * cuda_cambi.cu's cvalue_slots: every band row held by a pixel of rows
 * [r0 - pad, r1 + pad) (clipped) and the staged columns c0 .. c0 + span - 1
 * gets a slot, in band-row order (slot[v], -1: none).  Returns how many.
 * With g_slot_cap, a block holding at most that many runs the compact
 * kernel (its histograms' rows are slots), else the full one.
 */
bool emulate_slots(const std::function<int(int, int)> &band_row, int band, int r0, int r1, int pad, int sh,
                   int c0, int span, std::vector<int> &slot)
{
    if (!g_slot_cap)
        return false;
    std::vector<char> held(band, 0);
    for (int r = std::max(0, r0 - pad); r < std::min(sh, r1 + pad); r++)
        for (int q = 0; q < span; q++) {
            const int v = band_row(r, c0 + q);
            if (v >= 0)
                held[v] = 1;
        }
    int n = 0;
    slot.assign(band, -1);
    for (int v = 0; v < band; v++)
        if (held[v])
            slot[v] = n++;
    const bool compact = n <= g_slot_cap;
    (compact ? g_compact_blocks : g_full_blocks)++;
    return compact;
}

/*
 * cuda_cambi.cu's cvalue_trim: a block's rows [r0, r1) trimmed to the first
 * to the last holding a pixel of columns [x0, x0 + strip) that needs a
 * c-value (needs(i, col)); the other rows' c-values are 0, written here.
 * False when no row holds one.
 */
bool emulate_trim(int x0, int strip, int sw, int &r0, int &r1, const std::function<bool(int, int)> &needs, float *cv)
{
    int a = r1, z = r0 - 1;
    for (int i = r0; i < r1; i++)
        for (int col = x0; col < std::min(sw, x0 + strip); col++)
            if (needs(i, col)) {
                a = std::min(a, i);
                z = i;
            }
    for (int i = r0; i < r1; i++)
        for (int col = x0; col < std::min(sw, x0 + strip); col++)
            if (i < a || i > z)
                cv[(size_t)i * sw + col] = 0.0f;
    g_trimmed_rows += a <= z ? (a - r0) + (r1 - 1 - z) : r1 - r0;
    r0 = a;
    r1 = z + 1;
    return a <= z;
}

/*
 * cuda_cambi.cu's c-value kernel, block by block and thread by thread (its
 * barriers separate the phases): strips of kStrip columns, bands of rows
 * trimmed to those needing c-values, the window filled for the band's first
 * row, then slid.  Must give the CPU executor's c-values on every scale.
 */
void emulate_cvalue_kernel(const VqCambiParams &p, int s, const uint16_t *filt,
                           const uint8_t *mask0, const float *recip, int rows_per_block,
                           float *cv)
{
    const int kStrip = 64;
    const int sw = p.sw[s], sh = p.sh[s], pad = p.pad, sft = p.sshift[s];
    const int span = kStrip + 2 * pad;
    std::vector<uint16_t> hist((size_t)p.band_size * kStrip);
    std::vector<int16_t> add(span), sub(span);
    /* pixel (r, c)'s band row: -1 outside the image, unmasked or out of the band */
    auto band_row = [&](int r, int c) {
        if (r < 0 || r >= sh || c < 0 || c >= sw || !mask0[((size_t)r << sft) * p.w + ((size_t)c << sft)])
            return -1;
        return vq_cambi_band_row(&p, filt[(size_t)r * sw + c]);
    };
    auto stage = [&](std::vector<int16_t> &buf, int r, int c0) {
        for (int q = 0; q < span; q++)
            buf[q] = (int16_t)band_row(r, c0 + q);
    };
    for (int by = 0; by * rows_per_block < sh; by++)
        for (int bx = 0; bx * kStrip < sw; bx++) {
            const int x0 = bx * kStrip, c0 = x0 - pad;
            int r0 = by * rows_per_block, r1 = std::min(sh, r0 + rows_per_block);
            if (!emulate_trim(x0, kStrip, sw, r0, r1, [&](int i, int col) { return band_row(i, col) >= 0; }, cv))
                continue;
            std::fill(hist.begin(), hist.end(), 0);
            for (int r = std::max(0, r0 - pad); r <= std::min(sh - 1, r0 + pad); r++) {
                stage(add, r, c0);
                for (int t = 0; t < kStrip; t++)
                    for (int q = t; q <= t + 2 * pad; q++)
                        if (add[q] >= 0)
                            hist[add[q] * kStrip + t]++;
            }
            for (int i = r0; i < r1; i++) {
                if (i > r0) {
                    stage(add, i + pad, c0);
                    stage(sub, i - pad - 1, c0);
                    for (int t = 0; t < kStrip; t++)
                        for (int q = t; q <= t + 2 * pad; q++) {
                            if (sub[q] >= 0)
                                hist[sub[q] * kStrip + t]--;
                            if (add[q] >= 0)
                                hist[add[q] * kStrip + t]++;
                        }
                }
                for (int t = 0; t < kStrip; t++) {
                    const int col = x0 + t;
                    if (col >= sw)
                        continue;
                    float v = 0.0f;
                    if (mask0[((size_t)i << sft) * p.w + ((size_t)col << sft)])
                        v = vq_cambi_c_value(&p, recip, filt[(size_t)i * sw + col], &hist[t], kStrip);
                    cv[(size_t)i * sw + col] = v;
                }
            }
        }
}

/*
 * cuda_cambi_cols.cuh's kernel, block by block (its rows trimmed as above):
 * a byte histogram per staged column over the window's rows (two changes
 * per column and row), and per row only the band rows within num_diffs of
 * the strip's pixels' own, each pixel's count the difference of two
 * prefixes over the staged columns.
 */
void emulate_cvalue_cols_kernel(const VqCambiParams &p, int s, const uint16_t *filt,
                                const uint8_t *mask0, const float *recip, int rows_per_block,
                                float *cv)
{
    const int kStrip = 64, kSpan = 128;
    const int sw = p.sw[s], sh = p.sh[s], pad = p.pad, sft = p.sshift[s], nd = p.num_diffs;
    const int span = kStrip + 2 * pad;
    ASSERT_LE(span, kSpan);
    auto band_row = [&](int r, int c) {
        if (r < 0 || r >= sh || c < 0 || c >= sw || !mask0[((size_t)r << sft) * p.w + ((size_t)c << sft)])
            return -1;
        return vq_cambi_band_row(&p, filt[(size_t)r * sw + c]);
    };
    std::vector<uint8_t> cols((size_t)p.band_size * kSpan);
    std::vector<int> prefix(kSpan), cnt((size_t)kStrip * (2 * nd + 1));
    std::vector<char> need(p.band_size);
    std::vector<int> slot;
    for (int by = 0; by * rows_per_block < sh; by++)
        for (int bx = 0; bx * kStrip < sw; bx++) {
            const int x0 = bx * kStrip, c0 = x0 - pad;
            int r0 = by * rows_per_block, r1 = std::min(sh, r0 + rows_per_block);
            if (!emulate_trim(x0, kStrip, sw, r0, r1, [&](int i, int col) { return band_row(i, col) >= 0; }, cv))
                continue;
            const bool compact = emulate_slots(band_row, p.band_size, r0, r1, pad, sh, c0, span, slot);
            auto hrow = [&](int u) { return compact ? slot[u] : u; };   /* -1: no pixel holds u */
            std::fill(cols.begin(), cols.end(), 0);
            auto change = [&](int u, int q, int d) {
                if (u < 0)
                    return;
                const int k = hrow(u);
                ASSERT_TRUE(k >= 0 && (!compact || k < g_slot_cap));
                const int v = cols[(size_t)k * kSpan + q] + d;
                ASSERT_TRUE(v >= 0 && v <= 255);
                cols[(size_t)k * kSpan + q] = (uint8_t)v;
            };
            for (int q = 0; q < span; q++)
                for (int r = std::max(0, r0 - pad); r <= std::min(sh - 1, r0 + pad); r++)
                    change(band_row(r, c0 + q), q, 1);
            for (int i = r0; i < r1; i++) {
                if (i > r0)
                    for (int q = 0; q < span; q++) {
                        change(band_row(i - pad - 1, c0 + q), q, -1);
                        change(band_row(i + pad, c0 + q), q, 1);
                    }
                std::fill(need.begin(), need.end(), 0);
                for (int t = 0; t < kStrip; t++) {
                    const int o = band_row(i, x0 + t);
                    for (int u = std::max(0, o - nd); o >= 0 && u <= std::min(p.band_size - 1, o + nd); u++)
                        need[u] = 1;
                }
                for (int u = 0; u < p.band_size; u++) {
                    if (!need[u])
                        continue;
                    const int k = hrow(u);
                    for (int q = 0, acc = 0; q < kSpan; q++)
                        prefix[q] = acc += k < 0 ? 0 : cols[(size_t)k * kSpan + q];
                    for (int t = 0; t < kStrip; t++) {
                        const int o = band_row(i, x0 + t);
                        if (o >= 0 && u >= o - nd && u <= o + nd)
                            cnt[(size_t)t * (2 * nd + 1) + u - o + nd] = prefix[t + 2 * pad] - (t ? prefix[t - 1] : 0);
                    }
                }
                for (int t = 0; t < kStrip && x0 + t < sw; t++) {
                    const int o = band_row(i, x0 + t);
                    const int *mc = &cnt[(size_t)t * (2 * nd + 1)];
                    cv[(size_t)i * sw + x0 + t] =
                        o < 0 ? 0.0f
                              : vq_cambi_c_value_of(&p, recip, (uint32_t)(o + p.band_base),
                                                    [mc, o, nd](int uu) { return mc[uu - o + nd]; });
                }
            }
        }
}

/* the scale images and mask the CUDA kernels feed the c-value kernel */
void emulate_scale_inputs(const VqCambiParams &p, const VqCambiTables &t, VqPlaneView luma,
                          std::vector<uint8_t> &mask0, std::vector<std::vector<uint16_t>> &filt)
{
    const int w = p.w, h = p.h;
    std::vector<uint16_t> img10((size_t)w * h), pre((size_t)w * h);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            img10[(size_t)i * w + j] = vq_cambi_load10(luma, &p, t.x_idx, t.y_idx, i, j);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            pre[(size_t)i * w + j] = p.antidither ? vq_cambi_antidither_at(img10.data(), w, w, h, i, j)
                                                  : img10[(size_t)i * w + j];
    std::vector<uint8_t> colsum((size_t)w * h);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int sum = 0;
            for (int k = std::max(0, i - 3); k <= std::min(h - 1, i + 3); k++)
                sum += vq_cambi_zero_deriv(pre.data(), w, w, h, k, j);
            colsum[(size_t)i * w + j] = (uint8_t)sum;
        }
    mask0.assign((size_t)w * h, 0);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            uint32_t sum = 0;
            for (int c = std::max(0, j - 3); c <= std::min(w - 1, j + 3); c++)
                sum += colsum[(size_t)i * w + c];
            mask0[(size_t)i * w + j] = sum > (uint32_t)p.mask_index;
        }
    filt.assign(VQ_CAMBI_SCALES, {});
    std::vector<uint16_t> cur;
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        const int sw = p.sw[s], sh = p.sh[s];
        const uint16_t *img = pre.data();
        if (s > 0 || p.high_res_speedup) {
            const uint16_t *src = s ? filt[s - 1].data() : pre.data();
            const int ss = s ? p.sw[s - 1] : w;
            cur.assign((size_t)sw * sh, 0);
            for (int i = 0; i < sh; i++)
                for (int j = 0; j < sw; j++)
                    cur[(size_t)i * sw + j] = src[(size_t)(2 * i) * ss + 2 * j];
            img = cur.data();
        }
        filt[s].assign((size_t)sw * sh, 0);
        for (int i = 0; i < sh; i++)
            for (int j = 0; j < sw; j++)
                filt[s][(size_t)i * sw + j] = vq_cambi_mode_at(img, sw, sw, sh, i, j);
    }
}

/* the radix select of cuda_cambi.cu (digits of 11, 11, 10 bits, bins
 * scanned from the top) */
uint32_t emulate_radix_select(const std::vector<uint32_t> &b, int k)
{
    uint32_t prefix = 0, krem = (uint32_t)k;
    for (int pass = 0; pass < 3; pass++) {
        const int sh = pass == 0 ? 21 : (pass == 1 ? 10 : 0);
        const uint32_t dm = pass == 2 ? 0x3ffu : 0x7ffu;
        const int hi = sh + (pass == 2 ? 10 : 11);
        const int nb = pass == 2 ? 1024 : 2048;
        std::vector<uint32_t> hist(2048, 0);
        for (uint32_t x : b)
            if (pass == 0 || (x >> hi) == prefix)
                hist[(x >> sh) & dm]++;
        std::vector<uint32_t> cum(2048, 0);
        for (int r = 0; r < nb; r++)
            cum[r] = hist[nb - 1 - r] + (r ? cum[r - 1] : 0);
        int found = -1;
        for (int r = 0; r < nb; r++)
            if (cum[r] >= krem && (r == 0 || cum[r - 1] < krem))
                found = r;
        EXPECT_GE(found, 0);
        const uint32_t bin = (uint32_t)(nb - 1 - found);
        krem -= found ? cum[found - 1] : 0;
        prefix = pass == 0 ? bin : (prefix << (pass == 2 ? 10 : 11)) | bin;
    }
    return prefix;
}

TEST(CambiGpuAlgorithm, RadixSelectEqualsNthElement)
{
    std::mt19937 rng(5);
    for (int it = 0; it < 300; it++) {
        const int n = 1 + (int)(rng() % 3000);
        std::vector<uint32_t> b(n);
        const int kind = it % 3;
        for (auto &x : b) {
            const float f = kind == 0 ? (float)(rng() % 7) * 0.5f
                                      : (rng() % 3 ? 0.0f : (float)(rng() % 100000) / 7.0f);
            x = vq_f32_bits(kind == 2 ? std::ldexp(f, (int)(rng() % 40) - 20) : f);
        }
        const int k = 1 + (int)(rng() % n);
        std::vector<uint32_t> sorted = b;
        std::sort(sorted.begin(), sorted.end(), std::greater<uint32_t>());
        ASSERT_EQ(emulate_radix_select(b, k), sorted[k - 1]) << "n " << n << " k " << k;
    }
}

/* The CUDA executor's pipeline (scale images, mask, strip histograms)
 * emulated on the host gives the CPU executor's c-values, for the band
 * heights the kernel is launched with and others. */
/* sizes with and without anti-dithering, resizing and the high-resolution
 * speed-up; random_case sets one up (v.data NULL where setup fails) and
 * makes a frame of ramps, noisy patches and flat areas */
struct RandomCase {
    int w, h, bpc;
    int mlc, enc_div, hrs;
};
const RandomCase kRandomCases[] = { { 577, 323, 8, 2, 0, 0 },  { 300, 216, 10, 2, 0, 0 },
                                    { 640, 360, 8, 5, 0, 0 },  { 450, 300, 8, 0, 3, 0 },
                                    { 1920, 1080, 8, 2, 0, 1080 }, { 216, 400, 12, 3, 0, 0 } };

VqPlaneView random_case(const RandomCase &c, std::mt19937 &rng, CambiSetup &s, std::vector<uint8_t> &buf,
                        int window_size = 0)
{
    VqCambiOptions o;
    vq_cambi_default_options(&o);
    if (window_size)
        o.window_size = window_size;
    o.max_log_contrast = c.mlc;
    o.cambi_high_res_speedup = c.hrs;
    if (c.enc_div) {
        o.enc_width = c.w * 2 / c.enc_div;
        o.enc_height = c.h * 2 / c.enc_div;
    }
    if (setup(s, c.w, c.h, c.bpc, &o) != 0)
        return VqPlaneView{};
    const int maxv = (1 << c.bpc) - 1, bytes = c.bpc > 8 ? 2 : 1;
    buf.assign((size_t)c.w * c.h * bytes, 0);
    const int div = 20 + (int)(rng() % 60);
    for (int i = 0; i < c.h; i++)
        for (int j = 0; j < c.w; j++) {
            int v = (i + 2 * j) * (c.bpc > 8 ? 1 << (c.bpc - 10) : 1) / div;
            if (((i / 24) + (j / 24)) % 4 == 0)
                v += (int)(rng() % 40);
            else if (rng() % 10 == 0)
                v += 1;
            v = std::min(v, maxv);
            if (bytes == 1)
                buf[(size_t)i * c.w + j] = (uint8_t)v;
            else
                ((uint16_t *)buf.data())[(size_t)i * c.w + j] = (uint16_t)v;
        }
    return VqPlaneView{ buf.data(), (ptrdiff_t)c.w * bytes, c.w, c.h, bytes, 0, 1 };
}

/*
 * The CPU executor's steps in random row bands, 3 threads at once (what
 * cpu_exec.cpp runs at n_threads > 1), against the whole run: every word
 * and every c-value, bit for bit, on kRandomCases.
 */
TEST(CambiCpu, BandsEqualTheWholeRun)
{
    std::mt19937 rng(5);
    const int kWorkers = 3;
    for (const RandomCase &c : kRandomCases) {
        CambiSetup s;
        std::vector<uint8_t> buf;
        const VqPlaneView v = random_case(c, rng, s, buf);
        ASSERT_NE(v.data, nullptr) << c.w << "x" << c.h;
        VqCambiCpu *whole = vq_cambi_cpu_alloc(&s.p), *banded = vq_cambi_cpu_alloc(&s.p);
        ASSERT_NE(whole, nullptr);
        ASSERT_NE(banded, nullptr);
        std::vector<int64_t> want(s.l.total, 0x7ead), got(s.l.total, 0x7ead);
        ASSERT_EQ(vq_cambi_cpu_run(whole, &s.p, s.t.data(), v, &s.l, want.data()), 0);
        ASSERT_EQ(vq_cambi_cpu_bands(banded, kWorkers), 0);
        ASSERT_EQ(vq_cambi_cpu_check(banded, &s.p, v), 0);
        for (int step = 0; step < VQ_CAMBI_CPU_STEPS; step++) {
            struct It { int kind, sc, a, b; };   /* kind 0 rows, 1 select, 2 words, 3 decide */
            std::vector<It> items;
            const int sel = vq_cambi_cpu_step_select(&s.p, step), dec = vq_cambi_cpu_step_decide(&s.p, step);
            const int wsc = vq_cambi_cpu_step_words(&s.p, step);
            if (sel >= 0)
                items.push_back(It{ 1, sel, 0, 0 });
            if (dec >= 0)
                items.push_back(It{ 3, dec, 0, 0 });
            auto cut_into = [&](int kind, int sc, int rows) {
                std::vector<int> cut = { 0, rows };
                for (int k = 0; rows > 0 && k < (int)(rng() % 7); k++)
                    cut.push_back((int)(rng() % (unsigned)(rows + 1)));
                std::sort(cut.begin(), cut.end());
                for (size_t k = 0; rows > 0 && k + 1 < cut.size(); k++)
                    items.push_back(It{ kind, sc, cut[k], cut[k + 1] });
            };
            if (wsc >= 0)
                cut_into(2, wsc, s.p.sh[wsc]);
            cut_into(0, -1, vq_cambi_cpu_step_rows(&s.p, step));
            std::atomic<size_t> next{ 0 };
            std::vector<std::thread> th;
            for (int t = 0; t < kWorkers; t++)
                th.emplace_back([&] {
                    for (size_t k; (k = next++) < items.size();) {
                        const It &it = items[k];
                        if (it.kind == 1)
                            vq_cambi_cpu_select(banded, &s.p, it.sc);
                        else if (it.kind == 2)
                            vq_cambi_cpu_words(banded, &s.p, it.sc, &s.l, got.data(), it.a, it.b);
                        else if (it.kind == 3)
                            vq_cambi_cpu_decide(banded, &s.p, it.sc, &s.l, got.data());
                        else
                            vq_cambi_cpu_rows(banded, &s.p, s.t.data(), v, step, it.a, it.b);
                    }
                });
            for (auto &t : th)
                t.join();
        }
        for (int sc = 0; sc < VQ_CAMBI_SCALES; sc++) {
            const size_t n = (size_t)s.p.sw[sc] * s.p.sh[sc];
            const float *a = vq_cambi_cpu_cvalues(whole, sc), *b = vq_cambi_cpu_cvalues(banded, sc);
            size_t diff = 0;
            for (size_t x = 0; x < n; x++)
                diff += vq_f32_bits(a[x]) != vq_f32_bits(b[x]);
            EXPECT_EQ(diff, 0u) << c.w << "x" << c.h << " scale " << sc << " c-values";
        }
        for (size_t k = 0; k < want.size(); k++)
            ASSERT_EQ(got[k], want[k]) << c.w << "x" << c.h << " word " << k;
        vq_cambi_cpu_free(whole);
        vq_cambi_cpu_free(banded);
    }
}

/* c's frame (random_case, with window_size unless 0) through the CPU
 * executor and through emu at each block height rows_of(pad) gives: every
 * c-value bit for bit.  *pad: the case's; *nonzero: its c-values above 0. */
using CvalueEmulator = void (*)(const VqCambiParams &, int, const uint16_t *, const uint8_t *, const float *,
                                int, float *);
void check_emulated_cvalues(const RandomCase &c, std::mt19937 &rng, int window_size, CvalueEmulator emu,
                            const std::function<std::vector<int>(int)> &rows_of, int *pad, int *nonzero)
{
    CambiSetup s;
    std::vector<uint8_t> buf;
    const VqPlaneView v = random_case(c, rng, s, buf, window_size);
    ASSERT_NE(v.data, nullptr) << c.w << "x" << c.h;
    *pad = s.p.pad;
    *nonzero = 0;
    VqCambiCpu *cpu = vq_cambi_cpu_alloc(&s.p);
    std::vector<int64_t> words(s.l.total);
    ASSERT_EQ(vq_cambi_cpu_run(cpu, &s.p, s.t.data(), v, &s.l, words.data()), 0);
    std::vector<uint8_t> mask0;
    std::vector<std::vector<uint16_t>> filt;
    emulate_scale_inputs(s.p, s.t[0], v, mask0, filt);
    for (int sc = 0; sc < VQ_CAMBI_SCALES; sc++) {
        const size_t n = (size_t)s.p.sw[sc] * s.p.sh[sc];
        const float *want = vq_cambi_cpu_cvalues(cpu, sc);
        for (int rows : rows_of(s.p.pad)) {
            std::vector<float> got(n, -1.0f);
            emu(s.p, sc, filt[sc].data(), mask0.data(), s.t[0].recip, rows, got.data());
            for (size_t x = 0; x < n; x++)
                ASSERT_EQ(vq_f32_bits(got[x]), vq_f32_bits(want[x]))
                    << c.w << "x" << c.h << " scale " << sc << " rows " << rows << " at " << x;
        }
        for (size_t x = 0; x < n; x++)
            *nonzero += want[x] > 0;
    }
    vq_cambi_cpu_free(cpu);
}

TEST(CambiGpuAlgorithm, StripHistogramsEqualCpu)
{
    std::mt19937 rng(3);
    g_trimmed_rows = 0;
    for (const RandomCase &c : kRandomCases) {
        int pad = 0, nonzero = 0;
        ASSERT_NO_FATAL_FAILURE(check_emulated_cvalues(
            c, rng, 0, emulate_cvalue_kernel,
            [](int pd) { return std::vector<int>{ std::max(32, 4 * pd), 1, 7 }; }, &pad, &nonzero));
        EXPECT_GT(nonzero, 100) << c.w << "x" << c.h;   /* the content exercises the c-values */
    }
    EXPECT_GT(g_trimmed_rows, 1000);   /* and the blocks' trimmed rows */
}

/* the compact column kernel (cvalue_slots): the column histograms with
 * the block's slots as rows, a block holding more than the cap left to the
 * full kernel; with the default cap (144) and with 16, on kRandomCases and
 * with 4K's pad: both kernels' blocks in each */
TEST(CambiGpuAlgorithm, CompactSlotsEqualCpu)
{
    for (int cap : { 144, 16 }) {
        std::mt19937 rng(11);
        g_slot_cap = cap;
        g_compact_blocks = g_full_blocks = 0;
        int pad = 0, nonzero = 0, nonzero_all = 0;
        for (const RandomCase &c : kRandomCases) {
            ASSERT_NO_FATAL_FAILURE(check_emulated_cvalues(
                c, rng, 0, emulate_cvalue_cols_kernel, [](int) { return std::vector<int>{ 32, 7 }; }, &pad,
                &nonzero));
            nonzero_all += nonzero;
        }
        ASSERT_NO_FATAL_FAILURE(check_emulated_cvalues({ 1920, 1080, 8, 2, 0, 0 }, rng, 127,
                                                       emulate_cvalue_cols_kernel,
                                                       [](int) { return std::vector<int>{ 32 }; }, &pad, &nonzero));
        EXPECT_EQ(pad, 31);
        EXPECT_GT(nonzero_all + nonzero, 1000) << "cap " << cap;   /* the content exercises the c-values */
        EXPECT_GT(g_compact_blocks, 100) << "cap " << cap;
        if (cap == 16) {   /* (the random content's blocks hold fewer than 144) */
            EXPECT_GT(g_full_blocks, 10);
        }
    }
    g_slot_cap = 0;
}

/* the column histograms' kernel (4K's default): the same c-values, on
 * kRandomCases and with 4K's pad (window_size 127 at 1920x1080: pad 31) */
TEST(CambiGpuAlgorithm, ColumnHistogramsEqualCpu)
{
    std::mt19937 rng(5);
    const auto rows = [](int) { return std::vector<int>{ 32, 1, 7 }; };
    int pad = 0, nonzero = 0;
    for (const RandomCase &c : kRandomCases)
        ASSERT_NO_FATAL_FAILURE(check_emulated_cvalues(c, rng, 0, emulate_cvalue_cols_kernel, rows, &pad, &nonzero));
    g_trimmed_rows = 0;
    ASSERT_NO_FATAL_FAILURE(check_emulated_cvalues({ 1920, 1080, 8, 2, 0, 0 }, rng, 127, emulate_cvalue_cols_kernel,
                                                   rows, &pad, &nonzero));
    EXPECT_EQ(pad, 31);
    EXPECT_GT(nonzero, 100);
    EXPECT_GT(g_trimmed_rows, 100);
}

/*
 * cuda_cambi.cu's cooperative pooling kernel, phase by phase (its grid
 * barriers), block by block with the same chunks; within a block the
 * kernel's tile scans give the running counts and compositions computed
 * here in order.  Its constants: a partition range of at most kPoolSolo
 * elements is one chunk (block 0 alone), a binade's scan covers
 * [next, next + next / 2 + kPoolWindow).  Returns the sum it writes.
 */
constexpr int kPoolSolo = 8192, kPoolWindow = 1 << 16;

double emulate_pool_kernel(const float *cv, int n, int k, int g, int G_grid)
{
    int G = G_grid;
    std::vector<uint32_t> a(n);
    for (int x = 0; x < n; x++)
        a[x] = vq_f32_bits(cv[x]);
    std::vector<int> lpos(n), rpos(n);
    std::vector<unsigned> blk_le(G), blk_ge(G);
    int left = 0, right = n - 1;
    while (k < n && left < right) {
        G = right - left + 1 <= kPoolSolo ? 1 : G_grid;
        const uint32_t pivot = a[k];
        const int m = right - left + 1, C = (m + G - 1) / G;
        for (int b = 0; b < G; b++) {
            const int c0 = left + b * C, c1 = std::min(c0 + C, right + 1);
            blk_le[b] = blk_ge[b] = 0;
            for (int p = c0; p < c1; p++) {
                blk_le[b] += a[p] <= pivot;
                blk_ge[b] += a[p] >= pivot;
            }
        }
        int M = 0;
        unsigned tot_le = 0, tot_ge = 0;
        for (int b = 0; b < G; b++) {
            tot_le += blk_le[b];
            tot_ge += blk_ge[b];
        }
        for (int b = 0; b < G; b++) {
            const int c0 = left + b * C, c1 = std::min(c0 + C, right + 1);
            unsigned off_le = 0, off_ge = 0;
            for (int q = 0; q < G; q++) {
                off_le += q < b ? blk_le[q] : 0;
                off_ge += q > b ? blk_ge[q] : 0;
            }
            unsigned run_le = 0, run_ge = 0;   /* inclusive counts within the chunk */
            for (int p = c0; p < c1; p++) {
                const unsigned fl = a[p] <= pivot, fg = a[p] >= pivot;
                run_le += fl;
                run_ge += fg;
                const int cnt_l = (int)(off_le + run_le);
                const int ge_before = (int)(run_ge - fg);
                const int cnt_r = (int)(off_ge + blk_ge[b]) - ge_before;
                if (fl)
                    lpos[cnt_l - 1] = p;
                if (fg)
                    rpos[cnt_r - 1] = p;
                M = std::max(M, std::min(cnt_l, cnt_r));
            }
        }
        for (int q = 0; q < M; q++)
            if (lpos[q] != rpos[q])
                std::swap(a[lpos[q]], a[rpos[q]]);
        int i, j;
        vq_cambi_partition_end(lpos[M - 1], rpos[M - 1], M < (int)tot_le ? lpos[M] : 0x7fffffff,
                               M < (int)tot_ge ? rpos[M] : -1, &i, &j);
        if (j < k)
            left = i;
        if (k < i)
            right = j;
    }
    /* the sum: exact prefix in units of 2^g up to 2^53 */
    G = G_grid;
    const uint64_t two53 = 1ull << 53;
    std::vector<int64_t> scratch(n);
    std::vector<uint64_t> blk_sat(G);
    int C = (k + G - 1) / G;
    for (int b = 0; b < G; b++) {
        blk_sat[b] = 0;
        for (int p = b * C; p < std::min(b * C + C, k); p++)
            blk_sat[b] = vq_cambi_sat_add(blk_sat[b], vq_cambi_units(a[p], g));
    }
    int cross = k;
    for (int b = 0; b < G; b++) {
        uint64_t off = 0;
        for (int q = 0; q < b; q++)
            off = vq_cambi_sat_add(off, blk_sat[q]);
        if (off >= two53)
            continue;
        uint64_t run = off;
        for (int p = b * C; p < std::min(b * C + C, k); p++) {
            const uint64_t u = vq_cambi_units(a[p], g);
            run = vq_cambi_sat_add(run, u);
            if (run >= two53) {
                scratch[p] = (int64_t)(run - u);
                cross = std::min(cross, p);
            }
        }
    }
    double s;
    int next;
    if (cross >= k) {
        uint64_t all = 0;
        for (int q = 0; q < G; q++)
            all = vq_cambi_sat_add(all, blk_sat[q]);
        s = std::ldexp((double)all, g);
        next = k;
    } else {
        s = std::ldexp((double)scratch[cross], g);
        next = cross;
    }
    std::vector<VqCambiAdd> blk_add(G);
    while (next < k) {
        uint64_t sb;
        memcpy(&sb, &s, sizeof(sb));
        const int eg = (int)((sb >> 52) & 0x7ff) - 1023 - 52;
        const int64_t S = (int64_t)((sb & ((1ull << 52) - 1)) | (1ull << 52));
        const int p0 = (int)(S & 1);
        const int end = (int)std::min<long long>(k, (long long)next + next / 2 + kPoolWindow);
        const int m = end - next;
        C = (m + G - 1) / G;
        for (int b = 0; b < G; b++) {
            blk_add[b] = vq_cambi_add_identity();
            for (int p = next + b * C; p < std::min(next + b * C + C, end); p++)
                blk_add[b] = vq_cambi_add_compose(blk_add[b], vq_cambi_add_step(a[p], eg));
        }
        cross = end;
        for (int b = 0; b < G; b++) {
            VqCambiAdd pre = vq_cambi_add_identity();
            for (int q = 0; q < b; q++)
                pre = vq_cambi_add_compose(pre, blk_add[q]);
            const int64_t sblk = S + pre.inc[p0];
            const int par = pre.out[p0];
            VqCambiAdd before = vq_cambi_add_identity();
            for (int p = next + b * C; p < std::min(next + b * C + C, end); p++) {
                const int64_t sprev = sblk + before.inc[par];
                if (sprev + vq_cambi_add_floor(a[p], eg) >= (int64_t)two53) {
                    scratch[p] = sprev;
                    cross = std::min(cross, p);
                }
                before = vq_cambi_add_compose(before, vq_cambi_add_step(a[p], eg));
            }
        }
        if (cross >= end) {   /* no crossing in the window: on from its end, same binade */
            VqCambiAdd all = vq_cambi_add_identity();
            for (int q = 0; q < G; q++)
                all = vq_cambi_add_compose(all, blk_add[q]);
            s = std::ldexp((double)(S + all.inc[p0]), eg);
            next = end;
        } else {
            s = std::ldexp((double)scratch[cross], eg) + (double)vq_f32_from_bits(a[cross]);
            next = cross + 1;
        }
    }
    return s;
}

/* the pool mode and g of a c-value array, as the executors decide them */
int pool_mode_of(const float *cv, int n, int k, int *g)
{
    std::vector<uint32_t> b(n);
    for (int x = 0; x < n; x++)
        b[x] = vq_f32_bits(cv[x]);
    std::vector<uint32_t> sorted = b;
    std::nth_element(sorted.begin(), sorted.begin() + (k - 1), sorted.end(), std::greater<uint32_t>());
    const uint32_t tb = sorted[k - 1];
    int64_t cnt = 0;
    uint64_t hi = 0, lo = 0;
    int minexp = VQ_CAMBI_NONE_EXP;
    for (uint32_t x : b)
        if (x > tb) {
            cnt++;
            const uint64_t f = vq_cambi_fixed32(x);
            lo += f;
            hi += lo < f;
            minexp = std::min(minexp, vq_cambi_lowbit_exp(x));
        }
    return vq_cambi_pool_mode(tb, cnt, hi, lo, minexp, k, n, g);
}

TEST(CambiGpuAlgorithm, PoolKernelEqualsReferenceOrder)
{
    std::mt19937 rng(17);
    std::vector<float> recip(VQ_CAMBI_LUT_SIZE);
    vq_cambi_recip_table(recip.data());
    int pooled = 0;
    for (int it = 0; it < 60; it++) {
        /* c-value-like data, large enough for the double sum to round:
         * mostly large values, a few fine ones (2/3: lowest bit 2^-24) */
        const int n = 150000 + (int)(rng() % 250000);
        std::vector<float> cv(n);
        const int zeros = (int)(rng() % 40);
        const int pmax = 1000 + (int)(rng() % 3000);
        for (auto &v : cv) {
            if ((int)(rng() % 100) < zeros) {
                v = 0.0f;
                continue;
            }
            if (rng() % 100 == 0) {
                v = 1.0f * 1 * 2 * recip[3];
                continue;
            }
            const int w = 1 + (int)(rng() % 9), p0 = 1 + (int)(rng() % pmax),
                      p1 = 1 + (int)(rng() % pmax);
            v = (float)(w * p0 * p1) * recip[std::min(p0 + p1, VQ_CAMBI_LUT_SIZE - 1)];
            if (it % 5 == 0)
                v = (float)(rng() % 7) * 3000.0f;   /* heavy duplicates */
        }
        const double topk = it % 4 == 0 ? 1.0 : (it % 4 == 1 ? 0.6 : (rng() % 1000 + 1) / 1000.0);
        const int kk = (int)(topk * n);
        const int k = std::max(1, std::min(kk, n));
        int g = 0;
        if (pool_mode_of(cv.data(), n, k, &g) != VQ_CAMBI_POOL_EXECUTOR)
            continue;
        pooled++;
        std::vector<float> ref = cv;
        const double want = vq_cambi_topk_sum_ref(ref.data(), n, k);
        for (int G : { 1, 3, 132, 264 + (int)(rng() % 500) }) {
            const double got = emulate_pool_kernel(cv.data(), n, k, g, G);
            ASSERT_EQ(got, want) << "n " << n << " k " << k << " G " << G << " it " << it;
        }
    }
    EXPECT_GT(pooled, 15);
}

/* The real case: dog2160's first frame, scales 0 and 1 (the reference's
 * sum rounds there), through the CPU executor's c-values. */
TEST(CambiGpuAlgorithm, PoolKernelOnDog2160)
{
    const char *raw_dir = getenv("VQ_RAW_DIR");
    const vq_test::ClipRow &c = vq_test::clip("dog2160");
    std::vector<uint8_t> buf;
    if (!raw_dir || !read_luma(std::string(raw_dir) + "/" + c.dis + ".yuv", 0, (size_t)c.w * c.h,
                               2 * (size_t)c.cw() * c.ch(), buf))
        GTEST_SKIP() << c.dis << ".yuv not found";
    CambiSetup s;
    ASSERT_EQ(setup(s, c.w, c.h, c.bpc), 0);
    VqCambiCpu *cpu = vq_cambi_cpu_alloc(&s.p);
    std::vector<int64_t> words(s.l.total);
    const VqPlaneView v = { buf.data(), c.w, c.w, c.h, 1, 0, 1 };
    ASSERT_EQ(vq_cambi_cpu_run(cpu, &s.p, s.t.data(), v, &s.l, words.data()), 0);
    for (int sc = 0; sc < 2; sc++) {
        const int64_t *hw = &words[s.l.sel_off[sc]];
        ASSERT_EQ(hw[VQ_CAMBI_SEL_POOLED], VQ_CAMBI_POOL_EXECUTOR) << "scale " << sc;
        const int n = s.p.sw[sc] * s.p.sh[sc], k = s.p.topk_count[sc];
        int g = 0;
        ASSERT_EQ(pool_mode_of(vq_cambi_cpu_cvalues(cpu, sc), n, k, &g), VQ_CAMBI_POOL_EXECUTOR);
        double want;
        memcpy(&want, &hw[VQ_CAMBI_SEL_SUM], sizeof(want));
        EXPECT_EQ(emulate_pool_kernel(vq_cambi_cpu_cvalues(cpu, sc), n, k, g, 264), want)
            << "scale " << sc;
    }
    vq_cambi_cpu_free(cpu);
}

/* ---- golden ------------------------------------------------------------ */

struct GoldenPair {
    const char *pair;
    const char *dis;          /* clip in VQ_RAW_DIR */
    int w, h, bpc, cw, ch;
};

/* the pair's distorted clip and geometry, from tests/data/clips.tsv */
GoldenPair golden_pair(const char *pair)
{
    const vq_test::ClipRow &c = vq_test::clip(pair);
    return { c.name.c_str(), c.dis.c_str(), c.w, c.h, c.bpc, c.cw(), c.ch() };
}

class CambiGolden : public ::testing::TestWithParam<GoldenPair> {};

TEST_P(CambiGolden, CpuEqualsReference)
{
    const GoldenPair &g = GetParam();
    const char *raw_dir = getenv("VQ_RAW_DIR"), *golden_dir = getenv("VQ_GOLDEN_DIR");
    if (!raw_dir || !golden_dir)
        GTEST_SKIP() << "VQ_RAW_DIR / VQ_GOLDEN_DIR not set";
    vq_test::GoldenLog j;
    std::string jerr;
    const vq_test::GoldenStatus st =
        vq_test::load_golden(std::string(golden_dir) + "/" + g.pair + ".features.json", &j, &jerr);
    FILE *fd = fopen((std::string(raw_dir) + "/" + g.dis + ".yuv").c_str(), "rb");
    if (st == vq_test::GoldenStatus::Missing || !fd) {
        if (fd)
            fclose(fd);
        GTEST_SKIP() << g.pair << " golden or raw clip missing";
    }
    if (st != vq_test::GoldenStatus::Ok) {
        fclose(fd);
        FAIL() << jerr;
    }
    const bool refused = j.refuses("cambi");

    VqCambiOptions o;
    vq_cambi_default_options(&o);
    char msg[256] = "";
    const int err = vq_cambi_check(&o, g.w, g.h, g.bpc, msg, sizeof(msg));
    if (refused) {
        EXPECT_EQ(err, VQ_EINVAL) << g.pair << ": the reference refuses cambi";
        EXPECT_NE(msg[0], 0);
        for (const vq_test::GoldenMetrics &m : j.frames)
            EXPECT_FALSE(m.has("cambi"));
        fclose(fd);
        return;
    }
    ASSERT_EQ(err, 0) << msg;
    CambiSetup s;
    ASSERT_EQ(setup(s, g.w, g.h, g.bpc), 0);
    VqCambiCpu *c = vq_cambi_cpu_alloc(&s.p);
    ASSERT_NE(c, nullptr);

    const int bytes = g.bpc > 8 ? 2 : 1;
    const size_t luma = (size_t)g.w * g.h * bytes;
    const size_t frame = luma + 2 * (size_t)g.cw * g.ch * bytes;
    std::vector<uint8_t> buf(luma);
    std::vector<int64_t> words(s.l.total);
    size_t nframes = j.nframes();
    if (getenv("VQ_CAMBI_FRAMES"))
        nframes = std::min(nframes, (size_t)atoi(getenv("VQ_CAMBI_FRAMES")));
    int equal = 0, fallback = 0, pooled = 0;
    double secs = 0;
    for (size_t f = 0; f < nframes; f++) {
        const double want = j.value(f, "cambi");
        ASSERT_EQ(fseek(fd, (long)(f * frame), SEEK_SET), 0);
        ASSERT_EQ(fread(buf.data(), 1, luma, fd), luma);
        const VqPlaneView v = { buf.data(), (ptrdiff_t)g.w * bytes, g.w, g.h, bytes, 0, 1 };
        std::fill(words.begin(), words.end(), (int64_t)0x5a5a5a5a5a5a5a5aLL);
        const auto t0 = std::chrono::steady_clock::now();
        ASSERT_EQ(vq_cambi_cpu_run(c, &s.p, s.t.data(), v, &s.l, words.data()), 0);
        secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        const unsigned need = vq_cambi_fold_needs_cvalues(&s.p, &s.l, words.data());
        const float *cvs[VQ_CAMBI_SCALES];
        for (int k = 0; k < VQ_CAMBI_SCALES; k++)
            cvs[k] = vq_cambi_cpu_cvalues(c, k);
        fallback += need != 0;
        bool any_pooled = false;
        for (int k = 0; k < VQ_CAMBI_SCALES; k++)
            any_pooled |= words[s.l.sel_off[k] + VQ_CAMBI_SEL_POOLED] == VQ_CAMBI_POOL_EXECUTOR;
        pooled += any_pooled;
        const double got = vq_cambi_fold(&s.p, &s.l, words.data(), cvs);
        EXPECT_EQ(got, want) << g.pair << " frame " << f << " (need mask " << need << ")";
        equal += got == want;
    }
    printf("[cambi] %s: %d/%zu frames exact (%d in the reference's order by the executor, %d "
           "needing c-values), CPU %.1f ms/frame\n",
           g.pair, equal, nframes, pooled, fallback, 1e3 * secs / (nframes ? nframes : 1));
    vq_cambi_cpu_free(c);
    fclose(fd);
}

INSTANTIATE_TEST_SUITE_P(
    Pairs, CambiGolden,
    ::testing::Values(golden_pair("dog1080"), golden_pair("dog1080_self"), golden_pair("dog1080p10"),
                      golden_pair("dog1080p12"), golden_pair("birds720"), golden_pair("balle576"),
                      golden_pair("birds422p10"), golden_pair("odd577x323"), golden_pair("small36x34"),
                      golden_pair("checker1080"), golden_pair("dog2160")),
    [](const ::testing::TestParamInfo<GoldenPair> &info) { return std::string(info.param.pair); });

} // namespace
