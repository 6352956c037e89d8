/*
 * test_checkcpu.cpp - checkasm for the CPU executor: every SIMD table of
 * kernels/simd/cpu_simd.h that this build has and this CPU runs, function
 * by function against the plain twins, on the same random input: many
 * random sizes (the minimum each feature accepts, odd ones), 8/10/12/16-bit,
 * LSB- and MSB-aligned 16-bit samples and interleaved (step 2) views,
 * outputs poisoned beforehand and guard words after them, every word ==.
 * Then the whole executors (VIF, ADM, motion, psnr) row buffers, plain vs
 * each table.  The seed is printed; VQ_CHECK_SEED=N repeats a run.
 */
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "adm/adm_exec.h"
#include "adm/adm.h"
#include "adm/adm_params.h"
#include "cambi/cambi.h"
#include "cambi/cambi_fold.h"
#include "adm/cpu_bands.h"
#include "motion/motion_exec.h"
#include "psnr/psnr_exec.h"
#include "psnr_hvs/psnr_hvs.h"
#include "simd/cpu_simd.h"
#include "vif/vif.h"
#include "vif/vif_exec.h"
#include "vif/vif_fold.h"

namespace {

constexpr uint32_t kPoison32 = 0xA5A5A5A5u;
constexpr int kGuard = 16;

uint32_t seed()
{
    static uint32_t s = [] {
        const char *e = std::getenv("VQ_CHECK_SEED");
        uint32_t v = e ? (uint32_t)std::strtoul(e, nullptr, 10) : std::random_device{}();
        std::printf("checkcpu seed %u (VQ_CHECK_SEED=%u repeats it)\n", v, v);
        return v;
    }();
    return s;
}

std::vector<const VqCpuSimd *> tables()
{
    std::vector<const VqCpuSimd *> t;
    for (int k = 1; vq_cpu_simd_names[k]; k++) {
        const VqCpuSimd *p = vq_cpu_simd_get(vq_cpu_simd_names[k]);
        if (p)
            t.push_back(p);
        else
            std::printf("checkcpu: %s not run (not built or not supported by this CPU)\n", vq_cpu_simd_names[k]);
    }
    return t;
}

const std::vector<uint16_t> &log2_table()
{
    static std::vector<uint16_t> t = [] {
        std::vector<uint16_t> v(VQ_VIF_LOG2_TABLE_SIZE);
        vq_vif_log2_table(v.data());
        return v;
    }();
    return t;
}

/* A plane of bpc-bit samples: flat blocks, gradients and noise, so that
 * every branch of the per-pixel decisions is taken. */
struct Plane {
    std::vector<uint8_t> buf;
    VqPlaneView v;
};

/* layout: 0 packed (bytes 1 for 8-bit), 1 16-bit LSB, 2 16-bit MSB, 3 interleaved (step 2) */
void fill_pair(std::mt19937 &rng, int w, int h, int bpc, int layout, Plane &a, Plane &b)
{
    const int maxv = (1 << bpc) - 1;
    std::vector<int> ra((size_t)w * h), rb((size_t)w * h);
    const int mode = rng() % 4;
    const int noise = 1 + rng() % (maxv / 4 + 1);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            int x;
            switch (mode) {
            case 0: x = rng() % (maxv + 1); break;
            case 1: x = ((i / 7 + j / 5) % 3) * maxv / 2; break;
            case 2: x = (i * 13 + j * 7) % (maxv + 1); break;
            default: x = (rng() % 8 == 0) ? rng() % (maxv + 1) : maxv / 3; break;
            }
            int y = x + (int)(rng() % (2 * noise + 1)) - noise;
            if (rng() % 16 == 0)
                y = rng() % (maxv + 1);
            y = y < 0 ? 0 : y > maxv ? maxv : y;
            ra[(size_t)i * w + j] = x;
            rb[(size_t)i * w + j] = y;
        }
    const int bytes = (bpc > 8 || layout == 1 || layout == 2) ? 2 : 1;
    const int step = layout == 3 ? 2 : 1;
    const int shift = layout == 2 ? 16 - bpc : 0;
    const int pad = 1 + rng() % 9;   /* pitch beyond the row */
    for (Plane *p : { &a, &b }) {
        const std::vector<int> &src = p == &a ? ra : rb;
        const ptrdiff_t pitch = ((ptrdiff_t)w * step + pad) * bytes;
        p->buf.assign((size_t)pitch * h + 64, 0x5A);
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                const int x = src[(size_t)i * w + j];
                uint8_t *q = p->buf.data() + (ptrdiff_t)i * pitch + (ptrdiff_t)j * step * bytes;
                if (bytes == 1) {
                    *q = (uint8_t)x;
                } else {
                    const uint16_t u = (uint16_t)(x << shift);
                    std::memcpy(q, &u, 2);
                }
            }
        p->v.data = p->buf.data();
        p->v.pitch = pitch;
        p->v.w = w;
        p->v.h = h;
        p->v.bytes = bytes;
        p->v.shift = shift;
        p->v.step = step;
    }
}

