/*
 * cuda_psnr_hvs.cu - the CUDA executor of psnr_hvs: two thin kernels around
 * kernels/psnr_hvs/psnr_hvs.h.
 *
 * 1. psnr_hvs_terms_kernel: one thread per 8x8 block of each plane computes
 *    the block's 64 float terms (vq_psnr_hvs_block_terms) into the scratch,
 *    64 floats per block, blocks in raster order.
 * 2. psnr_hvs_sum_kernel: one thread block per plane adds the plane's terms
 *    in order, exactly as the reference's single float accumulator does,
 *    by the binade split of psnr_hvs.h: chunk by chunk (16384 terms), every
 *    term becomes an integer d (ulps of the current sum), warp sums and one
 *    warp's scan find the first term that is a stop (tie, or too large) or
 *    takes the sum out of its binade; that term is a real float add and the
 *    next chunk starts after it, within the same aligned chunk.  After
 *    VQ_PSNR_HVS_SUM_MAX_RESTARTS early ends in a row that left the binade
 *    unchanged (ties), the rest of a chunk is added term by term (this
 *    bounds the worst case; no golden pair comes near it).
 *    Before it, the fast path's tables (psnr_hvs.h): psnr_hvs_est_kernel,
 *    each aligned chunk's sum in double (an estimate, any order), and
 *    psnr_hvs_tab_kernel, each chunk's map of K's parity under the three
 *    binades its start may be in, the whole GPU at once.  The sum kernel
 *    then adds a chunk in one step when its map keeps K below 2^24, and
 *    walks only the chunks where the binade changes (a dozen or two per
 *    plane).  VQ_CUDA_HVS_TABLE=0 runs without the tables (the walk alone).
 *
 * No atomics, no libm, no allocation in run; d_out[0..2] written by the
 * sum kernel, nothing else of the caller's memory is touched.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "psnr_hvs.h"
#include "psnr_hvs_exec.h"

#define TERMS_THREADS 64

#define SUM_WARPS VQ_PSNR_HVS_SUM_WARPS
#define SUM_THREADS (32 * SUM_WARPS)
#define SUM_PER_LANE VQ_PSNR_HVS_SUM_PER_LANE
#define SUM_SEG (32 * SUM_PER_LANE)          /* terms per warp and chunk */
#define SUM_CHUNK (SUM_WARPS * SUM_SEG)      /* 16384 terms per chunk */
#define EST_THREADS 256
#define TAB_PER_THREAD 16                    /* consecutive terms per thread */
#define TAB_THREADS (SUM_CHUNK / TAB_PER_THREAD)
#define TAB_TILE 256                         /* chunks of table in shared memory */
#define NE VQ_PSNR_HVS_TAB_NE
#define TS VQ_PSNR_HVS_TAB_STRIDE

static_assert(TAB_THREADS == 1024, "the table kernel: one chunk per block of 32 warps");
static_assert(1 + 2 * NE <= VQ_PSNR_HVS_TAB_ZERO && VQ_PSNR_HVS_TAB_ZERO < TS, "a chunk's table entry");

static_assert(SUM_WARPS == 32, "the sum kernel's warp 0 scans one segment per lane");

struct PsnrHvsPlanes {
    VqPlaneView ref[3], dis[3];
    int nbx[3], nb[3];                       /* blocks per row, blocks */
    float *terms[3];
};

struct VqPsnrHvsCuda {
    int w[3], h[3];
    size_t count[3];                         /* terms per plane: 64 * blocks */
    float *d_terms;                          /* all planes, plane 0 first */
    size_t nchunk;                           /* chunks of all planes */
    double *d_est;                           /* per chunk, plane 0 first */
    int32_t *d_tab;                          /* TS per chunk */
    VqPsnrHvsTables tables;
};

static __host__ __device__ inline size_t n_chunks(size_t n)
{
    return (n + SUM_CHUNK - 1) / SUM_CHUNK;
}

/* ---- 1: the terms ------------------------------------------------------ */

