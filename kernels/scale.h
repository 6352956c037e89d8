/*
 * scale.h - the per-sample arithmetic of FFmpeg 7.1's swscale bicubic
 * upscaler for planar YUV of one bit depth (source and destination share
 * the format), as libswscale runs it on x86-64.  docs/scale.md has the
 * derivation; hostmath/scale_filter.cpp builds the coefficient tables
 * (swscale's initFilter) that these functions read.
 *
 * Two passes per plane, as swscale's horizontal and vertical scalers:
 *  1. horizontal, per source row and destination column: 14-bit
 *     coefficients times the source samples, summed in int32, shifted to a
 *     15-bit intermediate in int16 (bit depths 8..14: hScale8To15_c,
 *     hScale16To15_c) or a 19-bit one in int32 (16 bits: hScale16To19_c);
 *  2. vertical, per destination row and column: 12-bit coefficients times
 *     the intermediate rows (yuv2planeX_*_c, yuv2plane1_*_c when the
 *     vertical filter has one tap).
 * Mode VQ_SCALE_BICUBIC_X86 (no SWS_ACCURATE_RND) replaces, for 8-bit
 * output, the vertical filter of all but the last rows by the arithmetic of
 * ff_yuv2yuvX_{mmxext,sse3,avx2} (x86/yuv2yuvX.asm): 16-bit products
 * truncated by pmulhw, summed with 16-bit wrap.
 */
#ifndef VQ_SCALE_H
#define VQ_SCALE_H

#include "vq_common.h"

/* the two modes (scale=W:H:flags=...) */
#define VQ_SCALE_BICUBIC     0  /* bicubic+accurate_rnd: swscale's C arithmetic */
#define VQ_SCALE_BICUBIC_X86 1  /* bicubic: what swscale's x86 SIMD gives */

/* swscale's 8-bit dither for sources of 8 bits (sws_pb_64: every entry 64) */
#define VQ_SCALE_DITHER8 64

/* One direction of one plane: output sample k reads source samples
 * pos[k] .. pos[k] + size - 1 with coefficients coef[k * size + j]. */
typedef struct VqScaleFilter {
    const int32_t *pos;
    const int16_t *coef;
    int32_t n;          /* output samples */
    int32_t size;       /* taps */
} VqScaleFilter;

/* ---- horizontal pass -------------------------------------------------- */

/* The taps of output x that lie inside a source row of src_w samples.
 * Taps past the row's end carry coefficient 0 (initFilter folds the edge
 * inward; swscale reads its padded line there): they are not read. */
VQ_HD int vq_scale_h_taps(const VqScaleFilter f, int src_w, int x)
{
    const int left = src_w - f.pos[x];
    return left < f.size ? left : f.size;
}

/* one tap of the horizontal sum: acc + sample * coef in int32 (swscale's
 * int accumulator; the unsigned arithmetic only makes a wrap defined, none
 * occurs) */
VQ_HD uint32_t vq_scale_h_tap(uint32_t acc, uint32_t sample, int16_t coef)
{
    return acc + (uint32_t)((int32_t)sample * (int32_t)coef);
}

/* sum_j src(row, pos + j) * coef_j over the taps inside the row */
VQ_HD int32_t vq_scale_h_sum(const VqPlaneView src, int row, const VqScaleFilter f, int x)
{
    const int p = f.pos[x];
    const int16_t *c = f.coef + (ptrdiff_t)x * f.size;
    const int n = vq_scale_h_taps(f, src.w, x);
    uint32_t acc = 0;
    for (int j = 0; j < n; j++)
        acc = vq_scale_h_tap(acc, vq_sample(src, row, p + j), c[j]);
    return (int32_t)acc;
}

/* hScale8To15_c / hScale16To15_c: >> (bpc - 1), clipped above at 2^15 - 1 */
VQ_HD int16_t vq_scale_h_to15(int32_t sum, int bpc)
{
    const int32_t v = sum >> (bpc - 1);
    return (int16_t)(v < 32767 ? v : 32767);
}

/* hScale16To19_c for 16-bit sources: >> 11, clipped above at 2^19 - 1 */
VQ_HD int32_t vq_scale_h_to19(int32_t sum)
{
    const int32_t v = sum >> 11;
    return v < 0x7ffff ? v : 0x7ffff;
}

/* ---- vertical pass ---------------------------------------------------- */
/* col points at the intermediate sample (first tap row, column x); stride
 * is the distance between intermediate rows in elements. */

VQ_HD uint32_t vq_scale_clip(int32_t v, int32_t maxv)
{
    return (uint32_t)(v < 0 ? 0 : v > maxv ? maxv : v);
}