int rand_size(std::mt19937 &rng, int lo, int hi)
{
    const int r = rng() % 4;
    if (r == 0)
        return lo + rng() % 3;
    return lo + rng() % (hi - lo + 1);
}

/* a fill_pair layout: 16-bit LSB only (scales above 0 are uint16 images),
 * else any, MSB-aligned 8-bit samples being no layout (packed instead) */
int rand_layout(std::mt19937 &rng, int bpc, bool lsb16_only)
{
    const int layout = lsb16_only ? 1 : (int)(rng() % 4);
    return bpc == 8 && layout == 2 ? 0 : layout;
}

const int kBpc[] = { 8, 10, 12, 16 };

uint32_t bits_of(float f)
{
    uint32_t b;
    std::memcpy(&b, &f, sizeof(b));
    return b;
}

}  // namespace

/* Each SIMD table the CPU supports against plain; none but plain: skipped. */
class CheckCpuRows : public ::testing::Test {
protected:
    void SetUp() override
    {
        plain = vq_cpu_simd_get("plain");
        ts = tables();
        if (ts.empty())
            GTEST_SKIP() << "no SIMD row loops on this CPU: only plain, nothing to compare";
    }
    const VqCpuSimd *plain = nullptr;
    std::vector<const VqCpuSimd *> ts;
};

TEST(CheckCpu, TablesExist)
{
    ASSERT_NE(vq_cpu_simd(), nullptr);
    ASSERT_NE(vq_cpu_simd_get("plain"), nullptr);
    std::printf("checkcpu: default table %s\n", vq_cpu_simd()->name);
    EXPECT_EQ(vq_cpu_simd_force("no-such-isa"), -1);
    EXPECT_EQ(vq_cpu_simd_force("plain"), 0);
    EXPECT_STREQ(vq_cpu_simd()->name, "plain");
    EXPECT_EQ(vq_cpu_simd_force(nullptr), 0);
}

TEST_F(CheckCpuRows, VifStatRow)
{
    std::mt19937 rng(seed() ^ 1);
    for (const VqCpuSimd *t : ts) {
        for (int it = 0; it < 120; it++) {
            const int s = rng() % 4, bpc = s ? 16 : kBpc[rng() % 4];
            /* scale s of a VIF_MIN_SIZE picture is 16 >> s samples */
            const int w = rand_size(rng, VQ_VIF_MIN_SIZE >> s, 700), h = rand_size(rng, VQ_VIF_MIN_SIZE >> s, 40);
            const int layout = rand_layout(rng, bpc, s != 0);
            Plane a, b;
            fill_pair(rng, w, h, bpc, layout, a, b);
            const double egl = rng() % 2 ? 100.0 : 1.0;
            for (int i = 0; i < h; i++) {
                int64_t x[VQ_VIF_NSUMS + 1], y[VQ_VIF_NSUMS + 1];
                for (int k = 0; k <= VQ_VIF_NSUMS; k++)
                    x[k] = y[k] = (int64_t)0x5A5A5A5A5A5A5A5All;
                plain->vif_stat_row(s, a.v, b.v, i, bpc, egl, log2_table().data(), x);
                t->vif_stat_row(s, a.v, b.v, i, bpc, egl, log2_table().data(), y);
                for (int k = 0; k <= VQ_VIF_NSUMS; k++)
                    ASSERT_EQ(x[k], y[k]) << t->name << " s " << s << " bpc " << bpc << " " << w << "x" << h
                                          << " layout " << layout << " row " << i << " sum " << k;
            }
        }
    }
}

