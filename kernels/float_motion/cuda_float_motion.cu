/*
 * cuda_float_motion.cu - the CUDA executor of float_motion
 * (float_motion_exec.h): thin kernels around float_motion.h and the filter
 * of kernels/float_vif/float_vif.h (docs/float-motion.md), and the module's CUDA
 * table (kernels/module.h).
 *
 * Per plane of the reference (luma; U, V under motion_add_uv), per frame,
 * on one stream, no allocation, no host wait:
 *   convert   the plane as floats (picture_copy)
 *   vpass     the blur's vertical pass of every pixel
 *   hpass     its horizontal pass, into the blur buffer of this frame's phase
 *   sad       per row the float SAD against the other buffer (frame n-1),
 *             columns in order (a warp per 32 rows, 32x32 tiles of terms
 *             through shared memory), or zeros while there is no frame n-1
 *   half      under motion_add_scale1: the same of the half-size images,
 *             their samples made in the tiles
 * Only float +, -, *, / and conversions run here (--fmad=false).
 */
#include <new>

#include <cuda_runtime.h>

#include "float_motion.h"
#include "float_motion_exec.h"
#include "module.h"

namespace {

constexpr int kThreads = 256;

struct Taps {
    float f[VQ_FMOTION_MAX_TAPS];
};

dim3 grid(int w, int h)
{
    return dim3((unsigned)((w + kThreads - 1) / kThreads), (unsigned)h);
}

__global__ void k_convert(VqPlaneView p, int bpc, float *dst, int w, int h)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j < w && i < h)
        dst[(size_t)i * w + j] = vq_speed_to_float(vq_sample(p, i, j), bpc);
}

__global__ void k_vpass(const float *src, int w, int h, Taps t, int fw, float *dst)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j < w && i < h)
        dst[(size_t)i * w + j] = vq_fvif_vpass(src, h, w, t.f, fw, i, j);
}

__global__ void k_hpass(const float *src, int w, int h, Taps t, int fw, float *dst)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j < w && i < h)
        dst[(size_t)i * w + j] = vq_fvif_hpass(src + (size_t)i * w, 1, w, t.f, fw, j);
}

/* per row of an ow x oh image of terms |prev - cur| (full size, or the
 * half-size bilinear samples of the w x h images), the float sum in column
 * order into words[row] */
__global__ void k_sad(const float *prev, const float *cur, int w, int h, int half, int ow, int oh, float rx,
                      float ry, int64_t *words)
{
    __shared__ float a[32][33];
    const int lane = threadIdx.x, r0 = blockIdx.x * 32;
    float acc = 0;
    for (int c0 = 0; c0 < ow; c0 += 32) {
        const int col = c0 + lane;
        for (int r = 0; r < 32; r++) {
            const int row = r0 + r;
            float m = 0.0f;
            if (row < oh && col < ow)
                m = half ? vq_fmotion_absdiff(vq_fmotion_half(prev, w, h, w, rx, ry, col, row),
                                              vq_fmotion_half(cur, w, h, w, rx, ry, col, row))
                         : vq_fmotion_absdiff(prev[(size_t)row * w + col], cur[(size_t)row * w + col]);
            a[r][lane] = m;
        }
        __syncwarp();
        const int n = ow - c0 < 32 ? ow - c0 : 32;
        for (int k = 0; k < n; k++)
            acc += a[lane][k];
        __syncwarp();
    }
    if (r0 + lane < oh)
        words[r0 + lane] = vq_fmotion_word(acc);
}

__global__ void k_zero(int64_t *words, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        words[i] = 0;
}

}  // namespace

struct VqFloatMotionCuda {
    VqFloatMotionGeom g;
    float *conv[3] = {}, *tmp[3] = {}, *blur[3][2] = {};
    int cur = 0, have_prev = 0;
};

void vq_fmotion_cuda_free(VqFloatMotionCuda *m)
{
    if (!m)
        return;
    for (int p = 0; p < 3; p++) {
        cudaFree(m->conv[p]);
        cudaFree(m->tmp[p]);
        cudaFree(m->blur[p][0]);
        cudaFree(m->blur[p][1]);
    }
    delete m;
}

int vq_fmotion_cuda_alloc(VqFloatMotionCuda **out, const VqFloatMotionGeom *g)
{
    *out = nullptr;
    VqFloatMotionCuda *m = new (std::nothrow) VqFloatMotionCuda;
    if (!m)
        return (int)cudaErrorMemoryAllocation;
    m->g = *g;
    cudaError_t e = cudaSuccess;
    for (int p = 0; p < g->nplanes && e == cudaSuccess; p++) {
        const size_t n = sizeof(float) * g->w[p] * g->h[p];
        if ((e = cudaMalloc(&m->conv[p], n)) == cudaSuccess && (e = cudaMalloc(&m->tmp[p], n)) == cudaSuccess &&
            (e = cudaMalloc(&m->blur[p][0], n)) == cudaSuccess)
            e = cudaMalloc(&m->blur[p][1], n);
    }
    if (e != cudaSuccess) {
        vq_fmotion_cuda_free(m);
        return (int)e;
    }
    *out = m;
    return 0;
}

