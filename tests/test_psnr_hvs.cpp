/*
 * test_psnr_hvs.cpp - psnr_hvs: the tables, the integer DCT, the block
 * arithmetic, the binade-split float sum the CUDA executor uses, the input
 * check, and the CPU executor + fold against libvmaf v3.2.0's golden scores
 * (==, every frame of every pair; null = +inf).
 *
 * Golden tests read raw frames from $VQ_RAW_DIR/<clip>.yuv (planar, all
 * frames concatenated) and $VQ_GOLDEN_DIR/<pair>.features.json; they are
 * skipped when either is missing.  TablesEqualReferenceSource reads the
 * reference's source from $VQ_LIBVMAF_SRC (the libvmaf tree), skipped
 * without it.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <climits>
#include <fstream>
#include <limits>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <time.h>
#include <array>
#include <vector>

#include "clip_table.h"
#include "golden.h"
#include "psnr_hvs/psnr_hvs.h"
#include "psnr_hvs/psnr_hvs_exec.h"
#include "psnr_hvs/psnr_hvs_fold.h"
#include "vqcuda.h"

namespace {

VqPsnrHvsTables tables()
{
    VqPsnrHvsTables t;
    vq_psnr_hvs_tables_init(&t);
    return t;
}

/* ---- tables ------------------------------------------------------------- */

TEST(PsnrHvsTables, SymmetricAndMaskFormula)
{
    const VqPsnrHvsTables t = tables();
    for (int p = 0; p < 3; p++)
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                EXPECT_EQ(t.csf[p][i * 8 + j], t.csf[p][j * 8 + i]);
                const double a = (double)t.csf[p][i * 8 + j] * 0.3885746225901003;
                EXPECT_EQ(t.mask[p][i * 8 + j], (float)(a * a));
                EXPECT_GT(t.mask[p][i * 8 + j], 0.f);
            }
    /* corners and the largest entries, as the reference's literals round */
    EXPECT_EQ(t.csf[0][0], (float)1.6193873005);
    EXPECT_EQ(t.csf[0][1], (float)2.2901594831);
    EXPECT_EQ(t.csf[0][63], (float)0.109083846276);
    EXPECT_EQ(t.csf[1][1], (float)2.46074210438);
    EXPECT_EQ(t.csf[2][63], (float)0.285345396658);
    EXPECT_EQ(t.csf[2][8], (float)2.62502345193);
    /* the Cb and Cr tables are not the same table */
    EXPECT_NE(0, memcmp(t.csf[1], t.csf[2], sizeof(t.csf[1])));
}

/* Every entry against the reference's own initialisers (parsed from its
 * source, each literal converted to float as the compiler does). */
TEST(PsnrHvsTables, TablesEqualReferenceSource)
{
    const char *dir = getenv("VQ_LIBVMAF_SRC");
    if (!dir)
        GTEST_SKIP() << "VQ_LIBVMAF_SRC not set";
    std::ifstream f(std::string(dir) + "/src/feature/third_party/xiph/psnr_hvs.c");
    if (!f)
        GTEST_SKIP() << "no psnr_hvs.c under " << dir;
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string src = ss.str();
    const VqPsnrHvsTables t = tables();
    const char *names[3] = { "csf_y", "csf_cb420", "csf_cr420" };
    for (int p = 0; p < 3; p++) {
        const std::string head = std::string("static float ") + names[p] + "[8][8] = {";
        size_t pos = src.find(head);
        ASSERT_NE(pos, std::string::npos) << names[p];
        pos += head.size();
        const size_t end = src.find("};", pos);
        const std::string body = src.substr(pos, end - pos);
        std::regex num("[0-9]+\\.[0-9]+");
        int k = 0;
        for (auto it = std::sregex_iterator(body.begin(), body.end(), num);
             it != std::sregex_iterator(); ++it, k++) {
            ASSERT_LT(k, 64);
            EXPECT_EQ(t.csf[p][k], (float)strtod(it->str().c_str(), nullptr))
                << names[p] << " entry " << k;
        }
        EXPECT_EQ(k, 64) << names[p];
    }
}

/* ---- DCT ---------------------------------------------------------------- */

TEST(PsnrHvsDct, UnbiasedShiftRoundsTowardZero)
{
    for (int a = -1000; a <= 1000; a++)
        for (int b = 1; b < 5; b++)
            EXPECT_EQ(vq_psnr_hvs_unbiased_rshift(a, b), a / (1 << b)) << a << " " << b;
    EXPECT_EQ(vq_psnr_hvs_unbiased_rshift(INT32_MIN + 1, 1), (INT32_MIN + 1) / 2);
}

/* The 1-D transform worked by hand through the lifting steps for a
 * constant 100: the DC is 283 (100 sqrt(8) = 282.8), everything else 0. */
TEST(PsnrHvsDct, ConstantRowByHand)
{
    int32_t x[8], y[8];
    for (int i = 0; i < 8; i++)
        x[i] = 100;
    vq_psnr_hvs_fdct8(y, x, 1);
    EXPECT_EQ(y[0], 283);
    for (int i = 1; i < 8; i++)
        EXPECT_EQ(y[i], 0) << i;
}

/* An orthonormal DCT-II up to the lifting's rounding, on random 12-bit
 * blocks and on the extremes (no int32 overflow at 12 bits). */
