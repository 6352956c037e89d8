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
 * In a ladder the leader runs the reference's part once per frame (its DWT
 * bands and denominators, VqAdmCudaRef) and every rendition the rest.
 * Scratch is allocated once; nothing here synchronises.
 */
#include <new>

#include <cuda_runtime.h>

#include "adm.h"
#include "adm_exec.h"
#include "module.h"

namespace {

struct AdmPlanes {
    int32_t *p[VQ_ADM_PLANE_COUNT];
};

constexpr int kDwtBlockX = 32, kDwtBlockY = 8;
constexpr int kRowThreads = 128;

/* both pictures' DWT (one pass over the pair); the reference's alone (a
 * ladder's shared bands: written, nothing else); or the distorted one's,
 * the reference's bands read from the shared planes (a ladder's rendition) */
enum { ADM_BOTH, ADM_REF, ADM_DIS };

/*
 * The DWT's input samples of output (i, j).  In a block whose outputs all
 * read 16 samples inside the input (every block but those of the first and
 * the last rows and columns of blocks), output (i, j) reads taps
 * 2i - 1 .. 2i + 2 and 2j - 1 .. 2j + 2 (vq_adm_dwt_taps reflects none):
 * from one address per row, the columns at constant offsets.  Elsewhere
 * through vq_adm_dwt_taps.  The choice is the block's (a thread's own would
 * make the border warps run both).  The arithmetic is adm.h's either way.
 */
__device__ __forceinline__ bool dwt_block_inner(int in_w, int in_h)
{
    const int i0 = blockIdx.y * kDwtBlockY, j0 = blockIdx.x * kDwtBlockX;
    return i0 > 0 && j0 > 0 && 2 * (i0 + kDwtBlockY - 1) + 2 < in_h && 2 * (j0 + kDwtBlockX - 1) + 2 < in_w;
}

template <int BYTES>
__device__ __forceinline__ VqAdmDwtOut dwt0_inner(const VqPlaneView &v, int bpc, int i, int j)
{
    VqPlaneView c = v;
    c.bytes = BYTES;   /* vq_sample_load with the width a constant */
    const uint8_t *p = vq_sample_addr(v, 2 * i - 1, 2 * j - 1);
    uint32_t u[4][4];
#pragma unroll
    for (int r = 0; r < 4; r++, p += v.pitch)
#pragma unroll
        for (int k = 0; k < 4; k++)
            u[r][k] = vq_sample_load(c, p + k * BYTES);
    return vq_adm_dwt0_block(u, bpc);
}

__device__ __forceinline__ VqAdmDwtOut dwt0_at(const VqPlaneView &v, int bpc, int i, int j, bool inner)
{
    if (inner && v.step == 1)
        return v.bytes == 1 ? dwt0_inner<1>(v, bpc, i, j) : dwt0_inner<2>(v, bpc, i, j);
    return vq_adm_dwt0_sample(v, bpc, i, j);
}

__device__ __forceinline__ VqAdmDwtOut dwt_s123_at(const int32_t *src, ptrdiff_t stride, int in_w, int in_h,
                                                   int scale, int i, int j, bool inner)
{
    if (inner) {
        const int32_t *p = src + (ptrdiff_t)(2 * i - 1) * stride + (2 * j - 1);
        int32_t x[4][4];
#pragma unroll
        for (int r = 0; r < 4; r++, p += stride)
#pragma unroll
            for (int k = 0; k < 4; k++)
                x[r][k] = p[k];
        return vq_adm_dwt_s123_block(x, scale);
    }
    return vq_adm_dwt_s123_sample(src, stride, in_w, in_h, scale, i, j);
}

template <int SCALE, int MODE>
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
    const ptrdiff_t in_stride = p.s[SCALE ? SCALE - 1 : 0].w;
    /* the DWT's input: the picture at scale 0, the previous scale's A band after */
    const bool inner = SCALE == 0 ? dwt_block_inner(dis.w, dis.h) : dwt_block_inner(sp.in_w, sp.in_h);
    VqAdmDwtOut r, d;
    if (MODE == ADM_DIS) {
        r.a = pl.p[VQ_ADM_PLANE_A_REF0 + cur][o];
        r.h = pl.p[VQ_ADM_PLANE_REF_H][o];
        r.v = pl.p[VQ_ADM_PLANE_REF_V][o];
        r.d = pl.p[VQ_ADM_PLANE_REF_D][o];
    } else {
        r = SCALE == 0 ? dwt0_at(ref, p.bpc, i, j, inner)
                       : dwt_s123_at(pl.p[VQ_ADM_PLANE_A_REF0 + prev], in_stride, sp.in_w, sp.in_h, SCALE, i, j,
                                     inner);
        pl.p[VQ_ADM_PLANE_A_REF0 + cur][o] = r.a;
        pl.p[VQ_ADM_PLANE_REF_H][o] = r.h;
        pl.p[VQ_ADM_PLANE_REF_V][o] = r.v;
        pl.p[VQ_ADM_PLANE_REF_D][o] = r.d;
        if (MODE == ADM_REF)
            return;
    }
    d = SCALE == 0 ? dwt0_at(dis, p.bpc, i, j, inner)
                   : dwt_s123_at(pl.p[VQ_ADM_PLANE_A_DIS0 + prev], in_stride, sp.in_w, sp.in_h, SCALE, i, j,
                                 inner);
    pl.p[VQ_ADM_PLANE_A_DIS0 + cur][o] = d.a;

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

/*
 * Launched with kRowThreads threads, one block per band row: the row's sums
 * over the CM rect, 0 outside it.  MODE ADM_BOTH: all VQ_ADM_NSUMS into
 * rows; ADM_REF (a ladder's reference): the denominators alone, 3 per row,
 * into den; ADM_DIS (a ladder's rendition): the numerators here, the
 * denominators copied from den (the reference's, made once per frame).
 * Six blocks per SM (at most 85 registers): left to itself, ptxas gave the
 * scale-0 pair kernel 72 registers and a schedule that took 35 us per
 * 1080p frame on the H200, against 12 with this bound.
 */
template <int SCALE, int MODE>
__global__ void __launch_bounds__(kRowThreads, 6)
adm_row_sums(const VqAdmParams p, AdmPlanes pl, int64_t *rows, int64_t *den)
{
    constexpr int kWarps = kRowThreads / 32;
    constexpr int N = MODE == ADM_REF ? 3 : VQ_ADM_NSUMS;   /* sums per row written */
    constexpr int K0 = MODE == ADM_DIS ? VQ_ADM_NUM_H : 0;    /* the first one summed here */
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
            if (MODE == ADM_REF)
                vq_adm_pixel_den(pl.p[VQ_ADM_PLANE_REF_H], pl.p[VQ_ADM_PLANE_REF_V], pl.p[VQ_ADM_PLANE_REF_D],
                                 sp.w, &p, SCALE, i, j, t + VQ_ADM_DEN_H);
            else
                vq_adm_pixel_terms(in, pl.p[VQ_ADM_PLANE_REF_H], pl.p[VQ_ADM_PLANE_REF_V],
                                   pl.p[VQ_ADM_PLANE_REF_D], sp.w, &p, SCALE, i, j, t);
#pragma unroll
            for (int k = K0; k < N; k++)
                sum[k] += t[k];
        }
    }
    /* wrapping uint64 sums: exact in any order */
