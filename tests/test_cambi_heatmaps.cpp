// cambi's heatmaps_path through the session API (hostmath/cambi/cambi_heatmaps.h,
// docs/cambi.md "Heatmaps"): a path that cannot be written is refused when
// the session opens (before any frame), naming cambi and the path; a failed
// run leaves existing files as they were and no temporary file; a run that
// ends well replaces them with files of the reference's size.  (Their bytes
// against libvmaf's: tests/cambi_heatmaps.sh, ctest lib_cambi_heatmaps_*.)
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cambi/cambi_heatmaps.h"
#include "test_util.h"
#include "vqcuda.h"

namespace {

using vq_test::slurp;

const int W = 240, H = 136;

struct TmpDir {
    std::string path;
    TmpDir()
    {
        char t[] = "/tmp/vq_heatmaps_XXXXXX";
        path = mkdtemp(t) ? t : "";
    }
    ~TmpDir()
    {
        if (!path.empty())
            std::system(("rm -rf '" + path + "'").c_str());
    }
};

void put(const std::string &f, const std::string &text)
{
    std::ofstream(f, std::ios::binary) << text;
}

std::vector<std::string> names_in(const std::string &dir)
{
    std::vector<std::string> v;
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d))
            if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, ".."))
                v.push_back(e->d_name);
        closedir(d);
    }
    return v;
}

VqConfig config(const std::string &features)
{
    static std::string keep;
    keep = features;
    VqConfig c;
    vq_config_default(&c);
    c.format.width = W;
    c.format.height = H;
    c.format.bitdepth = 8;
    c.format.bytes_per_sample = 1;
    c.format.chroma_shift_w = 1;
    c.format.chroma_shift_h = 1;
    c.format.layout = VQ_LAYOUT_PLANAR;
    c.executor = VQ_EXECUTOR_CPU;
    c.model = "none";
    c.feature = keep.c_str();
    return c;
}

/* a smooth ramp in steps (bands for cambi to see) */
struct Frame {
    std::vector<uint8_t> p[3];
    VqPicture pic;
    explicit Frame(int shift)
    {
        p[0].resize((size_t)W * H);
        p[1].assign((size_t)W * H / 4, 128);
        p[2].assign((size_t)W * H / 4, 128);
        for (int i = 0; i < H; i++)
            for (int j = 0; j < W; j++)
                p[0][(size_t)i * W + j] = (uint8_t)(60 + (j + shift) / 24);
        std::memset(&pic, 0, sizeof(pic));
        for (int k = 0; k < 3; k++)
            pic.data[k] = p[k].data();
        pic.linesize[0] = W;
        pic.linesize[1] = pic.linesize[2] = W / 2;
    }
};

const char *kScale0 = "cambi_heatmap_scale_0_240x136_16b.gray";

}  // namespace

TEST(CambiHeatmaps, UnwritablePathRefusedAtOpen)
{
    TmpDir t;
    ASSERT_FALSE(t.path.empty());
    const std::string file = t.path + "/plainfile";
    put(file, "x");
    /* (as root too: a path through a regular file cannot be created) */
    const std::string cases[] = { file + "/sub", file };
    for (const std::string &path : cases) {
        VqConfig c = config("name=cambi:heatmaps_path=" + path);
        VqSession *s = nullptr;
        char err[1024] = "";
        const int r = vq_session_open(&s, &c, err, sizeof(err));
        EXPECT_TRUE(r == VQ_EIO || r == VQ_EINVAL) << r;
        EXPECT_EQ(s, nullptr);
        EXPECT_NE(std::strstr(err, "cambi"), nullptr) << err;
        EXPECT_NE(std::strstr(err, file.c_str()), nullptr) << err;
    }
    EXPECT_EQ(slurp(file), "x");
    /* a heatmap's name taken by a directory */
    const std::string dir = t.path + "/d";
    ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
    ASSERT_EQ(mkdir((dir + "/" + kScale0).c_str(), 0700), 0);
    VqConfig c = config("name=cambi:heatmaps_path=" + dir);
    VqSession *s = nullptr;
    char err[1024] = "";
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EIO);
    EXPECT_NE(std::strstr(err, kScale0), nullptr) << err;
    EXPECT_EQ(names_in(dir).size(), 1u);   /* no temporary file left */
    /* an empty path: libvmaf's mkdirp("") fails (-EINVAL) */
    c = config("name=cambi:heatmaps_path=");
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EINVAL);
}

