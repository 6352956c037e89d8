/*
 * float_motion_exec.h - the float_motion executors around
 * float_motion.h.  Each run blurs the reference's luma (and chroma
 * under motion_add_uv) of frame n and scores it against the blurred frame
 * n-1 it kept; then frame n is kept.  Steps of one frame (the rows of one
 * step may run concurrently, the steps in order):
 *   0  CONVERT  each plane to float (picture_copy)
 *   1  BLUR     the blur of each plane, and each row's SAD against frame n-1
 *   2  HALF     under motion_add_scale1: each row's SAD of the half-size images
 * then commit once.  Output: the geometry's words (VqFloatMotionGeom.row_off,
 * .row1_off): per row the float SAD (vq_fmotion_word); zeros while there
 * is no frame n-1 (the first run after alloc).
 */
#ifndef VQ_FLOAT_MOTION_EXEC_H
#define VQ_FLOAT_MOTION_EXEC_H

#include <stdint.h>

#include "float_motion.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_FMOTION_CPU_STEPS 3

typedef struct VqFloatMotionCpu VqFloatMotionCpu;

VqFloatMotionCpu *vq_fmotion_cpu_alloc(const VqFloatMotionGeom *g);
void vq_fmotion_cpu_free(VqFloatMotionCpu *m);
/* the rows step `step` runs on plane p (0: nothing to do) */
int vq_fmotion_cpu_step_rows(const VqFloatMotionGeom *g, int step, int p);
/* rows [a, b) of step `step` on plane p of the reference (planes[p]) */
void vq_fmotion_cpu_rows(VqFloatMotionCpu *m, const VqFloatMotionGeom *g, int step, int p, VqPlaneView plane,
                         int bpc, int64_t *words, int a, int b);
/* the current frame becomes frame n-1 */
void vq_fmotion_cpu_commit(VqFloatMotionCpu *m);
/* every step, then commit, on this thread */
void vq_fmotion_cpu_run(VqFloatMotionCpu *m, const VqFloatMotionGeom *g, const VqPlaneView planes[3], int bpc,
                        int64_t *words);

typedef struct VqFloatMotionCuda VqFloatMotionCuda;

/* 0 or a cudaError_t; device memory allocated once */
int vq_fmotion_cuda_alloc(VqFloatMotionCuda **m, const VqFloatMotionGeom *g);
void vq_fmotion_cuda_free(VqFloatMotionCuda *m);
/* every step on stream (a cudaStream_t), asynchronous, no allocation, no
 * host wait; planes in device memory; d_words the section in the device
 * row buffer (every word written).  The blurred frame goes into the buffer
 * of the current phase; the host-side turn of the ring is made by the call
 * (and by vq_fmotion_cuda_replayed for a run replayed from a graph). */
int vq_fmotion_cuda_run(VqFloatMotionCuda *m, const VqPlaneView planes[3], int bpc, int64_t *d_words,
                        void *stream);
/* the phase of the next run: -1 (no frame n-1 yet), else 0 or 1 (which
 * buffer the current frame's blur goes into); a graph captured from a run
 * of phase p replays a run of phase p */
int vq_fmotion_cuda_phase(const VqFloatMotionCuda *m);
void vq_fmotion_cuda_replayed(VqFloatMotionCuda *m);

#ifdef __cplusplus
}
#endif
#endif /* VQ_FLOAT_MOTION_EXEC_H */
