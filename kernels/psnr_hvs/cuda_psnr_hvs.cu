/*
 * cuda_psnr_hvs.cu - the CUDA executor of psnr_hvs: two thin kernels around
 * kernels/psnr_hvs.h.
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
 *    next chunk starts after it.  About 190 chunks for a 1080p luma plane
 *    (20-30 of them restarts).  The next chunk's terms are loaded while a
 *    chunk is reduced.  After VQ_PSNR_HVS_SUM_MAX_RESTARTS early ends in a
 *    row that left the binade unchanged (ties), one chunk is added term by
 *    term (this bounds the worst case; no golden pair comes near it).
 *
 * No atomics, no libm, no allocation in run; d_out[0..2] written by the
 * sum kernel, nothing else of the caller's memory is touched.
 */
#include <limits.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "psnr_hvs.h"
#include "psnr_hvs_exec.h"

#define TERMS_THREADS 64

#define SUM_WARPS VQ_PSNR_HVS_SUM_WARPS
#define SUM_THREADS (32 * SUM_WARPS)
#define SUM_PER_LANE VQ_PSNR_HVS_SUM_PER_LANE
#define SUM_SEG (32 * SUM_PER_LANE)          /* terms per warp and chunk */
#define SUM_CHUNK (SUM_WARPS * SUM_SEG)      /* 16384 terms per chunk */

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
    VqPsnrHvsTables tables;
};

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

__device__ __forceinline__ void load_chunk(uint32_t v[SUM_PER_LANE], const float *t, size_t n,
                                           size_t i, int warp, int lane)
{
#pragma unroll
    for (int k = 0; k < SUM_PER_LANE; k++) {
        const size_t idx = i + (size_t)warp * SUM_SEG + (size_t)k * 32 + lane;
        v[k] = idx < n ? __float_as_uint(t[idx]) : 0u;
    }
}

struct PsnrHvsSums {
    const float *terms[3];
    size_t count[3];
    int64_t *out;
};

__global__ void __launch_bounds__(SUM_THREADS) psnr_hvs_sum_kernel(PsnrHvsSums a)
{
    __shared__ long long seg_sum[SUM_WARPS];
    __shared__ int seg_stop[SUM_WARPS];
    __shared__ uint32_t next_s;
    __shared__ unsigned long long next_i;

    const int p = blockIdx.x;
    /* (no dynamic index into the parameter struct: it would go to local memory) */
    const float *t = p == 0 ? a.terms[0] : p == 1 ? a.terms[1] : a.terms[2];
    const size_t n = p == 0 ? a.count[0] : p == 1 ? a.count[1] : a.count[2];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint32_t sb = 0;                         /* the running sum's bits: 0.0f */
    size_t i = 0;
    uint32_t cur[SUM_PER_LANE], nxt[SUM_PER_LANE];

    int restarts = 0;                        /* early ends in a row at one binade */

    load_chunk(cur, t, n, i, warp, lane);
    while (i < n) {                          /* i, sb, restarts: the same in every thread */
        if (restarts >= VQ_PSNR_HVS_SUM_MAX_RESTARTS) {
            /* stops close together (ties in numbers): add the next chunk
             * term by term, the reference's own way (about 30 us).  The
             * barrier first: every thread must have read the last next_s */
            __syncthreads();
            if (threadIdx.x == 0) {
                float s = __uint_as_float(sb);
                const size_t end = i + SUM_CHUNK < n ? i + SUM_CHUNK : n;
                for (size_t k = i; k < end; k++)
                    s += t[k];
                next_s = __float_as_uint(s);
                next_i = end;
            }
            __syncthreads();
            sb = next_s;
            i = (size_t)next_i;
            restarts = 0;
            load_chunk(cur, t, n, i, warp, lane);
            continue;
        }
        int32_t K0;
        const int E = vq_psnr_hvs_fsum_binade(sb, &K0);
        const bool exact = K0 == 0;

        /* the chunk after this one, in case this one has no stop */
        load_chunk(nxt, t, n, i + SUM_CHUNK, warp, lane);

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
                    next_i = i + SUM_CHUNK;
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
                for (int k = 0; k < SUM_PER_LANE; k++) {
                    const int rel = ws * SUM_SEG + k * 32 + lane;
                    const size_t idx = i + (size_t)rel;
                    const uint32_t tb = idx < n ? __float_as_uint(t[idx]) : 0u;
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
        /* (next_s, next_i are written again only after the next chunk's
         * first barrier, which every thread reaches after reading them) */
        const size_t ni = (size_t)next_i;
        sb = next_s;
        if (ni == i + SUM_CHUNK) {
            restarts = 0;
#pragma unroll
            for (int k = 0; k < SUM_PER_LANE; k++)
                cur[k] = nxt[k];
        } else {
            /* an early end that left the binade where it was: a tie (the
             * others move E up, so there are at most ~250 of them) */
            int32_t K1;
            if (vq_psnr_hvs_fsum_binade(sb, &K1) == E && !exact)
                restarts++;
            load_chunk(cur, t, n, ni, warp, lane);
        }
        i = ni;
    }
    if (threadIdx.x == 0)
        a.out[p] = (int64_t)sb;
}

/* ---- API ----------------------------------------------------------------- */

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
    if (total) {
        const cudaError_t e = cudaMalloc(&p->d_terms, total * sizeof(float));
        if (e != cudaSuccess) {
            free(p);
            return (int)e;
        }
    }
    *pp = p;
    return 0;
}

extern "C" void vq_psnr_hvs_cuda_free(VqPsnrHvsCuda *p)
{
    if (!p)
        return;
    cudaFree(p->d_terms);
    free(p);
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
    psnr_hvs_sum_kernel<<<3, SUM_THREADS, 0, st>>>(su);
    return (int)cudaGetLastError();
}

extern "C" int vq_psnr_hvs_cuda_sum(const float *const d_terms[3], const size_t count[3],
                                    int64_t *d_out, void *stream)
{
    PsnrHvsSums su;
    for (int k = 0; k < 3; k++) {
        su.terms[k] = d_terms[k];
        su.count[k] = count[k];
    }
    su.out = d_out;
    psnr_hvs_sum_kernel<<<3, SUM_THREADS, 0, (cudaStream_t)stream>>>(su);
    return (int)cudaGetLastError();
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