__global__ void __launch_bounds__(TERMS_THREADS)
psnr_hvs_terms_kernel(PsnrHvsPlanes pl, VqPsnrHvsTables tab)
{
    __shared__ float csf[64], mask[64];
    const int p = blockIdx.y;
    for (int k = threadIdx.x; k < 64; k += TERMS_THREADS) {
        csf[k] = tab.csf[p][k];
        mask[k] = tab.mask[p][k];
    }
    __syncthreads();
    const int b = blockIdx.x * TERMS_THREADS + threadIdx.x;
    if (b >= pl.nb[p])
        return;                              /* after the only barrier */
    const int by = b / pl.nbx[p], bx = b - by * pl.nbx[p];
    float t[64];
    vq_psnr_hvs_block_terms(pl.ref[p], pl.dis[p], by * VQ_PSNR_HVS_STEP, bx * VQ_PSNR_HVS_STEP,
                            csf, mask, t);
    float4 *out = (float4 *)(pl.terms[p] + (size_t)b * 64);
#pragma unroll
    for (int k = 0; k < 16; k++)
        out[k] = make_float4(t[4 * k], t[4 * k + 1], t[4 * k + 2], t[4 * k + 3]);
}

/* ---- 2: the ordered sums ------------------------------------------------- */

/* d of term bits tb under the sum's binade E, -1 for a stop (exact mode:
 * every nonzero term). */
__device__ __forceinline__ int32_t sum_split(uint32_t tb, int E, bool exact)
{
    if (exact)
        return tb ? -1 : 0;
    return vq_psnr_hvs_fsum_split(tb, E);
}

__device__ __forceinline__ long long warp_sum(long long v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ __forceinline__ int warp_min(int v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = min(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ long long warp_inclusive_scan(long long v, int lane)
{
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const long long u = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v += u;
    }
    return v;
}

/* terms [i, lim) of the chunk, 0 past lim */
__device__ __forceinline__ void load_chunk(uint32_t v[SUM_PER_LANE], const float *t, size_t lim,
                                           size_t i, int warp, int lane)
{
#pragma unroll
    for (int k = 0; k < SUM_PER_LANE; k++) {
        const size_t idx = i + (size_t)warp * SUM_SEG + (size_t)k * 32 + lane;
        v[k] = idx < lim ? __float_as_uint(t[idx]) : 0u;
    }
}

struct PsnrHvsSums {
    const float *terms[3];
    size_t count[3];
    const double *est[3];                    /* per chunk; NULL: no tables */
    int32_t *tab[3];
    int64_t *out;
};

__device__ __forceinline__ double block_sum(double v, double *sh)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    __syncthreads();                         /* sh may hold an earlier call's values */
    if (lane == 0)
        sh[warp] = v;
    __syncthreads();
    v = lane < nw ? sh[lane] : 0.0;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;                                /* in every thread */
}

/* each chunk's sum, in double: an estimate of where its partial sums lie */
__global__ void __launch_bounds__(EST_THREADS) psnr_hvs_est_kernel(PsnrHvsSums a)
{
    __shared__ double sh[32];
    const int p = blockIdx.y;
    const float *t = p == 0 ? a.terms[0] : p == 1 ? a.terms[1] : a.terms[2];
    const size_t n = p == 0 ? a.count[0] : p == 1 ? a.count[1] : a.count[2];
    double *est = (double *)(p == 0 ? a.est[0] : p == 1 ? a.est[1] : a.est[2]);
    const size_t c = blockIdx.x;
    if (c >= n_chunks(n))
        return;                              /* the whole block */
    const size_t i0 = c * SUM_CHUNK, i1 = min(n, i0 + SUM_CHUNK);
    double v = 0;
    for (size_t i = i0 + threadIdx.x; i < i1; i += EST_THREADS)
        v += (double)t[i];
    v = block_sum(v, sh);
    if (threadIdx.x == 0)
        est[c] = v;
}

/* each chunk's map under the binades e0 .. e0 + NE - 1 */
__global__ void __launch_bounds__(TAB_THREADS) psnr_hvs_tab_kernel(PsnrHvsSums a)
{
    __shared__ double sh[32];
    __shared__ int32_t wmap[32][NE][2];
    const int p = blockIdx.y;
    const float *t = p == 0 ? a.terms[0] : p == 1 ? a.terms[1] : a.terms[2];
    const size_t n = p == 0 ? a.count[0] : p == 1 ? a.count[1] : a.count[2];
    const double *est = p == 0 ? a.est[0] : p == 1 ? a.est[1] : a.est[2];
    int32_t *tab = p == 0 ? a.tab[0] : p == 1 ? a.tab[1] : a.tab[2];
    const size_t c = blockIdx.x;
    if (c >= n_chunks(n))
        return;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    double v = 0;
    for (size_t k = threadIdx.x; k < c; k += TAB_THREADS)
        v += est[k];
    const int e0 = vq_psnr_hvs_tab_e0(block_sum(v, sh));
    if (threadIdx.x == 0)   /* a double sum of floats >= 0 is 0 only if every one is */
        tab[c * TS + VQ_PSNR_HVS_TAB_ZERO] = est[c] == 0.0;
    if (e0 == VQ_PSNR_HVS_TAB_NONE) {
        if (threadIdx.x == 0)
            tab[c * TS] = e0;
        return;
    }
    int32_t m[NE][2];
#pragma unroll
    for (int j = 0; j < NE; j++)
        m[j][0] = m[j][1] = 0;
    const size_t i0 = c * SUM_CHUNK + (size_t)threadIdx.x * TAB_PER_THREAD;
#pragma unroll
    for (int q = 0; q < TAB_PER_THREAD; q += 4) {
        uint32_t tb[4];
        if (i0 + q + 4 <= n) {
            const float4 f = *(const float4 *)(t + i0 + q);   /* 16-byte aligned: SUM_CHUNK, 16 */
            tb[0] = __float_as_uint(f.x);
            tb[1] = __float_as_uint(f.y);
            tb[2] = __float_as_uint(f.z);
            tb[3] = __float_as_uint(f.w);
        } else {
#pragma unroll
            for (int u = 0; u < 4; u++)
                tb[u] = i0 + q + u < n ? __float_as_uint(t[i0 + q + u]) : 0u;
        }
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int j = 0; j < NE; j++) {
                int32_t st[2];
                vq_psnr_hvs_fsum_step(tb[u], e0 + j, st);
                vq_psnr_hvs_fsum_compose(m[j], st);
            }
    }
    /* in order: lane l takes l + o's map after its own */
#pragma unroll
    for (int o = 1; o < 32; o <<= 1)
#pragma unroll
        for (int j = 0; j < NE; j++) {
            int32_t b[2] = { __shfl_down_sync(0xffffffffu, m[j][0], o),
                             __shfl_down_sync(0xffffffffu, m[j][1], o) };
            if ((lane & (2 * o - 1)) == 0)
                vq_psnr_hvs_fsum_compose(m[j], b);
        }
    if (lane == 0)
#pragma unroll
        for (int j = 0; j < NE; j++) {
            wmap[warp][j][0] = m[j][0];
            wmap[warp][j][1] = m[j][1];
        }
    __syncthreads();
    if (warp == 0) {
#pragma unroll
        for (int j = 0; j < NE; j++) {
            m[j][0] = wmap[lane][j][0];
            m[j][1] = wmap[lane][j][1];
        }
#pragma unroll
        for (int o = 1; o < 32; o <<= 1)
#pragma unroll
            for (int j = 0; j < NE; j++) {
                int32_t b[2] = { __shfl_down_sync(0xffffffffu, m[j][0], o),
                                 __shfl_down_sync(0xffffffffu, m[j][1], o) };
                if ((lane & (2 * o - 1)) == 0)
                    vq_psnr_hvs_fsum_compose(m[j], b);
            }
        if (lane == 0) {
            int32_t *e = tab + c * TS;
            e[0] = e0;
#pragma unroll
            for (int j = 0; j < NE; j++) {
                e[1 + 2 * j] = m[j][0];
                e[2 + 2 * j] = m[j][1];
            }
        }
    }
}

