/*
 * cuda_cambi_cols.cuh - a part of cuda_cambi.cu, included there inside its
 * anonymous namespace (it uses that file's constants and CvGrid): the
 * c-values from column histograms, for large windows (cvalue_cols there).
 *
 * A block owns a strip of kStrip output columns and a band of rows, as the
 * window-histogram kernel's blocks do, and keeps a histogram per staged
 * column instead (kStrip + 2 pad columns, each over the window's 2 pad + 1
 * rows: counts <= 65, one byte).  Sliding down a row changes two bytes per
 * column.  A pixel's window count of band row u is the sum of its 2 pad + 1
 * columns' counts of u; only the band rows within num_diffs of the row's
 * pixels' own are read (2 nd + 1 per pixel, fewer distinct ones per row:
 * docs/cambi.md section 6), so the block lists them per row and each warp
 * takes kColsBatch of them at a time: a lane holds four columns' bytes of
 * band row u, a warp scan gives every column's prefix, and a window's count
 * is the difference of two prefixes.  The counts are the window
 * histogram's, integer for integer; the c-values come from the same
 * vq_cambi_c_value_of.
 */
#ifndef VQ_CUDA_CAMBI_COLS_CUH
#define VQ_CUDA_CAMBI_COLS_CUH

constexpr int kColsWarps = 4;                    /* warps per block */
constexpr int kColsThreads = 32 * kColsWarps;
constexpr int kColsSpan = kStrip + 2 * kMaxPad;  /* staged columns: 128, four per lane */
constexpr int kColsBatch = 4;                    /* band rows a warp scans at once */
constexpr int kColsMaxBandWords = 40;            /* the band as bits (<= 1280 rows) */
static_assert(kColsSpan == 128 && kColsThreads >= kColsSpan && kColsThreads >= kStrip, "one column a thread");

/* dynamic shared memory of the cols kernel: the columns' bytes (of nrows
 * histogram rows), the pixels' counts (2 nd + 1 each), the row's list of
 * band rows, and for the compact kernel (slots) its slot of each band row */
size_t cols_smem(const VqCambiParams &p, int nrows, bool slots)
{
    return (size_t)nrows * kColsSpan + (size_t)kStrip * (2 * p.num_diffs + 1) * sizeof(uint16_t) +
           (size_t)p.band_size * sizeof(int16_t) + (slots ? (size_t)p.band_size : 0);
}

/* v summed over the warp's lanes up to this one */
__device__ __forceinline__ int cols_warp_incl(int v, int lane)
{
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const int t = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o)
            v += t;
    }
    return v;
}

/*
 * The compact kernel's histogram rows: every band row held by a pixel the
 * block's windows can reach (rows r0 - pad .. r1 - 1 + pad, the staged
 * columns) gets a slot, in band-row order; slot[v] is band row v's, 0xff
 * where none of those pixels holds v (its count in every window of the
 * block is 0).  Returns the number of slots (the same for every thread).
 */
__device__ __forceinline__ int cvalue_slots(const VqCambiParams &p, const int16_t *__restrict__ u, int sw,
                                            int sh, int r0, int r1, int c0, int span, uint8_t *slot)
{
    __shared__ int wsum[kColsWarps], total;
    const int t = threadIdx.x, lane = t & 31, bs = p.band_size;
    for (int e = t; e < bs; e += kColsThreads)
        slot[e] = 0;
    __syncthreads();
    const int ra = max(0, r0 - p.pad), rb = min(sh, r1 + p.pad);
    for (int r = ra; r < rb; r++)
        for (int q = t; q < span; q += kColsThreads) {
            const int c = c0 + q;
            if (c >= 0 && c < sw) {
                const int v = u[(size_t)r * sw + c];
                if (v >= 0)
                    slot[v] = 1;
            }
        }
    __syncthreads();
    /* an exclusive scan of the marks: thread t numbers its chunk's */
    const int chunk = (bs + kColsThreads - 1) / kColsThreads, e0 = min(bs, t * chunk), e1 = min(bs, e0 + chunk);
    int n = 0;
    for (int e = e0; e < e1; e++)
        n += slot[e];
    const int x = cols_warp_incl(n, lane);
    if (lane == 31)
        wsum[t >> 5] = x;
    __syncthreads();
    int next = x - n;
    for (int k = 0; k < (t >> 5); k++)
        next += wsum[k];
    if (t == kColsThreads - 1)
        total = next + n;
    for (int e = e0; e < e1; e++)
        if (slot[e])
            slot[e] = (uint8_t)min(next++, 0xfe);
        else
            slot[e] = 0xff;
    __syncthreads();
    return total;
}

