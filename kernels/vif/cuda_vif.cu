/*
 * cuda_vif.cu - the CUDA executor of integer VIF: thin kernels around vif.h.
 *
 * Per frame, on one stream: one memset of the VIF row sums, then per scale
 * s a down-sampling kernel (s >= 1) and a statistics kernel: 8 operations.
 * Each kernel works on a tile: first the vertical pass of every column the
 * tile needs (at reflected columns) into shared memory, then the
 * horizontal pass.  The statistics kernel keeps several outputs' taps in
 * registers in both passes (each input read once per thread), and adds
 * each tile row's sums with one integer atomic per sum (integer sums: the
 * order does not change the result).  The 64-bit sums of the squares and
 * the product are doubles on GPUs with fast fp64 and integers elsewhere
 * (vif_pick_f64; vif.h shows both exact).
 */
#include <new>

#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cuda_column.cuh"
#include "vif.h"
#include "vif_exec.h"
#include "module.h"

namespace {

/*
 * img_S (out_w x out_h, uint16) from img_{S-1} (the views): output (oy, ox)
 * is filter_S at source (2*oy, 2*ox).  A tile is kDownTileH output rows by
 * VifDownTile::W output columns; a thread owns one of the COLS source
 * columns the tile reads (reflected) and V output rows, reads each of
 * their 2 * (V - 1) + 2R + 1 source rows once and keeps the rows' taps
 * in registers; the vertical results go to shared memory, then one thread
 * per output (at most two per thread) does the horizontal pass.
 */
constexpr int kDownThreads = 256;
constexpr int kDownTileH = 8;

template <int S>
struct VifDownTile {
    static constexpr int R = VQ_VIF_RADIUS(S);
    /* narrower tiles for the smaller scales: more blocks */
    static constexpr int COLS = S == 1 ? 128 : S == 2 ? 64 : 32;
    static constexpr int V = kDownTileH * COLS / kDownThreads;  /* output rows per thread */
    static constexpr int W = (COLS - 2 * R + 1) / 2;            /* outputs per tile row */
};

/* which images: both (one pass over the pair), the reference's only (a
 * ladder's shared pyramid), or the distorted one's only (a rendition of a
 * ladder, whose reference images come from the shared pyramid) */
enum { VIF_DOWN_BOTH, VIF_DOWN_REF, VIF_DOWN_DIS };

template <int S, int WHICH>
__global__ void __launch_bounds__(kDownThreads)
vif_subsample_kernel(VqPlaneView src_ref, VqPlaneView src_dis, int shift,
                     uint16_t *__restrict__ out_ref, uint16_t *__restrict__ out_dis,
                     int out_w, int out_h)
{
    constexpr bool DO_REF = WHICH != VIF_DOWN_DIS, DO_DIS = WHICH != VIF_DOWN_REF;
    constexpr int R = VifDownTile<S>::R, TW = VifDownTile<S>::W;
    constexpr int COLS = VifDownTile<S>::COLS, kDownV = VifDownTile<S>::V;
    __shared__ uint32_t vref[kDownTileH][COLS + 1];
    __shared__ uint32_t vdis[kDownTileH][COLS + 1];

    const int ox0 = blockIdx.x * TW, oy0 = blockIdx.y * kDownTileH;
    const int c = threadIdx.x % COLS, g = threadIdx.x / COLS;
    const int sx = 2 * ox0 - R + c;                       /* source column, unreflected */
    const int last_x = 2 * (min(ox0 + TW, out_w) - 1) + R;   /* rightmost source column read */

    if (sx <= last_x) {
        /* both views are one size (a one-picture launch passes its view twice) */
        const int x = vq_reflect101(sx, src_ref.w);
        uint32_t ar[kDownV], ad[kDownV];
#pragma unroll
        for (int r = 0; r < kDownV; r++)
            ar[r] = ad[r] = 0;
        const int r0 = 2 * (oy0 + g * kDownV) - R;        /* first source row */
        constexpr int N = 2 * (kDownV - 1) + 2 * R + 1;   /* source rows read */
        uint32_t col_ref[N], col_dis[N];
        if (DO_REF)
            vq_load_column<N, R>(src_ref, r0, x, col_ref);
        if (DO_DIS)
            vq_load_column<N, R>(src_dis, r0, x, col_dis);
#pragma unroll
        for (int k = 0; k < N; k++) {
            const uint32_t pr = DO_REF ? col_ref[k] : 0;
            const uint32_t pd = DO_DIS ? col_dis[k] : 0;
#pragma unroll
            for (int r = 0; r < kDownV; r++) {
                const int t = k - 2 * r;
                if (t >= 0 && t <= 2 * R) {
                    if (DO_REF)
                        ar[r] += (uint32_t)vq_vif_tap(S, t) * pr;
                    if (DO_DIS)
                        ad[r] += (uint32_t)vq_vif_tap(S, t) * pd;
                }
            }
        }
#pragma unroll
        for (int r = 0; r < kDownV; r++) {
            if (DO_REF)
                vref[g * kDownV + r][c] = vq_vif_down_vfinish(ar[r], shift);
            if (DO_DIS)
                vdis[g * kDownV + r][c] = vq_vif_down_vfinish(ad[r], shift);
        }
    }
    __syncthreads();

    for (int e = threadIdx.x; e < kDownTileH * TW; e += kDownThreads) {
        const int r = e / TW, q = e - r * TW;
        const int oy = oy0 + r, ox = ox0 + q;
        if (oy < out_h && ox < out_w) {
            const size_t o = (size_t)oy * out_w + ox;
            if (DO_REF)
                out_ref[o] = vq_vif_down_horizontal(S, &vref[r][2 * q]);
            if (DO_DIS)
                out_dis[o] = vq_vif_down_horizontal(S, &vdis[r][2 * q]);
        }
    }
}

/* the statistic kernel (a part of this file) */
#include "cuda_vif_stat.cuh"

} // namespace

