/*
 * motion_exec.h - the integer motion executors (CPU loops and CUDA kernels
 * around motion.h).  Each run scores the reference luma of frame n against
 * frame n-1 (lag 1) and/or frame n-2 (lag 2: the five-frame window of
 * motion_five_frame_window), as the mask `lags` given to alloc says, and
 * then keeps frame n (as uint16) for the next runs.
 *
 * Output: the section's 2 h words (VQ_MOTION_WORDS): section[i] (lag 1)
 * and section[h + i] (lag 2), i < h, = the exact sum over row i of
 * |blur(prev - cur)|, before the reference's uint32 row wrap (applied by
 * hostmath/motion/motion_fold.h).  A lag not in the mask, or whose frame
 * n-lag is not there yet (the first runs after alloc), gets zeros.
 */
#ifndef VQ_MOTION_EXEC_H
#define VQ_MOTION_EXEC_H

#include <stdint.h>

#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the SADs to compute (a mask): against frame n-1, against n-2 (the
 * five-frame window) */
#define VQ_MOTION_LAG1 1
#define VQ_MOTION_LAG2 2

/* the words of a motion section (per frame) */
#define VQ_MOTION_WORDS(h) (2 * (size_t)(h))

typedef struct VqMotionCpu VqMotionCpu;

/* NULL when out of memory, w, h < 3 (the 5-tap mirror needs 3) or no lag. */
VqMotionCpu *vq_motion_cpu_alloc(int w, int h, int lags);
void vq_motion_cpu_free(VqMotionCpu *m);
/* ref_luma: w x h as given to alloc; bpc 8..16 */
void vq_motion_cpu_run(VqMotionCpu *m, VqPlaneView ref_luma, int bpc, int64_t *section);
/* the same in row bands: rows [row_begin, row_end) of the current frame
 * (any bands, concurrently), then commit once (the current frame becomes
 * frame n-1) */
void vq_motion_cpu_rows(VqMotionCpu *m, VqPlaneView cur, int bpc, int64_t *section, int row_begin, int row_end);
void vq_motion_cpu_commit(VqMotionCpu *m);

typedef struct VqMotionCuda VqMotionCuda;

/* Return 0 or a cudaError_t.  alloc allocates all device memory once. */
int  vq_motion_cuda_alloc(VqMotionCuda **m, int w, int h, int lags);
void vq_motion_cuda_free(VqMotionCuda *m);
/*
 * All on `stream` (a cudaStream_t), asynchronous, no allocation: ref_luma
 * points to device memory, d_section the section in device memory.  The copy
 * of ref_luma kept for the next frame is made by the scoring kernel itself,
 * into the other of two buffers (the first frame: a copy kernel), so
 * ref_luma need only stay valid until the stream gets there.  Calls on one
 * motion state must be ordered (one stream).  Returns the launch error
 * (cudaGetLastError) or 0.
 */
int  vq_motion_cuda_run(VqMotionCuda *m, VqPlaneView ref_luma, int bpc, int64_t *d_section, void *stream);
/*
 * For an executor that replays the work of a run from a CUDA graph: which
 * of the frame buffers (two, or three with lag 2) the run writes the current
 * luma into (0 .. VQ_MOTION_CUDA_PHASES-1; -1 for the first runs, while
 * frame n-lag is missing, whose work differs), and the host-side step a run
 * makes, for a run whose kernels were replayed rather than enqueued by
 * vq_motion_cuda_run.  A graph captured from a run of phase p replays a run
 * of phase p exactly.
 */
#define VQ_MOTION_CUDA_PHASES 3
int  vq_motion_cuda_phase(const VqMotionCuda *m);
void vq_motion_cuda_replayed(VqMotionCuda *m);

#ifdef __cplusplus
}
#endif
#endif /* VQ_MOTION_EXEC_H */
