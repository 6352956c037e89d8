/*
 * float_adm_exec.h - the two float ADM executors.  Both write, for every
 * scale s and band row i, rows[off[s] + i * VQ_FADM_NSUMS + k] (k: VQ_ADM_*
 * of vq_rows.h: den h, v, d, num h, v, d, aim h, v, d) = the bits of the
 * row's float sum, added left to right over the CM rect's columns (rows
 * outside the CM rect, and every row of a dwt_only scale: 0).
 * hostmath/float_adm/float_adm_fold.cpp adds the rows in order.  The two executors
 * write identical words.
 */
#ifndef VQ_FLOAT_ADM_EXEC_H
#define VQ_FLOAT_ADM_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "vq_common.h"
#include "float_adm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One instance as its module's tables see it (kernels/module.h: g->host):
 * its parameters, the reciprocal table its divisions reproduce (host
 * memory, hostmath/float_adm/rcp_select.cpp's) and its section's layout, scale s's
 * rows from off[s] (words in all). */
typedef struct VqFadmInstance {
    VqFadmParams p;
    const VqRcpTable *rcp;
    size_t off[VQ_ADM_SCALES];
    size_t words;
} VqFadmInstance;

static inline void vq_fadm_instance_layout(VqFadmInstance *in)
{
    size_t off = 0;
    int s;
    for (s = 0; s < VQ_ADM_SCALES; s++) {
        in->off[s] = off;
        off += (size_t)in->p.s[s].h * VQ_FADM_NSUMS;
    }
    in->words = off;
}

/* ---- CPU: host memory; steps per scale s: dwt(s), then dec(s), then
 * sums(s) (any row bands of one step concurrently; dwt(s + 1) may run
 * beside dec(s) and sums(s): every scale has its own images) ---- */
typedef struct VqFadmCpu VqFadmCpu;

VqFadmCpu *vq_fadm_cpu_alloc(const VqFadmParams *p);
void vq_fadm_cpu_free(VqFadmCpu *c);
/* 0, or -1 when the pictures' sizes disagree with p */
int vq_fadm_cpu_check(const VqFadmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p);
/* the DWT of band rows [r0, r1) of scale s, ref and dis */
void vq_fadm_cpu_dwt_rows(VqFadmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p, int s,
                          int r0, int r1);
/* decouple and CSF of band rows [r0, r1) (those in the decouple rect) */
void vq_fadm_cpu_dec_rows(VqFadmCpu *c, const VqFadmParams *p, const VqRcpTable *t, int s, int r0, int r1);
/* the row words of band rows [r0, r1) of scale s at rows + off */
void vq_fadm_cpu_sum_rows(VqFadmCpu *c, const VqFadmParams *p, int s, int64_t *rows, size_t off, int r0,
                          int r1);
/* all of it on one thread */
int vq_fadm_cpu_run(VqFadmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p,
                    const VqRcpTable *t, int64_t *rows, const size_t off[VQ_ADM_SCALES]);

/* ---- CUDA: device memory, asynchronous on the caller's stream ---- */
typedef struct VqFadmCuda VqFadmCuda;

/* Device scratch for p's sizes and a device copy of the table t (host
 * memory) and of glibc_powf.h's.  0 or a cudaError_t; refuses (-1) what the
 * CUDA executor does not run: adm_p_norm other than 3 where the plan found
 * the host's powf other than glibc_powf.h's (p->powf_gpu 0). */
int vq_fadm_cuda_alloc(VqFadmCuda **c, const VqFadmParams *p, const VqRcpTable *t);
void vq_fadm_cuda_free(VqFadmCuda *c);
/* ref/dis views and d_rows in device memory; stream a cudaStream_t.
 * Enqueues the work (no allocation, no synchronisation: capturable into a
 * CUDA graph); 0 or a cudaError_t.  Writes every word of the sections. */
int vq_fadm_cuda_run(VqFadmCuda *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p,
                     int64_t *d_rows, const size_t off[VQ_ADM_SCALES], void *stream);

#ifdef __cplusplus
}
#endif
#endif /* VQ_FLOAT_ADM_EXEC_H */