TEST_F(CheckCpuRows, VifSubRow)
{
    std::mt19937 rng(seed() ^ 2);
    for (const VqCpuSimd *t : ts) {
        for (int it = 0; it < 120; it++) {
            const int s = 1 + rng() % 3, bpc = s > 1 ? 16 : kBpc[rng() % 4];
            const int w = rand_size(rng, VQ_VIF_MIN_SIZE >> (s - 1), 700);
            const int h = rand_size(rng, VQ_VIF_MIN_SIZE >> (s - 1), 40);
            const int layout = rand_layout(rng, bpc, s > 1);
            Plane a, b;
            fill_pair(rng, w, h, bpc, layout, a, b);
            const int ow = w / 2, oh = h / 2;
            std::vector<uint16_t> p0(ow + kGuard, 0xA5A5), p1(ow + kGuard, 0xA5A5);
            std::vector<uint16_t> q0(ow + kGuard, 0xA5A5), q1(ow + kGuard, 0xA5A5);
            for (int i = 0; i < oh; i++) {
                plain->vif_sub_row(s, a.v, b.v, i, bpc, ow, p0.data(), p1.data());
                t->vif_sub_row(s, a.v, b.v, i, bpc, ow, q0.data(), q1.data());
                ASSERT_EQ(p0, q0) << t->name << " s " << s << " bpc " << bpc << " " << w << "x" << h << " row " << i;
                ASSERT_EQ(p1, q1) << t->name << " s " << s << " bpc " << bpc << " " << w << "x" << h << " row " << i;
                for (int k = 0; k < kGuard; k++)
                    ASSERT_EQ(q0[ow + k], 0xA5A5);
            }
        }
    }
}

TEST_F(CheckCpuRows, MotionAndPsnrRows)
{
    std::mt19937 rng(seed() ^ 3);
    for (const VqCpuSimd *t : ts) {
        for (int it = 0; it < 150; it++) {
            const int bpc = rng() % 3 == 0 ? 8 + rng() % 9 : kBpc[rng() % 4];
            const int w = rand_size(rng, 3, 700), h = rand_size(rng, 3, 30);
            const int layout = rand_layout(rng, bpc, false);
            Plane a, b, c, d;
            fill_pair(rng, w, h, bpc, layout, a, b);
            /* the previous frame as the motion executor keeps it: packed uint16 */
            fill_pair(rng, w, h, bpc, 1, c, d);
            VqPlaneView prev = c.v;
            prev.pitch = (ptrdiff_t)w * 2;
            std::vector<uint16_t> packed((size_t)w * h);
            std::vector<uint8_t> packed8((size_t)w * h);   /* its uint8 store (bpc <= 8) */
            /* a third of the time the previous frame is the current one
             * shifted by about 127.5 << (bpc - 8): blurred differences about
             * +-32768, the bound of the SIMD loops' int32 horizontal pass */
            const int shift_prev = (int)(rng() % 3), maxv = (1 << bpc) - 1;
            const int base = (int)(rng() % 4) - 2 + 128, sign = rng() % 2 ? 1 : -1;
            for (int i = 0; i < h; i++)
                for (int j = 0; j < w; j++) {
                    int v = (int)vq_sample(c.v, i, j);
                    if (!shift_prev) {
                        const int d = ((base << bpc) >> 8) + (int)(rng() % 3) - 1;
                        v = (int)vq_sample(a.v, i, j) + sign * d;
                        v = v < 0 ? 0 : v > maxv ? maxv : v;
                    }
                    packed[(size_t)i * w + j] = (uint16_t)v;
                    packed8[(size_t)i * w + j] = (uint8_t)v;
                }
            prev.data = (const uint8_t *)packed.data();
            VqPlaneView prev8 = prev;
            prev8.data = packed8.data();
            prev8.bytes = 1;
            prev8.pitch = w;
            std::vector<int32_t> y0(w + 64), y1(w + 64);
            for (int i = 0; i < h; i++) {
                const uint64_t want = plain->motion_row(prev, a.v, i, bpc, y0.data());
                ASSERT_EQ(want, t->motion_row(prev, a.v, i, bpc, y1.data()))
                    << t->name << " motion bpc " << bpc << " " << w << "x" << h << " layout " << layout << " row " << i;
                if (bpc <= 8) {
                    ASSERT_EQ(want, plain->motion_row(prev8, a.v, i, bpc, y0.data())) << "uint8 store, plain";
                    ASSERT_EQ(want, t->motion_row(prev8, a.v, i, bpc, y1.data()))
                        << t->name << " motion, uint8 store, " << w << "x" << h << " layout " << layout << " row " << i;
                }
                ASSERT_EQ(plain->psnr_row(a.v, b.v, i, w, bpc), t->psnr_row(a.v, b.v, i, w, bpc))
                    << t->name << " psnr bpc " << bpc << " " << w << "x" << h << " layout " << layout << " row " << i;
            }
        }
    }
}

