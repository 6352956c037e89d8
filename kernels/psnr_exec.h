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
#include <string.h>

#include "module.h"
#include "vq_common.h"
#include "vq_rows.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The psnr module (hostmath/psnr/): its settings in VqModuleGeom.opt[] and
 * its section, plane 0's rows then (3 planes) plane 1's and plane 2's, as a
 * row layout of its own (w, h, cw, ch, psnr_off and total; the rest 0). */
enum { VQ_PSNR_OPT_NPLANES };

static inline void vq_psnr_module_layout(const VqModuleGeom *g, VqRowLayout *l)
{
    const int np = (int)g->opt[VQ_PSNR_OPT_NPLANES];
    memset(l, 0, sizeof(*l));
    l->w = g->plane_w[0];
    l->h = g->plane_h[0];
    l->cw = np == 3 ? g->plane_w[1] : 0;
    l->ch = np == 3 ? g->plane_h[1] : 0;
    l->psnr_off[0] = 0;
    l->psnr_off[1] = (size_t)l->h;
    l->psnr_off[2] = (size_t)l->h + (size_t)l->ch;
    l->total = (size_t)l->h + 2 * (size_t)l->ch;
}

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
