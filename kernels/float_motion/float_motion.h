/*
 * float_motion.h - the per-pixel arithmetic of libvmaf v3.2.0's
 * float_motion (feature/float_motion.c, motion.c's vmaf_image_sad_c,
 * motion_tools.h, common/convolution.c), typed as the reference types it;
 * docs/float-motion.md says what runs where.
 *
 *   - samples: picture_copy with offset -128 (vq_speed_to_float);
 *   - the blur (convolution_f32_c_s: convolution_y_c_s into tmp, then
 *     convolution_x_c_s): per output the vertical pass, taps top to bottom,
 *     "accum += filter[k] * v" in float from 0, mirrored rows, then the
 *     horizontal pass over those values, mirrored columns.  Its edge and
 *     middle loops compute the same sums in the same order (the middle ones
 *     need no mirror), so it is float_vif.h's vq_fvif_vpass / vq_fvif_hpass
 *     with motion_tools.h's taps;
 *   - the SAD (vmaf_image_sad_c): per row a float sum of |prev - cur|
 *     (fabs of the float difference, added in double and rounded to float:
 *     the same as a float add, double rounding being innocuous for a sum of
 *     two floats), columns left to right; the frame's sum of the rows and
 *     the division run on the host;
 *   - motion_add_scale1: both blurred images scaled to half size by
 *     vif_scale_frame_s' bilinear (speed.h's vq_speed_bilinear), then the
 *     same row sums.
 */
#ifndef VQ_FLOAT_MOTION_H
#define VQ_FLOAT_MOTION_H

#include "float_vif/float_vif.h"

#ifdef __cplusplus
extern "C" {
#endif

/* motion_tools.h's taps: double literals in float arrays */
#define VQ_FMOTION_MAX_TAPS 5

/* motion_filter_size 1: FILTER_5_NO_OP_s, 3: FILTER_3_s, else FILTER_5_s */
VQ_HD int vq_fmotion_taps(int filter_size, float taps[VQ_FMOTION_MAX_TAPS])
{
    if (filter_size == 1) {
        taps[0] = (float)0.0;
        taps[1] = (float)0.0;
        taps[2] = (float)1.0;
        taps[3] = (float)0.0;
        taps[4] = (float)0.0;
        return 5;
    }
    if (filter_size == 3) {
        taps[0] = (float)0.166378498;
        taps[1] = (float)0.667243004;
        taps[2] = (float)0.166378498;
        taps[3] = taps[4] = 0.0f;
        return 3;
    }
    taps[0] = (float)0.054488685;
    taps[1] = (float)0.244201342;
    taps[2] = (float)0.402619947;
    taps[3] = (float)0.244201342;
    taps[4] = (float)0.054488685;
    return 5;
}

/* What one float_motion option set needs at one picture size (the host
 * fills it: vq::fmotion::geom in hostmath/float_motion/float_motion_fold.cpp). */
typedef struct VqFloatMotionGeom {
    int nplanes;                /* 1, or 3 under motion_add_uv; 0 under motion_force_zero (nothing runs) */
    int w[3], h[3];             /* each plane as libvmaf's picture has it */
    int fw;                     /* taps */
    float taps[VQ_FMOTION_MAX_TAPS];
    int scale1;                 /* motion_add_scale1 */
    int sw[3], sh[3];           /* the half-size images: (int)(w * 0.5 + 0.5) */
    float ratio_x[3], ratio_y[3];   /* "(float)w / sw" */
    size_t row_off[3];          /* words into the section: plane p's SAD rows (h[p]) */
    size_t row1_off[3];         /* its scale1 SAD rows (sh[p]), under scale1 */
    size_t words;
} VqFloatMotionGeom;

/* a row word: the float's bits in the low 32 bits */
VQ_HD int64_t vq_fmotion_word(float v)
{
    return (int64_t)vq_f32_bits(v);
}

VQ_HD float vq_fmotion_value(int64_t w)
{
    return vq_f32_from_bits((uint32_t)(uint64_t)w);
}

/* a term of a row's SAD, "fabs(img1px - img2px)": the float difference
 * with its sign bit cleared */
VQ_HD float vq_fmotion_absdiff(float a, float b)
{
    const float d = a - b;
    return vq_f32_from_bits(vq_f32_bits(d) & 0x7FFFFFFFu);
}

/* "accum_line += fabs(img1px - img2px)" */
VQ_HD float vq_fmotion_add(float acc, float a, float b)
{
    return acc + vq_fmotion_absdiff(a, b);
}

/* sample (x, y) of the half-size image (sw x sh) of a blurred plane (w x
 * h): vif_scale_frame_bilinear_s */
VQ_HD float vq_fmotion_half(const float *src, int w, int h, ptrdiff_t stride, float ratio_x, float ratio_y,
                            int x, int y)
{
    return vq_speed_bilinear(src, w, h, (int)stride, vq_speed_scale_pos(x, ratio_x),
                             vq_speed_scale_pos(y, ratio_y));
}

#ifdef __cplusplus
}
#endif
#endif /* VQ_FLOAT_MOTION_H */