struct VqVifCuda {
    int w, h;
    int sw[VQ_VIF_SCALES], sh[VQ_VIF_SCALES];
    uint16_t *d_img[VQ_VIF_SCALES][2];   /* scales 1..3: ref, dis */
    uint16_t *d_log2;
    bool f64;                            /* the wide sums as doubles: vif_pick_f64 */
    bool smem_table;                     /* scale 0's table in shared memory: vif_pick_smem_table */
    int stat_blocks[2][2];               /* scale-0 statistics grid: [pair, rendition of a ladder][16-bit, 8-bit] */
};

static VqPlaneView vif_image_view(const VqVifCuda *v, int s, int which)
{
    return vq_packed_u16_view(v->d_img[s][which], v->sw[s], v->sh[s]);
}

/* The reference's part of one frame, shared by a ladder's renditions (made
 * by vq_vif_cuda_ref_run): its scale 1..3 images, and per scale its
 * filtered moments mu1 and xx of every pixel. */
struct VqVifCudaRef {
    int w, h;
    int sw[VQ_VIF_SCALES], sh[VQ_VIF_SCALES];
    uint16_t *d_img[VQ_VIF_SCALES];
    uint32_t *d_mu1[VQ_VIF_SCALES], *d_xx[VQ_VIF_SCALES];
    bool f64;
};

/*
 * The formulation of the wide sums for the current device: doubles where
 * fp64 runs at half the fp32 rate or better (the data-centre GPUs: V100,
 * A100, H100/H200), integers elsewhere (L4, T4, A10 and the other GPUs
 * whose fp64 is 1/32 or 1/64 of fp32).  VQ_CUDA_VIF_WIDE=int|f64 forces
 * one (scripts/gpu-check.sh runs the parity tool with both).
 */
static bool vif_pick_f64()
{
    const char *e = getenv("VQ_CUDA_VIF_WIDE");
    if (e && !strcmp(e, "int"))
        return false;
    if (e && !strcmp(e, "f64"))
        return true;
    int dev = 0, ratio = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&ratio, cudaDevAttrSingleToDoublePrecisionPerfRatio, dev) != cudaSuccess)
        return false;
    return ratio > 0 && ratio <= 2;
}

