/*
 * cuda_cambi.cu - the CUDA executor of CAMBI: thin kernels around cambi.h.
 *
 * Per pass, on one stream (no allocation, no synchronisation), 19 to 25
 * launches whatever the scales:
 *   load (+ anti-dither), 7x7 flat counts -> scale-0 mask, [decimate];
 *   per scale s: the mode filter, which also writes the pixels' band rows
 *   (masked, in the band, else -1) and decimates for scale s + 1;
 *   then for every scale at once: c-values (one grid), the three radix
 *   passes of the selection, the row words, the pooling decisions; and a
 *   cooperative pooling launch per scale (it exits at once unless needed).
 * The c-value kernel is the expensive one.  A block owns a strip of
 * kStrip output columns and a band of rows of one scale; its window
 * histograms (band rows x kStrip columns, uint16 counters two to a word)
 * live in shared memory, one column per thread, so no two threads ever
 * touch the same counter: the block fills them for its first row (the
 * whole window), then slides down one row at a time (the row leaving and
 * the row entering, 2 pad + 1 columns each), with shared atomics that do
 * not wait on each other.  Where the window is large (4K's default), a
 * block keeps a byte histogram per column instead and sums the columns of
 * the few band rows each row's c-values read (cuda_cambi_cols.cuh).
 * Either kernel's block first trims its rows to those from the first to
 * the last holding a pixel that needs a c-value (cvalue_trim), and a block
 * with none only writes its zeros (VQ_CUDA_CAMBI_TRIM=0: every row).
 * The column kernel runs twice: a compact launch first, whose histograms
 * hold only the band rows the block's pixels hold (cvalue_slots, at most
 * 144: a 4K block needs 30 KB of shared memory instead of 83, seven fit
 * an SM instead of two), then the full one for the blocks that hold more.
 * Counts are integers: any order gives the reference's.
 * The selection of T (the k-th largest c-value) is an exact radix select on
 * the float bits (11 + 11 + 10 bits, integer counts); the row words are
 * integer sums and minima (hostmath/cambi/cambi_fold.h).
 * When those cannot give the reference's top-k sum (its double sum rounds:
 * 4K), one cooperative kernel redoes the reference's order on the device:
 * quick_select as parallel partition rounds, then the sequential double
 * sum as parity-transducer scans, one per binade (kernels/cambi/cambi.h).
 * The device calls no math library function.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <new>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "cambi/cambi.h"
#include "cambi/cambi_exec.h"
#include "cuda_reduce.cuh"

namespace {

constexpr int kThreads = 256;       /* element-wise kernels, row words */
constexpr int kStrip = 64;          /* c-values: output columns (threads) per block */
constexpr int kMaxPad = 32;         /* the largest window the setup allows is 65 */
constexpr int kBatch = 8;           /* c-values: window updates loaded before they are applied */
constexpr int kBins = 2048;         /* radix select: digits of 11, 11 and 10 bits */
constexpr int kFindThreads = 1024;
constexpr int kSelBlocks = 264;     /* histogram passes: grid-stride */
constexpr int kPoolThreads = 256;   /* the cooperative pooling kernel */
constexpr int kPoolMaxBlocks = 1024;
constexpr int kPoolSolo = 8192;     /* partition rounds on at most this many: block 0 alone */
constexpr int kPoolWindow = 1 << 16;  /* a binade's scan: next / 2 + this past next */

struct SelState {
    uint32_t prefix;   /* the digits of T found so far */
    uint32_t krem;     /* T is the krem-th largest of the values with that prefix */
    uint32_t tbits;
    uint32_t unused;
    uint32_t hist[kBins];
};

/* the cooperative pooling kernel's state (per scale, reused) */
struct PoolState {
    int active;        /* this scale needs the reference's order */
    int g;             /* lowest-bit minimum of the top-k */
    int M;             /* partition round: swaps */
    int cross;         /* sum: first index whose addition may round / leaves the binade */
    int next;          /* sum: next index to add */
    int done;
    double s;          /* sum: the partial sum before index next */
    unsigned blk_le[kPoolMaxBlocks], blk_ge[kPoolMaxBlocks];
    unsigned long long blk_sat[kPoolMaxBlocks];
    VqCambiAdd blk_add[kPoolMaxBlocks];
};

/* what the batched kernels (every scale in one launch, blockIdx.y or the
 * block's index picking the scale) need of each scale */