/* CAMBI's rows: the mode of three (values from a small range, so that
 * equal pairs occur) and the c-values of random histograms, masks and
 * values at the band's edges, for the options' diff and threshold sets */
TEST_F(CheckCpuRows, CambiRows)
{
    std::mt19937 rng(seed() ^ 11);
    int cases = 0, scored = 0;
    for (const VqCpuSimd *t : ts) {
        for (int it = 0; it < 200; it++) {
            const int n = 1 + (int)(rng() % 300), range = 1 + (int)(rng() % 6);
            std::vector<uint16_t> a(n), b(n), c(n), o0(n), o1(n);
            for (int j = 0; j < n; j++) {
                a[j] = (uint16_t)(rng() % range + (rng() % 50 == 0 ? 60000 : 0));
                b[j] = (uint16_t)(rng() % range);
                c[j] = (uint16_t)(rng() % range);
            }
            plain->cambi_mode3_row(a.data(), b.data(), c.data(), n, o0.data());
            t->cambi_mode3_row(a.data(), b.data(), c.data(), n, o1.data());
            ASSERT_EQ(o0, o1) << t->name << " mode3 n " << n;
        }
        for (int it = 0; it < 60; it++) {
            VqCambiOptions o;
            vq_cambi_default_options(&o);
            const int bpc = it % 3 == 0 ? 10 : 8;
            if (it % 4 == 1)
                o.cambi_vis_lum_threshold = 0.06;
            if (it % 5 == 2)
                o.max_log_contrast = (int)(rng() % 6);
            VqCambiParams p;
            std::vector<VqCambiTables> tab(1);
            char msg[256];
            if (vq_cambi_setup(&o, 320, 240, bpc, 0, &p, tab.data(), msg, sizeof(msg)) != 0)
                continue;   /* options the setup refuses (a TVI table libvmaf reads outside of) */
            const int sw = 17 + (int)(rng() % 300), n = sw;
            std::vector<uint16_t> hist((size_t)p.band_size * sw + 2), vals(n);
            const int cmax = 1 + (int)(rng() % 2000);
            for (auto &h : hist)
                h = (uint16_t)(rng() % 3 == 0 ? 0 : rng() % (unsigned)cmax);
            std::vector<uint8_t> act(n);
            for (int j = 0; j < n; j++) {
                act[j] = rng() % 4 != 0;
                /* inside the band mostly, its edges and outside sometimes */
                const int r = (int)(rng() % 10);
                const int v = r == 0 ? p.band_base - 1 - (int)(rng() % 3) : r == 1 ? p.band_base + p.band_size + (int)(rng() % 3)
                            : r == 2 ? p.band_base + (int)(rng() % 3) : r == 3 ? p.band_base + p.band_size - 1 - (int)(rng() % 3)
                            : p.band_base + (int)(rng() % (unsigned)p.band_size);
                vals[j] = (uint16_t)(v < 0 ? 0 : v);
            }
            std::vector<float> f0(n), f1(n);
            plain->cambi_cvalue_row(&p, tab[0].recip, vals.data(), act.data(), hist.data(), sw, n, f0.data());
            t->cambi_cvalue_row(&p, tab[0].recip, vals.data(), act.data(), hist.data(), sw, n, f1.data());
            int nonzero = 0;
            for (int j = 0; j < n; j++) {
                ASSERT_EQ(bits_of(f0[j]), bits_of(f1[j])) << t->name << " c-value column " << j << " of " << n;
                nonzero += f0[j] != 0.0f;
            }
            if (p.band_size > 1) {
                cases++;
                scored += nonzero > 0;
            }
        }
    }
    /* the random cases exercise the c-values: most score something (one
     * may score nothing by chance: a short row of masked or far values) */
    EXPECT_GT(scored, cases / 2) << scored << " of " << cases << " cases scored something";
}