/*
 * Scale 0's log2 table in shared memory where the device lets a block have
 * enough of it (the H100/H200: 227 KB), else read from global memory (the
 * L4 and A10: 99 KB; the T4: 64 KB), by the same kernel's other instance.
 * VQ_CUDA_VIF_TABLE=global|shared forces one (the parity tool runs both).
 */
static bool vif_pick_smem_table()
{
    const char *e = getenv("VQ_CUDA_VIF_TABLE");
    if (e && !strcmp(e, "global"))
        return false;
    const size_t need = vif_stat_dyn<0, VIF_STAT_PAIR>() > vif_stat_dyn<0, VIF_STAT_DIS>()
                            ? vif_stat_dyn<0, VIF_STAT_PAIR>()
                            : vif_stat_dyn<0, VIF_STAT_DIS>();
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return false;
    if (e && !strcmp(e, "shared"))
        return true;
    return (size_t)optin >= need;
}

/* the statistics kernel of scale S in MODE: its 8-bit instance for scale 0
 * of 8-bit video (eight), else the 16-bit one; SMEM: see VifStatGroups */
template <int S, int MODE, bool F64, bool SMEM>
static cudaError_t vif_stat_launch_t(bool eight, int grid, cudaStream_t st, VqPlaneView ref, VqPlaneView dis,
                                     int bpc, double egl, const uint16_t *log2_table, int64_t *rows,
                                     uint32_t *ref_mu1, uint32_t *ref_xx)
{
    constexpr int threads = VifStatGroups<S, MODE, SMEM>::THREADS;
    constexpr size_t dyn = vif_stat_dyn<S, MODE, SMEM>();
    if constexpr (S == 0) {
        if (eight) {
            vif_statistic_kernel<S, true, MODE, F64, SMEM><<<grid, threads, dyn, st>>>(
                ref, dis, bpc, egl, log2_table, rows, ref_mu1, ref_xx);
            return cudaGetLastError();
        }
    }
    vif_statistic_kernel<S, false, MODE, F64, SMEM><<<grid, threads, dyn, st>>>(ref, dis, bpc, egl, log2_table,
                                                                               rows, ref_mu1, ref_xx);
    return cudaGetLastError();
}

/* smem: the device has room for the table in shared memory (scale 0's
 * kernels read it from global memory otherwise) */
template <int S, int MODE, bool F64>
static cudaError_t vif_stat_launch_w(bool eight, bool smem, int grid, cudaStream_t st, VqPlaneView ref,
                                     VqPlaneView dis, int bpc, double egl, const uint16_t *log2_table,
                                     int64_t *rows, uint32_t *ref_mu1, uint32_t *ref_xx)
{
    if constexpr (VifStatGroups<S, MODE>::TABLE) {
        if (!smem)
            return vif_stat_launch_t<S, MODE, F64, false>(eight, grid, st, ref, dis, bpc, egl, log2_table, rows,
                                                          ref_mu1, ref_xx);
    }
    return vif_stat_launch_t<S, MODE, F64, VifStatCfg<S>::SMEM_TABLE>(eight, grid, st, ref, dis, bpc, egl,
                                                                      log2_table, rows, ref_mu1, ref_xx);
}

template <int S, int MODE>
static cudaError_t vif_stat_launch(bool f64, bool eight, bool smem, int grid, cudaStream_t st,
                                   VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                                   const uint16_t *log2_table, int64_t *rows, uint32_t *ref_mu1,
                                   uint32_t *ref_xx)
{
    if (f64)
        return vif_stat_launch_w<S, MODE, true>(eight, smem, grid, st, ref, dis, bpc, egl, log2_table, rows,
                                                ref_mu1, ref_xx);
    return vif_stat_launch_w<S, MODE, false>(eight, smem, grid, st, ref, dis, bpc, egl, log2_table, rows,
                                             ref_mu1, ref_xx);
}

/* down-sampling into scale S (S >= 1), then the statistics of scale S; with
 * rs, the reference's images are rs's and only the distorted picture is
 * down-sampled here */