struct Scales {
    const float *cv[VQ_CAMBI_SCALES];
    int n[VQ_CAMBI_SCALES];              /* its c-values */
    int sw[VQ_CAMBI_SCALES], sh[VQ_CAMBI_SCALES];
    int k[VQ_CAMBI_SCALES];              /* top-k count */
    int64_t *hdr[VQ_CAMBI_SCALES];       /* its selection words */
    int64_t *rows[VQ_CAMBI_SCALES];      /* its row words */
};

unsigned cdiv(long a, long b)
{
    return (unsigned)((a + b - 1) / b);
}

/* VQ_CUDA_CAMBI_RUNS=0: the c-value kernel's window changes column by
 * column, never by runs (the same counts; for parity and comparisons) */
int runs_enabled()
{
    static const int on = [] {
        const char *e = getenv("VQ_CUDA_CAMBI_RUNS");
        return !(e && !strcmp(e, "0"));
    }();
    return on;
}

/* A c-value block slides only through its rows from the first to the last
 * needing a c-value (cvalue_trim; the same values); VQ_CUDA_CAMBI_TRIM=0:
 * through all its rows (for measuring).  H100, 2026-12-07: a 1080p frame's
 * pass 789 -> 720 us, 4K 4019 -> 3834 us; 8 processes with cambi 79.1% ->
 * 83.1% of decode-only, every feature at 2160p 91.9% -> 95.9%
 * (docs/cambi.md section 6) */
int trim_enabled()
{
    static const int on = [] {
        const char *e = getenv("VQ_CUDA_CAMBI_TRIM");
        return !(e && !strcmp(e, "0"));
    }();
    return on;
}

/* ---- preprocessing ------------------------------------------------------ */

__global__ void __launch_bounds__(kThreads)
cambi_load_kernel(VqPlaneView in, VqCambiParams p, const VqCambiTables *__restrict__ t,
                  uint16_t *__restrict__ out)
{
    const int j = blockIdx.x * kThreads + threadIdx.x, i = blockIdx.y;
    if (j < p.w)
        out[(size_t)i * p.w + j] = vq_cambi_load10(in, &p, t->x_idx, t->y_idx, i, j);
}

__global__ void __launch_bounds__(kThreads)
cambi_antidither_kernel(const uint16_t *__restrict__ img, int w, int h, uint16_t *__restrict__ out)
{
    const int j = blockIdx.x * kThreads + threadIdx.x, i = blockIdx.y;
    if (j < w)
        out[(size_t)i * w + j] = vq_cambi_antidither_at(img, w, w, h, i, j);
}

/* vertical 7-sums of the flat map (computed on the fly) */
__global__ void __launch_bounds__(kThreads)
cambi_flat_colsum_kernel(const uint16_t *__restrict__ img, int w, int h, uint8_t *__restrict__ out)
{
    const int j = blockIdx.x * kThreads + threadIdx.x, i = blockIdx.y;
    const int r = VQ_CAMBI_MASK_FILTER >> 1;
    if (j >= w)
        return;
    int sum = 0;
    for (int k = max(0, i - r); k <= min(h - 1, i + r); k++)
        sum += vq_cambi_zero_deriv(img, w, w, h, k, j);
    out[(size_t)i * w + j] = (uint8_t)sum;
}

__global__ void __launch_bounds__(kThreads)
cambi_mask_kernel(const uint8_t *__restrict__ colsum, int w, int mask_index,
                  uint8_t *__restrict__ mask)
{
    const int j = blockIdx.x * kThreads + threadIdx.x, i = blockIdx.y;
    const int r = VQ_CAMBI_MASK_FILTER >> 1;
    if (j >= w)
        return;
    const uint8_t *row = colsum + (size_t)i * w;
    uint32_t sum = 0;
    for (int c = max(0, j - r); c <= min(w - 1, j + r); c++)
        sum += row[c];
    mask[(size_t)i * w + j] = sum > (uint32_t)mask_index;
}

/* out (sw x sh, packed) = src at (2i, 2j) */
__global__ void __launch_bounds__(kThreads)
cambi_decimate_kernel(const uint16_t *__restrict__ src, int src_stride, int sw,
                      uint16_t *__restrict__ out)
{
    const int j = blockIdx.x * kThreads + threadIdx.x, i = blockIdx.y;
    if (j < sw)
        out[(size_t)i * sw + j] = src[(size_t)(2 * i) * src_stride + 2 * j];
}

