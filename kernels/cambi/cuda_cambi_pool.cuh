/*
 * cuda_cambi_pool.cuh - a part of cuda_cambi.cu, included there inside its
 * anonymous namespace (it uses that file's constants and types): the
 * pooling decision and the cooperative kernel that pools a scale in the
 * reference's order (quick_select's partitions, then the double sum), see
 * docs/cambi.md section 7.
 */
#ifndef VQ_CUDA_CAMBI_POOL_CUH
#define VQ_CUDA_CAMBI_POOL_CUH

/* ---- pooling in the reference's order (only where the rows cannot) -------- */

/* one block over the rows' words: the pool mode (header words), and for
 * mode 1 the cooperative kernel's go-ahead */
__global__ void __launch_bounds__(kThreads)
cambi_pool_decide_kernel(Scales sc, const SelState *sels, PoolState *pss)
{
    const int sc_i = blockIdx.x;
    const int64_t *__restrict__ rows = sc.rows[sc_i];
    const int sh = sc.sh[sc_i], k = sc.k[sc_i], n = sc.n[sc_i];
    const SelState *sel = sels + sc_i;
    int64_t *hdr = sc.hdr[sc_i];
    PoolState *ps = pss + sc_i;
    __shared__ unsigned long long s_lo[kThreads], s_hi[kThreads], s_cnt[kThreads];
    __shared__ int s_min[kThreads];
    const int t = threadIdx.x;
    unsigned long long lo = 0, hi = 0, cnt = 0;
    int mn = VQ_CAMBI_NONE_EXP;
    for (int r = t; r < sh; r += kThreads) {
        const int64_t *w = rows + (size_t)r * VQ_CAMBI_ROW_WORDS;
        const unsigned long long v = (unsigned long long)w[VQ_CAMBI_ROW_SUM];
        lo += v;
        hi += lo < v;
        cnt += (unsigned long long)w[VQ_CAMBI_ROW_COUNT];
        mn = min(mn, (int)w[VQ_CAMBI_ROW_MINEXP]);
    }
    s_lo[t] = lo;
    s_hi[t] = hi;
    s_cnt[t] = cnt;
    s_min[t] = mn;
    __syncthreads();
    for (int o = kThreads / 2; o > 0; o >>= 1) {
        if (t < o) {
            const unsigned long long a = s_lo[t], nlo = a + s_lo[t + o];
            s_hi[t] += s_hi[t + o] + (nlo < a);
            s_lo[t] = nlo;
            s_cnt[t] += s_cnt[t + o];
            s_min[t] = min(s_min[t], s_min[t + o]);
        }
        __syncthreads();
    }
    if (t == 0) {
        int g = 0;
        const int mode = vq_cambi_pool_mode(sel->tbits, (int64_t)s_cnt[0], s_hi[0], s_lo[0],
                                            s_min[0], k, n, &g);
        hdr[VQ_CAMBI_SEL_POOLED] = mode;
        hdr[VQ_CAMBI_SEL_SUM] = 0;
        ps->active = mode == VQ_CAMBI_POOL_EXECUTOR;
        ps->g = g;
    }
}

/* Loads of what other blocks wrote before a grid barrier: through L2
 * (ld.global.cg), never a stale L1 line. */
__device__ __forceinline__ uint32_t ld_u32(const uint32_t *p)
{
    return __ldcg((const unsigned int *)p);
}
__device__ __forceinline__ int ld_i32(const int *p)
{
    return __ldcg(p);
}
__device__ __forceinline__ VqCambiAdd ld_add(const VqCambiAdd *p)
{
    VqCambiAdd r;
    r.inc[0] = __ldcg((const long long *)&p->inc[0]);
    r.inc[1] = __ldcg((const long long *)&p->inc[1]);
    r.out[0] = __ldcg((const int *)&p->out[0]);
    r.out[1] = __ldcg((const int *)&p->out[1]);
    return r;
}

/* 2^e as a double, e in the normal range: exact, no libm */
__device__ __forceinline__ double pow2(int e)
{
    return __longlong_as_double((long long)(e + 1023) << 52);
}