TEST(PsnrHvsDct, CloseToOrthonormalDct)
{
    std::mt19937 rng(7);
    double basis[8][8];
    for (int k = 0; k < 8; k++)
        for (int n = 0; n < 8; n++)
            basis[k][n] = (k ? std::sqrt(2.0 / 8) : std::sqrt(1.0 / 8)) *
                          std::cos(M_PI * (2 * n + 1) * k / 16.0);
    double worst = 0;
    for (int rep = 0; rep < 3000; rep++) {
        int32_t b[64];
        for (int k = 0; k < 64; k++) {
            const int mode = rep % 3;
            b[k] = mode == 0 ? (int32_t)(rng() % 4096)
                 : mode == 1 ? ((rng() & 1) ? 4095 : 0)
                             : (int32_t)((((k >> 3) + (k & 7) + rep) & 1) ? 4095 : 0);
        }
        double want[64];
        for (int u = 0; u < 8; u++)
            for (int v = 0; v < 8; v++) {
                double s = 0;
                for (int i = 0; i < 8; i++)
                    for (int j = 0; j < 8; j++)
                        s += basis[u][i] * basis[v][j] * b[i * 8 + j];
                want[u * 8 + v] = s;
            }
        vq_psnr_hvs_fdct8x8(b);
        for (int k = 0; k < 64; k++)
            worst = std::max(worst, std::fabs(b[k] - want[k]));
    }
    EXPECT_LT(worst, 4.0);
}

/* ---- block arithmetic -------------------------------------------------- */

/* Identical blocks give 64 zero terms; a flat block (variance 0) has mask 0,
 * so its terms are the plain (|diff| csf)^2 of the DCT difference. */
TEST(PsnrHvsBlock, IdenticalAndFlatBlocks)
{
    const VqPsnrHvsTables t = tables();
    std::vector<uint8_t> a(64), b(64);
    std::mt19937 rng(3);
    for (int k = 0; k < 64; k++)
        a[k] = (uint8_t)rng();
    const VqPlaneView va = { a.data(), 8, 8, 8, 1, 0, 1 };
    float terms[64];
    vq_psnr_hvs_block_terms(va, va, 0, 0, t.csf[0], t.mask[0], terms);
    for (int k = 0; k < 64; k++)
        EXPECT_EQ(terms[k], 0.f);

    std::fill(a.begin(), a.end(), 100);
    std::fill(b.begin(), b.end(), 103);
    const VqPlaneView vb = { b.data(), 8, 8, 8, 1, 0, 1 };
    vq_psnr_hvs_block_terms(va, vb, 0, 0, t.csf[1], t.mask[1], terms);
    /* DC of 100 is 800, of 103 is 823 (lifting by hand: 291 after the
     * column pass, 823 after the row pass; 8 * 103 = 824) */
    int32_t ca[64], cb[64];
    for (int k = 0; k < 64; k++) {
        ca[k] = 100;
        cb[k] = 103;
    }
    vq_psnr_hvs_fdct8x8(ca);
    vq_psnr_hvs_fdct8x8(cb);
    EXPECT_EQ(ca[0], 800);
    EXPECT_EQ(cb[0], 823);
    const float e = 23.f * t.csf[1][0];
    EXPECT_EQ(terms[0], e * e);
    for (int k = 1; k < 64; k++)
        EXPECT_EQ(terms[k], 0.f) << k;
}

float var_ratio(const int32_t s[64])
{
    float r[2];
    vq_psnr_hvs_var_ratios(s, s, r);
    EXPECT_EQ(vq_f32_bits(r[0]), vq_f32_bits(r[1]));
    return r[0];
}

/* The variance ratio of a block whose quadrants are flat: the quadrant
 * variances are 0, so the ratio is 0; a block with one varying quadrant. */
TEST(PsnrHvsBlock, VarianceRatio)
{
    int32_t s[64];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            s[i * 8 + j] = vq_psnr_hvs_quadrant(i, j) * 10;
    EXPECT_EQ(var_ratio(s), 0.f);
    EXPECT_EQ(vq_psnr_hvs_quadrant(3, 3), 0);
    EXPECT_EQ(vq_psnr_hvs_quadrant(4, 3), 1);
    EXPECT_EQ(vq_psnr_hvs_quadrant(3, 4), 2);
    EXPECT_EQ(vq_psnr_hvs_quadrant(7, 7), 3);
    for (int k = 0; k < 64; k++)
        s[k] = 50;
    EXPECT_EQ(var_ratio(s), 0.f);   /* gvar 0: stays 0 */
    s[0] = 66;
    /* by hand, float: gmean 50.25, gvar = 15.75^2 + 63 * 0.25^2 = 252 ->
     * * (fl(1/63) * 64); quadrant 0: mean 51, var 15^2 + 15 = 240 -> * fl(1/15) * 16 */
    const float gvar = 252.f * (1 / 63.f * 64), v0 = 240.f * (1 / 15.f * 16);
    EXPECT_EQ(var_ratio(s), v0 / gvar);
}

/* The reference's own loop shape (float accumulators for the means too, the
 * ten sums interleaved in one raster loop) gives the same bits as
 * vq_psnr_hvs_var_ratios, on random and extreme blocks up to 12 bits. */
