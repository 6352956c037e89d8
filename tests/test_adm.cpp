/*
 * test_adm.cpp - integer ADM: parameters pinned to the reference's numbers
 * (spec section 3, obtained from libvmaf v3.2.0), the DWT border rule, the
 * -2^31 rounding quirk, and the CPU executor + host fold against libvmaf's
 * golden output (exact ==) on a few frames of every kind of input.
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "adm/adm.h"
#include "adm/adm_exec.h"
#include "adm/adm_fold.h"
#include "adm/adm_params.h"
#include "clip_table.h"
#include "golden.h"

namespace {

uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

VqAdmParams default_params(int w, int h, int bpc = 8)
{
    VqAdmParams p;
    EXPECT_EQ(vq_adm_params_init(&p, w, h, bpc, nullptr), 0);
    return p;
}

/* ----------------------------------------------------------- params --- */

TEST(AdmParams, RfactorsAreTheReferenceFloats)
{
    const VqAdmParams p = default_params(1920, 1080);
    const uint32_t hv[4] = { 0x3c8e63ba, 0x3d030286, 0x3d31a788, 0x3d3b140b };
    const uint32_t d[4] = { 0x3bc106aa, 0x3c6a46a3, 0x3cc7dc06, 0x3d0041c9 };
    for (int s = 0; s < 4; s++) {
        EXPECT_EQ(float_bits(p.s[s].rfactor[0]), hv[s]) << "scale " << s;
        EXPECT_EQ(float_bits(p.s[s].rfactor[1]), hv[s]) << "scale " << s;
        EXPECT_EQ(float_bits(p.s[s].rfactor[2]), d[s]) << "scale " << s;
    }
    EXPECT_EQ(float_bits(p.cos_1deg_sq), 0x3f7fec0au);
}

TEST(AdmParams, FixedPointFactors)
{
    const VqAdmParams p = default_params(1920, 1080);
    /* scale 0: the hard-coded values (the formula would give 36451 / 49414) */
    EXPECT_EQ(p.s[0].i_rfactor[0], 36453u);
    EXPECT_EQ(p.s[0].i_rfactor[1], 36453u);
    EXPECT_EQ(p.s[0].i_rfactor[2], 49417u);
    const uint32_t hv[3] = { 137373792u, 186284160u, 196165808u };
    const uint32_t d[3] = { 61414028u, 104783920u, 134487184u };
    for (int s = 1; s < 4; s++) {
        EXPECT_EQ(p.s[s].i_rfactor[0], hv[s - 1]) << "scale " << s;
        EXPECT_EQ(p.s[s].i_rfactor[1], hv[s - 1]) << "scale " << s;
        EXPECT_EQ(p.s[s].i_rfactor[2], d[s - 1]) << "scale " << s;
    }
}

TEST(AdmParams, Rects1080p)
{
    const VqAdmParams p = default_params(1920, 1080);
    const int bw[4] = { 960, 480, 240, 120 }, bh[4] = { 540, 270, 135, 68 };
    const VqAdmRect cm[4] = { { 95, 53, 865, 487 }, { 47, 26, 433, 244 },
                              { 23, 13, 217, 122 }, { 11, 6, 109, 62 } };
    for (int s = 0; s < 4; s++) {
        EXPECT_EQ(p.s[s].w, bw[s]);
        EXPECT_EQ(p.s[s].h, bh[s]);
        EXPECT_EQ(p.s[s].cm.left, cm[s].left) << "scale " << s;
        EXPECT_EQ(p.s[s].cm.top, cm[s].top) << "scale " << s;
        EXPECT_EQ(p.s[s].cm.right, cm[s].right) << "scale " << s;
        EXPECT_EQ(p.s[s].cm.bottom, cm[s].bottom) << "scale " << s;
    }
    EXPECT_EQ(p.s[0].dec.left, 94);
    EXPECT_EQ(p.s[0].dec.top, 52);
    EXPECT_EQ(p.s[0].dec.right, 868);
    EXPECT_EQ(p.s[0].dec.bottom, 490);
}

