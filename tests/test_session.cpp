// The session API: results in frame order, flat memory on long jobs
// (keep_frames = 0 gives the same per-frame results and pooled values as
// keeping every frame), and errors returned, never aborted on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "feature_plan.hpp"
#include "session_impl.hpp"
#include "ssim/ssim_exec.h"
#include "test_util.h"
#include "vqcuda.h"

namespace {

using vq_test::slurp;

VqConfig config(int w, int h, int keep)
{
    VqConfig c;
    vq_config_default(&c);
    c.format.width = w;
    c.format.height = h;
    c.format.bitdepth = 8;
    c.format.bytes_per_sample = 1;
    c.format.chroma_shift_w = 1;
    c.format.chroma_shift_h = 1;
    c.format.layout = VQ_LAYOUT_PLANAR;
    c.executor = VQ_EXECUTOR_CPU;
    c.keep_frames = keep;
    return c;
}

struct Yuv {
    std::vector<uint8_t> p[3];
    VqPicture pic;
    Yuv(int w, int h, std::mt19937 &rng, const Yuv *base, int noise)
    {
        int cw = w / 2, ch = h / 2;
        int sz[3] = { w * h, cw * ch, cw * ch };
        for (int k = 0; k < 3; k++) {
            p[k].resize(sz[k]);
            for (int i = 0; i < sz[k]; i++) {
                int v = base ? base->p[k][i] + (int)(rng() % (2 * noise + 1)) - noise
                             : (int)((i * 7 + (i / w) * 3) % 200 + rng() % 40);
                p[k][i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
        }
        memset(&pic, 0, sizeof(pic));
        pic.data[0] = p[0].data();
        pic.data[1] = p[1].data();
        pic.data[2] = p[2].data();
        pic.linesize[0] = w;
        pic.linesize[1] = pic.linesize[2] = cw;
    }
};

}  // namespace

TEST(Session, LongRunWithoutKeptFramesMatchesKeptFrames)
{
    const int w = 64, h = 48, n = 700;   // past the 256-frame window more than twice
    VqConfig ca = config(w, h, 1), cb = config(w, h, 0);
    char err[256];
    VqSession *a = nullptr, *b = nullptr;
    ASSERT_EQ(vq_session_open(&a, &ca, err, sizeof(err)), VQ_OK) << err;
    ASSERT_EQ(vq_session_open(&b, &cb, err, sizeof(err)), VQ_OK) << err;
    std::mt19937 rng(1234);
    Yuv ref0(w, h, rng, nullptr, 0);
    int64_t next_a = 0, next_b = 0;
    std::vector<double> vmaf_a, vmaf_b;
    /* each session's results as they come (b may run ahead of a: folds on
     * workers finish when they finish), compared once both are complete */
    auto drain = [&](VqSession *s, int64_t &next, std::vector<double> *keep) {
        VqFrameResult r;
        int ret;
        while ((ret = vq_session_receive(s, &r)) == VQ_OK) {
            ASSERT_EQ(r.index, next) << "results out of order";
            ASSERT_GT(r.n, 0);
            ASSERT_STREQ(r.name[r.n - 1], "vmaf");
            keep->push_back(r.value[r.n - 1]);
            next++;
        }
        ASSERT_TRUE(ret == VQ_EAGAIN || ret == VQ_EOF);
    };
    for (int i = 0; i < n; i++) {
        Yuv ref(w, h, rng, &ref0, 2 + i % 5);   // motion that changes from frame to frame
        Yuv dis(w, h, rng, &ref, 1 + i % 7);
        ASSERT_EQ(vq_session_submit(a, &ref.pic, &dis.pic), VQ_OK) << vq_session_error(a);
        ASSERT_EQ(vq_session_submit(b, &ref.pic, &dis.pic), VQ_OK) << vq_session_error(b);
        drain(a, next_a, &vmaf_a);
        drain(b, next_b, &vmaf_b);
    }
    ASSERT_EQ(vq_session_flush(a), VQ_OK);
    ASSERT_EQ(vq_session_flush(b), VQ_OK);
    drain(a, next_a, &vmaf_a);
    drain(b, next_b, &vmaf_b);
    EXPECT_EQ(next_a, n);
    EXPECT_EQ(next_b, n);
    EXPECT_EQ(vmaf_b, vmaf_a);
    VqFrameResult r;
    EXPECT_EQ(vq_session_receive(a, &r), VQ_EOF);
    const char *names[] = { "vmaf", "integer_adm2", "integer_motion2", "psnr_cb" };
    for (const char *name : names)
        for (int pool = VQ_POOL_MEAN; pool <= VQ_POOL_HARMONIC_MEAN; pool++) {
            double va, vb;
            ASSERT_EQ(vq_session_pooled(a, name, (VqPool)pool, &va), VQ_OK);
            ASSERT_EQ(vq_session_pooled(b, name, (VqPool)pool, &vb), VQ_OK);
            EXPECT_EQ(va, vb) << name << " pool " << pool;
        }
    // the pooled mean is the sequential double sum over frame order
    double sum = 0;
    for (double v : vmaf_a)
        sum += v;
    double mean;
    ASSERT_EQ(vq_session_pooled(a, "vmaf", VQ_POOL_MEAN, &mean), VQ_OK);
    EXPECT_EQ(mean, sum / n);
    // no per-frame log without kept frames, and the reason is given
    EXPECT_EQ(vq_session_write_log(b, "/dev/null", VQ_LOG_JSON), VQ_EINVAL);
    EXPECT_NE(std::strstr(vq_session_error(b), "keep_frames"), nullptr);
    vq_session_close(&a);
    vq_session_close(&b);
    EXPECT_EQ(a, nullptr);
}

TEST(Session, RefusesWhatTheReferenceCannotScore)
{
    char err[256];
    VqSession *s = nullptr;
    VqConfig c = config(32, 48, 1);
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EINVAL);
    EXPECT_EQ(s, nullptr);
    EXPECT_NE(std::strstr(err, "33x33"), nullptr) << err;
    c = config(64, 32, 1);
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EINVAL);
    c = config(64, 48, 1);
    c.format.bitdepth = 9;
    c.format.bytes_per_sample = 2;
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EINVAL);
    c = config(64, 48, 1);
    c.model = "path=/nonexistent/model.json";
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EMODEL);
    EXPECT_NE(std::strstr(err, "/nonexistent/model.json"), nullptr) << err;
    c = config(64, 48, 1);
    c.model = "version=vmaf_v9";
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EMODEL);
}

TEST(Session, MisuseIsAnErrorNotACrash)
{
    char err[256];
    VqSession *s = nullptr;
    VqConfig c = config(64, 48, 1);
    ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK);
    std::mt19937 rng(7);
    Yuv a(64, 48, rng, nullptr, 0), b(64, 48, rng, &a, 3);
    EXPECT_EQ(vq_session_submit(s, &a.pic, nullptr), VQ_EINVAL);
    VqPicture dev = a.pic;
    dev.on_device = 1;
    EXPECT_EQ(vq_session_submit(s, &dev, &dev), VQ_EINVAL);   // device pictures, CPU executor
    double v;
    EXPECT_EQ(vq_session_pooled(s, "vmaf", VQ_POOL_MEAN, &v), VQ_EINVAL);   // nothing scored
    EXPECT_EQ(vq_session_pooled(s, "no_such_feature", VQ_POOL_MEAN, &v), VQ_EINVAL);
    ASSERT_EQ(vq_session_submit(s, &a.pic, &b.pic), VQ_OK);
    ASSERT_EQ(vq_session_flush(s), VQ_OK);
    EXPECT_EQ(vq_session_submit(s, &a.pic, &b.pic), VQ_EINVAL);   // after flush
    VqFrameResult r;
    ASSERT_EQ(vq_session_receive(s, &r), VQ_OK);
    EXPECT_EQ(r.index, 0);
    EXPECT_EQ(vq_session_receive(s, &r), VQ_EOF);
    vq_session_close(&s);
    vq_session_close(&s);   // twice is harmless
}

