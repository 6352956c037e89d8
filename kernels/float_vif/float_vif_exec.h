/*
 * float_vif_exec.h - the float_vif executors around kernels/float_vif/float_vif.h.
 * A frame is a short list of steps; the rows of one step's operations may
 * run concurrently (row bands), the steps in order:
 *   0  CONVERT   the luma of both pictures to float (picture_copy), w x h
 *   1  PRESCALE  vif_scale_frame_s to sw x sh (only when the size changes)
 *   2  STAT 0, DEC 1    scale 0's row sums; scale 1's image (filter, even samples)
 *   3  STAT 1, DEC 2
 *   4  STAT 2, DEC 3
 *   5  STAT 3
 * (STAT 0 is left out under vif_skip_scale0.)  Output: the geometry's
 * words (VqFloatVifGeom.row_off, .words) in a row buffer: per row of each
 * scale its float num and den sums, packed (vq_fvif_pack).
 */
#ifndef VQ_FLOAT_VIF_EXEC_H
#define VQ_FLOAT_VIF_EXEC_H

#include <stdint.h>

#include "float_vif.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_FVIF_CPU_STEPS 6
enum { VQ_FVIF_OP_CONVERT, VQ_FVIF_OP_PRESCALE, VQ_FVIF_OP_STAT, VQ_FVIF_OP_DEC };

typedef struct VqFvifOp {
    int op, scale, rows;
} VqFvifOp;

/* the CPU loops' horizontal pass of a row of w vertical-pass values t into
 * out: one accumulator per column, the taps outermost (each accumulator
 * sees vq_fvif_hpass's operations in its order); the mirrored edge columns
 * through vq_fvif_hpass itself.  Shared by float_motion's blur. */
static inline void vq_fvif_cpu_hpass_row(const float *t, int w, const float *f, int fw, float *out)
{
    const int r = fw / 2;
    const int lo = r < w ? r : w, hi = w - r > lo ? w - r : lo;
    int j, k;
    for (j = 0; j < lo; j++)
        out[j] = vq_fvif_hpass(t, 1, w, f, fw, j);
    for (j = lo; j < hi; j++)
        out[j] = 0.0f;
    for (k = 0; k < fw; k++) {
        const float c = f[k];
        const float *src = t - r + k;
        for (j = lo; j < hi; j++)
            out[j] += c * src[j];
    }
    for (j = hi; j < w; j++)
        out[j] = vq_fvif_hpass(t, 1, w, f, fw, j);
}

typedef struct VqFloatVifCpu VqFloatVifCpu;

/* NULL when out of memory */
VqFloatVifCpu *vq_fvif_cpu_alloc(const VqFloatVifGeom *g);
void vq_fvif_cpu_free(VqFloatVifCpu *c);
/* the operations of a step (at most 2), their number */
int vq_fvif_cpu_step_ops(const VqFloatVifGeom *g, int step, VqFvifOp ops[2]);
/* rows [a, b) of an operation; ref, dis: the luma planes (w x h) */
void vq_fvif_cpu_rows(VqFloatVifCpu *c, const VqFloatVifGeom *g, VqFvifOp op, VqPlaneView ref,
                      VqPlaneView dis, int bpc, int64_t *words, int a, int b);
/* every step on this thread */
void vq_fvif_cpu_run(VqFloatVifCpu *c, const VqFloatVifGeom *g, VqPlaneView ref, VqPlaneView dis, int bpc,
                     int64_t *words);

typedef struct VqFloatVifCuda VqFloatVifCuda;

/* 0 or a cudaError_t; device memory for g's sizes, allocated once */
int vq_fvif_cuda_alloc(VqFloatVifCuda **c, const VqFloatVifGeom *g);
void vq_fvif_cuda_free(VqFloatVifCuda *c);
/* every step on stream (a cudaStream_t), asynchronous, no allocation, no
 * host wait (capturable into a graph): ref, dis in device memory, d_words
 * the section in the device row buffer; the launch error or 0 */
int vq_fvif_cuda_run(VqFloatVifCuda *c, VqPlaneView ref, VqPlaneView dis, int bpc, int64_t *d_words,
                     void *stream);

#ifdef __cplusplus
}
#endif
#endif /* VQ_FLOAT_VIF_EXEC_H */
