/*
 * cuda_adm.cu - the CUDA executor of integer ADM: thin kernels around the
 * per-sample functions of adm.h.  Per scale, two kernels on the caller's
 * stream:
 *   adm_dwt_decouple: one thread per band sample: DWT of ref and dis, then
 *                     decouple + CSF when inside the decouple rect;
 *   adm_row_sums:     one block per band row: den, CM and AIM terms over the
 *                     CM rect, reduced in the block (integers: any order is
 *                     exact) and written to the row buffer; rows outside the
 *                     rect get 0, so every entry is written each frame.
 * Scratch is allocated once; nothing here synchronises.
 */
#include <new>

#include <cuda_runtime.h>

#include "adm.h"
#include "adm_exec.h"

namespace {

struct AdmPlanes {
    int32_t *p[VQ_ADM_PLANE_COUNT];
};

constexpr int kDwtBlockX = 32, kDwtBlockY = 8;
constexpr int kRowThreads = 128;

template <int SCALE>
__global__ void adm_dwt_decouple(VqPlaneView ref, VqPlaneView dis, const VqAdmParams p,
                                 AdmPlanes pl)
{
    const VqAdmScaleParams &sp = p.s[SCALE];
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const int cur = SCALE & 1, prev = cur ^ 1;
    if (i >= sp.h || j >= sp.w)
        return;

    const ptrdiff_t o = (ptrdiff_t)i * sp.w + j;
    VqAdmDwtOut r, d;
    if (SCALE == 0) {
        r = vq_adm_dwt0_sample(ref, p.bpc, i, j);
        d = vq_adm_dwt0_sample(dis, p.bpc, i, j);
    } else {
        const ptrdiff_t in_stride = p.s[SCALE ? SCALE - 1 : 0].w;
        r = vq_adm_dwt_s123_sample(pl.p[VQ_ADM_PLANE_A_REF0 + prev], in_stride, sp.in_w, sp.in_h,
                                   SCALE, i, j);
        d = vq_adm_dwt_s123_sample(pl.p[VQ_ADM_PLANE_A_DIS0 + prev], in_stride, sp.in_w, sp.in_h,
                                   SCALE, i, j);
    }
    pl.p[VQ_ADM_PLANE_A_REF0 + cur][o] = r.a;
    pl.p[VQ_ADM_PLANE_A_DIS0 + cur][o] = d.a;
    pl.p[VQ_ADM_PLANE_REF_H][o] = r.h;
    pl.p[VQ_ADM_PLANE_REF_V][o] = r.v;
    pl.p[VQ_ADM_PLANE_REF_D][o] = r.d;

    if (i < sp.dec.top || i >= sp.dec.bottom || j < sp.dec.left || j >= sp.dec.right)
        return;
    const VqAdmCmIn in = vq_adm_pixel_cm_in(r, d, &p, SCALE);
#pragma unroll
    for (int k = 0; k < 3; k++) {
        pl.p[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_XR0 + k][o] = in.x_r[k];
        pl.p[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_XA0 + k][o] = in.x_a[k];
    }
    pl.p[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_FA][o] = in.f_a;
    pl.p[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_CA][o] = in.c_a;
    pl.p[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_FR][o] = in.f_r;
    pl.p[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_CR][o] = in.c_r;
}

/* launched with kRowThreads threads, one block per band row */
template <int SCALE>
__global__ void __launch_bounds__(kRowThreads)
adm_row_sums(const VqAdmParams p, AdmPlanes pl, int64_t *rows)
{
    constexpr int kWarps = kRowThreads / 32;
    __shared__ unsigned long long partial[kWarps][VQ_ADM_NSUMS];
    const VqAdmScaleParams &sp = p.s[SCALE];
    const int i = blockIdx.x;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned long long sum[VQ_ADM_NSUMS];

#pragma unroll
    for (int k = 0; k < VQ_ADM_NSUMS; k++)
        sum[k] = 0;
    if (i >= sp.cm.top && i < sp.cm.bottom) {
        const int32_t *in[VQ_ADM_IN_NPLANES];
#pragma unroll
        for (int k = 0; k < VQ_ADM_IN_NPLANES; k++)
            in[k] = pl.p[VQ_ADM_PLANE_IN0 + k];
        for (int j = sp.cm.left + threadIdx.x; j < sp.cm.right; j += kRowThreads) {
            uint64_t t[VQ_ADM_NSUMS];
            vq_adm_pixel_terms(in, pl.p[VQ_ADM_PLANE_REF_H], pl.p[VQ_ADM_PLANE_REF_V], pl.p[VQ_ADM_PLANE_REF_D],
                               sp.w, &p, SCALE, i, j, t);
#pragma unroll
            for (int k = 0; k < VQ_ADM_NSUMS; k++)
                sum[k] += t[k];
        }
    }
    /* wrapping uint64 sums: exact in any order */
#pragma unroll
    for (int k = 0; k < VQ_ADM_NSUMS; k++) {
        unsigned long long v = sum[k];
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (lane == 0)
            partial[warp][k] = v;
    }
    __syncthreads();
    if (threadIdx.x < VQ_ADM_NSUMS) {
        unsigned long long v = 0;
        for (int w = 0; w < kWarps; w++)
            v += partial[w][threadIdx.x];
        rows[(size_t)i * VQ_ADM_NSUMS + threadIdx.x] = (int64_t)v;
    }
}

template <int SCALE>
cudaError_t launch_scale(VqPlaneView ref, VqPlaneView dis, const VqAdmParams &p,
                         const AdmPlanes &pl, int64_t *rows, cudaStream_t st)
{
    const VqAdmScaleParams &sp = p.s[SCALE];
    const dim3 block(kDwtBlockX, kDwtBlockY);
    const dim3 grid((sp.w + kDwtBlockX - 1) / kDwtBlockX, (sp.h + kDwtBlockY - 1) / kDwtBlockY);
    adm_dwt_decouple<SCALE><<<grid, block, 0, st>>>(ref, dis, p, pl);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        return err;
    adm_row_sums<SCALE><<<sp.h, kRowThreads, 0, st>>>(p, pl, rows);
    return cudaGetLastError();
}

} // namespace