namespace {

/* every value of every frame result of s, in order (flushes s) */
std::vector<std::vector<double>> all_results(VqSession *s, std::vector<std::string> *names = nullptr)
{
    std::vector<std::vector<double>> out;
    EXPECT_EQ(vq_session_flush(s), VQ_OK) << vq_session_error(s);
    VqFrameResult r;
    int ret;
    while ((ret = vq_session_receive(s, &r)) == VQ_OK) {
        out.emplace_back(r.value, r.value + r.n);
        if (names && names->empty())
            for (int k = 0; k < r.n; k++)
                names->push_back(r.name[k]);
    }
    EXPECT_EQ(ret, VQ_EOF);
    return out;
}

/* every result of every rendition of ladder l, by rendition (flushes l) */
std::vector<std::vector<std::vector<double>>> ladder_results(VqLadder *l)
{
    std::vector<std::vector<std::vector<double>>> out((size_t)vq_ladder_renditions(l));
    EXPECT_EQ(vq_ladder_flush(l), VQ_OK) << vq_ladder_error(l);
    VqFrameResult r;
    int k, ret;
    while ((ret = vq_ladder_receive(l, &k, &r)) == VQ_OK)
        out[(size_t)k].emplace_back(r.value, r.value + r.n);
    EXPECT_EQ(ret, VQ_EOF) << vq_ladder_error(l);
    return out;
}

/* rendition k's module instances whose row work it does not run: it folds
 * the ladder's reference work (rendition 1's sections) instead */
int takes_reference(const VqLadder *l, int k)
{
    const VqSession *s = vq_ladder_session(l, k);
    int n = 0;
    for (int i = 0; s && i < s->exec_plan.n_modules; i++)
        n += s->exec_plan.module[i].skip != 0;
    return n;
}

/* rendition k's module instances whose row work reads the reference alone */
int ref_only_instances(const VqLadder *l, int k)
{
    const VqSession *s = vq_ladder_session(l, k);
    return s ? (int)s->ref_parts().size() : -1;
}

int column(const std::vector<std::string> &names, const char *name)
{
    for (size_t k = 0; k < names.size(); k++)
        if (names[k] == name)
            return (int)k;
    return -1;
}

}  // namespace

// Each result says what each of its outputs is, from the plan, never from
// the name: a feature, a model's score, a bootstrap collection's member or
// its interval (a model named "v" does not make vif_scale0 a score).
TEST(Session, ResultsSayWhatEachOutputIs)
{
    const int w = 64, h = 48;
    char err[256];
    std::mt19937 rng(7);
    Yuv a(w, h, rng, nullptr, 0), b(w, h, rng, &a, 3);
    VqConfig c = config(w, h, 1);
    c.model = "version=vmaf_b_v0.6.3|version=vmaf_v0.6.1:name=v";
    VqSession *s = nullptr;
    ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
    ASSERT_EQ(vq_session_submit(s, &a.pic, &b.pic), VQ_OK) << vq_session_error(s);
    ASSERT_EQ(vq_session_flush(s), VQ_OK) << vq_session_error(s);
    VqFrameResult r;
    ASSERT_EQ(vq_session_receive(s, &r), VQ_OK);
    int count[4] = { 0, 0, 0, 0 };
    for (int j = 0; j < r.n; j++) {
        const std::string n = r.name[j];
        ASSERT_LT(r.kind[j], 4) << n;
        count[r.kind[j]]++;
        // the collection is named vmaf (no name= given), its members vmaf_0001 ..
        const int want = n == "vmaf" || n == "v" ? VQ_OUTPUT_MODEL
                       : n.size() == 9 && n.rfind("vmaf_00", 0) == 0 ? VQ_OUTPUT_MEMBER
                       : n == "vmaf_bagging" || n == "vmaf_stddev" || n == "vmaf_ci_p95_lo" || n == "vmaf_ci_p95_hi"
                           ? VQ_OUTPUT_INTERVAL
                           : VQ_OUTPUT_FEATURE;
        EXPECT_EQ(r.kind[j], want) << n;
    }
    EXPECT_EQ(count[VQ_OUTPUT_MODEL], 2);
    EXPECT_EQ(count[VQ_OUTPUT_MEMBER], 20);
    EXPECT_EQ(count[VQ_OUTPUT_INTERVAL], 4);
    EXPECT_GE(count[VQ_OUTPUT_FEATURE], 8);  // vif_scale0..3, adm2, motion2, psnr_y ...
    vq_session_close(&s);
}

// A ladder's later renditions run no motion of their own: they fold
// rendition 1's (its row work reads the reference alone), and their results
// equal those of sessions of their own, with every frame kept or none.
TEST(Ladder, LaterRenditionsFoldTheFirstOnesMotion)
{
    const int w = 64, h = 48, n = 40;
    char err[256];
    std::mt19937 rng(99);
    Yuv ref0(w, h, rng, nullptr, 0);
    std::vector<Yuv> refs, d1, d2;
    refs.reserve(n);
    d1.reserve(n);
    d2.reserve(n);
    for (int i = 0; i < n; i++) {
        refs.emplace_back(w, h, rng, &ref0, 1 + i % 6);
        d1.emplace_back(w, h, rng, &refs.back(), 2);
        d2.emplace_back(w, h, rng, &refs.back(), 5 + i % 3);
    }
    auto alone = [&](std::vector<Yuv> &d, std::vector<std::string> *names) {
        VqConfig c = config(w, h, 1);
        VqSession *s = nullptr;
        EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
        for (int i = 0; s && i < n; i++)
            EXPECT_EQ(vq_session_submit(s, &refs[(size_t)i].pic, &d[(size_t)i].pic), VQ_OK);
        auto v = all_results(s, names);
        vq_session_close(&s);
        return v;
    };
    std::vector<std::string> names;
    const auto a1 = alone(d1, &names), a2 = alone(d2, nullptr);
    ASSERT_EQ(a2.size(), (size_t)n);
    for (int keep = 1; keep >= 0; keep--) {
        VqConfig c = config(w, h, keep);
        VqLadder *l = nullptr;
        ASSERT_EQ(vq_ladder_open(&l, &c, 2, nullptr, nullptr, err, sizeof(err)), VQ_OK) << err;
        EXPECT_EQ(takes_reference(l, 0), 0);
        ASSERT_GE(ref_only_instances(l, 1), 1);
        EXPECT_EQ(takes_reference(l, 1), ref_only_instances(l, 1));
        for (int i = 0; i < n; i++) {
            const VqPicture *dis[2] = { &d1[(size_t)i].pic, &d2[(size_t)i].pic };
            ASSERT_EQ(vq_ladder_submit(l, &refs[(size_t)i].pic, dis, NAN, 0), VQ_OK) << vq_ladder_error(l);
        }
        const auto got = ladder_results(l);
        EXPECT_EQ(got[0], a1) << "keep_frames " << keep;
        EXPECT_EQ(got[1], a2) << "keep_frames " << keep;
        vq_ladder_close(&l);
    }
    // the renditions share motion and differ in VMAF: a test that can fail
    const int mo = column(names, "integer_motion2"), vm = column(names, "vmaf");
    ASSERT_GE(mo, 0);
    ASSERT_GE(vm, 0);
    bool vmaf_differs = false;
    for (int i = 0; i < n; i++) {
        EXPECT_EQ(a1[(size_t)i][(size_t)mo], a2[(size_t)i][(size_t)mo]) << "frame " << i;
        vmaf_differs |= a1[(size_t)i][(size_t)vm] != a2[(size_t)i][(size_t)vm];
    }
    EXPECT_TRUE(vmaf_differs);
}

