/*
 * cuda_exec.h - the GPU executor: runs every feature's CUDA kernels on one
 * frame pair, on the caller's stream, and brings the frame's row-sum buffer
 * (kernels/vq_rows.h) back into pinned host memory asynchronously.  Frames
 * are pipelined: submit N, then collect N-1 while N runs.
 */
#ifndef VQ_CUDA_EXEC_H
#define VQ_CUDA_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "vq_common.h"
#include "exec_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* frames in flight at most (the slots' arrays); the executor's own depth,
 * vq_cuda_exec_depth, is 3 or, with VQ_CUDA_DEPTH=2, 2 */
#define VQ_CUDA_PIPELINE_DEPTH 3

typedef struct VqCudaExecConfig {
    VqExecPlan plan;
    /* distorted pictures of another size: upscaled on the device first
     * (NULL: the reference's size); the plan must outlive the executor */
    const struct VqScalePlan *dis_scale;
    void *stream;                /* cudaStream_t; NULL: a stream of our own */
} VqCudaExecConfig;

typedef struct VqCudaRef VqCudaRef;

typedef struct VqCudaExec VqCudaExec;

/* 1 when a CUDA device can be used from this thread (its context current). */
int  vq_cuda_available(char *err, size_t errlen);
/* every executor's depth (vq_cuda_exec_depth): 3, or 2 with VQ_CUDA_DEPTH=2 */
int  vq_cuda_pipeline_depth(void);
int  vq_cuda_exec_open(VqCudaExec **e, const VqCudaExecConfig *cfg, char *err, size_t errlen);
/* Enqueue one pair.  Views point into device memory when on_device, else
 * host memory that is uploaded (the host memory may be reused on return).
 * score: run VIF/ADM and the modules (0: motion only, for frames n_subsample skips). */
int  vq_cuda_exec_submit(VqCudaExec *e, const VqPlaneView ref[3], const VqPlaneView dis[3],
                         int on_device, int score, char *err, size_t errlen);
int  vq_cuda_exec_in_flight(const VqCudaExec *e);
/* frames the executor holds in flight at most (its pipeline slots; with
 * lanes, the frames that run at once): the caller collects the oldest
 * frame once a submit leaves this many in flight */
int  vq_cuda_exec_depth(const VqCudaExec *e);
/* module instance k's fold data for the frame collected last (its table's
 * fold_data), or NULL; valid until the next submit (which may reuse the
 * frame's pipeline slot) */
const void *vq_cuda_exec_module_fold_data(const VqCudaExec *e, int k);
/* Wait for the oldest frame in flight; *rows stays valid until the next submit. */
int  vq_cuda_exec_collect(VqCudaExec *e, const int64_t **rows, char *err, size_t errlen);
void vq_cuda_exec_close(VqCudaExec **e);
/*
 * A ladder (see VqCudaRef in cuda_exec.cu; hostmath/ladder.cpp sets it up):
 * the leader's executor (rendition 1's) makes the reference's VIF images and
 * moments and ADM bands and denominators once per frame, and the renditions'
 * executors read them; the rows are the same either way.  All from one
 * thread, before the executors' first frames:
 *   vq_cuda_exec_lead(leader): from now on it makes them (0 or VQ_E*);
 *   vq_cuda_exec_ref(leader): that work, held once more for the caller
 *     (NULL: none); given back with vq_cuda_ref_release; it outlives the
 *     leader while held;
 *   vq_cuda_exec_share(rendition, r): the rendition reads r's work (1), or
 *     does its own (0: another size or CUDA device, or frames already given).
 */
int  vq_cuda_exec_lead(VqCudaExec *e, char *err, size_t errlen);
VqCudaRef *vq_cuda_exec_ref(VqCudaExec *e);
int  vq_cuda_exec_share(VqCudaExec *e, VqCudaRef *r);
void vq_cuda_ref_release(VqCudaRef *r);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CUDA_EXEC_H */