__global__ void __launch_bounds__(SUM_THREADS) psnr_hvs_sum_kernel(PsnrHvsSums a)
{
    __shared__ long long seg_sum[SUM_WARPS];
    __shared__ int seg_stop[SUM_WARPS];
    __shared__ uint32_t next_s;
    __shared__ unsigned long long next_i;
    __shared__ int32_t tile[TAB_TILE * TS];

    const int p = blockIdx.x;
    /* (no dynamic index into the parameter struct: it would go to local memory) */
    const float *t = p == 0 ? a.terms[0] : p == 1 ? a.terms[1] : a.terms[2];
    const size_t n = p == 0 ? a.count[0] : p == 1 ? a.count[1] : a.count[2];
    const int32_t *tab = p == 0 ? a.tab[0] : p == 1 ? a.tab[1] : a.tab[2];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint32_t sb = 0;                         /* the running sum's bits: 0.0f */
    size_t i = 0;
    size_t tile_c0 = (size_t)-1;             /* the chunk at tile[0] */
    uint32_t cur[SUM_PER_LANE];

    int restarts = 0;                        /* early ends in a row at one binade */

    while (i < n) {                          /* i, sb, restarts: the same in every thread */
        const size_t c = i / SUM_CHUNK;
        const size_t lim = min(n, (c + 1) * SUM_CHUNK);
        int32_t K0;
        const int E = vq_psnr_hvs_fsum_binade(sb, &K0);
        const bool exact = K0 == 0;

        if (tab && i == c * SUM_CHUNK) {
            /* the fast path: the whole chunk in one step, if its map under
             * E keeps K in the binade, or if its terms are all 0 */
            if (tile_c0 == (size_t)-1 || c >= tile_c0 + TAB_TILE) {
                __syncthreads();             /* every thread is done with the tile */
                tile_c0 = c;
                const size_t nc = min((size_t)TAB_TILE, n_chunks(n) - c);
                for (size_t k = threadIdx.x; k < nc * TS; k += SUM_THREADS)
                    tile[k] = tab[c * TS + k];
                __syncthreads();
            }
            const int32_t *e = tile + (c - tile_c0) * TS;
            const int j = E - e[0];
            if (e[VQ_PSNR_HVS_TAB_ZERO]) {
                i = lim;
                restarts = 0;
                continue;
            }
            if (!exact && e[0] != VQ_PSNR_HVS_TAB_NONE && j >= 0 && j < NE) {
                const int32_t K1 = K0 + e[1 + 2 * j + (K0 & 1)];
                if (K1 < VQ_PSNR_HVS_K_END) {
                    sb = vq_psnr_hvs_fsum_join(E, K1);
                    i = lim;
                    restarts = 0;
                    continue;
                }
            }
        }

        if (restarts >= VQ_PSNR_HVS_SUM_MAX_RESTARTS) {
            /* stops close together (ties in numbers): add the rest of the
             * chunk term by term, the reference's own way (about 30 us).
             * The barrier first: every thread must have read the last next_s */
            __syncthreads();
            if (threadIdx.x == 0) {
                float s = __uint_as_float(sb);
                for (size_t k = i; k < lim; k++)
                    s += t[k];
                next_s = __float_as_uint(s);
            }
            __syncthreads();
            sb = next_s;
            i = lim;
            restarts = 0;
            continue;
        }

        load_chunk(cur, t, lim, i, warp, lane);

        /* A: each warp's segment: sum of d, first stop (chunk-relative) */
        long long sum = 0;
        int stop = INT_MAX;
#pragma unroll
        for (int k = 0; k < SUM_PER_LANE; k++) {
            const int32_t d = sum_split(cur[k], E, exact);
            if (d < 0)
                stop = min(stop, warp * SUM_SEG + k * 32 + lane);
            else
                sum += d;
        }
        sum = warp_sum(sum);
        stop = warp_min(stop);
        if (lane == 0) {
            seg_sum[warp] = sum;
            seg_stop[warp] = stop;
        }
        __syncthreads();

        /* B: warp 0 finds the first segment with a stop or the binade's end,
         * then the first such term inside it, and adds that term for real */
        if (warp == 0) {
            const long long tot = seg_sum[lane];
            const long long incl = warp_inclusive_scan(tot, lane);
            const bool hit = seg_stop[lane] != INT_MAX ||
                             (!exact && K0 + incl >= VQ_PSNR_HVS_K_END);
            const unsigned hits = __ballot_sync(0xffffffffu, hit);
            if (!hits) {
                if (lane == 31) {
                    next_s = exact ? sb : vq_psnr_hvs_fsum_join(E, K0 + incl);
                    next_i = lim;
                }
            } else {
                /* a hit in segment ws guarantees an end in it; should the
                 * walk miss it (a bug), the sum ends as NaN, not as a hang */
                if (lane == 0) {
                    next_s = 0x7fc00000u;
                    next_i = n;
                }
                __syncwarp();
                const int ws = __ffs(hits) - 1;
                long long base = K0 + __shfl_sync(0xffffffffu, incl - tot, ws);
                uint32_t seg[SUM_PER_LANE];      /* the segment's terms, all loads at once */
#pragma unroll
                for (int k = 0; k < SUM_PER_LANE; k++) {
                    const size_t idx = i + (size_t)(ws * SUM_SEG + k * 32 + lane);
                    seg[k] = idx < lim ? __float_as_uint(t[idx]) : 0u;
                }
#pragma unroll
                for (int k = 0; k < SUM_PER_LANE; k++) {
                    const int rel = ws * SUM_SEG + k * 32 + lane;
                    const size_t idx = i + (size_t)rel;
                    const uint32_t tb = seg[k];
                    const int32_t d = sum_split(tb, E, exact);
                    const long long dd = d < 0 ? 0 : d;
                    const long long k_after = base + warp_inclusive_scan(dd, lane);
                    const bool end = d < 0 || (!exact && k_after >= VQ_PSNR_HVS_K_END);
                    const unsigned ends = __ballot_sync(0xffffffffu, end);
                    if (ends) {                       /* the same in every lane */
                        if (lane == __ffs(ends) - 1) {
                            const float s = exact ? __uint_as_float(sb)
                                                  : __uint_as_float(vq_psnr_hvs_fsum_join(E, k_after - dd));
                            next_s = __float_as_uint(s + __uint_as_float(tb));
                            next_i = idx + 1;
                        }
                        break;
                    }
                    base = __shfl_sync(0xffffffffu, k_after, 31);
                }
            }
        }
        __syncthreads();
        /* (next_s, next_i are written again only after a later chunk's
         * first barrier, which every thread reaches after reading them) */
        const size_t ni = (size_t)next_i;
        sb = next_s;
        if (ni == lim) {
            restarts = 0;
        } else {
            /* an early end that left the binade where it was: a tie (the
             * others move E up, so there are at most ~250 of them) */
            int32_t K1;
            if (vq_psnr_hvs_fsum_binade(sb, &K1) == E && !exact)
                restarts++;
        }
        i = ni;
    }
    if (threadIdx.x == 0)
        a.out[p] = (int64_t)sb;
}