// vq_ladder_*: one object for the renditions; each rendition's results
// equal a session of its own on its pictures (a smaller one upscaled, one
// that ends early: its common frames), whatever order they are received in.
TEST(Ladder, RenditionsMatchSessionsOfTheirOwn)
{
    const int w = 64, h = 48, sw = 48, sh = 36, n = 24, ends = 15;
    char err[512];
    std::mt19937 rng(41);
    Yuv ref0(w, h, rng, nullptr, 0);
    std::vector<Yuv> refs, d[3];
    for (int i = 0; i < n; i++) {
        refs.emplace_back(w, h, rng, &ref0, 1 + i % 5);
        d[0].emplace_back(w, h, rng, &refs.back(), 3);
        Yuv small(sw, sh, rng, nullptr, 0);
        d[1].push_back(small);
        d[2].emplace_back(w, h, rng, &refs.back(), 6);
    }
    VqConfig c = config(w, h, 1);
    const int dw[3] = { w, sw, w }, dh[3] = { h, sh, h };
    VqLadder *l = nullptr;
    ASSERT_EQ(vq_ladder_open(&l, &c, 3, dw, dh, err, sizeof(err)), VQ_OK) << err;
    EXPECT_EQ(vq_ladder_renditions(l), 3);
    std::vector<std::vector<double>> got[3];
    auto take = [&] {
        VqFrameResult r;
        int k, ret;
        while ((ret = vq_ladder_receive(l, &k, &r)) == VQ_OK) {
            ASSERT_TRUE(k >= 0 && k < 3);
            EXPECT_EQ(r.index, (int64_t)got[k].size()) << "rendition " << k + 1;
            got[k].emplace_back(r.value, r.value + r.n);
        }
        ASSERT_TRUE(ret == VQ_EAGAIN || ret == VQ_EOF) << ret << " " << vq_ladder_error(l);
    };
    for (int i = 0; i < n; i++) {
        /* rebuilt per frame: the vectors' storage moved while they grew */
        for (auto *v : { &d[0][(size_t)i], &d[1][(size_t)i], &d[2][(size_t)i], &refs[(size_t)i] }) {
            v->pic.data[0] = v->p[0].data();
            v->pic.data[1] = v->p[1].data();
            v->pic.data[2] = v->p[2].data();
        }
        const VqPicture *dis[3] = { &d[0][(size_t)i].pic, &d[1][(size_t)i].pic,
                                    i < ends ? &d[2][(size_t)i].pic : nullptr };
        ASSERT_EQ(vq_ladder_submit(l, &refs[(size_t)i].pic, dis, NAN, 0), VQ_OK) << vq_ladder_error(l);
        EXPECT_EQ(vq_ladder_ended(l, 2), i >= ends ? 1 : 0);
        take();
    }
    EXPECT_EQ(vq_ladder_submitted(l, 0), n);
    EXPECT_EQ(vq_ladder_submitted(l, 1), n);
    EXPECT_EQ(vq_ladder_submitted(l, 2), ends);
    ASSERT_EQ(vq_ladder_flush(l), VQ_OK) << vq_ladder_error(l);
    take();
    VqFrameResult r;
    int k;
    EXPECT_EQ(vq_ladder_receive(l, &k, &r), VQ_EOF);
    for (int q = 0; q < 3; q++) {
        VqConfig cq = config(w, h, 1);
        cq.dis_width = dw[q];
        cq.dis_height = dh[q];
        VqSession *alone = nullptr;
        ASSERT_EQ(vq_session_open(&alone, &cq, err, sizeof(err)), VQ_OK) << err;
        for (int i = 0; i < (q == 2 ? ends : n); i++)
            ASSERT_EQ(vq_session_submit(alone, &refs[(size_t)i].pic, &d[q][(size_t)i].pic), VQ_OK)
                << vq_session_error(alone);
        EXPECT_EQ(got[q], all_results(alone)) << "rendition " << q + 1;
        vq_session_close(&alone);
    }
    vq_ladder_close(&l);
    EXPECT_EQ(l, nullptr);
}

TEST(Ladder, ErrorsNameTheRendition)
{
    const int w = 64, h = 48;
    char err[512];
    VqConfig c = config(w, h, 1);
    VqLadder *l = nullptr;
    EXPECT_EQ(vq_ladder_open(&l, &c, 0, nullptr, nullptr, err, sizeof(err)), VQ_EINVAL);
    EXPECT_EQ(vq_ladder_open(&l, &c, VQ_LADDER_MAX + 1, nullptr, nullptr, err, sizeof(err)), VQ_EINVAL);
    const int dw[2] = { w, w + 2 }, dh[2] = { h, h };   // rendition 2 larger than the reference
    EXPECT_EQ(vq_ladder_open(&l, &c, 2, dw, dh, err, sizeof(err)), VQ_EINVAL);
    EXPECT_EQ(std::strncmp(err, "rendition 2: ", 13), 0) << err;
    EXPECT_EQ(l, nullptr);
    ASSERT_EQ(vq_ladder_open(&l, &c, 2, nullptr, nullptr, err, sizeof(err)), VQ_OK) << err;
    std::mt19937 rng(5);
    Yuv a(w, h, rng, nullptr, 0), b(w, h, rng, &a, 3);
    const VqPicture *no_first[2] = { nullptr, &b.pic };
    EXPECT_EQ(vq_ladder_submit(l, &a.pic, no_first, NAN, 0), VQ_EINVAL);
    EXPECT_NE(std::strstr(vq_ladder_error(l), "rendition 1 drives the ladder"), nullptr) << vq_ladder_error(l);
    EXPECT_EQ(vq_ladder_end(l, 0), VQ_EINVAL);
    EXPECT_EQ(vq_ladder_session(l, 2), nullptr);
    VqPicture bad = b.pic;
    bad.data[0] = nullptr;
    const VqPicture *dis[2] = { &b.pic, &bad };
    EXPECT_LT(vq_ladder_submit(l, &a.pic, dis, NAN, 0), 0);
    EXPECT_EQ(std::strncmp(vq_ladder_error(l), "rendition 2: ", 13), 0) << vq_ladder_error(l);
    vq_ladder_close(&l);
}

TEST(Ladder, LogsPerRendition)
{
    const int w = 64, h = 48;
    char err[512], p[64];
    EXPECT_EQ(vq_ladder_path("out_%d.json", 2, p, sizeof(p)), VQ_OK);
    EXPECT_STREQ(p, "out_3.json");
    EXPECT_EQ(vq_ladder_path("plain.xml", 0, p, sizeof(p)), VQ_OK);
    EXPECT_STREQ(p, "plain.xml");
    EXPECT_EQ(vq_ladder_path("a_much_longer_path_than_fits_%d", 0, p, 8), VQ_EINVAL);
    char dir[] = "/tmp/vq_ladder_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    VqConfig c = config(w, h, 1);
    VqLadder *l = nullptr;
    ASSERT_EQ(vq_ladder_open(&l, &c, 2, nullptr, nullptr, err, sizeof(err)), VQ_OK) << err;
    std::mt19937 rng(8);
    Yuv a(w, h, rng, nullptr, 0), b(w, h, rng, &a, 3), e(w, h, rng, &a, 9);
    const VqPicture *dis[2] = { &b.pic, &e.pic };
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(vq_ladder_submit(l, &a.pic, dis, NAN, 0), VQ_OK) << vq_ladder_error(l);
    ASSERT_EQ(vq_ladder_flush(l), VQ_OK);
    VqFrameResult r;
    int k, got = 0;
    while (vq_ladder_receive(l, &k, &r) == VQ_OK)
        got++;
    EXPECT_EQ(got, 6);
    const std::string tmpl = std::string(dir) + "/log_%d.json";
    ASSERT_EQ(vq_ladder_write_logs(l, tmpl.c_str(), VQ_LOG_JSON, nullptr), VQ_OK) << vq_ladder_error(l);
    for (int k = 0; k < 2; k++) {
        const std::string f = std::string(dir) + "/log_" + std::to_string(k + 1) + ".json";
        FILE *fp = fopen(f.c_str(), "rb");
        ASSERT_NE(fp, nullptr) << f;
        std::string text(1 << 16, '\0');
        text.resize(fread(&text[0], 1, text.size(), fp));
        fclose(fp);
        EXPECT_NE(text.find("\"frameNum\": 2"), std::string::npos) << f;
        remove(f.c_str());
    }
    // a directory that is not there: each rendition's failure named, the first error returned
    const std::string bad = std::string(dir) + "/none/log_%d.json";
    EXPECT_EQ(vq_ladder_write_logs(l, bad.c_str(), VQ_LOG_JSON, nullptr), VQ_EIO);
    EXPECT_NE(std::strstr(vq_ladder_error(l), "rendition 1: "), nullptr) << vq_ladder_error(l);
    EXPECT_NE(std::strstr(vq_ladder_error(l), "rendition 2: "), nullptr) << vq_ladder_error(l);
    vq_ladder_close(&l);
    rmdir(dir);
}

