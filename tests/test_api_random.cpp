// A randomized walk through the C API on the CPU executor (run under ASan +
// UBSan in CI's second configuration): random sizes 33..4096, every layout
// and bit depth, random model and feature sets, and misuse in random order.
// Every call returns a code (never a crash); what is returned is consistent:
// results in frame order, one per submitted frame, every scored frame with
// every column, pooled values for every column.  Seeded: VQ_API_SEED.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <random>
#include <string>
#include <vector>

#include "vqcuda.h"

namespace {

struct Pic {
    std::vector<uint8_t> plane[3];
    VqPicture pic;
};

/* a picture of the format, random samples within the bit depth; base: a
 * similar picture to add noise to */
void make_pic(const VqFormat &f, int w, int h, std::mt19937_64 &rng, Pic &p)
{
    const int bps = f.bytes_per_sample;
    const int cw = (w + (1 << f.chroma_shift_w) - 1) >> f.chroma_shift_w;
    const int ch = (h + (1 << f.chroma_shift_h) - 1) >> f.chroma_shift_h;
    const int np = f.layout == VQ_LAYOUT_GRAY ? 1 : f.layout == VQ_LAYOUT_SEMIPLANAR ? 2 : 3;
    const int shift = f.msb_aligned ? 16 - f.bitdepth : 0;
    memset(&p.pic, 0, sizeof(p.pic));
    for (int k = 0; k < np; k++) {
        const int pw = k == 0 ? w : f.layout == VQ_LAYOUT_SEMIPLANAR ? 2 * cw : cw;
        const int ph = k == 0 ? h : ch;
        const ptrdiff_t ls = (ptrdiff_t)pw * bps + 16 * (int)(rng() % 3);
        p.plane[k].assign((size_t)ls * ph, 0);
        for (int i = 0; i < ph; i++)
            for (int j = 0; j < pw; j++) {
                const uint32_t v = (uint32_t)((i * 7 + j * 3 + rng() % 17) & ((1u << f.bitdepth) - 1));
                if (bps == 1)
                    p.plane[k][(size_t)i * ls + j] = (uint8_t)v;
                else
                    ((uint16_t *)(p.plane[k].data() + (size_t)i * ls))[j] = (uint16_t)(v << shift);
            }
        p.pic.data[k] = p.plane[k].data();
        p.pic.linesize[k] = ls;
    }
}

VqFormat random_format(std::mt19937_64 &rng, bool small)
{
    VqFormat f;
    memset(&f, 0, sizeof(f));
    const int maxd = small ? 200 : 4096;
    f.width = 33 + (int)(rng() % (maxd - 32));
    f.height = 33 + (int)(rng() % (maxd - 32));
    if ((int64_t)f.width * f.height > 600000)    /* bounded work per frame */
        f.height = 33 + (int)(600000 / f.width) % 200;
    static const int depths[] = { 8, 10, 12, 16 };
    f.bitdepth = depths[rng() % 4];
    f.bytes_per_sample = f.bitdepth > 8 ? 2 : 1;
    f.layout = (VqLayout)(rng() % 3);
    if (f.layout == VQ_LAYOUT_SEMIPLANAR) {
        f.chroma_shift_w = 1;
        f.chroma_shift_h = (int)(rng() % 2);
        f.msb_aligned = f.bitdepth > 8 && f.bitdepth < 16;
    } else if (f.layout == VQ_LAYOUT_PLANAR) {
        f.chroma_shift_w = (int)(rng() % 2);
        f.chroma_shift_h = f.chroma_shift_w ? (int)(rng() % 2) : 0;
    }
    return f;
}

const char *const kModels[] = {
    nullptr, "version=vmaf_v0.6.1", "version=vmaf_v0.6.1neg", "version=vmaf_4k_v0.6.1",
    "version=vmaf_v0.6.1:name=a|version=vmaf_v0.6.1neg:name=b", "version=vmaf_b_v0.6.3",
    "version=vmaf_v0.6.1:motion.motion_force_zero=true", "version=vmaf_v0.6.1:enable_transform",
    "version=no_such_model", "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=0.5",
};
const char *const kFeatures[] = {
    nullptr, "name=psnr", "name=psnr_hvs", "name=float_ssim", "name=float_ms_ssim", "name=cambi",
    "name=psnr|name=float_ssim:scale=2", "name=no_such_feature", "name=psnr:enable_chroma=false",
    "name=float_ssim:enable_lcs=true|name=float_ms_ssim:enable_lcs=true:enable_db=true",
    "name=float_psnr|name=float_moment|name=float_ansnr", "name=speed_temporal:speed_use_ref_diff=true",
    "name=speed_temporal:speed_prescale=0.5:speed_prescale_method=lanczos4|name=null", "name=null",
    "name=float_vif|name=float_motion:motion_add_uv=true",
    "name=float_motion:motion_force_zero=true|name=float_vif:vif_prescale=0.5:debug=true",
};

uint64_t seed_from_env()
{
    const char *s = getenv("VQ_API_SEED");
    return s && *s ? strtoull(s, nullptr, 0) : 20261201;
}

}  // namespace