/* a warp's shuffle of each element type the scans carry */
__device__ __forceinline__ unsigned long long shfl_up(unsigned long long v, int o)
{
    return __shfl_up_sync(0xffffffffu, v, o);
}
__device__ __forceinline__ VqCambiAdd shfl_up(const VqCambiAdd &v, int o)
{
    VqCambiAdd r;
    r.inc[0] = (int64_t)__shfl_up_sync(0xffffffffu, (long long)v.inc[0], o);
    r.inc[1] = (int64_t)__shfl_up_sync(0xffffffffu, (long long)v.inc[1], o);
    r.out[0] = __shfl_up_sync(0xffffffffu, v.out[0], o);
    r.out[1] = __shfl_up_sync(0xffffffffu, v.out[1], o);
    return r;
}

constexpr int kPoolWarps = kPoolThreads / 32;
constexpr int kPoolRun = 8;   /* consecutive elements per thread in the scans' tiles */

/* inclusive scan over the block in thread order (warp shuffles, then the
 * warps' totals); *excl is the element before (identity for thread 0),
 * *total the block's; sm (kPoolWarps entries) is free again on return.
 * op(a, b): a, then b (need not commute). */
template <typename T, typename Op>
__device__ __forceinline__ T block_scan(T v, T id, T *sm, Op op, T *excl, T *total)
{
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    T x = v;
    for (int o = 1; o < 32; o <<= 1) {
        const T y = shfl_up(x, o);
        if (lane >= o)
            x = op(y, x);
    }
    const T below = shfl_up(x, 1);
    if (lane == 31)
        sm[w] = x;
    __syncthreads();
    if (w == 0) {
        T z = lane < kPoolWarps ? sm[lane] : id;
        for (int o = 1; o < kPoolWarps; o <<= 1) {
            const T y = shfl_up(z, o);
            if (lane >= o)
                z = op(y, z);
        }
        if (lane < kPoolWarps)
            sm[lane] = z;
    }
    __syncthreads();
    const T before_warp = w ? sm[w - 1] : id;
    *excl = lane ? op(before_warp, below) : before_warp;
    *total = sm[kPoolWarps - 1];
    const T r = op(before_warp, x);
    __syncthreads();
    return r;
}

struct AddU64 {
    __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const { return a + b; }
};
struct SatU64 {
    __device__ unsigned long long operator()(unsigned long long a, unsigned long long b) const
    {
        return vq_cambi_sat_add(a, b);
    }
};
struct Compose {
    __device__ VqCambiAdd operator()(VqCambiAdd a, VqCambiAdd b) const { return vq_cambi_add_compose(a, b); }
};

/* the composition of e[0 .. cnt-1] in order, over the block (every thread
 * gets it) */
__device__ VqCambiAdd block_compose(const VqCambiAdd *e, int cnt, VqCambiAdd *sm)
{
    const int per = (cnt + kPoolThreads - 1) / kPoolThreads;
    VqCambiAdd v = vq_cambi_add_identity();
    for (int q = threadIdx.x * per; q < min(cnt, (int)(threadIdx.x + 1) * per); q++)
        v = vq_cambi_add_compose(v, ld_add(&e[q]));
    VqCambiAdd excl, total;
    block_scan(v, vq_cambi_add_identity(), sm, Compose(), &excl, &total);
    return total;
}

/*
 * The reference's quick_select and sum on one scale, cooperative grid of
 * G blocks.  a: the scale's c-values as bits, partitioned in place;
 * pos: 2 n int32 (the ranks' positions, then the sum's 64-bit scratch).
 */