/* ---- API ----------------------------------------------------------------- */

static bool tables_on()
{
    static const bool on = [] {
        const char *e = getenv("VQ_CUDA_HVS_TABLE");
        return !(e && e[0] == '0');
    }();
    return on;
}

/* the fast path's scratch for planes of count[p] terms */
static cudaError_t alloc_tables(VqPsnrHvsCuda *p, const size_t count[3])
{
    p->nchunk = 0;
    for (int k = 0; k < 3; k++)
        p->nchunk += n_chunks(count[k]);
    if (!p->nchunk)
        return cudaSuccess;
    cudaError_t e = cudaMalloc(&p->d_est, p->nchunk * sizeof(double));
    if (e == cudaSuccess)
        e = cudaMalloc(&p->d_tab, p->nchunk * TS * sizeof(int32_t));
    return e;
}

extern "C" int vq_psnr_hvs_cuda_alloc(VqPsnrHvsCuda **pp, const int w[3], const int h[3])
{
    *pp = NULL;
    VqPsnrHvsCuda *p = (VqPsnrHvsCuda *)calloc(1, sizeof(*p));
    if (!p)
        return (int)cudaErrorMemoryAllocation;
    size_t total = 0;
    for (int k = 0; k < 3; k++) {
        p->w[k] = w[k];
        p->h[k] = h[k];
        p->count[k] = (size_t)vq_psnr_hvs_nblocks(w[k]) * vq_psnr_hvs_nblocks(h[k]) * 64;
        total += p->count[k];
    }
    vq_psnr_hvs_tables_init(&p->tables);
    cudaError_t e = cudaSuccess;
    if (total)
        e = cudaMalloc(&p->d_terms, total * sizeof(float));
    if (e == cudaSuccess)
        e = alloc_tables(p, p->count);
    if (e != cudaSuccess) {
        vq_psnr_hvs_cuda_free(p);
        return (int)e;
    }
    *pp = p;
    return 0;
}

