/*
 * ssim_fold.cpp - float_ssim / float_ms_ssim on the host: see ssim_fold.h.
 *
 * Every libm call of the two extractors is here (pow, log10, ceil), with
 * double arguments as the reference's C passes them (a float argument is
 * promoted: std::pow must not pick its float overload).
 */
#include <cmath>
#include <cstdio>
#include <cstring>

#include "ssim_fold.h"

namespace {

double word(const int64_t *words, int k)
{
    double v;
    std::memcpy(&v, &words[k], sizeof(v));
    return v;
}

/* ms_ssim.c's g_alphas, g_betas, g_gammas (float) */
const float kAlpha[VQ_MS_SSIM_SCALES] = { 0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f };
const float kBeta[VQ_MS_SSIM_SCALES] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };
const float kGamma[VQ_MS_SSIM_SCALES] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };

/* init(): the clip of the dB score, from the frame's size and bit depth */
double max_db(const VqSsimGeom *g, const VqSsimOptions *o)
{
    if (!o->clip_db)
        return INFINITY;
    const unsigned w = (unsigned)g->w, h = (unsigned)g->h;
    const unsigned peak = (1u << g->bpc) - 1;
    const double mse = 0.5 / (w * h);
    return std::ceil(10. * std::log10(peak * peak / mse));
}

/* convert_to_db(): MIN(-10 log10(1 - score), max_db) */
double to_db(double score, double mx)
{
    const double x = -10. * std::log10(1 - score);
    return x < mx ? x : mx;
}

/* _iqa_ssim's means: (float)(sum / (double)(w * h)), w * h in int */
float mean(double sum, int w, int h)
{
    return (float)(sum / (double)(w * h));
}

void put(char *msg, size_t n, const char *text)
{
    if (msg && n)
        std::snprintf(msg, n, "%s", text);
}

} // namespace

extern "C" int vq_ssim_fold(const VqSsimGeom *g, const int64_t *words,
                            const VqSsimOptions *ssim_opt, const VqSsimOptions *ms_opt,
                            VqSsimScores *out, char *msg, size_t n)
{
    const VqSsimOptions none = { 0, 0, 0 };
    const int R2 = 2 * VQ_SSIM_WIN_R;
    if (!ssim_opt)
        ssim_opt = &none;
    if (!ms_opt)
        ms_opt = &none;

    if (g->features & VQ_SSIM_F_SSIM) {
        const int w = g->sw - R2, h = g->sh - R2;
        const float result = mean(word(words, VQ_SSIM_SUM_SSIM + 0), w, h);
        out->ssim_l = (double)mean(word(words, VQ_SSIM_SUM_SSIM + 1), w, h);
        out->ssim_c = (double)mean(word(words, VQ_SSIM_SUM_SSIM + 2), w, h);
        out->ssim_s = (double)mean(word(words, VQ_SSIM_SUM_SSIM + 3), w, h);
        double score = (double)result;
        if (ssim_opt->enable_db)
            score = to_db(score, max_db(g, ssim_opt));
        out->float_ssim = score;
    }

    if (g->features & VQ_SSIM_F_MS_SSIM) {
        double msssim = 1.0;
        for (int i = 0; i < VQ_MS_SSIM_SCALES; i++) {
            const int w = g->msw[i] - R2, h = g->msh[i] - R2;
            const float l = mean(word(words, VQ_MS_SSIM_SUM0 + 3 * i + 0), w, h);
            const float c = mean(word(words, VQ_MS_SSIM_SUM0 + 3 * i + 1), w, h);
            const float s = mean(word(words, VQ_MS_SSIM_SUM0 + 3 * i + 2), w, h);
            msssim *= std::pow((double)l, (double)kAlpha[i]) *
                      std::pow((double)c, (double)kBeta[i]) *
                      std::pow((double)s, (double)kGamma[i]);
            out->ms_l[i] = (double)l;
            out->ms_c[i] = (double)c;
            out->ms_s[i] = (double)s;
            if (msssim == INFINITY) {
                put(msg, n, "float_ms_ssim: the product of the scales is infinite "
                            "(libvmaf: \"ms_ssim is INFINITY\")");
                return -1;
            }
        }
        if (ms_opt->enable_db)
            msssim = to_db(msssim, max_db(g, ms_opt));
        out->float_ms_ssim = msssim;
    }
    return 0;
}