/*
 * The mode filter of scale s at (i, j), and what the later kernels need of
 * it: u (the pixel's histogram band row when mask0 counts it and its value
 * is in the band, else -1: all the c-value kernel reads) and, at even
 * (i, j), the next scale's decimated sample (when next is given).
 */
__global__ void __launch_bounds__(kThreads)
cambi_mode_kernel(VqCambiParams p, int s, const uint16_t *__restrict__ img,
                  const uint8_t *__restrict__ mask0, int16_t *__restrict__ u_out,
                  uint16_t *__restrict__ next)
{
    const int sw = p.sw[s], sh = p.sh[s], sft = p.sshift[s];
    const int j = blockIdx.x * kThreads + threadIdx.x, i = blockIdx.y;
    if (j >= sw)
        return;
    const uint16_t v = vq_cambi_mode_at(img, sw, sw, sh, i, j);
    int u = -1;
    if (mask0[((size_t)i << sft) * p.w + ((size_t)j << sft)])
        u = vq_cambi_band_row(&p, v);
    u_out[(size_t)i * sw + j] = (int16_t)u;
    if (next && !(i & 1) && !(j & 1))
        next[(size_t)(i >> 1) * ((sw + 1) >> 1) + (j >> 1)] = v;
}

/* the c-values from window histograms (a part of this file) */
#include "cambi/cuda_cambi_cvalue.cuh"

/* the selection of T and the rows' words (a part of this file) */
#include "cambi/cuda_cambi_select.cuh"

/* the pooling decision and the reference-order pooling (a part of this file) */
#include "cambi/cuda_cambi_pool.cuh"

/* the c-values from column histograms (a part of this file) */
#include "cambi/cuda_cambi_cols.cuh"

/*
 * Which c-value kernel: the column histograms' (cuda_cambi_cols.cuh),
 * whose cost does not grow with the window, where the window is large
 * (pad >= 24: the default window where width + height reach about 4500;
 * 4K's pad is 32), else the window histograms', whose slide costs
 * 2 (2 pad + 1) changes per pixel (1080p: pad 16).  H100, whole commands
 * (every feature at 2160p): 74.5% of decode-only with the window
 * histograms, 82.0% with the column histograms (docs/cambi.md section 6).
 * VQ_CUDA_CAMBI_CVALUE=cols or =hist chooses one for every size (the same
 * values; for measuring).  The column kernel's bitmap holds bands of at
 * most 32 * kColsMaxBandWords rows.
 */
bool cvalue_cols(const VqCambiParams &p)
{
    static const int forced = [] {
        const char *e = getenv("VQ_CUDA_CAMBI_CVALUE");
        return !e ? 0 : !strcmp(e, "cols") ? 1 : !strcmp(e, "hist") ? -1 : 0;
    }();
    if (p.band_size > 32 * kColsMaxBandWords)
        return false;
    return forced ? forced > 0 : p.pad >= 24;
}

/* the window histograms' strip: output columns (threads) per block.
 * VQ_CUDA_CAMBI_STRIP=32 gives blocks of one warp (the same values; for
 * measuring) */
int hist_strip()
{
    static const int strip = [] {
        const char *e = getenv("VQ_CUDA_CAMBI_STRIP");
        return e && !strcmp(e, "32") ? 32 : 64;
    }();
    return strip;
}

size_t cvalue_smem(const VqCambiParams &p)
{
    return (size_t)((p.band_size + 1) >> 1) * hist_strip() * sizeof(uint32_t);
}

/*
 * The compact column kernel (large windows: cvalue_cols): a block's column
 * histograms hold only the band rows its pixels hold (cvalue_slots), at
 * most this many: 4K's default block needs 30 KB of shared memory instead
 * of 83, seven fit an SM instead of two; a block holding more leaves
 * itself to the full kernel, launched after it (the same counts either
 * way).  H100, a real 4K frame's pass: 3811-3837 -> 3330-3355 us
 * (docs/cambi.md section 6).  The window kernel has no compact twin: with
 * the same slots it took 959-963 us per 1080p frame against 723 (8-bit
 * sources are anti-dithered, so their blocks hold many band rows; the
 * split into two launches cost more than the occupancy gave).
 * VQ_CUDA_CAMBI_SLOTS=N sets the cap (an even number, 2..254; 0: the full
 * kernel alone; the same values; for measuring)
 */