extern "C" void vq_psnr_hvs_cuda_free(VqPsnrHvsCuda *p)
{
    if (!p)
        return;
    cudaFree(p->d_terms);
    cudaFree(p->d_est);
    cudaFree(p->d_tab);
    free(p);
}

/* the tables (unless off), then the ordered sums; su's terms and counts set */
static cudaError_t enqueue_sums(const VqPsnrHvsCuda *p, PsnrHvsSums su, cudaStream_t st)
{
    size_t off = 0, max_c = 0;
    const bool tabs = tables_on() && p->nchunk;
    for (int k = 0; k < 3; k++) {
        su.est[k] = tabs ? p->d_est + off : NULL;
        su.tab[k] = tabs ? p->d_tab + off * TS : NULL;
        off += n_chunks(su.count[k]);
        if (n_chunks(su.count[k]) > max_c)
            max_c = n_chunks(su.count[k]);
    }
    if (tabs && max_c) {
        psnr_hvs_est_kernel<<<dim3((unsigned)max_c, 3), EST_THREADS, 0, st>>>(su);
        psnr_hvs_tab_kernel<<<dim3((unsigned)max_c, 3), TAB_THREADS, 0, st>>>(su);
    }
    psnr_hvs_sum_kernel<<<3, SUM_THREADS, 0, st>>>(su);
    return cudaGetLastError();
}

