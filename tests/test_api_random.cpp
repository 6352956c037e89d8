// A randomized walk through the C API on the CPU executor (run under ASan +
// UBSan in CI's second configuration): random sizes 33..4096, every layout
// and bit depth, random model and feature sets, and misuse in random order.
// Every call returns a code (never a crash); what is returned is consistent:
// results in frame order, one per submitted frame, every scored frame with
// every column, pooled values for every column.  Seeded: VQ_API_SEED.
#include <gtest/gtest.h>

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