template <int S>
static cudaError_t vif_launch_scale(const VqVifCuda *v, const VqVifCudaRef *rs, VqPlaneView ref,
                                    VqPlaneView dis, int bpc, double egl, const VqRowLayout *l,
                                    int64_t *d_rows, cudaStream_t st)
{
    if constexpr (S > 0) {
        cudaError_t err;
        const VqPlaneView src_ref = S == 1 ? ref : vif_image_view(v, S - 1, 0);
        const VqPlaneView src_dis = S == 1 ? dis : vif_image_view(v, S - 1, 1);
        const dim3 grid(ceil_div(v->sw[S], VifDownTile<S>::W), ceil_div(v->sh[S], kDownTileH));
        if (rs)
            vif_subsample_kernel<S, VIF_DOWN_DIS><<<grid, kDownThreads, 0, st>>>(
                src_dis, src_dis, vq_vif_down_shift(S, bpc), nullptr, v->d_img[S][1], v->sw[S], v->sh[S]);
        else
            vif_subsample_kernel<S, VIF_DOWN_BOTH><<<grid, kDownThreads, 0, st>>>(
                src_ref, src_dis, vq_vif_down_shift(S, bpc), v->d_img[S][0], v->d_img[S][1], v->sw[S],
                v->sh[S]);
        if ((err = cudaGetLastError()) != cudaSuccess)
            return err;
    }

    const VqPlaneView img_ref = S == 0 ? ref
                                : rs   ? vq_packed_u16_view(rs->d_img[S], rs->sw[S], rs->sh[S])
                                       : vif_image_view(v, S, 0);
    const VqPlaneView img_dis = S == 0 ? dis : vif_image_view(v, S, 1);
    using T = VifStatTile<S>;
    const int tiles = (int)(ceil_div(v->sw[S], T::W) * ceil_div(v->sh[S], T::TILE_H));
    int64_t *rows = d_rows + l->vif_off[S];
    const bool eight = S == 0 && bpc == 8;
    /* with the table in shared memory: as many blocks as run at once, each
     * of G groups */
    const bool smem = T::SMEM_TABLE && v->smem_table;
    const int groups = rs ? VifStatGroups<S, VIF_STAT_DIS>::G : VifStatGroups<S, VIF_STAT_PAIR>::G;
    const int grid = smem ? min((tiles + groups - 1) / groups, v->stat_blocks[rs ? 1 : 0][eight]) : tiles;
    if (rs)   /* a ladder's rendition: the reference's moments from rs */
        return vif_stat_launch<S, VIF_STAT_DIS>(v->f64, eight, smem, grid, st, img_ref, img_dis, bpc, egl,
                                                v->d_log2, rows, rs->d_mu1[S], rs->d_xx[S]);
    return vif_stat_launch<S, VIF_STAT_PAIR>(v->f64, eight, smem, grid, st, img_ref, img_dis, bpc, egl,
                                             v->d_log2, rows, nullptr, nullptr);
}

/* once per executor: the scale-0 kernels' shared memory, and how many of
 * their blocks fit on the device at once (their grid) */
static cudaError_t vif_stat_setup(VqVifCuda *v)
{
    int dev = 0, sms = 0;
    cudaError_t err;
    if ((err = cudaGetDevice(&dev)) != cudaSuccess ||
        (err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
        return err;
    /* [f64][pair, ladder rendition][16-bit, 8-bit] */
#define VIF_STAT0_KERNELS(W)                                                                             \
    {                                                                                                    \
        { (const void *)vif_statistic_kernel<0, false, VIF_STAT_PAIR, W>,                                \
          (const void *)vif_statistic_kernel<0, true, VIF_STAT_PAIR, W> },                               \
        { (const void *)vif_statistic_kernel<0, false, VIF_STAT_DIS, W>,                                 \
          (const void *)vif_statistic_kernel<0, true, VIF_STAT_DIS, W> },                                \
    }
    const void *const kw[2][2][2] = { VIF_STAT0_KERNELS(false), VIF_STAT0_KERNELS(true) };
#undef VIF_STAT0_KERNELS
    const void *const(&k)[2][2] = kw[v->f64];
    const size_t dyn[2] = { vif_stat_dyn<0, VIF_STAT_PAIR>(), vif_stat_dyn<0, VIF_STAT_DIS>() };
    const int threads[2] = { VifStatGroups<0, VIF_STAT_PAIR>::THREADS, VifStatGroups<0, VIF_STAT_DIS>::THREADS };
    for (int m = 0; m < 2; m++)
        for (int e = 0; e < 2; e++) {
            int per_sm = 0;
            if ((err = cudaFuncSetAttribute(k[m][e], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)dyn[m])) != cudaSuccess ||
                (err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k[m][e], threads[m],
                                                                     dyn[m])) != cudaSuccess)
                return err;
            v->stat_blocks[m][e] = (per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1);
        }
    return cudaSuccess;
}