extern "C" int vq_psnr_hvs_cuda_run(VqPsnrHvsCuda *p, const VqPlaneView ref[3],
                                    const VqPlaneView dis[3], int64_t *d_out, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    PsnrHvsPlanes pl;
    PsnrHvsSums su;
    int max_nb = 0;
    size_t off = 0;

    if (!p || !d_out)
        return (int)cudaErrorInvalidValue;
    for (int k = 0; k < 3; k++) {
        if (ref[k].w != p->w[k] || ref[k].h != p->h[k] || dis[k].w != p->w[k] ||
            dis[k].h != p->h[k])
            return (int)cudaErrorInvalidValue;
        pl.ref[k] = ref[k];
        pl.dis[k] = dis[k];
        pl.nbx[k] = vq_psnr_hvs_nblocks(p->w[k]);
        pl.nb[k] = pl.nbx[k] * vq_psnr_hvs_nblocks(p->h[k]);
        pl.terms[k] = p->d_terms + off;
        su.terms[k] = pl.terms[k];
        su.count[k] = p->count[k];
        off += p->count[k];
        if (pl.nb[k] > max_nb)
            max_nb = pl.nb[k];
    }
    su.out = d_out;
    if (max_nb > 0) {
        psnr_hvs_terms_kernel<<<dim3((unsigned)((max_nb + TERMS_THREADS - 1) / TERMS_THREADS), 3),
                                TERMS_THREADS, 0, st>>>(pl, p->tables);
        const cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return (int)e;
    }
    return (int)enqueue_sums(p, su, st);
}

extern "C" int vq_psnr_hvs_cuda_sum(VqPsnrHvsCuda *p, const float *const d_terms[3],
                                    const size_t count[3], int64_t *d_out, void *stream)
{
    PsnrHvsSums su;
    VqPsnrHvsCuda own;
    for (int k = 0; k < 3; k++) {
        su.terms[k] = d_terms[k];
        su.count[k] = count[k];
        if (p && count[k] > p->count[k])
            return (int)cudaErrorInvalidValue;
    }
    su.out = d_out;
    if (p)
        return (int)enqueue_sums(p, su, (cudaStream_t)stream);
    memset(&own, 0, sizeof(own));
    for (int k = 0; k < 3; k++)
        own.count[k] = count[k];
    cudaError_t e = alloc_tables(&own, count);
    if (e == cudaSuccess)
        e = enqueue_sums(&own, su, (cudaStream_t)stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize((cudaStream_t)stream);
    cudaFree(own.d_est);
    cudaFree(own.d_tab);
    return (int)e;
}

extern "C" const float *vq_psnr_hvs_cuda_terms(const VqPsnrHvsCuda *p, int plane, size_t *count)
{
    size_t off = 0;
    for (int k = 0; k < plane; k++)
        off += p->count[k];
    if (count)
        *count = p->count[plane];
    return p->d_terms + off;
}

/* ---- the module's CUDA table (kernels/module.h) ------------------------- */

#include "module.h"

namespace {

int hvs_cuda_alloc(void **out, const VqModuleGeom *g)
{
    VqPsnrHvsCuda *p = NULL;
    const int e = vq_psnr_hvs_cuda_alloc(&p, g->plane_w, g->plane_h);
    *out = p;
    return e;
}

void hvs_cuda_free(void *s)
{
    vq_psnr_hvs_cuda_free(static_cast<VqPsnrHvsCuda *>(s));
}

int hvs_enqueue(void *s, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3], int64_t *d_section,
                void *stream, int)
{
    VqPlaneView r[3], d[3];
    for (int k = 0; k < 3; k++) {   /* libvmaf's floor-sized chroma */
        r[k] = ref[k];
        d[k] = dis[k];
        r[k].w = d[k].w = g->plane_w[k];
        r[k].h = d[k].h = g->plane_h[k];
    }
    return vq_psnr_hvs_cuda_run(static_cast<VqPsnrHvsCuda *>(s), r, d, d_section, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_psnr_hvs_module_cuda = { hvs_cuda_alloc, hvs_cuda_free, hvs_enqueue };
