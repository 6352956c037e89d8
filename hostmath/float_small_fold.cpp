/* float_small_fold.cpp - see float_small_fold.h.  Every expression keeps
 * the reference's types (int products made double at the division, the
 * float quotient of ansnr's sums, MAX of a float and a double in double). */
#include "float_small_fold.h"

#include <cmath>

#include "float_small_exec.h"

extern "C" int vq_float_peak(int bpc, double *peak, double *psnr_max)
{
    switch (bpc) {
    case 8:
        *peak = 255.0, *psnr_max = 60.0;
        return 0;
    case 10:
        *peak = 255.75, *psnr_max = 72.0;
        return 0;
    case 12:
        *peak = 255.9375, *psnr_max = 84.0;
        return 0;
    case 16:
        *peak = 255.99609375, *psnr_max = 108.0;
        return 0;
    default:
        return -1;
    }
}

extern "C" double vq_float_psnr_fold(const int64_t *section, int w, int h, int bpc)
{
    double peak = 0, psnr_max = 0;
    vq_float_peak(bpc, &peak, &psnr_max);
    double noise = vq_fs_word_double(section[VQ_FS_NOISE]);
    noise /= (w * h);                   /* "noise_ /= (w * h)": an int product */
    const double eps = 1e-10;
    const double m = noise > eps ? noise : eps;
    const double score = 10 * std::log10(peak * peak / m);
    return score < psnr_max ? score : psnr_max;
}

extern "C" void vq_float_moment_fold(const int64_t *section, int w, int h, double out[4])
{
    static const int k[4] = { VQ_FS_REF1, VQ_FS_DIS1, VQ_FS_REF2, VQ_FS_DIS2 };
    for (int i = 0; i < 4; i++) {
        double cum = vq_fs_word_double(section[k[i]]);
        cum /= (w * h);
        out[i] = cum;
    }
}

extern "C" void vq_float_ansnr_fold(const int64_t *section, int w, int h, int bpc, double out[2])
{
    double peak = 0, psnr_max = 0;
    vq_float_peak(bpc, &peak, &psnr_max);
    /* ansnr_mse_s: sig_accum += row sum, noise_accum += row sum, floats, rows in order */
    float sig = 0, noise = 0;
    for (int i = 0; i < h; i++) {
        sig += vq_fs_word_float(section[2 * (size_t)i]);
        noise += vq_fs_word_float(section[2 * (size_t)i + 1]);
    }
    /* "noise==0 ? psnr_max : 10.0 * log10(sig / noise)": sig / noise in float */
    out[0] = noise == 0 ? psnr_max : 10.0 * std::log10((double)(sig / noise));
    /* "MIN(10 * log10(peak * peak * w * h / MAX(noise, eps)), psnr_max)":
     * MAX of a float and a double is a double; the product left to right */
    const double eps = 1e-10;
    const double m = noise > eps ? (double)noise : eps;
    const double v = 10 * std::log10(peak * peak * w * h / m);
    out[1] = v < psnr_max ? v : psnr_max;
}