TEST(PsnrHvsBlock, VarianceRatiosEqualReferenceLoops)
{
    std::mt19937 rng(21);
    for (int rep = 0; rep < 20000; rep++) {
        const int maxv = (rep % 3 == 0) ? 4095 : (rep % 3 == 1) ? 1023 : 255;
        int32_t x[2][64];
        for (int m = 0; m < 2; m++)
            for (int k = 0; k < 64; k++)
                x[m][k] = rep % 5 == 0 ? ((rng() & 1) ? maxv : 0) : (int32_t)(rng() % (maxv + 1));
        float gm[2] = { 0, 0 }, mn[2][4] = {}, gv[2] = { 0, 0 }, vr[2][4] = {};
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                const int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
                for (int m = 0; m < 2; m++) {
                    gm[m] += x[m][i * 8 + j];
                    mn[m][sub] += x[m][i * 8 + j];
                }
            }
        for (int m = 0; m < 2; m++) {
            gm[m] /= 64.f;
            for (int q = 0; q < 4; q++)
                mn[m][q] /= 16.f;
        }
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                const int sub = ((i & 12) >> 2) + ((j & 12) >> 1);
                for (int m = 0; m < 2; m++) {
                    gv[m] += (x[m][i * 8 + j] - gm[m]) * (x[m][i * 8 + j] - gm[m]);
                    vr[m][sub] += (x[m][i * 8 + j] - mn[m][sub]) * (x[m][i * 8 + j] - mn[m][sub]);
                }
            }
        float want[2];
        for (int m = 0; m < 2; m++) {
            gv[m] *= 1 / 63.f * 64;
            for (int q = 0; q < 4; q++)
                vr[m][q] *= 1 / 15.f * 16;
            if (gv[m] > 0)
                gv[m] = (vr[m][0] + vr[m][1] + vr[m][2] + vr[m][3]) / gv[m];
            want[m] = gv[m];
        }
        float got[2];
        vq_psnr_hvs_var_ratios(x[0], x[1], got);
        ASSERT_EQ(vq_f32_bits(got[0]), vq_f32_bits(want[0])) << rep;
        ASSERT_EQ(vq_f32_bits(got[1]), vq_f32_bits(want[1])) << rep;
    }
}

/* ---- the binade-split sum --------------------------------------------- */

/*
 * The sum as the CUDA executor runs it (cuda_psnr_hvs.cu, one thread block
 * per plane), chunk by chunk, sequentially: within a chunk starting at i
 * from sum s, n* is the first term that is a stop, or (exact mode: s is 0)
 * nonzero, or whose prefix reaches K = 2^24; terms before n* are integers,
 * n* is a real float add, and the next chunk starts at n* + 1.
 */
float split_sum(const std::vector<float> &t, size_t chunk, int *real_adds)
{
    uint32_t sb = 0;
    size_t i = 0;
    *real_adds = 0;
    while (i < t.size()) {
        int32_t K0;
        const int E = vq_psnr_hvs_fsum_binade(sb, &K0);
        const bool exact = K0 == 0;
        const size_t end = std::min(t.size(), i + chunk);
        int64_t K = K0;
        size_t n = i;
        for (; n < end; n++) {
            const uint32_t tb = vq_f32_bits(t[n]);
            if (exact) {
                if (tb)
                    break;
                continue;
            }
            const int32_t d = vq_psnr_hvs_fsum_split(tb, E);
            if (d < 0 || K + d >= VQ_PSNR_HVS_K_END)
                break;
            K += d;
        }
        if (n < end) {
            const float s = exact ? vq_f32_from_bits(sb) : vq_f32_from_bits(vq_psnr_hvs_fsum_join(E, K));
            sb = vq_f32_bits(s + t[n]);
            (*real_adds)++;
            i = n + 1;
        } else {
            if (!exact)
                sb = vq_psnr_hvs_fsum_join(E, K);
            i = end;
        }
    }
    return vq_f32_from_bits(sb);
}

float sequential_sum(const std::vector<float> &t)
{
    float s = 0;
    for (float x : t)
        s += x;
    return s;
}

TEST(PsnrHvsSplitSum, SplitIsRoundToNearestEven)
{
    std::mt19937 rng(11);
    for (int rep = 0; rep < 200000; rep++) {
        /* s in a random binade, t anywhere from far below to just above */
        const int E = (int)(rng() % 60) - 20;
        const int32_t K = (int32_t)((1u << 23) + rng() % (1u << 23));
        const float s = vq_f32_from_bits(vq_psnr_hvs_fsum_join(E, K));
        float tv;
        switch (rep % 4) {
        case 0: tv = std::ldexp((float)(rng() % (1u << 24)), E - 23 - (int)(rng() % 30)); break;
        case 1: tv = std::ldexp((float)((rng() % 64) * 2 + 1), E - 24 - (int)(rng() % 4)); break;   /* ties */
        case 2: tv = std::ldexp(1.0f, E - 24); break;   /* exactly half an ulp */
        default: tv = std::ldexp((float)(rng() % (1u << 24)), E - 23 + (int)(rng() % 3)); break;
        }
        int32_t K1;
        ASSERT_EQ(vq_psnr_hvs_fsum_binade(vq_f32_bits(s), &K1), E);
        ASSERT_EQ(K1, K);
        const int32_t d = vq_psnr_hvs_fsum_split(vq_f32_bits(tv), E);
        if (d < 0 || (int64_t)K + d >= VQ_PSNR_HVS_K_END)
            continue;   /* a real add */
        ASSERT_EQ(vq_f32_bits(s + tv), vq_psnr_hvs_fsum_join(E, (int64_t)K + d))
            << "E " << E << " K " << K << " t " << tv;
    }
}