int cvalue_slots_cap(const VqCambiParams &p)
{
    static const int forced = [] {
        const char *e = getenv("VQ_CUDA_CAMBI_SLOTS");
        const int v = e ? atoi(e) : -1;
        return v == 0 || (v >= 2 && v <= 254) ? v & ~1 : -1;
    }();
    const int cap = forced >= 0 ? forced : 144;
    return cvalue_cols(p) && cap > 0 && cap < p.band_size ? cap : 0;
}

size_t compact_smem(const VqCambiParams &p)
{
    return cols_smem(p, cvalue_slots_cap(p), true);
}

/* the window histograms' kernel for that strip */
using CvalueKernel = void (*)(VqCambiParams, CvGrid, const float *);
CvalueKernel hist_kernel()
{
    return hist_strip() == 32 ? cambi_cvalue_kernel<32> : cambi_cvalue_kernel<64>;
}

/* the output columns of a c-value block */
int cvalue_strip(const VqCambiParams &p)
{
    return cvalue_cols(p) ? kStrip : hist_strip();
}

/* rows per c-value block: the window fill costs about pad / rows of the
 * sliding; rows = 3 pad (a third) measured best with the default window at
 * 1080p and 4K (H100: 4 pad 3.7% and 1.3% slower; 24 rows at 1080p and
 * 64 at 4K slower too);
 * at least 32 (v1's small windows: more rows only cost).
 * VQ_CUDA_CAMBI_ROWS=N (8..1024) sets it instead (the same values; for
 * measuring the shape) */
int cvalue_rows(const VqCambiParams &p)
{
    static const int forced = [] {
        const char *e = getenv("VQ_CUDA_CAMBI_ROWS");
        const int v = e ? atoi(e) : 0;
        return v >= 8 && v <= 1024 ? v : 0;
    }();
    if (forced)
        return forced;
    if (cvalue_cols(p))   /* its window costs little to fill */
        return 32;
    const int r = 3 * p.pad;
    return r < 32 ? 32 : r;
}

/* the c-value grid's blocks: every scale's strips by bands of rows */
int cvalue_blocks(const VqCambiParams &p)
{
    int blocks = 0;
    for (int s = 0; s < VQ_CAMBI_SCALES; s++)
        blocks += (int)cdiv(p.sw[s], cvalue_strip(p)) * (int)cdiv(p.sh[s], cvalue_rows(p));
    return blocks;
}

} // namespace

struct VqCambiCuda {
    VqCambiParams p;
    VqCambiTables *d_tables;
    uint16_t *d_img10, *d_pre;
    uint16_t *d_dec[2];      /* a scale's decimated image: scale s reads d_dec[s & 1] */
    int16_t *d_u[VQ_CAMBI_SCALES];   /* band rows of the filtered, masked pixels */
    uint8_t *d_colsum, *d_mask0;
    uint8_t *d_big;          /* the compact c-value kernel's per-block word to the full one */
    float *d_cv[VQ_CAMBI_SCALES];
    SelState *d_sel;         /* one per scale */
    uint32_t *d_pool_a;      /* the partitioned copy of a scale's c-values */
    int *d_pool_pos;         /* 2 n0: partition ranks' positions, then the sum's scratch */
    PoolState *d_pool;       /* one per scale */
    int pool_blocks;         /* the cooperative grid */
};

extern "C" void vq_cambi_cuda_free(VqCambiCuda *c)
{
    if (!c)
        return;
    cudaFree(c->d_tables);
    cudaFree(c->d_img10);
    cudaFree(c->d_pre);
    cudaFree(c->d_dec[0]);
    cudaFree(c->d_dec[1]);
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        cudaFree(c->d_u[s]);
        cudaFree(c->d_cv[s]);
    }
    cudaFree(c->d_colsum);
    cudaFree(c->d_mask0);
    cudaFree(c->d_big);
    cudaFree(c->d_sel);
    cudaFree(c->d_pool_a);
    cudaFree(c->d_pool_pos);
    cudaFree(c->d_pool);
    delete c;
}