TEST(AdmParams, Shifts)
{
    const VqAdmParams p = default_params(1920, 1080);
    /* scale 0 den: no per-row shift at 1080p; CM cube shifts for w 960, h 540 */
    EXPECT_EQ(p.s[0].den_shift_row, 0u);
    EXPECT_EQ(p.s[0].den_add_row, 0u);
    EXPECT_EQ(p.s[0].cm_shift_cub[0], 6u);
    EXPECT_EQ(p.s[0].cm_shift_cub[1], 6u);
    EXPECT_EQ(p.s[0].cm_shift_cub[2], 7u);
    EXPECT_EQ(p.s[0].cm_shift_row, 10u);
    EXPECT_EQ(p.s[0].cm_add_row, 512u);
    /* scales 1-3: den squaring rounds with a full 2^shift_sq */
    const uint32_t sq[3] = { 31, 30, 31 };
    for (int s = 1; s < 4; s++) {
        EXPECT_EQ(p.s[s].den_shift_sq, sq[s - 1]);
        EXPECT_EQ(p.s[s].den_add_sq, 1u << sq[s - 1]);
    }
    /* 4K: the scale 0 den gets a per-row shift of 1 */
    const VqAdmParams q = default_params(3840, 2160);
    EXPECT_EQ(q.s[0].den_shift_row, 1u);
    EXPECT_EQ(q.s[0].den_add_row, 1u);
}

TEST(AdmParams, RefusesWhatTheReferenceCannotScore)
{
    VqAdmParams p;
    EXPECT_EQ(vq_adm_params_init(&p, 33, 33, 8, nullptr), 0);
    EXPECT_LT(vq_adm_params_init(&p, 32, 33, 8, nullptr), 0);
    EXPECT_LT(vq_adm_params_init(&p, 33, 32, 8, nullptr), 0);
    VqAdmOptions o;
    vq_adm_options_default(&o);
    o.norm_view_dist = 2.0;     /* nvd * rdh < 3 * 1080: libvmaf's extract fails */
    EXPECT_LT(vq_adm_params_init(&p, 64, 64, 8, &o), 0);
}

/* A ladder's reference part of ADM on the GPU (its DWT bands and the
 * denominators' row sums: cuda_adm.cu's ADM_REF kernels) is made once, with
 * the default options' parameters of the size and depth
 * (VqAdmGeom.ref_part_params), and read by instances of any options.  That
 * holds while everything those kernels read depends on the size and depth
 * alone: the sizes, the CM rect and the denominators' shifts.  Each option
 * that changes the parameters, at sizes where the shifts differ. */
TEST(AdmParams, ReferencePartReadsOnlySizeAndDepth)
{
    struct Variant {
        const char *what;
        void (*set)(VqAdmOptions *);
    };
    const Variant variants[] = {
        { "egl 1", [](VqAdmOptions *o) { o->enhn_gain_limit = 1.0; } },
        { "nvd 5", [](VqAdmOptions *o) { o->norm_view_dist = 5.0; } },
        { "rdh 2160", [](VqAdmOptions *o) { o->ref_display_height = 2160; } },
        { "nw 0.5", [](VqAdmOptions *o) { o->noise_weight = 0.5; } },
        { "dlmw 0.2", [](VqAdmOptions *o) { o->dlm_weight = 0.2; } },
        { "min 0.1", [](VqAdmOptions *o) { o->min_val = 0.1; } },
        { "csf 1", [](VqAdmOptions *o) { o->csf_mode = VQ_ADM_CSF_BARTEN; o->csf_scale = 2.0; o->csf_diag_scale = 0.5; } },
        { "csf 2", [](VqAdmOptions *o) { o->csf_mode = VQ_ADM_CSF_BLEND; o->ref_display_height = 2160; o->norm_view_dist = 1.5; } },
        { "csf 3", [](VqAdmOptions *o) { o->csf_mode = VQ_ADM_CSF_BLEND_MAE; o->ref_display_height = 2160; o->norm_view_dist = 1.5; } },
    };
    const int sizes[][2] = { { 33, 33 }, { 64, 48 }, { 853, 480 }, { 1920, 1080 }, { 3840, 2160 }, { 4097, 2305 } };
    for (const auto &sz : sizes)
        for (int bpc : { 8, 10, 12, 16 }) {
            VqAdmParams def;
            ASSERT_EQ(vq_adm_params_init(&def, sz[0], sz[1], bpc, nullptr), 0);
            for (const Variant &v : variants) {
                VqAdmOptions o;
                vq_adm_options_default(&o);
                v.set(&o);
                VqAdmParams p;
                ASSERT_EQ(vq_adm_params_init(&p, sz[0], sz[1], bpc, &o), 0) << v.what;
                const std::string at = std::string(v.what) + " at " + std::to_string(sz[0]) + "x" +
                                       std::to_string(sz[1]) + " " + std::to_string(bpc) + "-bit";
                EXPECT_TRUE(p.w == def.w && p.h == def.h && p.bpc == def.bpc) << at;
                for (int s = 0; s < VQ_ADM_SCALES; s++) {
                    const VqAdmScaleParams &a = p.s[s], &b = def.s[s];
                    EXPECT_TRUE(a.in_w == b.in_w && a.in_h == b.in_h && a.w == b.w && a.h == b.h) << at;
                    EXPECT_EQ(std::memcmp(&a.cm, &b.cm, sizeof(a.cm)), 0) << at << " scale " << s;
                    EXPECT_TRUE(a.den_shift_sq == b.den_shift_sq && a.den_add_sq == b.den_add_sq &&
                                a.den_shift_cub == b.den_shift_cub && a.den_add_cub == b.den_add_cub &&
                                a.den_shift_row == b.den_shift_row && a.den_add_row == b.den_add_row)
                        << at << " scale " << s;
                }
                /* the options do change the parameters (else the check above proves nothing) */
                EXPECT_NE(std::memcmp(&p, &def, sizeof(p)), 0) << at;
            }
        }
}

