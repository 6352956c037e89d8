/*
 * cpu_simd.h - the CPU executor's hot loops, one row at a time, as a table
 * of functions chosen at run time (in the manner of dav1d's checkasm):
 *     plain   the loops around the VQ_HD functions of vif.h, adm.h, motion.h,
 *             psnr.h, cambi.h and psnr_hvs.h (cpu_vif.cpp, cpu_adm.cpp, ...):
 *             the reference
 *     sse2, avx2, avx512
 *             the same arithmetic restructured into straight column loops
 *             (simd/simd_impl.h) that the compiler vectorises, built once
 *             per instruction set (simd/cpu_simd_x86.cpp, x86-64 GCC/Clang).
 * Every entry gives the same bits as its plain twin for every input it
 * accepts (tests/checkcpu.cpp); an entry that meets a layout it does not
 * handle (interleaved chroma, ...) calls the plain one.
 *
 * The table in use: the best the CPU supports, unless the environment
 * variable VQ_CPU_SIMD names one (0 or plain, sse2, avx2, avx512), read
 * once; vq_cpu_simd_force() overrides both.
 */
#ifndef VQ_CPU_SIMD_H
#define VQ_CPU_SIMD_H

#include <stdint.h>

#include "adm/adm_params.h"
#include "cambi/cambi.h"
#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqCpuSimd {
    const char *name;
    /* VIF statistic of row i of scale s: acc[VQ_VIF_NSUMS] is written */
    void (*vif_stat_row)(int s, VqPlaneView ref, VqPlaneView dis, int i, int bpc, double egl,
                         const uint16_t *log2_table, int64_t *acc);
    /* VIF down-sampling into row i of scale s (1..3) from src (scale s-1) */
    void (*vif_sub_row)(int s, VqPlaneView src_ref, VqPlaneView src_dis, int i, int bpc, int out_w,
                        uint16_t *out_ref, uint16_t *out_dis);
    /* motion SAD of row i; y_row: scratch of cur.w + 64 int32 */
    uint64_t (*motion_row)(VqPlaneView prev, VqPlaneView cur, int i, int bpc, int32_t *y_row);
    /* psnr SSE of row i (w samples) */
    uint64_t (*psnr_row)(VqPlaneView ref, VqPlaneView dis, int i, int w, int bpc);
    /* ADM scale-0 DWT of band row i: a, h, v, d planes (int32, pitch = band w);
     * scratch: 4 * (src.w + 8) int32 */
    void (*adm_dwt0_row)(VqPlaneView src, int bpc, int i, int band_w, int32_t *a, int32_t *h,
                         int32_t *v, int32_t *d, int32_t *scratch);
    /* ADM scales 1-3 DWT of band row i from the previous A band */
    void (*adm_dwt_s123_row)(const int32_t *src, ptrdiff_t stride, int in_w, int in_h, int scale,
                             int i, int band_w, int32_t *a, int32_t *h, int32_t *v, int32_t *d,
                             int32_t *scratch);
    /* ADM row sums of CM row i (sum[VQ_ADM_NSUMS] written); in: the
     * VQ_ADM_IN_NPLANES planes of adm.h */
    void (*adm_sums_row)(const int32_t *const *in, const int32_t *ref_h, const int32_t *ref_v,
                         const int32_t *ref_d, ptrdiff_t stride, const VqAdmParams *p, int scale, int i,
                         uint64_t *sum);
    /* ADM decouple + CSF of columns [j0, j1) of one band row: ref[0..3],
     * dis[0..3] the A, H, V, D rows; out[VQ_ADM_IN_NPLANES] the rows of
     * the contrast-masking inputs */
    void (*adm_decouple_row)(const int32_t *const *ref, const int32_t *const *dis, int j0, int j1,
                             const VqAdmParams *p, int scale, int32_t *const *out);
    /* CAMBI c-values of one row, columns [0, n): out[j] = 0 where act[j] is
     * 0, else vq_cambi_c_value of vals[j] with the counts hist[u * sw + j]
     * (hist readable one uint16 past its last count: a gather reads pairs) */
    void (*cambi_cvalue_row)(const VqCambiParams *p, const float *recip, const uint16_t *vals, const uint8_t *act,
                             const uint16_t *hist, int sw, int n, float *out);
    /* CAMBI's mode filter: out[j] = vq_cambi_mode3(a[j], b[j], c[j]), j < n */
    void (*cambi_mode3_row)(const uint16_t *a, const uint16_t *b, const uint16_t *c, int n, uint16_t *out);
    /* psnr_hvs's 64 terms of each of the nbx blocks of block row by of one
     * plane (vq_psnr_hvs_block_terms): terms[64 bx + k] */
    void (*psnr_hvs_row)(VqPlaneView ref, VqPlaneView dis, int by, int nbx, const float *csf,
                         const float *mask, float *terms);
} VqCpuSimd;

/* the table in use (never NULL) */
const VqCpuSimd *vq_cpu_simd(void);
/* a table by name if built and supported by this CPU, else NULL */
const VqCpuSimd *vq_cpu_simd_get(const char *name);
/* use the named table from now on (NULL: back to the default); 0 or -1 */
int vq_cpu_simd_force(const char *name);
/* every name, plain first, NULL-terminated (built ones; see _get for the CPU) */
extern const char *const vq_cpu_simd_names[];

/* the plain twins (cpu_vif.cpp, cpu_motion.cpp, cpu_psnr.cpp, cpu_adm.cpp) */
void vq_vif_stat_row_plain(int s, VqPlaneView ref, VqPlaneView dis, int i, int bpc, double egl,
                           const uint16_t *log2_table, int64_t *acc);
void vq_vif_sub_row_plain(int s, VqPlaneView src_ref, VqPlaneView src_dis, int i, int bpc, int out_w,
                          uint16_t *out_ref, uint16_t *out_dis);
uint64_t vq_motion_row_plain(VqPlaneView prev, VqPlaneView cur, int i, int bpc, int32_t *y_row);
uint64_t vq_psnr_row_plain(VqPlaneView ref, VqPlaneView dis, int i, int w, int bpc);
void vq_adm_dwt0_row_plain(VqPlaneView src, int bpc, int i, int band_w, int32_t *a, int32_t *h,
                           int32_t *v, int32_t *d, int32_t *scratch);
void vq_adm_dwt_s123_row_plain(const int32_t *src, ptrdiff_t stride, int in_w, int in_h, int scale,
                               int i, int band_w, int32_t *a, int32_t *h, int32_t *v, int32_t *d,
                               int32_t *scratch);

void vq_adm_sums_row_plain(const int32_t *const *in, const int32_t *ref_h, const int32_t *ref_v,
                           const int32_t *ref_d, ptrdiff_t stride, const VqAdmParams *p, int scale, int i,
                           uint64_t *sum);
void vq_adm_decouple_row_plain(const int32_t *const *ref, const int32_t *const *dis, int j0, int j1,
                               const VqAdmParams *p, int scale, int32_t *const *out);
/* cpu_cambi.cpp */
void vq_cambi_cvalue_row_plain(const VqCambiParams *p, const float *recip, const uint16_t *vals,
                               const uint8_t *act, const uint16_t *hist, int sw, int n, float *out);
void vq_cambi_mode3_row_plain(const uint16_t *a, const uint16_t *b, const uint16_t *c, int n, uint16_t *out);
/* cpu_psnr_hvs.cpp */
void vq_psnr_hvs_row_plain(VqPlaneView ref, VqPlaneView dis, int by, int nbx, const float *csf,
                           const float *mask, float *terms);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CPU_SIMD_H */