/* psnr_hvs's block terms of every block row: 8-, 10- and 12-bit planes of
 * random sizes (one block and more, rows of blocks past a lane group's
 * width), every layout, the three planes' tables; every term's bits ==, no
 * term written past the row.  Near pairs (small noise) give zero terms
 * (equal coefficients, or an error under the masking threshold) beside
 * nonzero ones: counted, most cases must have both. */
TEST_F(CheckCpuRows, PsnrHvsRows)
{
    std::mt19937 rng(seed() ^ 13);
    VqPsnrHvsTables tab;
    vq_psnr_hvs_tables_init(&tab);
    int cases = 0, both = 0;
    for (const VqCpuSimd *t : ts) {
        for (int it = 0; it < 120; it++) {
            const int bpc = kBpc[rng() % 3];
            const int w = rand_size(rng, VQ_PSNR_HVS_MIN_PLANE, 300), h = rand_size(rng, VQ_PSNR_HVS_MIN_PLANE, 30);
            Plane a, b;
            fill_pair(rng, w, h, bpc, rand_layout(rng, bpc, false), a, b);
            const int plane = (int)(rng() % 3), nbx = vq_psnr_hvs_nblocks(w), nby = vq_psnr_hvs_nblocks(h);
            std::vector<float> t0((size_t)nbx * 64 + kGuard), t1((size_t)nbx * 64 + kGuard);
            int zeroed = 0, kept = 0;
            for (int by = 0; by < nby; by++) {
                for (auto *v : { &t0, &t1 })
                    for (float &x : *v)
                        std::memcpy(&x, &kPoison32, 4);
                plain->psnr_hvs_row(a.v, b.v, by, nbx, tab.csf[plane], tab.mask[plane], t0.data());
                t->psnr_hvs_row(a.v, b.v, by, nbx, tab.csf[plane], tab.mask[plane], t1.data());
                for (size_t k = 0; k < t0.size(); k++)
                    ASSERT_EQ(bits_of(t0[k]), bits_of(t1[k]))
                        << t->name << " psnr_hvs " << w << "x" << h << " bpc " << bpc << " plane " << plane
                        << " block row " << by << " word " << k << (k >= (size_t)nbx * 64 ? " (guard)" : "");
                for (size_t k = 0; k < (size_t)nbx * 64; k++)
                    (t0[k] == 0.0f ? zeroed : kept)++;
            }
            cases++;
            both += zeroed > 0 && kept > 0;
        }
    }
    EXPECT_GT(both, cases / 2) << both << " of " << cases << " cases had both zero and nonzero terms";
}

TEST_F(CheckCpuRows, AdmDwtRows)
{
    std::mt19937 rng(seed() ^ 4);
    for (const VqCpuSimd *t : ts) {
        for (int it = 0; it < 150; it++) {
            const int bpc = kBpc[rng() % 4];
            const int w = rand_size(rng, 5, 700), h = rand_size(rng, 5, 30);
            const int layout = rand_layout(rng, bpc, false);
            Plane a, b;
            fill_pair(rng, w, h, bpc, layout, a, b);
            const int bw = (w + 1) / 2, bh = (h + 1) / 2;
            std::vector<int32_t> sc(4 * (w + 8));
            std::vector<int32_t> p(4 * (bw + kGuard)), q(4 * (bw + kGuard));
            auto run = [&](const VqCpuSimd *k, std::vector<int32_t> &o, int i, int scale, const int32_t *src) {
                std::fill(o.begin(), o.end(), (int32_t)kPoison32);
                int32_t *r[4];
                for (int m = 0; m < 4; m++)
                    r[m] = o.data() + m * (bw + kGuard);
                if (scale == 0)
                    k->adm_dwt0_row(a.v, bpc, i, bw, r[0], r[1], r[2], r[3], sc.data());
                else
                    k->adm_dwt_s123_row(src, w, w, h, scale, i, bw, r[0], r[1], r[2], r[3], sc.data());
            };
            for (int i = 0; i < bh; i++) {
                run(plain, p, i, 0, nullptr);
                run(t, q, i, 0, nullptr);
                ASSERT_EQ(p, q) << t->name << " dwt0 bpc " << bpc << " " << w << "x" << h << " layout " << layout << " row " << i;
            }
            /* scales 1-3 read int32 A bands: any int32 values within the reference's ranges */
            std::vector<int32_t> src((size_t)w * h);
            const int range = rng() % 2 ? 1 << 16 : 1 << 28;
            for (int32_t &x : src)
                x = (int32_t)(rng() % (2u * range)) - range;
            for (int scale = 1; scale < 4; scale++)
                for (int i = 0; i < bh; i++) {
                    run(plain, p, i, scale, src.data());
                    run(t, q, i, scale, src.data());
                    ASSERT_EQ(p, q) << t->name << " dwt scale " << scale << " " << w << "x" << h << " row " << i;
                }
        }
    }
}

