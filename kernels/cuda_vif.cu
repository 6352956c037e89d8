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

/*
 * Statistics of scale S over img_S (the views): rows[y * VQ_VIF_NSUMS + k]
 * += the sums of row y (rows = this scale's section, zeroed beforehand).
 * EIGHT_BIT: scale 0 of 8-bit video (the reference's vif_statistic_8).
 *
 * A tile is C::TILE_H rows by C::COLS - 2R output columns; each group of a
 * block (VifStatGroups) loops over tiles (grid-stride: with the log2 table
 * in shared memory, a block loads it once and scores several tiles).
 *   1. Vertical pass: a thread owns one of the C::COLS columns (the tile and
 *      its reflected halo) and C::V consecutive rows; it reads each of the
 *      C::V + 2R source rows once, adds it into its rows' taps (held in
 *      registers), and stores the moments in shared memory.
 *   2. Horizontal pass: a thread owns C::H consecutive outputs of one row;
 *      it reads each of the C::H + 2R moments once and adds it into its
 *      outputs' taps; then the per-pixel decision of each output.
 *   3. The C::ROW_THREADS threads of a row (aligned in their warp) reduce
 *      their sums (shuffles) and add them to the row's with one integer
 *      atomic per sum.
 * Integer sums that cannot overflow: the order of the taps and of the
 * reduction does not change the result (vif.h fixes the arithmetic).
 */
constexpr int kStatThreads = 256;

template <int S>
struct VifStatCfg;
/* scale 0: the bulk of the work; scales 1-3 smaller tiles, for more blocks */
template <> struct VifStatCfg<0> { static constexpr int COLS = 128, TILE_H = 16; static constexpr bool SMEM_TABLE = true; };
template <> struct VifStatCfg<1> { static constexpr int COLS = 64, TILE_H = 16; static constexpr bool SMEM_TABLE = false; };
template <> struct VifStatCfg<2> { static constexpr int COLS = 64, TILE_H = 8; static constexpr bool SMEM_TABLE = false; };
template <> struct VifStatCfg<3> { static constexpr int COLS = 32, TILE_H = 8; static constexpr bool SMEM_TABLE = false; };

template <int S>
struct VifStatTile : VifStatCfg<S> {
    using B = VifStatCfg<S>;
    static constexpr int R = VQ_VIF_RADIUS(S);
    static constexpr int W = B::COLS - 2 * R;                       /* outputs per tile row */
    static constexpr int V = B::TILE_H * B::COLS / kStatThreads;    /* vertical rows per thread */
    static constexpr int ROW_THREADS = kStatThreads / B::TILE_H;
    static constexpr int H = (W + ROW_THREADS - 1) / ROW_THREADS;   /* outputs per thread */
    /* shared rows: == 16 mod 32 words, so the two rows a warp reads in the
     * horizontal pass fall on other banks */
    static constexpr int PITCH = (B::COLS - 16 + 31) / 32 * 32 + 16;
    static_assert(V >= 1 && V * kStatThreads == B::TILE_H * B::COLS, "tile shape");
    static_assert(ROW_THREADS <= 32 && 32 % ROW_THREADS == 0, "a row's threads share a warp");
};

/*
 * Groups: a scale-0 block with the log2 table in shared memory is G groups
 * of kStatThreads threads, each scoring its own tiles with its own barrier
 * (a named one), all reading the block's one copy of the table.  G = 2:
 * the same 16 warps per SM as two blocks of one group, but the SM holds
 * one 64 KB table instead of two, which leaves room for the side streams'
 * kernels beside it (H200: the pair 2-4% and a 2160p pair 6% faster, the
 * kernel itself unchanged); G = 3 (24 warps, 80 registers) was no faster.
 * VQ_VIF_STAT0_GROUPS sets G at build time.
 */
#ifndef VQ_VIF_STAT0_GROUPS
#define VQ_VIF_STAT0_GROUPS 2
#endif
/* the statistics kernel's modes: see vif_statistic_kernel */
enum { VIF_STAT_PAIR, VIF_STAT_REF, VIF_STAT_DIS };

/* SMEM: the table in shared memory (the scale's choice, on a device with
 * room for it: vif_pick_smem_table); TABLE: this mode reads it there */
template <int S, int MODE, bool SMEM = VifStatCfg<S>::SMEM_TABLE>
struct VifStatGroups {
    static constexpr bool TABLE = SMEM && MODE != VIF_STAT_REF;
    static constexpr int G = (S == 0 && TABLE) ? VQ_VIF_STAT0_GROUPS : 1;
    static constexpr int THREADS = G * kStatThreads;
};