// The renditions of a ladder are one title's: none of them changes size
// alone (vq_session_new_section on one is refused).
TEST(Ladder, RenditionsCannotChangeSize)
{
    const int w = 64, h = 48;
    char err[256];
    std::mt19937 rng(3);
    Yuv a(w, h, rng, nullptr, 0), b(w, h, rng, &a, 3);
    VqConfig c = config(w, h, 1);
    VqLadder *l = nullptr;
    ASSERT_EQ(vq_ladder_open(&l, &c, 2, nullptr, nullptr, err, sizeof(err)), VQ_OK) << err;
    const VqPicture *dis[2] = { &b.pic, &b.pic };
    ASSERT_EQ(vq_ladder_submit(l, &a.pic, dis, NAN, 0), VQ_OK) << vq_ladder_error(l);
    VqFormat f = c.format;
    f.width = 66;
    for (int k = 0; k < 2; k++) {
        VqSession *s = vq_ladder_session(l, k);
        EXPECT_EQ(vq_session_new_section(s, &f), VQ_EINVAL);
        EXPECT_NE(std::strstr(vq_session_error(s), "cannot change size"), nullptr) << vq_session_error(s);
    }
    vq_ladder_close(&l);
    // a ladder of one is a plain pair: it may
    ASSERT_EQ(vq_ladder_open(&l, &c, 1, nullptr, nullptr, err, sizeof(err)), VQ_OK) << err;
    ASSERT_EQ(vq_ladder_submit(l, &a.pic, dis, NAN, 0), VQ_OK) << vq_ladder_error(l);
    EXPECT_EQ(vq_session_new_section(vq_ladder_session(l, 0), &f), VQ_OK);
    vq_ladder_close(&l);
}

namespace {

const char *const kWindow = "name=motion:motion_five_frame_window=true:motion_moving_average=true:motion_max_val=18";

/* n reference frames with motion that varies from frame to frame, and a distorted one each */
struct Title {
    std::vector<Yuv> ref, dis;
    Title(int w, int h, int n, unsigned seed)
    {
        std::mt19937 rng(seed);
        Yuv base(w, h, rng, nullptr, 0);
        ref.reserve((size_t)n);
        dis.reserve((size_t)n);
        for (int i = 0; i < n; i++) {
            ref.emplace_back(w, h, rng, &base, 1 + (int)(rng() % 9));
            dis.emplace_back(w, h, rng, &ref.back(), 3);
        }
    }
};

/* every result of a session of config c with feature= features over t's
 * first n pairs (empty when it would not open) */
std::vector<std::vector<double>> run_features(const VqConfig &c, const std::string &features, const Title &t,
                                              int n)
{
    char err[256];
    VqConfig cf = c;
    cf.feature = features.c_str();
    VqSession *s = nullptr;
    EXPECT_EQ(vq_session_open(&s, &cf, err, sizeof(err)), VQ_OK) << err;
    for (int i = 0; s && i < n; i++)
        EXPECT_EQ(vq_session_submit(s, &t.ref[(size_t)i].pic, &t.dis[(size_t)i].pic), VQ_OK);
    std::vector<std::vector<double>> v = s ? all_results(s) : std::vector<std::vector<double>>{};
    vq_session_close(&s);
    return v;
}

}  // namespace

// A ladder with the five-frame window (and the default model's motion
// against frame n-1 beside it, which shares the window's row work: one
// module instance): the later rendition folds rendition 1's SADs for both
// and equals a session of its own.
TEST(Ladder, WithTheFiveFrameWindow)
{
    const int w = 64, h = 48, n = 20;
    char err[256];
    Title t(w, h, n, 41);
    VqConfig c = config(w, h, 1);
    c.feature = kWindow;
    VqSession *alone = nullptr;
    ASSERT_EQ(vq_session_open(&alone, &c, err, sizeof(err)), VQ_OK) << err;
    VqLadder *l = nullptr;
    ASSERT_EQ(vq_ladder_open(&l, &c, 2, nullptr, nullptr, err, sizeof(err)), VQ_OK) << err;
    EXPECT_EQ(ref_only_instances(l, 1), 1);
    EXPECT_EQ(takes_reference(l, 1), 1);
    for (int i = 0; i < n; i++) {
        Yuv &d = t.dis[(size_t)((i + 3) % n)];   /* rendition 2: other distorted frames */
        const VqPicture *dis[2] = { &t.dis[(size_t)i].pic, &d.pic };
        ASSERT_EQ(vq_ladder_submit(l, &t.ref[(size_t)i].pic, dis, NAN, 0), VQ_OK) << vq_ladder_error(l);
        ASSERT_EQ(vq_session_submit(alone, &t.ref[(size_t)i].pic, &d.pic), VQ_OK);
    }
    std::vector<std::string> names;
    const auto a = all_results(alone, &names);
    const auto got = ladder_results(l);
    ASSERT_EQ(a.size(), (size_t)n);
    EXPECT_EQ(got[1], a);
    const int m3 = column(names, "integer_motion3_mffw_mmxv_18_mma");
    ASSERT_GE(m3, 0);
    EXPECT_NE(a[5][(size_t)m3], 0.0);
    vq_ladder_close(&l);
    vq_session_close(&alone);
}