extern "C" void vq_vif_cuda_free(VqVifCuda *v)
{
    if (!v)
        return;
    for (int s = 1; s < VQ_VIF_SCALES; s++)
        for (int k = 0; k < 2; k++)
            cudaFree(v->d_img[s][k]);
    cudaFree(v->d_log2);
    delete v;
}

extern "C" int vq_vif_cuda_alloc(VqVifCuda **out, int w, int h, const uint16_t *host_log2_table)
{
    *out = NULL;
    if (w < VQ_VIF_MIN_SIZE || h < VQ_VIF_MIN_SIZE || !host_log2_table)
        return cudaErrorInvalidValue;
    VqVifCuda *v = new (std::nothrow) VqVifCuda();
    if (!v)
        return cudaErrorMemoryAllocation;
    v->w = w;
    v->h = h;
    v->f64 = vif_pick_f64();
    v->smem_table = vif_pick_smem_table();
    cudaError_t err = cudaSuccess;
    for (int s = 0; s < VQ_VIF_SCALES && err == cudaSuccess; s++) {
        v->sw[s] = s ? v->sw[s - 1] / 2 : w;
        v->sh[s] = s ? v->sh[s - 1] / 2 : h;
        for (int k = 0; s && k < 2 && err == cudaSuccess; k++)
            err = cudaMalloc((void **)&v->d_img[s][k],
                             (size_t)v->sw[s] * v->sh[s] * sizeof(uint16_t));
    }
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&v->d_log2, VQ_VIF_LOG2_TABLE_SIZE * sizeof(uint16_t));
    if (err == cudaSuccess && v->smem_table)
        err = vif_stat_setup(v);
    if (err == cudaSuccess)
        err = cudaMemcpy(v->d_log2, host_log2_table, VQ_VIF_LOG2_TABLE_SIZE * sizeof(uint16_t),
                         cudaMemcpyHostToDevice);
    if (err != cudaSuccess) {
        vq_vif_cuda_free(v);
        return err;
    }
    *out = v;
    return 0;
}

static int vif_run(VqVifCuda *v, const VqVifCudaRef *rs, VqPlaneView ref, VqPlaneView dis, int bpc,
                   double egl, const VqRowLayout *l, int64_t *d_rows, void *stream)
{
    if (!v || !l || !d_rows || ref.w != v->w || ref.h != v->h || dis.w != v->w ||
        dis.h != v->h || l->w != v->w || l->h != v->h || bpc < 8 || bpc > 16 ||
        (rs && (rs->w != v->w || rs->h != v->h)))
        return cudaErrorInvalidValue;
    cudaStream_t st = (cudaStream_t)stream;
    cudaError_t err;

    /* the kernels add into the sums: zero every VIF section first (they are
     * adjacent in VqRowLayout, but do not rely on it) */
    const size_t first = l->vif_off[0];
    const size_t end = l->vif_off[VQ_VIF_SCALES - 1] +
                       (size_t)l->vif_h[VQ_VIF_SCALES - 1] * VQ_VIF_NSUMS;
    bool adjacent = true;
    for (int s = 1; s < VQ_VIF_SCALES; s++)
        adjacent = adjacent &&
                   l->vif_off[s] == l->vif_off[s - 1] + (size_t)l->vif_h[s - 1] * VQ_VIF_NSUMS;
    if (adjacent) {
        err = cudaMemsetAsync(d_rows + first, 0, (end - first) * sizeof(int64_t), st);
    } else {
        err = cudaSuccess;
        for (int s = 0; s < VQ_VIF_SCALES && err == cudaSuccess; s++)
            err = cudaMemsetAsync(d_rows + l->vif_off[s], 0,
                                  (size_t)l->vif_h[s] * VQ_VIF_NSUMS * sizeof(int64_t), st);
    }
    if (err != cudaSuccess)
        return err;

    if ((err = vif_launch_scale<0>(v, rs, ref, dis, bpc, egl, l, d_rows, st)) != cudaSuccess ||
        (err = vif_launch_scale<1>(v, rs, ref, dis, bpc, egl, l, d_rows, st)) != cudaSuccess ||
        (err = vif_launch_scale<2>(v, rs, ref, dis, bpc, egl, l, d_rows, st)) != cudaSuccess ||
        (err = vif_launch_scale<3>(v, rs, ref, dis, bpc, egl, l, d_rows, st)) != cudaSuccess)
        return err;
    return 0;
}

