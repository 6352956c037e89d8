/*
 * cuda_scale.cu - the CUDA executor of the upscaler: thin kernels around
 * kernels/scale.h.  Per picture, on one stream: the horizontal pass (one
 * thread per intermediate column and kRows rows, every plane in one launch)
 * and the vertical pass (one thread per output column and kRows rows); or
 * one copy kernel when the plan is the identity.  A thread's rows share
 * its column's filter (horizontal pass) and overlap in their intermediate
 * rows (vertical pass).  4-tap filters (every bicubic upscale) get kernels
 * with the layout and bit depth as constants, whose tap loops unroll and
 * whose full tiles test nothing per tap or row (H200, 3 planes into
 * 1920x1080: 29-37 us per picture with one sample per thread, 22-27 with 8
 * rows a thread, 12-14 with the 4-tap kernels).
 * Tables, intermediate rows and output planes are allocated once, in
 * vq_scale_cuda_alloc.
 */
#include <new>
#include <type_traits>
#include <string.h>

#include <cuda_runtime.h>

#include "scale.h"
#include "scale_exec.h"

namespace {

constexpr int kThreads = 128;
constexpr int kRows = 8;        /* rows per thread, in both passes */
/* bytes after each output plane that nothing writes (the parity tool
 * poisons and checks them) */
constexpr size_t kGuard = 256;

struct HArgs {
    VqPlaneView src[3];
    VqScaleFilter f[3];
    void *tmp[3];
    int32_t rows[3], cols[3];   /* src_h, dst_w */
    int32_t bpc;
};

struct VArgs {
    VqScaleFilter f[3];
    const void *tmp[3];
    uint8_t *out[3];
    int32_t rows[3], cols[3];   /* dst_h, dst_w */
    int32_t c_row_begin[3];
    int32_t bpc, x86;
};

struct CopyArgs {
    VqPlaneView src[3];
    uint8_t *out[3];
    int32_t rows[3], cols[3];
    int32_t bytes;
};

__device__ __forceinline__ void store_sample(uint8_t *plane, int bytes, size_t i, uint32_t v)
{
    if (bytes == 1)
        plane[i] = (uint8_t)v;
    else
        ((uint16_t *)plane)[i] = (uint16_t)v;
}

/* The block's plane (blockIdx.z), first row (blockIdx.y * kRows) and this
 * thread's column, and the block's rows there (at most kRows); false where
 * the thread has nothing to do (the planes differ in size) */
__device__ __forceinline__ bool thread_tile(const int32_t (&rows)[3], const int32_t (&cols)[3], int &p,
                                            int &row0, int &x, int &n)
{
    p = blockIdx.z;
    row0 = blockIdx.y * kRows;
    x = blockIdx.x * kThreads + threadIdx.x;
    if (row0 >= rows[p] || x >= cols[p])
        return false;
    n = rows[p] - row0 < kRows ? rows[p] - row0 : kRows;
    return true;
}

/* intermediate[p][row][x] = horizontal filter of source row `row`: any
 * taps, any layout (scale_h4_kernel below: 4 taps) */
template <bool kB19>
__global__ void __launch_bounds__(kThreads) scale_h_kernel(HArgs a)
{
    int p, row0, x, n;
    if (!thread_tile(a.rows, a.cols, p, row0, x, n))
        return;
    /* every row's sum first, then the stores: a store may alias the source
     * (bytes), so loads after one could not be issued before it */
    const VqScaleFilter f = a.f[p];
    int32_t sum[kRows];
#pragma unroll
    for (int r = 0; r < kRows; r++)
        sum[r] = r < n ? vq_scale_h_sum(a.src[p], row0 + r, f, x) : 0;
#pragma unroll
    for (int r = 0; r < kRows; r++) {
        if (r >= n)
            break;
        const size_t o = (size_t)(row0 + r) * a.cols[p] + x;
        if (kB19)
            ((int32_t *)a.tmp[p])[o] = vq_scale_h_to19(sum[r]);
        else
            ((int16_t *)a.tmp[p])[o] = vq_scale_h_to15(sum[r], a.bpc);
    }
}

/* out[p][y][x] = vertical filter of the intermediate rows pos[y] ...: any
 * taps (scale_v4_kernel below: 4 taps) */
template <bool kB19>
__global__ void __launch_bounds__(kThreads) scale_v_kernel(VArgs a)
{
    int p, y0, x, n;
    if (!thread_tile(a.rows, a.cols, p, y0, x, n))
        return;
    const ptrdiff_t stride = a.cols[p];
    const VqScaleFilter f = a.f[p];
    /* every row's sample first, then the stores (see scale_h_kernel) */
    uint32_t v[kRows];
#pragma unroll
    for (int r = 0; r < kRows; r++) {
        v[r] = 0;
        if (r >= n)
            continue;
        const int y = y0 + r;
        const int16_t *coef = f.coef + (ptrdiff_t)y * f.size;
        const size_t first = (size_t)f.pos[y] * stride + x;
        if (kB19) {
            v[r] = vq_scale_v_sample19((const int32_t *)a.tmp[p] + first, stride, coef, f.size);
        } else {
            const int x86 = a.x86 && y < a.c_row_begin[p];
            v[r] = vq_scale_v_sample15((const int16_t *)a.tmp[p] + first, stride, coef, f.size, a.bpc, x86);
        }
    }
#pragma unroll
    for (int r = 0; r < kRows; r++) {
        if (r >= n)
            break;
        const size_t o = (size_t)(y0 + r) * stride + x;
        if (kB19)
            ((uint16_t *)a.out[p])[o] = (uint16_t)v[r];
        else
            store_sample(a.out[p], a.bpc > 8 ? 2 : 1, o, v[r]);
    }
}

/*
 * The 4-tap kernels (every bicubic upscale) with the layout and the bit
 * depth as constants.  The generic kernels above spent some 160-220
 * instructions per output sample on the run-time cases (bytes, step, bit
 * depth, taps cut at the row's end, 64-bit addresses per tap; H200, ncu:
 * 12-18 us a pass into 1920x1080); here a thread works out its column's
 * taps once (horizontal) or each row's once (vertical), and the arithmetic
 * is the same scale.h calls.
 */
/* one row's sum over the first `taps` of the 4 taps at q (kAll: all 4),
 * kStep samples apart */
template <int kBytes, int kStep, bool kAll>
__device__ __forceinline__ uint32_t h4_row(const VqPlaneView &src, const uint8_t *q, const int16_t (&c)[4],
                                           int taps)
{
    uint32_t acc = 0;
#pragma unroll
    for (int j = 0; j < 4; j++)
        if (kAll || j < taps)
            acc = vq_scale_h_tap(acc, vq_sample_load(src, q + j * kStep * kBytes), c[j]);
    return acc;
}

/* the n rows' sums from base (the first tap of the first row): without a
 * test per tap or row where the column has all its taps and the block all
 * its rows, so that every load of the thread issues together */
template <int kBytes, int kStep>
__device__ __forceinline__ void h4_rows(const VqPlaneView &src, const uint8_t *base, const int16_t (&c)[4],
                                        int taps, int n, int32_t (&sum)[kRows])
{
    if (taps == 4 && n == kRows) {
#pragma unroll
        for (int r = 0; r < kRows; r++)
            sum[r] = (int32_t)h4_row<kBytes, kStep, true>(src, base + (ptrdiff_t)r * src.pitch, c, 4);
    } else {
#pragma unroll
        for (int r = 0; r < kRows; r++)
            sum[r] = r < n ? (int32_t)h4_row<kBytes, kStep, false>(src, base + (ptrdiff_t)r * src.pitch, c,
                                                                   taps)
                           : 0;
    }
}

template <int kBytes, bool kB19>
__global__ void __launch_bounds__(kThreads) scale_h4_kernel(HArgs a)
{
    int p, row0, x, n;
    if (!thread_tile(a.rows, a.cols, p, row0, x, n))
        return;
    VqPlaneView src = a.src[p];
    src.bytes = kBytes;
    VqScaleFilter f = a.f[p];
    f.size = 4;
    /* the column's taps: how many inside the row, the first's place, the coefficients */
    const int taps = vq_scale_h_taps(f, src.w, x);
    const int first = f.pos[x];
    const uint2 cw = *(const uint2 *)(f.coef + (size_t)x * 4);   /* 8-byte aligned rows of 4 */
    const int16_t c[4] = { (int16_t)(cw.x & 0xffff), (int16_t)(cw.x >> 16),
                           (int16_t)(cw.y & 0xffff), (int16_t)(cw.y >> 16) };
    const uint8_t *base = src.data + (ptrdiff_t)row0 * src.pitch + first * src.step * kBytes;
    /* every row's sum first, then the stores (see scale_h_kernel); the step
     * as a constant (1, or 2: interleaved chroma), so that the taps' loads
     * take immediate offsets */
    int32_t sum[kRows];
    if (src.step == 1)
        h4_rows<kBytes, 1>(src, base, c, taps, n, sum);
    else
        h4_rows<kBytes, 2>(src, base, c, taps, n, sum);
    const size_t o = (size_t)row0 * a.cols[p] + x;
#pragma unroll
    for (int r = 0; r < kRows; r++) {
        if (r >= n)
            break;
        if (kB19)
            ((int32_t *)a.tmp[p])[o + (size_t)r * a.cols[p]] = vq_scale_h_to19(sum[r]);
        else
            ((int16_t *)a.tmp[p])[o + (size_t)r * a.cols[p]] = vq_scale_h_to15(sum[r], a.bpc);
    }
}

/* output row y's sample of the thread's column (tmp: the column's first
 * intermediate sample) */
template <int kBpc, bool kX86, typename Tmp>
__device__ __forceinline__ uint32_t v4_row(const Tmp *tmp, int stride, const VqScaleFilter &f, int y,
                                           int x86_rows)
{
    const uint2 cw = *(const uint2 *)(f.coef + (size_t)y * 4);
    const int16_t c[4] = { (int16_t)(cw.x & 0xffff), (int16_t)(cw.x >> 16),
                           (int16_t)(cw.y & 0xffff), (int16_t)(cw.y >> 16) };
    const Tmp *col = tmp + (ptrdiff_t)(f.pos[y] * stride);
    if (kBpc == 16)
        return vq_scale_v_sample19((const int32_t *)col, stride, c, 4);
    return vq_scale_v_sample15((const int16_t *)col, stride, c, 4, kBpc, kX86 && y < x86_rows);
}

/* kBpc: the bit depth (16: the 19-bit intermediate); kX86: mode
 * VQ_SCALE_BICUBIC_X86 (8 bits), whose rows before c_row_begin take the
 * SIMD arithmetic */
template <int kBpc, bool kX86>
__global__ void __launch_bounds__(kThreads) scale_v4_kernel(VArgs a)
{
    using Tmp = typename std::conditional<kBpc == 16, int32_t, int16_t>::type;
    using Out = typename std::conditional<kBpc == 8, uint8_t, uint16_t>::type;
    int p, y0, x, n;
    if (!thread_tile(a.rows, a.cols, p, y0, x, n))
        return;
    const int stride = a.cols[p];
    const Tmp *tmp = (const Tmp *)a.tmp[p] + x;
    const VqScaleFilter f = a.f[p];
    const int x86_rows = kX86 ? a.c_row_begin[p] : 0;
    Out *out = (Out *)a.out[p] + (ptrdiff_t)y0 * stride + x;
    /* every row's sample first, then the stores (see scale_h_kernel);
     * without a test per row where the block has all its rows */
    uint32_t v[kRows];
    if (n == kRows) {
#pragma unroll
        for (int r = 0; r < kRows; r++)
            v[r] = v4_row<kBpc, kX86>(tmp, stride, f, y0 + r, x86_rows);
#pragma unroll
        for (int r = 0; r < kRows; r++)
            out[(ptrdiff_t)r * stride] = (Out)v[r];
        return;
    }
#pragma unroll
    for (int r = 0; r < kRows; r++)
        v[r] = r < n ? v4_row<kBpc, kX86>(tmp, stride, f, y0 + r, x86_rows) : 0;
#pragma unroll
    for (int r = 0; r < kRows; r++) {
        if (r >= n)
            break;
        out[(ptrdiff_t)r * stride] = (Out)v[r];
    }
}

/* same size: the output is the input, repacked */
__global__ void __launch_bounds__(kThreads) scale_copy_kernel(CopyArgs a)
{
    const int p = blockIdx.z, y = blockIdx.y;
    const int x = blockIdx.x * kThreads + threadIdx.x;
    if (y >= a.rows[p] || x >= a.cols[p])
        return;
    store_sample(a.out[p], a.bytes, (size_t)y * a.cols[p] + x, vq_sample(a.src[p], y, x));
}

size_t align256(size_t n) { return (n + 255) / 256 * 256; }

}  // namespace

