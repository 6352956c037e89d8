/*
 * cuda_cambi.cu - the CUDA executor of CAMBI: thin kernels around cambi.h.
 *
 * Per pass, on one stream (no allocation, no synchronisation), 19 to 24
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
 * not wait on each other.
 * Counts are integers: any order gives the reference's.
 * The selection of T (the k-th largest c-value) is an exact radix select on
 * the float bits (11 + 11 + 10 bits, integer counts); the row words are
 * integer sums and minima (hostmath/cambi_fold.h).
 * When those cannot give the reference's top-k sum (its double sum rounds:
 * 4K), one cooperative kernel redoes the reference's order on the device:
 * quick_select as parallel partition rounds, then the sequential double
 * sum as parity-transducer scans, one per binade (kernels/cambi.h).
 * The device calls no math library function.
 */
#include <stddef.h>
#include <string.h>

#include <new>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "cambi.h"
#include "cambi_exec.h"
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

/* ---- c-values ------------------------------------------------------------ */

/* every scale's c-value blocks in one grid: scale s owns blocks
 * block0[s] .. block0[s + 1] - 1, strips[s] strips by bands of rows rows */
struct CvGrid {
    const int16_t *u[VQ_CAMBI_SCALES];
    float *cv[VQ_CAMBI_SCALES];
    int strips[VQ_CAMBI_SCALES];
    int block0[VQ_CAMBI_SCALES + 1];
    int rows;
};

/* buf[q] = u of scale pixel (r, c0 + q), -1 outside the image */
__device__ __forceinline__ void stage_row(int16_t *buf, int span, const int16_t *__restrict__ u,
                                          int sw, int sh, int r, int c0)
{
    for (int q = threadIdx.x; q < span; q += kStrip) {
        const int c = c0 + q;
        buf[q] = r >= 0 && r < sh && c >= 0 && c < sw ? u[(size_t)r * sw + c] : (int16_t)-1;
    }
}

/*
 * Shared: the histograms as uint16 counters, two band rows to a 32-bit
 * word: thread t's counter of band row u is half u & 1 of word
 * (u >> 1) * kStrip + t (so a warp's 32 threads always touch 32 different
 * banks); and, in arrays of their own (so the compiler knows the counters
 * never alias them), the two staged rows of kStrip + 2 pad entries.  A
 * thread changes only its own counters, with shared atomics on the word
 * (counts stay below 2^16: nothing carries into the other half): the
 * atomics do not wait for each other, and a batch of kBatch updates is
 * loaded before any is applied.
 */