extern "C" int vq_cambi_cuda_alloc(VqCambiCuda **pc, const VqCambiParams *p, const VqCambiTables *t)
{
    *pc = NULL;
    if (!p || !t || p->w <= 0 || p->h <= 0 || p->band_size <= 0 || p->pad > kMaxPad)
        return (int)cudaErrorInvalidValue;
    VqCambiCuda *c = new (std::nothrow) VqCambiCuda();
    if (!c)
        return (int)cudaErrorMemoryAllocation;
    c->p = *p;
    const size_t n = (size_t)p->w * p->h;
    cudaError_t err = cudaMalloc((void **)&c->d_tables, sizeof(VqCambiTables));
    if (!err)
        err = cudaMalloc((void **)&c->d_img10, n * sizeof(uint16_t));
    if (!err)
        err = cudaMalloc((void **)&c->d_pre, n * sizeof(uint16_t));
    /* the largest decimated image: scale 0 with the speed-up, else 1 */
    const size_t ndec = (size_t)p->sw[p->high_res_speedup ? 0 : 1] * p->sh[p->high_res_speedup ? 0 : 1];
    for (int q = 0; q < 2 && !err; q++)
        err = cudaMalloc((void **)&c->d_dec[q], ndec * sizeof(uint16_t));
    for (int s = 0; s < VQ_CAMBI_SCALES && !err; s++) {
        const size_t ns = (size_t)p->sw[s] * p->sh[s];
        err = cudaMalloc((void **)&c->d_u[s], ns * sizeof(int16_t));
        if (!err)
            err = cudaMalloc((void **)&c->d_cv[s], ns * sizeof(float));
    }
    if (!err)
        err = cudaMalloc((void **)&c->d_colsum, n);
    if (!err)
        err = cudaMalloc((void **)&c->d_mask0, n);
    if (!err && cvalue_slots_cap(*p))
        err = cudaMalloc((void **)&c->d_big, (size_t)cvalue_blocks(*p));
    if (!err)
        err = cudaMalloc((void **)&c->d_sel, VQ_CAMBI_SCALES * sizeof(SelState));
    const size_t n0 = (size_t)p->sw[0] * p->sh[0];
    if (!err)
        err = cudaMalloc((void **)&c->d_pool_a, n0 * sizeof(uint32_t));
    if (!err)
        err = cudaMalloc((void **)&c->d_pool_pos, 2 * n0 * sizeof(int));
    if (!err)
        err = cudaMalloc((void **)&c->d_pool, VQ_CAMBI_SCALES * sizeof(PoolState));
    if (!err)
        err = cudaMemset(c->d_pool, 0, VQ_CAMBI_SCALES * sizeof(PoolState));
    /* the cooperative pooling grid (its blocks all resident at once) */
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    if (!err)
        err = cudaGetDevice(&dev);
    if (!err)
        err = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
    if (!err && !coop)
        err = cudaErrorNotSupported;
    if (!err)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (!err)
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cambi_pool_kernel, kPoolThreads, 0);
    if (!err) {
        /* one block per SM: its phases are bound by their grid barriers,
         * which cost less with fewer blocks, and the SMs' other slots stay
         * free for the other streams' kernels (H100, dog2160: 5.14 ms per
         * frame with every resident block, capped at 1024, or with 528;
         * 4.88 with 264, 4.80 with 132; 66 and 33 slower again).
         * VQ_CUDA_CAMBI_POOL_BLOCKS=N sets it (at most the resident
         * blocks; the same values) */
        c->pool_blocks = sms;
        const char *e = getenv("VQ_CUDA_CAMBI_POOL_BLOCKS");
        const int forced = e ? atoi(e) : 0;
        if (forced >= 1)
            c->pool_blocks = forced;
        if (c->pool_blocks > per_sm * sms)
            c->pool_blocks = per_sm * sms;
        if (c->pool_blocks > kPoolMaxBlocks)
            c->pool_blocks = kPoolMaxBlocks;
        if (c->pool_blocks < 1)
            err = cudaErrorNotSupported;
    }
    if (!err)
        err = cudaMemcpy(c->d_tables, t, sizeof(VqCambiTables), cudaMemcpyHostToDevice);
    if (!err)
        err = cudaMemset(c->d_sel, 0, VQ_CAMBI_SCALES * sizeof(SelState));
    if (!err)   /* the pageable copy is done before a non-blocking stream's kernel reads it */
        err = cudaStreamSynchronize(cudaStreamLegacy);
    if (!err)
        err = cvalue_cols(*p) ? cudaFuncSetAttribute(cambi_cvalue_cols_kernel<false>,
                                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                     (int)cols_smem(*p, p->band_size, false))
                              : cudaFuncSetAttribute(hist_kernel(), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                     (int)cvalue_smem(*p));
    if (!err && cvalue_slots_cap(*p))
        err = cudaFuncSetAttribute(cambi_cvalue_cols_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)compact_smem(*p));
    if (err) {
        vq_cambi_cuda_free(c);
        cudaGetLastError();   /* the error is returned, not left pending */
        return (int)err;
    }
    *pc = c;
    return 0;
}

