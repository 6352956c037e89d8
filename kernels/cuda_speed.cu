/*
 * cuda_speed.cu - the CUDA executor of speed_chroma's steps 1-3: thin
 * kernels around kernels/speed.h (docs/speed.md).
 *
 * Per plane, on one stream:
 *   convert    the plane as floats, offset -128 (picture_copy)
 *   prescale   when it runs: every sample of the sw x sh image (lanczos4
 *              reads the host's per-column / per-row weight tables)
 *   aa_dec16   one thread per kept sample (16 r, 16 c): the vertical passes
 *              of the fw columns around it, then the horizontal pass, each
 *              in the reference's tap order (vq_speed_aa_dec16)
 * then the ow x oh image is copied to the host.  Only float +, -, *, / and
 * conversions run here (--fmad=false): the same roundings as the CPU.
 * speed_temporal (docs/float-small.md): convert_diff (the previous frame's
 * luma minus this one's, as floats; 0 on the executor's first frame) in
 * place of convert, then the same steps; keep copies the frame's luma for
 * the next one.
 */
#include <new>

#include <cuda_runtime.h>

#include "speed.h"
#include "speed_exec.h"

namespace {

constexpr int kThreads = 256;

__global__ void k_convert(VqPlaneView p, int bpc, float *dst, int w, int h)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j < w && i < h)
        dst[(size_t)i * w + j] = vq_speed_to_float(vq_sample(p, i, j), bpc);
}

/* speed_temporal: the float difference of two frames; 0 without a previous one */
__global__ void k_convert_diff(VqPlaneView prev, VqPlaneView cur, int bpc, const int *have_prev, float *dst, int w,
                               int h)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j < w && i < h)
        dst[(size_t)i * w + j] = *have_prev ? vq_speed_temporal_diff(vq_sample(prev, i, j), vq_sample(cur, i, j), bpc)
                                            : 0.0f;
}

__global__ void k_temporal_flag(const int *have_prev, int64_t *flag)
{
    *flag = *have_prev ? 1 : 0;
}

__global__ void k_keep(VqPlaneView ref, VqPlaneView dis, uint16_t *pref, uint16_t *pdis, int *have_prev)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j < ref.w && i < ref.h) {
        pref[(size_t)i * ref.w + j] = (uint16_t)vq_sample(ref, i, j);
        pdis[(size_t)i * ref.w + j] = (uint16_t)vq_sample(dis, i, j);
    }
    if (i == 0 && j == 0)
        *have_prev = 1;     /* read only by earlier kernels of the stream */
}

__global__ void k_prescale(const float *src, int w, int h, float *dst, int sw, int sh,
                           int method, float rx, float ry, const int *lx0, const int *ly0,
                           const float *lwx, const float *lwy)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < sw && y < sh)
        dst[(size_t)y * sw + x] =
            vq_speed_prescale_at(method, src, w, h, w, rx, ry, x, y, lx0, ly0, lwx, lwy);
}

__global__ void k_aa_dec16(const float *img, int sw, int sh, const float *taps, int fw,
                           float *out, int ow, int oh)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
    if (c < ow && r < oh)
        out[(size_t)r * ow + c] = vq_speed_aa_dec16(img, sw, sh, sw, taps, fw, r, c);
}

}  // namespace

struct VqSpeedCuda {
    VqSpeedGeom g;
    float *plane = nullptr, *scaled = nullptr, *out = nullptr, *taps = nullptr;
    int *lx0 = nullptr, *ly0 = nullptr;
    float *lwx = nullptr, *lwy = nullptr;
    cudaStream_t stream = nullptr;
};

void vq_speed_cuda_free(VqSpeedCuda *c)
{
    if (!c)
        return;
    cudaFree(c->plane);
    cudaFree(c->scaled);
    cudaFree(c->out);
    cudaFree(c->taps);
    cudaFree(c->lx0);
    cudaFree(c->ly0);
    cudaFree(c->lwx);
    cudaFree(c->lwy);
    if (c->stream)
        cudaStreamDestroy(c->stream);
    delete c;
}