__global__ void __launch_bounds__(kStrip)
cambi_cvalue_kernel(VqCambiParams p, CvGrid g, const float *__restrict__ recip)
{
    extern __shared__ uint32_t smem32[];
    int s = 0;
    while (s < VQ_CAMBI_SCALES - 1 && (int)blockIdx.x >= g.block0[s + 1])
        s++;
    const int b = (int)blockIdx.x - g.block0[s];
    const int sw = p.sw[s], sh = p.sh[s], pad = p.pad;
    const int16_t *__restrict__ u = g.u[s];
    const int t = threadIdx.x;
    const int x0 = (b % g.strips[s]) * kStrip, col = x0 + t, c0 = x0 - pad;
    const int r0 = (b / g.strips[s]) * g.rows;
    const int r1 = min(sh, r0 + g.rows);
    const int span = kStrip + 2 * pad;
    const int nwords = ((p.band_size + 1) >> 1) * kStrip;
    const int nq = 2 * pad + 1;   /* a thread's window columns: t .. t + 2 pad */
    __shared__ int16_t add[kStrip + 2 * kMaxPad + kBatch], sub[kStrip + 2 * kMaxPad + kBatch];
    uint32_t *hw = smem32;
    uint32_t *mine = hw + t;
#define BAND_WORD(u) (mine + ((u) >> 1) * kStrip)
#define BAND_ONE(u) (1u << (((u) & 1) * 16))

    for (int e = t; e < nwords; e += kStrip)
        hw[e] = 0;
    /* the window of row r0: rows r0 - pad .. r0 + pad (clipped) */
    for (int r = max(0, r0 - pad); r <= min(sh - 1, r0 + pad); r++) {
        __syncthreads();
        stage_row(add, span, u, sw, sh, r, c0);
        __syncthreads();
        for (int q0 = 0; q0 < nq; q0 += kBatch) {
            int ua[kBatch];
#pragma unroll
            for (int k = 0; k < kBatch; k++)
                ua[k] = add[t + q0 + k];
#pragma unroll
            for (int k = 0; k < kBatch; k++)
                if (q0 + k < nq && ua[k] >= 0)
                    atomicAdd(BAND_WORD(ua[k]), BAND_ONE(ua[k]));
        }
    }
    for (int i = r0; i < r1; i++) {
        if (i > r0) {
            __syncthreads();
            stage_row(add, span, u, sw, sh, i + pad, c0);     /* -1 below the image */
            stage_row(sub, span, u, sw, sh, i - pad - 1, c0); /* -1 above it */
            __syncthreads();
            for (int q0 = 0; q0 < nq; q0 += kBatch) {
                int us[kBatch], ua[kBatch];
#pragma unroll
                for (int k = 0; k < kBatch; k++) {
                    us[k] = sub[t + q0 + k];
                    ua[k] = add[t + q0 + k];
                }
#pragma unroll
                for (int k = 0; k < kBatch; k++) {
                    if (q0 + k >= nq || us[k] == ua[k])
                        continue;
                    if (us[k] >= 0)
                        atomicSub(BAND_WORD(us[k]), BAND_ONE(us[k]));
                    if (ua[k] >= 0)
                        atomicAdd(BAND_WORD(ua[k]), BAND_ONE(ua[k]));
                }
            }
        }
        if (col < sw) {
            const int ui = u[(size_t)i * sw + col];
            float v = 0.0f;
            if (ui >= 0)
                v = vq_cambi_c_value_of(&p, recip, (uint32_t)(ui + p.band_base),
                                        [mine](int uu) { return (int)(*BAND_WORD(uu) >> ((uu & 1) * 16)) & 0xffff; });
            g.cv[s][(size_t)i * sw + col] = v;
        }
    }
#undef BAND_WORD
#undef BAND_ONE
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
cambi_sel_hist_kernel(Scales sc, int pass, SelState *sel)
{
    const int s = blockIdx.y, n = sc.n[s];
    const float *__restrict__ cv = sc.cv[s];
    SelState *st = sel + s;
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

/* block s: scale s's bin (from the top) holding the krem-th largest;
 * clears the counts for the next pass */
__global__ void __launch_bounds__(kFindThreads)
cambi_sel_find_kernel(Scales sc, int pass, SelState *sel)
{
    const int k = sc.k[blockIdx.x];
    SelState *st = sel + blockIdx.x;
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
cambi_row_words_kernel(Scales sc, const SelState *sel)
{
    __shared__ int smin[kThreads];
    const int s = blockIdx.y, i = blockIdx.x, sw = sc.sw[s];
    if (i >= sc.sh[s])
        return;
    const float *__restrict__ cv = sc.cv[s];
    const SelState *st = sel + s;
    int64_t *sel_word = sc.hdr[s] + VQ_CAMBI_SEL_T, *row_words = sc.rows[s];
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

/* ---- pooling in the reference's order (only where the rows cannot) -------- */

/* one block over the rows' words: the pool mode (header words), and for
 * mode 1 the cooperative kernel's go-ahead */
__global__ void __launch_bounds__(kThreads)
cambi_pool_decide_kernel(Scales sc, const SelState *sels, PoolState *pss)
{
    const int sc_i = blockIdx.x;
    const int64_t *__restrict__ rows = sc.rows[sc_i];
    const int sh = sc.sh[sc_i], k = sc.k[sc_i], n = sc.n[sc_i];
    const SelState *sel = sels + sc_i;
    int64_t *hdr = sc.hdr[sc_i];
    PoolState *ps = pss + sc_i;
    __shared__ unsigned long long s_lo[kThreads], s_hi[kThreads], s_cnt[kThreads];
    __shared__ int s_min[kThreads];
    const int t = threadIdx.x;
    unsigned long long lo = 0, hi = 0, cnt = 0;
    int mn = VQ_CAMBI_NONE_EXP;
    for (int r = t; r < sh; r += kThreads) {
        const int64_t *w = rows + (size_t)r * VQ_CAMBI_ROW_WORDS;
        const unsigned long long v = (unsigned long long)w[VQ_CAMBI_ROW_SUM];
        lo += v;
        hi += lo < v;
        cnt += (unsigned long long)w[VQ_CAMBI_ROW_COUNT];
        mn = min(mn, (int)w[VQ_CAMBI_ROW_MINEXP]);
    }
    s_lo[t] = lo;
    s_hi[t] = hi;
    s_cnt[t] = cnt;
    s_min[t] = mn;
    __syncthreads();
    for (int o = kThreads / 2; o > 0; o >>= 1) {
        if (t < o) {
            const unsigned long long a = s_lo[t], nlo = a + s_lo[t + o];
            s_hi[t] += s_hi[t + o] + (nlo < a);
            s_lo[t] = nlo;
            s_cnt[t] += s_cnt[t + o];
            s_min[t] = min(s_min[t], s_min[t + o]);
        }
        __syncthreads();
    }
    if (t == 0) {
        int g = 0;
        const int mode = vq_cambi_pool_mode(sel->tbits, (int64_t)s_cnt[0], s_hi[0], s_lo[0],
                                            s_min[0], k, n, &g);
        hdr[VQ_CAMBI_SEL_POOLED] = mode;
        hdr[VQ_CAMBI_SEL_SUM] = 0;
        ps->active = mode == VQ_CAMBI_POOL_EXECUTOR;
        ps->g = g;
    }
}

/* Loads of what other blocks wrote before a grid barrier: through L2
 * (ld.global.cg), never a stale L1 line. */
__device__ __forceinline__ uint32_t ld_u32(const uint32_t *p)
{
    return __ldcg((const unsigned int *)p);
}
__device__ __forceinline__ int ld_i32(const int *p)
{
    return __ldcg(p);
}
__device__ __forceinline__ VqCambiAdd ld_add(const VqCambiAdd *p)
{
    VqCambiAdd r;
    r.inc[0] = __ldcg((const long long *)&p->inc[0]);
    r.inc[1] = __ldcg((const long long *)&p->inc[1]);
    r.out[0] = __ldcg((const int *)&p->out[0]);
    r.out[1] = __ldcg((const int *)&p->out[1]);
    return r;
}

/* 2^e as a double, e in the normal range: exact, no libm */
__device__ __forceinline__ double pow2(int e)
{
    return __longlong_as_double((long long)(e + 1023) << 52);
}

/* a warp's shuffle of each element type the scans carry */
__device__ __forceinline__ unsigned long long shfl_up(unsigned long long v, int o)
{
    return __shfl_up_sync(0xffffffffu, v, o);
}
__device__ __forceinline__ VqCambiAdd shfl_up(const VqCambiAdd &v, int o)
{
    VqCambiAdd r;
    r.inc[0] = (int64_t)__shfl_up_sync(0xffffffffu, (long long)v.inc[0], o);
    r.inc[1] = (int64_t)__shfl_up_sync(0xffffffffu, (long long)v.inc[1], o);
    r.out[0] = __shfl_up_sync(0xffffffffu, v.out[0], o);
    r.out[1] = __shfl_up_sync(0xffffffffu, v.out[1], o);
    return r;
}

constexpr int kPoolWarps = kPoolThreads / 32;
constexpr int kPoolRun = 8;   /* consecutive elements per thread in the scans' tiles */

/* inclusive scan over the block in thread order (warp shuffles, then the
 * warps' totals); *excl is the element before (identity for thread 0),
 * *total the block's; sm (kPoolWarps entries) is free again on return.
 * op(a, b): a, then b (need not commute). */
template <typename T, typename Op>
__device__ __forceinline__ T block_scan(T v, T id, T *sm, Op op, T *excl, T *total)
{
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    T x = v;
    for (int o = 1; o < 32; o <<= 1) {
        const T y = shfl_up(x, o);
        if (lane >= o)
            x = op(y, x);
    }
    const T below = shfl_up(x, 1);
    if (lane == 31)
        sm[w] = x;
    __syncthreads();
    if (w == 0) {
        T z = lane < kPoolWarps ? sm[lane] : id;
        for (int o = 1; o < kPoolWarps; o <<= 1) {
            const T y = shfl_up(z, o);
            if (lane >= o)
                z = op(y, z);
        }
        if (lane < kPoolWarps)
            sm[lane] = z;
    }
    __syncthreads();
    const T before_warp = w ? sm[w - 1] : id;
    *excl = lane ? op(before_warp, below) : before_warp;
    *total = sm[kPoolWarps - 1];
    const T r = op(before_warp, x);
    __syncthreads();
    return r;
}

struct AddU64 {
    __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a + b; }
};
struct SatU64 {
    __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const
    {
        return vq_cambi_sat_add(a, b);
    }
};
struct Compose {
    __device__ VqCambiAdd operator()(VqCambiAdd a, VqCambiAdd b) const { return vq_cambi_add_compose(a, b); }
};

/* the composition of e[0 .. cnt-1] in order, over the block (every thread
 * gets it) */
__device__ VqCambiAdd block_compose(const VqCambiAdd *e, int cnt, VqCambiAdd *sm)
{
    const int per = (cnt + kPoolThreads - 1) / kPoolThreads;
    VqCambiAdd v = vq_cambi_add_identity();
    for (int q = threadIdx.x * per; q < min(cnt, (int)(threadIdx.x + 1) * per); q++)
        v = vq_cambi_add_compose(v, ld_add(&e[q]));
    VqCambiAdd excl, total;
    block_scan(v, vq_cambi_add_identity(), sm, Compose(), &excl, &total);
    return total;
}

/*
 * The reference's quick_select and sum on one scale, cooperative grid of
 * G blocks.  a: the scale's c-values as bits, partitioned in place;
 * pos: 2 n int32 (the ranks' positions, then the sum's 64-bit scratch).
 */
__device__ __forceinline__ void pool_one(const float *__restrict__ cv, int n, int k, uint32_t *a, int *pos,
                         PoolState *ps, int64_t *hdr)
{
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    __shared__ unsigned long long sm_u64[kPoolWarps];
    __shared__ VqCambiAdd sm_add[kPoolWarps];
    __shared__ unsigned red[4][kPoolThreads];
    const int G = gridDim.x, b = blockIdx.x, t = threadIdx.x;
    const volatile PoolState *vps = ps;

    if (!vps->active)
        return;   /* the same for every block */
    for (long x = (long)b * kPoolThreads + t; x < n; x += (long)G * kPoolThreads)
        a[x] = vq_cambi_bits(cv[x]);
    int *lpos = pos, *rpos = pos + n;
    grid.sync();

    /* ---- quick_select: partition rounds ---- */
    int left = 0, right = n - 1;
    while (k < n && left < right) {
        /* a short range: block 0 alone runs the remaining rounds (the same
         * steps with one chunk, block barriers instead of grid ones); the
         * others wait at the grid barrier after the loop */
        const bool solo = right - left + 1 <= kPoolSolo;
        if (solo && b != 0)
            break;
        const int Gr = solo ? 1 : G, br = solo ? 0 : b;
        const auto sync = [&] {
            if (solo)
                __syncthreads();
            else
                grid.sync();
        };
        const uint32_t pivot = ld_u32(&a[k]);
        const int m = right - left + 1, C = (m + Gr - 1) / Gr;
        const int c0 = left + br * C, c1 = min(c0 + C, right + 1);
        unsigned le = 0, ge = 0;
        for (int p = c0 + t; p < c1; p += kPoolThreads) {
            const uint32_t x = ld_u32(&a[p]);
            le += x <= pivot;
            ge += x >= pivot;
        }
        red[0][t] = le;
        red[1][t] = ge;
        __syncthreads();
        for (int o = kPoolThreads / 2; o > 0; o >>= 1) {
            if (t < o) {
                red[0][t] += red[0][t + o];
                red[1][t] += red[1][t + o];
            }
            __syncthreads();
        }
        if (t == 0) {
            ps->blk_le[br] = red[0][0];
            ps->blk_ge[br] = red[1][0];
            if (br == 0)
                ps->M = 0;
        }
        sync();

        /* this block's offsets: le before it, ge after it, totals */
        unsigned le_before = 0, le_all = 0, ge_after = 0, ge_all = 0;
        for (int q = t; q < Gr; q += kPoolThreads) {
            const unsigned l = vps->blk_le[q], g2 = vps->blk_ge[q];
            le_all += l;
            ge_all += g2;
            le_before += q < br ? l : 0;
            ge_after += q > br ? g2 : 0;
        }
        __syncthreads();
        red[0][t] = le_before;
        red[1][t] = le_all;
        red[2][t] = ge_after;
        red[3][t] = ge_all;
        __syncthreads();
        for (int o = kPoolThreads / 2; o > 0; o >>= 1) {
            if (t < o)
                for (int r = 0; r < 4; r++)
                    red[r][t] += red[r][t + o];
            __syncthreads();
        }
        const unsigned off_le = red[0][0], tot_le = red[1][0], off_ge = red[2][0], tot_ge = red[3][0];
        const unsigned chunk_ge = vps->blk_ge[br];
        __syncthreads();
        unsigned carry_le = 0, carry_ge = 0;
        int best = 0;
        /* tiles of kPoolThreads runs of kPoolRun consecutive elements: a
         * thread counts its run, one block scan, then the thread walks it */
        for (int base = c0; base < c1; base += kPoolThreads * kPoolRun) {
            const int p0 = base + t * kPoolRun;
            uint32_t xs[kPoolRun];
            unsigned nl = 0, ng = 0;
#pragma unroll
            for (int e = 0; e < kPoolRun; e++) {
                xs[e] = p0 + e < c1 ? ld_u32(&a[p0 + e]) : 0;
                nl += p0 + e < c1 && xs[e] <= pivot;
                ng += p0 + e < c1 && xs[e] >= pivot;
            }
            unsigned long long excl, total;
            block_scan((unsigned long long)nl << 32 | ng, 0ull, sm_u64, AddU64(), &excl, &total);
            unsigned cl = carry_le + (unsigned)(excl >> 32), cg = carry_ge + (unsigned)(excl & 0xffffffffu);
#pragma unroll
            for (int e = 0; e < kPoolRun; e++) {
                const int p = p0 + e;
                if (p < c1) {
                    const unsigned fl = xs[e] <= pivot, fg = xs[e] >= pivot;
                    cl += fl;   /* le in [c0, p] */
                    const int cnt_l = (int)(off_le + cl);
                    const int cnt_r = (int)(off_ge + chunk_ge) - (int)cg;   /* ge in [p, right] */
                    if (fl)
                        lpos[cnt_l - 1] = p;
                    if (fg)
                        rpos[cnt_r - 1] = p;
                    cg += fg;
                    best = max(best, min(cnt_l, cnt_r));
                }
            }
            carry_le += (unsigned)(total >> 32);
            carry_ge += (unsigned)(total & 0xffffffffu);
        }
        red[0][t] = (unsigned)best;
        __syncthreads();
        for (int o = kPoolThreads / 2; o > 0; o >>= 1) {
            if (t < o)
                red[0][t] = max(red[0][t], red[0][t + o]);
            __syncthreads();
        }
        if (t == 0)
            atomicMax(&ps->M, (int)red[0][0]);
        sync();

        /* the M swaps (distinct positions), then where i and j end */
        const int M = vps->M;
        for (long q = (long)br * kPoolThreads + t; q < M; q += (long)Gr * kPoolThreads) {
            const int x = ld_i32(&lpos[q]), y = ld_i32(&rpos[q]);
            if (x != y) {
                const uint32_t u = ld_u32(&a[x]), v = ld_u32(&a[y]);
                a[x] = v;
                a[y] = u;
            }
        }
        const int lm = ld_i32(&lpos[M - 1]), rm = ld_i32(&rpos[M - 1]);
        const int lnext = M < (int)tot_le ? ld_i32(&lpos[M]) : 0x7fffffff;
        const int rnext = M < (int)tot_ge ? ld_i32(&rpos[M]) : -1;
        int i, j;
        vq_cambi_partition_end(lm, rm, lnext, rnext, &i, &j);
        if (j < k)
            left = i;
        if (k < i)
            right = j;
        sync();
    }
    grid.sync();   /* block 0's solo rounds, if any, are done */

    /* ---- the sum of a[0 .. k-1] in index order ---- */
    const int g = vps->g;
    long long *scratch = (long long *)pos;   /* n entries (pos holds 2 n int32) */
    const unsigned long long two53 = 1ull << 53;
    {
        /* exact while the prefix in units of 2^g stays below 2^53 */
        const int C = (k + G - 1) / G, c0 = b * C, c1 = min(c0 + C, k);
        unsigned long long sat = 0;
        for (int p = c0 + t; p < c1; p += kPoolThreads)
            sat = vq_cambi_sat_add(sat, vq_cambi_units(ld_u32(&a[p]), g));
        unsigned long long excl, total;
        block_scan(sat, 0ull, sm_u64, SatU64(), &excl, &total);
        if (t == 0) {
            ps->blk_sat[b] = total;
            if (b == 0)
                ps->cross = k;
        }
        grid.sync();
        unsigned long long off = 0;
        for (int q = 0; q < b; q++)
            off = vq_cambi_sat_add(off, ((volatile unsigned long long *)ps->blk_sat)[q]);
        if (off < two53) {
            unsigned long long carry = off;
            for (int base = c0; base < c1 && carry < two53; base += kPoolThreads * kPoolRun) {
                const int p0 = base + t * kPoolRun;
                unsigned long long us[kPoolRun], run = 0;
#pragma unroll
                for (int e = 0; e < kPoolRun; e++) {
                    us[e] = p0 + e < c1 ? vq_cambi_units(ld_u32(&a[p0 + e]), g) : 0;
                    run = vq_cambi_sat_add(run, us[e]);
                }
                const unsigned long long incl = block_scan(run, 0ull, sm_u64, SatU64(), &excl, &total);
                unsigned long long pp = vq_cambi_sat_add(carry, excl);
                if (vq_cambi_sat_add(carry, incl) >= two53)
                    for (int e = 0; e < kPoolRun && p0 + e < c1; e++) {
                        pp = vq_cambi_sat_add(pp, us[e]);
                        if (pp >= two53) {   /* this run's first: the exact prefix before it */
                            scratch[p0 + e] = (long long)(pp - us[e]);
                            atomicMin(&ps->cross, p0 + e);
                            break;
                        }
                    }
                carry = vq_cambi_sat_add(carry, total);
            }
        }
        grid.sync();
        if (b == 0 && t == 0) {
            const int c = vps->cross;
            if (c >= k) {   /* never rounds (the rows would have said so) */
                unsigned long long all = 0;
                for (int q = 0; q < G; q++)
                    all = vq_cambi_sat_add(all, ((volatile unsigned long long *)ps->blk_sat)[q]);
                ps->s = (double)all * pow2(g);
                ps->next = k;
            } else {
                ps->s = (double)__ldcg(&scratch[c]) * pow2(g);
                ps->next = c;
            }
        }
        grid.sync();
    }
    /* one transducer scan per binade of the partial sum, over a window:
     * the sum about doubles before it leaves its binade, so the next
     * crossing is near 2 next; where the window holds none, the scan goes
     * on from its end in the same binade */
    for (;;) {
        const int next = ((volatile PoolState *)ps)->next;
        if (next >= k)
            break;
        const double s = ((volatile PoolState *)ps)->s;
        const unsigned long long sb = (unsigned long long)__double_as_longlong(s);
        const int eg = (int)((sb >> 52) & 0x7ff) - 1023 - 52;
        const long long S = (long long)((sb & ((1ull << 52) - 1)) | (1ull << 52));
        const int p0 = (int)(S & 1);
        const int end = (int)min((long long)k, (long long)next + next / 2 + kPoolWindow);
        const int m = end - next, C = (m + G - 1) / G;
        const int c0 = next + b * C, c1 = min(c0 + C, end);
        VqCambiAdd agg = vq_cambi_add_identity();
        for (int base = c0; base < c1; base += kPoolThreads * kPoolRun) {
            const int r0 = base + t * kPoolRun;
            VqCambiAdd run = vq_cambi_add_identity();
            for (int e = 0; e < kPoolRun && r0 + e < c1; e++)
                run = vq_cambi_add_compose(run, vq_cambi_add_step(ld_u32(&a[r0 + e]), eg));
            VqCambiAdd excl, total;
            block_scan(run, vq_cambi_add_identity(), sm_add, Compose(), &excl, &total);
            agg = vq_cambi_add_compose(agg, total);
        }
        if (t == 0) {
            ps->blk_add[b] = agg;
            if (b == 0)
                ps->cross = end;
        }
        grid.sync();
        const VqCambiAdd pre = block_compose((const VqCambiAdd *)ps->blk_add, b, sm_add);
        const long long sblk = S + pre.inc[p0];
        const int par = pre.out[p0];
        VqCambiAdd carry = vq_cambi_add_identity();
        for (int base = c0; base < c1; base += kPoolThreads * kPoolRun) {
            const int r0 = base + t * kPoolRun;
            uint32_t xs[kPoolRun];
            VqCambiAdd run = vq_cambi_add_identity();
            for (int e = 0; e < kPoolRun; e++) {
                xs[e] = r0 + e < c1 ? ld_u32(&a[r0 + e]) : 0;
                if (r0 + e < c1)
                    run = vq_cambi_add_compose(run, vq_cambi_add_step(xs[e], eg));
            }
            VqCambiAdd excl, total;
            block_scan(run, vq_cambi_add_identity(), sm_add, Compose(), &excl, &total);
            VqCambiAdd before = vq_cambi_add_compose(carry, excl);
            for (int e = 0; e < kPoolRun && r0 + e < c1; e++) {
                const long long sprev = sblk + before.inc[par];
                if (sprev + vq_cambi_add_floor(xs[e], eg) >= (long long)two53) {
                    scratch[r0 + e] = sprev;   /* this run's first to leave the binade */
                    atomicMin(&ps->cross, r0 + e);
                    break;
                }
                before = vq_cambi_add_compose(before, vq_cambi_add_step(xs[e], eg));
            }
            carry = vq_cambi_add_compose(carry, total);
        }
        grid.sync();
        if (b == 0 && t == 0) {
            const int c = vps->cross;
            if (c >= end) {   /* stays in this binade to the window's end */
                VqCambiAdd all = vq_cambi_add_identity();
                for (int q = 0; q < G; q++)
                    all = vq_cambi_add_compose(all, ld_add(&ps->blk_add[q]));
                ps->s = (double)(S + all.inc[p0]) * pow2(eg);
                ps->next = end;
            } else {        /* the addition that leaves the binade, as the reference does it */
                const double sprev = (double)__ldcg(&scratch[c]) * pow2(eg);
                ps->s = __dadd_rn(sprev, (double)__uint_as_float(ld_u32(&a[c])));
                ps->next = c + 1;
            }
        }
        grid.sync();
    }
    if (b == 0 && t == 0)
        hdr[VQ_CAMBI_SEL_SUM] = __double_as_longlong(((volatile PoolState *)ps)->s);
}

/* one scale (a launch per scale: one launch looping over the scales ran
 * three times slower on the H200) */
__global__ void __launch_bounds__(kPoolThreads)
cambi_pool_kernel(const float *__restrict__ cv, int n, int k, uint32_t *a, int *pos, PoolState *ps,
                  int64_t *hdr)
{
    pool_one(cv, n, k, a, pos, ps, hdr);
}

size_t cvalue_smem(const VqCambiParams &p)
{
    return (size_t)((p.band_size + 1) >> 1) * kStrip * sizeof(uint32_t);
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
    uint16_t *d_img10, *d_pre;
    uint16_t *d_dec[2];      /* a scale's decimated image: scale s reads d_dec[s & 1] */
    int16_t *d_u[VQ_CAMBI_SCALES];   /* band rows of the filtered, masked pixels */
    uint8_t *d_colsum, *d_mask0;
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
    /* the cooperative pooling grid: every block resident at once */
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
        g.strips[s] = (int)cdiv(sw, kStrip);
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
    if ((err = cudaGetLastError()))
        return (int)err;

    /* every scale's c-values in one grid, then the selections, the row
     * words and the pooling decisions of every scale at once */
    const float *recip =
        (const float *)((const char *)c->d_tables + offsetof(VqCambiTables, recip));
    cambi_cvalue_kernel<<<blocks, kStrip, cvalue_smem(p), st>>>(p, g, recip);
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
