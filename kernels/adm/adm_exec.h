/*
 * adm_exec.h - the two integer ADM executors.  Both fill, for every scale s
 * and band row i, rows[l->adm_off[s] + i * VQ_ADM_NSUMS + k] (k: VQ_ADM_* in
 * vq_rows.h) with the raw integer row sums of kernels/adm.h; rows outside the
 * CM rect are 0.  hostmath/adm/adm_fold.cpp turns the buffer into scores.  The two
 * executors write identical buffers.
 */
#ifndef VQ_ADM_EXEC_H
#define VQ_ADM_EXEC_H

#include <stdint.h>

#include "vq_common.h"
#include "vq_rows.h"
#include "adm_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An ADM module instance's settings, made by hostmath/adm/'s plan and read
 * by the module's tables (vq_adm_module_cpu, vq_adm_module_cuda) through
 * VqModuleGeom.host: its parameters; the parameters its share of a ladder's
 * reference part is made with (ref_part_params: the default options' at
 * the same size and depth, since that part reads only what the size and
 * depth decide, so every instance of a size and depth can read one part);
 * its section's layout (the adm_* fields, offsets from the section's start). */
typedef struct VqAdmGeom {
    VqAdmParams p;
    VqAdmParams ref_part_params;
    VqRowLayout l;
} VqAdmGeom;

/* ---- CPU: plain loops, host memory ---- */
typedef struct VqAdmCpu VqAdmCpu;

/* Scratch for a w x h luma plane; NULL on allocation failure. */
VqAdmCpu *vq_adm_cpu_alloc(int w, int h);
void vq_adm_cpu_free(VqAdmCpu *c);
/* ref/dis: the luma planes (w x h as in p); returns 0, or -1 when the sizes
 * disagree with p, l or the allocation. */
int vq_adm_cpu_run(VqAdmCpu *c, VqPlaneView ref, VqPlaneView dis, int bpc,
                   const VqAdmParams *p, const VqRowLayout *l, int64_t *rows);

/* ---- CUDA: device memory, asynchronous on the caller's stream ---- */
typedef struct VqAdmCuda VqAdmCuda;

/* Device scratch for a w x h luma plane.  Returns 0 or a cudaError_t. */
int vq_adm_cuda_alloc(VqAdmCuda **c, int w, int h);
void vq_adm_cuda_free(VqAdmCuda *c);
/* ref/dis views and d_rows point into device memory; stream is a
 * cudaStream_t (NULL: the default stream).  Enqueues the work and returns
 * 0 or a cudaError_t (launch errors; -1 for sizes that disagree); never
 * synchronises.  Every row of the ADM sections of d_rows is written. */
int vq_adm_cuda_run(VqAdmCuda *c, VqPlaneView ref, VqPlaneView dis, int bpc,
                    const VqAdmParams *p, const VqRowLayout *l, int64_t *d_rows,
                    void *stream);

/* A ladder: the reference's DWT bands of one frame, every scale, and its
 * denominators' row sums, made once (vq_adm_cuda_ref_run: 8 kernels; they
 * depend on bpc and the sizes only, not on the other parameters) and read
 * by every rendition's vq_adm_cuda_run_shared (the distorted picture's DWT,
 * decouple, CSF and the numerators' row sums, the denominators' copied: the
 * same rows as vq_adm_cuda_run).  Ordering the runs after the ref run, and
 * the next ref run after them, is the caller's. */
typedef struct VqAdmCudaRef VqAdmCudaRef;
int vq_adm_cuda_ref_alloc(VqAdmCudaRef **r, int w, int h);
void vq_adm_cuda_ref_free(VqAdmCudaRef *r);
int vq_adm_cuda_ref_run(VqAdmCudaRef *r, VqPlaneView ref, int bpc, const VqAdmParams *p, void *stream);
int vq_adm_cuda_run_shared(VqAdmCuda *c, const VqAdmCudaRef *r, VqPlaneView dis, int bpc,
                           const VqAdmParams *p, const VqRowLayout *l, int64_t *d_rows, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* VQ_ADM_EXEC_H */
