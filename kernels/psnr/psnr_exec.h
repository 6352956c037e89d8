/*
 * psnr_exec.h - the psnr executors (CPU loops and CUDA kernels around
 * kernels/psnr/psnr.h).
 *
 * Output: rows[l->off[p] + i] = the exact sum of squared errors of row i
 * of plane p, for p < nplanes; plane 0 has l->w x l->h samples, planes 1
 * and 2 have l->cw x l->ch.  hostmath/psnr_fold.c applies the 8-bit
 * reference's uint32 row wrap.
 */
#ifndef VQ_PSNR_EXEC_H
#define VQ_PSNR_EXEC_H

#include <stdint.h>
#include <string.h>

#include "module.h"
#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* psnr's section: plane 0's rows, then plane 1's and plane 2's (none
 * without chroma), one int64 (the row's SSE) each */
typedef struct VqPsnrLayout {
    int32_t w, h;       /* plane 0's size */
    int32_t cw, ch;     /* planes 1 and 2's (0: luma only) */
    size_t off[3];      /* where plane p's rows start */
    size_t total;       /* int64 elements in all */
} VqPsnrLayout;

static inline void vq_psnr_layout_init(VqPsnrLayout *l, int w, int h, int cw, int ch)
{
    memset(l, 0, sizeof(*l));
    l->w = w;
    l->h = h;
    l->cw = cw;
    l->ch = ch;
    l->off[0] = 0;
    l->off[1] = (size_t)h;
    l->off[2] = (size_t)h + (size_t)ch;
    l->total = (size_t)h + 2 * (size_t)ch;
}

/* The psnr module (hostmath/psnr/): its settings in VqModuleGeom.opt[],
 * its section's layout from its geometry. */
enum { VQ_PSNR_OPT_NPLANES };

static inline void vq_psnr_module_layout(const VqModuleGeom *g, VqPsnrLayout *l)
{
    const int np = (int)g->opt[VQ_PSNR_OPT_NPLANES];
    vq_psnr_layout_init(l, g->plane_w[0], g->plane_h[0], np == 3 ? g->plane_w[1] : 0,
                        np == 3 ? g->plane_h[1] : 0);
}

void vq_psnr_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], int nplanes,
                     int bpc, const VqPsnrLayout *l, int64_t *rows);

typedef struct VqPsnrCuda VqPsnrCuda;

/* Return 0 or a cudaError_t.  psnr keeps no device state; alloc exists so
 * every CUDA executor has the same shape. */
int  vq_psnr_cuda_alloc(VqPsnrCuda **p, int w, int h);
void vq_psnr_cuda_free(VqPsnrCuda *p);
/* Views point to device memory; asynchronous on `stream` (a cudaStream_t).
 * Writes every row of the nplanes sections.  Returns 0 or a cudaError_t. */
int  vq_psnr_cuda_run(VqPsnrCuda *p, const VqPlaneView ref[3], const VqPlaneView dis[3],
                      int nplanes, int bpc, const VqPsnrLayout *l, int64_t *d_rows, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* VQ_PSNR_EXEC_H */
