/*
 * cuda_cambi.cu - the CUDA executor of CAMBI: thin kernels around cambi.h.
 *
 * Per pass, on one stream (no allocation, no synchronisation):
 *   load (+ anti-dither), 7x7 flat counts -> scale-0 mask,
 *   per scale s: [decimate], mode filter, c-values, selection, row words.
 * The c-value kernel is the expensive one.  A block owns a strip of
 * kStrip output columns and a band of rows; its window histograms (band
 * rows x kStrip columns, uint16) live in shared memory, one column per
 * thread, so no two threads ever touch the same counter: the block fills
 * them for its first row (the whole window), then slides down one row at
 * a time (the row leaving and the row entering, 2 pad + 1 columns each).
 * Counts are integers: any order gives the reference's.
 * The selection of T (the k-th largest c-value) is an exact radix select on
 * the float bits (11 + 11 + 10 bits, integer counts); the row words are
 * integer sums and minima (hostmath/cambi_fold.h).
 * The device calls no math library function.
 */
#include <stddef.h>

#include <new>

#include <cuda_runtime.h>

#include "cambi.h"
#include "cambi_exec.h"
#include "cuda_reduce.cuh"

namespace {

constexpr int kThreads = 256;       /* element-wise kernels, row words */
constexpr int kStrip = 64;          /* c-values: output columns (threads) per block */
constexpr int kBins = 2048;         /* radix select: digits of 11, 11 and 10 bits */
constexpr int kFindThreads = 1024;
constexpr int kSelBlocks = 264;     /* histogram passes: grid-stride */

struct SelState {
    uint32_t prefix;   /* the digits of T found so far */
    uint32_t krem;     /* T is the krem-th largest of the values with that prefix */
    uint32_t tbits;
    uint32_t unused;
    uint32_t hist[kBins];
};

unsigned cdiv(long a, long b)
{
    return (unsigned)((a + b - 1) / b);
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

__global__ void __launch_bounds__(kThreads)
cambi_mode_kernel(const uint16_t *__restrict__ img, int sw, int sh, uint16_t *__restrict__ out)
{
    const int j = blockIdx.x * kThreads + threadIdx.x, i = blockIdx.y;
    if (j < sw)
        out[(size_t)i * sw + j] = vq_cambi_mode_at(img, sw, sw, sh, i, j);
}

/* ---- c-values ------------------------------------------------------------ */

/* buf[q] = band row of scale pixel (r, c0 + q) when it is counted (masked,
 * in the band), else -1; also -1 outside the image */
__device__ __forceinline__ void stage_row(int16_t *buf, int span, const VqCambiParams &p, int s,
                                          const uint16_t *__restrict__ filt,
                                          const uint8_t *__restrict__ mask0, int r, int c0)
{
    const int sw = p.sw[s], sh = p.sh[s], sft = p.sshift[s];
    for (int q = threadIdx.x; q < span; q += kStrip) {
        const int c = c0 + q;
        int u = -1;
        if (r >= 0 && r < sh && c >= 0 && c < sw &&
            mask0[((size_t)r << sft) * p.w + ((size_t)c << sft)])
            u = vq_cambi_band_row(&p, filt[(size_t)r * sw + c]);
        buf[q] = (int16_t)u;
    }
}

/*
 * grid (strips, row bands).  Shared: hist[band_size][kStrip] (uint16),
 * then two staged rows of kStrip + 2 pad entries (int16).
 */
__global__ void __launch_bounds__(kStrip)
cambi_cvalue_kernel(VqCambiParams p, int s, const uint16_t *__restrict__ filt,
                    const uint8_t *__restrict__ mask0, const float *__restrict__ recip,
                    int rows_per_block, float *__restrict__ cv)
{
    extern __shared__ uint16_t smem[];
    const int sw = p.sw[s], sh = p.sh[s], pad = p.pad, sft = p.sshift[s];
    const int t = threadIdx.x;
    const int x0 = blockIdx.x * kStrip, col = x0 + t, c0 = x0 - pad;
    const int r0 = blockIdx.y * rows_per_block;
    const int r1 = min(sh, r0 + rows_per_block);
    const int span = kStrip + 2 * pad;
    uint16_t *hist = smem;
    int16_t *add = (int16_t *)(hist + (size_t)p.band_size * kStrip);
    int16_t *sub = add + span;

    for (int e = t; e < p.band_size * kStrip; e += kStrip)
        hist[e] = 0;
    /* the window of row r0: rows r0 - pad .. r0 + pad (clipped) */
    for (int r = max(0, r0 - pad); r <= min(sh - 1, r0 + pad); r++) {
        __syncthreads();
        stage_row(add, span, p, s, filt, mask0, r, c0);
        __syncthreads();
        for (int q = t; q <= t + 2 * pad; q++) {
            const int u = add[q];
            if (u >= 0)
                hist[u * kStrip + t]++;
        }
    }
    for (int i = r0; i < r1; i++) {
        if (i > r0) {
            __syncthreads();
            stage_row(add, span, p, s, filt, mask0, i + pad, c0);     /* -1 below the image */
            stage_row(sub, span, p, s, filt, mask0, i - pad - 1, c0); /* -1 above it */
            __syncthreads();
            for (int q = t; q <= t + 2 * pad; q++) {
                const int us = sub[q], ua = add[q];
                if (us >= 0)
                    hist[us * kStrip + t]--;
                if (ua >= 0)
                    hist[ua * kStrip + t]++;
            }
        }
        if (col < sw) {
            float v = 0.0f;
            if (mask0[((size_t)i << sft) * p.w + ((size_t)col << sft)])
                v = vq_cambi_c_value(&p, recip, filt[(size_t)i * sw + col], hist + t, kStrip);
            cv[(size_t)i * sw + col] = v;
        }
    }
}

/* ---- selection: T = the k-th largest c-value (as bits) -------------------- */

__device__ __forceinline__ int digit_shift(int pass)
{
    return pass == 0 ? 21 : (pass == 1 ? 10 : 0);
}

__device__ __forceinline__ uint32_t digit_mask(int pass)
{
    return pass == 2 ? 0x3ffu : 0x7ffu;
}

/* counts of the pass's digit among the values whose higher digits are the
 * prefix found so far (integer counts: any order) */
__global__ void __launch_bounds__(kThreads)
cambi_sel_hist_kernel(const float *__restrict__ cv, int n, int pass, SelState *st)
{
    __shared__ uint32_t h[kBins];
    for (int e = threadIdx.x; e < kBins; e += kThreads)
        h[e] = 0;
    __syncthreads();
    const int sh = digit_shift(pass);
    const uint32_t dm = digit_mask(pass);
    const int hi = sh + (pass == 2 ? 10 : 11);   /* bits above the digit */
    const uint32_t prefix = st->prefix;
    uint32_t zeros = 0;                          /* the common value 0: bin 0 of every pass */
    for (int x = blockIdx.x * kThreads + threadIdx.x; x < n; x += gridDim.x * kThreads) {
        const uint32_t b = vq_cambi_bits(cv[x]);
        if (pass > 0 && (b >> hi) != prefix)
            continue;
        if (b == 0)
            zeros++;
        else
            atomicAdd(&h[(b >> sh) & dm], 1u);
    }
    if (zeros)
        atomicAdd(&h[0], zeros);
    __syncthreads();
    for (int e = threadIdx.x; e < kBins; e += kThreads)
        if (h[e])
            atomicAdd(&st->hist[e], h[e]);
}

/* one block: the bin (from the top) holding the krem-th largest; clears
 * the counts for the next pass */
__global__ void __launch_bounds__(kFindThreads)
cambi_sel_find_kernel(int pass, int k, SelState *st)
{
    __shared__ uint32_t cum[kBins];      /* cum[r]: counts of bins kBins-1-r' for r' <= r */
    __shared__ uint32_t found;
    const int nb = pass == 2 ? 1024 : kBins;
    for (int r = threadIdx.x; r < kBins; r += kFindThreads) {
        const int e = nb - 1 - r;
        cum[r] = r < nb ? st->hist[e] : 0;
    }
    if (threadIdx.x == 0)
        found = 0xffffffffu;
    __syncthreads();
    for (int e = threadIdx.x; e < kBins; e += kFindThreads)
        st->hist[e] = 0;
    for (int o = 1; o < kBins; o <<= 1) {   /* inclusive scan (Hillis-Steele) */
        uint32_t v[kBins / kFindThreads];
        for (int q = 0; q < kBins / kFindThreads; q++) {
            const int r = threadIdx.x + q * kFindThreads;
            v[q] = cum[r] + (r >= o ? cum[r - o] : 0);
        }
        __syncthreads();
        for (int q = 0; q < kBins / kFindThreads; q++)
            cum[threadIdx.x + q * kFindThreads] = v[q];
        __syncthreads();
    }
    const uint32_t krem = pass == 0 ? (uint32_t)k : st->krem;
    for (int r = threadIdx.x; r < nb; r += kFindThreads)
        if (cum[r] >= krem && (r == 0 || cum[r - 1] < krem))
            found = (uint32_t)r;
    __syncthreads();
    if (threadIdx.x == 0) {
        const uint32_t r = found;   /* always found: krem <= the values counted */
        const uint32_t bin = (uint32_t)(nb - 1) - r;
        const uint32_t before = r ? cum[r - 1] : 0;
        const uint32_t prefix = pass == 0 ? bin : (st->prefix << (pass == 2 ? 10 : 11)) | bin;
        st->krem = krem - before;
        st->prefix = prefix;
        if (pass == 2)
            st->tbits = prefix;
    }
}

/* per row: count, 2^-32 sum and lowest-bit minimum of the values above T */
__global__ void __launch_bounds__(kThreads)
cambi_row_words_kernel(const float *__restrict__ cv, int sw, const SelState *st, int64_t *sel_word,
                       int64_t *row_words)
{
    __shared__ int smin[kThreads];
    const int i = blockIdx.x;
    const uint32_t tb = st->tbits;
    unsigned long long cnt = 0, sum = 0;
    int minexp = VQ_CAMBI_NONE_EXP;
    for (int j = threadIdx.x; j < sw; j += kThreads) {
        const uint32_t b = vq_cambi_bits(cv[(size_t)i * sw + j]);
        if (b > tb) {
            cnt++;
            sum += vq_cambi_fixed32(b);
            minexp = min(minexp, vq_cambi_lowbit_exp(b));
        }
    }
    cnt = vq_block_sum_u64<kThreads>(cnt);
    sum = vq_block_sum_u64<kThreads>(sum);
    smin[threadIdx.x] = minexp;
    __syncthreads();
    for (int o = kThreads / 2; o > 0; o >>= 1) {
        if ((int)threadIdx.x < o)
            smin[threadIdx.x] = min(smin[threadIdx.x], smin[threadIdx.x + o]);
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        int64_t *w = row_words + (size_t)i * VQ_CAMBI_ROW_WORDS;
        w[VQ_CAMBI_ROW_COUNT] = (int64_t)cnt;
        w[VQ_CAMBI_ROW_SUM] = (int64_t)sum;
        w[VQ_CAMBI_ROW_MINEXP] = smin[0];
        if (i == 0)
            *sel_word = (int64_t)tb;
    }
}

size_t cvalue_smem(const VqCambiParams &p)
{
    return (size_t)p.band_size * kStrip * sizeof(uint16_t) +
           2 * (size_t)(kStrip + 2 * p.pad) * sizeof(int16_t);
}

/* rows per c-value block: the window fill costs about pad / rows of the
 * sliding, so rows = 4 pad keeps it near a quarter */
int cvalue_rows(const VqCambiParams &p)
{
    const int r = 4 * p.pad;
    return r < 32 ? 32 : r;
}

} // namespace

struct VqCambiCuda {
    VqCambiParams p;
    VqCambiTables *d_tables;
    uint16_t *d_img10, *d_pre, *d_cur;
    uint16_t *d_filt[VQ_CAMBI_SCALES];
    uint8_t *d_colsum, *d_mask0;
    float *d_cv[VQ_CAMBI_SCALES];
    SelState *d_sel;
};

extern "C" void vq_cambi_cuda_free(VqCambiCuda *c)
{
    if (!c)
        return;
    cudaFree(c->d_tables);
    cudaFree(c->d_img10);
    cudaFree(c->d_pre);
    cudaFree(c->d_cur);
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        cudaFree(c->d_filt[s]);
        cudaFree(c->d_cv[s]);
    }
    cudaFree(c->d_colsum);
    cudaFree(c->d_mask0);
    cudaFree(c->d_sel);
    delete c;
}

