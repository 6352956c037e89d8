/*
 * test_scale.cpp - the upscaler (kernels/scale.h, hostmath/scale_filter.h)
 * against FFmpeg 7.1's scale filter, byte for byte.
 *
 * The expected pictures are made by the ffmpeg under test ($VQ_FFMPEG;
 * tests that need it are skipped without it):
 *   - the ladder renditions: $VQ_CLIPS_DIR/dog1080_l{720,540,360}.mp4
 *     through scale=1920:1080:flags=bicubic+accurate_rnd and flags=bicubic,
 *     against our CPU upscale of $VQ_RAW_DIR/dog1080_l*.yuv;
 *   - synthetic raw pictures of random sizes, every bit depth and chroma
 *     subsampling, through ffmpeg -f rawvideo ... -vf scale=...
 * A few fixed synthetic cases are also held to hashes of ffmpeg's output
 * recorded here, so that something runs without ffmpeg.
 */
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "clip_table.h"
#include "scale.h"
#include "scale_exec.h"
#include "scale_filter.h"
#include "vqcuda.h"

namespace {

std::string env(const char *name)
{
    const char *v = std::getenv(name);
    return v ? v : "";
}

bool file_exists(const std::string &p)
{
    struct stat st;
    return !p.empty() && stat(p.c_str(), &st) == 0;
}

struct Fmt {
    const char *name;   /* FFmpeg's pix_fmt */
    int bpc, log2_cw, log2_ch, nplanes;
};

const Fmt kFormats[] = {
    { "yuv420p", 8, 1, 1, 3 },      { "yuv420p10le", 10, 1, 1, 3 }, { "yuv420p12le", 12, 1, 1, 3 },
    { "yuv444p", 8, 0, 0, 3 },      { "yuv422p10le", 10, 1, 0, 3 }, { "yuv420p9le", 9, 1, 1, 3 },
    { "yuv420p14le", 14, 1, 1, 3 }, { "yuv420p16le", 16, 1, 1, 3 }, { "gray", 8, 0, 0, 1 },
    { "yuv410p", 8, 2, 2, 3 },      { "yuv440p", 8, 0, 1, 3 },      { "gray10le", 10, 0, 0, 1 },
};

const char *flags_of(int mode)
{
    return mode == VQ_SCALE_BICUBIC ? "bicubic+accurate_rnd" : "bicubic";
}

/* One picture, planes packed (pitch = width * bytes), as rawvideo has it. */
struct Picture {
    int w[3] = { 0, 0, 0 }, h[3] = { 0, 0, 0 }, bytes = 1, nplanes = 3;
    std::vector<uint8_t> data;
    size_t off[3] = { 0, 0, 0 };

    Picture(const Fmt &f, int width, int height)
    {
        bytes = f.bpc > 8 ? 2 : 1;
        nplanes = f.nplanes;
        size_t n = 0;
        for (int p = 0; p < nplanes; p++) {
            w[p] = p ? -((-width) >> f.log2_cw) : width;
            h[p] = p ? -((-height) >> f.log2_ch) : height;
            off[p] = n;
            n += (size_t)w[p] * h[p] * bytes;
        }
        data.assign(n, 0);
    }
    size_t size() const { return data.size(); }
    void views(VqPlaneView v[3]) const
    {
        for (int p = 0; p < 3; p++) {
            const int q = p < nplanes ? p : 0;
            v[p] = VqPlaneView{ data.data() + off[q], (ptrdiff_t)w[q] * bytes, w[q], h[q], bytes, 0, 1 };
        }
    }
    uint32_t at(int p, int i, int j) const
    {
        const uint8_t *row = data.data() + off[p] + ((size_t)i * w[p]) * bytes;
        return bytes == 1 ? row[j] : ((const uint16_t *)row)[j];
    }
    void set(int p, int i, int j, uint32_t v)
    {
        uint8_t *row = data.data() + off[p] + ((size_t)i * w[p]) * bytes;
        if (bytes == 1)
            row[j] = (uint8_t)v;
        else
            ((uint16_t *)row)[j] = (uint16_t)v;
    }
};

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed ? seed : 1) {}
    uint32_t next()
    {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return (uint32_t)(s >> 11);
    }
};

/* Content that reaches every branch: smooth gradients, hard 0/max edges
 * (bicubic overshoot, both clips), noise. */