// Pieces (score_frames=A-B) of a title with the window: a piece given frames
// from A-4 (or 0) to B (frame 2 at least) scores A..B-1 exactly as one run
// over the title, whatever the motion options (context 1 to 4); one frame
// less of context is refused.
TEST(Session, PiecesWithTheFiveFrameWindow)
{
    const int w = 48, h = 40, n = 23;
    char err[256];
    Title t(w, h, n, 77);
    const char *features[] = { kWindow, "name=motion:motion_five_frame_window=true",
                               "name=motion:motion_moving_average=true", nullptr };
    const int context[] = { 4, 3, 2, 1 };
    for (int fi = 0; fi < 4; fi++) {
        VqConfig c = config(w, h, 1);
        c.feature = features[fi];
        VqSession *whole = nullptr;
        ASSERT_EQ(vq_session_open(&whole, &c, err, sizeof(err)), VQ_OK) << err;
        for (int i = 0; i < n; i++)
            ASSERT_EQ(vq_session_submit(whole, &t.ref[(size_t)i].pic, &t.dis[(size_t)i].pic), VQ_OK);
        const auto want = all_results(whole);
        vq_session_close(&whole);
        ASSERT_EQ(want.size(), (size_t)n);
        const std::vector<std::pair<int, int>> cuts = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 0, 3 }, { 3, 4 },
                                                        { 4, 9 }, { 5, 6 }, { 9, 17 }, { 17, n }, { n - 1, n } };
        for (const auto &ab : cuts) {
            const int a = ab.first, b = ab.second;
            const int first = std::max(0, a - 4), last = std::min(n - 1, std::max(b, 2));
            VqConfig cp = c;
            cp.first_frame = first;
            cp.score_begin = a;
            cp.score_end = b;
            VqSession *p = nullptr;
            ASSERT_EQ(vq_session_open(&p, &cp, err, sizeof(err)), VQ_OK) << err;
            for (int i = first; i <= last; i++)
                ASSERT_EQ(vq_session_submit(p, &t.ref[(size_t)i].pic, &t.dis[(size_t)i].pic), VQ_OK)
                    << vq_session_error(p);
            ASSERT_EQ(vq_session_flush(p), VQ_OK);
            VqFrameResult r;
            int scored = 0;
            while (vq_session_receive(p, &r) == VQ_OK) {
                if (!r.n)
                    continue;
                ASSERT_GE(r.index, a);
                ASSERT_LT(r.index, b);
                const std::vector<double> got(r.value, r.value + r.n);
                EXPECT_EQ(got, want[(size_t)r.index]) << features[fi] << " piece " << a << "-" << b << " frame "
                                                      << r.index;
                scored++;
            }
            EXPECT_EQ(scored, b - a);
            vq_session_close(&p);
            // one frame less of context: refused, when the piece does not start the title
            if (a - context[fi] + 1 > 0) {
                cp.first_frame = a - context[fi] + 1;
                EXPECT_EQ(vq_session_open(&p, &cp, err, sizeof(err)), VQ_EINVAL) << features[fi] << " " << a;
                EXPECT_NE(std::strstr(err, "which the piece does not give"), nullptr) << err;
                cp.first_frame = a - context[fi];
                ASSERT_EQ(vq_session_open(&p, &cp, err, sizeof(err)), VQ_OK) << err;
                vq_session_close(&p);
            }
        }
    }
}

// float_motion and float_vif in pieces of a title (one frame of context: the
// score of frame A reads frames A-1 and A; motion2 of A the score of A+1)
// and in a ladder's member (which computes its own float_motion): the same
// values as one session over the whole title.
TEST(Session, FloatMotionInPiecesAndLadders)
{
    const int w = 48, h = 40, n = 15;
    char err[256];
    Title t(w, h, n, 31);
    VqConfig c = config(w, h, 1);
    c.model = "none";
    c.enable_psnr = 0;
    c.feature = "name=float_motion:motion_add_uv=true|name=float_vif|name=float_motion:motion_blend_factor=0.5";
    VqSession *whole = nullptr;
    ASSERT_EQ(vq_session_open(&whole, &c, err, sizeof(err)), VQ_OK) << err;
    for (int i = 0; i < n; i++)
        ASSERT_EQ(vq_session_submit(whole, &t.ref[(size_t)i].pic, &t.dis[(size_t)i].pic), VQ_OK);
    std::vector<std::string> names;
    const auto want = all_results(whole, &names);
    vq_session_close(&whole);
    ASSERT_EQ(want.size(), (size_t)n);
    ASSERT_GE(column(names, "motion3_mau"), 0);
    ASSERT_GE(column(names, "vif_scale0"), 0);
    for (const auto &ab : std::vector<std::pair<int, int>>{ { 0, 1 }, { 1, 2 }, { 0, 3 }, { 3, 8 }, { 7, n }, { n - 1, n } }) {
        const int a = ab.first, b = ab.second;
        VqConfig cp = c;
        cp.first_frame = std::max(0, a - 1);
        cp.score_begin = a;
        cp.score_end = b;
        VqSession *p = nullptr;
        ASSERT_EQ(vq_session_open(&p, &cp, err, sizeof(err)), VQ_OK) << err;
        for (int i = (int)cp.first_frame; i <= std::min(n - 1, b); i++)
            ASSERT_EQ(vq_session_submit(p, &t.ref[(size_t)i].pic, &t.dis[(size_t)i].pic), VQ_OK)
                << vq_session_error(p);
        ASSERT_EQ(vq_session_flush(p), VQ_OK);
        VqFrameResult r;
        int scored = 0;
        while (vq_session_receive(p, &r) == VQ_OK) {
            if (!r.n)
                continue;
            EXPECT_EQ(std::vector<double>(r.value, r.value + r.n), want[(size_t)r.index])
                << "piece " << a << "-" << b << " frame " << r.index;
            scored++;
        }
        EXPECT_EQ(scored, b - a);
        vq_session_close(&p);
    }
    // a ladder: float_motion is each rendition's own (not ref_only), from the same reference frames
    VqLadder *l = nullptr;
    ASSERT_EQ(vq_ladder_open(&l, &c, 2, nullptr, nullptr, err, sizeof(err)), VQ_OK) << err;
    EXPECT_EQ(takes_reference(l, 1), 0);
    for (int i = 0; i < n; i++) {
        const VqPicture *dis[2] = { &t.ref[(size_t)i].pic, &t.dis[(size_t)i].pic };
        ASSERT_EQ(vq_ladder_submit(l, &t.ref[(size_t)i].pic, dis, NAN, 0), VQ_OK) << vq_ladder_error(l);
    }
    EXPECT_EQ(ladder_results(l)[1], want);
    vq_ladder_close(&l);
}