/* one group's tile of moments in shared memory (planes; a moment the mode
 * does not filter gets one unused row) */
template <int S, bool REF_MOMENTS, bool DIS_MOMENTS>
struct VifStatSmem {
    using T = VifStatTile<S>;
    uint32_t mu1[REF_MOMENTS ? T::TILE_H : 1][T::PITCH], xx[REF_MOMENTS ? T::TILE_H : 1][T::PITCH];
    uint32_t mu2[DIS_MOMENTS ? T::TILE_H : 1][T::PITCH], yy[DIS_MOMENTS ? T::TILE_H : 1][T::PITCH];
    uint32_t xy[DIS_MOMENTS ? T::TILE_H : 1][T::PITCH];
};

/* the barrier of one group: the block's when it is the only one */
template <int G>
__device__ __forceinline__ void vif_group_sync(int group)
{
    if constexpr (G == 1)
        __syncthreads();
    else
        asm volatile("bar.sync %0, %1;" ::"r"(group + 1), "r"(kStatThreads) : "memory");
}

/*
 * The vertical pass's accumulators.  F64: the wide sums of vif_statistic_16
 * as doubles (vif.h: exact alike); scale 0 of 8-bit video has none (its
 * squares fit 32 bits).
 */
template <bool EIGHT_BIT, bool F64>
struct VifVertAcc;
template <bool F64>
struct VifVertAcc<true, F64> {
    VqVifVert8 a;
    using Sample = VqVifSample;
    static __device__ __forceinline__ Sample sample(VqVifSample p) { return p; }
    __device__ __forceinline__ void clear() { a = VqVifVert8{ 0, 0, 0, 0, 0 }; }
    __device__ __forceinline__ void tap(uint32_t t, VqVifSample p) { vq_vif_vert8_tap(&a, t, p); }
    __device__ __forceinline__ VqVifMoments finish(VqVifStatShift) const { return vq_vif_vert8_finish(a); }
};
template <>
struct VifVertAcc<false, true> {
    VqVifWide a;
    using Sample = VqVifWide;
    static __device__ __forceinline__ Sample sample(VqVifSample p) { return vq_vif_sample_f64(p); }
    __device__ __forceinline__ void clear() { a = VqVifWide{ 0, 0, 0.0, 0.0, 0.0 }; }
    __device__ __forceinline__ void tap(uint32_t t, const VqVifWide &p) { vq_vif_wide_tap(&a, t, p); }
    __device__ __forceinline__ VqVifMoments finish(VqVifStatShift sh) const
    {
        return vq_vif_vert16_finish_f64(a, sh);
    }
};
template <>
struct VifVertAcc<false, false> {
    VqVifVert16 a;
    using Sample = VqVifSample;
    static __device__ __forceinline__ Sample sample(VqVifSample p) { return p; }
    __device__ __forceinline__ void clear() { a = VqVifVert16{ 0, 0, 0, 0, 0 }; }
    __device__ __forceinline__ void tap(uint32_t t, VqVifSample p) { vq_vif_vert16_tap(&a, t, p); }
    __device__ __forceinline__ VqVifMoments finish(VqVifStatShift sh) const
    {
        return vq_vif_vert16_finish(a, sh);
    }
};

/* the horizontal pass's, likewise (every scale has wide sums there) */
template <bool F64>
struct VifHorzAcc {
    VqVifHorz a;
    using In = VqVifMoments;
    static __device__ __forceinline__ In in(VqVifMoments m) { return m; }
    __device__ __forceinline__ void clear() { a = VqVifHorz{ 0, 0, 0, 0, 0 }; }
    __device__ __forceinline__ void tap(uint32_t t, const In &m) { vq_vif_horz_tap(&a, t, m); }
    __device__ __forceinline__ VqVifMoments finish() const { return vq_vif_horz_finish(a); }
};
template <>
struct VifHorzAcc<true> {
    VqVifWide a;
    using In = VqVifWide;
    static __device__ __forceinline__ In in(VqVifMoments m) { return vq_vif_moments_f64(m); }
    __device__ __forceinline__ void clear() { a = VqVifWide{ 0, 0, 0.0, 0.0, 0.0 }; }
    __device__ __forceinline__ void tap(uint32_t t, const In &m) { vq_vif_wide_tap(&a, t, m); }
    __device__ __forceinline__ VqVifMoments finish() const { return vq_vif_horz_finish_f64(a); }
};

/* the table's upper half, in dynamic shared memory (SMEM_TABLE) */
constexpr size_t kLog2HiBytes = (VQ_VIF_LOG2_TABLE_SIZE - VQ_VIF_LOG2_HI) * sizeof(uint16_t);

