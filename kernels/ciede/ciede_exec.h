/*
 * ciede_exec.h - the ciede executors and their per-frame buffer.
 *
 * libvmaf adds the per-pixel float dE00 into one double, pixel by pixel in
 * raster order.  The executors give the host, per row, an exact fixed-point
 * sum of the row's decided values and the lowest set bit among them; the
 * host (hostmath/ciede/ciede_fold.cpp, docs/ciede.md section 5) proves per row
 * that the reference's sequential adds do not round and takes the exact sum,
 * or else adds that row's values one by one from the per-pixel words, which
 * stay with the executor (host memory of the CPU executor, a per-slot device
 * buffer of the CUDA executor: vq_ciede_cuda_fetch_rows).
 *
 * Buffer (int64 words), vq_ciede_buffer_words(w, h) = VQ_CIEDE_ROW_OFF + 4 h:
 *   [0]                      n: entries in the special-pixel list (below)
 *   [1, 1 + 2 * INLINE)      the first INLINE list entries, two words each
 *                            (unused ones 0)
 *   [ROW_OFF + 4 r, + 4)     row r: limb0, limb1, limb2, key
 * Row words: the row's pixels whose word is exact (specials excluded) in
 *   fixed point, unit 2^-VQ_CIEDE_FIX_FRAC: each value is an integer
 *   v < 2^96, split in three 32-bit limbs, each limb summed over the row in
 *   a uint64 (w < 2^31: no overflow): the sum is l0 + l1 2^32 + l2 2^64.
 *   key: the maximum over the row's nonzero values of VQ_CIEDE_TZ_BIAS - tz
 *   (tz: the exponent of the value's lowest set bit), 0 when none, and
 *   >= VQ_CIEDE_KEY_FALLBACK when a value is not representable (NaN, inf,
 *   negative, >= 2^VQ_CIEDE_FIX_EXP, or tz < -VQ_CIEDE_FIX_FRAC): the host
 *   then adds the row pixel by pixel.  Integer sums and a max: any order.
 * A pixel word (the executors' per-pixel buffers) is hi32:lo32 with
 *   hi32 == VQ_CIEDE_TAG_EXACT: lo32 is dE00 (float bits), exact;
 *   hi32 == VQ_CIEDE_TAG_LIST:  lo32 is the pixel's position in the list:
 *       the device could not decide it, the host recomputes it from the
 *       samples stored there;
 *   otherwise (a float >= 0): two candidates.  hi32 is C'bar; dE00 is
 *       lo32 & 0x7fffffff (float bits) if glibc's powf(C'bar, 7) is the lower
 *       of the two floats around C'bar^7, else its neighbour (one float up
 *       when bit 31 is clear, down when set).  Only powf is left to the host.
 * Every pixel whose word is not exact (listed or two-candidate) has a list
 * entry, so that the host knows its row and value without the pixel words:
 *   listed:        word 0 = pixel index | ry << 32 | ru << 48,
 *                  word 1 = rv | dy << 16 | du << 32 | dv << 48;
 *   two-candidate: word 0 = pixel index | VQ_CIEDE_ENTRY_TWO,
 *                  word 1 = the pixel word.
 * (pixel index < 2^31: vq_ciede_check refuses larger frames.)
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
/* the exact pixel word of a float dE00 (its bits) */
VQ_HD uint64_t vq_ciede_exact_word(uint32_t bits)
{
    return ((uint64_t)VQ_CIEDE_TAG_EXACT << 32) | bits;
}
#define VQ_CIEDE_TAG_LIST  0xfffffffeu
#define VQ_CIEDE_ROW_OFF   (1 + 2 * VQ_CIEDE_LIST_INLINE)
#define VQ_CIEDE_ROW_WORDS 4
#define VQ_CIEDE_ENTRY_TWO 0x80000000u      /* in a list entry's word 0 */
#define VQ_CIEDE_MAX_PIXELS 0x7fffffff      /* w * h at most */
/* the fixed point of the row sums: unit 2^-FIX_FRAC, values below 2^FIX_EXP */
#define VQ_CIEDE_FIX_FRAC  64
#define VQ_CIEDE_FIX_EXP   32
#define VQ_CIEDE_TZ_BIAS   1024
#define VQ_CIEDE_KEY_FALLBACK 0x100000u

static inline size_t vq_ciede_buffer_words(int w, int h)
{
    (void)w;
    return (size_t)VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * (size_t)h;
}

