/*
 * scale_exec.h - the upscaler's plan and its two executors (CPU:
 * cpu_scale.cpp, CUDA: cuda_scale.cu), around kernels/scale.h.
 *
 * A VqScalePlan (built on the host by hostmath/scale_filter.h, once per
 * size pair) holds swscale's four filter tables.  An executor state owns
 * the 15/19-bit intermediate rows and the output planes; a run scales one
 * picture (1 or 3 planes) into them, and vq_scale_*_output() gives views of
 * the result to read it as a picture of the destination size:
 *     bpc 8:      uint8 samples,  pitch = dst plane width
 *     bpc 9..16:  uint16 samples (LSB-aligned, shift 0), pitch = 2 * width
 * The output is overwritten by the next run on the same state: a picture
 * still being scored needs a state of its own.
 */
#ifndef VQ_SCALE_EXEC_H
#define VQ_SCALE_EXEC_H

#include <stdint.h>

#include "scale.h"
#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqScalePlanePlan {
    int32_t src_w, src_h, dst_w, dst_h;
    VqScaleFilter h;            /* dst_w outputs; host memory owned by the plan */
    VqScaleFilter v;            /* dst_h outputs */
    /* mode VQ_SCALE_BICUBIC_X86 with 8-bit output: destination rows
     * >= c_row_begin are filtered with the C arithmetic (swscale switches
     * to its C output functions for luma rows dstH - 2 and later); in every
     * other case c_row_begin = 0 */
    int32_t c_row_begin;
} VqScalePlanePlan;

typedef struct VqScalePlan {
    int32_t bpc;                /* 8, 9, 10, 12, 14 or 16: source and destination */
    int32_t mode;               /* VQ_SCALE_BICUBIC or VQ_SCALE_BICUBIC_X86 */
    int32_t nplanes;            /* 1 (gray) or 3 */
    int32_t identity;           /* same size: the output is a copy of the input */
    int32_t log2_cw, log2_ch;   /* chroma subsampling */
    VqScalePlanePlan plane[3];  /* planes 1 and 2 share their tables */
    void *store;                /* the tables' owner (hostmath/scale_filter.cpp) */
} VqScalePlan;

/* ---- CPU --------------------------------------------------------------- */

typedef struct VqScaleCpu VqScaleCpu;

/* Allocates the intermediate rows and output planes (the plan must outlive
 * the state).  0, VQ_EINVAL (bad plan) or VQ_ENOMEM. */
int  vq_scale_cpu_alloc(VqScaleCpu **s, const VqScalePlan *plan);
void vq_scale_cpu_free(VqScaleCpu *s);

/* Scales the nplanes planes of src (host memory; sizes those of the plan's
 * source, any layout a VqPlaneView describes) on the calling thread.
 * 0, or VQ_EINVAL on views of another size. */
int  vq_scale_cpu_run(VqScaleCpu *s, const VqPlaneView src[3]);

/* The same work in pieces, for threads: first the horizontal pass of every
 * source row of plane p (row_begin..row_end-1 of src_h; pieces may run
 * concurrently), then, when the whole horizontal pass of p is done, the
 * vertical pass of destination rows row_begin..row_end-1 of dst_h. */
int  vq_scale_cpu_hpass(VqScaleCpu *s, const VqPlaneView src[3], int p, int row_begin, int row_end);
int  vq_scale_cpu_vpass(VqScaleCpu *s, int p, int row_begin, int row_end);

/* Views of the output planes (host memory, valid until free). */
void vq_scale_cpu_output(const VqScaleCpu *s, VqPlaneView out[3]);

/* ---- CUDA (cuda_scale.cu; not built without nvcc) ---------------------- */

typedef struct VqScaleCuda VqScaleCuda;

/* cudaMalloc of the tables, intermediate rows and output planes; the tables
 * are uploaded (synchronously, once).  0 or a cudaError_t value
 * (cudaErrorInvalidValue on a bad plan). */
int  vq_scale_cuda_alloc(VqScaleCuda **s, const VqScalePlan *plan);
void vq_scale_cuda_free(VqScaleCuda *s);

/* Enqueues the scaling of src (device memory) on stream (a cudaStream_t;
 * NULL: the legacy default stream): 2 kernels (1 copy kernel when the
 * plan is the identity).  No allocation, no synchronisation.  0 or a
 * cudaError_t value. */
int  vq_scale_cuda_run(VqScaleCuda *s, const VqPlaneView src[3], void *stream);

/* Views of the output planes (device memory, valid until free). */
void vq_scale_cuda_output(const VqScaleCuda *s, VqPlaneView out[3]);

#ifdef __cplusplus
}
#endif
#endif /* VQ_SCALE_EXEC_H */