VqSpeedCuda *vq_speed_cuda_alloc(const VqSpeedGeom *g)
{
    VqSpeedCuda *c = new (std::nothrow) VqSpeedCuda;
    if (!c)
        return nullptr;
    c->g = *g;
    bool ok = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking) == cudaSuccess;
    ok = ok && cudaMalloc(&c->plane, sizeof(float) * g->w * g->h) == cudaSuccess;
    ok = ok && cudaMalloc(&c->out, sizeof(float) * g->ow * g->oh) == cudaSuccess;
    ok = ok && cudaMalloc(&c->taps, sizeof(float) * VQ_SPEED_MAX_TAPS) == cudaSuccess;
    ok = ok && cudaMemcpy(c->taps, g->taps, sizeof(float) * VQ_SPEED_MAX_TAPS,
                          cudaMemcpyHostToDevice) == cudaSuccess;
    if (ok && g->scaled)
        ok = cudaMalloc(&c->scaled, sizeof(float) * g->sw * g->sh) == cudaSuccess;
    if (ok && g->scaled && g->method == VQ_SPEED_LANCZOS4) {
        const size_t nx = (size_t)g->sw * VQ_SPEED_LANCZOS_TAPS;
        const size_t ny = (size_t)g->sh * VQ_SPEED_LANCZOS_TAPS;
        ok = cudaMalloc(&c->lx0, sizeof(int) * g->sw) == cudaSuccess &&
             cudaMalloc(&c->ly0, sizeof(int) * g->sh) == cudaSuccess &&
             cudaMalloc(&c->lwx, sizeof(float) * nx) == cudaSuccess &&
             cudaMalloc(&c->lwy, sizeof(float) * ny) == cudaSuccess &&
             cudaMemcpy(c->lx0, g->lx0, sizeof(int) * g->sw, cudaMemcpyHostToDevice) ==
                 cudaSuccess &&
             cudaMemcpy(c->ly0, g->ly0, sizeof(int) * g->sh, cudaMemcpyHostToDevice) ==
                 cudaSuccess &&
             cudaMemcpy(c->lwx, g->lwx, sizeof(float) * nx, cudaMemcpyHostToDevice) ==
                 cudaSuccess &&
             cudaMemcpy(c->lwy, g->lwy, sizeof(float) * ny, cudaMemcpyHostToDevice) ==
                 cudaSuccess;
    }
    /* the copies above (legacy stream) are done before any kernel of a
     * non-blocking stream reads the taps or tables */
    ok = ok && cudaStreamSynchronize(cudaStreamLegacy) == cudaSuccess;
    /* the host's table pointers are not kept */
    c->g.lx0 = c->g.ly0 = nullptr;
    c->g.lwx = c->g.lwy = nullptr;
    if (!ok) {
        vq_speed_cuda_free(c);
        return nullptr;
    }
    return c;
}

/* steps 2-3 on c->plane, into out */
static int dec16_from_plane(VqSpeedCuda *c, float *out, cudaStream_t st)
{
    const VqSpeedGeom &g = c->g;
    const float *img = c->plane;
    if (g.scaled) {
        k_prescale<<<dim3((g.sw + kThreads - 1) / kThreads, g.sh), kThreads, 0, st>>>(
            c->plane, g.w, g.h, c->scaled, g.sw, g.sh, g.method, g.ratio_x, g.ratio_y, c->lx0,
            c->ly0, c->lwx, c->lwy);
        img = c->scaled;
    }
    k_aa_dec16<<<dim3((g.ow + kThreads - 1) / kThreads, g.oh), kThreads, 0, st>>>(
        img, g.sw, g.sh, c->taps, g.fw, out, g.ow, g.oh);
    return (int)cudaGetLastError();
}

int vq_speed_cuda_run(VqSpeedCuda *c, VqPlaneView plane, int bpc, float *out, void *stream)
{
    const VqSpeedGeom &g = c->g;
    cudaStream_t st = (cudaStream_t)stream;
    k_convert<<<dim3((g.w + kThreads - 1) / kThreads, g.h), kThreads, 0, st>>>(plane, bpc, c->plane,
                                                                              g.w, g.h);
    return dec16_from_plane(c, out, st);
}

int vq_speed_temporal_cuda_run(VqSpeedCuda *c, VqPlaneView prev, VqPlaneView cur, int bpc, const int *d_have_prev,
                               float *out, void *stream)
{
    const VqSpeedGeom &g = c->g;
    cudaStream_t st = (cudaStream_t)stream;
    k_convert_diff<<<dim3((g.w + kThreads - 1) / kThreads, g.h), kThreads, 0, st>>>(prev, cur, bpc, d_have_prev,
                                                                                   c->plane, g.w, g.h);
    return dec16_from_plane(c, out, st);
}

int vq_speed_temporal_cuda_flag(const int *d_have_prev, int64_t *d_flag, void *stream)
{
    k_temporal_flag<<<1, 1, 0, (cudaStream_t)stream>>>(d_have_prev, d_flag);
    return (int)cudaGetLastError();
}

int vq_speed_temporal_cuda_keep(VqPlaneView ref, VqPlaneView dis, uint16_t *d_prev_ref, uint16_t *d_prev_dis,
                                int *d_have_prev, void *stream)
{
    k_keep<<<dim3((ref.w + kThreads - 1) / kThreads, ref.h), kThreads, 0, (cudaStream_t)stream>>>(
        ref, dis, d_prev_ref, d_prev_dis, d_have_prev);
    return (int)cudaGetLastError();
}

int vq_speed_cuda_dec16(VqSpeedCuda *c, VqPlaneView plane, int bpc, float *out)
{
    const VqSpeedGeom &g = c->g;
    cudaError_t e = (cudaError_t)vq_speed_cuda_run(c, plane, bpc, c->out, c->stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(out, c->out, sizeof(float) * g.ow * g.oh, cudaMemcpyDeviceToHost,
                            c->stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(c->stream);
    if (e == cudaSuccess)
        e = cudaGetLastError();
    return (int)e;
}