void fill(Picture &pic, int bpc, uint64_t seed)
{
    Rng r(seed);
    const uint32_t maxv = (1u << bpc) - 1;
    for (int p = 0; p < pic.nplanes; p++)
        for (int i = 0; i < pic.h[p]; i++)
            for (int j = 0; j < pic.w[p]; j++) {
                uint32_t v;
                const int region = ((i / 7) + (j / 11) + p) % 4;
                if (region == 0)
                    v = ((i * 5 + j * 3) * (maxv + 1) / 211) % (maxv + 1);
                else if (region == 1)
                    v = (r.next() & 1) ? maxv : 0;
                else if (region == 2)
                    v = r.next() % (maxv + 1);
                else
                    v = (((j / 3) & 1) ? maxv * 3 / 4 : maxv / 5) + r.next() % 3;
                pic.set(p, i, j, v > maxv ? maxv : v);
            }
}

/* Our CPU upscale of pic to dst_w x dst_h; empty on a refused plan. */
struct Scaler {
    VqScalePlan *plan = nullptr;
    VqScaleCpu *cpu = nullptr;
    std::string err;

    Scaler(const Fmt &f, int sw, int sh, int dw, int dh, int mode)
    {
        const VqScaleFormat s{ sw, sh, f.bpc, f.log2_cw, f.log2_ch, f.nplanes };
        const VqScaleFormat d{ dw, dh, f.bpc, f.log2_cw, f.log2_ch, f.nplanes };
        char msg[512] = "";
        if (vq_scale_plan_create(&plan, &s, &d, mode, msg, sizeof(msg)) != 0) {
            err = msg;
            return;
        }
        if (vq_scale_cpu_alloc(&cpu, plan) != 0)
            err = "vq_scale_cpu_alloc failed";
    }
    ~Scaler()
    {
        vq_scale_cpu_free(cpu);
        vq_scale_plan_free(plan);
    }
    /* the output in rawvideo layout */
    std::vector<uint8_t> run(const Picture &in)
    {
        VqPlaneView v[3], o[3];
        in.views(v);
        EXPECT_EQ(vq_scale_cpu_run(cpu, v), 0);
        vq_scale_cpu_output(cpu, o);
        std::vector<uint8_t> out;
        for (int p = 0; p < plan->nplanes; p++)
            out.insert(out.end(), o[p].data, o[p].data + (size_t)o[p].pitch * o[p].h);
        return out;
    }
};

/* Reads frames of `frame_bytes` from a command's stdout. */
struct Pipe {
    FILE *f = nullptr;
    explicit Pipe(const std::string &cmd) { f = popen(cmd.c_str(), "r"); }
    ~Pipe()
    {
        if (f)
            pclose(f);
    }
    bool read(std::vector<uint8_t> &buf) { return f && fread(buf.data(), 1, buf.size(), f) == buf.size(); }
    int close()
    {
        const int r = f ? pclose(f) : -1;
        f = nullptr;
        return r;
    }
};

std::string quote(const std::string &s) { return "'" + s + "'"; }

/* FFmpeg's scale of one raw picture (rawvideo in, rawvideo out). */
bool ffmpeg_scale(const std::string &ff, const std::string &dir, const Fmt &f, const Picture &in,
                  int sw, int sh, int dw, int dh, int mode, std::vector<uint8_t> &out)
{
    const std::string in_path = dir + "/in.yuv";
    FILE *fi = fopen(in_path.c_str(), "wb");
    if (!fi || fwrite(in.data.data(), 1, in.size(), fi) != in.size()) {
        if (fi)
            fclose(fi);
        return false;
    }
    fclose(fi);
    char cmd[2048];
    snprintf(cmd, sizeof(cmd),
             "%s -nostdin -hide_banner -v error -f rawvideo -pix_fmt %s -s %dx%d -i %s "
             "-vf scale=%d:%d:flags=%s -f rawvideo -pix_fmt %s -",
             quote(ff).c_str(), f.name, sw, sh, quote(in_path).c_str(), dw, dh, flags_of(mode), f.name);
    Pipe p(cmd);
    const bool ok = p.read(out);
    return p.close() == 0 && ok;
}

