/*
 * test_float_adm.cpp - float_adm (docs/float-adm.md): the RCPSS tables
 * against this CPU, their format and lookup, the rcp option's choices and
 * refusals; the CPU executor through the session against libvmaf's golden
 * columns (AMD's and Intel's: the table decides which), the same bits at
 * any thread count, and the refusals of what the reference does not
 * define; glibc's powf as the device computes it (adm_p_norm other than 3)
 * against the host's.  The whole golden files run as lib_fadm_* (tests/cmake/float_adm.cmake).
 */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "adm/adm_params.h"
#include "clip_table.h"
#include "float_adm/float_adm_fold.h"
#include "float_adm/glibc_powf.h"
#include "float_adm/glibc_powf_check.h"
#include "golden.h"
#include "float_adm/rcp_select.h"
#include "float_adm/rcp_table.h"
#include "vqcuda.h"
#if defined(__SSE__)
#include "rcp_check.h"
#endif

namespace {

uint32_t bits(float x)
{
    uint32_t b;
    std::memcpy(&b, &x, 4);
    return b;
}

float from_bits(uint32_t b)
{
    float x;
    std::memcpy(&x, &b, 4);
    return x;
}

const VqRcpTable *table(const char *which)
{
    char err[512];
    return vq_rcp_select(which, err, sizeof(err));
}

/* the last run with start <= m, by binary search (the buckets' reference) */
int run_of(const VqRcpTable *t, uint32_t m)
{
    int lo = 0, hi = t->n_runs - 1;
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (t->run_start[mid] <= m)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

}  // namespace

/* ---- the tables ---------------------------------------------------------- */

#if defined(__SSE__)
/* The table of this CPU's vendor against this CPU's RCPSS: every mantissa
 * of 19 exponents (the edges and a spread), both signs.  On the Intel host
 * this is the check of the Intel table; the whole 2^32: rcp_table_check --full. */
TEST(RcpTable, ThisCpusVendorTableIsThisCpusRcpss)
{
    char err[512] = "";
    const VqRcpTable *t = vq_rcp_select("auto", err, sizeof(err));
    if (!t)
        GTEST_SKIP() << err;
    if (t->mode != VQ_RCP_TABLE)
        GTEST_SKIP() << "this build divides exactly (no SSE2): no table to check";
    uint32_t first = 0;
    const uint64_t bad = vq_test_rcp_check(t, 0, &first);
    EXPECT_EQ(bad, 0u) << "first rcp(0x" << std::hex << first << "): CPU 0x" << vq_test_cpu_rcp(first)
                       << ", table 0x" << vq_rcp_bits(t, first) << " (table " << vq_rcp_auto_name()
                       << ", generated on " << vq_rcp_table_cpu(vq_rcp_auto_name()) << ")";
}

/* the check sees one wrong run, one wrong exponent range, one wrong special run */
TEST(RcpTable, CheckSeesAWrongEntry)
{
    const VqRcpTable *t = table("auto");
    if (!t || t->mode != VQ_RCP_TABLE)
        GTEST_SKIP() << "no table for this CPU's vendor";
    uint32_t first = 0;
    auto *m = new VqRcpTable(*t);
    m->run_bits[1] ^= 0x800;
    EXPECT_GT(vq_test_rcp_check(m, 0, &first), 0u);
    *m = *t;
    m->reg_hi[126] -= 1;
    EXPECT_GT(vq_test_rcp_check(m, 0, &first), 0u);
    *m = *t;
    m->sp_bits[0] ^= 1;
    EXPECT_GT(vq_test_rcp_check(m, 0, &first), 0u);
    delete m;
}
#endif

/* What is known of AMD's RCPSS beyond the table (docs/float-adm.md): the
 * value the shared spec measured, the architectural error bound, and the
 * special inputs as both vendors' manuals describe them. */
TEST(RcpTable, AmdTableAgreesWithWhatIsKnown)
{
    const VqRcpTable *t = table("amd");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(vq_rcp_bits(t, bits(1.3f)), 0x3f44f000u);    /* measured on AMD EPYC (shared spec) */
    /* |relative error| <= 1.5 * 2^-12 over every mantissa of [1, 2) and a few binades */
    for (int e : { 1, 100, 127, 200, 252 })
        for (uint32_t m = 0; m < (1u << 23); m += 7) {
            const float x = from_bits(((uint32_t)e << 23) | m);
            const double r = from_bits(vq_rcp_bits(t, bits(x)));
            ASSERT_LE(std::fabs(r * (double)x - 1.0), 1.5 * std::ldexp(1.0, -12)) << e << " " << m;
        }
    EXPECT_EQ(vq_rcp_bits(t, 0x00000000u), 0x7f800000u);   /* 0: inf of its sign */
    EXPECT_EQ(vq_rcp_bits(t, 0x80000000u), 0xff800000u);
    EXPECT_EQ(vq_rcp_bits(t, 0x00000001u), 0x7f800000u);   /* a denormal is a 0 */
    EXPECT_EQ(vq_rcp_bits(t, 0x807fffffu), 0xff800000u);
    EXPECT_EQ(vq_rcp_bits(t, 0x7f800000u), 0x00000000u);   /* inf: 0 */
    EXPECT_EQ(vq_rcp_bits(t, 0xff800000u), 0x80000000u);
    EXPECT_EQ(vq_rcp_bits(t, 0x7f800001u), 0x7fc00001u);   /* a signalling NaN is quieted */
    EXPECT_EQ(vq_rcp_bits(t, 0xffc12345u), 0xffc12345u);   /* a quiet NaN returned */
    EXPECT_EQ(vq_rcp_bits(t, 0x7effffffu), 0x00000000u);   /* tiny results flushed to 0 */
}

/* Intel's documented value (shared spec), once its table exists */
TEST(RcpTable, IntelTableOrItsRefusal)
{
    char err[512] = "";
    const VqRcpTable *t = vq_rcp_select("intel", err, sizeof(err));
    if (!t) {
        EXPECT_NE(std::strstr(err, "no table of Intel's RCPSS yet"), nullptr) << err;
        EXPECT_NE(std::strstr(err, "rcp_table_gen"), nullptr) << err;
        EXPECT_EQ(vq_rcp_table_cpu("intel"), nullptr);
        GTEST_SKIP() << "the Intel table is a placeholder (refused as it should be): " << err;
    }
    EXPECT_EQ(vq_rcp_bits(t, bits(1.3f)), 0x3f44e800u);    /* measured on Intel Xeon (shared spec) */
    EXPECT_NE(std::strstr(vq_rcp_table_cpu("intel"), "GenuineIntel"), nullptr);
}

TEST(RcpTable, Choices)
{
    char err[512] = "";
    EXPECT_EQ(vq_rcp_select("bogus", err, sizeof(err)), nullptr);
    EXPECT_NE(std::strstr(err, "auto, amd, intel, div"), nullptr) << err;
    const VqRcpTable *d = vq_rcp_select("div", err, sizeof(err));
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->mode, VQ_RCP_DIV);
    const VqRcpTable *a = vq_rcp_select("amd", err, sizeof(err));
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->mode, VQ_RCP_TABLE);
    EXPECT_NE(std::strstr(vq_rcp_table_cpu("amd"), "AuthenticAMD"), nullptr);
    /* auto: the vendor's table, or a refusal naming the vendor */
    const char *name = vq_rcp_auto_name();
    const VqRcpTable *au = vq_rcp_select("auto", err, sizeof(err));
    if (name && !std::strcmp(name, "amd")) {
        EXPECT_EQ(au, a);
    } else if (name && !std::strcmp(name, "intel")) {
        EXPECT_EQ(au, vq_rcp_select("intel", err, sizeof(err)));
    } else if (!name) {
        EXPECT_EQ(au, nullptr);
        EXPECT_NE(std::strstr(err, vq_rcp_cpu_vendor()), nullptr) << err;
    }
}

