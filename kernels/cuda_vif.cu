/*
 * cuda_vif.cu - the CUDA executor of integer VIF: thin kernels around vif.h.
 *
 * Per frame, on one stream: one memset of the VIF row sums, then per scale
 * s a down-sampling kernel (s >= 1) and a statistics kernel: 8 operations.
 * Each kernel works on a tile: first the vertical pass of every column the
 * tile needs (at reflected columns) into shared memory, then the
 * horizontal pass per output sample.  The statistics kernel reduces each
 * tile row in a warp and adds it to the row's sums with one integer atomic
 * per sum (integer sums: the order does not change the result).
 */
#include <new>

#include <cuda_runtime.h>

#include "vif.h"
#include "vif_exec.h"

namespace {

constexpr int kWarp = 32;
constexpr int kRowsPerBlock = 8;                 /* one warp per tile row */
constexpr int kThreads = kWarp * kRowsPerBlock;
/* statistics: 2 output columns per thread; a block walks along its band of
 * rows over several tiles, so a row gets few atomics per sum */
constexpr int kStatColsPerThread = 2;
constexpr int kStatTileW = kWarp * kStatColsPerThread;
constexpr int kStatMaxBlocksX = 8;
/* down-sampling: one output sample per thread */
constexpr int kDownTileW = kWarp;

__device__ __forceinline__ long long warp_sum(long long x)
{
    for (int o = kWarp / 2; o > 0; o >>= 1)
        x += __shfl_down_sync(0xffffffffu, x, o);
    return x;
}

/*
 * img_S (out_w x out_h, uint16) from img_{S-1} (the views): output (oy, ox)
 * is filter_S at source (2*oy, 2*ox).  The tile's vertical results are at
 * source row 2*oy, source columns 2*x0 - R ... 2*(x0 + kDownTileW - 1) + R.
 */
template <int S>
__global__ void __launch_bounds__(kThreads)
vif_subsample_kernel(VqPlaneView src_ref, VqPlaneView src_dis, int shift,
                     uint16_t *__restrict__ out_ref, uint16_t *__restrict__ out_dis,
                     int out_w, int out_h)
{
    constexpr int R = VQ_VIF_RADIUS(S);
    constexpr int SW = 2 * (kDownTileW - 1) + 2 * R + 1;
    __shared__ uint32_t vref[kRowsPerBlock][SW];
    __shared__ uint32_t vdis[kRowsPerBlock][SW];

    const int x0 = blockIdx.x * kDownTileW;
    const int y0 = blockIdx.y * kRowsPerBlock;
    const int tid = threadIdx.y * kWarp + threadIdx.x;
    const int last_x = 2 * (out_w - 1) + R;   /* rightmost source column read */

    for (int e = tid; e < kRowsPerBlock * SW; e += kThreads) {
        const int r = e / SW, c = e - r * SW;
        const int oy = y0 + r, sx = 2 * x0 - R + c;
        if (oy < out_h && sx <= last_x) {
            const int x = vq_reflect101(sx, src_ref.w);
            vref[r][c] = vq_vif_down_vertical(S, src_ref, 2 * oy, x, shift);
            vdis[r][c] = vq_vif_down_vertical(S, src_dis, 2 * oy, x, shift);
        }
    }
    __syncthreads();

    const int oy = y0 + threadIdx.y, ox = x0 + threadIdx.x;
    if (oy < out_h && ox < out_w) {
        const size_t o = (size_t)oy * out_w + ox;
        out_ref[o] = vq_vif_down_horizontal(S, &vref[threadIdx.y][2 * threadIdx.x]);
        out_dis[o] = vq_vif_down_horizontal(S, &vdis[threadIdx.y][2 * threadIdx.x]);
    }
}

/*
 * Statistics of scale S over img_S (the views): rows[y * VQ_VIF_NSUMS + k]
 * += the sums of row y (rows = this scale's section, zeroed beforehand).
 * EIGHT_BIT: scale 0 of 8-bit video (the reference's vif_statistic_8).
 */
template <int S, bool EIGHT_BIT>
__global__ void __launch_bounds__(kThreads)
vif_statistic_kernel(VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                     const uint16_t *__restrict__ log2_table, int64_t *__restrict__ rows)
{
    constexpr int R = VQ_VIF_RADIUS(S);
    constexpr int SW = kStatTileW + 2 * R;
    __shared__ VqVifMoments vert[kRowsPerBlock][SW];

    const VqVifStatShift sh = vq_vif_stat_shift(S, bpc);
    const int w = ref.w, h = ref.h;
    const int y0 = blockIdx.y * kRowsPerBlock;
    const int y = y0 + threadIdx.y;
    const int tid = threadIdx.y * kWarp + threadIdx.x;
    int64_t acc[VQ_VIF_NSUMS] = { 0, 0, 0, 0 };

    /* the loop condition is the same for the whole block (__syncthreads) */
    for (int x0 = blockIdx.x * kStatTileW; x0 < w; x0 += gridDim.x * kStatTileW) {
        __syncthreads();   /* the previous tile's readers are done */
        for (int e = tid; e < kRowsPerBlock * SW; e += kThreads) {
            const int r = e / SW, c = e - r * SW;
            const int x = x0 - R + c;
            if (y0 + r < h && x < w + R) {
                const int j = vq_reflect101(x, w);
                if constexpr (EIGHT_BIT)
                    vert[r][c] = vq_vif_stat_vertical_8(ref, dis, y0 + r, j);
                else
                    vert[r][c] = vq_vif_stat_vertical_16(S, ref, dis, y0 + r, j, sh);
            }
        }
        __syncthreads();

        if (y < h) {
#pragma unroll
            for (int k = 0; k < kStatColsPerThread; k++) {
                const int c = threadIdx.x + k * kWarp;
                if (x0 + c < w)
                    vq_vif_accumulate(acc, vq_vif_stat_horizontal(S, &vert[threadIdx.y][c]),
                                      log2_table, egl);
            }
        }
    }

    /* every lane of every warp gets here: the shuffles are complete */
#pragma unroll
    for (int k = 0; k < VQ_VIF_NSUMS; k++) {
        const long long s = warp_sum((long long)acc[k]);
        if (threadIdx.x == 0 && y < h)
            atomicAdd((unsigned long long *)&rows[(size_t)y * VQ_VIF_NSUMS + k],
                      (unsigned long long)s);
    }
}

unsigned ceil_div(int a, int b)
{
    return (unsigned)((a + b - 1) / b);
}

} // namespace