/* ADM's options: half the time the defaults, else another contrast
 * sensitivity function (other multipliers; Barten's wrap past 2^31) */
static VqAdmOptions random_adm_options(std::mt19937 &rng)
{
    static const struct { int mode; double nvd; int rdh; double scf, scfd; } csf[] = {
        { 1, 3.0, 1080, 1.0, 1.0 }, { 1, 5.0, 2160, 0.37, 2.5 }, { 1, 1.5, 2160, 50.0, 0.0 },
        { 2, 3.0, 1080, 1.0, 1.0 }, { 2, 5.0, 1080, 1.0, 1.0 }, { 3, 3.0, 2160, 1.0, 1.0 },
        { 3, 5.0, 720, 1.0, 1.0 },
    };
    VqAdmOptions o;
    vq_adm_options_default(&o);
    if (rng() % 2) {
        const auto &c = csf[rng() % (sizeof(csf) / sizeof(csf[0]))];
        o.csf_mode = c.mode;
        o.norm_view_dist = c.nvd;
        o.ref_display_height = c.rdh;
        o.csf_scale = c.scf;
        o.csf_diag_scale = c.scfd;
    }
    return o;
}

/* ADM decouple + CSF rows: band values as the DWT gives them (int16 at
 * scale 0, int32 above), distorted = reference + noise (so the angle test
 * goes both ways), zeros, and magnitudes that take every ratio path */
TEST_F(CheckCpuRows, AdmDecoupleRows)
{
    std::mt19937 rng(seed() ^ 6);
    for (const VqCpuSimd *t : ts) {
        for (int it = 0; it < 200; it++) {
            const int w = rand_size(rng, 40, 900), h = 40;
            const int bpc = kBpc[rng() % 4];
            VqAdmParams ap;
            const VqAdmOptions ao = random_adm_options(rng);
            ASSERT_EQ(vq_adm_params_init(&ap, w, h, bpc, &ao), 0);
            if (rng() % 3 == 0)
                ap.egl = 1.0;
            const int scale = rng() % 4;
            const int bw = ap.s[scale].w;
            /* |value| < 2^lim_exp; scale 0's int16 range whole at times, -32768 too */
            const int lim_exp = scale == 0 ? 15 + (int)(rng() % 2) : 8 + rng() % 23;
            std::vector<int32_t> in(8 * bw);
            for (int b = 0; b < 4; b++)
                for (int j = 0; j < bw; j++) {
                    int64_t o;
                    switch (rng() % 6) {
                    case 0: o = 0; break;
                    case 1: o = (int64_t)(rng() % 64) - 32; break;
                    default: o = (int64_t)(rng() % (2ull << (lim_exp - 1))) - (1ll << (lim_exp - 1)); break;
                    }
                    int64_t d = o;
                    switch (rng() % 4) {
                    case 0: break;
                    case 1: d = o + (int64_t)(rng() % 9) - 4; break;
                    case 2: d = o / 2 + (int64_t)(rng() % 5) - 2; break;
                    default: d = (int64_t)(rng() % (2ull << (lim_exp - 1))) - (1ll << (lim_exp - 1)); break;
                    }
                    const int64_t lim = (1ll << (lim_exp - 1)) - 1;
                    o = o < -lim ? -lim : o > lim ? lim : o;
                    d = d < -lim ? -lim : d > lim ? lim : d;
                    if (lim_exp == 16 && rng() % 16 == 0)
                        o = -32768;
                    if (lim_exp == 16 && rng() % 16 == 0)
                        d = -32768;
                    in[b * bw + j] = (int32_t)o;
                    in[(4 + b) * bw + j] = (int32_t)d;
                }
            const int32_t *rb[4], *db[4];
            for (int b = 0; b < 4; b++) {
                rb[b] = in.data() + b * bw;
                db[b] = in.data() + (4 + b) * bw;
            }
            const int j0 = rng() % 4, j1 = bw - (int)(rng() % 4);
            std::vector<int32_t> p((size_t)VQ_ADM_IN_NPLANES * (bw + kGuard), (int32_t)kPoison32), q = p;
            int32_t *po[VQ_ADM_IN_NPLANES], *qo[VQ_ADM_IN_NPLANES];
            for (int k = 0; k < VQ_ADM_IN_NPLANES; k++) {
                po[k] = p.data() + k * (bw + kGuard);
                qo[k] = q.data() + k * (bw + kGuard);
            }
            plain->adm_decouple_row(rb, db, j0, j1, &ap, scale, po);
            t->adm_decouple_row(rb, db, j0, j1, &ap, scale, qo);
            for (int k = 0; k < VQ_ADM_IN_NPLANES; k++)
                for (int j = 0; j < bw + kGuard; j++)
                    ASSERT_EQ(po[k][j], qo[k][j]) << t->name << " scale " << scale << " w " << w << " plane " << k
                                                  << " col " << j << " egl " << ap.egl;
        }
    }
}