/* the bucket index finds the run a binary search finds */
TEST(RcpTable, BucketsFindTheRun)
{
    const VqRcpTable *t = table("amd");
    ASSERT_NE(t, nullptr);
    std::mt19937 rng(1);
    for (int k = 0; k < 200000; k++) {
        const uint32_t m = k < 4096 ? (uint32_t)k << 11 : rng() & 0x7fffff;
        const uint32_t b = (127u << 23) | m;
        ASSERT_EQ(vq_rcp_bits(t, b), t->run_bits[run_of(t, m)]) << m;
    }
    for (int i = 1; i < t->n_runs; i++)
        ASSERT_LT(t->run_start[i - 1], t->run_start[i]);
}

/* DIVS: n * rcp_s(d) with the table, n / d with div */
TEST(RcpTable, Divs)
{
    const VqRcpTable *t = table("amd"), *d = table("div");
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> u(-300.0f, 300.0f);
    int differ = 0;
    for (int k = 0; k < 100000; k++) {
        const float n = u(rng), q = u(rng);
        ASSERT_EQ(bits(vq_rcp_div(d, n, q)), bits(n / q));
        const float xi = from_bits(vq_rcp_bits(t, bits(q)));
        const float r = xi + xi * (1.0f - q * xi);
        ASSERT_EQ(bits(vq_rcp_div(t, n, q)), bits(n * r));
        differ += vq_rcp_div(t, n, q) != n / q;
    }
    EXPECT_GT(differ, 1000);    /* one Newton step is not a division */
}

