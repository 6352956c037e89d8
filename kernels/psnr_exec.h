/*
 * psnr_exec.h - the psnr executors (CPU loops and CUDA kernels around
 * kernels/psnr.h).
 *
 * Output: rows[l->psnr_off[p] + i] = the exact sum of squared errors of row
 * i of plane p, for p < nplanes; plane 0 has l->w x l->h samples, planes 1
 * and 2 have l->cw x l->ch.  hostmath/psnr_fold.c applies the 8-bit
 * reference's uint32 row wrap.
 */
#ifndef VQ_PSNR_EXEC_H
#define VQ_PSNR_EXEC_H

#include <stdint.h>

#include "vq_common.h"
#include "vq_rows.h"

#ifdef __cplusplus
extern "C" {
#endif

void vq_psnr_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], int nplanes,
                     int bpc, const VqRowLayout *l, int64_t *rows);

typedef struct VqPsnrCuda VqPsnrCuda;

/* Return 0 or a cudaError_t.  psnr keeps no device state; alloc exists so
 * every CUDA executor has the same shape. */
int  vq_psnr_cuda_alloc(VqPsnrCuda **p, int w, int h);
void vq_psnr_cuda_free(VqPsnrCuda *p);
/* Views point to device memory; asynchronous on `stream` (a cudaStream_t).
 * Writes every row of the nplanes sections.  Returns 0 or a cudaError_t. */
int  vq_psnr_cuda_run(VqPsnrCuda *p, const VqPlaneView ref[3], const VqPlaneView dis[3],
                      int nplanes, int bpc, const VqRowLayout *l, int64_t *d_rows, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* VQ_PSNR_EXEC_H */