TEST(ApiRandom, SessionsNeverCrashAndStayConsistent)
{
    const uint64_t seed = seed_from_env();
    printf("VQ_API_SEED=%llu\n", (unsigned long long)seed);
    std::mt19937_64 rng(seed);
    int opened = 0, refused = 0, frames = 0;
    for (int it = 0; it < 40; it++) {
        VqConfig c;
        vq_config_default(&c);
        c.format = random_format(rng, it % 4 != 0);
        c.executor = VQ_EXECUTOR_CPU;
        c.model = kModels[rng() % (sizeof(kModels) / sizeof(kModels[0]))];
        c.feature = kFeatures[rng() % (sizeof(kFeatures) / sizeof(kFeatures[0]))];
        c.n_subsample = 1 + (int)(rng() % 3);
        c.enable_psnr = (int)(rng() % 2);
        c.threads = 1 + (int)(rng() % 3);
        c.keep_frames = (int)(rng() % 2);
        char err[512] = "";
        VqSession *s = nullptr;
        const int r = vq_session_open(&s, &c, err, sizeof(err));
        SCOPED_TRACE(std::to_string(it) + ": " + std::to_string(c.format.width) + "x" +
                     std::to_string(c.format.height) + " " + std::to_string(c.format.bitdepth) + "-bit layout " +
                     std::to_string((int)c.format.layout) + " model " + (c.model ? c.model : "-") +
                     " feature " + (c.feature ? c.feature : "-"));
        if (r < 0) {
            EXPECT_EQ(s, nullptr);
            EXPECT_GT(strlen(err), 0u) << "a refusal says why";
            refused++;
            continue;
        }
        opened++;
        ASSERT_NE(s, nullptr);
        VqFrameResult res;
        EXPECT_EQ(vq_session_receive(s, &res), VQ_EAGAIN);     /* nothing yet */
        const int n = 1 + (int)(rng() % 4);
        Pic ref, dis;
        int64_t next = 0;
        int ncols = -1;
        bool failed = false;
        for (int i = 0; i < n && !failed; i++) {
            make_pic(c.format, c.format.width, c.format.height, rng, ref);
            make_pic(c.format, c.format.width, c.format.height, rng, dis);
            if (rng() % 10 == 0) {
                EXPECT_EQ(vq_session_submit(s, &ref.pic, nullptr), VQ_EINVAL);
            }
            const int sr = vq_session_submit(s, &ref.pic, &dis.pic);
            if (sr < 0) {   /* a refusal at the first frame (e.g. a feature's size limit) */
                EXPECT_GT(strlen(vq_session_error(s)), 0u);
                failed = true;
                break;
            }
            frames++;
            while (vq_session_receive(s, &res) == VQ_OK) {
                EXPECT_EQ(res.index, next++);
                if (res.n) {
                    if (ncols < 0)
                        ncols = res.n;
                    EXPECT_EQ(res.n, ncols);
                }
            }
        }
        if (!failed) {
            EXPECT_EQ(vq_session_flush(s), VQ_OK);
            EXPECT_EQ(vq_session_flush(s), VQ_OK);             /* twice is harmless */
            int rr;
            while ((rr = vq_session_receive(s, &res)) == VQ_OK)
                EXPECT_EQ(res.index, next++);
            EXPECT_EQ(rr, VQ_EOF);
            EXPECT_EQ(next, n);
            EXPECT_EQ(vq_session_submit(s, &ref.pic, &dis.pic), VQ_EINVAL);   /* after flush */
            double v;
            if (vq_session_model_name(s, 0)) {
                EXPECT_EQ(vq_session_pooled(s, vq_session_model_name(s, 0), VQ_POOL_HARMONIC_MEAN, &v), VQ_OK);
            }
            EXPECT_EQ(vq_session_pooled(s, "no_such_column", VQ_POOL_MEAN, &v), VQ_EINVAL);
            char path[] = "/tmp/vq_api_random_XXXXXX";
            const int fd = mkstemp(path);
            ASSERT_GE(fd, 0);
            close(fd);
            const int wr = vq_session_write_log(s, path, (VqLogFormat)(rng() % 4));
            EXPECT_EQ(wr, c.keep_frames ? VQ_OK : VQ_EINVAL) << vq_session_error(s);
            remove(path);
        }
        vq_session_close(&s);
        EXPECT_EQ(s, nullptr);
    }
    printf("%d sessions opened, %d refused, %d frames\n", opened, refused, frames);
    EXPECT_GT(opened, 5);
    EXPECT_GT(refused, 0);
}