/* ---- glibc's powf (kernels/float_adm/glibc_powf.h) -------------------------------------- */

#if defined(__GLIBC__) && defined(__x86_64__)
const VqPowfTables kPowf = VQ_POWF_TABLES_INIT;

/* every 251st float's bits (both signs, subnormals, infinities, NaNs) for
 * exponents at and between adm_p_norm's ends; all 2^31 non-negative floats
 * for several exponents run on the H200's host (tests/glibc_powf_gpu.cu) */
TEST(GlibcPowf, IsTheHostsPowfOnEveryKindOfFloat)
{
    const float ys[] = { 1.0f, 1.5f, 2.5f, 3.0f, 4.0f, 7.3f, 19.99f, 20.0f };
    for (float y : ys) {
        long n = 0;
        for (uint64_t b = 0; b <= 0xffffffffull; b += 251, n++) {
            const float x = from_bits((uint32_t)b), want = powf(x, y), got = vq_glibc_powf(x, y, &kPowf);
            if (want != want && got != got)
                continue;
            ASSERT_EQ(bits(got), bits(want)) << "powf(" << std::hexfloat << x << ", " << y << ")";
        }
        EXPECT_GT(n, 17000000);
    }
}

/* random exponents over all finite floats (negative, huge, tiny, integers
 * odd and even against negative x), random x */
TEST(GlibcPowf, IsTheHostsPowfForAnyExponent)
{
    std::mt19937 rng(29);
    for (int k = 0; k < 4000000; k++) {
        float y = from_bits((uint32_t)rng());
        if (k % 4 == 1)
            y = (float)(int)(rng() % 64) - 32.0f;                  /* integers */
        else if (k % 4 == 2)
            y = 1.0f + (float)(rng() % 19000) * 0.001f;            /* adm_p_norm's range */
        const float x = from_bits((uint32_t)rng());
        const float want = powf(x, y), got = vq_glibc_powf(x, y, &kPowf);
        if (want != want && got != got)
            continue;
        ASSERT_EQ(bits(got), bits(want)) << "powf(" << std::hexfloat << x << ", " << y << ")";
    }
}

/* the check a CUDA plan runs agrees here, and a changed table entry shows in
 * it (a host whose powf differs is refused) */