TEST(PsnrHvsSplitSum, EqualsSequentialFloatSum)
{
    std::mt19937 rng(5);
    for (int rep = 0; rep < 300; rep++) {
        const size_t n = 1 + rng() % 20000;
        std::vector<float> t(n);
        const int kind = rep % 6;
        for (size_t k = 0; k < n; k++) {
            float v;
            switch (kind) {
            case 0: v = (float)(rng() % 1000) * 0.37f; break;               /* psnr_hvs-like */
            case 1: v = (rng() % 3) ? 0.f : std::ldexp(1.0f, (int)(rng() % 20) - 10); break;   /* ties */
            case 2: v = (float)(rng() % 8); break;                          /* small integers: ties */
            case 3: v = std::ldexp((float)(rng() % 4096), (int)(rng() % 40) - 20); break;   /* wide range */
            case 4: v = k < n / 2 ? 0.f : (float)(rng() % 100); break;      /* leading zeros */
            default: v = (rng() % 100 == 0) ? 1e9f : (float)(rng() % 50) / 7.f; break;   /* spikes */
            }
            t[k] = v;
        }
        const size_t chunk = (size_t)1 << (rng() % 15);
        int adds;
        const float got = split_sum(t, chunk, &adds);
        ASSERT_EQ(vq_f32_bits(got), vq_f32_bits(sequential_sum(t)))
            << "rep " << rep << " kind " << kind << " n " << n << " chunk " << chunk;
    }
    std::vector<float> zeros(1000, 0.f);
    int adds;
    EXPECT_EQ(vq_f32_bits(split_sum(zeros, 64, &adds)), 0u);
    EXPECT_EQ(adds, 0);
}

/*
 * The CUDA fast path's chunk tables (cuda_psnr_hvs.cu, psnr_hvs_tab_kernel)
 * replayed with the kernel's shape: a thread's 16 consecutive terms in
 * order, then the warp's and the block's trees (lane l takes lane l + o's
 * map after its own).  e0 from est_shift + the binade of the estimate (the
 * terms before the chunk in double): the kernel's with est_shift 0; any
 * other shift changes which chunks take the fast path, never a result.
 */
std::vector<int32_t> replay_tables(const std::vector<float> &t, int est_shift)
{
    const size_t CH = (size_t)VQ_PSNR_HVS_SUM_WARPS * 32 * VQ_PSNR_HVS_SUM_PER_LANE, n = t.size();
    const size_t nc = (n + CH - 1) / CH;
    const int TS = VQ_PSNR_HVS_TAB_STRIDE, NE = VQ_PSNR_HVS_TAB_NE, PER = 16, TH = (int)(CH / PER);
    std::vector<int32_t> tab(nc * TS, 0);
    double before = 0;
    for (size_t c = 0; c < nc; c++) {
        int e0 = vq_psnr_hvs_tab_e0(before);
        if (e0 != VQ_PSNR_HVS_TAB_NONE)
            e0 += est_shift;
        double own = 0;
        for (size_t k = c * CH; k < std::min(n, (c + 1) * CH); k++)
            own += t[k];
        before += own;
        tab[c * TS + VQ_PSNR_HVS_TAB_ZERO] = own == 0.0;
        tab[c * TS] = e0;
        if (e0 == VQ_PSNR_HVS_TAB_NONE)
            continue;
        for (int j = 0; j < NE; j++) {
            std::vector<std::array<int32_t, 2>> m(TH);
            for (int th = 0; th < TH; th++) {
                int32_t a[2] = { 0, 0 };
                for (int q = 0; q < PER; q++) {
                    const size_t idx = c * CH + (size_t)th * PER + q;
                    int32_t st[2];
                    vq_psnr_hvs_fsum_step(idx < n ? vq_f32_bits(t[idx]) : 0u, e0 + j, st);
                    vq_psnr_hvs_fsum_compose(a, st);
                }
                m[th] = { a[0], a[1] };
            }
            auto tree = [](std::vector<std::array<int32_t, 2>> &v, size_t base) {
                for (int o = 1; o < 32; o <<= 1)
                    for (int l = 0; l + o < 32; l += 2 * o)
                        vq_psnr_hvs_fsum_compose(v[base + l].data(), v[base + l + o].data());
            };
            std::vector<std::array<int32_t, 2>> w(32);
            for (int wp = 0; wp < 32; wp++) {
                tree(m, (size_t)wp * 32);
                w[wp] = m[(size_t)wp * 32];
            }
            tree(w, 0);
            tab[c * TS + 1 + 2 * j] = w[0][0];
            tab[c * TS + 2 + 2 * j] = w[0][1];
        }
    }
    return tab;
}

/*
 * The CUDA sum kernel (cuda_psnr_hvs.cu, psnr_hvs_sum_kernel) replayed on
 * the host phase by phase, with its segment shape: at an aligned chunk's
 * start, the fast path (tab: replay_tables; empty: none); else A, each
 * warp's segment sum of d and first stop; B, the first segment with a stop
 * or whose inclusive K reaches 2^24, then the first such term inside it,
 * added for real; every step ends at the aligned chunk's end at the
 * latest.  Lanes become loops; the order of everything that decides a
 * result is the kernel's.  *chunks counts the walked steps, *fast the
 * chunks of the fast path.
 */
