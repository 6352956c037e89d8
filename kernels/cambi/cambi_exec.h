/*
 * cambi_exec.h - the CAMBI executors (CPU: cpu_cambi.cpp, CUDA:
 * cuda_cambi.cu): one pass of kernels/cambi/cambi.h over a luma plane.
 *
 * Both write the l->total words of the pass (layout: kernels/cambi/cambi.h,
 * VqCambiLayout; every word written, nothing else), including, where the
 * rows cannot give a scale's top-k sum, that sum in the reference's own
 * order (pool mode 1).  They keep the pass's c-values of every scale
 * (w_s x h_s floats, raster order) until their next run, for pool mode 2
 * (hostmath/cambi/cambi_fold.h: vq_cambi_fold_needs_cvalues; not seen on real
 * c-values) and for tests.
 *
 * p and t come from vq_cambi_setup (hostmath/cambi/cambi_fold.h); luma is the
 * input luma plane (p->in_w x p->in_h, p->in_bpc bits through the view).
 * With full_ref the source pass is a second executor state (or a second
 * run) with the source pass's parameters, on the reference picture.
 */
#ifndef VQ_CAMBI_EXEC_H
#define VQ_CAMBI_EXEC_H

#include <stdint.h>

#include "cambi/cambi.h"
#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- CPU --------------------------------------------------------------- */

/* One VqCambiCpu per pass and per frame in flight: it holds the working
 * images, the histograms and the c-values (about 12 bytes per pixel). */
typedef struct VqCambiCpu VqCambiCpu;

/* NULL when out of memory. */
VqCambiCpu *vq_cambi_cpu_alloc(const VqCambiParams *p);
void vq_cambi_cpu_free(VqCambiCpu *c);

/* The whole pass on the calling thread; words[l->sel_off[0] ...] filled.
 * 0, or -1 on a view whose size is not p's input size. */
int vq_cambi_cpu_run(VqCambiCpu *c, const VqCambiParams *p, const VqCambiTables *t,
                     VqPlaneView luma, const VqCambiLayout *l, int64_t *words);

/*
 * The same pass in steps, each over rows that may run in bands on several
 * threads (a step starts when the one before it has ended):
 *   for step = 0 .. VQ_CAMBI_CPU_STEPS - 1, beside each other:
 *     s = vq_cambi_cpu_step_select(p, step): if s >= 0, scale s's T
 *         (vq_cambi_cpu_select: one thread);
 *     s = vq_cambi_cpu_step_words(p, step): if s >= 0, scale s's row words,
 *         rows [a, b) of p->sh[s] in bands (vq_cambi_cpu_words);
 *     s = vq_cambi_cpu_step_decide(p, step): if s >= 0, scale s's pooling
 *         decision and header words (vq_cambi_cpu_decide: one thread);
 *     rows [a, b) of vq_cambi_cpu_step_rows(p, step) (0: none), in bands:
 *         vq_cambi_cpu_rows; at most vq_cambi_cpu_step_most(p, step,
 *         workers) bands (0: any number).
 * The steps: the 10-bit image, anti-dithering, the flat map, its 7-row sums,
 * the mask; per scale its image, the mode filter, the c-values.
 * vq_cambi_cpu_check first (0, or -1 as vq_cambi_cpu_run); vq_cambi_cpu_bands
 * gives `workers` bands running at once their histograms (band_size x width
 * 16-bit counts each).  The words equal vq_cambi_cpu_run's, bit for bit.
 */
#define VQ_CAMBI_CPU_STEPS (5 + 3 * VQ_CAMBI_SCALES + 3)
int vq_cambi_cpu_bands(VqCambiCpu *c, int workers);
int vq_cambi_cpu_check(const VqCambiCpu *c, const VqCambiParams *p, VqPlaneView luma);
int vq_cambi_cpu_step_rows(const VqCambiParams *p, int step);
int vq_cambi_cpu_step_select(const VqCambiParams *p, int step);
int vq_cambi_cpu_step_words(const VqCambiParams *p, int step);
int vq_cambi_cpu_step_decide(const VqCambiParams *p, int step);
int vq_cambi_cpu_step_most(const VqCambiParams *p, int step, int workers);
void vq_cambi_cpu_rows(VqCambiCpu *c, const VqCambiParams *p, const VqCambiTables *t, VqPlaneView luma,
                       int step, int row_begin, int row_end);
void vq_cambi_cpu_select(VqCambiCpu *c, const VqCambiParams *p, int s);
/* one row's words of vq_cambi_cpu_words: n c-values, T's bits; out[VQ_CAMBI_ROW_*] */
void vq_cambi_row_words(const float *cv, int n, uint32_t tb, int64_t *out);
void vq_cambi_cpu_words(const VqCambiCpu *c, const VqCambiParams *p, int s, const VqCambiLayout *l,
                        int64_t *words, int row_begin, int row_end);
void vq_cambi_cpu_decide(VqCambiCpu *c, const VqCambiParams *p, int s, const VqCambiLayout *l,
                         int64_t *words);

/* Scale s's c-values of the last run (p->sw[s] x p->sh[s]); valid until
 * the next run or free. */
const float *vq_cambi_cpu_cvalues(const VqCambiCpu *c, int s);

/* ---- CUDA (cuda_cambi.cu; not built without nvcc) ------------------------ */

typedef struct VqCambiCuda VqCambiCuda;

/* cudaMalloc of the working buffers (about 29 bytes per pixel), tables
 * uploaded (synchronously, once); needs cooperative launch (sm_60+).
 * 0 or a cudaError_t value. */
int vq_cambi_cuda_alloc(VqCambiCuda **c, const VqCambiParams *p, const VqCambiTables *t);
void vq_cambi_cuda_free(VqCambiCuda *c);

/* Enqueues the pass on stream (a cudaStream_t): luma.data and d_words are
 * device pointers.  No allocation, no synchronisation (64 operations, 5 of
 * them cooperative launches).  0 or a cudaError_t (cudaErrorInvalidValue on
 * a view whose size is not p's input size). */
int vq_cambi_cuda_run(VqCambiCuda *c, VqPlaneView luma, const VqCambiLayout *l,
                      int64_t *d_words, void *stream);

/* Enqueues the copy of scale s's c-values of the last run into host memory
 * (p->sw[s] * p->sh[s] floats; pinned memory for an asynchronous copy).
 * Call it before the next run on c is enqueued.  0 or a cudaError_t. */
int vq_cambi_cuda_cvalues(VqCambiCuda *c, int s, float *host, void *stream);

/* The same into device memory (dev: p->sw[s] * p->sh[s] floats), e.g. the
 * frame's row buffer, which then brings them to the host (heatmaps_path).
 * Call it before the next run on c is enqueued.  0 or a cudaError_t. */
int vq_cambi_cuda_cvalues_device(VqCambiCuda *c, int s, float *dev, void *stream);

/* Test hook (tests/parity_cambi.cu): the device's pooling in the
 * reference's order alone, on n <= p->sw[0] * p->sh[0] c-values at d_cv
 * (device) with top k and lowest-bit minimum g (vq_cambi_pool_mode's):
 * writes the sum's bits to d_hdr[VQ_CAMBI_SEL_SUM].  Synchronous.
 * 0 or a cudaError_t. */
int vq_cambi_cuda_pool_test(VqCambiCuda *c, const float *d_cv, int n, int k, int g, int64_t *d_hdr);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CAMBI_EXEC_H */