/* the statistics kernel's dynamic shared memory: the table (scale 0, a mode
 * that decides) and its groups' moments */
template <int S, int MODE, bool SMEM = VifStatCfg<S>::SMEM_TABLE>
constexpr size_t vif_stat_dyn()
{
    return (VifStatGroups<S, MODE, SMEM>::TABLE ? kLog2HiBytes : 0) +
           VifStatGroups<S, MODE, SMEM>::G *
               sizeof(VifStatSmem<S, MODE != VIF_STAT_DIS, MODE != VIF_STAT_REF>);
}

/*
 * MODE: the pair's statistics (VIF_STAT_PAIR); or, for a ladder, the
 * reference's moments alone (VIF_STAT_REF: mu1 and xx of every pixel,
 * filtered, into ref_mu1/ref_xx; no decision, no sums); or a rendition's
 * statistics given those (VIF_STAT_DIS: mu2, yy and xy filtered here, mu1
 * and xx read back).  The same steps in all three: each moment is filtered
 * on its own, so a moment left out is dead code (its inputs are constant 0,
 * or its result unused) and the others are unchanged.
 */
template <int S, bool EIGHT_BIT, int MODE = VIF_STAT_PAIR, bool F64 = false,
          bool SMEM = VifStatCfg<S>::SMEM_TABLE>