struct VqScaleCuda {
    VqScalePlan plan;           /* scalars; table pointers below are device ones */
    VqScaleFilter h[3], v[3];
    void *tmp[3];
    uint8_t *out[3];
    int bytes;
    void *d_blob;               /* tables, intermediates and outputs in one allocation */
};

extern "C" int vq_scale_cuda_alloc(VqScaleCuda **ps, const VqScalePlan *plan)
{
    *ps = nullptr;
    if (!plan || plan->nplanes < 1 || plan->nplanes > 3)
        return (int)cudaErrorInvalidValue;
    for (int p = 0; p < plan->nplanes; p++) {
        const VqScalePlanePlan &pp = plan->plane[p];
        if (pp.dst_w < 1 || pp.dst_h < 1 || pp.dst_h > 65535 ||
            (!plan->identity && (pp.h.n != pp.dst_w || pp.v.n != pp.dst_h)))
            return (int)cudaErrorInvalidValue;
    }
    VqScaleCuda *s = new (std::nothrow) VqScaleCuda();
    if (!s)
        return (int)cudaErrorMemoryAllocation;
    s->plan = *plan;
    s->bytes = plan->bpc > 8 ? 2 : 1;
    const size_t tmp_bytes = plan->bpc == 16 ? 4 : 2;

    /* layout of the blob: per plane [h.pos h.coef v.pos v.coef tmp out+guard] */
    size_t off[3][6], total = 0;
    for (int p = 0; p < plan->nplanes; p++) {
        const VqScalePlanePlan &pp = plan->plane[p];
        const size_t n[6] = {
            plan->identity ? 0 : (size_t)pp.h.n * 4,
            plan->identity ? 0 : (size_t)pp.h.n * pp.h.size * 2,
            plan->identity ? 0 : (size_t)pp.v.n * 4,
            plan->identity ? 0 : (size_t)pp.v.n * pp.v.size * 2,
            plan->identity ? 0 : (size_t)pp.src_h * pp.dst_w * tmp_bytes,
            (size_t)pp.dst_h * pp.dst_w * s->bytes + kGuard,
        };
        for (int k = 0; k < 6; k++) {
            off[p][k] = total;
            total += align256(n[k]);
        }
    }
    cudaError_t err = cudaMalloc(&s->d_blob, total);
    if (err != cudaSuccess) {
        delete s;
        return (int)err;
    }
    uint8_t *b = (uint8_t *)s->d_blob;
    for (int p = 0; p < plan->nplanes && err == cudaSuccess; p++) {
        const VqScalePlanePlan &pp = plan->plane[p];
        s->out[p] = b + off[p][5];
        s->tmp[p] = b + off[p][4];
        s->h[p] = VqScaleFilter{ (const int32_t *)(b + off[p][0]), (const int16_t *)(b + off[p][1]),
                                 pp.h.n, pp.h.size };
        s->v[p] = VqScaleFilter{ (const int32_t *)(b + off[p][2]), (const int16_t *)(b + off[p][3]),
                                 pp.v.n, pp.v.size };
        if (plan->identity)
            continue;
        const void *src[4] = { pp.h.pos, pp.h.coef, pp.v.pos, pp.v.coef };
        const size_t n[4] = { (size_t)pp.h.n * 4, (size_t)pp.h.n * pp.h.size * 2,
                              (size_t)pp.v.n * 4, (size_t)pp.v.n * pp.v.size * 2 };
        for (int k = 0; k < 4 && err == cudaSuccess; k++)
            err = cudaMemcpy(b + off[p][k], src[k], n[k], cudaMemcpyHostToDevice);
    }
    if (err == cudaSuccess)   /* the pageable copies are done before a non-blocking stream's kernel reads them */
        err = cudaStreamSynchronize(cudaStreamLegacy);
    if (err != cudaSuccess) {
        cudaFree(s->d_blob);
        delete s;
        return (int)err;
    }
    *ps = s;
    return 0;
}

