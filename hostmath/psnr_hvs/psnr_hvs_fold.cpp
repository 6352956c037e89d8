/* psnr_hvs_fold.cpp - psnr_hvs on the host: see psnr_hvs_fold.h. */
#include <cmath>
#include <cstdio>
#include <cstring>

#include "psnr_hvs/psnr_hvs.h"
#include "psnr_hvs_fold.h"
#include "vqcuda.h"

extern "C" int vq_psnr_hvs_check(int bpc, int nplanes, const int w[3], const int h[3], char *msg,
                                 size_t msglen)
{
    static const char *const names[3] = { "luma", "cb", "cr" };
    char buf[256];
    buf[0] = 0;
    if (bpc > VQ_PSNR_HVS_MAX_BPC)
        snprintf(buf, sizeof(buf),
                 "psnr_hvs: bit depth %d refused (libvmaf's psnr_hvs takes at most %d bits)", bpc,
                 VQ_PSNR_HVS_MAX_BPC);
    else if (bpc < 8)
        snprintf(buf, sizeof(buf), "psnr_hvs: bit depth %d refused (8 to %d bits)", bpc,
                 VQ_PSNR_HVS_MAX_BPC);
    else if (nplanes != 3)
        snprintf(buf, sizeof(buf),
                 "psnr_hvs: gray input (no chroma planes) refused, as libvmaf refuses yuv400");
    else
        for (int p = 0; p < 3; p++)
            if (w[p] < VQ_PSNR_HVS_MIN_PLANE || h[p] < VQ_PSNR_HVS_MIN_PLANE) {
                snprintf(buf, sizeof(buf),
                         "psnr_hvs: %s plane %dx%d refused: it needs at least %dx%d samples for "
                         "one 8x8 block (libvmaf would return NaN)",
                         names[p], w[p], h[p], VQ_PSNR_HVS_MIN_PLANE, VQ_PSNR_HVS_MIN_PLANE);
                break;
            }
    if (!buf[0])
        return 0;
    if (msg && msglen) {
        strncpy(msg, buf, msglen - 1);
        msg[msglen - 1] = 0;
    }
    return VQ_EINVAL;
}

/* calc_psnrhvs()'s tail, float: ret /= pixels; ret /= samplemax * samplemax */
static float plane_score(int64_t word, int w, int h, int bpc)
{
    float ret = vq_f32_from_bits((uint32_t)word);
    const int pixels = vq_psnr_hvs_nblocks(w) * vq_psnr_hvs_nblocks(h) * 64;   /* int */
    const int32_t samplemax = (1 << bpc) - 1;
    ret /= pixels;                    /* (float)pixels: rounds above 2^24 (8K luma) */
    ret /= samplemax * samplemax;     /* int product, then (float) */
    return ret;
}

/* convert_score_db(score, 1.0) */
static double score_db(double score)
{
    return 10 * (-1 * log10(1.0 * score));
}

extern "C" void vq_psnr_hvs_fold(const int64_t words[3], const int w[3], const int h[3], int bpc,
                                 double out[VQ_PSNR_HVS_NSCORES])
{
    double score[3];
    for (int p = 0; p < 3; p++) {
        score[p] = plane_score(words[p], w[p], h[p], bpc);   /* float returned as double */
        out[p] = score_db(score[p]);
    }
    out[VQ_PSNR_HVS_ALL] = score_db(score[0] * .8 + .1 * (score[1] + score[2]));
}