/* ------------------------------------------------------ per-pixel math --- */

TEST(AdmMath, DwtBorderIndices)
{
    int t[4];
    vq_adm_dwt_taps(0, 9, t);   /* start: reflect-101, -1 -> 1 */
    EXPECT_EQ(t[0], 1); EXPECT_EQ(t[1], 0); EXPECT_EQ(t[2], 1); EXPECT_EQ(t[3], 2);
    vq_adm_dwt_taps(1, 9, t);
    EXPECT_EQ(t[0], 1); EXPECT_EQ(t[1], 2); EXPECT_EQ(t[2], 3); EXPECT_EQ(t[3], 4);
    vq_adm_dwt_taps(4, 9, t);   /* end, odd n: 9 -> 8, 10 -> 7 */
    EXPECT_EQ(t[0], 7); EXPECT_EQ(t[1], 8); EXPECT_EQ(t[2], 8); EXPECT_EQ(t[3], 7);
    vq_adm_dwt_taps(4, 10, t);  /* end, even n: 10 -> 9 */
    EXPECT_EQ(t[0], 7); EXPECT_EQ(t[1], 8); EXPECT_EQ(t[2], 9); EXPECT_EQ(t[3], 9);
    vq_adm_dwt_taps(2, 5, t);   /* the smallest input: 5 -> 4, 6 -> 3 */
    EXPECT_EQ(t[0], 3); EXPECT_EQ(t[1], 4); EXPECT_EQ(t[2], 4); EXPECT_EQ(t[3], 3);
}

TEST(AdmMath, Csf123RoundingQuirk)
{
    /* csf_f rounds with -2^31: -1 up to |csf_a| 14, 0 for 15..44, 1 from 45 */
    for (int v = 0; v <= 14; v++) {
        EXPECT_EQ(vq_adm_csf_f_s123(v), -1) << v;
        EXPECT_EQ(vq_adm_csf_f_s123(-v), -1) << -v;
    }
    for (int v = 15; v <= 44; v++)
        EXPECT_EQ(vq_adm_csf_f_s123(v), 0) << v;
    EXPECT_EQ(vq_adm_csf_f_s123(45), 1);
    EXPECT_EQ(vq_adm_csf_f_s123(-45), 1);
    /* the 1/15 centre term: -1 up to 7, 0 for 8..22 */
    for (int v = 0; v <= 7; v++)
        EXPECT_EQ(vq_adm_cm_centre_s123(v), -1) << v;
    for (int v = 8; v <= 22; v++)
        EXPECT_EQ(vq_adm_cm_centre_s123(v), 0) << v;
}

/* ------------------------------------------------------------ golden --- */

struct Clip {
    const char *pair, *ref, *dis, *golden, *suffix;
    int w, h, bpc, cw_shift, ch_shift, nframes;
    double egl;
};

