/*
 * vif_exec.h - the two VIF executors (CPU: cpu_vif.cpp, CUDA: cuda_vif.cu).
 *
 * Both fill, for every scale s and row i of that scale,
 *     rows[l->vif_off[s] + i * VQ_VIF_NSUMS + k],  k = VQ_VIF_NUM_LOG ...
 * with the reference's four int64 accumulators summed over row i (nothing
 * else of rows is touched).  hostmath/vif_fold.h turns them into scores.
 *
 * ref and dis are the luma planes as decoded (8-bit, or 16-bit LSB- or
 * MSB-aligned through the view's shift); bpc is the video's bit depth
 * (8..16).  Sizes must be at least VQ_VIF_MIN_SIZE (16) each way, the
 * smallest the reference's reflection handles.  log2_table is the one
 * built by vq_vif_log2_table() (65536 entries).  egl is the enhancement
 * gain limit (vif_enhn_gain_limit: 100.0 by default, 1.0 for the neg model).
 */
#ifndef VQ_VIF_EXEC_H
#define VQ_VIF_EXEC_H

#include <stdint.h>

#include "vq_common.h"
#include "vq_rows.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- CPU --------------------------------------------------------------- */

/* One VqVifCpu holds the scale 1..3 images of one frame pair: frames that
 * run at the same time need one each. */
/* A VIF module instance's settings, made by hostmath/vif/'s plan and read
 * by the module's tables through VqModuleGeom.host: its section's layout
 * (the vif_* fields, offsets from the section's start), the enhancement
 * gain limit and the log2 table (65536 entries, vq_vif_log2_table). */
typedef struct VqVifGeom {
    VqRowLayout l;
    double egl;
    const uint16_t *log2_table;
} VqVifGeom;

typedef struct VqVifCpu VqVifCpu;

/* NULL on a size below VQ_VIF_MIN_SIZE or out of memory. */
VqVifCpu *vq_vif_cpu_alloc(int w, int h);
void vq_vif_cpu_free(VqVifCpu *v);

/* The whole frame pair on the calling thread.  0, or -1 on bad arguments
 * (sizes other than those of alloc and l, bpc outside 8..16). */
int vq_vif_cpu_run(VqVifCpu *v, VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                   const uint16_t *log2_table, const VqRowLayout *l, int64_t *rows);

/*
 * The same work in pieces, for threads.  Rows are rows of scale s
 * (0 <= row_begin <= row_end <= l->vif_h[s]); pieces of one step may run
 * concurrently.  Order between steps:
 *     step 1: subsample(1)  and statistic(0)
 *     step 2: subsample(2)  and statistic(1)     (after all of step 1)
 *     step 3: subsample(3)  and statistic(2)     (after all of step 2)
 *     step 4: statistic(3)                       (after all of step 3)
 * i.e. subsample(s) must be complete before statistic(s) or subsample(s+1)
 * start.  Both return 0, or -1 on bad arguments.
 */
int vq_vif_cpu_subsample_rows(VqVifCpu *v, VqPlaneView ref, VqPlaneView dis, int bpc,
                              int s, int row_begin, int row_end);
int vq_vif_cpu_statistic_rows(VqVifCpu *v, VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                              const uint16_t *log2_table, const VqRowLayout *l, int s,
                              int row_begin, int row_end, int64_t *rows);

/* ---- CUDA (cuda_vif.cu; not built without nvcc) ------------------------ */

/* Likewise one VqVifCuda per frame in flight on the GPU (its images are
 * reused by the next run enqueued on it; runs on one stream are ordered). */
typedef struct VqVifCuda VqVifCuda;

/* cudaMalloc of the scale 1..3 images and the table, table uploaded
 * (synchronously, once).  0 or a cudaError_t value. */
int vq_vif_cuda_alloc(VqVifCuda **v, int w, int h, const uint16_t *host_log2_table);
void vq_vif_cuda_free(VqVifCuda *v);

/*
 * Enqueues the frame pair on stream (a cudaStream_t; NULL: the legacy
 * default stream): zeroes the VIF sections of d_rows, then 7 kernels.
 * ref/dis data and d_rows are device pointers.  No allocation and no
 * synchronisation.  0 or a cudaError_t value (cudaErrorInvalidValue on
 * sizes other than those of alloc and l, or bpc outside 8..16).
 */
int vq_vif_cuda_run(VqVifCuda *v, VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                    const VqRowLayout *l, int64_t *d_rows, void *stream);

/*
 * A ladder: the reference's part of one frame, made once
 * (vq_vif_cuda_ref_run: 7 kernels: its scale 1..3 images and, per scale,
 * its filtered moments mu1 and xx of every pixel) and read by every
 * rendition's run (vq_vif_cuda_run_shared: the distorted picture's
 * down-sampling only, and statistics that filter mu2, yy and xy only).  The
 * images and moments are identical to those vq_vif_cuda_run makes; the
 * rows too.  Ordering the runs after the ref run, and the next ref run
 * after them, is the caller's.
 */
typedef struct VqVifCudaRef VqVifCudaRef;
int vq_vif_cuda_ref_alloc(VqVifCudaRef **r, int w, int h);
void vq_vif_cuda_ref_free(VqVifCudaRef *r);
int vq_vif_cuda_ref_run(VqVifCudaRef *r, VqPlaneView ref, int bpc, void *stream);
int vq_vif_cuda_run_shared(VqVifCuda *v, const VqVifCudaRef *r, VqPlaneView ref, VqPlaneView dis,
                           int bpc, double egl, const VqRowLayout *l, int64_t *d_rows, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* VQ_VIF_EXEC_H */
