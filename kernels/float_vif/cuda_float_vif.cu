/*
 * cuda_float_vif.cu - the CUDA executor of float_vif (float_vif_exec.h):
 * thin kernels around kernels/float_vif/float_vif.h (docs/float-vif.md).
 *
 * Per frame, on one stream, no allocation, no host wait:
 *   convert     both lumas as floats (picture_copy)
 *   prescale    when the size changes: every sample of the sw x sh images
 *   per scale s (scale s > 0's image first: decimation)
 *     dec_vpass   the vertical pass of scale s-1's image at even rows
 *     dec_hpass   its horizontal pass at even columns: scale s's image
 *     vpass5      the five vertical passes of every pixel (vq_fvif_vpass5)
 *     stat        the five horizontal passes and the statistic: num, den per pixel
 *     rowsum      per row the float sums of num and den, columns in order
 * The row sums are sequential float sums: a warp takes 32 rows, loads
 * 32x32 tiles of the per-pixel terms (coalesced) into shared memory, and
 * each lane adds its row's terms in column order; the host adds the rows.
 * Only float +, -, *, /, the two double divisions and conversions run here
 * (--fmad=false): the CPU executor's roundings.
 */
#include <new>

#include <cuda_runtime.h>

#include "float_vif.h"
#include "float_vif_exec.h"
#include "module.h"

namespace {

constexpr int kThreads = 256;

struct Taps {
    float f[VQ_FVIF_MAX_TAPS];
};

Taps taps_of(const VqFloatVifGeom &g, int s)
{
    Taps t;
    for (int k = 0; k < VQ_FVIF_MAX_TAPS; k++)
        t.f[k] = g.taps[s][k];
    return t;
}

dim3 grid(int w, int h, int z = 1)
{
    return dim3((unsigned)((w + kThreads - 1) / kThreads), (unsigned)h, (unsigned)z);
}

__global__ void k_convert(VqPlaneView a, VqPlaneView b, int bpc, float *da, float *db, int w, int h)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= w || i >= h)
        return;
    const VqPlaneView v = blockIdx.z ? b : a;
    (blockIdx.z ? db : da)[(size_t)i * w + j] = vq_speed_to_float(vq_sample(v, i, j), bpc);
}

__global__ void k_prescale(const float *sa, const float *sb, int w, int h, float *da, float *db, int sw,
                           int sh, int method, float rx, float ry, const int *lx0, const int *ly0,
                           const float *lwx, const float *lwy)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= sw || y >= sh)
        return;
    (blockIdx.z ? db : da)[(size_t)y * sw + x] =
        vq_speed_prescale_at(method, blockIdx.z ? sb : sa, w, h, w, rx, ry, x, y, lx0, ly0, lwx, lwy);
}

/* tmp row i: the vertical pass at row 2 i of a pw x ph image, every column */
__global__ void k_dec_vpass(const float *sa, const float *sb, int pw, int ph, Taps t, int fw, float *ta,
                            float *tb, int rows)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= pw || i >= rows)
        return;
    (blockIdx.z ? tb : ta)[(size_t)i * pw + j] = vq_fvif_vpass(blockIdx.z ? sb : sa, ph, pw, t.f, fw, 2 * i, j);
}

/* scale s's image: the horizontal pass of tmp row i at column 2 j */
__global__ void k_dec_hpass(const float *ta, const float *tb, int pw, Taps t, int fw, float *da, float *db,
                            int w, int h)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= w || i >= h)
        return;
    (blockIdx.z ? db : da)[(size_t)i * w + j] =
        vq_fvif_hpass((blockIdx.z ? tb : ta) + (size_t)i * pw, 1, pw, t.f, fw, 2 * j);
}

/* the five vertical passes, as five planes of w x h */
__global__ void k_vpass5(const float *ref, const float *dis, int w, int h, Taps t, int fw, float *t5)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= w || i >= h)
        return;
    float v[5];
    vq_fvif_vpass5(ref, dis, h, w, t.f, fw, i, j, v);
    const size_t plane = (size_t)w * h, at = (size_t)i * w + j;
    for (int q = 0; q < 5; q++)
        t5[q * plane + at] = v[q];
}