TEST(GlibcPowf, PlanCheck)
{
    float x = 0.0f;
    EXPECT_EQ(vq_glibc_powf_agrees(2.5f, &x), 1);
    EXPECT_EQ(vq_glibc_powf_agrees(20.0f, &x), 1);
    EXPECT_EQ(vq_glibc_powf_agrees(1.0f, &x), 1);
    VqPowfTables t = kPowf;
    t.log2_poly[4] *= 1.0 + 0x1p-26;   /* log2 off by 2^-26 of itself */
    int differ = 0;
    for (uint32_t b = 0x3f000000u; b < 0x40000000u; b += 37)
        differ += bits(vq_glibc_powf(from_bits(b), 2.5f, &t)) != bits(powf(from_bits(b), 2.5f));
    EXPECT_GT(differ, 0);
}

/* adm_p_norm other than 3: the CUDA executor may take it here */
TEST(GlibcPowf, ParamsLetTheDeviceRunIt)
{
    VqFadmOptions o;
    vq_fadm_options_default(&o);
    o.p_norm = 2.5;
    VqFadmParams p;
    char err[256];
    ASSERT_EQ(vq_fadm_params_init(&p, 64, 48, 8, &o, VQ_RCP_TABLE, err, sizeof(err)), 0) << err;
    EXPECT_EQ(p.p3, 0);
    EXPECT_EQ(p.powf_gpu, 1);
}
#endif

/* ---- the parameters --------------------------------------------------------- */

/* Watson (modes 0 and 3..9) and Barten (1) are integer ADM's functions;
 * mode 2 is ADM's native CSF (its own function) */
TEST(FloatAdmParams, CsfModes)
{
    VqFadmOptions o;
    vq_fadm_options_default(&o);
    VqAdmOptions a;
    vq_adm_options_default(&a);
    for (int s = 0; s < 4; s++)
        for (int orient = 0; orient < 2; orient++) {
            o.csf_mode = 0;
            a.csf_mode = VQ_ADM_CSF_WATSON97;
            const float w = vq_fadm_csf_factor(&o, s, orient);
            EXPECT_EQ(bits(w), bits(vq_adm_csf_factor(&a, s, orient)));
            for (int m = 3; m <= 9; m++) {
                o.csf_mode = m;
                EXPECT_EQ(bits(vq_fadm_csf_factor(&o, s, orient)), bits(w)) << m;
            }
            o.csf_mode = 1;
            a.csf_mode = VQ_ADM_CSF_BARTEN;
            EXPECT_EQ(bits(vq_fadm_csf_factor(&o, s, orient)), bits(vq_adm_csf_factor(&a, s, orient)));
            o.csf_mode = 2;
            EXPECT_GT(vq_fadm_csf_factor(&o, s, orient), 0.0f);
        }
}

TEST(FloatAdmParams, Refusals)
{
    VqFadmOptions o;
    vq_fadm_options_default(&o);
    VqFadmParams p;
    char err[256];
    EXPECT_EQ(vq_fadm_params_init(&p, 64, 64, 9, &o, VQ_RCP_TABLE, err, sizeof(err)), -1);
    EXPECT_NE(std::strstr(err, "picture_copy"), nullptr) << err;
    EXPECT_EQ(vq_fadm_params_init(&p, 16, 64, 8, &o, VQ_RCP_TABLE, err, sizeof(err)), -1);
    EXPECT_EQ(vq_fadm_params_init(&p, 17, 17, 8, &o, VQ_RCP_TABLE, err, sizeof(err)), 0) << err;
    EXPECT_EQ(p.s[3].w, 2);
    EXPECT_EQ(p.s[3].h, 2);
    for (int bpc : { 8, 10, 12, 16 })
        EXPECT_EQ(vq_fadm_params_init(&p, 64, 64, bpc, &o, VQ_RCP_TABLE, err, sizeof(err)), 0) << err;
    o.csf_mode = 10;
    EXPECT_EQ(vq_fadm_params_init(&p, 64, 64, 8, &o, VQ_RCP_TABLE, err, sizeof(err)), -1);
}

/* ---- through the session (CPU executor) -------------------------------------- */

