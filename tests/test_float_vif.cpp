/* float_vif and float_motion (docs/float-vif.md, docs/float-motion.md): the
 * pieces the golden runs (lib_float_*) do not reach on their own.
 *   - motion2/motion3/motion as a stream, against a plain model of
 *     float_motion.c's extract() and flush() appends, on random scores and
 *     options, every length up to 20 frames;
 *   - the refusals (sizes, kernelscales, sigma_nsq 0, chroma);
 *   - log2f_approx's exact points and its error bound;
 *   - the CPU executors: row bands in any order == one thread, and both ==
 *     a whole-image transcription of compute_vif / vmaf_image_sad_c (the
 *     reference's buffers and loop order) on random sizes, depths, options.
 * The values themselves are held to libvmaf's by the golden runs. */
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "float_motion/float_motion_exec.h"
#include "float_motion/float_motion_fold.h"
#include "float_vif/float_vif_exec.h"
#include "float_vif/float_vif_fold.h"
#include "speed_chroma.hpp"

namespace {

using vq::fmotion::Stream;

/* ---- motion2/motion3: float_motion.c's appends, written from its code ---- */

struct Appended {
    std::map<int, double> m2, m3, m;
};

double min_ref(double x, double y) { return x < y ? x : y; }
double blend_ref(double s, double f, double o) { return s * f + (1 - f) * min_ref(o, s); }

Appended reference_appends(const std::vector<double> &score, const vq::fmotion::Options &o)
{
    Appended a;
    const int n = (int)score.size();
    double last = 0;
    unsigned index = 0;
    for (int i = 0; i < n; i++) {
        if (o.force_zero) {
            a.m2[i] = 0.;
            a.m3[i] = 0.;
            if (o.debug)
                a.m[i] = 0.;
            continue;
        }
        index = (unsigned)i;
        if (i == 0) {
            a.m2[0] = 0.;
            if (o.debug)
                a.m[0] = 0.;
            continue;
        }
        const double s = score[(size_t)i];   /* SAD(blur[i-1], blur[i]) */
        if (o.debug)
            a.m[i] = min_ref(s * o.fps_weight, o.max_val);
        last = s;
        if (i == 1) {
            a.m3[0] = min_ref(blend_ref(s * o.fps_weight, o.blend_factor, o.blend_offset), o.max_val);
            continue;
        }
        double s2 = score[(size_t)i - 1];   /* SAD(blur[i-1], blur[i-2]) */
        s2 = s2 < s ? s2 : s;
        a.m2[i - 1] = min_ref(s2 * o.fps_weight, o.max_val);
        a.m3[i - 1] = min_ref(blend_ref(s2 * o.fps_weight, o.blend_factor, o.blend_offset), o.max_val);
    }
    if (!o.force_zero && n > 0) {   /* flush */
        if (index > 0) {
            a.m2[(int)index] = min_ref(last * o.fps_weight, o.max_val);
            a.m3[(int)index] = min_ref(blend_ref(last * o.fps_weight, o.blend_factor, o.blend_offset), o.max_val);
        } else {
            a.m3[0] = 0;
        }
    }
    return a;
}

bool same(double a, double b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

TEST(FloatMotion, StreamEqualsExtractAndFlush)
{
    std::mt19937 rng(20261204);
    const double fps[] = { 1.0, 0.5, 2.5, 0.0 }, bf[] = { 1.0, 0.5, 0.0 }, bo[] = { 40.0, 1.0, 0.0 },
                 mx[] = { 10000.0, 1.5, 0.0 };
    int runs = 0;
    for (int trial = 0; trial < 3000; trial++) {
        vq::fmotion::Options o;
        o.fps_weight = fps[rng() % 4];
        o.blend_factor = bf[rng() % 3];
        o.blend_offset = bo[rng() % 3];
        o.max_val = mx[rng() % 3];
        o.force_zero = rng() % 8 == 0;
        o.debug = rng() % 4 != 0;
        const int n = 1 + (int)(rng() % 20);
        std::vector<double> s((size_t)n, 0.0);
        for (int i = 1; i < n; i++)   /* float values, some equal, some 0 */
            s[(size_t)i] = rng() % 5 == 0 ? s[(size_t)i - 1] : (double)(float)((rng() % 4000) / 997.0);
        const Appended want = reference_appends(s, o);
        Stream st(o);
        std::map<int, double> m2, m3, m;
        auto put = [&](const vq::fmotion::Out *out, int k) {
            for (int j = 0; j < k; j++) {
                m2[(int)out[j].index] = out[j].motion2;
                m3[(int)out[j].index] = out[j].motion3;
            }
        };
        for (int i = 0; i < n; i++) {
            double motion;
            vq::fmotion::Out out[1];
            put(out, st.push(s[(size_t)i], &motion, out));
            if (o.debug)
                m[i] = motion;
            EXPECT_EQ(st.final_count(), o.force_zero ? i + 1 : i);
        }
        vq::fmotion::Out out[1];
        put(out, st.flush(out));
        EXPECT_EQ(st.final_count(), n);
        ASSERT_EQ(m2.size(), (size_t)n);
        ASSERT_EQ(m3.size(), (size_t)n);
        ASSERT_EQ(want.m2.size(), (size_t)n);
        ASSERT_EQ(want.m3.size(), (size_t)n);
        for (int i = 0; i < n; i++) {
            EXPECT_TRUE(same(m2[i], want.m2.at(i))) << "trial " << trial << " frame " << i;
            EXPECT_TRUE(same(m3[i], want.m3.at(i))) << "trial " << trial << " frame " << i;
            if (o.debug) {
                EXPECT_TRUE(same(m[i], want.m.at(i))) << "trial " << trial << " frame " << i;
            }
        }
        runs++;
    }
    EXPECT_EQ(runs, 3000);
}

TEST(FloatMotion, Refusals)
{
    vq::fmotion::Options o;
    EXPECT_EQ(vq::fmotion::check(o, 36, 34, false, 0, 0), "");
    o.add_uv = true;
    EXPECT_NE(vq::fmotion::check(o, 36, 34, false, 0, 0).find("4:0:0"), std::string::npos);
    EXPECT_EQ(vq::fmotion::check(o, 36, 34, true, 18, 17), "");
    o.add_scale1 = true;   /* the chroma stride bug: refused where chroma is subsampled */
    EXPECT_NE(vq::fmotion::check(o, 36, 34, true, 18, 17).find("stride"), std::string::npos);
    EXPECT_NE(vq::fmotion::check(o, 36, 34, true, 18, 34).find("stride"), std::string::npos);
    EXPECT_EQ(vq::fmotion::check(o, 577, 323, true, 577, 323), "");
    o.add_uv = false;
    EXPECT_EQ(vq::fmotion::check(o, 36, 34, true, 18, 17), "");
    /* filter sizes: 1 the no-op, 3, anything else 5 */
    float t[VQ_FMOTION_MAX_TAPS];
    EXPECT_EQ(vq_fmotion_taps(1, t), 5);
    EXPECT_EQ(t[2], 1.0f);
    EXPECT_EQ(vq_fmotion_taps(3, t), 3);
    for (int fs : { 0, 2, 4, 5, 6, 9 })
        EXPECT_EQ(vq_fmotion_taps(fs, t), 5);
}

TEST(FloatVif, Refusals)
{
    vq::fvif::Options o;
    EXPECT_EQ(vq::fvif::check(o, 33, 33, 8), "");
    o.kernelscale = 0.9;
    EXPECT_NE(vq::fvif::check(o, 1920, 1080, 8).find("vif_kernelscale"), std::string::npos);
    o.kernelscale = 0.5;
    EXPECT_EQ(vq::fvif::check(o, 33, 33, 8), "");
    o.kernelscale = 3.0;   /* scale 3: 4x4 under a 9-tap filter */
    EXPECT_NE(vq::fvif::check(o, 33, 33, 8).find("scale 3"), std::string::npos);
    EXPECT_EQ(vq::fvif::check(o, 64, 64, 8), "");
    o = vq::fvif::Options();
    o.prescale = 0.25;     /* 16x16: scale 3 is 2x2 under 3 taps */
    EXPECT_EQ(vq::fvif::check(o, 64, 64, 8), "");
    o.prescale = 0.2;      /* 13x13: scale 3 is 1x1 */
    EXPECT_NE(vq::fvif::check(o, 64, 64, 8).find("scale 3"), std::string::npos);
    o = vq::fvif::Options();
    o.sigma_nsq = 0.0;
    EXPECT_NE(vq::fvif::check(o, 64, 64, 8).find("vif_sigma_nsq"), std::string::npos);
    o.sigma_nsq = 1e-30;
    EXPECT_EQ(vq::fvif::check(o, 64, 64, 8), "");
    o = vq::fvif::Options();
    o.skip_scale0 = true;  /* the decimation to scale 1 still runs */
    o.kernelscale = 3.0;
    EXPECT_NE(vq::fvif::check(o, 33, 33, 8).find("scale 3"), std::string::npos);
    o.kernelscale = 2.0;
    EXPECT_EQ(vq::fvif::check(o, 33, 33, 8), "");
}

TEST(FloatVif, FilterSizes)
{
    /* vif_get_filter_size: (1 << (4 - scale)) + 1 times the kernelscale,
     * up to odd, at least 3 */
    vq::fvif::Setup s;
    vq::fvif::fill_geom(s, 1920, 1080);
    EXPECT_EQ(s.geom.fw[0], 17);
    EXPECT_EQ(s.geom.fw[1], 9);
    EXPECT_EQ(s.geom.fw[2], 5);
    EXPECT_EQ(s.geom.fw[3], 3);
    EXPECT_EQ(s.geom.sc_w[3], 240);
    EXPECT_EQ(s.geom.sc_h[3], 135);
    s.opt.kernelscale = 4.0;   /* not a valid kernelscale, but the largest filter */
    vq::fvif::fill_geom(s, 1920, 1080);
    EXPECT_EQ(s.geom.fw[0], 69);
    EXPECT_LE(s.geom.fw[0], VQ_FVIF_MAX_TAPS);
    for (int k = 0; k < 4; k++) {   /* symmetric, bit for bit; sums near 1 */
        float sum = 0;
        for (int i = 0; i < s.geom.fw[k]; i++) {
            EXPECT_EQ(s.geom.taps[k][i], s.geom.taps[k][s.geom.fw[k] - 1 - i]);
            sum += s.geom.taps[k][i];
        }
        EXPECT_NEAR(sum, 1.0f, 1e-5f);
    }
    /* the taps of scale 0 at kernelscale 1: sigma 17 / 5 = 3.4; neighbours'
     * ratio exp((2k+1) / (2 sigma^2)) */
    vq::fvif::Setup d;
    vq::fvif::fill_geom(d, 1920, 1080);
    EXPECT_NEAR(d.geom.taps[0][8] / d.geom.taps[0][9], std::exp(1.0 / (2 * 3.4 * 3.4)), 1e-6);
    EXPECT_NEAR(d.geom.sigma_max_inv, 4.0 / 65025.0, 1e-12);
}

TEST(FloatVif, Log2Approx)
{
    for (int k = -126; k < 128; k++)
        EXPECT_EQ(vq_fvif_log2f(std::ldexp(1.0f, k)), (float)k) << k;
    EXPECT_TRUE(std::isinf(vq_fvif_log2f(0.0f)) && vq_fvif_log2f(0.0f) < 0);
    EXPECT_TRUE(std::isnan(vq_fvif_log2f(-1.0f)));
    /* the polynomial's error: below 1e-4 everywhere on [1, 2) (a wrong
     * coefficient of log2_poly_s shows here) */
    double worst = 0;
    for (int i = 0; i <= 100000; i++) {
        const float x = 1.0f + (float)i / 100000.0f;
        worst = std::fmax(worst, std::fabs((double)vq_fvif_log2f(x) - std::log2((double)x)));
    }
    EXPECT_LT(worst, 1e-4);
    EXPECT_GT(worst, 1e-7);   /* an approximation: not libm's log2 */
}

/* ---- the executors against a whole-image transcription ------------------- */

struct Frame {
    int w, h, bpc;
    std::vector<uint16_t> y;
    VqPlaneView view() const
    {
        VqPlaneView v;
        std::memset(&v, 0, sizeof(v));
        v.data = (const uint8_t *)y.data();
        v.pitch = (ptrdiff_t)w * 2;
        v.w = w;
        v.h = h;
        v.bytes = 2;
        v.step = 1;
        return v;
    }
};

Frame random_frame(std::mt19937 &rng, int w, int h, int bpc, const Frame *like)
{
    Frame f{ w, h, bpc, std::vector<uint16_t>((size_t)w * h) };
    const uint32_t mx = (1u << bpc) - 1;
    for (size_t i = 0; i < f.y.size(); i++) {
        if (like)   /* a distorted version: the reference plus noise, clipped */
            f.y[i] = (uint16_t)std::min<int64_t>(mx, std::max<int64_t>(0, (int64_t)like->y[i] + (int)(rng() % 41) - 20));
        else        /* smooth with texture: the statistic's branches all taken */
            f.y[i] = (uint16_t)(((i % w) * 7 + (i / w) * 3 + (rng() % 9) * ((i / 37) % 3)) * mx / (w * 7 + h * 3 + 16));
    }
    return f;
}

/* vif_tools.c's vif_filter1d_s, _sq_s, _xy_s: whole image, per row the
 * vertical pass into tmp, then the horizontal pass (kind 0: a, 1: a*a, 2: a*b) */
std::vector<float> filter_ref(const std::vector<float> &a, const std::vector<float> &b, int w, int h,
                              const float *f, int fw, int kind)
{
    std::vector<float> out((size_t)w * h), tmp((size_t)w);
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int fi = 0; fi < fw; fi++) {
                int ii = i - fw / 2 + fi;
                ii = ii < 0 ? -ii : (ii >= h ? 2 * h - ii - 2 : ii);
                const float x = a[(size_t)ii * w + j], y = b[(size_t)ii * w + j];
                acc += f[fi] * (kind == 0 ? x : kind == 1 ? x * x : x * y);
            }
            tmp[(size_t)j] = acc;
        }
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int fj = 0; fj < fw; fj++) {
                int jj = j - fw / 2 + fj;
                jj = jj < 0 ? -jj : (jj >= w ? 2 * w - jj - 2 : jj);
                acc += f[fj] * tmp[(size_t)jj];
            }
            out[(size_t)i * w + j] = acc;
        }
    }
    return out;
}