/* gtest prints a parameter that fails: name the pair, not its bytes */
void PrintTo(const Clip &c, std::ostream *os)
{
    *os << c.pair;
}

class AdmGolden : public ::testing::TestWithParam<Clip> {};

TEST_P(AdmGolden, CpuExecutorMatchesLibvmaf)
{
    const Clip &c = GetParam();
    const char *raw_dir = getenv("VQ_RAW_DIR"), *golden_dir = getenv("VQ_GOLDEN_DIR");
    if (!raw_dir || !golden_dir)
        GTEST_SKIP() << "VQ_RAW_DIR / VQ_GOLDEN_DIR not set";
    vq_test::GoldenLog g;
    std::string gerr;
    const vq_test::GoldenStatus st = vq_test::load_golden(std::string(golden_dir) + "/" + c.golden, &g, &gerr);
    FILE *fr = fopen((std::string(raw_dir) + "/" + c.ref + ".yuv").c_str(), "rb");
    FILE *fd = fopen((std::string(raw_dir) + "/" + c.dis + ".yuv").c_str(), "rb");
    if (st == vq_test::GoldenStatus::Missing || !fr || !fd) {
        if (fr) fclose(fr);
        if (fd) fclose(fd);
        GTEST_SKIP() << "raw frames or golden file of " << c.pair << " not found";
    }
    if (st != vq_test::GoldenStatus::Ok) {
        fclose(fr);
        fclose(fd);
        FAIL() << gerr;
    }

    const int bytes = c.bpc > 8 ? 2 : 1;
    const size_t luma = (size_t)c.w * c.h * bytes;
    const size_t chroma = (size_t)((c.w + (1 << c.cw_shift) - 1) >> c.cw_shift) *
                          ((c.h + (1 << c.ch_shift) - 1) >> c.ch_shift) * bytes;
    const size_t frame_size = luma + 2 * chroma;

    VqAdmOptions opt;
    vq_adm_options_default(&opt);
    opt.enhn_gain_limit = c.egl;
    VqAdmParams p;
    ASSERT_EQ(vq_adm_params_init(&p, c.w, c.h, c.bpc, &opt), 0);
    VqRowLayout l;
    vq_row_layout_init(&l, c.w, c.h, 0, 0);
    std::vector<int64_t> rows(l.total, -1);
    VqAdmCpu *cpu = vq_adm_cpu_alloc(c.w, c.h);
    ASSERT_NE(cpu, nullptr);

    const char *names[7] = { "integer_adm2", "integer_aim", "integer_adm3",
                             "integer_adm_scale0", "integer_adm_scale1",
                             "integer_adm_scale2", "integer_adm_scale3" };
    std::vector<uint8_t> rb(luma), db(luma);
    for (int f = 0; f < c.nframes; f++) {
        ASSERT_EQ(fseek(fr, (long)(f * frame_size), SEEK_SET), 0);
        ASSERT_EQ(fseek(fd, (long)(f * frame_size), SEEK_SET), 0);
        ASSERT_EQ(fread(rb.data(), 1, luma, fr), luma);
        ASSERT_EQ(fread(db.data(), 1, luma, fd), luma);
        const VqPlaneView rv = { rb.data(), (ptrdiff_t)c.w * bytes, c.w, c.h, bytes, 0, 1 };
        VqPlaneView dv = rv;
        dv.data = db.data();
        ASSERT_EQ(vq_adm_cpu_run(cpu, rv, dv, c.bpc, &p, &l, rows.data()), 0);
        VqAdmScores s;
        vq_adm_fold(&p, &l, rows.data(), &s);
        const double mine[7] = { s.adm2, s.aim, s.adm3, s.scale[0], s.scale[1], s.scale[2],
                                 s.scale[3] };
        const int gf = g.frame_index(f);   /* frameNum f */
        for (int k = 0; k < 7; k++) {
            const std::string name = std::string(names[k]) + c.suffix;
            ASSERT_TRUE(gf >= 0 && g.has((size_t)gf, name)) << c.golden << " frame " << f << " " << names[k];
            EXPECT_EQ(mine[k], g.value((size_t)gf, name)) << c.pair << " frame " << f << " " << names[k];
        }
    }
    vq_adm_cpu_free(cpu);
    fclose(fr);
    fclose(fd);
}

