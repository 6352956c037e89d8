/*
 * cuda_motion.cu - the CUDA executor of integer motion: thin kernels around
 * motion.h, and the module's CUDA table (kernels/module.h).  One kernel per
 * frame and lag (see motion_tile_kernel); the previous reference lumas are
 * kept in a ring of buffers (two, three with the five-frame window's lag 2).
 */
#include <stdlib.h>

#include <cuda_runtime.h>

#include "cuda_column.cuh"
#include "motion.h"
#include "motion_exec.h"
#include "module.h"

namespace {

/*
 * A block scores a tile of kTileH rows by kCols - 4 columns: each thread
 * owns one of the kCols columns (the tile and its reflected halo), reads the
 * kTileH + 4 source rows of prev and cur once (vq_load_column) and keeps its
 * rows' vertical taps in registers (int32 up to 15 bits: motion.h); the
 * vertical results go to shared memory at reflected columns.  Then a warp per
 * tile row does the horizontal pass, a lane every 32nd output, and adds the
 * row's sum with one integer atomic (a tile row's sum fits in 32 bits: 252
 * outputs below 2^16).  Unless next_prev is null (the second lag's kernel),
 * the owner of a tile pixel also copies cur into the next frame's prev (a
 * buffer of the ring that no kernel of this frame reads).
 */
constexpr int kThreads = 256;
constexpr int kCols = kThreads;
constexpr int kTileW = kCols - 2 * VQ_MOTION_RADIUS;
constexpr int kTileH = kThreads / 32;   /* a warp per row in the horizontal pass */

template <bool NARROW>
__global__ void __launch_bounds__(kThreads)
motion_tile_kernel(VqPlaneView prev, VqPlaneView cur, int bpc, uint16_t *__restrict__ next_prev,
                   int64_t *__restrict__ row_sad)
{
    constexpr int R = VQ_MOTION_RADIUS, N = kTileH + 2 * R;
    __shared__ int32_t s_y[kTileH][kCols];
    const int w = cur.w, h = cur.h;
    const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;
    const int c = threadIdx.x;
    const int xs = x0 - R + c;
    const int out_end = min(x0 + kTileW, w);
    const bool owner = c >= R && c < R + kTileW && xs < w;   /* a tile pixel's column */

    if (xs < out_end + R) {
        const int j = vq_reflect101(xs, w);
        uint32_t pv[N], cv[N];
        vq_load_column<N, R>(prev, y0 - R, j, pv);
        vq_load_column<N, R>(cur, y0 - R, j, cv);
        if (owner && next_prev) {   /* this tile's own rows: copy cur */
#pragma unroll
            for (int r = 0; r < kTileH; r++)
                if (y0 + r < h)
                    next_prev[(size_t)(y0 + r) * w + xs] = (uint16_t)cv[R + r];
        }
#pragma unroll
        for (int r = 0; r < kTileH; r++) {
            if constexpr (NARROW) {
                int32_t acc = 0;
#pragma unroll
                for (int t = 0; t <= 2 * R; t++)
                    vq_motion_vtap32(&acc, t, pv[r + t], cv[r + t]);
                s_y[r][c] = vq_motion_vfinish32(acc, bpc);
            } else {
                int64_t acc = 0;
#pragma unroll
                for (int t = 0; t <= 2 * R; t++)
                    vq_motion_vtap(&acc, t, pv[r + t], cv[r + t]);
                s_y[r][c] = vq_motion_vfinish(acc, bpc);
            }
        }
    }
    __syncthreads();

    const int lane = threadIdx.x & 31, r = threadIdx.x >> 5;
    const int y = y0 + r;
    if (y >= h)
        return;     /* the whole warp; no barrier follows */
    uint32_t v = 0;
#pragma unroll
    for (int o = lane; o < kTileW; o += 32)
        if (x0 + o < w)
            v += vq_motion_hblur_abs_window(&s_y[r][o]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    if (lane == 0)
        atomicAdd((unsigned long long *)&row_sad[y], (unsigned long long)v);
}

__global__ void motion_store_prev_kernel(VqPlaneView cur, int w, int h, uint16_t *prev)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < h && j < w)
        prev[(size_t)i * w + j] = (uint16_t)vq_sample(cur, i, j);
}

}  // namespace

struct VqMotionCuda {
    int w, h;
    int lags;           /* VQ_MOTION_LAG1 | VQ_MOTION_LAG2 */
    int nbuf;           /* the largest lag + 1 */
    int have;           /* host-side: frames queued for keeping, up to the largest lag */
    int pos;            /* the buffer this run's frame goes into; frame n-k is in (pos - k) mod nbuf */
    uint16_t *d_prev[3];   /* w x h, packed */
};