TEST(CambiHeatmaps, FailedRunKeepsExistingFiles)
{
    TmpDir t;
    ASSERT_FALSE(t.path.empty());
    const std::string dir = t.path + "/a/b";   /* created as libvmaf's mkdirp does */
    VqConfig c = config("name=cambi:heatmaps_path=" + dir);
    {
        VqSession *s = nullptr;
        char err[1024] = "";
        ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
        vq_session_close(&s);   /* no frame, no flush: nothing written */
    }
    EXPECT_TRUE(names_in(dir).empty());
    put(dir + "/" + kScale0, "keep me");

    VqSession *s = nullptr;
    char err[1024] = "";
    ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
    Frame ref(0), dis(5);
    ASSERT_EQ(vq_session_submit(s, &ref.pic, &dis.pic), VQ_OK) << vq_session_error(s);
    VqPicture broken = dis.pic;
    broken.data[0] = nullptr;
    EXPECT_EQ(vq_session_submit(s, &ref.pic, &broken), VQ_EINVAL);   /* the run fails */
    EXPECT_EQ(vq_session_flush(s), VQ_OK);
    vq_session_close(&s);
    EXPECT_EQ(slurp(dir + "/" + kScale0), "keep me");
    EXPECT_EQ(names_in(dir).size(), 1u) << "temporary files left behind";

    /* the same run without the failure replaces it */
    ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
    ASSERT_EQ(vq_session_submit(s, &ref.pic, &dis.pic), VQ_OK) << vq_session_error(s);
    ASSERT_EQ(vq_session_submit(s, &ref.pic, &dis.pic), VQ_OK) << vq_session_error(s);
    ASSERT_EQ(vq_session_flush(s), VQ_OK) << vq_session_error(s);
    vq_session_close(&s);
    EXPECT_EQ(names_in(dir).size(), 5u);
    EXPECT_EQ(slurp(dir + "/" + kScale0).size(), (size_t)2 * W * H * 2);
    EXPECT_EQ(slurp(dir + "/cambi_heatmap_scale_4_15x9_16b.gray").size(), (size_t)2 * 15 * 9 * 2);
}

/* Two instances writing the same files (one directory under two names, one
 * encode size; window_size tells them apart) are refused when the session
 * opens, leaving nothing in the directory; so is an encode size that init
 * takes back to the frame's (150 rows above 136: 240x136's files, named in
 * the message).  Two directories are two file sets. */
TEST(CambiHeatmaps, TwoInstancesOfOneFileSetRefused)
{
    TmpDir t;
    ASSERT_FALSE(t.path.empty());
    const std::string dir = t.path + "/h";
    VqConfig c = config("name=cambi:heatmaps_path=" + dir + "|name=cambi:heatmaps_path=" + dir +
                        "/.:window_size=31");
    VqSession *s = nullptr;
    char err[1024] = "";
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EINVAL);
    EXPECT_EQ(s, nullptr);
    EXPECT_NE(std::strstr(err, "two cambi instances would write the same heatmap files"), nullptr) << err;
    EXPECT_TRUE(names_in(dir).empty()) << "temporary files left behind";
    c = config("name=cambi:heatmaps_path=" + dir + "|name=cambi:heatmaps_path=" + dir +
               ":enc_width=200:enc_height=150");
    err[0] = 0;
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EINVAL);
    EXPECT_NE(std::strstr(err, "(240x136)"), nullptr) << err;

    c = config("name=cambi:heatmaps_path=" + dir + "|name=cambi:heatmaps_path=" + dir +
               "2:window_size=31");
    ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
    Frame ref(0), dis(5);
    ASSERT_EQ(vq_session_submit(s, &ref.pic, &dis.pic), VQ_OK) << vq_session_error(s);
    ASSERT_EQ(vq_session_flush(s), VQ_OK) << vq_session_error(s);
    vq_session_close(&s);
    const std::string a = slurp(dir + "/" + kScale0), b = slurp(dir + "2/" + kScale0);
    EXPECT_EQ(a.size(), (size_t)W * H * 2);
    EXPECT_EQ(b.size(), (size_t)W * H * 2);
    EXPECT_NE(a, b);   /* two windows, two sets of c-values */
}

