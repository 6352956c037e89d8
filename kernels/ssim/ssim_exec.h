/*
 * ssim_exec.h - the float_ssim / float_ms_ssim executors (CPU:
 * cpu_ssim.cpp, CUDA: cuda_ssim.cu) and the geometry they share with
 * hostmath/ssim/ssim_fold.h.
 *
 * Output: VQ_SSIM_NWORDS 8-byte words per frame pair, each the bit pattern
 * (memcpy) of one double: the reference's sums, added term by term in
 * raster order, of the per-pixel terms of kernels/ssim/ssim.h:
 *     words[VQ_SSIM_SUM_SSIM + k], k = 0..3: float_ssim's sum of l*c*s,
 *         l, c, s over its (decimated) image;
 *     words[VQ_MS_SSIM_SUM0 + 3 * i + k], k = 0..2: float_ms_ssim's sums
 *         of l, c, s at scale i = 0..4.
 * The words of a feature not asked for (VqSsimGeom.features) are left
 * alone.  Both executors must give the same words (tests/parity_ssim.cu).
 */
#ifndef VQ_SSIM_EXEC_H
#define VQ_SSIM_EXEC_H

#include <stdint.h>

#include "ssim.h"
#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    VQ_SSIM_F_SSIM = 1,      /* float_ssim */
    VQ_SSIM_F_MS_SSIM = 2,   /* float_ms_ssim */
};

enum {
    VQ_SSIM_SUM_SSIM = 0,    /* + 0: l*c*s, 1: l, 2: c, 3: s */
    VQ_MS_SSIM_SUM0 = 4,     /* + 3 * scale + (0: l, 1: c, 2: s) */
    VQ_SSIM_NWORDS = VQ_MS_SSIM_SUM0 + 3 * VQ_MS_SSIM_SCALES   /* 19 */
};

/* What one frame size needs: made by vq_ssim_geom_init, never changed. */
typedef struct VqSsimGeom {
    int32_t w, h;            /* luma size */
    int32_t bpc;             /* 8, 10, 12 or 16 */
    int32_t features;        /* VQ_SSIM_F_* */
    int32_t scale;           /* float_ssim's decimation factor (1: none) */
    int32_t sw, sh;          /* float_ssim's image after decimation */
    int32_t msw[VQ_MS_SSIM_SCALES], msh[VQ_MS_SSIM_SCALES];   /* float_ms_ssim's images */
} VqSsimGeom;

/*
 * 0, or -1 where the reference refuses or has nothing defined: bpc other
 * than 8/10/12/16 (picture_copy), scale_option outside 0..10 (float_ssim's
 * "scale"), a float_ssim image below 11x11 (the Gaussian window), a frame
 * below 176x176 for float_ms_ssim (ms_ssim.c's "scale below 1x1").
 * hostmath/ssim/ssim_fold.h has the same checks with messages.
 */
static inline int vq_ssim_geom_init(VqSsimGeom *g, int w, int h, int bpc, int features,
                                    int scale_option)
{
    g->w = w;
    g->h = h;
    g->bpc = bpc;
    g->features = features;
    if ((bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16) || w <= 0 || h <= 0 ||
        !(features & (VQ_SSIM_F_SSIM | VQ_SSIM_F_MS_SSIM)) ||
        (features & ~(VQ_SSIM_F_SSIM | VQ_SSIM_F_MS_SSIM)) || w > (1 << 14) || h > (1 << 14))
        return -1;
    if (scale_option < 0 || scale_option > VQ_SSIM_MAX_SCALE)
        return -1;
    g->scale = vq_ssim_auto_scale(w, h, scale_option);
    g->sw = g->scale > 1 ? vq_ssim_decimated(w, g->scale) : w;
    g->sh = g->scale > 1 ? vq_ssim_decimated(h, g->scale) : h;
    if ((features & VQ_SSIM_F_SSIM) && (g->sw < VQ_SSIM_WIN || g->sh < VQ_SSIM_WIN))
        return -1;
    for (int i = 0; i < VQ_MS_SSIM_SCALES; i++) {
        g->msw[i] = i ? vq_ssim_decimated(g->msw[i - 1], 2) : w;
        g->msh[i] = i ? vq_ssim_decimated(g->msh[i - 1], 2) : h;
    }
    if ((features & VQ_SSIM_F_MS_SSIM) && (w < VQ_MS_SSIM_MIN_SIZE || h < VQ_MS_SSIM_MIN_SIZE))
        return -1;
    return 0;
}

/* The geometry of the float_ssim / float_ms_ssim modules' row work from an
 * instance's settings (kernels/module.h's VqModuleGeom.opt): opt[0] the
 * features, opt[1] float_ssim's scale option (-1: float_ms_ssim alone). */
static inline int vq_ssim_module_geom(VqSsimGeom *g, int w, int h, int bpc, const int64_t opt[2])
{
    return vq_ssim_geom_init(g, w, h, bpc, (int)opt[0], opt[1] < 0 ? 0 : (int)opt[1]);
}