float kernel_replay_sum(const std::vector<float> &t, int *chunks, int *spans,
                        const std::vector<int32_t> &tab = {}, int *fast = nullptr)
{
    const int W = VQ_PSNR_HVS_SUM_WARPS, P = VQ_PSNR_HVS_SUM_PER_LANE, SEG = 32 * P;
    const size_t CHUNK = (size_t)W * SEG, n = t.size();
    const int TS = VQ_PSNR_HVS_TAB_STRIDE;
    auto split = [](uint32_t tb, int E, bool exact) {
        return exact ? (tb ? -1 : 0) : vq_psnr_hvs_fsum_split(tb, E);
    };
    uint32_t sb = 0;
    size_t i = 0;
    int restarts = 0;
    *chunks = *spans = 0;
    if (fast)
        *fast = 0;
    while (i < n) {
        const size_t c = i / CHUNK, lim = std::min(n, (c + 1) * CHUNK);
        auto tb_at = [&](size_t idx) { return idx < lim ? vq_f32_bits(t[idx]) : 0u; };
        int32_t K0;
        const int E = vq_psnr_hvs_fsum_binade(sb, &K0);
        const bool exact = K0 == 0;
        if (!tab.empty() && i == c * CHUNK) {
            const int32_t *e = &tab[c * TS];
            const int j = E - e[0];
            if (e[VQ_PSNR_HVS_TAB_ZERO]) {
                i = lim;
                restarts = 0;
                if (fast)
                    (*fast)++;
                continue;
            }
            if (!exact && e[0] != VQ_PSNR_HVS_TAB_NONE && j >= 0 && j < VQ_PSNR_HVS_TAB_NE) {
                const int32_t K1 = K0 + e[1 + 2 * j + (K0 & 1)];
                if (K1 < VQ_PSNR_HVS_K_END) {
                    sb = vq_psnr_hvs_fsum_join(E, K1);
                    i = lim;
                    restarts = 0;
                    if (fast)
                        (*fast)++;
                    continue;
                }
            }
        }
        (*chunks)++;
        if (restarts >= VQ_PSNR_HVS_SUM_MAX_RESTARTS) {    /* term by term */
            float s = vq_f32_from_bits(sb);
            for (size_t k = i; k < lim; k++)
                s += t[k];
            sb = vq_f32_bits(s);
            i = lim;
            restarts = 0;
            (*spans)++;
            continue;
        }
        std::vector<long long> seg_sum(W);
        std::vector<int> seg_stop(W);
        for (int w = 0; w < W; w++) {                       /* A */
            long long sum = 0;
            int stop = INT_MAX;
            for (int lane = 0; lane < 32; lane++)
                for (int k = 0; k < P; k++) {
                    const int rel = w * SEG + k * 32 + lane;
                    const int32_t d = split(tb_at(i + rel), E, exact);
                    if (d < 0)
                        stop = std::min(stop, rel);
                    else
                        sum += d;
                }
            seg_sum[w] = sum;
            seg_stop[w] = stop;
        }
        uint32_t next_s = 0x7fc00000u;                      /* B */
        size_t next_i = n;
        long long incl = 0, excl_ws = 0;
        int ws = -1;
        for (int lane = 0; lane < W; lane++) {
            const long long excl = incl;
            incl += seg_sum[lane];
            const bool hit = seg_stop[lane] != INT_MAX || (!exact && K0 + incl >= VQ_PSNR_HVS_K_END);
            if (hit && ws < 0) {
                ws = lane;
                excl_ws = excl;
            }
        }
        if (ws < 0) {
            next_s = exact ? sb : vq_psnr_hvs_fsum_join(E, K0 + incl);
            next_i = lim;
        } else {
            long long base = K0 + excl_ws;
            bool found = false;
            for (int k = 0; k < P && !found; k++) {
                long long run = base;
                for (int lane = 0; lane < 32; lane++) {
                    const size_t idx = i + (size_t)(ws * SEG + k * 32 + lane);
                    const uint32_t tb = tb_at(idx);
                    const int32_t d = split(tb, E, exact);
                    const long long dd = d < 0 ? 0 : d;
                    run += dd;
                    if (d < 0 || (!exact && run >= VQ_PSNR_HVS_K_END)) {
                        const float s = exact ? vq_f32_from_bits(sb)
                                              : vq_f32_from_bits(vq_psnr_hvs_fsum_join(E, run - dd));
                        next_s = vq_f32_bits(s + vq_f32_from_bits(tb));
                        next_i = idx + 1;
                        found = true;
                        break;
                    }
                }
                base = run;
            }
            EXPECT_TRUE(found) << "segment " << ws << " was hit but has no end";
        }
        int32_t K1;
        if (next_i == lim)
            restarts = 0;
        else if (vq_psnr_hvs_fsum_binade(next_s, &K1) == E && !exact)
            restarts++;
        sb = next_s;
        i = next_i;
    }
    return vq_f32_from_bits(sb);
}

/* The maps against real float adds: a term's map under E, applied to any K
 * of the binade that it keeps below 2^24, is fl(s + t); and composing maps
 * in any grouping gives the same map (the kernels' trees rely on it). */