/*
 * Where the fold finds the pixel words of a row that falls back (a row
 * whose sum it cannot prove exact: docs/ciede.md section 5): px, every pixel
 * word in host memory (the CPU executor's, w * h words), or else fetch(ctx,
 * row0, nrows, dst), which copies rows row0 .. row0 + nrows - 1 (w words
 * each) into dst and returns 0 (the CUDA executor's device buffer).
 */
typedef struct VqCiedeRowSource {
    const int64_t *px;
    int (*fetch)(void *ctx, int row0, int nrows, int64_t *dst);
    void *ctx;
} VqCiedeRowSource;

/* What the module's executors keep for the fold of the last frame they ran
 * (kernels/module.h: fold_data): the row source and the list entries past
 * VQ_CIEDE_LIST_INLINE (NULL when there are none). */
typedef struct VqCiedeFoldData {
    VqCiedeRowSource src;
    const int64_t *extra;
} VqCiedeFoldData;

/* The geometry of the reference's sample reads (kernels/ciede/ciede.h,
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

/* dE00 of one pixel (ref Y U V, dis Y U V), exactly as libvmaf computes it
 * (glibc's math calls: host code; kernels/cpu_ciede.cpp). */
float vq_ciede_pixel_ref(const uint32_t s[6], int bpc);

/* The CPU executor: the reference per pixel (glibc), exact words only.
 * px: its per-pixel words (w * h, host memory, read by the fold for rows
 * that fall back).  _rows writes the pixel words and the row words of rows
 * [row0, row1) only (rows are independent: threads may split them);
 * vq_ciede_cpu_run also clears the head (n = 0, inline entries 0) and does
 * every row. */
void vq_ciede_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                      int64_t *buf, int64_t *px);
void vq_ciede_cpu_run_rows(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                           int64_t *buf, int64_t *px, int row0, int row1);

/* The device stage (kernels/ciede/ciede.h, vq_ciede_dev_pixel) run by a CPU loop:
 * the same buffer and pixel words the CUDA kernel writes (list entries in
 * raster order; the kernel's order and so its list positions may differ).
 * For tests and for checking the GPU.  extra: room for the entries past
 * VQ_CIEDE_LIST_INLINE (2 * w * h words), or NULL to drop them; px: w * h
 * pixel words, or NULL. */
void vq_ciede_dev_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                          int64_t *buf, int64_t *extra, int64_t *px);

typedef struct VqCiedeCuda VqCiedeCuda;

/* slots: frames in flight (each has its own overflow list and pixel words:
 * 24 bytes per pixel per slot); only: -1, every slot's, or the one slot
 * 0 .. slots - 1 this state will run (the others then refuse to run).  bpc 8:
 * frames of 8 bits per sample read stage A from the device's table (made
 * here, synchronously, if no session has it yet; VQ_CUDA_CIEDE_TABLE=0:
 * never); other bpc: no table.  0 or a cudaError_t. */
int  vq_ciede_cuda_alloc(VqCiedeCuda **p, int w, int h, int bpc, int slots, int only);
void vq_ciede_cuda_free(VqCiedeCuda *p);
/* Views point to device memory; d_buf is the frame's buffer in device
 * memory (vq_ciede_buffer_words words, every word written); the pixel words
 * go to the slot's own device buffer.  Asynchronous on `stream`: a memset of
 * the buffer, then the kernel.  0 or a cudaError_t. */
int  vq_ciede_cuda_run(VqCiedeCuda *p, int slot, const VqPlaneView ref[3], const VqPlaneView dis[3],
                       const VqCiedeGeom *g, int64_t *d_buf, void *stream);
/* After the frame's buffer is on the host with n = buf[0] > INLINE: copies
 * list entries INLINE .. n-1 (2 words each) into dst; synchronous. */
int  vq_ciede_cuda_fetch_list(VqCiedeCuda *p, int slot, int64_t n, int64_t *dst, void *stream);
/* After the frame's work is done (its stream synchronized): copies the
 * slot's pixel words of rows row0 .. row0 + nrows - 1 (w words each) into
 * dst, on a stream of the state's own (not ordered after work queued since
 * on the caller's streams: the slot must not be run again before);
 * synchronous.  0 or a cudaError_t. */
int  vq_ciede_cuda_fetch_rows(VqCiedeCuda *p, int slot, int row0, int nrows, int64_t *dst);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CIEDE_EXEC_H */