#pragma unroll
    for (int k = K0; k < N; k++) {
        unsigned long long v = sum[k];
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (lane == 0)
            partial[warp][k] = v;
    }
    __syncthreads();
    const int k = threadIdx.x;
    if (k < N) {
        unsigned long long v = 0;
        if (k >= K0)
            for (int w = 0; w < kWarps; w++)
                v += partial[w][k];
        if (MODE == ADM_REF)
            den[(size_t)i * 3 + k] = (int64_t)v;
        else
            rows[(size_t)i * VQ_ADM_NSUMS + k] = k >= K0 ? (int64_t)v : den[(size_t)i * 3 + k];
    }
}

/* den: ADM_REF writes the denominators' row sums there, ADM_DIS reads them */
template <int SCALE, int MODE>
cudaError_t launch_scale(VqPlaneView ref, VqPlaneView dis, const VqAdmParams &p,
                         const AdmPlanes &pl, int64_t *rows, int64_t *den, cudaStream_t st)
{
    const VqAdmScaleParams &sp = p.s[SCALE];
    const dim3 block(kDwtBlockX, kDwtBlockY);
    const dim3 grid((sp.w + kDwtBlockX - 1) / kDwtBlockX, (sp.h + kDwtBlockY - 1) / kDwtBlockY);
    adm_dwt_decouple<SCALE, MODE><<<grid, block, 0, st>>>(ref, dis, p, pl);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        return err;
    adm_row_sums<SCALE, MODE><<<sp.h, kRowThreads, 0, st>>>(p, pl, rows, den);
    return cudaGetLastError();
}

} // namespace

/* The reference's bands of one frame, every scale, shared by a ladder's
 * renditions: A (the next scale's input), H, V, D. */