// Folds on fold workers (VQ_FOLD_THREADS; hostmath/session.cpp deferred()):
// the same values, in frame order, as every fold on the caller's thread,
// with results taken as they come, a log written mid-stream (every posted
// fold settled first) and segments closed by frames whose folds ran late.
// A second cambi instance writes heatmaps: it has state, so it folds on the
// caller's thread in frame order while the first cambi defers; its files
// are the same either way.
TEST(Session, FoldWorkersGiveTheCallersFolds)
{
    const int w = 224, h = 176, n = 40;     // float_ms_ssim: 176x176, cambi: 216 wide
    const std::string feats_base = "name=float_ssim|name=float_ms_ssim|name=psnr_hvs|name=cambi|name=float_psnr|"
                                   "name=float_moment|name=float_ansnr|name=speed_temporal|name=float_vif|name=ciede|"
                                   "name=cambi:window_size=33:heatmaps_path=";
    std::string heat_dir[2];
    std::vector<std::vector<double>> got[2];
    std::vector<std::string> names[2];
    std::vector<double> seg_pooled[2];
    for (int run = 0; run < 2; run++) {
        setenv("VQ_FOLD_THREADS", run ? "3" : "0", 1);
        char t[] = "/tmp/vq_session_heat_XXXXXX";
        ASSERT_NE(mkdtemp(t), nullptr);
        heat_dir[run] = t;
        const std::string feats = feats_base + heat_dir[run];
        VqConfig c = config(w, h, run);     // the inline run without kept frames
        c.feature = feats.c_str();
        c.segment_frames = 7;
        c.threads = 2;
        char err[256];
        VqSession *s = nullptr;
        ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
        std::mt19937 rng(99);
        Yuv ref0(w, h, rng, nullptr, 0);
        auto drain = [&] {
            VqFrameResult r;
            int ret;
            while ((ret = vq_session_receive(s, &r)) == VQ_OK) {
                ASSERT_EQ(r.index, (int64_t)got[run].size()) << "results out of order";
                if (names[run].empty())
                    for (int k = 0; k < r.n; k++)
                        names[run].push_back(r.name[k]);
                got[run].emplace_back(r.value, r.value + r.n);
                if (r.segment_end)
                    seg_pooled[run].insert(seg_pooled[run].end(), r.segment_pooled, r.segment_pooled + r.n);
            }
            ASSERT_TRUE(ret == VQ_EAGAIN || ret == VQ_EOF) << vq_session_error(s);
        };
        for (int i = 0; i < n; i++) {
            Yuv ref(w, h, rng, &ref0, 2 + i % 5);
            Yuv dis(w, h, rng, &ref, 1 + i % 7);
            ASSERT_EQ(vq_session_submit(s, &ref.pic, &dis.pic), VQ_OK) << vq_session_error(s);
            if (i % 3 == 0)
                drain();
            if (i == n / 2 && run) {
                ASSERT_EQ(vq_session_write_log(s, "/dev/null", VQ_LOG_JSON), VQ_OK) << vq_session_error(s);
            }
        }
        ASSERT_EQ(vq_session_flush(s), VQ_OK) << vq_session_error(s);
        drain();
        vq_session_close(&s);
    }
    unsetenv("VQ_FOLD_THREADS");
    // the heatmaps: the same files, byte for byte (frames in order)
    const char *heat = "cambi_heatmap_scale_0_224x176_16b.gray";
    std::string bytes[2];
    for (int run = 0; run < 2; run++) {
        const std::string path = heat_dir[run] + "/" + heat;
        FILE *f = fopen(path.c_str(), "rb");
        ASSERT_NE(f, nullptr) << path;
        char buf[65536];
        size_t k;
        while ((k = fread(buf, 1, sizeof(buf), f)) > 0)
            bytes[run].append(buf, k);
        fclose(f);
        for (int s = 0; s < 5; s++) {
            const int sw = (w + (1 << s) - 1) >> s, sh = (h + (1 << s) - 1) >> s;
            unlink((heat_dir[run] + "/cambi_heatmap_scale_" + std::to_string(s) + "_" + std::to_string(sw) + "x" +
                    std::to_string(sh) + "_16b.gray").c_str());
        }
        rmdir(heat_dir[run].c_str());
    }
    EXPECT_EQ(bytes[0].size(), (size_t)w * h * 2 * n);
    EXPECT_TRUE(bytes[0] == bytes[1]) << "the heatmaps differ";
    ASSERT_EQ(names[0], names[1]);
    ASSERT_EQ(got[0].size(), (size_t)n);
    ASSERT_EQ(got[1].size(), (size_t)n);
    for (int i = 0; i < n; i++)
        for (size_t k = 0; k < names[0].size(); k++)
            ASSERT_EQ(got[0][(size_t)i][k], got[1][(size_t)i][k]) << "frame " << i << " " << names[0][k];
    EXPECT_EQ(seg_pooled[0], seg_pooled[1]);
    EXPECT_FALSE(seg_pooled[0].empty());
    // the deferred features are there and not all zero (a fold that ran;
    // cambi finds no banding in this noise: 0 either way)
    for (const char *name : { "float_ssim", "psnr_hvs", "float_moment_ref1st", "speed_temporal" }) {
        auto it = std::find(names[0].begin(), names[0].end(), std::string(name));
        ASSERT_NE(it, names[0].end()) << name;
        const size_t k = (size_t)(it - names[0].begin());
        bool nonzero = false;
        for (int i = 1; i < n; i++)
            nonzero = nonzero || got[0][(size_t)i][k] != 0.0;
        EXPECT_TRUE(nonzero) << name;
    }
}

// A module's instances whose options act in the fold alone (float_vif's
// min_val, hostmath/module.hpp's share) share one section: the plan
// runs the row work once, and each instance's values equal those of a
// session of its own; an option of the row work (kernelscale) gets its own.
TEST(Session, ModuleInstancesShareTheirRowWork)
{
    const int w = 64, h = 48, n = 4;
    Title t(w, h, n, 57);
    const char *const feats[] = { "name=float_vif:debug=true",
                                  "name=float_vif:vif_scale1_min_val=0.9:vif_scale3_min_val=1.0",
                                  "name=float_vif:vif_kernelscale=0.5" };
    VqConfig c = config(w, h, 1);
    c.model = "none";
    c.enable_psnr = 0;
    vq::FeaturePlan plan(c.format, "none", std::string(feats[0]) + "|" + feats[1] + "|" + feats[2], false);
    ASSERT_EQ(plan.exec().n_modules, 2);
    ASSERT_EQ(plan.instances().size(), 3u);
    EXPECT_EQ(plan.instances()[0].exec_index, 0);
    EXPECT_EQ(plan.instances()[1].exec_index, 0);
    EXPECT_EQ(plan.instances()[2].exec_index, 1);
    EXPECT_NE(plan.instances()[0].fold_host, plan.instances()[1].fold_host);

    auto run = [&](const std::string &feature) { return run_features(c, feature, t, n); };
    const auto all = run(std::string(feats[0]) + "|" + feats[1] + "|" + feats[2]);
    std::vector<std::vector<double>> parts[3];
    for (int k = 0; k < 3; k++)
        parts[k] = run(feats[k]);
    ASSERT_EQ(all.size(), (size_t)n);
    int clipped = 0;
    for (int i = 0; i < n; i++) {
        std::vector<double> joined;
        for (int k = 0; k < 3; k++) {
            ASSERT_EQ(parts[k].size(), (size_t)n);
            joined.insert(joined.end(), parts[k][(size_t)i].begin(), parts[k][(size_t)i].end());
        }
        EXPECT_EQ(all[(size_t)i], joined) << "frame " << i;
        // min_val acts in the fold: the second instance's scales 1 and 3 are
        // the first's, clipped from below
        EXPECT_EQ(parts[1][(size_t)i][1], std::max(parts[0][(size_t)i][1], 0.9));
        EXPECT_EQ(parts[1][(size_t)i][3], std::max(parts[0][(size_t)i][3], 1.0));
        clipped += parts[1][(size_t)i][3] != parts[0][(size_t)i][3];
    }
    EXPECT_GT(clipped, 0);
}

// float_ssim and float_ms_ssim: two modules on one row work (share widens
// the first instance's, float_ms_ssim's, to both features and float_ssim's
// decimation).  Each instance's values equal a session of its own.
TEST(Session, SsimModulesShareOneRowWork)
{
    const int w = 192, h = 176, n = 3;
    Title t(w, h, n, 61);
    const char *const feats[] = { "name=float_ms_ssim:enable_lcs=true", "name=float_ssim:scale=2:enable_db=true" };
    VqConfig c = config(w, h, 1);
    c.model = "none";
    c.enable_psnr = 0;
    const std::string joint = std::string(feats[0]) + "|" + feats[1];
    vq::FeaturePlan plan(c.format, "none", joint, false);
    ASSERT_EQ(plan.exec().n_modules, 1);
    ASSERT_EQ(plan.instances().size(), 2u);
    EXPECT_EQ(plan.instances()[0].exec_index, 0);
    EXPECT_EQ(plan.instances()[1].exec_index, 0);
    EXPECT_EQ(plan.exec().module[0].g.opt[0], VQ_SSIM_F_SSIM | VQ_SSIM_F_MS_SSIM);
    EXPECT_EQ(plan.exec().module[0].g.opt[1], 2);

    auto run = [&](const std::string &feature) { return run_features(c, feature, t, n); };
    const auto all = run(joint);
    const auto ms = run(feats[0]), ss = run(feats[1]);
    ASSERT_EQ(all.size(), (size_t)n);
    ASSERT_EQ(ms.size(), (size_t)n);
    ASSERT_EQ(ss.size(), (size_t)n);
    for (int i = 0; i < n; i++) {
        std::vector<double> joined = ms[(size_t)i];
        joined.insert(joined.end(), ss[(size_t)i].begin(), ss[(size_t)i].end());
        EXPECT_EQ(all[(size_t)i], joined) << "frame " << i;
        EXPECT_EQ(ms[(size_t)i].size(), 16u);   // the score and 15 lcs means
        EXPECT_EQ(ss[(size_t)i].size(), 1u);
    }
}

/* vq_log_same_file: one file however named (./, a symbolic link, an existing
 * file or one still to be made), two files apart */