TEST(ApiRandom, NewSectionsMidway)
{
    std::mt19937_64 rng(seed_from_env() + 1);
    VqConfig c;
    vq_config_default(&c);
    c.format = random_format(rng, true);
    c.format.layout = VQ_LAYOUT_PLANAR;
    c.executor = VQ_EXECUTOR_CPU;
    char err[512] = "";
    VqSession *s = nullptr;
    ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
    int64_t next = 0, submitted = 0;
    for (int sec = 0; sec < 3; sec++) {
        VqFormat f = c.format;
        if (sec) {
            f.width = 33 + (int)(rng() % 150);
            f.height = 33 + (int)(rng() % 150);
            ASSERT_EQ(vq_session_new_section(s, &f), VQ_OK) << vq_session_error(s);
        }
        for (int i = 0; i < 3; i++) {
            Pic ref, dis;
            make_pic(f, f.width, f.height, rng, ref);
            make_pic(f, f.width, f.height, rng, dis);
            ASSERT_EQ(vq_session_submit(s, &ref.pic, &dis.pic), VQ_OK) << vq_session_error(s);
            submitted++;
            VqFrameResult res;
            while (vq_session_receive(s, &res) == VQ_OK)
                EXPECT_EQ(res.index, next++);
        }
    }
    ASSERT_EQ(vq_session_flush(s), VQ_OK);
    VqFrameResult res;
    while (vq_session_receive(s, &res) == VQ_OK)
        EXPECT_EQ(res.index, next++);
    EXPECT_EQ(next, submitted);
    VqFormat bad = c.format;
    bad.width = 8;
    EXPECT_EQ(vq_session_new_section(s, &bad), VQ_EINVAL);     /* after flush, and too small */
    vq_session_close(&s);
}