struct VqAdmCudaRef {
    int w, h;
    int32_t *block;
    int32_t *a[VQ_ADM_SCALES], *hb[VQ_ADM_SCALES], *vb[VQ_ADM_SCALES], *db[VQ_ADM_SCALES];
    int64_t *den_block;
    int64_t *den[VQ_ADM_SCALES];   /* the denominators' sums: 3 per band row */
};

/* the planes a shared-mode kernel of scale s reads or writes: the executor's
 * own (the distorted side, the decouple outputs) with the reference's
 * replaced by r's of scale s (and s - 1: the DWT's input) */
static AdmPlanes shared_planes(const AdmPlanes &own, const VqAdmCudaRef *r, int s)
{
    AdmPlanes pl = own;
    const int cur = s & 1, prev = cur ^ 1;
    pl.p[VQ_ADM_PLANE_A_REF0 + cur] = r->a[s];
    pl.p[VQ_ADM_PLANE_A_REF0 + prev] = s ? r->a[s - 1] : nullptr;
    pl.p[VQ_ADM_PLANE_REF_H] = r->hb[s];
    pl.p[VQ_ADM_PLANE_REF_V] = r->vb[s];
    pl.p[VQ_ADM_PLANE_REF_D] = r->db[s];
    return pl;
}

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

/* every scale's kernels in MODE; with r, the reference's bands are r's
 * (shared_planes); rows: none for the reference's part alone */
template <int MODE>
static int launch_all(VqPlaneView ref, VqPlaneView dis, const VqAdmParams &p, const AdmPlanes &own,
                      const VqAdmCudaRef *r, const VqRowLayout *l, int64_t *d_rows, cudaStream_t st)
{
    const auto planes = [&](int s) { return r ? shared_planes(own, r, s) : own; };
    const auto rows = [&](int s) { return l ? d_rows + l->adm_off[s] : nullptr; };
    const auto den = [&](int s) { return r ? r->den[s] : nullptr; };
    cudaError_t err;
    if ((err = launch_scale<0, MODE>(ref, dis, p, planes(0), rows(0), den(0), st)) ||
        (err = launch_scale<1, MODE>(ref, dis, p, planes(1), rows(1), den(1), st)) ||
        (err = launch_scale<2, MODE>(ref, dis, p, planes(2), rows(2), den(2), st)) ||
        (err = launch_scale<3, MODE>(ref, dis, p, planes(3), rows(3), den(3), st)))
        return (int)err;
    return 0;
}

/* what a rendition's run needs: the executor, parameters, distorted picture
 * and row layout of one size, every scale's rows where p puts them */
static bool run_args_ok(const VqAdmCuda *c, VqPlaneView dis, int bpc, const VqAdmParams *p,
                        const VqRowLayout *l, const int64_t *d_rows)
{
    if (!c || !p || !l || !d_rows || c->w != p->w || c->h != p->h || bpc != p->bpc || dis.w != p->w ||
        dis.h != p->h || l->w != p->w || l->h != p->h)
        return false;
    for (int s = 0; s < VQ_ADM_SCALES; s++)
        if (l->adm_w[s] != p->s[s].w || l->adm_h[s] != p->s[s].h)
            return false;
    return true;
}

extern "C" int vq_adm_cuda_run(VqAdmCuda *c, VqPlaneView ref, VqPlaneView dis, int bpc,
                               const VqAdmParams *p, const VqRowLayout *l, int64_t *d_rows,
                               void *stream)
{
    if (!run_args_ok(c, dis, bpc, p, l, d_rows) || ref.w != p->w || ref.h != p->h)
        return -1;
    return launch_all<ADM_BOTH>(ref, dis, *p, c->planes, nullptr, l, d_rows, (cudaStream_t)stream);
}

extern "C" int vq_adm_cuda_run_shared(VqAdmCuda *c, const VqAdmCudaRef *r, VqPlaneView dis, int bpc,
                                      const VqAdmParams *p, const VqRowLayout *l, int64_t *d_rows,
                                      void *stream)
{
    if (!run_args_ok(c, dis, bpc, p, l, d_rows) || !r || r->w != p->w || r->h != p->h)
        return -1;
    return launch_all<ADM_DIS>(dis, dis, *p, c->planes, r, l, d_rows, (cudaStream_t)stream);
}