/* 1 when g is what vq_ssim_geom_init made (the executors check it) */
static inline int vq_ssim_geom_valid(const VqSsimGeom *g)
{
    VqSsimGeom c;
    if (!g || g->scale < 1 || vq_ssim_geom_init(&c, g->w, g->h, g->bpc, g->features, g->scale) < 0)
        return 0;
    return c.sw == g->sw && c.sh == g->sh && c.msw[VQ_MS_SSIM_SCALES - 1] == g->msw[VQ_MS_SSIM_SCALES - 1] &&
           c.msh[VQ_MS_SSIM_SCALES - 1] == g->msh[VQ_MS_SSIM_SCALES - 1];
}

/* ---- CPU --------------------------------------------------------------- */

/* One VqSsimCpu holds one frame pair's working images: frames that run at
 * the same time need one each. */
typedef struct VqSsimCpu VqSsimCpu;

/* NULL on out of memory or a g not made by vq_ssim_geom_init. */
VqSsimCpu *vq_ssim_cpu_alloc(const VqSsimGeom *g);
void vq_ssim_cpu_free(VqSsimCpu *c);

/* The frame pair (luma views, g->w x g->h) on the calling thread; writes
 * the words of g->features.  0, or -1 on views of another size. */
int vq_ssim_cpu_run(VqSsimCpu *c, VqPlaneView ref, VqPlaneView dis, int64_t *words);

/*
 * The same in row bands on several threads, as stages (each stage's bands
 * may run at once; a stage of step k starts when step k - 1 has ended):
 *   VQ_SSIM_OP_FLOAT:  rows of the frame as floats (ms[0]);
 *   VQ_SSIM_OP_DEC:    output rows of image id's decimation: float_ssim's box
 *                      (VQ_SSIM_IMAGE_BOX, reads ms[0]) or float_ms_ssim's
 *                      scale id = 1..4 (reads scale id - 1);
 *   VQ_SSIM_OP_TERMS:  output rows (0 .. h - 11) of image id's per-pixel terms;
 *   VQ_SSIM_OP_SUM:    image id's sums, term by term in raster order, into the
 *                      words of every feature that reads that image (one
 *                      item, rows 0).
 * The images: float_ms_ssim's scales 0..4 (ids 0..4) and float_ssim's (0
 * unless it decimates, then VQ_SSIM_IMAGE_BOX).  vq_ssim_cpu_stages lists
 * g's stages (at most VQ_SSIM_MAX_STAGES, steps 0..6) and returns their
 * count; vq_ssim_cpu_stage_run runs rows [row_begin, row_end) of one.
 * vq_ssim_cpu_bands first: the buffers of `workers` bands running at once
 * and the images' terms (some 20 bytes per pixel of every image scored).
 * The words equal vq_ssim_cpu_run's, bit for bit.  0 or -1 (out of memory).
 */
enum { VQ_SSIM_IMAGE_BOX = VQ_MS_SSIM_SCALES, VQ_SSIM_IMAGES };
enum { VQ_SSIM_OP_FLOAT, VQ_SSIM_OP_DEC, VQ_SSIM_OP_TERMS, VQ_SSIM_OP_SUM };
typedef struct VqSsimStage {
    int32_t step, op, id;
    int32_t rows;            /* the rows its bands split (0: VQ_SSIM_OP_SUM) */
} VqSsimStage;
#define VQ_SSIM_MAX_STAGES (1 + 3 * VQ_SSIM_IMAGES)
#define VQ_SSIM_CPU_STEPS 7
int vq_ssim_cpu_bands(VqSsimCpu *c, int workers);
int vq_ssim_cpu_stages(const VqSsimGeom *g, VqSsimStage st[VQ_SSIM_MAX_STAGES]);
int vq_ssim_cpu_stage_run(VqSsimCpu *c, const VqSsimStage *st, VqPlaneView ref, VqPlaneView dis,
                          int row_begin, int row_end, int64_t *words);

/* ---- CUDA (cuda_ssim.cu; not built without nvcc) ------------------------ */

typedef struct VqSsimCuda VqSsimCuda;

/* cudaMalloc of every working buffer (sized by g; nothing is allocated per
 * frame) and one upload of the buffer table.  0 or a cudaError_t value
 * (cudaErrorInvalidValue for a g not made by vq_ssim_geom_init). */
int vq_ssim_cuda_alloc(VqSsimCuda **c, const VqSsimGeom *g);
void vq_ssim_cuda_free(VqSsimCuda *c);

/*
 * Enqueues the frame pair on stream (a cudaStream_t; NULL: the legacy
 * default stream); ref/dis data and d_words (VQ_SSIM_NWORDS words) are in
 * device memory.  The working buffers are reused by the next run enqueued
 * on the same VqSsimCuda (runs on one stream are ordered).  No allocation,
 * no synchronisation.  0 or a cudaError_t value.
 */
int vq_ssim_cuda_run(VqSsimCuda *c, VqPlaneView ref, VqPlaneView dis, int64_t *d_words,
                     void *stream);

#ifdef __cplusplus
}
#endif
#endif /* VQ_SSIM_EXEC_H */