/* compute_vif's scores[] from the float images (VIF_OPT_HANDLE_BORDERS) */
void compute_vif_ref(const VqFloatVifGeom &g, std::vector<float> ref, std::vector<float> dis, double scores[8])
{
    int w = g.sw, h = g.sh;
    for (int s = 0; s < 4; s++) {
        const float *f = g.taps[s];
        const int fw = g.fw[s];
        if (s > 0) {
            const std::vector<float> m1 = filter_ref(ref, ref, w, h, f, fw, 0), m2 = filter_ref(dis, dis, w, h, f, fw, 0);
            const int nw = w / 2, nh = h / 2;
            std::vector<float> r((size_t)nw * nh), d((size_t)nw * nh);
            for (int i = 0; i < nh; i++)
                for (int j = 0; j < nw; j++) {
                    r[(size_t)i * nw + j] = m1[(size_t)(2 * i) * w + 2 * j];
                    d[(size_t)i * nw + j] = m2[(size_t)(2 * i) * w + 2 * j];
                }
            ref.swap(r);
            dis.swap(d);
            w = nw;
            h = nh;
        }
        if (s < g.first_scale)
            continue;
        const std::vector<float> mu1 = filter_ref(ref, ref, w, h, f, fw, 0), mu2 = filter_ref(dis, dis, w, h, f, fw, 0),
                                 xx = filter_ref(ref, ref, w, h, f, fw, 1), yy = filter_ref(dis, dis, w, h, f, fw, 1),
                                 xy = filter_ref(ref, dis, w, h, f, fw, 2);
        float an = 0, ad = 0;
        for (int i = 0; i < h; i++) {
            float rn = 0, rd = 0;
            for (int j = 0; j < w; j++) {
                const size_t k = (size_t)i * w + j;
                float n, d;
                vq_fvif_stat(mu1[k], mu2[k], xx[k], yy[k], xy[k], g.egl, g.sigma_nsq, g.sigma_max_inv, &n, &d);
                rn += n;
                rd += d;
            }
            an += rn;
            ad += rd;
        }
        scores[2 * s] = an;
        scores[2 * s + 1] = ad;
    }
}