TEST(Logs, SameFileHoweverNamed)
{
    char t[] = "/tmp/vq_same_XXXXXX";
    ASSERT_NE(mkdtemp(t), nullptr);
    const std::string d = t;
    EXPECT_EQ(vq_log_same_file((d + "/a.json").c_str(), (d + "/./a.json").c_str()), 1);   /* not there yet */
    EXPECT_EQ(vq_log_same_file((d + "/a.json").c_str(), (d + "/b.json").c_str()), 0);
    FILE *f = std::fopen((d + "/a.json").c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
    ASSERT_EQ(symlink((d + "/a.json").c_str(), (d + "/link.json").c_str()), 0);
    EXPECT_EQ(vq_log_same_file((d + "/link.json").c_str(), (d + "/a.json").c_str()), 1);
    EXPECT_EQ(vq_log_same_file((d + "/link.json").c_str(), (d + "/b.json").c_str()), 0);
    EXPECT_EQ(vq_log_same_file((d + "/x/a.json").c_str(), (d + "/y/a.json").c_str()), 0);   /* no directories */
    EXPECT_EQ(vq_log_same_file(nullptr, (d + "/a.json").c_str()), 0);
    EXPECT_EQ(vq_log_same_file("/dev/null", "/dev/null"), 0);   /* nothing there to replace */
    std::system(("rm -rf '" + d + "'").c_str());
}

/* vq_output_claim: a file is one live output's, whoever names it; released
 * with its owner; /dev/null is nobody's */
TEST(Logs, OutputClaimsOneFileOneOutput)
{
    char t[] = "/tmp/vq_claim_XXXXXX";
    ASSERT_NE(mkdtemp(t), nullptr);
    const std::string d = t, a = d + "/a.json", a2 = d + "/./a.json", b = d + "/b.json";
    int one, two;   /* two owners: any distinct addresses */
    char err[512] = "";
    EXPECT_EQ(vq_output_claim(&one, "tester", "log_path", a.c_str(), err, sizeof(err)), VQ_OK);
    EXPECT_EQ(vq_output_claim(&one, "tester", "segment_path", b.c_str(), err, sizeof(err)), VQ_OK);
    /* one owner, two outputs, one file */
    EXPECT_EQ(vq_output_claim(&one, "tester", "stream_path", a2.c_str(), err, sizeof(err)), VQ_EINVAL);
    EXPECT_NE(std::strstr(err, "log_path"), nullptr) << err;
    EXPECT_NE(std::strstr(err, "stream_path"), nullptr) << err;
    EXPECT_NE(std::strstr(err, "name one file"), nullptr) << err;
    /* another owner */
    EXPECT_EQ(vq_output_claim(&two, "tester", "log_path", a2.c_str(), err, sizeof(err)), VQ_EINVAL);
    EXPECT_NE(std::strstr(err, "another tester of this process"), nullptr) << err;
    EXPECT_EQ(vq_output_claim(&two, "tester", "log_path", "/dev/null", err, sizeof(err)), VQ_OK);
    EXPECT_EQ(vq_output_claim(&two, "tester", "segment_path", "/dev/null", err, sizeof(err)), VQ_OK);
    /* released with its owner: the file is free again, the other's stay */
    vq_output_release(&one);
    EXPECT_EQ(vq_output_claim(&two, "tester", "log_path", a.c_str(), err, sizeof(err)), VQ_OK);
    EXPECT_EQ(vq_output_claim(&one, "tester", "log_path", a2.c_str(), err, sizeof(err)), VQ_EINVAL);
    vq_output_release(&two);
    EXPECT_EQ(vq_output_claim(&one, "tester", "log_path", a2.c_str(), err, sizeof(err)), VQ_OK);
    vq_output_release(&one);
    EXPECT_EQ(vq_output_claim(nullptr, "tester", "log_path", a.c_str(), err, sizeof(err)), VQ_EINVAL);
    std::system(("rm -rf '" + d + "'").c_str());
}

/* vq_ladder_claim_outputs: a run's files by their rules, each log proven
 * writable, all claimed (none after a failure); vq_ladder_remove_logs: what
 * an earlier run left at the logs' and segments files' paths */
TEST(Logs, LadderClaimsItsOutputs)
{
    char t[] = "/tmp/vq_outs_XXXXXX";
    ASSERT_NE(mkdtemp(t), nullptr);
    const std::string d = t, logs = d + "/r%d.json", segs = d + "/s%d.csv", live = d + "/live.jsonl";
    int one, two;
    char err[512] = "", list[1024] = "";
    auto refused = [&](int ret, const char *want) {
        EXPECT_EQ(ret, VQ_EINVAL) << want;
        EXPECT_NE(std::strstr(err, want), nullptr) << err;
        /* nothing stays claimed: the files are free for another owner */
        EXPECT_EQ(vq_ladder_claim_outputs(&two, "tester", 3, logs.c_str(), segs.c_str(), live.c_str(), err,
                                          sizeof(err)), VQ_OK) << err;
        vq_output_release(&two);
    };
    refused(vq_ladder_claim_outputs(&one, "tester", 1, nullptr, segs.c_str(), nullptr, err, sizeof(err)),
            "segment_path needs log_path");
    refused(vq_ladder_claim_outputs(&one, "tester", 3, (d + "/r.json").c_str(), nullptr, nullptr, err, sizeof(err)),
            "3 renditions: log_path needs a %d");
    refused(vq_ladder_claim_outputs(&one, "tester", 2, logs.c_str(), (d + "/s.csv").c_str(), nullptr, err,
                                    sizeof(err)), "segment_path needs a %d");
    refused(vq_ladder_claim_outputs(&one, "tester", 2, logs.c_str(), (d + "/" + std::string(4100, 's') + "%d").c_str(),
                                    nullptr, err, sizeof(err)), "segment_path is too long");
    /* a rendition's log and its segments: one file; its log, claimed before
     * that was found, is free again */
    refused(vq_ladder_claim_outputs(&one, "tester", 2, (d + "/x%d.csv").c_str(), (d + "/x%d.csv").c_str(), nullptr,
                                    err, sizeof(err)), "name one file");
    EXPECT_EQ(vq_output_claim(&two, "tester", "log_path", (d + "/x1.csv").c_str(), err, sizeof(err)), VQ_OK);
    vq_output_release(&two);
    refused(vq_ladder_claim_outputs(&one, "tester", 1, (d + "/a.json").c_str(), nullptr, (d + "/./a.json").c_str(), err,
                                    sizeof(err)), "name one file");
    EXPECT_EQ(vq_ladder_claim_outputs(&one, "tester", 1, (d + "/no/such/dir/a.json").c_str(), nullptr, nullptr, err,
                                      sizeof(err)), VQ_EIO);
    /* claimed: another owner is refused each file, the live output included */
    ASSERT_EQ(vq_ladder_claim_outputs(&one, "tester", 3, logs.c_str(), segs.c_str(), live.c_str(), err,
                                      sizeof(err)), VQ_OK) << err;
    EXPECT_EQ(vq_output_claim(&two, "tester", "log_path", (d + "/r3.json").c_str(), err, sizeof(err)), VQ_EINVAL);
    EXPECT_EQ(vq_output_claim(&two, "tester", "log_path", (d + "/s1.csv").c_str(), err, sizeof(err)), VQ_EINVAL);
    EXPECT_EQ(vq_output_claim(&two, "tester", "log_path", live.c_str(), err, sizeof(err)), VQ_EINVAL);
    EXPECT_EQ(vq_output_claim(&two, "tester", "log_path", (d + "/r4.json").c_str(), err, sizeof(err)), VQ_OK);
    vq_output_release(&one);
    vq_output_release(&two);
    /* an earlier run's files: the logs and segments removed, the live output kept */
    for (const char *f : {"/r1.json", "/r3.json", "/s2.csv", "/live.jsonl"}) {
        FILE *fp = std::fopen((d + f).c_str(), "w");
        ASSERT_NE(fp, nullptr);
        std::fclose(fp);
    }
    EXPECT_EQ(vq_ladder_remove_logs(3, logs.c_str(), segs.c_str(), list, sizeof(list)), 3);
    EXPECT_EQ(std::string(list), d + "/r1.json, " + d + "/r3.json, " + d + "/s2.csv");
    EXPECT_EQ(access((d + "/live.jsonl").c_str(), F_OK), 0);
    EXPECT_EQ(vq_ladder_remove_logs(3, logs.c_str(), segs.c_str(), list, sizeof(list)), 0);
    EXPECT_STREQ(list, "");
    std::system(("rm -rf '" + d + "'").c_str());
}

// The frames' values kept for the log (keep_frames) go to an unnamed
// temporary file beyond VQ_FRAMES_SPILL bytes and are read back in order;
// where no such file can be made they stay in memory.
TEST(FrameLog, SpillsToDiskAndReadsBack)
{
    std::mt19937_64 rng(5);
    std::vector<double> want;
    std::vector<int64_t> nums;
    for (int i = 0; i < 1000; i++) {
        nums.push_back(3 * i + 7);
        for (int k = 0; k < 3; k++)
            want.push_back((double)(rng() % 1000003) / 977.0);
    }
    const char *old = getenv("TMPDIR");
    const std::string saved = old ? old : "";
    for (int nodisk = 0; nodisk < 2; nodisk++) {
        if (nodisk)
            setenv("TMPDIR", "/nonexistent/vq-dir", 1);
        vq::FrameLog f(3, 100);
        for (int i = 0; i < 1000; i++)
            f.add(nums[(size_t)i], &want[(size_t)i * 3]);
        EXPECT_EQ(f.size(), 1000u);
        if (nodisk) {
            EXPECT_EQ(f.on_disk(), 0u);
            EXPECT_FALSE(f.disk_error().empty());
        } else {
            EXPECT_GE(f.on_disk(), 990u);
            EXPECT_TRUE(f.disk_error().empty()) << f.disk_error();
        }
        size_t i = 0;
        f.each([&](int64_t num, const double *v) {
            ASSERT_LT(i, 1000u);
            EXPECT_EQ(num, nums[i]);
            EXPECT_EQ(std::vector<double>(v, v + 3), std::vector<double>(&want[i * 3], &want[i * 3] + 3)) << i;
            i++;
        });
        EXPECT_EQ(i, 1000u);
    }
    if (old)
        setenv("TMPDIR", saved.c_str(), 1);
    else
        unsetenv("TMPDIR");
}

namespace {

/* a JSON or XML log without its fps (the run's speed): the rest of that line */
std::string without_fps(std::string s)
{
    size_t a = s.find("\"fps\":");
    if (a == std::string::npos)
        a = s.find("fps=\"");
    if (a != std::string::npos)
        s.erase(a, s.find('\n', a) - a);
    return s;
}

}  // namespace

// A session whose kept frames went to disk (VQ_FRAMES_SPILL=100: nearly
// every frame) writes the same logs, mid-stream and at the end, as one that
// kept them in memory; its memory holds a few frames only.
TEST(Session, KeptFramesOnDiskGiveTheSameLogs)
{
    const int w = 64, h = 48, n = 30;
    char err[256];
    Title t(w, h, n, 23);
    VqConfig c = config(w, h, 1);
    c.segment_frames = 7;
    VqSession *s[2] = { nullptr, nullptr };
    setenv("VQ_FRAMES_SPILL", "100", 1);
    ASSERT_EQ(vq_session_open(&s[0], &c, err, sizeof(err)), VQ_OK) << err;
    unsetenv("VQ_FRAMES_SPILL");
    ASSERT_EQ(vq_session_open(&s[1], &c, err, sizeof(err)), VQ_OK) << err;
    char dir[] = "/tmp/vq_kept_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    std::string logs[2][4];
    for (int k = 0; k < 2; k++) {
        VqFrameResult r;
        for (int i = 0; i < n; i++) {
            ASSERT_EQ(vq_session_submit(s[k], &t.ref[(size_t)i].pic, &t.dis[(size_t)i].pic), VQ_OK);
            while (vq_session_receive(s[k], &r) == VQ_OK) {
            }
            if (i == n / 2) {   /* mid-stream: as if the input ended here */
                const std::string p = std::string(dir) + "/mid.json", q = std::string(dir) + "/mid.csv";
                ASSERT_EQ(vq_session_write_log(s[k], p.c_str(), VQ_LOG_JSON), VQ_OK) << vq_session_error(s[k]);
                ASSERT_EQ(vq_session_write_log(s[k], q.c_str(), VQ_LOG_CSV), VQ_OK) << vq_session_error(s[k]);
                logs[k][0] = without_fps(slurp(p.c_str()));
                logs[k][1] = slurp(q.c_str());
            }
        }
        EXPECT_LE(s[k]->frames.size(), 4u);
        ASSERT_EQ(vq_session_flush(s[k]), VQ_OK);
        while (vq_session_receive(s[k], &r) == VQ_OK) {
        }
        const std::string p = std::string(dir) + "/end.json", q = std::string(dir) + "/end.xml";
        ASSERT_EQ(vq_session_write_log(s[k], p.c_str(), VQ_LOG_JSON), VQ_OK) << vq_session_error(s[k]);
        ASSERT_EQ(vq_session_write_log(s[k], q.c_str(), VQ_LOG_XML), VQ_OK) << vq_session_error(s[k]);
        logs[k][2] = without_fps(slurp(p.c_str()));
        logs[k][3] = without_fps(slurp(q.c_str()));
        remove(p.c_str());
        remove(q.c_str());
    }
    EXPECT_GE(s[0]->kept->on_disk(), (size_t)n - 1);
    EXPECT_EQ(s[1]->kept->on_disk(), 0u);
    EXPECT_EQ(s[0]->kept->size(), (size_t)n);
    for (int j = 0; j < 4; j++) {
        EXPECT_GT(logs[0][j].size(), 1000u) << j;
        EXPECT_EQ(logs[0][j], logs[1][j]) << j;
    }
    EXPECT_NE(logs[0][2].find("\"frameNum\": 29"), std::string::npos);
    EXPECT_NE(logs[0][0].find("\"frameNum\": 15"), std::string::npos);
    EXPECT_EQ(logs[0][0].find("\"frameNum\": 16"), std::string::npos);
    /* VQ_LOG_AUTO: the path's extension, in any case, says the format; else XML */
    const std::pair<const char *, VqLogFormat> autos[] = {
        { "/auto.JSON", VQ_LOG_JSON }, { "/auto.Csv", VQ_LOG_CSV }, { "/auto.txt", VQ_LOG_XML }, { "/auto", VQ_LOG_XML }
    };
    for (const auto &a : autos) {
        const std::string p = std::string(dir) + a.first, q = std::string(dir) + "/explicit";
        ASSERT_EQ(vq_session_write_log(s[1], p.c_str(), VQ_LOG_AUTO), VQ_OK) << vq_session_error(s[1]);
        ASSERT_EQ(vq_session_write_log(s[1], q.c_str(), a.second), VQ_OK) << vq_session_error(s[1]);
        const std::string got = without_fps(slurp(p.c_str()));
        EXPECT_GT(got.size(), 1000u) << a.first;
        EXPECT_EQ(got, without_fps(slurp(q.c_str()))) << a.first;
        remove(p.c_str());
        remove(q.c_str());
    }
    for (const char *f : { "/mid.json", "/mid.csv" })
        remove((std::string(dir) + f).c_str());
    rmdir(dir);
    vq_session_close(&s[0]);
    vq_session_close(&s[1]);
}