extern "C" int vq_motion_cuda_alloc(VqMotionCuda **pm, int w, int h, int lags)
{
    VqMotionCuda *m;
    cudaError_t e = cudaSuccess;
    *pm = NULL;
    lags &= VQ_MOTION_LAG1 | VQ_MOTION_LAG2;
    if (w < 3 || h < 3 || !lags)
        return (int)cudaErrorInvalidValue;
    m = (VqMotionCuda *)calloc(1, sizeof(*m));
    if (!m)
        return (int)cudaErrorMemoryAllocation;
    m->w = w;
    m->h = h;
    m->lags = lags;
    m->nbuf = (lags & VQ_MOTION_LAG2) ? 3 : 2;
    for (int k = 0; k < m->nbuf && e == cudaSuccess; k++)
        e = cudaMalloc((void **)&m->d_prev[k], (size_t)w * h * sizeof(*m->d_prev[k]));
    if (e != cudaSuccess) {
        vq_motion_cuda_free(m);
        return (int)e;
    }
    *pm = m;
    return 0;
}

extern "C" void vq_motion_cuda_free(VqMotionCuda *m)
{
    if (!m)
        return;
    for (int k = 0; k < 3; k++)
        cudaFree(m->d_prev[k]);
    free(m);
}

/* the largest lag: the runs before it have work of their own (no graph) */
static int max_lag(const VqMotionCuda *m)
{
    return m->nbuf - 1;
}

extern "C" int vq_motion_cuda_run(VqMotionCuda *m, VqPlaneView cur, int bpc, int64_t *d_section, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    cudaError_t e;
    uint16_t *next = m->d_prev[m->pos];
    bool stored = false;

    /* the tile kernels add into the row sums; a lag not asked for, or
     * whose frame n-lag is missing, keeps 0 */
    e = cudaMemsetAsync(d_section, 0, VQ_MOTION_WORDS(m->h) * sizeof(*d_section), st);
    if (e != cudaSuccess)
        return (int)e;
    for (int lag = 1; lag <= 2; lag++) {
        int64_t *row_sad = d_section + (size_t)(lag - 1) * m->h;
        if (!(m->lags & (lag == 1 ? VQ_MOTION_LAG1 : VQ_MOTION_LAG2)) || m->have < lag)
            continue;
        const VqPlaneView prev = vq_packed_u16_view(m->d_prev[(m->pos + m->nbuf - lag) % m->nbuf], m->w, m->h);
        uint16_t *copy_to = stored ? nullptr : next;
        const dim3 grid((unsigned)((m->w + kTileW - 1) / kTileW), (unsigned)((m->h + kTileH - 1) / kTileH));
        if (bpc <= VQ_MOTION_NARROW_MAX_BPC)
            motion_tile_kernel<true><<<grid, kThreads, 0, st>>>(prev, cur, bpc, copy_to, row_sad);
        else
            motion_tile_kernel<false><<<grid, kThreads, 0, st>>>(prev, cur, bpc, copy_to, row_sad);
        stored = true;
    }
    if (!stored) {   /* no kernel scored this frame: keep it with a copy kernel */
        const dim3 cb(32, 8);
        const dim3 cg((unsigned)((m->w + 31) / 32), (unsigned)((m->h + 7) / 8));
        motion_store_prev_kernel<<<cg, cb, 0, st>>>(cur, m->w, m->h, next);
    }
    e = cudaGetLastError();
    if (e != cudaSuccess)
        return (int)e;
    m->pos = (m->pos + 1) % m->nbuf;
    if (m->have < max_lag(m))
        m->have++;
    return 0;
}

extern "C" int vq_motion_cuda_phase(const VqMotionCuda *m)
{
    return m->have >= max_lag(m) ? m->pos : -1;
}

extern "C" void vq_motion_cuda_replayed(VqMotionCuda *m)
{
    /* what vq_motion_cuda_run does to the host-side state after a frame
     * with every lag's frame there: the ring turns */
    m->pos = (m->pos + 1) % m->nbuf;
}

/* ---- the module's CUDA table (hostmath/motion/: g.opt[0] the lags) ----
 * enqueue runs on every frame (a temporal module) and turns the ring; the
 * executor keys its graphs by the phase (the first frames, before frame
 * n-lag is there, are enqueued directly) and tells the table of a replay. */
namespace {

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    VqMotionCuda *m = nullptr;
    const int e = vq_motion_cuda_alloc(&m, g->w, g->h, (int)g->opt[0]);
    *scratch = m;
    return e;
}

void module_free(void *scratch)
{
    vq_motion_cuda_free(static_cast<VqMotionCuda *>(scratch));
}

int module_enqueue(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView *,
                   int64_t *d_section, void *stream, int)
{
    return vq_motion_cuda_run(static_cast<VqMotionCuda *>(scratch), ref[0], g->bpc, d_section, stream);
}

int module_phase(const void *scratch)
{
    return vq_motion_cuda_phase(static_cast<const VqMotionCuda *>(scratch));
}

void module_replayed(void *scratch)
{
    vq_motion_cuda_replayed(static_cast<VqMotionCuda *>(scratch));
}

}  // namespace

extern "C" const VqModuleCuda vq_motion_module_cuda = { module_alloc, module_free, module_enqueue, nullptr,
                                                        nullptr,      nullptr,     module_phase,   module_replayed };