struct VqVifCuda {
    int w, h;
    int sw[VQ_VIF_SCALES], sh[VQ_VIF_SCALES];
    uint16_t *d_img[VQ_VIF_SCALES][2];   /* scales 1..3: ref, dis */
    uint16_t *d_log2;
};

static VqPlaneView vif_image_view(const VqVifCuda *v, int s, int which)
{
    return vq_packed_u16_view(v->d_img[s][which], v->sw[s], v->sh[s]);
}

/* down-sampling into scale S (S >= 1), then the statistics of scale S */
template <int S>
static cudaError_t vif_launch_scale(const VqVifCuda *v, VqPlaneView ref, VqPlaneView dis, int bpc,
                                    double egl, const VqRowLayout *l, int64_t *d_rows,
                                    cudaStream_t st)
{
    const dim3 block(kWarp, kRowsPerBlock);
    cudaError_t err;

    if constexpr (S > 0) {
        const VqPlaneView src_ref = S == 1 ? ref : vif_image_view(v, S - 1, 0);
        const VqPlaneView src_dis = S == 1 ? dis : vif_image_view(v, S - 1, 1);
        const dim3 grid(ceil_div(v->sw[S], kDownTileW), ceil_div(v->sh[S], kRowsPerBlock));
        vif_subsample_kernel<S><<<grid, block, 0, st>>>(src_ref, src_dis, vq_vif_down_shift(S, bpc),
                                                        v->d_img[S][0], v->d_img[S][1],
                                                        v->sw[S], v->sh[S]);
        if ((err = cudaGetLastError()) != cudaSuccess)
            return err;
    }

    const VqPlaneView img_ref = S == 0 ? ref : vif_image_view(v, S, 0);
    const VqPlaneView img_dis = S == 0 ? dis : vif_image_view(v, S, 1);
    unsigned gx = ceil_div(v->sw[S], kStatTileW);
    if (gx > kStatMaxBlocksX)
        gx = kStatMaxBlocksX;
    const dim3 grid(gx, ceil_div(v->sh[S], kRowsPerBlock));
    int64_t *rows = d_rows + l->vif_off[S];
    if constexpr (S == 0) {
        if (bpc == 8) {
            vif_statistic_kernel<S, true><<<grid, block, 0, st>>>(img_ref, img_dis, bpc, egl,
                                                                  v->d_log2, rows);
            return cudaGetLastError();
        }
    }
    vif_statistic_kernel<S, false><<<grid, block, 0, st>>>(img_ref, img_dis, bpc, egl,
                                                           v->d_log2, rows);
    return cudaGetLastError();
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

extern "C" int vq_vif_cuda_run(VqVifCuda *v, VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                               const VqRowLayout *l, int64_t *d_rows, void *stream)
{
    if (!v || !l || !d_rows || ref.w != v->w || ref.h != v->h || dis.w != v->w ||
        dis.h != v->h || l->w != v->w || l->h != v->h || bpc < 8 || bpc > 16)
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

    if ((err = vif_launch_scale<0>(v, ref, dis, bpc, egl, l, d_rows, st)) != cudaSuccess ||
        (err = vif_launch_scale<1>(v, ref, dis, bpc, egl, l, d_rows, st)) != cudaSuccess ||
        (err = vif_launch_scale<2>(v, ref, dis, bpc, egl, l, d_rows, st)) != cudaSuccess ||
        (err = vif_launch_scale<3>(v, ref, dis, bpc, egl, l, d_rows, st)) != cudaSuccess)
        return err;
    return 0;
}