extern "C" int vq_vif_cuda_run(VqVifCuda *v, VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                               const VqRowLayout *l, int64_t *d_rows, void *stream)
{
    return vif_run(v, nullptr, ref, dis, bpc, egl, l, d_rows, stream);
}

extern "C" int vq_vif_cuda_run_shared(VqVifCuda *v, const VqVifCudaRef *rs, VqPlaneView ref,
                                      VqPlaneView dis, int bpc, double egl, const VqRowLayout *l,
                                      int64_t *d_rows, void *stream)
{
    if (!rs)
        return cudaErrorInvalidValue;
    return vif_run(v, rs, ref, dis, bpc, egl, l, d_rows, stream);
}

extern "C" void vq_vif_cuda_ref_free(VqVifCudaRef *r)
{
    if (!r)
        return;
    for (int s = 0; s < VQ_VIF_SCALES; s++) {
        cudaFree(r->d_img[s]);
        cudaFree(r->d_mu1[s]);
        cudaFree(r->d_xx[s]);
    }
    delete r;
}

extern "C" int vq_vif_cuda_ref_alloc(VqVifCudaRef **out, int w, int h)
{
    *out = nullptr;
    if (w < VQ_VIF_MIN_SIZE || h < VQ_VIF_MIN_SIZE)
        return cudaErrorInvalidValue;
    VqVifCudaRef *r = new (std::nothrow) VqVifCudaRef();
    if (!r)
        return cudaErrorMemoryAllocation;
    r->w = w;
    r->h = h;
    r->f64 = vif_pick_f64();
    cudaError_t err = cudaSuccess;
    for (int s = 0; s < VQ_VIF_SCALES && err == cudaSuccess; s++) {
        r->sw[s] = s ? r->sw[s - 1] / 2 : w;
        r->sh[s] = s ? r->sh[s - 1] / 2 : h;
        const size_t n = (size_t)r->sw[s] * r->sh[s];
        if (s)
            err = cudaMalloc((void **)&r->d_img[s], n * sizeof(uint16_t));
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&r->d_mu1[s], n * sizeof(uint32_t));
        if (err == cudaSuccess)
            err = cudaMalloc((void **)&r->d_xx[s], n * sizeof(uint32_t));
    }
    if (err != cudaSuccess) {
        vq_vif_cuda_ref_free(r);
        return err;
    }
    *out = r;
    return 0;
}

/* the reference's part alone, scale S: its image (S >= 1), then its moments
 * (the same kernels, reference-only instances) */