__device__ __forceinline__ void pool_one(const float *__restrict__ cv, int n, int k, uint32_t *a, int *pos,
                         PoolState *ps, int64_t *hdr)
{
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    __shared__ unsigned long long sm_u64[kPoolWarps];
    __shared__ VqCambiAdd sm_add[kPoolWarps];
    __shared__ unsigned red[4][kPoolThreads];
    const int G = gridDim.x, b = blockIdx.x, t = threadIdx.x;
    const volatile PoolState *vps = ps;

    if (!vps->active)
        return;   /* the same for every block */
    for (long x = (long)b * kPoolThreads + t; x < n; x += (long)G * kPoolThreads)
        a[x] = vq_f32_bits(cv[x]);
    int *lpos = pos, *rpos = pos + n;
    grid.sync();

    /* ---- quick_select: partition rounds ---- */
    int left = 0, right = n - 1;
    while (k < n && left < right) {
        /* a short range: block 0 alone runs the remaining rounds (the same
         * steps with one chunk, block barriers instead of grid ones); the
         * others wait at the grid barrier after the loop */
        const bool solo = right - left + 1 <= kPoolSolo;
        if (solo && b != 0)
            break;
        const int Gr = solo ? 1 : G, br = solo ? 0 : b;
        const auto sync = [&] {
            if (solo)
                __syncthreads();
            else
                grid.sync();
        };
        const uint32_t pivot = ld_u32(&a[k]);
        const int m = right - left + 1, C = (m + Gr - 1) / Gr;
        const int c0 = left + br * C, c1 = min(c0 + C, right + 1);
        unsigned le = 0, ge = 0;
        for (int p = c0 + t; p < c1; p += kPoolThreads) {
            const uint32_t x = ld_u32(&a[p]);
            le += x <= pivot;
            ge += x >= pivot;
        }
        red[0][t] = le;
        red[1][t] = ge;
        __syncthreads();
        for (int o = kPoolThreads / 2; o > 0; o >>= 1) {
            if (t < o) {
                red[0][t] += red[0][t + o];
                red[1][t] += red[1][t + o];
            }
            __syncthreads();
        }
        if (t == 0) {
            ps->blk_le[br] = red[0][0];
            ps->blk_ge[br] = red[1][0];
            if (br == 0)
                ps->M = 0;
        }
        sync();

        /* this block's offsets: le before it, ge after it, totals */
        unsigned le_before = 0, le_all = 0, ge_after = 0, ge_all = 0;
        for (int q = t; q < Gr; q += kPoolThreads) {
            const unsigned l = vps->blk_le[q], g2 = vps->blk_ge[q];
            le_all += l;
            ge_all += g2;
            le_before += q < br ? l : 0;
            ge_after += q > br ? g2 : 0;
        }
        __syncthreads();
        red[0][t] = le_before;
        red[1][t] = le_all;
        red[2][t] = ge_after;
        red[3][t] = ge_all;
        __syncthreads();
        for (int o = kPoolThreads / 2; o > 0; o >>= 1) {
            if (t < o)
                for (int r = 0; r < 4; r++)
                    red[r][t] += red[r][t + o];
            __syncthreads();
        }
        const unsigned off_le = red[0][0], tot_le = red[1][0], off_ge = red[2][0], tot_ge = red[3][0];
        const unsigned chunk_ge = vps->blk_ge[br];
        __syncthreads();
        unsigned carry_le = 0, carry_ge = 0;
        int best = 0;
        /* tiles of kPoolThreads runs of kPoolRun consecutive elements: a
         * thread counts its run, one block scan, then the thread walks it */
        for (int base = c0; base < c1; base += kPoolThreads * kPoolRun) {
            const int p0 = base + t * kPoolRun;
            uint32_t xs[kPoolRun];
            unsigned nl = 0, ng = 0;
#pragma unroll
            for (int e = 0; e < kPoolRun; e++) {
                xs[e] = p0 + e < c1 ? ld_u32(&a[p0 + e]) : 0;
                nl += p0 + e < c1 && xs[e] <= pivot;
                ng += p0 + e < c1 && xs[e] >= pivot;
            }
            unsigned long long excl, total;
            block_scan((unsigned long long)nl << 32 | ng, 0ull, sm_u64, AddU64(), &excl, &total);
            unsigned cl = carry_le + (unsigned)(excl >> 32), cg = carry_ge + (unsigned)(excl & 0xffffffffu);
#pragma unroll
            for (int e = 0; e < kPoolRun; e++) {
                const int p = p0 + e;
                if (p < c1) {
                    const unsigned fl = xs[e] <= pivot, fg = xs[e] >= pivot;
                    cl += fl;   /* le in [c0, p] */
                    const int cnt_l = (int)(off_le + cl);
                    const int cnt_r = (int)(off_ge + chunk_ge) - (int)cg;   /* ge in [p, right] */
                    if (fl)
                        lpos[cnt_l - 1] = p;
                    if (fg)
                        rpos[cnt_r - 1] = p;
                    cg += fg;
                    best = max(best, min(cnt_l, cnt_r));
                }
            }
            carry_le += (unsigned)(total >> 32);
            carry_ge += (unsigned)(total & 0xffffffffu);
        }
        red[0][t] = (unsigned)best;
        __syncthreads();
        for (int o = kPoolThreads / 2; o > 0; o >>= 1) {
            if (t < o)
                red[0][t] = max(red[0][t], red[0][t + o]);
            __syncthreads();
        }
        if (t == 0)
            atomicMax(&ps->M, (int)red[0][0]);
        sync();

        /* the M swaps (distinct positions), then where i and j end */
        const int M = vps->M;
        for (long q = (long)br * kPoolThreads + t; q < M; q += (long)Gr * kPoolThreads) {
            const int x = ld_i32(&lpos[q]), y = ld_i32(&rpos[q]);
            if (x != y) {
                const uint32_t u = ld_u32(&a[x]), v = ld_u32(&a[y]);
                a[x] = v;
                a[y] = u;
            }
        }
        const int lm = ld_i32(&lpos[M - 1]), rm = ld_i32(&rpos[M - 1]);
        const int lnext = M < (int)tot_le ? ld_i32(&lpos[M]) : 0x7fffffff;
        const int rnext = M < (int)tot_ge ? ld_i32(&rpos[M]) : -1;
        int i, j;
        vq_cambi_partition_end(lm, rm, lnext, rnext, &i, &j);
        if (j < k)
            left = i;
        if (k < i)
            right = j;
        sync();
    }
    grid.sync();   /* block 0's solo rounds, if any, are done */

    /* ---- the sum of a[0 .. k-1] in index order ---- */
    const int g = vps->g;
    long long *scratch = (long long *)pos;   /* n entries (pos holds 2 n int32) */
    const unsigned long long two53 = 1ull << 53;
    {
        /* exact while the prefix in units of 2^g stays below 2^53 */
        const int C = (k + G - 1) / G, c0 = b * C, c1 = min(c0 + C, k);
        unsigned long long sat = 0;
        for (int p = c0 + t; p < c1; p += kPoolThreads)
            sat = vq_cambi_sat_add(sat, vq_cambi_units(ld_u32(&a[p]), g));
        unsigned long long excl, total;
        block_scan(sat, 0ull, sm_u64, SatU64(), &excl, &total);
        if (t == 0) {
            ps->blk_sat[b] = total;
            if (b == 0)
                ps->cross = k;
        }
        grid.sync();
        unsigned long long off = 0;
        for (int q = 0; q < b; q++)
            off = vq_cambi_sat_add(off, ((volatile unsigned long long *)ps->blk_sat)[q]);
        if (off < two53) {
            unsigned long long carry = off;
            for (int base = c0; base < c1 && carry < two53; base += kPoolThreads * kPoolRun) {
                const int p0 = base + t * kPoolRun;
                unsigned long long us[kPoolRun], run = 0;
#pragma unroll
                for (int e = 0; e < kPoolRun; e++) {
                    us[e] = p0 + e < c1 ? vq_cambi_units(ld_u32(&a[p0 + e]), g) : 0;
                    run = vq_cambi_sat_add(run, us[e]);
                }
                const unsigned long long incl = block_scan(run, 0ull, sm_u64, SatU64(), &excl, &total);
                unsigned long long pp = vq_cambi_sat_add(carry, excl);
                if (vq_cambi_sat_add(carry, incl) >= two53)
                    for (int e = 0; e < kPoolRun && p0 + e < c1; e++) {
                        pp = vq_cambi_sat_add(pp, us[e]);
                        if (pp >= two53) {   /* this run's first: the exact prefix before it */
                            scratch[p0 + e] = (long long)(pp - us[e]);
                            atomicMin(&ps->cross, p0 + e);
                            break;
                        }
                    }
                carry = vq_cambi_sat_add(carry, total);
            }
        }
        grid.sync();
        if (b == 0 && t == 0) {
            const int c = vps->cross;
            if (c >= k) {   /* never rounds (the rows would have said so) */
                unsigned long long all = 0;
                for (int q = 0; q < G; q++)
                    all = vq_cambi_sat_add(all, ((volatile unsigned long long *)ps->blk_sat)[q]);
                ps->s = (double)all * pow2(g);
                ps->next = k;
            } else {
                ps->s = (double)__ldcg(&scratch[c]) * pow2(g);
                ps->next = c;
            }
        }
        grid.sync();
    }
    /* one transducer scan per binade of the partial sum, over a window:
     * the sum about doubles before it leaves its binade, so the next
     * crossing is near 2 next; where the window holds none, the scan goes
     * on from its end in the same binade */
    for (;;) {
        const int next = ((volatile PoolState *)ps)->next;
        if (next >= k)
            break;
        const double s = ((volatile PoolState *)ps)->s;
        const unsigned long long sb = (unsigned long long)__double_as_longlong(s);
        const int eg = (int)((sb >> 52) & 0x7ff) - 1023 - 52;
        const long long S = (long long)((sb & ((1ull << 52) - 1)) | (1ull << 52));
        const int p0 = (int)(S & 1);
        const int end = (int)min((long long)k, (long long)next + next / 2 + kPoolWindow);
        const int m = end - next, C = (m + G - 1) / G;
        const int c0 = next + b * C, c1 = min(c0 + C, end);
        VqCambiAdd agg = vq_cambi_add_identity();
        for (int base = c0; base < c1; base += kPoolThreads * kPoolRun) {
            const int r0 = base + t * kPoolRun;
            VqCambiAdd run = vq_cambi_add_identity();
            for (int e = 0; e < kPoolRun && r0 + e < c1; e++)
                run = vq_cambi_add_compose(run, vq_cambi_add_step(ld_u32(&a[r0 + e]), eg));
            VqCambiAdd excl, total;
            block_scan(run, vq_cambi_add_identity(), sm_add, Compose(), &excl, &total);
            agg = vq_cambi_add_compose(agg, total);
        }
        if (t == 0) {
            ps->blk_add[b] = agg;
            if (b == 0)
                ps->cross = end;
        }
        grid.sync();
        const VqCambiAdd pre = block_compose((const VqCambiAdd *)ps->blk_add, b, sm_add);
        const long long sblk = S + pre.inc[p0];
        const int par = pre.out[p0];
        VqCambiAdd carry = vq_cambi_add_identity();
        for (int base = c0; base < c1; base += kPoolThreads * kPoolRun) {
            const int r0 = base + t * kPoolRun;
            uint32_t xs[kPoolRun];
            VqCambiAdd run = vq_cambi_add_identity();
            for (int e = 0; e < kPoolRun; e++) {
                xs[e] = r0 + e < c1 ? ld_u32(&a[r0 + e]) : 0;
                if (r0 + e < c1)
                    run = vq_cambi_add_compose(run, vq_cambi_add_step(xs[e], eg));
            }
            VqCambiAdd excl, total;
            block_scan(run, vq_cambi_add_identity(), sm_add, Compose(), &excl, &total);
            VqCambiAdd before = vq_cambi_add_compose(carry, excl);
            for (int e = 0; e < kPoolRun && r0 + e < c1; e++) {
                const long long sprev = sblk + before.inc[par];
                if (sprev + vq_cambi_add_floor(xs[e], eg) >= (long long)two53) {
                    scratch[r0 + e] = sprev;   /* this run's first to leave the binade */
                    atomicMin(&ps->cross, r0 + e);
                    break;
                }
                before = vq_cambi_add_compose(before, vq_cambi_add_step(xs[e], eg));
            }
            carry = vq_cambi_add_compose(carry, total);
        }
        grid.sync();
        if (b == 0 && t == 0) {
            const int c = vps->cross;
            if (c >= end) {   /* stays in this binade to the window's end */
                VqCambiAdd all = vq_cambi_add_identity();
                for (int q = 0; q < G; q++)
                    all = vq_cambi_add_compose(all, ld_add(&ps->blk_add[q]));
                ps->s = (double)(S + all.inc[p0]) * pow2(eg);
                ps->next = end;
            } else {        /* the addition that leaves the binade, as the reference does it */
                const double sprev = (double)__ldcg(&scratch[c]) * pow2(eg);
                ps->s = __dadd_rn(sprev, (double)__uint_as_float(ld_u32(&a[c])));
                ps->next = c + 1;
            }
        }
        grid.sync();
    }
    if (b == 0 && t == 0)
        hdr[VQ_CAMBI_SEL_SUM] = __double_as_longlong(((volatile PoolState *)ps)->s);
}

/* one scale (a launch per scale: one launch looping over the scales ran
 * three times slower on the H200) */
__global__ void __launch_bounds__(kPoolThreads)
cambi_pool_kernel(const float *__restrict__ cv, int n, int k, uint32_t *a, int *pos, PoolState *ps,
                  int64_t *hdr)
{
    pool_one(cv, n, k, a, pos, ps, hdr);
}

#endif /* VQ_CUDA_CAMBI_POOL_CUH */
