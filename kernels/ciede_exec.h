/*
 * ciede_exec.h - the ciede executors and their per-frame buffer.
 *
 * libvmaf adds the per-pixel float dE00 into one double, pixel by pixel in
 * raster order, so no per-row partial sum can be formed: the buffer carries
 * one 8-byte word per pixel (hostmath/ciede_fold.cpp adds them in order).
 *
 * Buffer (int64 words), vq_ciede_buffer_words(w, h) in all:
 *   [0]                      n: entries in the list (below)
 *   [1, 1 + 2 * INLINE)      the first INLINE list entries, two words each
 *   [1 + 2 * INLINE, + w*h)  pixel words, raster order
 * A pixel word is hi32:lo32 with
 *   hi32 == VQ_CIEDE_TAG_EXACT: lo32 is dE00 (float bits), exact;
 *   hi32 == VQ_CIEDE_TAG_LIST:  lo32 is the pixel's position in the list:
 *       the device could not decide it, the host recomputes it from the
 *       samples stored there;
 *   otherwise (a float >= 0): two candidates.  hi32 is C'bar; dE00 is
 *       lo32 & 0x7fffffff (float bits) if glibc's powf(C'bar, 7) is the lower
 *       of the two floats around C'bar^7, else its neighbour (one float up
 *       when bit 31 is clear, down when set).  Only powf is left to the host.
 * A list entry: word 0 = pixel index | ry << 32 | ru << 48,
 *               word 1 = rv | dy << 16 | du << 32 | dv << 48.
 * The CPU executor writes only exact words (n = 0).  The CUDA executor
 * places entries past INLINE in a device list of its own, per slot: fetch
 * them with vq_ciede_cuda_fetch_list() before folding.
 */
#ifndef VQ_CIEDE_EXEC_H
#define VQ_CIEDE_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_CIEDE_LIST_INLINE 2048
#define VQ_CIEDE_TAG_EXACT 0xffffffffu
#define VQ_CIEDE_TAG_LIST  0xfffffffeu
#define VQ_CIEDE_PIX_OFF   (1 + 2 * VQ_CIEDE_LIST_INLINE)

static inline size_t vq_ciede_buffer_words(int w, int h)
{
    return (size_t)VQ_CIEDE_PIX_OFF + (size_t)w * (size_t)h;
}

/* The geometry of the reference's sample reads (kernels/ciede.h,
 * vq_ciede_chroma_sample). */
typedef struct VqCiedeGeom {
    int32_t w, h;        /* luma size */
    int32_t ssx, ssy;    /* chroma subsampling: 4:2:0 1,1; 4:2:2 1,0; 4:4:4 0,0 */
    int32_t cw, ch;      /* libvmaf's chroma plane size (floor) */
    int32_t stride;      /* libvmaf's chroma stride, in samples */
    int32_t bpc;
} VqCiedeGeom;

static inline VqCiedeGeom vq_ciede_geom(int w, int h, int ssx, int ssy, int bpc)
{
    VqCiedeGeom g;
    g.w = w;
    g.h = h;
    g.ssx = ssx;
    g.ssy = ssy;
    g.cw = w >> ssx;
    g.ch = h >> ssy;
    g.stride = (g.cw + 31) & ~31;
    g.bpc = bpc;
    return g;
}

/* The CPU executor: the reference per pixel (glibc), exact words only.
 * _rows writes the pixel words of rows [row0, row1) only (pixels are
 * independent: threads may split the rows); vq_ciede_cpu_run also clears the
 * head (n = 0, inline entries 0) and does every row. */
void vq_ciede_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                      int64_t *buf);
void vq_ciede_cpu_run_rows(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                           int64_t *buf, int row0, int row1);

/* The device stage (kernels/ciede.h, vq_ciede_dev_pixel) run by a CPU loop: the same words
 * the CUDA kernel writes (list entries in raster order; the kernel's order
 * may differ).  For tests and for checking the GPU.  extra: room for the
 * entries past VQ_CIEDE_LIST_INLINE (2 * w * h words), or NULL to drop them. */
void vq_ciede_dev_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                          int64_t *buf, int64_t *extra);

typedef struct VqCiedeCuda VqCiedeCuda;

/* slots: frames in flight (each has its own overflow list).  0 or a cudaError_t. */
int  vq_ciede_cuda_alloc(VqCiedeCuda **p, int w, int h, int slots);
void vq_ciede_cuda_free(VqCiedeCuda *p);
/* Views point to device memory; d_buf is the frame's buffer in device
 * memory (vq_ciede_buffer_words words, every word written).  Asynchronous
 * on `stream`.  0 or a cudaError_t. */
int  vq_ciede_cuda_run(VqCiedeCuda *p, int slot, const VqPlaneView ref[3], const VqPlaneView dis[3],
                       const VqCiedeGeom *g, int64_t *d_buf, void *stream);
/* After the frame's buffer is on the host with n = buf[0] > INLINE: copies
 * list entries INLINE .. n-1 (2 words each) into dst; synchronous. */
int  vq_ciede_cuda_fetch_list(VqCiedeCuda *p, int slot, int64_t n, int64_t *dst, void *stream);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CIEDE_EXEC_H */