// Random ladders (1 to 4 renditions of the reference's size or smaller,
// upscaled; random models, features, n_subsample, kept frames or none):
// each rendition ends at a random frame, by a NULL picture or by
// vq_ladder_end, results are received at random points, and every
// rendition's values equal a session of its own on its pictures.
TEST(ApiRandom, LaddersEqualSessionsOfTheirOwn)
{
    std::mt19937_64 rng(seed_from_env() + 2);
    int ladders = 0, renditions = 0;
    for (int it = 0; it < 16; it++) {
        VqConfig c;
        vq_config_default(&c);
        c.format = random_format(rng, true);
        c.format.width = std::max(c.format.width, 48);
        c.format.height = std::max(c.format.height, 48);
        c.executor = VQ_EXECUTOR_CPU;
        c.model = kModels[rng() % 8];   /* the first eight: every one opens */
        c.feature = rng() % 2 ? nullptr : "name=float_ssim|name=float_motion|name=motion:motion_five_frame_window=true";
        c.n_subsample = 1 + (int)(rng() % 2);
        c.keep_frames = (int)(rng() % 2);
        const int n = 1 + (int)(rng() % 4), nframes = 2 + (int)(rng() % 5);
        std::vector<int> dw, dh, last;
        for (int k = 0; k < n; k++) {
            const bool smaller = k && rng() % 2;
            dw.push_back(smaller ? std::max(33, c.format.width * 2 / 3) : c.format.width);
            dh.push_back(smaller ? std::max(33, c.format.height * 3 / 4) : c.format.height);
            last.push_back(k ? 1 + (int)(rng() % nframes) : nframes);
        }
        SCOPED_TRACE(std::to_string(it) + ": " + std::to_string(c.format.width) + "x" +
                     std::to_string(c.format.height) + " " + std::to_string(c.format.bitdepth) + "-bit layout " +
                     std::to_string((int)c.format.layout) + ", " + std::to_string(n) + " renditions, model " +
                     (c.model ? c.model : "-") + " feature " + (c.feature ? c.feature : "-"));
        std::vector<Pic> ref((size_t)nframes);
        std::vector<std::vector<Pic>> dis((size_t)n, std::vector<Pic>((size_t)nframes));
        for (int i = 0; i < nframes; i++) {
            make_pic(c.format, c.format.width, c.format.height, rng, ref[(size_t)i]);
            for (int k = 0; k < n; k++)
                make_pic(c.format, dw[(size_t)k], dh[(size_t)k], rng, dis[(size_t)k][(size_t)i]);
        }
        /* each rendition alone */
        std::vector<std::vector<std::vector<double>>> want((size_t)n);
        bool refused = false;
        for (int k = 0; k < n && !refused; k++) {
            VqConfig ck = c;
            ck.dis_width = dw[(size_t)k];
            ck.dis_height = dh[(size_t)k];
            char err[512] = "";
            VqSession *s = nullptr;
            if (vq_session_open(&s, &ck, err, sizeof(err)) < 0) {
                refused = true;     /* e.g. a size the upscaler refuses: the ladder must refuse too */
                break;
            }
            for (int i = 0; i < last[(size_t)k]; i++)
                ASSERT_EQ(vq_session_submit(s, &ref[(size_t)i].pic, &dis[(size_t)k][(size_t)i].pic), VQ_OK)
                    << vq_session_error(s);
            ASSERT_EQ(vq_session_flush(s), VQ_OK) << vq_session_error(s);
            VqFrameResult r;
            while (vq_session_receive(s, &r) == VQ_OK)
                want[(size_t)k].emplace_back(r.value, r.value + r.n);
            vq_session_close(&s);
        }
        char err[512] = "";
        VqLadder *l = nullptr;
        const int lr = vq_ladder_open(&l, &c, n, dw.data(), dh.data(), err, sizeof(err));
        if (refused) {
            EXPECT_LT(lr, 0);
            EXPECT_GT(strlen(err), 0u);
            continue;
        }
        ASSERT_EQ(lr, VQ_OK) << err;
        ladders++;
        renditions += n;
        std::vector<std::vector<std::vector<double>>> got((size_t)n);
        auto take = [&] {
            VqFrameResult r;
            int k, ret;
            while ((ret = vq_ladder_receive(l, &k, &r)) == VQ_OK) {
                ASSERT_TRUE(k >= 0 && k < n);
                EXPECT_EQ(r.index, (int64_t)got[(size_t)k].size());
                got[(size_t)k].emplace_back(r.value, r.value + r.n);
            }
            EXPECT_TRUE(ret == VQ_EAGAIN || ret == VQ_EOF) << ret << " " << vq_ladder_error(l);
        };
        for (int i = 0; i < nframes; i++) {
            std::vector<const VqPicture *> pd((size_t)n, nullptr);
            for (int k = 0; k < n; k++) {
                if (i < last[(size_t)k]) {
                    pd[(size_t)k] = &dis[(size_t)k][(size_t)i].pic;
                } else if (k && !vq_ladder_ended(l, k) && rng() % 2) {
                    ASSERT_EQ(vq_ladder_end(l, k), VQ_OK) << vq_ladder_error(l);
                }
            }
            ASSERT_EQ(vq_ladder_submit(l, &ref[(size_t)i].pic, pd.data(), NAN, 0), VQ_OK) << vq_ladder_error(l);
            for (int k = 0; k < n; k++)
                EXPECT_EQ(vq_ladder_ended(l, k), i + 1 > last[(size_t)k] ? 1 : 0) << "rendition " << k + 1;
            if (rng() % 2)
                take();
        }
        ASSERT_EQ(vq_ladder_flush(l), VQ_OK) << vq_ladder_error(l);
        take();
        for (int k = 0; k < n; k++) {
            EXPECT_EQ(vq_ladder_submitted(l, k), last[(size_t)k]);
            EXPECT_EQ(got[(size_t)k], want[(size_t)k]) << "rendition " << k + 1;
        }
        vq_ladder_close(&l);
        EXPECT_EQ(l, nullptr);
    }
    printf("%d ladders, %d renditions\n", ladders, renditions);
    EXPECT_GT(ladders, 8);
}
