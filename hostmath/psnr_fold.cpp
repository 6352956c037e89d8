/* psnr_fold.c - psnr on the host: see psnr_fold.h. */
#include <math.h>

#include "psnr_fold.h"

#define MAX_D(x, y) (((x) > (y)) ? (x) : (y))
#define MIN_D(x, y) (((x) < (y)) ? (x) : (y))

void vq_psnr_fold(const VqRowLayout *l, const int64_t *rows, int nplanes, int bpc, double out[3])
{
    /* psnr_max, as init() makes it: (6 * bpc) + 12 in unsigned, then double */
    const double psnr_max = (double)((6 * (unsigned)bpc) + 12);
    int p, i;

    for (p = 0; p < nplanes && p < 3; p++) {
        const unsigned w = (unsigned)(p ? l->cw : l->w);
        const unsigned h = (unsigned)(p ? l->ch : l->h);
        const int64_t *row_sse = rows + l->psnr_off[p];
        uint64_t sse = 0;
        double mse;

        if (bpc == 8) {
            for (i = 0; i < (int)h; i++)
                sse += (uint32_t)row_sse[i];    /* the 8-bit path's uint32 sse_inner */
        } else {
            for (i = 0; i < (int)h; i++)
                sse += (uint64_t)row_sse[i];
        }
        mse = ((double)sse) / (w * h);          /* w * h in unsigned, as there */
        if (bpc == 8) {
            const uint8_t peak = 255;           /* peak * peak: int */
            out[p] = MIN_D(10. * log10(peak * peak / MAX_D(mse, 1e-16)), psnr_max);
        } else {
            const uint32_t peak = (1u << bpc) - 1;   /* peak * peak: uint32 */
            out[p] = MIN_D(10. * log10(peak * peak / MAX_D(mse, 1e-16)), psnr_max);
        }
    }
}
