/* The streaming motion2/motion3 fold (hostmath/motion_fold.c) against a plain
 * model of libvmaf v3.2.0 integer_motion.c's flush(), which sees every SAD
 * score at once: random SAD sequences, every option that acts there (the
 * five-frame window, the moving average, blend, max_val), every length up to
 * a few dozen frames.  Then the pieces: a piece of a title started
 * vq_motion2_context() frames early (with SAD 0 where its frame n-lag is
 * missing, as the session does) and read one frame past its end gives the
 * title's values on its scored frames. */
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "motion/motion_fold.h"

namespace {

struct Values {
    std::vector<double> m2, m3;
};

double min_ref(double x, double y)
{
    return x < y ? x : y;
}

double processed_ref(const VqMotion2Opts &o, double m)
{
    return min_ref(m * o.blend_factor + (1 - o.blend_factor) * min_ref(o.blend_offset, m), o.max_val);
}

/* flush() over the whole sequence, written from its description: frames below
 * the lag take the processed SAD at the lag (0 without one) and motion2 0;
 * the others min(SAD of i-(lag-1) if that is not below the lag, SAD of i+1),
 * SAD of i+1 alone otherwise, their own SAD at the end; motion3 the processed
 * motion2, averaged with the previous frame's processed value (the stamp
 * below the lag) with the moving average. */
Values reference_flush(const std::vector<double> &sad, const VqMotion2Opts &o)
{
    const int n = (int)sad.size();
    const int lag = o.five_frame_window ? 2 : 1;
    Values v;
    const double stamp = n > lag ? processed_ref(o, sad[(size_t)lag]) : 0.0;
    double prev = 0.0;
    for (int i = 0; i < n; i++) {
        if (i < lag) {
            v.m2.push_back(0.0);
            v.m3.push_back(stamp);
            prev = stamp;
            continue;
        }
        double m2;
        const int lo = i - (lag - 1), hi = i + 1;
        if (hi >= n)
            m2 = sad[(size_t)i];
        else if (lo >= lag)
            m2 = sad[(size_t)lo] < sad[(size_t)hi] ? sad[(size_t)lo] : sad[(size_t)hi];
        else
            m2 = sad[(size_t)hi];
        const double p = processed_ref(o, m2);
        v.m2.push_back(m2);
        v.m3.push_back(o.moving_average ? (p + prev) / 2.0 : p);
        prev = p;
    }
    return v;
}

/* the fold, streaming; every frame must come out exactly once, in order */
Values stream(const std::vector<double> &sad, const VqMotion2Opts &o)
{
    VqMotion2 m;
    vq_motion2_init(&m, &o);
    Values v;
    auto take = [&](const VqMotion2Out *out, int k) {
        for (int j = 0; j < k; j++) {
            EXPECT_EQ(out[j].index, (int64_t)v.m2.size());
            v.m2.push_back(out[j].motion2);
            v.m3.push_back(out[j].motion3);
        }
        EXPECT_EQ(vq_motion2_final(&m), (int64_t)v.m2.size());
    };
    VqMotion2Out out[2];
    for (double s : sad) {
        const int k = vq_motion2_push(&m, s, out);
        EXPECT_LE(k, 2);
        take(out, k);
        /* one frame late, two at the start with the window */
        EXPECT_GE((int64_t)v.m2.size(), m.n - (m.n <= (o.five_frame_window ? 2 : 1) ? m.n : 1));
    }
    take(out, vq_motion2_flush(&m, out));
    EXPECT_EQ(vq_motion2_flush(&m, out), 0);
    EXPECT_EQ(v.m2.size(), sad.size());
    return v;
}

bool same(double a, double b)
{
    return std::memcmp(&a, &b, sizeof(double)) == 0;
}

std::vector<VqMotion2Opts> option_sets(std::mt19937_64 &rng)
{
    std::vector<VqMotion2Opts> v;
    for (int w = 0; w < 2; w++)
        for (int ma = 0; ma < 2; ma++)
            for (int k = 0; k < 3; k++) {
                VqMotion2Opts o;
                vq_motion2_opts_default(&o);
                o.five_frame_window = w;
                o.moving_average = ma;
                if (k == 1)
                    o.max_val = 18.0;
                if (k == 2) {
                    o.blend_factor = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
                    o.blend_offset = std::uniform_real_distribution<double>(0.0, 30.0)(rng);
                    o.max_val = std::uniform_real_distribution<double>(1.0, 40.0)(rng);
                }
                v.push_back(o);
            }
    return v;
}

/* SAD scores as the session makes them: 0 below the lag, then a mix of
 * ties, zeros, and values above max_val */
std::vector<double> random_sad(std::mt19937_64 &rng, int n, int lag)
{
    std::vector<double> s((size_t)n, 0.0);
    std::uniform_int_distribution<int> kind(0, 5);
    for (int i = lag; i < n; i++) {
        switch (kind(rng)) {
        case 0: s[(size_t)i] = 0.0; break;
        case 1: s[(size_t)i] = i > lag ? s[(size_t)i - 1] : 3.5; break;
        case 2: s[(size_t)i] = std::uniform_real_distribution<double>(18.0, 60.0)(rng); break;
        default: s[(size_t)i] = std::uniform_real_distribution<double>(0.0, 25.0)(rng); break;
        }
    }
    return s;
}

}  // namespace