__global__ void k_stat(const float *t5, int w, int h, Taps t, int fw, float egl, double nsq, float smi,
                       float *num, float *den)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= w || i >= h)
        return;
    const size_t plane = (size_t)w * h, row = (size_t)i * w;
    float v[5];
    for (int q = 0; q < 5; q++)
        v[q] = vq_fvif_hpass(t5 + q * plane + row, 1, w, t.f, fw, j);
    float n, d;
    vq_fvif_stat(v[0], v[1], v[2], v[3], v[4], egl, nsq, smi, &n, &d);
    num[row + j] = n;
    den[row + j] = d;
}

/* per row the float sums of num and den in column order: a warp per 32
 * rows, 32x32 tiles through shared memory, lane r adds row r's terms */
__global__ void k_rowsum(const float *num, const float *den, int w, int h, int64_t *words)
{
    __shared__ float a[32][33], b[32][33];
    const int lane = threadIdx.x, r0 = blockIdx.x * 32;
    float an = 0, ad = 0;
    for (int c0 = 0; c0 < w; c0 += 32) {
        const int col = c0 + lane;
        for (int r = 0; r < 32; r++) {
            const int row = r0 + r;
            const bool in = row < h && col < w;
            a[r][lane] = in ? num[(size_t)row * w + col] : 0.0f;
            b[r][lane] = in ? den[(size_t)row * w + col] : 0.0f;
        }
        __syncwarp();
        const int n = w - c0 < 32 ? w - c0 : 32;
        for (int k = 0; k < n; k++) {
            an += a[lane][k];
            ad += b[lane][k];
        }
        __syncwarp();
    }
    if (r0 + lane < h)
        words[r0 + lane] = vq_fvif_pack(an, ad);
}

}  // namespace

struct VqFloatVifCuda {
    VqFloatVifGeom g;
    float *conv[2] = { nullptr, nullptr }, *pre[2] = { nullptr, nullptr };
    float *sc[VQ_FVIF_SCALES][2] = {};
    float *tmp[2] = { nullptr, nullptr };
    float *t5 = nullptr, *num = nullptr, *den = nullptr;
    int *lx0 = nullptr, *ly0 = nullptr;
    float *lwx = nullptr, *lwy = nullptr;
};

void vq_fvif_cuda_free(VqFloatVifCuda *c)
{
    if (!c)
        return;
    for (int k = 0; k < 2; k++) {
        cudaFree(c->conv[k]);
        cudaFree(c->pre[k]);
        cudaFree(c->tmp[k]);
        for (int s = 0; s < VQ_FVIF_SCALES; s++)
            cudaFree(c->sc[s][k]);
    }
    cudaFree(c->t5);
    cudaFree(c->num);
    cudaFree(c->den);
    cudaFree(c->lx0);
    cudaFree(c->ly0);
    cudaFree(c->lwx);
    cudaFree(c->lwy);
    delete c;
}

int vq_fvif_cuda_alloc(VqFloatVifCuda **out, const VqFloatVifGeom *g)
{
    *out = nullptr;
    VqFloatVifCuda *c = new (std::nothrow) VqFloatVifCuda;
    if (!c)
        return (int)cudaErrorMemoryAllocation;
    c->g = *g;
    cudaError_t e = cudaSuccess;
    auto alloc = [&e](float **p, size_t n) {
        if (e == cudaSuccess)
            e = cudaMalloc(p, sizeof(float) * (n ? n : 1));
    };
    const size_t n0 = (size_t)g->sw * g->sh;
    for (int k = 0; k < 2; k++) {
        alloc(&c->conv[k], (size_t)g->w * g->h);
        if (g->scaled)
            alloc(&c->pre[k], n0);
        for (int s = 1; s < VQ_FVIF_SCALES; s++)
            alloc(&c->sc[s][k], (size_t)g->sc_w[s] * g->sc_h[s]);
        alloc(&c->tmp[k], (size_t)g->sc_w[0] * g->sc_h[1]);   /* the largest decimation's vertical pass */
    }
    alloc(&c->t5, 5 * n0);
    alloc(&c->num, n0);
    alloc(&c->den, n0);
    if (e == cudaSuccess && g->scaled && g->method == VQ_SPEED_LANCZOS4) {
        const size_t nx = (size_t)g->sw * VQ_SPEED_LANCZOS_TAPS, ny = (size_t)g->sh * VQ_SPEED_LANCZOS_TAPS;
        if ((e = cudaMalloc(&c->lx0, sizeof(int) * g->sw)) == cudaSuccess &&
            (e = cudaMalloc(&c->ly0, sizeof(int) * g->sh)) == cudaSuccess &&
            (e = cudaMalloc(&c->lwx, sizeof(float) * nx)) == cudaSuccess &&
            (e = cudaMalloc(&c->lwy, sizeof(float) * ny)) == cudaSuccess &&
            (e = cudaMemcpy(c->lx0, g->lx0, sizeof(int) * g->sw, cudaMemcpyHostToDevice)) == cudaSuccess &&
            (e = cudaMemcpy(c->ly0, g->ly0, sizeof(int) * g->sh, cudaMemcpyHostToDevice)) == cudaSuccess &&
            (e = cudaMemcpy(c->lwx, g->lwx, sizeof(float) * nx, cudaMemcpyHostToDevice)) == cudaSuccess)
            e = cudaMemcpy(c->lwy, g->lwy, sizeof(float) * ny, cudaMemcpyHostToDevice);
    }
    /* the tables' copies (legacy stream) are done before any kernel of a
     * non-blocking stream reads them */
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(cudaStreamLegacy);
    c->g.lx0 = c->g.ly0 = nullptr;   /* the host's tables are not kept */
    c->g.lwx = c->g.lwy = nullptr;
    if (e != cudaSuccess) {
        vq_fvif_cuda_free(c);
        return (int)e;
    }
    *out = c;
    return 0;
}