TEST(PsnrHvsSplitSum, MapsAreFloatAddsAndCompose)
{
    std::mt19937 rng(23);
    for (int rep = 0; rep < 200000; rep++) {
        const int E = (int)(rng() % 60) - 20;
        const int32_t K = (int32_t)((1u << 23) + rng() % (1u << 23));
        const float s = vq_f32_from_bits(vq_psnr_hvs_fsum_join(E, K));
        float tv;
        switch (rep % 4) {
        case 0: tv = std::ldexp((float)(rng() % (1u << 24)), E - 23 - (int)(rng() % 30)); break;
        case 1: tv = std::ldexp((float)((rng() % 64) * 2 + 1), E - 24 - (int)(rng() % 4)); break;
        case 2: tv = std::ldexp(1.0f, E - 24); break;
        default: tv = std::ldexp((float)(rng() % (1u << 24)), E - 23 + (int)(rng() % 3)); break;
        }
        int32_t a[2];
        vq_psnr_hvs_fsum_step(vq_f32_bits(tv), E, a);
        ASSERT_GE(a[0], 0);
        ASSERT_LE(a[0], VQ_PSNR_HVS_TAB_CAP);
        if ((int64_t)K + a[K & 1] >= VQ_PSNR_HVS_K_END)
            continue;
        ASSERT_EQ(vq_f32_bits(s + tv), vq_psnr_hvs_fsum_join(E, (int64_t)K + a[K & 1]))
            << "E " << E << " K " << K << " t " << tv;
    }
    for (int rep = 0; rep < 20000; rep++) {
        int32_t m[3][2];
        for (auto &x : m)
            for (int p = 0; p < 2; p++)
                x[p] = rep % 5 == 0 ? (int32_t)(rng() % (VQ_PSNR_HVS_TAB_CAP + 1)) : (int32_t)(rng() % 100);
        int32_t l[2] = { m[0][0], m[0][1] }, r[2] = { m[1][0], m[1][1] };
        vq_psnr_hvs_fsum_compose(l, m[1]);
        vq_psnr_hvs_fsum_compose(l, m[2]);          /* (a b) c */
        vq_psnr_hvs_fsum_compose(r, m[2]);
        int32_t a[2] = { m[0][0], m[0][1] };
        vq_psnr_hvs_fsum_compose(a, r);             /* a (b c) */
        ASSERT_EQ(l[0], a[0]);
        ASSERT_EQ(l[1], a[1]);
    }
}

TEST(PsnrHvsSplitSum, KernelReplayEqualsSequentialFloatSum)
{
    std::mt19937 rng(17);
    for (int rep = 0; rep < 60; rep++) {
        const size_t n = 1 + rng() % 240000;
        std::vector<float> t(n);
        const int kind = rep % 5;
        for (size_t k = 0; k < n; k++) {
            float v;
            switch (kind) {
            case 0: v = (float)(rng() % 1000) * 0.37f; break;
            case 1: v = (rng() % 3) ? 0.f : std::ldexp(1.0f, (int)(rng() % 20) - 10); break;
            case 2: v = (float)(rng() % 8); break;
            case 3: v = std::ldexp((float)(rng() % 4096), (int)(rng() % 40) - 20); break;
            default: v = k < n / 3 ? 0.f : ((rng() % 100 == 0) ? 1e9f : (float)(rng() % 50) / 7.f); break;
            }
            t[k] = v;
        }
        int chunks, spans, fast;
        const uint32_t want = vq_f32_bits(sequential_sum(t));
        ASSERT_EQ(vq_f32_bits(kernel_replay_sum(t, &chunks, &spans)), want)
            << "rep " << rep << " kind " << kind << " n " << n;
        /* with the fast path's tables, e0 as the kernel's and shifted */
        for (int shift : { 0, -2, -1, 1, 2 }) {
            ASSERT_EQ(vq_f32_bits(kernel_replay_sum(t, &chunks, &spans, replay_tables(t, shift), &fast)),
                      want)
                << "rep " << rep << " kind " << kind << " n " << n << " e0 shift " << shift;
            if (shift == 0 && kind == 0 && n > 100000) {
                EXPECT_GT(fast, 0) << "rep " << rep;   /* no binade change in most chunks */
            }
        }
    }
}

/* ---- input check ------------------------------------------------------- */

/*
 * The CPU executor's bands (n_threads > 1): block rows in random bands, any
 * order, then the plane's terms added on one thread, against the whole
 * plane's word; random planes of many sizes, 8 to 12 bits, every plane kind.
 */