TEST(MotionWindow, StreamingEqualsFlushModel)
{
    std::mt19937_64 rng(20260703);
    int checked = 0;
    for (int rep = 0; rep < 20; rep++)
        for (const VqMotion2Opts &o : option_sets(rng))
            for (int n = 0; n <= 40; n += (n < 8 ? 1 : 7)) {
                const std::vector<double> sad = random_sad(rng, n, o.five_frame_window ? 2 : 1);
                const Values want = reference_flush(sad, o), got = stream(sad, o);
                ASSERT_EQ(got.m2.size(), want.m2.size());
                for (size_t i = 0; i < want.m2.size(); i++) {
                    ASSERT_TRUE(same(got.m2[i], want.m2[i]))
                        << "n " << n << " frame " << i << " window " << o.five_frame_window << " ma "
                        << o.moving_average << ": motion2 " << got.m2[i] << " want " << want.m2[i];
                    ASSERT_TRUE(same(got.m3[i], want.m3[i]))
                        << "n " << n << " frame " << i << " window " << o.five_frame_window << " ma "
                        << o.moving_average << ": motion3 " << got.m3[i] << " want " << want.m3[i];
                    checked++;
                }
            }
    printf("%d frames checked\n", checked);
}

TEST(MotionWindow, Context)
{
    VqMotion2Opts o;
    vq_motion2_opts_default(&o);
    EXPECT_EQ(vq_motion2_context(&o), 1);
    o.moving_average = 1;
    EXPECT_EQ(vq_motion2_context(&o), 2);
    o.five_frame_window = 1;
    EXPECT_EQ(vq_motion2_context(&o), 4);
    o.moving_average = 0;
    EXPECT_EQ(vq_motion2_context(&o), 3);
}

/* A piece scoring title frames A..B-1 is given frames first..last:
 * first = max(0, A - context), last = min(N-1, max(B, lag)) (one frame past
 * its end, and with the window frame 2 at least: frames 0 and 1 take its
 * SAD).  Its own frames below the lag have no frame n-lag: SAD 0. */
TEST(MotionWindow, PiecesEqualTheTitle)
{
    std::mt19937_64 rng(7);
    int pieces = 0;
    for (const VqMotion2Opts &o : option_sets(rng)) {
        const int lag = o.five_frame_window ? 2 : 1, ctx = vq_motion2_context(&o);
        for (int n = 1; n <= 14; n++) {
            const std::vector<double> sad = random_sad(rng, n, lag);
            const Values title = reference_flush(sad, o);
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b <= n; b++) {
                    const int first = a - ctx > 0 ? a - ctx : 0;
                    const int last = std::min(n - 1, std::max(b, lag));
                    std::vector<double> p;
                    for (int t = first; t <= last; t++)
                        p.push_back(t - first < lag ? 0.0 : sad[(size_t)t]);
                    const Values got = stream(p, o);
                    for (int t = a; t < b; t++) {
                        ASSERT_TRUE(same(got.m2[(size_t)(t - first)], title.m2[(size_t)t]))
                            << "n " << n << " piece " << a << "-" << b << " frame " << t << " motion2";
                        ASSERT_TRUE(same(got.m3[(size_t)(t - first)], title.m3[(size_t)t]))
                            << "n " << n << " piece " << a << "-" << b << " frame " << t << " motion3";
                    }
                    pieces++;
                }
        }
    }
    printf("%d pieces checked\n", pieces);
}

/* One frame less of context than vq_motion2_context() says changes some
 * piece's values: the context is no larger than it must be. */
TEST(MotionWindow, ContextIsTight)
{
    std::mt19937_64 rng(11);
    for (const VqMotion2Opts &o : option_sets(rng)) {
        if (o.blend_factor != 1.0 || o.max_val != 10000.0)
            continue;
        const int lag = o.five_frame_window ? 2 : 1, ctx = vq_motion2_context(&o);
        bool differs = false;
        for (int rep = 0; rep < 50 && !differs; rep++) {
            const int n = 16;
            const std::vector<double> sad = random_sad(rng, n, lag);
            const Values title = reference_flush(sad, o);
            const int a = 8, b = 10, first = a - (ctx - 1);
            std::vector<double> p;
            for (int t = first; t <= b; t++)
                p.push_back(t - first < lag ? 0.0 : sad[(size_t)t]);
            const Values got = stream(p, o);
            for (int t = a; t < b; t++)
                differs |= !same(got.m2[(size_t)(t - first)], title.m2[(size_t)t]) ||
                           !same(got.m3[(size_t)(t - first)], title.m3[(size_t)t]);
        }
        EXPECT_TRUE(differs) << "window " << o.five_frame_window << " ma " << o.moving_average;
    }
}