int vq_fvif_cuda_run(VqFloatVifCuda *c, VqPlaneView ref, VqPlaneView dis, int bpc, int64_t *d_words, void *stream)
{
    const VqFloatVifGeom &g = c->g;
    cudaStream_t st = (cudaStream_t)stream;
    k_convert<<<grid(g.w, g.h, 2), kThreads, 0, st>>>(ref, dis, bpc, c->conv[0], c->conv[1], g.w, g.h);
    const float *img[2] = { c->conv[0], c->conv[1] };
    if (g.scaled) {
        k_prescale<<<grid(g.sw, g.sh, 2), kThreads, 0, st>>>(c->conv[0], c->conv[1], g.w, g.h, c->pre[0], c->pre[1],
                                                             g.sw, g.sh, g.method, g.ratio_x, g.ratio_y, c->lx0,
                                                             c->ly0, c->lwx, c->lwy);
        img[0] = c->pre[0];
        img[1] = c->pre[1];
    }
    for (int s = 0; s < VQ_FVIF_SCALES; s++) {
        const Taps t = taps_of(g, s);
        const int fw = g.fw[s], w = g.sc_w[s], h = g.sc_h[s];
        if (s > 0) {
            const int pw = g.sc_w[s - 1], ph = g.sc_h[s - 1];
            k_dec_vpass<<<grid(pw, h, 2), kThreads, 0, st>>>(img[0], img[1], pw, ph, t, fw, c->tmp[0], c->tmp[1], h);
            k_dec_hpass<<<grid(w, h, 2), kThreads, 0, st>>>(c->tmp[0], c->tmp[1], pw, t, fw, c->sc[s][0],
                                                            c->sc[s][1], w, h);
            img[0] = c->sc[s][0];
            img[1] = c->sc[s][1];
        }
        if (s < g.first_scale)
            continue;
        k_vpass5<<<grid(w, h), kThreads, 0, st>>>(img[0], img[1], w, h, t, fw, c->t5);
        k_stat<<<grid(w, h), kThreads, 0, st>>>(c->t5, w, h, t, fw, g.egl, g.sigma_nsq, g.sigma_max_inv, c->num,
                                                c->den);
        k_rowsum<<<(unsigned)((h + 31) / 32), 32, 0, st>>>(c->num, c->den, w, h, d_words + g.row_off[s]);
    }
    return (int)cudaGetLastError();
}

/* The module's table (kernels/module.h): g->host is the instance's VqFloatVifGeom. */
namespace {

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    VqFloatVifCuda *c = nullptr;
    const int e = vq_fvif_cuda_alloc(&c, static_cast<const VqFloatVifGeom *>(g->host));
    *scratch = c;
    return e;
}

void module_free(void *scratch)
{
    vq_fvif_cuda_free(static_cast<VqFloatVifCuda *>(scratch));
}

int module_enqueue(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                   int64_t *d_section, void *stream, int)
{
    return vq_fvif_cuda_run(static_cast<VqFloatVifCuda *>(scratch), ref[0], dis[0], g->bpc, d_section, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_float_vif_module_cuda = { module_alloc, module_free, module_enqueue };