extern "C" int vq_cambi_cuda_run(VqCambiCuda *c, VqPlaneView luma, const VqCambiLayout *l,
                                 int64_t *d_words, void *stream)
{
    if (!c || !l || luma.w != c->p.in_w || luma.h != c->p.in_h)
        return (int)cudaErrorInvalidValue;
    const VqCambiParams &p = c->p;
    cudaStream_t st = (cudaStream_t)stream;
    const int w = p.w, h = p.h;
    cudaError_t err;

    /* the selection states' counts are zero between passes; set them so
     * whatever an earlier failed run left */
    err = cudaMemsetAsync(c->d_sel, 0, VQ_CAMBI_SCALES * sizeof(SelState), st);
    if (err)
        return (int)err;
    cambi_load_kernel<<<dim3(cdiv(w, kThreads), h), kThreads, 0, st>>>(
        luma, p, c->d_tables, p.antidither ? c->d_img10 : c->d_pre);
    if (p.antidither)
        cambi_antidither_kernel<<<dim3(cdiv(w, kThreads), h), kThreads, 0, st>>>(c->d_img10, w, h,
                                                                                c->d_pre);
    cambi_flat_colsum_kernel<<<dim3(cdiv(w, kThreads), h), kThreads, 0, st>>>(c->d_pre, w, h,
                                                                             c->d_colsum);
    cambi_mask_kernel<<<dim3(cdiv(w, kThreads), h), kThreads, 0, st>>>(c->d_colsum, w,
                                                                      p.mask_index, c->d_mask0);
    if (p.high_res_speedup)
        cambi_decimate_kernel<<<dim3(cdiv(p.sw[0], kThreads), p.sh[0]), kThreads, 0, st>>>(
            c->d_pre, w, p.sw[0], c->d_dec[0]);

    /* the scales' images: each mode filter also decimates for the next */
    CvGrid g;
    Scales sc;
    const int rows = cvalue_rows(p);
    int blocks = 0, maxsh = 0;
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        const int sw = p.sw[s], sh = p.sh[s];
        const uint16_t *img = s == 0 && !p.high_res_speedup ? c->d_pre : c->d_dec[s & 1];
        uint16_t *next = s + 1 < VQ_CAMBI_SCALES ? c->d_dec[(s + 1) & 1] : NULL;
        cambi_mode_kernel<<<dim3(cdiv(sw, kThreads), sh), kThreads, 0, st>>>(p, s, img, c->d_mask0,
                                                                          c->d_u[s], next);
        g.u[s] = c->d_u[s];
        g.cv[s] = c->d_cv[s];
        g.strips[s] = (int)cdiv(sw, cvalue_strip(p));
        g.block0[s] = blocks;
        blocks += g.strips[s] * (int)cdiv(sh, rows);
        sc.cv[s] = c->d_cv[s];
        sc.n[s] = sw * sh;
        sc.sw[s] = sw;
        sc.sh[s] = sh;
        sc.k[s] = p.topk_count[s];
        sc.hdr[s] = d_words + l->sel_off[s];
        sc.rows[s] = d_words + l->row_off[s];
        maxsh = sh > maxsh ? sh : maxsh;
    }
    g.block0[VQ_CAMBI_SCALES] = blocks;
    g.rows = rows;
    g.runs = runs_enabled();
    g.trim = trim_enabled();
    g.slots = cvalue_slots_cap(p);
    g.big = g.slots ? c->d_big : NULL;
    if ((err = cudaGetLastError()))
        return (int)err;

    /* every scale's c-values in one grid, then the selections, the row
     * words and the pooling decisions of every scale at once */
    const float *recip =
        (const float *)((const char *)c->d_tables + offsetof(VqCambiTables, recip));
    if (g.big)   /* the blocks whose band rows fit its slots, then the others */
        cambi_cvalue_cols_kernel<true><<<blocks, kColsThreads, compact_smem(p), st>>>(p, g, recip);
    if (cvalue_cols(p))
        cambi_cvalue_cols_kernel<false><<<blocks, kColsThreads, cols_smem(p, p.band_size, false), st>>>(p, g, recip);
    else
        hist_kernel()<<<blocks, hist_strip(), cvalue_smem(p), st>>>(p, g, recip);
    const int sel_blocks = (int)(cdiv(sc.n[0], kThreads) < (unsigned)kSelBlocks ? cdiv(sc.n[0], kThreads)
                                                                                 : kSelBlocks);
    for (int pass = 0; pass < 3; pass++) {
        cambi_sel_hist_kernel<<<dim3(sel_blocks, VQ_CAMBI_SCALES), kThreads, 0, st>>>(sc, pass, c->d_sel);
        cambi_sel_find_kernel<<<VQ_CAMBI_SCALES, kFindThreads, 0, st>>>(sc, pass, c->d_sel);
    }
    cambi_row_words_kernel<<<dim3(maxsh, VQ_CAMBI_SCALES), kThreads, 0, st>>>(sc, c->d_sel);
    cambi_pool_decide_kernel<<<VQ_CAMBI_SCALES, kThreads, 0, st>>>(sc, c->d_sel, c->d_pool);
    if ((err = cudaGetLastError()))
        return (int)err;
    /* each exits at once unless its scale's rows cannot give the sum */
    for (int s = 0; s < VQ_CAMBI_SCALES && !err; s++) {
        const float *cv = c->d_cv[s];
        int k = p.topk_count[s], nn = sc.n[s];
        uint32_t *pa = c->d_pool_a;
        int *ppos = c->d_pool_pos;
        PoolState *pst = c->d_pool + s;
        int64_t *hdr = sc.hdr[s];
        void *args[] = { (void *)&cv, (void *)&nn, (void *)&k, (void *)&pa, (void *)&ppos,
                         (void *)&pst, (void *)&hdr };
        err = cudaLaunchCooperativeKernel((const void *)cambi_pool_kernel, dim3(c->pool_blocks),
                                          dim3(kPoolThreads), args, 0, st);
    }
    return (int)err;
}