/* yuv2planeX_8_c: (dither << 12) + sum in int32 (wrapping), >> 19 */
VQ_HD uint32_t vq_scale_v8_c(const int16_t *col, ptrdiff_t stride, const int16_t *coef, int size)
{
    uint32_t val = (uint32_t)VQ_SCALE_DITHER8 << 12;
    for (int j = 0; j < size; j++)
        val += (uint32_t)((int32_t)col[j * stride] * (int32_t)coef[j]);
    return vq_scale_clip((int32_t)val >> 19, 255);
}

/*
 * ff_yuv2yuvX_<simd> (called with filterSize - 1): the accumulator starts
 * at (dither + 8 * (size - 1)) >> 4, each tap adds pmulhw(coef, src) =
 * (coef * src) >> 16, every add wraps in int16; then >> 3 (psraw) and
 * packuswb's unsigned saturation.
 */
VQ_HD uint32_t vq_scale_v8_x86(const int16_t *col, ptrdiff_t stride, const int16_t *coef, int size)
{
    int16_t acc = (int16_t)((VQ_SCALE_DITHER8 + 8 * (size - 1)) >> 4);
    for (int j = 0; j < size; j++) {
        const int16_t hi = (int16_t)(((int32_t)coef[j] * (int32_t)col[j * stride]) >> 16);
        acc = (int16_t)(uint16_t)((uint32_t)(uint16_t)acc + (uint32_t)(uint16_t)hi);
    }
    return vq_scale_clip((int32_t)acc >> 3, 255);
}

/* yuv2plane1_8_c (one tap): (src + dither) >> 7 */
VQ_HD uint32_t vq_scale_v8_one(const int16_t *col)
{
    return vq_scale_clip(((int32_t)col[0] + VQ_SCALE_DITHER8) >> 7, 255);
}

/* yuv2planeX_10_c_template for 9..14 bits: 2^(s-1) + sum, >> s, s = 27 - bpc */
VQ_HD uint32_t vq_scale_vn(const int16_t *col, ptrdiff_t stride, const int16_t *coef, int size,
                           int bpc)
{
    const int s = 27 - bpc;
    uint32_t val = 1u << (s - 1);
    for (int j = 0; j < size; j++)
        val += (uint32_t)((int32_t)col[j * stride] * (int32_t)coef[j]);
    return vq_scale_clip((int32_t)val >> s, (1 << bpc) - 1);
}

/* yuv2plane1_10_c_template: (src + 2^(s-1)) >> s, s = 15 - bpc */
VQ_HD uint32_t vq_scale_vn_one(const int16_t *col, int bpc)
{
    const int s = 15 - bpc;
    return vq_scale_clip(((int32_t)col[0] + (1 << (s - 1))) >> s, (1 << bpc) - 1);
}

/* yuv2planeX_16_c_template: 2^14 - 2^30 + sum (wrapping), >> 15,
 * clipped to int16, + 0x8000 */
VQ_HD uint32_t vq_scale_v16(const int32_t *col, ptrdiff_t stride, const int16_t *coef, int size)
{
    uint32_t val = (1u << 14) - 0x40000000u;
    for (int j = 0; j < size; j++)
        val += (uint32_t)col[j * stride] * (uint32_t)(int32_t)coef[j];
    const int32_t v = (int32_t)val >> 15;
    const int32_t c = v < -32768 ? -32768 : v > 32767 ? 32767 : v;
    return (uint32_t)(c + 0x8000);
}

/* yuv2plane1_16_c_template: (src + 4) >> 3, clipped to uint16 */
VQ_HD uint32_t vq_scale_v16_one(const int32_t *col)
{
    return vq_scale_clip((int32_t)((uint32_t)col[0] + 4u) >> 3, 65535);
}

/* One output sample of the vertical pass for bit depths 8..14 (int16
 * intermediate).  x86: the SIMD arithmetic (8-bit output, more than one tap). */
VQ_HD uint32_t vq_scale_v_sample15(const int16_t *col, ptrdiff_t stride, const int16_t *coef,
                                   int size, int bpc, int x86)
{
    if (bpc == 8) {
        if (size == 1)
            return vq_scale_v8_one(col);
        return x86 ? vq_scale_v8_x86(col, stride, coef, size) : vq_scale_v8_c(col, stride, coef, size);
    }
    if (size == 1)
        return vq_scale_vn_one(col, bpc);
    return vq_scale_vn(col, stride, coef, size, bpc);
}

/* The same for 16 bits (int32 intermediate) */
VQ_HD uint32_t vq_scale_v_sample19(const int32_t *col, ptrdiff_t stride, const int16_t *coef,
                                   int size)
{
    if (size == 1)
        return vq_scale_v16_one(col);
    return vq_scale_v16(col, stride, coef, size);
}

#endif /* VQ_SCALE_H */
