/*
 * psnr_hvs_exec.h - the psnr_hvs executors (CPU: cpu_psnr_hvs.cpp, CUDA:
 * cuda_psnr_hvs.cu), loops around kernels/psnr_hvs/psnr_hvs.h.
 *
 * Output per frame pair: VQ_PSNR_HVS_WORDS (3) int64 words; word p holds,
 * in its low 32 bits (zero-extended), the bits of plane p's float sum
 * `ret` as the reference has it after its block loop (before the division
 * by the pixel count).  Both executors write all three words and nothing
 * else; hostmath/psnr_hvs/psnr_hvs_fold.h turns them into the four scores.
 *
 * ref[p], dis[p]: the three planes (8-bit, or 16-bit LSB- or MSB-aligned
 * through the view's shift; interleaved chroma through step 2).  The plane
 * sizes are the views' w and h, which must be libvmaf's: chroma
 * w >> ss_x, h >> ss_y (floor).  Call vq_psnr_hvs_check() first: it refuses
 * what the reference refuses (bpc > 12, no chroma) and planes without a
 * single 8x8 block (where the reference returns NaN).
 */
#ifndef VQ_PSNR_HVS_EXEC_H
#define VQ_PSNR_HVS_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "psnr_hvs.h"
#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_PSNR_HVS_WORDS 3

/* ---- CPU --------------------------------------------------------------- */

/* Every plane in order on the calling thread (no state besides the tables,
 * which vq_psnr_hvs_tables_init() fills once). */
void vq_psnr_hvs_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3],
                         const VqPsnrHvsTables *t, int64_t out[VQ_PSNR_HVS_WORDS]);

/* One plane alone (p: 0 luma, 1 cb, 2 cr): its output word.  The planes are
 * independent, so three threads may run them. */
int64_t vq_psnr_hvs_cpu_plane(VqPlaneView ref, VqPlaneView dis, int plane, const VqPsnrHvsTables *t);

/* One plane's terms, 64 per block, blocks in raster order (nblocks(w) *
 * nblocks(h) * 64 floats): what the CUDA executor keeps in its scratch.
 * For tests and the parity tool. */
void vq_psnr_hvs_cpu_terms(VqPlaneView ref, VqPlaneView dis, int plane, const VqPsnrHvsTables *t,
                           float *terms);

/* The same for block rows [by0, by1) only (bands may run at once), and the
 * plane's word from all its terms, added in order on one thread: equal to
 * vq_psnr_hvs_cpu_plane's, bit for bit. */
void vq_psnr_hvs_cpu_terms_rows(VqPlaneView ref, VqPlaneView dis, int plane, const VqPsnrHvsTables *t,
                                float *terms, int by0, int by1);
int64_t vq_psnr_hvs_cpu_sum(const float *terms, size_t n);

/* ---- CUDA (not built without nvcc) ------------------------------------- */

/*
 * State of one frame in flight: the tables and a scratch of 64 floats per
 * block of each plane (1920x1080 4:2:0: 63,294 blocks, 16.2 MB; 3840x2160:
 * 253,176 blocks, 64.8 MB), and 40 bytes per 16,384 terms for the sums'
 * chunk tables.  Runs on one stream are ordered, so one state
 * serves a stream.
 */
typedef struct VqPsnrHvsCuda VqPsnrHvsCuda;

/* w[p], h[p]: the plane sizes runs will have.  cudaMalloc of the scratch.
 * 0 or a cudaError_t value. */
int  vq_psnr_hvs_cuda_alloc(VqPsnrHvsCuda **p, const int w[3], const int h[3]);
void vq_psnr_hvs_cuda_free(VqPsnrHvsCuda *p);

/*
 * Enqueues the pair on stream (a cudaStream_t; NULL: the legacy default
 * stream): a kernel for the terms of every block of the three planes, two
 * for the ordered sums' chunk tables, then one for the three ordered sums
 * (one thread block per plane), which write d_out[0..2] (device memory).
 * No allocation, no synchronisation.  0 or a cudaError_t value
 * (cudaErrorInvalidValue on plane sizes other than alloc's).
 */
int  vq_psnr_hvs_cuda_run(VqPsnrHvsCuda *p, const VqPlaneView ref[3], const VqPlaneView dis[3],
                          int64_t *d_out, void *stream);

/* The ordered sums alone (the fast path's tables, then the sum kernel) on
 * any three device arrays of floats >= 0 (count[p] may be 0): d_out[p] =
 * the bits of their sequential float sum.  For the parity tool's
 * adversarial sums and its bench.  p: a state whose planes hold at least
 * count[p] terms, whose table scratch is used (no allocation); NULL: the
 * call allocates the scratch, and synchronises the stream before freeing
 * it.  0 or a cudaError_t value. */
int  vq_psnr_hvs_cuda_sum(VqPsnrHvsCuda *p, const float *const d_terms[3], const size_t count[3],
                          int64_t *d_out, void *stream);

/* Device pointer to plane p's terms of the last run (layout as
 * vq_psnr_hvs_cpu_terms), and their count; for the parity tool. */
const float *vq_psnr_hvs_cuda_terms(const VqPsnrHvsCuda *p, int plane, size_t *count);

#ifdef __cplusplus
}
#endif
#endif /* VQ_PSNR_HVS_EXEC_H */