/* a pair of tests/data/clips.tsv (its clips and geometry) with this test's columns */
Clip adm_clip(const char *pair, const char *row, const char *golden, const char *suffix, int nframes,
              double egl)
{
    const vq_test::ClipRow &c = vq_test::clip(row);
    return { pair, c.ref.c_str(), c.dis.c_str(), golden, suffix, c.w, c.h, c.bpc, c.ssx, c.ssy, nframes, egl };
}

const Clip kClips[] = {
    /* pair, table row, golden, suffix, frames, egl */
    adm_clip("dog1080", "dog1080", "dog1080.json", "", 2, 100),
    adm_clip("dog1080p10", "dog1080p10", "dog1080p10.json", "", 1, 100),
    adm_clip("dog1080p12", "dog1080p12", "dog1080p12.json", "", 1, 100),
    adm_clip("birds422p10", "birds422p10", "birds422p10.json", "", 2, 100),
    adm_clip("odd577x323", "odd577x323", "odd577x323.json", "", 3, 100),
    adm_clip("small36x34", "small36x34", "small36x34.json", "", 8, 100),
    adm_clip("checker1080", "checker1080", "checker1080.json", "", 1, 100),
    adm_clip("dog2160", "dog2160", "dog2160.json", "", 1, 100),
    adm_clip("dog1080neg", "dog1080", "dog1080.vmaf_v0.6.1neg.json", "_egl_1", 2, 1.0),
};

INSTANTIATE_TEST_SUITE_P(Pairs, AdmGolden, ::testing::ValuesIn(kClips),
                         [](const ::testing::TestParamInfo<Clip> &i) { return std::string(i.param.pair); });

/* The same frame through an msb-aligned (P010-style) view with a padded
 * pitch gives the same row sums as the plain LSB view. */
TEST(AdmViews, MsbAlignedPaddedPitchSameRows)
{
    const int w = 97, h = 71, bpc = 10, pitch_samples = 128;
    std::vector<uint16_t> ref(w * h), dis(w * h), ref_msb(pitch_samples * h), dis_msb(pitch_samples * h);
    uint32_t seed = 12345;
    auto rnd = [&seed]() { seed = seed * 1664525u + 1013904223u; return seed >> 22; };
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            const uint16_t r = (uint16_t)((i * 7 + j * 3 + (rnd() & 63)) & 1023);
            const uint16_t d = (uint16_t)((r + (rnd() & 31) - 16) & 1023);
            ref[i * w + j] = r;
            dis[i * w + j] = d;
            ref_msb[i * pitch_samples + j] = (uint16_t)(r << 6);
            dis_msb[i * pitch_samples + j] = (uint16_t)(d << 6);
        }
    const VqAdmParams p = default_params(w, h, bpc);
    VqRowLayout l;
    vq_row_layout_init(&l, w, h, 0, 0);
    std::vector<int64_t> a(l.total, -1), b(l.total, -2);
    VqAdmCpu *cpu = vq_adm_cpu_alloc(w, h);
    ASSERT_NE(cpu, nullptr);
    const VqPlaneView rl = { (const uint8_t *)ref.data(), (ptrdiff_t)w * 2, w, h, 2, 0, 1 };
    const VqPlaneView dl = { (const uint8_t *)dis.data(), (ptrdiff_t)w * 2, w, h, 2, 0, 1 };
    const VqPlaneView rm = { (const uint8_t *)ref_msb.data(), (ptrdiff_t)pitch_samples * 2, w, h, 2, 6, 1 };
    const VqPlaneView dm = { (const uint8_t *)dis_msb.data(), (ptrdiff_t)pitch_samples * 2, w, h, 2, 6, 1 };
    ASSERT_EQ(vq_adm_cpu_run(cpu, rl, dl, bpc, &p, &l, a.data()), 0);
    ASSERT_EQ(vq_adm_cpu_run(cpu, rm, dm, bpc, &p, &l, b.data()), 0);
    for (int s = 0; s < VQ_ADM_SCALES; s++)
        for (size_t k = 0; k < (size_t)l.adm_h[s] * VQ_ADM_NSUMS; k++)
            ASSERT_EQ(a[l.adm_off[s] + k], b[l.adm_off[s] + k]) << "scale " << s << " entry " << k;
    vq_adm_cpu_free(cpu);
}

} // namespace