/* the whole executors' row buffers: plain vs each table */
TEST_F(CheckCpuRows, WholeExecutors)
{
    std::mt19937 rng(seed() ^ 5);
    for (int it = 0; it < 24; it++) {
        const int bpc = kBpc[rng() % 4];
        const int w = rand_size(rng, 33, 400), h = rand_size(rng, 33, 200);
        const int layout = rand_layout(rng, bpc, false);
        Plane a, b, c, d;
        fill_pair(rng, w, h, bpc, layout, a, b);
        fill_pair(rng, w, h, bpc, layout, c, d);
        VqRowLayout l;
        vq_row_layout_init(&l, w, h, w, h);
        VqPsnrLayout pl;
        vq_psnr_layout_init(&pl, w, h, w, h);
        VqAdmParams ap;
        const VqAdmOptions ao = random_adm_options(rng);
        ASSERT_EQ(vq_adm_params_init(&ap, w, h, bpc, &ao), 0);
        auto all = [&](const char *name) {
            EXPECT_EQ(vq_cpu_simd_force(name), 0);
            /* psnr's section after the layout's, motion's after psnr's */
            std::vector<int64_t> rows(l.total + pl.total + VQ_MOTION_WORDS(h) + kGuard, (int64_t)0x5A5A5A5A5A5A5A5All);
            VqVifCpu *v = vq_vif_cpu_alloc(w, h);
            VqAdmCpu *m = vq_adm_cpu_alloc(w, h);
            VqMotionCpu *mo = vq_motion_cpu_alloc(w, h, VQ_MOTION_LAG1);
            vq_vif_cpu_run(v, a.v, b.v, bpc, 100.0, log2_table().data(), &l, rows.data());
            vq_adm_cpu_run(m, a.v, b.v, bpc, &ap, &l, rows.data());
            vq_motion_cpu_run(mo, c.v, bpc, rows.data() + l.total + pl.total);
            vq_motion_cpu_run(mo, a.v, bpc, rows.data() + l.total + pl.total);
            const VqPlaneView r3[3] = { a.v, a.v, a.v }, d3[3] = { b.v, b.v, b.v };
            vq_psnr_cpu_run(r3, d3, 3, bpc, &pl, rows.data() + l.total);
            vq_vif_cpu_free(v);
            vq_adm_cpu_free(m);
            vq_motion_cpu_free(mo);
            vq_cpu_simd_force(nullptr);
            return rows;
        };
        const std::vector<int64_t> ref = all("plain");
        for (const VqCpuSimd *t : ts)
            ASSERT_EQ(ref, all(t->name)) << t->name << " bpc " << bpc << " " << w << "x" << h << " layout " << layout;
    }
}