namespace {

struct Frames {
    int w, h, bpc;
    std::vector<uint16_t> ref, dis;     /* luma; chroma flat */
};

Frames random_frames(int w, int h, int bpc, std::mt19937 &rng, int n)
{
    Frames f{ w, h, bpc, {}, {} };
    const int maxv = (1 << bpc) - 1;
    f.ref.resize((size_t)w * h * n);
    f.dis.resize(f.ref.size());
    for (size_t i = 0; i < f.ref.size(); i++) {
        const size_t x = i % (size_t)w, y = (i / (size_t)w) % (size_t)h;
        const int v = (int)((x * 5 + y * 3) % (size_t)(maxv / 2 + 1)) + (int)(rng() % (size_t)(maxv / 4 + 1));
        f.ref[i] = (uint16_t)std::min(v, maxv);
        const int d = f.ref[i] + (int)(rng() % 21) - 10 - (x % 13 == 0 ? 30 : 0);
        f.dis[i] = (uint16_t)std::max(0, std::min(d, maxv));
    }
    return f;
}

/* score n frames (gray: only luma matters to float_adm); the outputs of each
 * frame in column order, or the error of the first failing call */
std::string score(const Frames &f, int n, const char *feature, int threads, std::vector<std::vector<double>> *out,
                  std::vector<std::string> *names = nullptr)
{
    VqConfig c;
    vq_config_default(&c);
    c.format.width = f.w;
    c.format.height = f.h;
    c.format.bitdepth = f.bpc;
    c.format.bytes_per_sample = f.bpc > 8 ? 2 : 1;
    c.format.layout = VQ_LAYOUT_GRAY;
    c.executor = VQ_EXECUTOR_CPU;
    c.model = "none";
    c.feature = feature;
    c.enable_psnr = 0;
    c.threads = threads;
    char err[512] = "";
    VqSession *s = nullptr;
    if (vq_session_open(&s, &c, err, sizeof(err)) < 0)
        return err;
    std::string fail;
    std::vector<uint8_t> b8;
    const size_t px = (size_t)f.w * f.h;
    auto drain = [&] {
        VqFrameResult r;
        while (vq_session_receive(s, &r) == VQ_OK) {
            out->emplace_back(r.value, r.value + r.n);
            if (names && names->empty())
                for (int k = 0; k < r.n; k++)
                    names->push_back(r.name[k]);
        }
    };
    for (int i = 0; i < n && fail.empty(); i++) {
        VqPicture pr, pd;
        std::memset(&pr, 0, sizeof(pr));
        std::memset(&pd, 0, sizeof(pd));
        std::vector<uint8_t> r8, d8;
        if (f.bpc == 8) {
            r8.assign(f.ref.begin() + (ptrdiff_t)(px * i), f.ref.begin() + (ptrdiff_t)(px * (i + 1)));
            d8.assign(f.dis.begin() + (ptrdiff_t)(px * i), f.dis.begin() + (ptrdiff_t)(px * (i + 1)));
            pr.data[0] = r8.data();
            pd.data[0] = d8.data();
            pr.linesize[0] = pd.linesize[0] = f.w;
        } else {
            pr.data[0] = f.ref.data() + px * i;
            pd.data[0] = f.dis.data() + px * i;
            pr.linesize[0] = pd.linesize[0] = f.w * 2;
        }
        if (vq_session_submit(s, &pr, &pd) < 0)
            fail = vq_session_error(s);
        drain();
    }
    if (fail.empty() && vq_session_flush(s) < 0)
        fail = vq_session_error(s);
    drain();
    vq_session_close(&s);
    return fail;
}

}  // namespace

/* row bands on 3 threads give the bits of one thread, for several sizes,
 * depths and options (the ordered sums stay on one thread per row) */