TEST(PsnrHvsCpu, BandsThenSumEqualTheWholePlane)
{
    std::mt19937 rng(21);
    const VqPsnrHvsTables t = tables();
    const int sizes[][2] = { { 8, 8 }, { 15, 9 }, { 64, 48 }, { 97, 131 }, { 333, 200 }, { 640, 360 } };
    for (const auto &sz : sizes)
        for (int bpc : { 8, 10, 12 })
            for (int plane = 0; plane < 3; plane++) {
                const int w = sz[0], h = sz[1], bytes = bpc > 8 ? 2 : 1, maxv = (1 << bpc) - 1;
                std::vector<uint8_t> a((size_t)w * h * bytes), b(a.size());
                for (int i = 0; i < h; i++)
                    for (int j = 0; j < w; j++) {
                        const int v = (i * 7 + j * 3 + (int)(rng() % 9)) % (maxv + 1);
                        const int e = std::min(maxv, std::max(0, v + (int)(rng() % 21) - 10));
                        const size_t at = ((size_t)i * w + j) * bytes;
                        if (bytes == 1) {
                            a[at] = (uint8_t)v;
                            b[at] = (uint8_t)e;
                        } else {
                            const uint16_t v16 = (uint16_t)v, e16 = (uint16_t)e;
                            memcpy(&a[at], &v16, 2);
                            memcpy(&b[at], &e16, 2);
                        }
                    }
                const VqPlaneView vr = { a.data(), (ptrdiff_t)w * bytes, w, h, bytes, 0, 1 };
                VqPlaneView vd = vr;
                vd.data = b.data();
                const int nby = vq_psnr_hvs_nblocks(h);
                std::vector<float> terms((size_t)vq_psnr_hvs_nblocks(w) * nby * 64, -1.0f);
                std::vector<int> cut = { 0, nby };
                for (int k = 0; k < (int)(rng() % 5); k++)
                    cut.push_back((int)(rng() % (unsigned)(nby + 1)));
                std::sort(cut.begin(), cut.end());
                for (size_t k = cut.size() - 1; k > 0; k--)   /* last band first */
                    vq_psnr_hvs_cpu_terms_rows(vr, vd, plane, &t, terms.data(), cut[k - 1], cut[k]);
                EXPECT_EQ(vq_psnr_hvs_cpu_sum(terms.data(), terms.size()),
                          vq_psnr_hvs_cpu_plane(vr, vd, plane, &t))
                    << w << "x" << h << " " << bpc << "-bit plane " << plane;
            }
}