extern "C" int vq_adm_cuda_ref_alloc(VqAdmCudaRef **out, int w, int h)
{
    *out = nullptr;
    if (w < 1 || h < 1)
        return -1;
    VqAdmCudaRef *r = new (std::nothrow) VqAdmCudaRef();
    if (!r)
        return cudaErrorMemoryAllocation;
    size_t n[VQ_ADM_SCALES], rows[VQ_ADM_SCALES], total = 0, total_rows = 0;
    for (int s = 0, bw = w, bh = h; s < VQ_ADM_SCALES; s++) {
        bw = (bw + 1) / 2;   /* as adm_params.cpp sizes the bands */
        bh = (bh + 1) / 2;
        n[s] = (size_t)bw * (size_t)bh;
        rows[s] = (size_t)bh;
        total += 4 * n[s];
        total_rows += rows[s];
    }
    cudaError_t err = cudaMalloc((void **)&r->block, total * sizeof(int32_t));
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&r->den_block, total_rows * 3 * sizeof(int64_t));
    if (err != cudaSuccess) {
        vq_adm_cuda_ref_free(r);
        return err;
    }
    r->w = w;
    r->h = h;
    int32_t *q = r->block;
    int64_t *d = r->den_block;
    for (int s = 0; s < VQ_ADM_SCALES; s++) {
        r->a[s] = q;
        r->hb[s] = q + n[s];
        r->vb[s] = q + 2 * n[s];
        r->db[s] = q + 3 * n[s];
        q += 4 * n[s];
        r->den[s] = d;
        d += 3 * rows[s];
    }
    *out = r;
    return 0;
}

extern "C" void vq_adm_cuda_ref_free(VqAdmCudaRef *r)
{
    if (!r)
        return;
    cudaFree(r->block);
    cudaFree(r->den_block);
    delete r;
}

extern "C" int vq_adm_cuda_ref_run(VqAdmCudaRef *r, VqPlaneView ref, int bpc, const VqAdmParams *p,
                                   void *stream)
{
    if (!r || !p || r->w != p->w || r->h != p->h || bpc != p->bpc || ref.w != p->w || ref.h != p->h)
        return -1;
    return launch_all<ADM_REF>(ref, ref, *p, AdmPlanes{}, r, nullptr, nullptr, (cudaStream_t)stream);
}

/* ---- the module's CUDA table (hostmath/adm/: g.host is a VqAdmGeom) ----
 * The reference's part (its DWT bands and denominators' row sums) is what
 * a ladder's renditions share: ref_enqueue makes it with the parameters of
 * the size and depth alone, enqueue_shared reads it. */
namespace {

const VqAdmGeom &geom(const VqModuleGeom *g)
{
    return *static_cast<const VqAdmGeom *>(g->host);
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    VqAdmCuda *c = nullptr;
    const int e = vq_adm_cuda_alloc(&c, g->w, g->h);
    *scratch = c;
    return e;
}

void module_free(void *scratch)
{
    vq_adm_cuda_free(static_cast<VqAdmCuda *>(scratch));
}

int module_enqueue(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                   int64_t *d_section, void *stream, int)
{
    const VqAdmGeom &ag = geom(g);
    return vq_adm_cuda_run(static_cast<VqAdmCuda *>(scratch), ref[0], dis[0], g->bpc, &ag.p, &ag.l, d_section,
                           stream);
}

int module_ref_alloc(void **part, const VqModuleGeom *g)
{
    VqAdmCudaRef *r = nullptr;
    const int e = vq_adm_cuda_ref_alloc(&r, g->w, g->h);
    *part = r;
    return e;
}

void module_ref_free(void *part)
{
    vq_adm_cuda_ref_free(static_cast<VqAdmCudaRef *>(part));
}

int module_ref_enqueue(void *part, const VqModuleGeom *g, const VqPlaneView ref[3], void *stream)
{
    return vq_adm_cuda_ref_run(static_cast<VqAdmCudaRef *>(part), ref[0], g->bpc, &geom(g).ref_part_params,
                               stream);
}

int module_enqueue_shared(void *scratch, const VqModuleGeom *g, const void *part, const VqPlaneView[3],
                          const VqPlaneView dis[3], int64_t *d_section, void *stream, int)
{
    const VqAdmGeom &ag = geom(g);
    return vq_adm_cuda_run_shared(static_cast<VqAdmCuda *>(scratch), static_cast<const VqAdmCudaRef *>(part),
                                  dis[0], g->bpc, &ag.p, &ag.l, d_section, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_adm_module_cuda = {
    module_alloc, module_free, module_enqueue, nullptr, nullptr, nullptr, nullptr, nullptr,
    module_ref_alloc, module_ref_free, module_ref_enqueue, module_enqueue_shared,
};