extern "C" void vq_scale_cuda_free(VqScaleCuda *s)
{
    if (!s)
        return;
    cudaFree(s->d_blob);
    delete s;
}

extern "C" int vq_scale_cuda_run(VqScaleCuda *s, const VqPlaneView src[3], void *stream)
{
    const VqScalePlan &pl = s->plan;
    const cudaStream_t st = (cudaStream_t)stream;
    int max_sh = 0, max_dw = 0, max_dh = 0;
    for (int p = 0; p < pl.nplanes; p++) {
        const VqScalePlanePlan &pp = pl.plane[p];
        if (!src[p].data || src[p].w != pp.src_w || src[p].h != pp.src_h ||
            (src[p].bytes != 1 && src[p].bytes != 2))
            return (int)cudaErrorInvalidValue;
        max_sh = pp.src_h > max_sh ? pp.src_h : max_sh;
        max_dw = pp.dst_w > max_dw ? pp.dst_w : max_dw;
        max_dh = pp.dst_h > max_dh ? pp.dst_h : max_dh;
    }
    const unsigned bx = (unsigned)((max_dw + kThreads - 1) / kThreads);
    if (pl.identity) {
        CopyArgs a;
        memset(&a, 0, sizeof(a));
        for (int p = 0; p < pl.nplanes; p++) {
            a.src[p] = src[p];
            a.out[p] = s->out[p];
            a.rows[p] = pl.plane[p].dst_h;
            a.cols[p] = pl.plane[p].dst_w;
        }
        a.bytes = s->bytes;
        scale_copy_kernel<<<dim3(bx, (unsigned)max_dh, (unsigned)pl.nplanes), kThreads, 0, st>>>(a);
        return (int)cudaGetLastError();
    }

    HArgs h;
    VArgs v;
    memset(&h, 0, sizeof(h));
    memset(&v, 0, sizeof(v));
    for (int p = 0; p < pl.nplanes; p++) {
        const VqScalePlanePlan &pp = pl.plane[p];
        h.src[p] = src[p];
        h.f[p] = s->h[p];
        h.tmp[p] = s->tmp[p];
        h.rows[p] = pp.src_h;
        h.cols[p] = pp.dst_w;
        v.f[p] = s->v[p];
        v.tmp[p] = s->tmp[p];
        v.out[p] = s->out[p];
        v.rows[p] = pp.dst_h;
        v.cols[p] = pp.dst_w;
        v.c_row_begin[p] = pp.c_row_begin;
    }
    h.bpc = v.bpc = pl.bpc;
    v.x86 = pl.mode == VQ_SCALE_BICUBIC_X86;
    const dim3 hg(bx, (unsigned)((max_sh + kRows - 1) / kRows), (unsigned)pl.nplanes);
    const dim3 vg(bx, (unsigned)((max_dh + kRows - 1) / kRows), (unsigned)pl.nplanes);
    bool h4 = true, v4 = true;
    for (int p = 0; p < pl.nplanes; p++) {
        h4 = h4 && pl.plane[p].h.size == 4 && src[p].bytes == src[0].bytes;
        v4 = v4 && pl.plane[p].v.size == 4;
    }
    cudaError_t e = cudaSuccess;
    if (h4) {
        /* a plane view's bytes: 1 or 2 (checked above), the same in every plane */
        if (pl.bpc == 16)
            scale_h4_kernel<2, true><<<hg, kThreads, 0, st>>>(h);
        else if (src[0].bytes == 2)
            scale_h4_kernel<2, false><<<hg, kThreads, 0, st>>>(h);
        else
            scale_h4_kernel<1, false><<<hg, kThreads, 0, st>>>(h);
    } else if (pl.bpc == 16) {
        scale_h_kernel<true><<<hg, kThreads, 0, st>>>(h);
    } else {
        scale_h_kernel<false><<<hg, kThreads, 0, st>>>(h);
    }
    if ((e = cudaGetLastError()) != cudaSuccess)
        return (int)e;
    if (v4) {
        switch (pl.bpc) {
        case 8:
            if (v.x86)
                scale_v4_kernel<8, true><<<vg, kThreads, 0, st>>>(v);
            else
                scale_v4_kernel<8, false><<<vg, kThreads, 0, st>>>(v);
            break;
        case 9:  scale_v4_kernel<9, false><<<vg, kThreads, 0, st>>>(v); break;
        case 10: scale_v4_kernel<10, false><<<vg, kThreads, 0, st>>>(v); break;
        case 12: scale_v4_kernel<12, false><<<vg, kThreads, 0, st>>>(v); break;
        case 14: scale_v4_kernel<14, false><<<vg, kThreads, 0, st>>>(v); break;
        case 16: scale_v4_kernel<16, false><<<vg, kThreads, 0, st>>>(v); break;
        default: return (int)cudaErrorInvalidValue;
        }
    } else if (pl.bpc == 16) {
        scale_v_kernel<true><<<vg, kThreads, 0, st>>>(v);
    } else {
        scale_v_kernel<false><<<vg, kThreads, 0, st>>>(v);
    }
    return (int)cudaGetLastError();
}

extern "C" void vq_scale_cuda_output(const VqScaleCuda *s, VqPlaneView out[3])
{
    const VqScalePlan &pl = s->plan;
    for (int p = 0; p < 3; p++) {
        const int q = p < pl.nplanes ? p : 0;
        const VqScalePlanePlan &pp = pl.plane[q];
        VqPlaneView &v = out[p];
        v.data = s->out[q];
        v.pitch = (ptrdiff_t)pp.dst_w * s->bytes;
        v.w = pp.dst_w;
        v.h = pp.dst_h;
        v.bytes = s->bytes;
        v.shift = 0;
        v.step = 1;
    }
}