extern "C" int vq_ssim_outputs(const VqSsimScores *s, int ms, const VqSsimOptions *o, double *out)
{
    int n = 0;
    out[n++] = ms ? s->float_ms_ssim : s->float_ssim;
    if (!o || !o->enable_lcs)
        return n;
    if (!ms) {
        out[n++] = s->ssim_l;
        out[n++] = s->ssim_c;
        out[n++] = s->ssim_s;
        return n;
    }
    const double *const lcs[3] = { s->ms_l, s->ms_c, s->ms_s };   /* l of scales 0..4, c, s */
    for (int q = 0; q < 3; q++)
        for (int i = 0; i < VQ_MS_SSIM_SCALES; i++)
            out[n++] = lcs[q][i];
    return n;
}

extern "C" int vq_ms_ssim_check_size(int w, int h, char *msg, size_t n)
{
    /* ms_ssim.c: for each of the 5 scales, cur_w < 11 || cur_h < 11 fails,
     * then cur_w /= 2, cur_h /= 2 (truncating) */
    int cw = w, ch = h;
    for (int i = 0; i < VQ_MS_SSIM_SCALES; i++) {
        if (cw < VQ_SSIM_WIN || ch < VQ_SSIM_WIN) {
            if (msg && n)
                std::snprintf(msg, n,
                              "float_ms_ssim needs at least %dx%d luma samples (%dx%d given): "
                              "scale %d would be %dx%d, below the %dx%d window "
                              "(libvmaf: \"scale below 1x1\")",
                              VQ_MS_SSIM_MIN_SIZE, VQ_MS_SSIM_MIN_SIZE, w, h, i, cw, ch,
                              VQ_SSIM_WIN, VQ_SSIM_WIN);
            return -1;
        }
        cw /= 2;
        ch /= 2;
    }
    if (w > (1 << 14) || h > (1 << 14)) {
        put(msg, n, "float_ms_ssim: frames wider or taller than 16384 are not supported");
        return -1;
    }
    return 0;
}

extern "C" int vq_ssim_check_size(int w, int h, int scale_option, char *msg, size_t n)
{
    if (scale_option < 0 || scale_option > VQ_SSIM_MAX_SCALE) {
        if (msg && n)
            std::snprintf(msg, n, "float_ssim: scale %d outside 0..%d", scale_option,
                          VQ_SSIM_MAX_SCALE);
        return -1;
    }
    if (w <= 0 || h <= 0 || w > (1 << 14) || h > (1 << 14)) {
        if (msg && n)
            std::snprintf(msg, n, "float_ssim: frame size %dx%d not supported", w, h);
        return -1;
    }
    const int f = vq_ssim_auto_scale(w, h, scale_option);
    const int sw = f > 1 ? vq_ssim_decimated(w, f) : w;
    const int sh = f > 1 ? vq_ssim_decimated(h, f) : h;
    if (sw < VQ_SSIM_WIN || sh < VQ_SSIM_WIN) {
        if (msg && n)
            std::snprintf(msg, n,
                          "float_ssim: the %dx%d frame decimated by %d is %dx%d, below the "
                          "%dx%d window",
                          w, h, f, sw, sh, VQ_SSIM_WIN, VQ_SSIM_WIN);
        return -1;
    }
    return 0;
}

extern "C" int vq_ssim_check_bpc(int bpc, char *msg, size_t n)
{
    if (bpc == 8 || bpc == 10 || bpc == 12 || bpc == 16)
        return 0;
    if (msg && n)
        std::snprintf(msg, n, "float_ssim/float_ms_ssim: %d-bit video is not supported "
                              "(libvmaf converts 8, 10, 12 and 16 bits)", bpc);
    return -1;
}