uint64_t fnv1a(const std::vector<uint8_t> &b)
{
    uint64_t h = 1469598103934665603ull;
    for (uint8_t c : b) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

struct TempDir {
    std::string path;
    TempDir()
    {
        std::string t = env("TMPDIR");
        std::string tmpl = (t.empty() ? std::string("/tmp") : t) + "/vq_scale_XXXXXX";
        std::vector<char> b(tmpl.begin(), tmpl.end());
        b.push_back(0);
        if (mkdtemp(b.data()))
            path = b.data();
    }
    ~TempDir()
    {
        if (!path.empty()) {
            unlink((path + "/in.yuv").c_str());
            rmdir(path.c_str());
        }
    }
};

/* ---- filter tables: properties swscale's initFilter guarantees ---------- */

TEST(ScaleFilter, TablesNormalisedAndInside)
{
    const int sizes[][2] = { { 1280, 1920 }, { 960, 1920 }, { 640, 1920 }, { 720, 1080 },
                             { 540, 1080 },  { 360, 1080 }, { 8, 9 },      { 17, 600 } };
    for (auto &s : sizes)
        for (int vert = 0; vert < 2; vert++) {
            const int one = vert ? 1 << 12 : 1 << 14;
            const int64_t inc = (((int64_t)s[0] << 16) + (s[1] >> 1)) / s[1];
            const vq::ScaleFilterTable t =
                vq::scale_init_filter(inc, s[0], s[1], vert ? 2 : 4, one, 128, 128, 123456, 123456);
            ASSERT_EQ(t.size % (vert ? 2 : 4), 0);
            for (int i = 0; i < t.dst_n; i++) {
                int sum = 0;
                for (int j = 0; j < t.size; j++)
                    sum += t.coef[(size_t)i * t.size + j];
                ASSERT_EQ(sum, one) << s[0] << "->" << s[1] << " row " << i;
                ASSERT_GE(t.pos[i], 0);
                ASSERT_LE(t.pos[i] + t.size, t.src_n);
                if (i) {
                    ASSERT_GE(t.pos[i], t.pos[i - 1]);
                }
            }
        }
}

/* The 720p rung's luma tables, rows quoted from libswscale 7.1's own
 * (SwsContext.hLumFilter / vLumFilter on x86 without AVX2's reordering). */
TEST(ScaleFilter, Rung720QuotedFromSwscale)
{
    const vq::ScaleFilterTable h = vq::scale_init_filter(((1280LL << 16) + 960) / 1920, 1280, 1920, 4,
                                                         1 << 14, 128, 128, 123456, 123456);
    const vq::ScaleFilterTable v = vq::scale_init_filter(((720LL << 16) + 540) / 1080, 720, 1080, 2,
                                                         1 << 12, 128, 128, 123456, 123456);
    ASSERT_EQ(h.size, 4);
    ASSERT_EQ(v.size, 4);
    const int16_t h_rows[5][4] = { { 17506, -1122, 0, 0 },     { 8763, 8764, -1143, 0 },
                                   { -1138, 15398, 2352, -228 }, { -228, 2352, 15398, -1138 },
                                   { 0, 0, -1176, 17560 } };
    const int16_t v_rows[5][4] = { { 4377, -281, 0, 0 },  { 2191, 2191, -286, 0 }, { -284, 3849, 588, -57 },
                                   { -57, 588, 3849, -284 }, { 0, 0, -290, 4386 } };
    const int hi[5] = { 0, 1, 2, 3, 1919 }, vi[5] = { 0, 1, 2, 3, 1079 };
    for (int k = 0; k < 5; k++)
        for (int j = 0; j < 4; j++) {
            EXPECT_EQ(h.coef[(size_t)hi[k] * 4 + j], h_rows[k][j]) << "h row " << hi[k];
            EXPECT_EQ(v.coef[(size_t)vi[k] * 4 + j], v_rows[k][j]) << "v row " << vi[k];
        }
    EXPECT_EQ(h.pos[3], 0);
    EXPECT_EQ(h.pos[1919], 1276);
    EXPECT_EQ(v.pos[1079], 716);
}

/* ---- refusals ----------------------------------------------------------- */

TEST(ScaleCheck, Refusals)
{
    char msg[256];
    const VqScaleFormat ref{ 1920, 1080, 8, 1, 1, 3 };
    VqScaleFormat s{ 1280, 720, 8, 1, 1, 3 };
    EXPECT_EQ(vq_scale_check(&s, &ref, VQ_SCALE_BICUBIC, msg, sizeof(msg)), 0);
    EXPECT_EQ(vq_scale_check(&s, &ref, VQ_SCALE_BICUBIC_X86, msg, sizeof(msg)), 0);
    EXPECT_EQ(vq_scale_check(&s, &ref, 2, msg, sizeof(msg)), VQ_EINVAL);
    s.bpc = 10;
    EXPECT_EQ(vq_scale_check(&s, &ref, VQ_SCALE_BICUBIC, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_NE(strstr(msg, "bit depth"), nullptr) << msg;
    s = VqScaleFormat{ 1280, 720, 8, 0, 0, 3 };
    EXPECT_EQ(vq_scale_check(&s, &ref, VQ_SCALE_BICUBIC, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_NE(strstr(msg, "subsampling"), nullptr) << msg;
    s = VqScaleFormat{ 1920, 1088, 8, 1, 1, 3 };
    EXPECT_EQ(vq_scale_check(&s, &ref, VQ_SCALE_BICUBIC, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_NE(strstr(msg, "larger"), nullptr) << msg;
    s = VqScaleFormat{ 0, 720, 8, 1, 1, 3 };
    EXPECT_EQ(vq_scale_check(&s, &ref, VQ_SCALE_BICUBIC, msg, sizeof(msg)), VQ_EINVAL);
    s = VqScaleFormat{ 1280, 720, 11, 1, 1, 3 };
    const VqScaleFormat ref11{ 1920, 1080, 11, 1, 1, 3 };
    EXPECT_EQ(vq_scale_check(&s, &ref11, VQ_SCALE_BICUBIC, msg, sizeof(msg)), VQ_EINVAL);
    VqScalePlan *plan = reinterpret_cast<VqScalePlan *>(1);
    s = VqScaleFormat{ 1280, 720, 10, 1, 1, 3 };
    EXPECT_EQ(vq_scale_plan_create(&plan, &s, &ref, VQ_SCALE_BICUBIC, msg, sizeof(msg)), VQ_EINVAL);
    EXPECT_EQ(plan, nullptr);
}

/* Same size: FFmpeg's scale filter passes the frame through. */
TEST(ScaleCpu, SameSizeIsIdentity)
{
    for (const Fmt &f : kFormats) {
        Picture in(f, 37, 23);
        fill(in, f.bpc, 5);
        for (int mode = 0; mode < 2; mode++) {
            Scaler sc(f, 37, 23, 37, 23, mode);
            ASSERT_TRUE(sc.err.empty()) << sc.err;
            EXPECT_TRUE(sc.run(in) == in.data) << f.name;
        }
    }
}

/* ---- recorded ffmpeg output (no ffmpeg needed) -------------------------- */

struct Recorded {
    const char *fmt;
    int sw, sh, dw, dh, mode;
    uint64_t seed, hash;
};

/* FNV-1a 64 of FFmpeg 7.1.5's output (x86-64, AVX-512 machine) for
 * fill(seed); DISABLED_PrintRecorded prints these lines anew. */
const Recorded kRecorded[] = {
    { "yuv420p", 320, 180, 480, 270, 0, 1, 0x84fbf96d3e415951ull },
    { "yuv420p", 320, 180, 480, 270, 1, 1, 0x2e3951bbf40a1892ull },
    { "yuv420p", 240, 135, 480, 270, 0, 2, 0xfdb571166d846234ull },
    { "yuv420p", 240, 135, 480, 270, 1, 2, 0x40ba2236bcbe61d1ull },
    { "yuv420p", 160, 90, 480, 270, 0, 3, 0xe32b86a82a49e556ull },
    { "yuv420p", 160, 90, 480, 270, 1, 3, 0x6f6e503028d3c458ull },
    { "yuv420p", 101, 57, 333, 201, 1, 4, 0x3e1ac871d7307fd9ull },
    { "yuv420p10le", 320, 180, 480, 270, 0, 5, 0x0775c00f7966f0efull },
    { "yuv420p10le", 97, 61, 250, 133, 1, 6, 0x74a5646dd78f2074ull },
    { "yuv420p12le", 160, 90, 480, 270, 0, 7, 0x8c541f1706162412ull },
    { "yuv422p10le", 77, 45, 160, 90, 0, 8, 0xf18791e8484d89e8ull },
    { "yuv444p", 99, 70, 200, 141, 1, 9, 0xfab372a52b45634dull },
    { "yuv420p16le", 64, 40, 129, 77, 0, 10, 0x93578086bce9c3b7ull },
    { "gray", 50, 33, 51, 100, 1, 11, 0x574d32717ad49f27ull },
};

TEST(ScaleCpu, RecordedFfmpegOutput)
{
    int n = 0;
    for (const Recorded &r : kRecorded) {
        const Fmt *f = nullptr;
        for (const Fmt &x : kFormats)
            if (!strcmp(x.name, r.fmt))
                f = &x;
        ASSERT_NE(f, nullptr);
        Picture in(*f, r.sw, r.sh);
        fill(in, f->bpc, r.seed);
        Scaler sc(*f, r.sw, r.sh, r.dw, r.dh, r.mode);
        ASSERT_TRUE(sc.err.empty()) << sc.err;
        EXPECT_EQ(fnv1a(sc.run(in)), r.hash) << r.fmt << " " << r.sw << "x" << r.sh << " -> " << r.dw
                                              << "x" << r.dh << " " << flags_of(r.mode);
        n++;
    }
    EXPECT_GT(n, 0);
}

/* ---- against the ffmpeg under test -------------------------------------- */

/* prints kRecorded with hashes of the ffmpeg under test's output */
TEST(ScaleFfmpeg, DISABLED_PrintRecorded)
{
    const std::string ff = env("VQ_FFMPEG");
    if (!file_exists(ff))
        GTEST_SKIP() << "VQ_FFMPEG (the ffmpeg under test) is not set or absent";
    TempDir dir;
    for (const Recorded &r : kRecorded) {
        const Fmt *f = nullptr;
        for (const Fmt &x : kFormats)
            if (!strcmp(x.name, r.fmt))
                f = &x;
        ASSERT_NE(f, nullptr);
        Picture in(*f, r.sw, r.sh), out(*f, r.dw, r.dh);
        fill(in, f->bpc, r.seed);
        ASSERT_TRUE(ffmpeg_scale(ff, dir.path, *f, in, r.sw, r.sh, r.dw, r.dh, r.mode, out.data));
        printf("    { \"%s\", %d, %d, %d, %d, %d, %llu, 0x%016llxull },\n", r.fmt, r.sw, r.sh, r.dw,
               r.dh, r.mode, (unsigned long long)r.seed, (unsigned long long)fnv1a(out.data));
    }
}

TEST(ScaleFfmpeg, SyntheticRandomSizes)
{
    const std::string ff = env("VQ_FFMPEG");
    if (!file_exists(ff))
        GTEST_SKIP() << "VQ_FFMPEG (the ffmpeg under test) is not set or absent";
    TempDir dir;
    ASSERT_FALSE(dir.path.empty());
    uint64_t seed = 20250;
    if (!env("VQ_SCALE_SEED").empty())
        seed = std::strtoull(env("VQ_SCALE_SEED").c_str(), nullptr, 10);
    printf("seed %llu (VQ_SCALE_SEED)\n", (unsigned long long)seed);
    Rng r(seed);
    int cases = 0, exact = 0;
    const int nfmt = (int)(sizeof(kFormats) / sizeof(kFormats[0]));
    for (int k = 0; k < 3 * nfmt; k++) {
        const Fmt &f = kFormats[k % nfmt];
        int dw = 8 + (int)(r.next() % 400), dh = 8 + (int)(r.next() % 300);
        int sw = 8 + (int)(r.next() % (dw - 7)), sh = 8 + (int)(r.next() % (dh - 7));
        if (k >= 2 * nfmt) {
            /* tiny sources */
            sw = 1 + (int)(r.next() % 6);
            sh = 1 + (int)(r.next() % 6);
        }
        if (k < nfmt) {
            /* the ladder's shape at every format */
            const int rung[3][2] = { { 1280, 720 }, { 960, 540 }, { 640, 360 } };
            sw = rung[k % 3][0] / 4;
            sh = rung[k % 3][1] / 4;
            dw = 480;
            dh = 270;
        }
        Picture in(f, sw, sh);
        fill(in, f.bpc, seed + k);
        for (int mode = 0; mode < 2; mode++) {
            Scaler sc(f, sw, sh, dw, dh, mode);
            ASSERT_TRUE(sc.err.empty()) << sc.err;
            const std::vector<uint8_t> mine = sc.run(in);
            std::vector<uint8_t> want(mine.size());
            ASSERT_TRUE(ffmpeg_scale(ff, dir.path, f, in, sw, sh, dw, dh, mode, want))
                << "ffmpeg failed on " << f.name << " " << sw << "x" << sh;
            cases++;
            if (mine == want)
                exact++;
            else
                ADD_FAILURE() << f.name << " " << sw << "x" << sh << " -> " << dw << "x" << dh << " "
                              << flags_of(mode) << " differs (seed " << seed << ")";
        }
    }
    printf("synthetic: %d/%d pictures byte-exact\n", exact, cases);
}

/* The ladder: every frame of each rendition, both modes, against ffmpeg's
 * scale of the mp4 (decoded by the same ffmpeg). */
class ScaleLadder : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(ScaleLadder, EveryFrameByteExact)
{
    const int rung = std::get<0>(GetParam()), mode = std::get<1>(GetParam());
    const std::string ff = env("VQ_FFMPEG"), clips = env("VQ_CLIPS_DIR"), raw = env("VQ_RAW_DIR");
    const std::string name = "dog1080_l" + std::to_string(rung);
    const vq_test::ClipRow &row = vq_test::clip(name);   /* the rendition: tests/data/clips.tsv */
    const std::string clip = clips + "/" + row.dis + ".mp4", yuv = raw + "/" + row.dis + ".yuv";
    if (!file_exists(ff))
        GTEST_SKIP() << "VQ_FFMPEG (the ffmpeg under test) is not set or absent";
    if (!file_exists(clip) || !file_exists(yuv))
        GTEST_SKIP() << "needs " << clip << " and " << yuv;
    const int sw = row.w, sh = row.h;
    const Fmt &f = kFormats[0];
    Scaler sc(f, sw, sh, 1920, 1080, mode);
    ASSERT_TRUE(sc.err.empty()) << sc.err;
    Picture in(f, sw, sh);
    FILE *fi = fopen(yuv.c_str(), "rb");
    ASSERT_NE(fi, nullptr);
    char cmd[2048];
    snprintf(cmd, sizeof(cmd),
             "%s -nostdin -hide_banner -v error -i %s -vf scale=1920:1080:flags=%s "
             "-f rawvideo -pix_fmt yuv420p -",
             quote(ff).c_str(), quote(clip).c_str(), flags_of(mode));
    Pipe p(cmd);
    std::vector<uint8_t> want((size_t)1920 * 1080 * 3 / 2);
    int frames = 0, exact = 0;
    double ms = 0;
    while (fread(in.data.data(), 1, in.size(), fi) == in.size()) {
        ASSERT_TRUE(p.read(want)) << "ffmpeg gave fewer frames than " << yuv;
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<uint8_t> mine = sc.run(in);
        ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        frames++;
        if (mine == want) {
            exact++;
        } else {
            size_t k = 0;
            while (mine[k] == want[k])
                k++;
            ADD_FAILURE() << name << " " << flags_of(mode) << " frame " << frames - 1
                          << " first differs at byte " << k;
        }
    }
    fclose(fi);
    std::vector<uint8_t> extra(1);
    EXPECT_FALSE(p.read(extra)) << "ffmpeg gave more frames than " << yuv;
    EXPECT_EQ(p.close(), 0);
    EXPECT_EQ(frames, 41);
    EXPECT_EQ(exact, frames);
    printf("%s %s: %d/%d frames byte-exact, CPU %.1f ms per 1920x1080 frame\n", name.c_str(),
           flags_of(mode), exact, frames, frames ? ms / frames : 0.0);
}

INSTANTIATE_TEST_SUITE_P(Rungs, ScaleLadder,
                         ::testing::Combine(::testing::Values(720, 540, 360),
                                            ::testing::Values(VQ_SCALE_BICUBIC, VQ_SCALE_BICUBIC_X86)),
                         [](const ::testing::TestParamInfo<std::tuple<int, int>> &i) {
                             return "l" + std::to_string(std::get<0>(i.param)) +
                                    (std::get<1>(i.param) ? "_bicubic_x86" : "_bicubic");
                         });

}  // namespace
