/*
 * scale_filter.h - swscale's bicubic filter tables, built on the host as
 * FFmpeg 7.1's libswscale/utils.c initFilter builds them (int64 fixed
 * point, the same reduction, border folding and error-diffusing
 * normalisation), for the sizes and chroma positions FFmpeg's scale filter
 * gives swscale, with x86's filter alignment (horizontal 4, vertical 2).
 */
#ifndef VQ_SCALE_FILTER_H
#define VQ_SCALE_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "scale_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A picture format: size, bit depth, chroma subsampling (log2), planes */
typedef struct VqScaleFormat {
    int32_t w, h;
    int32_t bpc;                /* 8..16 */
    int32_t log2_cw, log2_ch;   /* 0..2 */
    int32_t nplanes;            /* 1 or 3 */
} VqScaleFormat;

/* Whether src can be scaled to dst exactly: 0, or VQ_EINVAL with a message
 * naming the reason (different bit depth or subsampling, source larger
 * than the destination in either direction, unsupported depth, mode). */
int vq_scale_check(const VqScaleFormat *src, const VqScaleFormat *dst, int mode, char *msg,
                   size_t msglen);

/* Builds the plan (*plan NULL on failure).  0, VQ_EINVAL (message as
 * above) or VQ_ENOMEM. */
int vq_scale_plan_create(VqScalePlan **plan, const VqScaleFormat *src, const VqScaleFormat *dst,
                         int mode, char *msg, size_t msglen);
void vq_scale_plan_free(VqScalePlan *plan);

#ifdef __cplusplus
}

#include <vector>

namespace vq {

/* One filter as initFilter returns it. */
struct ScaleFilterTable {
    int src_n = 0, dst_n = 0, size = 0;
    std::vector<int32_t> pos;   /* dst_n */
    std::vector<int16_t> coef;  /* dst_n * size */
};

/*
 * initFilter(..., xInc = inc, srcW = src_n, dstW = dst_n, filterAlign =
 * align, one, flags = SWS_BICUBIC, cpu_flags = x86 with MMX, no src/dst
 * vectors, param = {param0, param1}, srcPos, dstPos).  SWS_PARAM_DEFAULT
 * (123456) for a param gives swscale's default (B = 0, C = 0.6).  Throws
 * vq::Error when swscale would fail or when a nonzero coefficient would
 * fall outside the source (swscale then reads memory past the row).
 */
ScaleFilterTable scale_init_filter(int64_t inc, int src_n, int dst_n, int align, int one,
                                   int src_pos, int dst_pos, double param0, double param1);

}  // namespace vq
#endif
#endif /* VQ_SCALE_FILTER_H */