__device__ __forceinline__ int16_t cols_fetch(const int16_t *__restrict__ u, int sw, int sh, int r, int c)
{
    return r >= 0 && r < sh && c >= 0 && c < sw ? u[(size_t)r * sw + c] : (int16_t)-1;
}

/* Compact: the histograms' rows are the block's slots (cvalue_slots: the
 * band rows its pixels hold, at most g.slots); a block holding more leaves
 * itself to the full kernel (g.big), launched after this one */
template <bool Compact>
__global__ void __launch_bounds__(kColsThreads)
cambi_cvalue_cols_kernel(VqCambiParams p, CvGrid g, const float *__restrict__ recip)
{
    extern __shared__ uint32_t smem32[];
    __shared__ __align__(16) int prefix[kColsWarps][kColsBatch][kColsSpan];
    __shared__ uint32_t bm[kColsMaxBandWords];
    __shared__ int16_t own[kStrip];       /* the row's pixels' band rows, -1: none */
    __shared__ int nlist;

    if (!Compact && g.big && !g.big[blockIdx.x])
        return;   /* the compact kernel did this block */
    int s = 0;
    while (s < VQ_CAMBI_SCALES - 1 && (int)blockIdx.x >= g.block0[s + 1])
        s++;
    const int b = (int)blockIdx.x - g.block0[s];
    const int sw = p.sw[s], sh = p.sh[s], pad = p.pad, nd = p.num_diffs, nc = 2 * nd + 1;
    const int band = p.band_size, nbw = (band + 31) >> 5;
    const int16_t *__restrict__ u = g.u[s];
    const int x = threadIdx.x, lane = x & 31, warp = x >> 5;
    const int x0 = (b % g.strips[s]) * kStrip, c0 = x0 - pad;
    int r0 = (b / g.strips[s]) * g.rows;
    int r1 = min(sh, r0 + g.rows);
    if (!cvalue_trim(u, sw, x0, kStrip, r0, r1, g.cv[s], g.trim)) {
        if (Compact && x == 0)
            g.big[blockIdx.x] = 0;
        return;
    }
    const int span = kStrip + 2 * pad;
    const int hrows = Compact ? g.slots : band;                          /* histogram rows */
    uint8_t *cols = (uint8_t *)smem32;                                   /* [hrows][kColsSpan] */
    uint16_t *cnt = (uint16_t *)(cols + (size_t)hrows * kColsSpan);      /* [kStrip][nc] */
    int16_t *list = (int16_t *)(cnt + (size_t)kStrip * nc);              /* [band] */
    uint8_t *slot = Compact ? (uint8_t *)(list + band) : NULL;           /* [band] */
    int nrows = band;
    if (Compact) {
        nrows = cvalue_slots(p, u, sw, sh, r0, r1, c0, span, slot);
        if (x == 0)
            g.big[blockIdx.x] = nrows > g.slots;
        if (nrows > g.slots)
            return;   /* the full kernel's */
    }
    /* a band row's histogram row */
    auto hrow = [slot](int v) { return Compact ? (int)slot[v] : v; };

    for (int e = x; e < nrows * (kColsSpan / 4); e += kColsThreads)
        smem32[e] = 0;
    __syncthreads();
    /* the window of row r0: thread x owns staged column x (its bytes, every band row) */
    const bool staged = x < span;
    if (staged)
        for (int r = max(0, r0 - pad), re = min(sh - 1, r0 + pad); r <= re; r += 8) {
            int16_t v[8];   /* eight rows' loads before any count changes */
#pragma unroll
            for (int k = 0; k < 8; k++)
                v[k] = r + k <= re ? cols_fetch(u, sw, sh, r + k, c0 + x) : (int16_t)-1;
#pragma unroll
            for (int k = 0; k < 8; k++)
                if (v[k] >= 0)
                    cols[hrow(v[k]) * kColsSpan + x]++;
        }
    int16_t na = -1, ns = -1, no = -1;     /* the next row's entering, leaving, own values */
    if (x < kStrip)
        no = cols_fetch(u, sw, sh, r0, x0 + x);
    for (int i = r0; i < r1; i++) {
        __syncthreads();   /* the last row's readers are done */
        if (i > r0 && staged && na != ns) {
            if (ns >= 0)
                cols[hrow(ns) * kColsSpan + x]--;
            if (na >= 0)
                cols[hrow(na) * kColsSpan + x]++;
        }
        if (x < kStrip)
            own[x] = no;
        if (x < nbw)
            bm[x] = 0;
        /* the next row's values, loaded while this one is worked on */
        if (i + 1 < r1) {   /* row i + 1's: entering i + 1 + pad, leaving i - pad */
            if (staged) {
                na = cols_fetch(u, sw, sh, i + 1 + pad, c0 + x);
                ns = cols_fetch(u, sw, sh, i - pad, c0 + x);
            }
            if (x < kStrip)
                no = cols_fetch(u, sw, sh, i + 1, x0 + x);
        }
        __syncthreads();
        /* the band rows this row reads: within nd of a pixel's own */
        if (x < kStrip && own[x] >= 0) {
            const int lo = max(0, own[x] - nd), hi = min(band - 1, own[x] + nd);
            for (int wd = lo >> 5; wd <= hi >> 5; wd++) {
                const int a = max(lo, wd << 5) & 31, z = min(hi, (wd << 5) + 31) & 31;
                atomicOr(&bm[wd], (0xffffffffu >> (31 - z)) & (0xffffffffu << a));
            }
        }
        __syncthreads();
        if (warp == 0) {
            int base = 0;
            for (int w0 = 0; w0 < nbw; w0 += 32) {
                const uint32_t m = w0 + lane < nbw ? bm[w0 + lane] : 0u;
                const int n = __popc(m);
                const int incl = cols_warp_incl(n, lane);
                int at = base + incl - n;
                for (uint32_t mm = m; mm; mm &= mm - 1)
                    list[at++] = (int16_t)(((w0 + lane) << 5) + __ffs((int)mm) - 1);
                base += __shfl_sync(0xffffffffu, incl, 31);
            }
            if (lane == 0)
                nlist = base;
        }
        __syncthreads();
        const int n = nlist;
        /* kColsBatch band rows per warp at a time: every column's prefix,
         * then each pixel's window count of those within nd of its own */
        for (int q0 = warp * kColsBatch; q0 < n; q0 += kColsWarps * kColsBatch) {
            int ub[kColsBatch];
#pragma unroll
            for (int k = 0; k < kColsBatch; k++) {
                ub[k] = q0 + k < n ? list[q0 + k] : -1;
                uint32_t word = 0;   /* (a band row no pixel of the block holds: counts 0) */
                const int hr = ub[k] >= 0 ? hrow(ub[k]) : 0xff;
                if (ub[k] >= 0 && (!Compact || hr != 0xff))
                    word = ((const uint32_t *)(cols + hr * kColsSpan))[lane];
                const int b0 = word & 0xff, b1 = (word >> 8) & 0xff, b2 = (word >> 16) & 0xff, b3 = word >> 24;
                const int tot = b0 + b1 + b2 + b3;
                const int incl = cols_warp_incl(tot, lane);
                const int ex = incl - tot;
                int4 pv;
                pv.x = ex + b0;
                pv.y = ex + b0 + b1;
                pv.z = ex + b0 + b1 + b2;
                pv.w = incl;
                ((int4 *)prefix[warp][k])[lane] = pv;
            }
            __syncwarp();
#pragma unroll
            for (int k = 0; k < kColsBatch; k++) {
                if (ub[k] < 0)
                    continue;
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int t = lane + 32 * h, o = own[t];
                    const int d = ub[k] - o;
                    if (o < 0 || d < -nd || d > nd)
                        continue;
                    /* output column t's window: staged columns t .. t + 2 pad */
                    const int wc = prefix[warp][k][t + 2 * pad] - (t ? prefix[warp][k][t - 1] : 0);
                    cnt[t * nc + d + nd] = (uint16_t)wc;
                }
            }
            __syncwarp();   /* prefix is rewritten by the next batch */
        }
        __syncthreads();
        if (x < kStrip && x0 + x < sw) {
            const int o = own[x];
            float v = 0.0f;
            if (o >= 0) {
                const uint16_t *mc = cnt + x * nc;
                v = vq_cambi_c_value_of(&p, recip, (uint32_t)(o + p.band_base),
                                        [mc, o, nd](int uu) { return (int)mc[uu - o + nd]; });
            }
            g.cv[s][(size_t)i * sw + x0 + x] = v;
        }
    }
}

#endif /* VQ_CUDA_CAMBI_COLS_CUH */