extern "C" int vq_cambi_cuda_cvalues(VqCambiCuda *c, int s, float *host, void *stream)
{
    if (!c || s < 0 || s >= VQ_CAMBI_SCALES || !host)
        return (int)cudaErrorInvalidValue;
    const size_t n = (size_t)c->p.sw[s] * c->p.sh[s];
    return (int)cudaMemcpyAsync(host, c->d_cv[s], n * sizeof(float), cudaMemcpyDeviceToHost,
                                (cudaStream_t)stream);
}

extern "C" int vq_cambi_cuda_cvalues_device(VqCambiCuda *c, int s, float *dev, void *stream)
{
    if (!c || s < 0 || s >= VQ_CAMBI_SCALES || !dev)
        return (int)cudaErrorInvalidValue;
    const size_t n = (size_t)c->p.sw[s] * c->p.sh[s];
    return (int)cudaMemcpyAsync(dev, c->d_cv[s], n * sizeof(float), cudaMemcpyDeviceToDevice,
                                (cudaStream_t)stream);
}

extern "C" int vq_cambi_cuda_pool_test(VqCambiCuda *c, const float *d_cv, int n, int k, int g,
                                       int64_t *d_hdr)
{
    if (!c || !d_cv || !d_hdr || n < 1 || n > c->p.sw[0] * c->p.sh[0] || k < 1 || k > n)
        return (int)cudaErrorInvalidValue;
    PoolState head;
    memset(&head, 0, sizeof(head));
    head.active = 1;
    head.g = g;
    cudaError_t err = cudaMemcpy(c->d_pool, &head, offsetof(PoolState, blk_le), cudaMemcpyHostToDevice);
    if (err)
        return (int)err;
    uint32_t *pa = c->d_pool_a;
    int *ppos = c->d_pool_pos;
    PoolState *pst = c->d_pool;
    void *args[] = { (void *)&d_cv, (void *)&n, (void *)&k, (void *)&pa, (void *)&ppos, (void *)&pst,
                     (void *)&d_hdr };
    err = cudaLaunchCooperativeKernel((const void *)cambi_pool_kernel, dim3(c->pool_blocks),
                                      dim3(kPoolThreads), args, 0, 0);
    if (!err)
        err = cudaDeviceSynchronize();
    return (int)err;
}