std::vector<float> to_float(const Frame &f)
{
    std::vector<float> v(f.y.size());
    for (size_t i = 0; i < v.size(); i++)
        v[i] = f.bpc == 8 ? (float)f.y[i] + -128 : (float)f.y[i] / vq_speed_sample_scale(f.bpc) + -128;
    return v;
}

std::vector<float> prescale_ref(const VqFloatVifGeom &g, const std::vector<float> &src)
{
    if (!g.scaled)
        return src;
    std::vector<float> out((size_t)g.sw * g.sh);
    for (int y = 0; y < g.sh; y++)
        for (int x = 0; x < g.sw; x++)
            out[(size_t)y * g.sw + x] = vq_speed_prescale_at(g.method, src.data(), g.w, g.h, g.w, g.ratio_x, g.ratio_y,
                                                             x, y, g.lx0, g.ly0, g.lwx, g.lwy);
    return out;
}

TEST(FloatVif, ExecutorEqualsTranscription)
{
    std::mt19937 rng(7);
    const double ks[] = { 1.0, 0.5, 1.5, 2.0, 2.0 / 3.0, 1.0 / 2.25, 1.25 };
    const char *methods[] = { "nearest", "bilinear", "bicubic", "lanczos4" };
    const int depths[] = { 8, 10, 12, 16 };
    int cases = 0;
    for (int trial = 0; trial < 40; trial++) {
        vq::fvif::Setup s;
        s.opt.kernelscale = ks[rng() % 7];
        s.opt.prescale = rng() % 3 ? 1.0 : (rng() % 2 ? 0.75 : 1.3);
        s.opt.prescale_method = methods[rng() % 4];
        s.opt.enhn_gain_limit = rng() % 2 ? 100.0 : 1.0 + (rng() % 10) / 10.0;
        s.opt.sigma_nsq = rng() % 2 ? 2.0 : 0.25 + (rng() % 20) / 4.0;
        s.opt.skip_scale0 = rng() % 5 == 0;
        const int w = 40 + (int)(rng() % 260), h = 36 + (int)(rng() % 200), bpc = depths[rng() % 4];
        if (!vq::fvif::check(s.opt, w, h, bpc).empty())
            continue;
        vq::fvif::fill_geom(s, w, h);
        const Frame r = random_frame(rng, w, h, bpc, nullptr), d = random_frame(rng, w, h, bpc, &r);
        double want[8] = { 0 };
        compute_vif_ref(s.geom, prescale_ref(s.geom, to_float(r)), prescale_ref(s.geom, to_float(d)), want);
        /* one thread */
        VqFloatVifCpu *c = vq_fvif_cpu_alloc(&s.geom);
        ASSERT_TRUE(c);
        std::vector<int64_t> w1(s.geom.words, -1), w2(s.geom.words, -1);
        vq_fvif_cpu_run(c, &s.geom, r.view(), d.view(), bpc, w1.data());
        /* bands of each operation, in reverse order */
        for (int step = 0; step < VQ_FVIF_CPU_STEPS; step++) {
            VqFvifOp ops[2];
            const int n = vq_fvif_cpu_step_ops(&s.geom, step, ops);
            for (int q = n - 1; q >= 0; q--) {
                const int nb = 1 + (int)(rng() % 5);
                for (int b = nb - 1; b >= 0; b--)
                    vq_fvif_cpu_rows(c, &s.geom, ops[q], r.view(), d.view(), bpc, w2.data(),
                                     ops[q].rows * b / nb, ops[q].rows * (b + 1) / nb);
            }
        }
        vq_fvif_cpu_free(c);
        ASSERT_EQ(0, std::memcmp(w1.data(), w2.data(), w1.size() * 8)) << "trial " << trial;
        for (int k = s.geom.first_scale; k < 4; k++) {
            float n, dd;
            vq::fvif::scale_sums(s.geom, w1.data(), k, &n, &dd);
            EXPECT_TRUE(same(n, want[2 * k]) && same(dd, want[2 * k + 1]))
                << "trial " << trial << " " << w << "x" << h << " scale " << k << ": " << n << " " << want[2 * k];
        }
        cases++;
    }
    EXPECT_GT(cases, 25);
}

