/*
 * cpu_bands.h - the CPU loops of ADM in row bands, so that the module's
 * CPU table (cpu_adm.cpp: its steps) can spread one frame over the
 * executor's threads.  Bands of one
 * step write disjoint rows (of the per-frame buffer and of the loops'
 * images) and may run concurrently; steps run in the order given below.
 * adm_exec.h's whole-frame function is these bands run
 * in order on one thread (same buffer, bit for bit).
 *
 * Every hot loop has a plain twin (the VQ_HD functions of adm.h) and SIMD
 * versions chosen at run time (simd/cpu_simd.h).
 */
#ifndef VQ_CPU_BANDS_H
#define VQ_CPU_BANDS_H

#include <stdint.h>

#include "adm_exec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ADM, per scale s = 0..3: dwt(s) rows of band s, then sums(s) rows
 * (sums(s) reads dwt(s)'s rows i-1..i+1; dwt(s+1) reads dwt(s)'s A band and
 * overwrites what sums(s) reads, so: dwt(0), sums(0), dwt(1), sums(1) ...). */
int  vq_adm_cpu_check(const VqAdmCpu *c, VqPlaneView ref, VqPlaneView dis, int bpc,
                      const VqAdmParams *p, const VqRowLayout *l);
void vq_adm_cpu_dwt_rows(VqAdmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqAdmParams *p,
                         int scale, int row_begin, int row_end);
void vq_adm_cpu_sums_rows(VqAdmCpu *c, const VqAdmParams *p, const VqRowLayout *l, int scale,
                          int64_t *rows, int row_begin, int row_end);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CPU_BANDS_H */