/* A ladder's renditions write their own files only through %d in the path
 * (their number, as in log_path); without it the ladder is refused when it
 * opens. */
TEST(CambiHeatmaps, LadderRenditionsTakeTheirNumber)
{
    TmpDir t;
    ASSERT_FALSE(t.path.empty());
    VqConfig c = config("name=cambi:heatmaps_path=" + t.path + "/same");
    VqLadder *l = nullptr;
    char err[1024] = "";
    EXPECT_EQ(vq_ladder_open(&l, &c, 2, nullptr, nullptr, err, sizeof(err)), VQ_EINVAL);
    EXPECT_EQ(l, nullptr);
    EXPECT_NE(std::strstr(err, "put %d in the path"), nullptr) << err;
    EXPECT_TRUE(names_in(t.path + "/same").empty());

    c = config("name=cambi:heatmaps_path=" + t.path + "/r%d");
    ASSERT_EQ(vq_ladder_open(&l, &c, 2, nullptr, nullptr, err, sizeof(err)), VQ_OK) << err;
    Frame ref(0), d1(5), d2(11);
    const VqPicture *dis[2] = { &d1.pic, &d2.pic };
    ASSERT_EQ(vq_ladder_submit(l, &ref.pic, dis, 0.0, 1), VQ_OK) << vq_ladder_error(l);
    ASSERT_EQ(vq_ladder_flush(l), VQ_OK) << vq_ladder_error(l);
    int k;
    VqFrameResult res;
    int got = 0;
    while (vq_ladder_receive(l, &k, &res) == VQ_OK)
        got++;
    EXPECT_EQ(got, 2);
    vq_ladder_close(&l);
    const std::string a = slurp(t.path + "/r1/" + kScale0), b = slurp(t.path + "/r2/" + kScale0);
    EXPECT_EQ(a.size(), (size_t)W * H * 2);
    EXPECT_EQ(b.size(), (size_t)W * H * 2);
    EXPECT_NE(a, b);   /* each rendition's own c-values */
    /* a single pair keeps the path as given, as libvmaf */
    c = config("name=cambi:heatmaps_path=" + t.path + "/p%d");
    VqSession *s = nullptr;
    ASSERT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_OK) << err;
    ASSERT_EQ(vq_session_submit(s, &ref.pic, &d1.pic), VQ_OK) << vq_session_error(s);
    ASSERT_EQ(vq_session_flush(s), VQ_OK) << vq_session_error(s);
    vq_session_close(&s);
    EXPECT_EQ(slurp(t.path + "/p%d/" + kScale0), a);
}

/* A piece of a title (score_frames) is refused: its files would replace the
 * other pieces' (each holds its own frames only). */
TEST(CambiHeatmaps, PieceRefused)
{
    TmpDir t;
    ASSERT_FALSE(t.path.empty());
    VqConfig c = config("name=cambi:heatmaps_path=" + t.path + "/p");
    c.score_begin = 10;
    c.score_end = 20;
    VqSession *s = nullptr;
    char err[1024] = "";
    EXPECT_EQ(vq_session_open(&s, &c, err, sizeof(err)), VQ_EINVAL);
    EXPECT_EQ(s, nullptr);
    EXPECT_NE(std::strstr(err, "in a piece of a title (score_frames)"), nullptr) << err;
    EXPECT_TRUE(names_in(t.path + "/p").empty());
}

TEST(CambiHeatmaps, ValueAsTheReferenceCasts)
{
    /* defaults: max diff weight 4 (mlc 2), window 5 at 240x136: 4*5*5/4 = 25 */
    const double scale = 65535.0 / 25;
    EXPECT_EQ(vq_cambi_heatmap_value(scale, 0.0f), 0);
    EXPECT_EQ(vq_cambi_heatmap_value(scale, 25.0f), 65535);
    EXPECT_EQ(vq_cambi_heatmap_value(scale, 1.0f), 2621);   /* 2621.4: truncated */
}