/* vmaf_image_sad_c (with motion_add_scale1) on two blurred images */
float sad_ref(const std::vector<float> &a, const std::vector<float> &b, int w, int h, bool scale1)
{
    float acc = 0;
    for (int i = 0; i < h; i++) {
        float line = 0;
        for (int j = 0; j < w; j++)   /* C's fabs: a double */
            line = (float)((double)line + std::fabs((double)(a[(size_t)i * w + j] - b[(size_t)i * w + j])));
        acc += line;
    }
    const float m0 = (float)(acc / (w * h));
    if (!scale1)
        return m0;
    const int sw = (int)(w * 0.5 + 0.5), sh = (int)(h * 0.5 + 0.5);
    const float rx = (float)w / sw, ry = (float)h / sh;
    float acc1 = 0;
    for (int y = 0; y < sh; y++) {
        float line = 0;
        for (int x = 0; x < sw; x++) {
            const float p = vq_speed_bilinear(a.data(), w, h, w, vq_speed_scale_pos(x, rx), vq_speed_scale_pos(y, ry));
            const float q = vq_speed_bilinear(b.data(), w, h, w, vq_speed_scale_pos(x, rx), vq_speed_scale_pos(y, ry));
            line = (float)((double)line + std::fabs((double)(p - q)));
        }
        acc1 += line;
    }
    return m0 + (float)(acc1 / (sw * sh));
}