TEST(PsnrHvsCheck, Refusals)
{
    const int w[3] = { 64, 32, 32 }, h[3] = { 48, 24, 24 };
    char msg[256];
    EXPECT_EQ(vq_psnr_hvs_check(8, 3, w, h, msg, sizeof(msg)), 0);
    EXPECT_EQ(vq_psnr_hvs_check(10, 3, w, h, msg, sizeof(msg)), 0);
    EXPECT_EQ(vq_psnr_hvs_check(12, 3, w, h, msg, sizeof(msg)), 0);
    EXPECT_EQ(vq_psnr_hvs_check(16, 3, w, h, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_NE(strstr(msg, "at most 12"), nullptr) << msg;
    EXPECT_EQ(vq_psnr_hvs_check(13, 3, w, h, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_EQ(vq_psnr_hvs_check(8, 1, w, h, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_NE(strstr(msg, "gray"), nullptr) << msg;
    const int tw[3] = { 14, 7, 7 }, th[3] = { 14, 7, 7 };
    EXPECT_EQ(vq_psnr_hvs_check(8, 3, tw, th, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_NE(strstr(msg, "cb plane 7x7"), nullptr) << msg;
    const int ok[3] = { 16, 8, 8 };
    EXPECT_EQ(vq_psnr_hvs_check(8, 3, ok, ok, msg, sizeof(msg)), 0);
    EXPECT_EQ(vq_psnr_hvs_nblocks(7), 0);
    EXPECT_EQ(vq_psnr_hvs_nblocks(8), 1);
    EXPECT_EQ(vq_psnr_hvs_nblocks(15), 2);
    EXPECT_EQ(vq_psnr_hvs_nblocks(1920), 274);
    EXPECT_EQ(vq_psnr_hvs_nblocks(1080), 154);
}

/* ---- golden ------------------------------------------------------------ */

struct GoldenPair {
    const char *name;     /* <name>.features.json in VQ_GOLDEN_DIR */
    int w, h, bpc;
    int ssx, ssy;         /* chroma subsampling shifts */
};

/* the pair's geometry, from tests/data/clips.tsv (its clips: the golden's) */
GoldenPair golden_pair(const char *pair)
{
    const vq_test::ClipRow &c = vq_test::clip(pair);
    return { c.name.c_str(), c.w, c.h, c.bpc, c.ssx, c.ssy };
}

std::string clip_name(const std::string &file)
{
    const size_t dot = file.rfind('.');
    return dot == std::string::npos ? file : file.substr(0, dot);
}

class PsnrHvsGolden : public ::testing::TestWithParam<GoldenPair> {};

TEST_P(PsnrHvsGolden, CpuScoresEqualReference)
{
    const GoldenPair &p = GetParam();
    const char *raw_dir = getenv("VQ_RAW_DIR"), *golden_dir = getenv("VQ_GOLDEN_DIR");
    if (!raw_dir || !golden_dir)
        GTEST_SKIP() << "VQ_RAW_DIR / VQ_GOLDEN_DIR not set";
    vq_test::GoldenLog g;   /* null (the reference's inf) as +inf */
    std::string gerr;
    const vq_test::GoldenStatus st =
        vq_test::load_golden(std::string(golden_dir) + "/" + p.name + ".features.json", &g, &gerr);
    if (st == vq_test::GoldenStatus::Missing)
        GTEST_SKIP() << p.name << ".features.json missing";
    ASSERT_TRUE(st == vq_test::GoldenStatus::Ok) << gerr;
    for (const std::string &r : g.refused)
        ASSERT_NE(r, "psnr_hvs") << "the reference refused psnr_hvs here";

    const std::string rpath = std::string(raw_dir) + "/" + clip_name(g.str("reference")) + ".yuv";
    const std::string dpath = std::string(raw_dir) + "/" + clip_name(g.str("distorted")) + ".yuv";
    FILE *fr = fopen(rpath.c_str(), "rb"), *fd = fopen(dpath.c_str(), "rb");
    if (!fr || !fd) {
        if (fr) fclose(fr);
        if (fd) fclose(fd);
        GTEST_SKIP() << rpath << " or " << dpath << " missing";
    }

    /* libvmaf's plane sizes (floor) and the file's (FFmpeg: ceil) */
    const int bytes = p.bpc > 8 ? 2 : 1;
    const int vw[3] = { p.w, p.w >> p.ssx, p.w >> p.ssx }, vh[3] = { p.h, p.h >> p.ssy, p.h >> p.ssy };
    const int fw[3] = { p.w, -(-p.w >> p.ssx), -(-p.w >> p.ssx) };
    const int fh[3] = { p.h, -(-p.h >> p.ssy), -(-p.h >> p.ssy) };
    size_t off[3], frame = 0;
    for (int k = 0; k < 3; k++) {
        off[k] = frame;
        frame += (size_t)fw[k] * fh[k] * bytes;
    }
    char msg[256];
    ASSERT_EQ(vq_psnr_hvs_check(p.bpc, 3, vw, vh, msg, sizeof(msg)), 0) << msg;

    const VqPsnrHvsTables t = tables();
    std::vector<uint8_t> ref(frame), dis(frame);
    const std::vector<vq_test::GoldenMetrics> &frames = g.frames;
    const char *keys[VQ_PSNR_HVS_NSCORES] = { "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs" };
    int exact = 0, total = 0;
    double ms = 0;
    for (size_t f = 0; f < frames.size(); f++) {
        ASSERT_EQ(fread(ref.data(), 1, frame, fr), frame) << "frame " << f;
        ASSERT_EQ(fread(dis.data(), 1, frame, fd), frame) << "frame " << f;
        VqPlaneView vr[3], vd[3];
        for (int k = 0; k < 3; k++) {
            vr[k] = { ref.data() + off[k], (ptrdiff_t)fw[k] * bytes, vw[k], vh[k], bytes, 0, 1 };
            vd[k] = vr[k];
            vd[k].data = dis.data() + off[k];
        }
        if (f == 0 || f + 1 == frames.size()) {
            /* the CUDA executor's way to the same sums, on these terms */
            for (int k = 0; k < 3; k++) {
                std::vector<float> terms((size_t)vq_psnr_hvs_nblocks(vw[k]) *
                                         vq_psnr_hvs_nblocks(vh[k]) * 64);
                vq_psnr_hvs_cpu_terms(vr[k], vd[k], k, &t, terms.data());
                int chunks, spans, walked, fast;
                const uint32_t want = vq_f32_bits(sequential_sum(terms));
                EXPECT_EQ(vq_f32_bits(kernel_replay_sum(terms, &chunks, &spans)), want)
                    << p.name << " frame " << f << " plane " << k;
                EXPECT_EQ(spans, 0) << p.name << " frame " << f << " plane " << k;
                EXPECT_EQ(vq_f32_bits(kernel_replay_sum(terms, &walked, &spans, replay_tables(terms, 0),
                                                        &fast)),
                          want)
                    << p.name << " frame " << f << " plane " << k << " (fast path)";
                if (f == 0 && k == 0)
                    printf("[psnr_hvs] %s: luma sum in %d steps of the CUDA split; with the chunk "
                           "tables %d walked, %d of %zu chunks in one step\n",
                           p.name, chunks, walked, fast, (terms.size() + 16383) / 16384);
            }
        }
        int64_t words[VQ_PSNR_HVS_WORDS];
        timespec c0, c1;   /* this thread's CPU time: the machine may be shared */
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
        vq_psnr_hvs_cpu_run(vr, vd, &t, words);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
        ms += (c1.tv_sec - c0.tv_sec) * 1e3 + (c1.tv_nsec - c0.tv_nsec) * 1e-6;
        double out[VQ_PSNR_HVS_NSCORES];
        vq_psnr_hvs_fold(words, vw, vh, p.bpc, out);
        const vq_test::GoldenMetrics &m = frames[f];
        for (int k = 0; k < VQ_PSNR_HVS_NSCORES; k++) {
            const double want = m.at(keys[k]);
            total++;
            exact += out[k] == want;
            EXPECT_EQ(out[k], want) << p.name << " frame " << f << " " << keys[k];
        }
    }
    fclose(fr);
    fclose(fd);
    printf("[psnr_hvs] %s: %d/%d values exact, %zu frames, CPU executor %.1f ms/frame (thread CPU time)\n", p.name, exact,
           total, frames.size(), ms / frames.size());
}

INSTANTIATE_TEST_SUITE_P(
    Pairs, PsnrHvsGolden,
    ::testing::Values(golden_pair("balle576"), golden_pair("birds422p10"), golden_pair("birds720"),
                      golden_pair("checker1080"), golden_pair("dog1080"), golden_pair("dog1080_self"),
                      golden_pair("dog1080p10"), golden_pair("dog1080p12"), golden_pair("dog2160"),
                      golden_pair("odd577x323"), golden_pair("small36x34")),
    [](const ::testing::TestParamInfo<GoldenPair> &info) { return std::string(info.param.name); });

} // namespace
