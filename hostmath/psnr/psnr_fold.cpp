/* psnr_fold.cpp - psnr on the host: see psnr_fold.h.  Built with
 * -ffp-contract=off: each expression as integer_psnr.c writes it. */
#include <math.h>

#include "psnr_fold.h"

#define MAX_D(x, y) (((x) > (y)) ? (x) : (y))
#define MIN_D(x, y) (((x) < (y)) ? (x) : (y))

void vq_psnr_params_init(VqPsnrParams *p, int bpc, int reduced_hbd_peak, double min_sse,
                         const VqPsnrLayout *l, int nplanes)
{
    const unsigned ubpc = (unsigned)bpc;
    int i;

    p->bpc = bpc;
    /* init(): "255 * 1 << (bpc - 8)" is (255 * 1) << (bpc - 8) */
    p->peak = reduced_hbd_peak ? (uint32_t)(255 * 1 << (ubpc - 8)) : (uint32_t)((1 << ubpc) - 1);
    for (i = 0; i < 3; i++) {
        if (min_sse != 0.0 && i < nplanes) {
            const unsigned w = (unsigned)(i ? l->cw : l->w);
            const unsigned h = (unsigned)(i ? l->ch : l->h);
            const double mse = min_sse / (w * h);
            p->psnr_max[i] = ceil(10. * log10(p->peak * p->peak / mse));
        } else if (min_sse != 0.0) {
            p->psnr_max[i] = 0.0;   /* a plane not scored: never read */
        } else {
            p->psnr_max[i] = (6 * ubpc) + 12;
        }
    }
}

void vq_psnr_fold_params(const VqPsnrParams *pp, const VqPsnrLayout *l, const int64_t *rows,
                         int nplanes, double psnr[3], double mse_out[3], uint64_t sse_out[3])
{
    int p, i;

    for (p = 0; p < nplanes && p < 3; p++) {
        const unsigned w = (unsigned)(p ? l->cw : l->w);
        const unsigned h = (unsigned)(p ? l->ch : l->h);
        const int64_t *row_sse = rows + l->off[p];
        uint64_t sse = 0;
        double mse;

        if (pp->bpc == 8) {
            for (i = 0; i < (int)h; i++)
                sse += (uint32_t)row_sse[i];    /* the 8-bit path's uint32 sse_inner */
        } else {
            for (i = 0; i < (int)h; i++)
                sse += (uint64_t)row_sse[i];
        }
        mse = ((double)sse) / (w * h);          /* w * h in unsigned, as there */
        if (pp->bpc == 8) {
            const uint8_t peak = 255;           /* peak * peak: int */
            psnr[p] = MIN_D(10. * log10(peak * peak / MAX_D(mse, 1e-16)), pp->psnr_max[p]);
        } else {
            const uint32_t peak = pp->peak;     /* peak * peak: uint32 */
            psnr[p] = MIN_D(10. * log10(peak * peak / MAX_D(mse, 1e-16)), pp->psnr_max[p]);
        }
        if (mse_out)
            mse_out[p] = mse;
        if (sse_out)
            sse_out[p] = sse;
    }
}

void vq_psnr_fold(const VqPsnrLayout *l, const int64_t *rows, int nplanes, int bpc, double out[3])
{
    VqPsnrParams pp;
    vq_psnr_params_init(&pp, bpc, 0, 0.0, l, nplanes);
    vq_psnr_fold_params(&pp, l, rows, nplanes, out, nullptr, nullptr);
}

double vq_apsnr(uint32_t peak, uint64_t sse, uint64_t n_pixels)
{
    /* flush(): s->peak is uint32_t, the sums uint64_t */
    const double apsnr = 10 * (log10(peak * peak) + log10(n_pixels) - log10(sse));
    const double max_apsnr = ceil(10 * log10(peak * peak * n_pixels * 2));
    return MIN_D(apsnr, max_apsnr);
}
