/*
 * float_small_exec.h - the executors of float_psnr / float_moment ("the
 * float sums") and float_ansnr (kernels/float_small.h), and their sections
 * of the row buffer (each its module's section: kernels/float_sums/ for
 * float_psnr and float_moment, kernels/float_ansnr/).
 *
 * The float sums' section, VQ_FS_WORDS(h) int64 words:
 *   [0, VQ_FS_NSUMS)  the five doubles (their bits) the reference's
 *                     raster-order sums give: noise, ref, dis, ref^2, dis^2;
 *   then per row i, VQ_FS_NSUMS words: the row's exact sums in units of
 *                     2^-16 (vq_fs_fixed), from which the doubles are made
 *                     when vq_fs_total_exact() holds (else the executor adds
 *                     the terms in raster order).
 * float_ansnr's section, VQ_ANSNR_WORDS(h) words: per row i, the bits of
 * ansnr_mse_s's two float row sums (sig, then noise), each in the low half
 * of a word; the host adds the rows in order (hostmath/float_small_fold).
 */
#ifndef VQ_FLOAT_SMALL_EXEC_H
#define VQ_FLOAT_SMALL_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "float_small.h"

#define VQ_FS_WORDS(h) ((size_t)VQ_FS_NSUMS * (1 + (size_t)(h)))
#define VQ_ANSNR_WORDS(h) ((size_t)2 * (size_t)(h))

/* a double's bits in an int64 word of the row buffer, and back */
VQ_HD int64_t vq_fs_double_word(double d)
{
    return (int64_t)vq_f64_bits(d);
}

VQ_HD double vq_fs_word_double(int64_t w)
{
    return vq_f64_from_bits((uint64_t)w);
}

/* The totals of h rows of exact sums (the section's row words): 1 and the
 * five doubles' bits in out when every total is exact (vq_fs_total_exact),
 * else 0 (out untouched). */
VQ_HD int vq_fs_finish_rows(const int64_t *row_sums, int h, int bpc, int64_t *out)
{
    int64_t tot[VQ_FS_NSUMS] = { 0, 0, 0, 0, 0 };
    for (int i = 0; i < h; i++)
        for (int k = 0; k < VQ_FS_NSUMS; k++)
            tot[k] += row_sums[(size_t)i * VQ_FS_NSUMS + k];
    for (int k = 0; k < VQ_FS_NSUMS; k++)
        if (!vq_fs_total_exact(tot[k], bpc))
            return 0;
    for (int k = 0; k < VQ_FS_NSUMS; k++)
        out[k] = vq_fs_double_word(vq_fs_total_double(tot[k]));
    return 1;
}

/* The reference's own order, for a frame whose totals are not all exact
 * (16 bits only): every term converted to double and added in raster
 * order, as psnr.c's compute_psnr and moment.c's compute_*_moment do. */
VQ_HD void vq_fs_raster(VqPlaneView ref, VqPlaneView dis, int w, int h, int bpc, int64_t *out)
{
    double s[VQ_FS_NSUMS] = { 0, 0, 0, 0, 0 };
    float t[VQ_FS_NSUMS];
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            vq_fs_terms(vq_sample(ref, i, j), vq_sample(dis, i, j), bpc, t);
            for (int k = 0; k < VQ_FS_NSUMS; k++)
                s[k] += t[k];
        }
    for (int k = 0; k < VQ_FS_NSUMS; k++)
        out[k] = vq_fs_double_word(s[k]);
}

#ifdef __cplusplus
extern "C" {
#endif

/* CPU (kernels/cpu_float_small.cpp).  The float sums: rows [r0, r1) of the
 * luma planes (w = ref.w) into the section's row words (any bands,
 * concurrently), then finish once: the five doubles. */
void vq_fs_cpu_rows(VqPlaneView ref, VqPlaneView dis, int bpc, int64_t *section, int r0, int r1);
void vq_fs_cpu_finish(VqPlaneView ref, VqPlaneView dis, int bpc, int64_t *section);
/* float_ansnr: rows [r0, r1) of both luma planes to float (picture_copy,
 * offset -128) into fref / fdis (w x h, packed); once every row is there,
 * rows [r0, r1) of the section */
void vq_ansnr_cpu_convert_rows(VqPlaneView ref, VqPlaneView dis, int bpc, float *fref, float *fdis, int r0,
                               int r1);
void vq_ansnr_cpu_rows(const float *fref, const float *fdis, int w, int h, int64_t *section, int r0, int r1);

/* CUDA (kernels/cuda_float_small.cu): the same words.  The float sums: a
 * warp per row (exact integer sums), then one block finishes (the exact
 * totals, or the terms in raster order, added by one thread from shared
 * memory).  float_ansnr: the planes to float, the two filters at every
 * pixel, then a thread per row adds its columns in order.  Views point to
 * device memory; asynchronous on stream (a cudaStream_t), capturable into a
 * graph (no host wait); every word of the sections is written.  0 or a
 * cudaError_t. */
typedef struct VqFloatSmallCuda VqFloatSmallCuda;
int vq_fs_cuda_alloc(VqFloatSmallCuda **c, int w, int h, int ansnr);
void vq_fs_cuda_free(VqFloatSmallCuda *c);
int vq_fs_cuda_run(VqFloatSmallCuda *c, VqPlaneView ref, VqPlaneView dis, int bpc, int64_t *d_section,
                   void *stream);
int vq_ansnr_cuda_run(VqFloatSmallCuda *c, VqPlaneView ref, VqPlaneView dis, int bpc, int64_t *d_section,
                      void *stream);

#ifdef __cplusplus
}
#endif
#endif /* VQ_FLOAT_SMALL_EXEC_H */
