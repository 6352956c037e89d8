/*
 * cuda_psnr.cu - the CUDA executor of psnr: a thin kernel around
 * kernels/psnr/psnr.h.  A warp per (row, plane) writes that row's exact sum of
 * squared errors (no atomics, every element of the sections written).
 */
#include <stdint.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "psnr.h"
#include "psnr_exec.h"

namespace {

constexpr int kRows = 8;              /* rows (warps) per block */
constexpr int kThreads = 32 * kRows;
constexpr int kBatch = 4;             /* 16-byte words a lane loads at once */

/*
 * How a plane's rows are read.  PSNR_SCALAR: one sample at a time
 * (vq_sample), any layout.  The others read both rows as aligned 16-byte
 * words, the same samples: both views have one sample width, step and
 * offset in a 16-byte word, and pitches that keep every row's start at
 * that offset (named by bytes, step, and the offset modulo the sample
 * distance: nv12's V view starts one byte into its plane).
 */
enum PsnrRead { PSNR_SCALAR, PSNR_B1S1, PSNR_B1S2P0, PSNR_B1S2P1, PSNR_B2S1, PSNR_B2S2P0, PSNR_B2S2P2 };

struct PsnrPlanes {
    VqPlaneView ref[3], dis[3];
    int w[3], h[3];
    int read[3];    /* PsnrRead */
    int64_t *out[3];
};

int psnr_read_kind(const VqPlaneView &r, const VqPlaneView &d)
{
    const uintptr_t off = (uintptr_t)r.data & 15;
    if (r.bytes != d.bytes || r.step != d.step || off != ((uintptr_t)d.data & 15) || r.pitch % 16 ||
        d.pitch % 16)
        return PSNR_SCALAR;
    if (r.bytes == 1)
        return r.step == 1 ? PSNR_B1S1 : r.step == 2 ? (off % 2 ? PSNR_B1S2P1 : PSNR_B1S2P0) : PSNR_SCALAR;
    if (r.bytes == 2 && off % 2 == 0)
        return r.step == 1 ? PSNR_B2S1 : r.step == 2 ? (off % 4 ? PSNR_B2S2P2 : PSNR_B2S2P0) : PSNR_SCALAR;
    return PSNR_SCALAR;
}

/* the sample at byte pos (a constant) of a 16-byte word, as vq_sample_load
 * reads it */
template <int BYTES>
__device__ __forceinline__ uint32_t word_sample(const uint32_t (&v)[4], int pos, int shift)
{
    const uint32_t x = v[pos >> 2] >> (8 * (pos & 3));
    return BYTES == 1 ? (x & 0xffu) : (x & 0xffffu) >> shift;
}

/* Row i's sum (this lane's part) over samples j0.. w - 1, one at a time */
__device__ __forceinline__ unsigned long long psnr_row_samples(const VqPlaneView &r, const VqPlaneView &d, int i,
                                                              int j0, int w, int bpc, int lane)
{
    unsigned long long sum = 0;
    for (int j = j0 + lane; j < w; j += 32)
        sum += vq_psnr_sq_err(vq_sample(r, i, j), vq_sample(d, i, j), bpc);
    return sum;
}

/*
 * Row i's sum (this lane's part) in words: sample j is at byte off + j * S
 * of the row's 16-byte-aligned start (S = step * bytes, PHASE = off % S).
 * The words wholly before the row's last sample's end are read whole; the
 * samples after them one at a time (nothing past the row's last sample is
 * read).
 */
template <int BYTES, int S, int PHASE>
__device__ __forceinline__ unsigned long long psnr_row_words(const VqPlaneView &r, const VqPlaneView &d, int i,
                                                            int w, int bpc, int lane)
{
    const int off = (int)((uintptr_t)r.data & 15);
    const uint8_t *ra = r.data + (ptrdiff_t)i * r.pitch - off;
    const uint8_t *da = d.data + (ptrdiff_t)i * d.pitch - off;
    const int full = (off + (w - 1) * S + BYTES) / 16;
    unsigned long long sum = 0;
    /* kBatch words a lane at a time, all loaded before any is used */
    for (int c0 = lane; c0 < full; c0 += 32 * kBatch) {
        uint4 rq[kBatch], dq[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; u++) {
            const int c = c0 + 32 * u;
            if (c < full) {
                rq[u] = *(const uint4 *)(ra + 16 * (ptrdiff_t)c);
                dq[u] = *(const uint4 *)(da + 16 * (ptrdiff_t)c);
            }
        }
#pragma unroll
        for (int u = 0; u < kBatch; u++) {
            const int c = c0 + 32 * u;
            if (c >= full)
                break;
            const uint32_t rv[4] = { rq[u].x, rq[u].y, rq[u].z, rq[u].w };
            const uint32_t dv[4] = { dq[u].x, dq[u].y, dq[u].z, dq[u].w };
#pragma unroll
            for (int pos = PHASE; pos < 16; pos += S)
                if (16 * c + pos >= off)
                    sum += vq_psnr_sq_err(word_sample<BYTES>(rv, pos, r.shift),
                                          word_sample<BYTES>(dv, pos, d.shift), bpc);
        }
    }
    const int first = 16 * full - off;   /* the first byte after the whole words, from sample 0 */
    return sum + psnr_row_samples(r, d, i, first > 0 ? (first + S - 1) / S : 0, w, bpc, lane);
}

__global__ void __launch_bounds__(kThreads) psnr_row_sse_kernel(PsnrPlanes pl, int bpc)
{
    const int p = blockIdx.y;
    const int i = blockIdx.x * kRows + (int)(threadIdx.x / 32);
    const int lane = (int)(threadIdx.x % 32);
    if (i >= pl.h[p])
        return;     /* the whole warp (no barriers in this kernel) */
    const VqPlaneView r = pl.ref[p], d = pl.dis[p];
    const int w = pl.w[p];
    unsigned long long sum = 0;
    switch (pl.read[p]) {
    case PSNR_B1S1: sum = psnr_row_words<1, 1, 0>(r, d, i, w, bpc, lane); break;
    case PSNR_B1S2P0: sum = psnr_row_words<1, 2, 0>(r, d, i, w, bpc, lane); break;
    case PSNR_B1S2P1: sum = psnr_row_words<1, 2, 1>(r, d, i, w, bpc, lane); break;
    case PSNR_B2S1: sum = psnr_row_words<2, 2, 0>(r, d, i, w, bpc, lane); break;
    case PSNR_B2S2P0: sum = psnr_row_words<2, 4, 0>(r, d, i, w, bpc, lane); break;
    case PSNR_B2S2P2: sum = psnr_row_words<2, 4, 2>(r, d, i, w, bpc, lane); break;
    default: sum = psnr_row_samples(r, d, i, 0, w, bpc, lane); break;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        sum += __shfl_xor_sync(0xffffffffu, sum, o);
    if (lane == 0)
        pl.out[p][i] = (int64_t)sum;
}

}  // namespace

struct VqPsnrCuda {
    int w, h;
};

extern "C" int vq_psnr_cuda_alloc(VqPsnrCuda **pp, int w, int h)
{
    VqPsnrCuda *p = (VqPsnrCuda *)calloc(1, sizeof(*p));
    *pp = p;
    if (!p)
        return (int)cudaErrorMemoryAllocation;
    p->w = w;
    p->h = h;
    return 0;
}

extern "C" void vq_psnr_cuda_free(VqPsnrCuda *p)
{
    free(p);
}

extern "C" int vq_psnr_cuda_run(VqPsnrCuda *state, const VqPlaneView ref[3], const VqPlaneView dis[3],
                                int nplanes, int bpc, const VqPsnrLayout *l, int64_t *d_rows,
                                void *stream)
{
    PsnrPlanes pl;
    int max_h = 0;
    (void)state;
    if (nplanes <= 0)
        return 0;
    if (nplanes > 3)
        nplanes = 3;
    for (int p = 0; p < 3; p++) {
        const int use = p < nplanes;
        pl.ref[p] = ref[use ? p : 0];
        pl.dis[p] = dis[use ? p : 0];
        pl.w[p] = use ? (p ? l->cw : l->w) : 0;
        pl.h[p] = use ? (p ? l->ch : l->h) : 0;
        pl.read[p] = psnr_read_kind(pl.ref[p], pl.dis[p]);
        pl.out[p] = d_rows + l->off[use ? p : 0];
        if (pl.h[p] > max_h)
            max_h = pl.h[p];
    }
    if (max_h == 0)
        return 0;
    psnr_row_sse_kernel<<<dim3((unsigned)((max_h + kRows - 1) / kRows), (unsigned)nplanes), kThreads, 0,
                          (cudaStream_t)stream>>>(pl, bpc);
    return (int)cudaGetLastError();
}

/* ---- the module's CUDA table (kernels/module.h) ------------------------- */

namespace {

int module_alloc(void **out, const VqModuleGeom *g)
{
    VqPsnrCuda *p = nullptr;
    const int e = vq_psnr_cuda_alloc(&p, g->w, g->h);
    *out = p;
    return e;
}

void module_free(void *s)
{
    vq_psnr_cuda_free(static_cast<VqPsnrCuda *>(s));
}

int module_enqueue(void *s, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                   int64_t *d_section, void *stream, int)
{
    VqPsnrLayout l;
    vq_psnr_module_layout(g, &l);
    return vq_psnr_cuda_run(static_cast<VqPsnrCuda *>(s), ref, dis, (int)g->opt[VQ_PSNR_OPT_NPLANES], g->bpc, &l,
                            d_section, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_psnr_module_cuda = { module_alloc, module_free, module_enqueue };
