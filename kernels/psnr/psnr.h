/*
 * psnr.h - the squared error of one sample pair, typed as libvmaf v3.2.0's
 * "psnr" extractor (integer_psnr.c) types it.
 *
 * 8-bit: e = (int16_t)(ref - dis); e * e in int, added to a uint32 per row
 *        (the row sum wraps mod 2^32: hostmath/psnr_fold.c applies that).
 * hbd:   e = (uint32_t)abs(ref - dis); e * e in uint32 (no wrap up to 16
 *        bits), added straight into a uint64 for the whole plane.
 * The executors store exact per-row sums in int64; only the fold differs.
 */
#ifndef VQ_PSNR_H
#define VQ_PSNR_H

#include "vq_common.h"

VQ_HD uint32_t vq_psnr_sq_err_8(uint32_t ref, uint32_t dis)
{
    const int16_t e = (int16_t)((int)ref - (int)dis);
    return (uint32_t)((int)e * (int)e);
}

VQ_HD uint32_t vq_psnr_sq_err_hbd(uint32_t ref, uint32_t dis)
{
    const int d = (int)ref - (int)dis;
    const uint32_t e = (uint32_t)(d < 0 ? -d : d);
    return e * e;
}

VQ_HD uint32_t vq_psnr_sq_err(uint32_t ref, uint32_t dis, int bpc)
{
    return bpc == 8 ? vq_psnr_sq_err_8(ref, dis) : vq_psnr_sq_err_hbd(ref, dis);
}

#endif /* VQ_PSNR_H */