int vq_fmotion_cuda_phase(const VqFloatMotionCuda *m)
{
    return m->have_prev ? m->cur : -1;
}

void vq_fmotion_cuda_replayed(VqFloatMotionCuda *m)
{
    m->cur ^= 1;
    m->have_prev = 1;
}

namespace {

/* every kernel of a frame, the ring not turned */
int enqueue_frame(VqFloatMotionCuda *m, const VqPlaneView planes[3], int bpc, int64_t *d_words, void *stream)
{
    const VqFloatMotionGeom &g = m->g;
    cudaStream_t st = (cudaStream_t)stream;
    Taps t;
    for (int k = 0; k < VQ_FMOTION_MAX_TAPS; k++)
        t.f[k] = g.taps[k];
    for (int p = 0; p < g.nplanes; p++) {
        const int w = g.w[p], h = g.h[p];
        float *cur = m->blur[p][m->cur];
        const float *prev = m->blur[p][m->cur ^ 1];
        VqPlaneView v = planes[p];
        v.w = w;
        v.h = h;
        k_convert<<<grid(w, h), kThreads, 0, st>>>(v, bpc, m->conv[p], w, h);
        k_vpass<<<grid(w, h), kThreads, 0, st>>>(m->conv[p], w, h, t, g.fw, m->tmp[p]);
        k_hpass<<<grid(w, h), kThreads, 0, st>>>(m->tmp[p], w, h, t, g.fw, cur);
        if (!m->have_prev) {
            k_zero<<<(unsigned)((h + kThreads - 1) / kThreads), kThreads, 0, st>>>(d_words + g.row_off[p], (size_t)h);
            if (g.scale1)
                k_zero<<<(unsigned)((g.sh[p] + kThreads - 1) / kThreads), kThreads, 0, st>>>(
                    d_words + g.row1_off[p], (size_t)g.sh[p]);
            continue;
        }
        k_sad<<<(unsigned)((h + 31) / 32), 32, 0, st>>>(prev, cur, w, h, 0, w, h, 0.0f, 0.0f, d_words + g.row_off[p]);
        if (g.scale1)
            k_sad<<<(unsigned)((g.sh[p] + 31) / 32), 32, 0, st>>>(prev, cur, w, h, 1, g.sw[p], g.sh[p], g.ratio_x[p],
                                                                 g.ratio_y[p], d_words + g.row1_off[p]);
    }
    return (int)cudaGetLastError();
}

}  // namespace

int vq_fmotion_cuda_run(VqFloatMotionCuda *m, const VqPlaneView planes[3], int bpc, int64_t *d_words, void *stream)
{
    const int e = enqueue_frame(m, planes, bpc, d_words, stream);
    vq_fmotion_cuda_replayed(m);
    return e;
}

/* The module's table (kernels/module.h): g->host is the instance's
 * VqFloatMotionGeom (nplanes 0 under motion_force_zero: nothing to run).
 * enqueue runs on every frame (a temporal module), enqueue_every turns the
 * ring; the executor keys its graphs by the phase (the first frame, with no
 * frame n-1, is enqueued directly) and tells the table of a replay. */
namespace {

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    VqFloatMotionCuda *m = nullptr;
    const int e = vq_fmotion_cuda_alloc(&m, static_cast<const VqFloatMotionGeom *>(g->host));
    *scratch = m;
    return e;
}

void module_free(void *scratch)
{
    vq_fmotion_cuda_free(static_cast<VqFloatMotionCuda *>(scratch));
}

int module_enqueue(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView *,
                   int64_t *d_section, void *stream, int)
{
    VqPlaneView planes[3] = { ref[0], ref[1], ref[2] };
    for (int q = 0; q < 3; q++) {   /* libvmaf's floor-sized chroma */
        planes[q].w = g->plane_w[q];
        planes[q].h = g->plane_h[q];
    }
    return enqueue_frame(static_cast<VqFloatMotionCuda *>(scratch), planes, g->bpc, d_section, stream);
}

/* after every frame's kernels: this frame's blur becomes frame n-1 (host
 * side: the next frame's kernels read the other buffer) */
int module_enqueue_every(void *scratch, const VqModuleGeom *, const VqPlaneView *, const VqPlaneView *, void *)
{
    vq_fmotion_cuda_replayed(static_cast<VqFloatMotionCuda *>(scratch));
    return 0;
}

/* force_zero's instance runs nothing: one phase */
int module_phase(const void *scratch)
{
    const VqFloatMotionCuda *m = static_cast<const VqFloatMotionCuda *>(scratch);
    return m->g.nplanes ? vq_fmotion_cuda_phase(m) : 0;
}

void module_replayed(void *scratch)
{
    vq_fmotion_cuda_replayed(static_cast<VqFloatMotionCuda *>(scratch));
}

}  // namespace

extern "C" const VqModuleCuda vq_float_motion_module_cuda = { module_alloc, module_free, module_enqueue,
                                                              nullptr,      nullptr,     module_enqueue_every,
                                                              module_phase, module_replayed };