struct VqAdmCuda {
    int w, h;
    int32_t *block;     /* one allocation for all planes */
    AdmPlanes planes;
};

extern "C" int vq_adm_cuda_alloc(VqAdmCuda **out, int w, int h)
{
    *out = nullptr;
    if (w < 1 || h < 1)
        return -1;
    VqAdmCuda *c = new (std::nothrow) VqAdmCuda();
    if (!c)
        return cudaErrorMemoryAllocation;
    const size_t plane = (size_t)((w + 1) / 2) * (size_t)((h + 1) / 2);
    cudaError_t err = cudaMalloc((void **)&c->block, plane * VQ_ADM_PLANE_COUNT * sizeof(int32_t));
    if (err != cudaSuccess) {
        delete c;
        return err;
    }
    c->w = w;
    c->h = h;
    for (int k = 0; k < VQ_ADM_PLANE_COUNT; k++)
        c->planes.p[k] = c->block + (size_t)k * plane;
    *out = c;
    return 0;
}

extern "C" void vq_adm_cuda_free(VqAdmCuda *c)
{
    if (!c)
        return;
    cudaFree(c->block);
    delete c;
}

extern "C" int vq_adm_cuda_run(VqAdmCuda *c, VqPlaneView ref, VqPlaneView dis, int bpc,
                               const VqAdmParams *p, const VqRowLayout *l, int64_t *d_rows,
                               void *stream)
{
    if (!c || !p || !l || !d_rows || c->w != p->w || c->h != p->h || bpc != p->bpc ||
        ref.w != p->w || ref.h != p->h || dis.w != p->w || dis.h != p->h ||
        l->w != p->w || l->h != p->h)
        return -1;
    for (int s = 0; s < VQ_ADM_SCALES; s++)
        if (l->adm_w[s] != p->s[s].w || l->adm_h[s] != p->s[s].h)
            return -1;

    const cudaStream_t st = (cudaStream_t)stream;
    cudaError_t err;
    if ((err = launch_scale<0>(ref, dis, *p, c->planes, d_rows + l->adm_off[0], st)) ||
        (err = launch_scale<1>(ref, dis, *p, c->planes, d_rows + l->adm_off[1], st)) ||
        (err = launch_scale<2>(ref, dis, *p, c->planes, d_rows + l->adm_off[2], st)) ||
        (err = launch_scale<3>(ref, dis, *p, c->planes, d_rows + l->adm_off[3], st)))
        return (int)err;
    return 0;
}