__global__ void __launch_bounds__(VifStatGroups<S, MODE, SMEM>::THREADS)
vif_statistic_kernel(VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                     const uint16_t *__restrict__ log2_table, int64_t *__restrict__ rows,
                     uint32_t *__restrict__ ref_mu1, uint32_t *__restrict__ ref_xx)
{
    using T = VifStatTile<S>;
    constexpr int R = T::R, V = T::V, H = T::H, COLS = T::COLS;
    constexpr bool REF_MOMENTS = MODE != VIF_STAT_DIS;     /* mu1, xx filtered here */
    constexpr bool DIS_MOMENTS = MODE != VIF_STAT_REF;     /* mu2, yy, xy filtered here */
    constexpr bool TABLE = VifStatGroups<S, MODE, SMEM>::TABLE;
    constexpr int G = VifStatGroups<S, MODE, SMEM>::G;
    using Smem = VifStatSmem<S, REF_MOMENTS, DIS_MOMENTS>;
    /* dynamic shared memory: the table's upper half (TABLE), then each
     * group's moments */
    extern __shared__ __align__(16) uint8_t s_dyn[];
    const int group = G == 1 ? 0 : (int)threadIdx.x / kStatThreads;
    const int tid = G == 1 ? (int)threadIdx.x : (int)threadIdx.x % kStatThreads;
    Smem &sm = ((Smem *)(s_dyn + (TABLE ? kLog2HiBytes : 0)))[group];
    auto &s_mu1 = sm.mu1;
    auto &s_xx = sm.xx;
    auto &s_mu2 = sm.mu2;
    auto &s_yy = sm.yy;
    auto &s_xy = sm.xy;

    const uint16_t *log2_hi = log2_table + VQ_VIF_LOG2_HI;
    if constexpr (TABLE) {
        const uint4 *src = (const uint4 *)log2_hi;
        uint4 *dst = (uint4 *)s_dyn;
        for (int e = threadIdx.x; e < (int)(kLog2HiBytes / sizeof(uint4)); e += G * kStatThreads)
            dst[e] = src[e];
        log2_hi = (const uint16_t *)s_dyn;
        __syncthreads();   /* every group reads the whole table */
    }

    const int w = ref.w, h = ref.h;
    const int tiles_x = (w + T::W - 1) / T::W;
    const int tiles = tiles_x * ((h + T::TILE_H - 1) / T::TILE_H);
    const VqVifStatShift sh = vq_vif_stat_shift(S, bpc);

    /* the loop condition is the same for the whole group (its barriers) */
    for (int tile = blockIdx.x * G + group; tile < tiles; tile += gridDim.x * G) {
        const int x0 = (tile % tiles_x) * T::W, y0 = (tile / tiles_x) * T::TILE_H;
        vif_group_sync<G>(group);   /* the previous tile's readers are done */

        /* 1. vertical */
        {
            const int c = tid % COLS;
            const int g = tid / COLS;
            const int xs = x0 - R + c;                  /* source column, unreflected */
            const int out_end = min(x0 + T::W, w);      /* this tile's outputs end here */
            if (xs < out_end + R) {
                const int j = vq_reflect101(xs, w);
                using VAcc = VifVertAcc<EIGHT_BIT, F64>;
                VAcc acc[V];
#pragma unroll
                for (int r = 0; r < V; r++)
                    acc[r].clear();
                const int r0 = y0 + g * V - R;          /* first source row */
                uint32_t col_ref[V + 2 * R], col_dis[V + 2 * R];
                vq_load_column<V + 2 * R, R>(ref, r0, j, col_ref);
                if (DIS_MOMENTS)
                    vq_load_column<V + 2 * R, R>(dis, r0, j, col_dis);
#pragma unroll
                for (int k = 0; k < V + 2 * R; k++) {
                    const typename VAcc::Sample p =
                        VAcc::sample(vq_vif_sample_pair(col_ref[k], DIS_MOMENTS ? col_dis[k] : 0u));
#pragma unroll
                    for (int r = 0; r < V; r++) {
                        const int t = k - r;            /* tap of output row r */
                        if (t >= 0 && t <= 2 * R)
                            acc[r].tap(vq_vif_tap(S, t), p);
                    }
                }
#pragma unroll
                for (int r = 0; r < V; r++) {
                    const VqVifMoments m = acc[r].finish(sh);
                    const int rr = g * V + r;
                    if constexpr (REF_MOMENTS) {
                        s_mu1[rr][c] = m.mu1;
                        s_xx[rr][c] = m.xx;
                    }
                    if constexpr (DIS_MOMENTS) {
                        s_mu2[rr][c] = m.mu2;
                        s_yy[rr][c] = m.yy;
                        s_xy[rr][c] = m.xy;
                    }
                }
            }
        }
        vif_group_sync<G>(group);

        /* 2. horizontal, then the decision */
        const int rr = tid / T::ROW_THREADS, seg = tid % T::ROW_THREADS;
        const int y = y0 + rr;
        const int o0 = seg * H;                         /* first output (tile column) */
        int64_t sums[VQ_VIF_NSUMS] = { 0, 0, 0, 0 };
        if (y < h) {
            using HAcc = VifHorzAcc<F64>;
            HAcc acc[H];
#pragma unroll
            for (int q = 0; q < H; q++)
                acc[q].clear();
#pragma unroll
            for (int k = 0; k < H + 2 * R; k++) {
                const int c = min(o0 + k, COLS - 1);    /* past the tile: unused */
                VqVifMoments m;
                m.mu1 = REF_MOMENTS ? s_mu1[REF_MOMENTS ? rr : 0][c] : 0u;
                m.xx = REF_MOMENTS ? s_xx[REF_MOMENTS ? rr : 0][c] : 0u;
                m.mu2 = DIS_MOMENTS ? s_mu2[DIS_MOMENTS ? rr : 0][c] : 0u;
                m.yy = DIS_MOMENTS ? s_yy[DIS_MOMENTS ? rr : 0][c] : 0u;
                m.xy = DIS_MOMENTS ? s_xy[DIS_MOMENTS ? rr : 0][c] : 0u;
                const typename HAcc::In hm = HAcc::in(m);
#pragma unroll
                for (int q = 0; q < H; q++) {
                    const int t = k - q;
                    if (t >= 0 && t <= 2 * R)
                        acc[q].tap(vq_vif_tap(S, t), hm);
                }
            }
#pragma unroll
            for (int q = 0; q < H; q++) {
                const int o = o0 + q;
                if (o < T::W && x0 + o < w) {
                    VqVifMoments m = acc[q].finish();
                    const size_t at = (size_t)y * w + x0 + o;
                    if constexpr (MODE == VIF_STAT_REF) {
                        ref_mu1[at] = m.mu1;
                        ref_xx[at] = m.xx;
                        continue;
                    }
                    if constexpr (MODE == VIF_STAT_DIS) {
                        m.mu1 = ref_mu1[at];
                        m.xx = ref_xx[at];
                    }
                    vq_vif_accumulate_hi(sums, m, log2_hi, egl);
                }
            }
        }
        /* 3. the row's threads, then one atomic per sum */
        if constexpr (MODE != VIF_STAT_REF) {
#pragma unroll
            for (int k = 0; k < VQ_VIF_NSUMS; k++) {
                long long v = (long long)sums[k];
#pragma unroll
                for (int o = T::ROW_THREADS / 2; o > 0; o >>= 1)
                    v += __shfl_xor_sync(0xffffffffu, v, o);
                if (seg == 0 && y < h)
                    atomicAdd((unsigned long long *)&rows[(size_t)y * VQ_VIF_NSUMS + k],
                              (unsigned long long)v);
            }
        }
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