extern "C" int vq_cambi_cuda_alloc(VqCambiCuda **pc, const VqCambiParams *p, const VqCambiTables *t)
{
    *pc = NULL;
    if (!p || !t || p->w <= 0 || p->h <= 0 || p->band_size <= 0)
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
    if (!err)
        err = cudaMalloc((void **)&c->d_cur, n * sizeof(uint16_t));
    for (int s = 0; s < VQ_CAMBI_SCALES && !err; s++) {
        const size_t ns = (size_t)p->sw[s] * p->sh[s];
        err = cudaMalloc((void **)&c->d_filt[s], ns * sizeof(uint16_t));
        if (!err)
            err = cudaMalloc((void **)&c->d_cv[s], ns * sizeof(float));
    }
    if (!err)
        err = cudaMalloc((void **)&c->d_colsum, n);
    if (!err)
        err = cudaMalloc((void **)&c->d_mask0, n);
    if (!err)
        err = cudaMalloc((void **)&c->d_sel, sizeof(SelState));
    if (!err)
        err = cudaMemcpy(c->d_tables, t, sizeof(VqCambiTables), cudaMemcpyHostToDevice);
    if (!err)
        err = cudaMemset(c->d_sel, 0, sizeof(SelState));
    if (!err)
        err = cudaFuncSetAttribute(cambi_cvalue_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   (int)cvalue_smem(*p));
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

    /* the selection state's counts are zero between passes; set them so
     * whatever an earlier failed run left */
    err = cudaMemsetAsync(c->d_sel, 0, sizeof(SelState), st);
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
    if ((err = cudaGetLastError()))
        return (int)err;

    const size_t smem = cvalue_smem(p);
    const float *recip =
        (const float *)((const char *)c->d_tables + offsetof(VqCambiTables, recip));
    const int rows = cvalue_rows(p);
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        const int sw = p.sw[s], sh = p.sh[s];
        const dim3 g(cdiv(sw, kThreads), sh);
        const uint16_t *img = c->d_pre;   /* scale 0 without the speed-up */
        if (s > 0 || p.high_res_speedup) {
            const uint16_t *src = s ? c->d_filt[s - 1] : c->d_pre;
            const int src_stride = s ? p.sw[s - 1] : w;
            cambi_decimate_kernel<<<g, kThreads, 0, st>>>(src, src_stride, sw, c->d_cur);
            img = c->d_cur;
        }
        cambi_mode_kernel<<<g, kThreads, 0, st>>>(img, sw, sh, c->d_filt[s]);
        cambi_cvalue_kernel<<<dim3(cdiv(sw, kStrip), cdiv(sh, rows)), kStrip, smem, st>>>(
            p, s, c->d_filt[s], c->d_mask0, recip, rows, c->d_cv[s]);
        const int n = sw * sh;
        const int blocks = (int)(cdiv(n, kThreads) < (unsigned)kSelBlocks ? cdiv(n, kThreads)
                                                                          : kSelBlocks);
        for (int pass = 0; pass < 3; pass++) {
            cambi_sel_hist_kernel<<<blocks, kThreads, 0, st>>>(c->d_cv[s], n, pass, c->d_sel);
            cambi_sel_find_kernel<<<1, kFindThreads, 0, st>>>(pass, p.topk_count[s], c->d_sel);
        }
        cambi_row_words_kernel<<<sh, kThreads, 0, st>>>(c->d_cv[s], sw, c->d_sel,
                                                        d_words + l->sel_off[s],
                                                        d_words + l->row_off[s]);
        if ((err = cudaGetLastError()))
            return (int)err;
    }
    return 0;
}

extern "C" int vq_cambi_cuda_cvalues(VqCambiCuda *c, int s, float *host, void *stream)
{
    if (!c || s < 0 || s >= VQ_CAMBI_SCALES || !host)
        return (int)cudaErrorInvalidValue;
    const size_t n = (size_t)c->p.sw[s] * c->p.sh[s];
    return (int)cudaMemcpyAsync(host, c->d_cv[s], n * sizeof(float), cudaMemcpyDeviceToHost,
                                (cudaStream_t)stream);
}