TEST(FloatAdm, ThreadsGiveTheSameBits)
{
    std::mt19937 rng(3);
    const struct {
        int w, h, bpc;
        const char *feature;
    } cases[] = {
        { 64, 48, 8, "name=float_adm:rcp=amd" },
        { 97, 71, 10, "name=float_adm:rcp=amd:adm_p_norm=2.5:debug=true" },
        { 200, 150, 12, "name=float_adm:rcp=div:adm_skip_scale0=true:adm_skip_aim_scale=1" },
        { 33, 40, 16, "name=float_adm:rcp=amd:adm_bypass_cm=1:adm_csf_mode=2" },
        { 333, 203, 8, "name=float_adm:rcp=amd:adm_enhn_gain_limit=1" },
    };
    for (const auto &cs : cases) {
        const Frames f = random_frames(cs.w, cs.h, cs.bpc, rng, 3);
        std::vector<std::vector<double>> one, three;
        ASSERT_EQ(score(f, 3, cs.feature, 1, &one), "") << cs.feature;
        ASSERT_EQ(score(f, 3, cs.feature, 3, &three), "") << cs.feature;
        ASSERT_EQ(one.size(), 3u);
        ASSERT_EQ(one.size(), three.size());
        for (size_t i = 0; i < one.size(); i++)
            for (size_t k = 0; k < one[i].size(); k++)
                EXPECT_EQ(std::memcmp(&one[i][k], &three[i][k], 8), 0) << cs.feature << " " << i << " " << k;
    }
}

/* what the reference refuses or leaves undefined, refused with its cause */
TEST(FloatAdm, Refusals)
{
    std::mt19937 rng(4);
    Frames f = random_frames(64, 48, 8, rng, 1);
    std::vector<std::vector<double>> out;
    EXPECT_NE(score(f, 1, "name=float_adm:rcp=bogus", 1, &out).find("rcp"), std::string::npos);
    EXPECT_NE(score(f, 1, "name=float_adm:adm_skip_aim_scale=-1", 1, &out), "");   /* outside libvmaf's 0..3 */
    EXPECT_NE(score(f, 1, "name=float_adm:adm_csf_mode=10", 1, &out), "");
    EXPECT_NE(score(f, 1, "name=float_adm:adm_p_norm=0.5", 1, &out), "");
    if (!table("intel")) {
        EXPECT_NE(score(f, 1, "name=float_adm:rcp=intel", 1, &out).find("no table of Intel"), std::string::npos);
    }
    /* 9 bits: the session refuses it before float_adm would (FloatAdmParams.Refusals) */
    Frames f9 = random_frames(64, 48, 9, rng, 1);
    EXPECT_NE(score(f9, 1, "name=float_adm:rcp=amd", 1, &out), "");
    /* a flat reference with noise weight 0: den 0, aim uninitialised in libvmaf */
    Frames flat = f;
    std::fill(flat.ref.begin(), flat.ref.end(), (uint16_t)77);
    out.clear();
    const std::string e = score(flat, 1, "name=float_adm:rcp=amd:adm_noise_weight=0", 1, &out);
    EXPECT_NE(e.find("uninitialised"), std::string::npos) << e;
    /* with the default noise weight the same frame has a value */
    out.clear();
    EXPECT_EQ(score(flat, 1, "name=float_adm:rcp=amd", 1, &out), "");
    ASSERT_EQ(out.size(), 1u);
}

/* The golden columns of dog1080 (first 8 frames): the AMD table gives AMD's
 * libvmaf values, which differ from Intel's at some frames; division
 * (rcp=div) gives neither.  The Intel table, once generated, gives Intel's. */