template <int S>
static cudaError_t vif_ref_scale(VqVifCudaRef *r, VqPlaneView ref, int bpc, cudaStream_t st)
{
    if constexpr (S > 0) {
        const VqPlaneView src = S == 1 ? ref : vq_packed_u16_view(r->d_img[S - 1], r->sw[S - 1], r->sh[S - 1]);
        const dim3 grid(ceil_div(r->sw[S], VifDownTile<S>::W), ceil_div(r->sh[S], kDownTileH));
        vif_subsample_kernel<S, VIF_DOWN_REF><<<grid, kDownThreads, 0, st>>>(
            src, src, vq_vif_down_shift(S, bpc), r->d_img[S], nullptr, r->sw[S], r->sh[S]);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess)
            return err;
    }
    const VqPlaneView img = S == 0 ? ref : vq_packed_u16_view(r->d_img[S], r->sw[S], r->sh[S]);
    using T = VifStatTile<S>;
    const int tiles = (int)(ceil_div(r->sw[S], T::W) * ceil_div(r->sh[S], T::TILE_H));
    return vif_stat_launch<S, VIF_STAT_REF>(r->f64, S == 0 && bpc == 8, false, tiles, st, img, img, bpc, 0.0,
                                            nullptr, nullptr, r->d_mu1[S], r->d_xx[S]);
}

extern "C" int vq_vif_cuda_ref_run(VqVifCudaRef *r, VqPlaneView ref, int bpc, void *stream)
{
    if (!r || ref.w != r->w || ref.h != r->h || bpc < 8 || bpc > 16)
        return cudaErrorInvalidValue;
    const cudaStream_t st = (cudaStream_t)stream;
    cudaError_t err;
    if ((err = vif_ref_scale<0>(r, ref, bpc, st)) != cudaSuccess ||
        (err = vif_ref_scale<1>(r, ref, bpc, st)) != cudaSuccess ||
        (err = vif_ref_scale<2>(r, ref, bpc, st)) != cudaSuccess ||
        (err = vif_ref_scale<3>(r, ref, bpc, st)) != cudaSuccess)
        return err;
    return 0;
}

/* ---- the module's CUDA table (hostmath/vif/: g.host is a VqVifGeom) ----
 * The reference's part (its scale images and moments) is what a ladder's
 * renditions share: ref_enqueue makes it, enqueue_shared reads it. */
namespace {

const VqVifGeom &geom(const VqModuleGeom *g)
{
    return *static_cast<const VqVifGeom *>(g->host);
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    VqVifCuda *v = nullptr;
    const int e = vq_vif_cuda_alloc(&v, g->w, g->h, geom(g).log2_table);
    *scratch = v;
    return e;
}

void module_free(void *scratch)
{
    vq_vif_cuda_free(static_cast<VqVifCuda *>(scratch));
}

int module_enqueue(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                   int64_t *d_section, void *stream, int)
{
    const VqVifGeom &vg = geom(g);
    return vq_vif_cuda_run(static_cast<VqVifCuda *>(scratch), ref[0], dis[0], g->bpc, vg.egl, &vg.l, d_section,
                           stream);
}

int module_ref_alloc(void **part, const VqModuleGeom *g)
{
    VqVifCudaRef *r = nullptr;
    const int e = vq_vif_cuda_ref_alloc(&r, g->w, g->h);
    *part = r;
    return e;
}

void module_ref_free(void *part)
{
    vq_vif_cuda_ref_free(static_cast<VqVifCudaRef *>(part));
}

int module_ref_enqueue(void *part, const VqModuleGeom *g, const VqPlaneView ref[3], void *stream)
{
    return vq_vif_cuda_ref_run(static_cast<VqVifCudaRef *>(part), ref[0], g->bpc, stream);
}

int module_enqueue_shared(void *scratch, const VqModuleGeom *g, const void *part, const VqPlaneView ref[3],
                          const VqPlaneView dis[3], int64_t *d_section, void *stream, int)
{
    const VqVifGeom &vg = geom(g);
    return vq_vif_cuda_run_shared(static_cast<VqVifCuda *>(scratch), static_cast<const VqVifCudaRef *>(part),
                                  ref[0], dis[0], g->bpc, vg.egl, &vg.l, d_section, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_vif_module_cuda = {
    module_alloc, module_free, module_enqueue, nullptr, nullptr, nullptr, nullptr, nullptr,
    module_ref_alloc, module_ref_free, module_ref_enqueue, module_enqueue_shared,
};
