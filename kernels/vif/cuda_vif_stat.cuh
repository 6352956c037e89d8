/*
 * cuda_vif_stat.cuh - a part of cuda_vif.cu, included there inside its
 * anonymous namespace (it uses that file's constants and types): VIF's
 * statistic kernel, its tile configurations and accumulators.
 */
#ifndef VQ_CUDA_VIF_STAT_CUH
#define VQ_CUDA_VIF_STAT_CUH

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

#endif /* VQ_CUDA_VIF_STAT_CUH */