namespace {

struct Dog {
    static constexpr int n = 8;
    const vq_test::ClipRow &c = vq_test::clip("dog1080");   /* tests/data/clips.tsv */
    Frames f{ c.w, c.h, c.bpc, {}, {} };
    vq_test::GoldenLog amd, intel;
    std::string skip;
    Dog()
    {
        const std::string cols = std::string(VQ_TEST_GOLDEN_DIR) + "/../golden_columns/";
        for (const auto &[file, g] : { std::make_pair("dog1080.float.fadm.json", &amd),
                                       std::make_pair("dog1080.float.intel.fadm.json", &intel) }) {
            std::string err;
            if (vq_test::load_golden(cols + file, g, &err) != vq_test::GoldenStatus::Ok)
                throw std::runtime_error(err.empty() ? cols + file + ": cannot read" : err);
        }
        const char *raw = getenv("VQ_RAW_DIR");
        if (!raw) {
            skip = "VQ_RAW_DIR not set";
            return;
        }
        FILE *fr = fopen((std::string(raw) + "/" + c.ref + ".yuv").c_str(), "rb");
        FILE *fd = fopen((std::string(raw) + "/" + c.dis + ".yuv").c_str(), "rb");
        std::vector<uint8_t> buf(c.frame_bytes());
        for (int i = 0; i < n && fr && fd; i++)
            for (int side = 0; side < 2; side++) {
                if (fread(buf.data(), 1, buf.size(), side ? fd : fr) != buf.size())
                    break;
                std::vector<uint16_t> &v = side ? f.dis : f.ref;
                v.insert(v.end(), buf.begin(), buf.begin() + (ptrdiff_t)f.w * f.h);
            }
        if (f.ref.size() != (size_t)f.w * f.h * n || f.dis.size() != f.ref.size())
            skip = std::string("no raw dog1080 frames in ") + raw;
        if (fr)
            fclose(fr);
        if (fd)
            fclose(fd);
    }
    /* values equal to golden g, and frames with all seven equal */
    int equal(const vq_test::GoldenLog &g, const std::vector<std::vector<double>> &out,
              const std::vector<std::string> &names, int *frames_equal) const
    {
        int values = 0;
        *frames_equal = 0;
        for (int i = 0; i < n; i++) {
            int eq = 0;
            for (size_t k = 0; k < names.size(); k++)
                eq += g.value((size_t)i, names[k]) == out[(size_t)i][k];
            values += eq;
            *frames_equal += eq == (int)names.size();
        }
        return values;
    }
};

const Dog &dog()
{
    static const Dog d;
    return d;
}

}  // namespace

TEST(FloatAdm, AmdTableGivesAmdsGolden)
{
    const Dog &d = dog();
    if (!d.skip.empty())
        GTEST_SKIP() << d.skip;
    std::vector<std::vector<double>> oa, od;
    std::vector<std::string> names, nd;
    ASSERT_EQ(score(d.f, Dog::n, "name=float_adm:rcp=amd", 2, &oa, &names), "");
    ASSERT_EQ(names.size(), 7u);
    ASSERT_EQ(oa.size(), (size_t)Dog::n);
    int fa, fi, fdv;
    EXPECT_EQ(d.equal(d.amd, oa, names, &fa), 7 * Dog::n);
    /* the frames where AMD's and Intel's libvmaf differ are not Intel's */
    int differ = 0;
    for (int i = 0; i < Dog::n; i++)
        differ += d.amd.frames.at((size_t)i).values != d.intel.frames.at((size_t)i).values;
    EXPECT_GT(differ, 0);
    d.equal(d.intel, oa, names, &fi);
    EXPECT_EQ(fi, Dog::n - differ);
    ASSERT_EQ(score(d.f, Dog::n, "name=float_adm:rcp=div", 2, &od, &nd), "");
    d.equal(d.amd, od, nd, &fdv);
    EXPECT_LT(fdv, Dog::n);
}

TEST(FloatAdm, IntelTableGivesIntelsGolden)
{
    const Dog &d = dog();
    if (!table("intel"))
        GTEST_SKIP() << "the Intel table is a placeholder (scripts/rcp_table_gen.c on an Intel CPU)";
    if (!d.skip.empty())
        GTEST_SKIP() << d.skip;
    std::vector<std::vector<double>> oi;
    std::vector<std::string> names;
    ASSERT_EQ(score(d.f, Dog::n, "name=float_adm:rcp=intel", 2, &oi, &names), "");
    ASSERT_EQ(oi.size(), (size_t)Dog::n);
    int fi;
    EXPECT_EQ(d.equal(d.intel, oi, names, &fi), 7 * Dog::n);
}