/* convolution_f32_c_s: convolution_y_c_s into tmp, convolution_x_c_s out */
std::vector<float> blur_ref(const std::vector<float> &src, int w, int h, const float *f, int fw)
{
    const std::vector<float> tmp = [&] {
        std::vector<float> t((size_t)w * h);
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++) {
                float acc = 0;
                for (int k = 0; k < fw; k++) {
                    int ii = i - fw / 2 + k;
                    ii = ii < 0 ? -ii : (ii >= h ? h - (ii - h + 2) : ii);
                    acc += f[k] * src[(size_t)ii * w + j];
                }
                t[(size_t)i * w + j] = acc;
            }
        return t;
    }();
    std::vector<float> out((size_t)w * h);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int k = 0; k < fw; k++) {
                int jj = j - fw / 2 + k;
                jj = jj < 0 ? -jj : (jj >= w ? w - (jj - w + 2) : jj);
                acc += f[k] * tmp[(size_t)i * w + jj];
            }
            out[(size_t)i * w + j] = acc;
        }
    return out;
}

TEST(FloatMotion, ExecutorEqualsTranscription)
{
    std::mt19937 rng(11);
    const int depths[] = { 8, 10, 12, 16 };
    for (int trial = 0; trial < 30; trial++) {
        vq::fmotion::Options o;
        o.add_scale1 = rng() % 2;
        o.filter_size = (int)(rng() % 10);
        const int w = 33 + (int)(rng() % 200), h = 33 + (int)(rng() % 150), bpc = depths[rng() % 4];
        const VqFloatMotionGeom g = vq::fmotion::geom(o, w, h, 0, 0);
        VqFloatMotionCpu *m1 = vq_fmotion_cpu_alloc(&g), *m2 = vq_fmotion_cpu_alloc(&g);
        ASSERT_TRUE(m1 && m2);
        std::vector<float> prev;
        Frame f = random_frame(rng, w, h, bpc, nullptr);
        for (int n = 0; n < 3; n++) {
            f = random_frame(rng, w, h, bpc, &f);
            const VqPlaneView planes[3] = { f.view(), f.view(), f.view() };
            std::vector<int64_t> a(g.words, -1), b(g.words, -1);
            vq_fmotion_cpu_run(m1, &g, planes, bpc, a.data());
            for (int step = 0; step < VQ_FMOTION_CPU_STEPS; step++) {
                const int rows = vq_fmotion_cpu_step_rows(&g, step, 0);
                const int nb = 1 + (int)(rng() % 4);
                for (int k = nb - 1; k >= 0; k--)
                    vq_fmotion_cpu_rows(m2, &g, step, 0, planes[0], bpc, b.data(), rows * k / nb, rows * (k + 1) / nb);
            }
            vq_fmotion_cpu_commit(m2);
            ASSERT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * 8)) << "trial " << trial << " frame " << n;
            const std::vector<float> cur = blur_ref(to_float(f), w, h, g.taps, g.fw);
            const double got = vq::fmotion::score(g, a.data());
            const double want = n ? (double)sad_ref(prev, cur, w, h, o.add_scale1) : 0.0;
            EXPECT_TRUE(same(got, want)) << "trial " << trial << " frame " << n << ": " << got << " != " << want;
            prev = cur;
        }
        vq_fmotion_cpu_free(m1);
        vq_fmotion_cpu_free(m2);
    }
}

}  // namespace
