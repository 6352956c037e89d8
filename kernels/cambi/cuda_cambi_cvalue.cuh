/*
 * cuda_cambi_cvalue.cuh - a part of cuda_cambi.cu, included there inside its
 * anonymous namespace (it uses that file's constants and types): the
 * c-values from window histograms, every scale's blocks in one grid
 * (docs/cambi.md section 6).
 */
#ifndef VQ_CUDA_CAMBI_CVALUE_CUH
#define VQ_CUDA_CAMBI_CVALUE_CUH

/* ---- c-values ------------------------------------------------------------ */

/* every scale's c-value blocks in one grid: scale s owns blocks
 * block0[s] .. block0[s + 1] - 1, strips[s] strips by bands of rows rows */
struct CvGrid {
    const int16_t *u[VQ_CAMBI_SCALES];
    float *cv[VQ_CAMBI_SCALES];
    int strips[VQ_CAMBI_SCALES];
    int block0[VQ_CAMBI_SCALES + 1];
    int rows;
    int runs;           /* 0: every row change column by column (VQ_CUDA_CAMBI_RUNS=0) */
    int trim;           /* 1 (default): a block's rows trimmed (cvalue_trim; VQ_CUDA_CAMBI_TRIM=0: 0) */
    int slots;          /* the compact kernel's histogram rows (cvalue_slots_cap) */
    uint8_t *big;       /* per block: 1 where the compact kernel left it to the full one; NULL: no
                         * compact kernel ran (the full one does every block) */
};

/*
 * A c-value block's rows [r0, r1), trimmed to those from the first to the
 * last that hold a pixel of the strip's columns [x0, x0 + strip) needing a
 * c-value (u >= 0: masked and in the band); the others' c-values are 0,
 * written here.  False when no row holds one (the block has nothing else
 * to do).  About half the blocks of a real frame's scale 0 have none: their
 * window need not be filled nor slid.  The window of a trimmed band's first
 * row is filled as that of any block's first row, so the counts are the
 * same.  Threads from strip on only wait.
 */
__device__ __forceinline__ bool cvalue_trim(const int16_t *__restrict__ u, int sw, int x0, int strip, int &r0,
                                            int &r1, float *__restrict__ cv, int trim)
{
    __shared__ int lo, hi;
    const int t = threadIdx.x, col = x0 + t;
    if (!trim)
        return true;
    if (t == 0) {
        lo = r1;
        hi = r0 - 1;
    }
    __syncthreads();
    if (t < strip && col < sw) {
        int f = r1, l = r0 - 1;
        for (int i = r0; i < r1; i++)
            if (u[(size_t)i * sw + col] >= 0) {
                f = min(f, i);
                l = i;
            }
        if (f < r1) {
            atomicMin(&lo, f);
            atomicMax(&hi, l);
        }
    }
    __syncthreads();
    const int a = lo, z = hi + 1;
    if (t < strip && col < sw)
        for (int i = r0; i < r1; i++)
            if (i < a || i >= z)
                cv[(size_t)i * sw + col] = 0.0f;
    r0 = a;
    r1 = z;
    return a < z;
}

/* a staged row: entry q is u of scale pixel (r, c0 + q), -1 outside the
 * image; thread t of a strip of S columns holds entries t, t + S, ... in
 * registers (fetch_row, issued a row ahead so that its loads wait behind
 * that row's work), then puts them in shared memory (put_row) */
template <int S>
struct Staged {
    static constexpr int K = (S + 2 * kMaxPad + S - 1) / S;   /* entries per thread */
    int16_t v[K];
};

template <int S>
__device__ __forceinline__ void fetch_row(Staged<S> &st, int span, const int16_t *__restrict__ u, int sw, int sh,
                                          int r, int c0)
{
#pragma unroll
    for (int k = 0; k < Staged<S>::K; k++) {
        const int q = threadIdx.x + k * S, c = c0 + q;
        st.v[k] = q < span && r >= 0 && r < sh && c >= 0 && c < sw ? u[(size_t)r * sw + c] : (int16_t)-1;
    }
}

template <int S>
__device__ __forceinline__ void put_row(int16_t *buf, const Staged<S> &st, int span)
{
#pragma unroll
    for (int k = 0; k < Staged<S>::K; k++) {
        const int q = threadIdx.x + k * S;
        if (q < span)
            buf[q] = st.v[k];
    }
}

/*
 * One row's change of a thread's window histogram: its columns t .. t + nq - 1
 * of the staged rows `add` (entering) and `sub` (leaving; all -1 while the
 * first window is filled).  bm: the staged pairs' run ends, a bit per column
 * (set where (add, sub) differs from the next column's pair, and at the last
 * column), ceil(span / 32) words.  A warp whose threads each see at most
 * nq / 3 runs walks runs: one atomic of the run's length per band row; else
 * every column, a batch of kBatch loaded before any is applied.  Counts are
 * integers: either way gives the same counters.
 */
template <int S>
__device__ __forceinline__ void window_update(const int16_t *add, const int16_t *sub, const uint32_t *bm, int t,
                                              int nq, uint32_t *mine, int runs)
{
#define BAND_WORD(u) (mine + ((u) >> 1) * S)
    const int qe = t + nq;
    bool walk = false;
    if (runs && nq > 1) {   /* (uniform: the whole warp asks) */
        /* runs in [t, qe): 1 + the run ends in [t, qe - 1) */
        int nr = 1;
        for (int c = t >> 5; c <= (qe - 2) >> 5; c++) {
            uint32_t m = bm[c];
            if (c == t >> 5)
                m &= 0xffffffffu << (t & 31);
            if (c == (qe - 2) >> 5)
                m &= 0xffffffffu >> (31 - ((qe - 2) & 31));
            nr += __popc(m);
        }
        walk = __all_sync(0xffffffffu, 3 * nr <= nq);
    }
    if (walk) {
        int q = t;
        while (q < qe) {
            int c = q >> 5;
            uint32_t m = bm[c] & (0xffffffffu << (q & 31));
            while (!m)
                m = bm[++c];
            const int e = min(qe, (c << 5) + __ffs((int)m));
            const int a = add[q], d = sub[q];
            if (a != d) {
                const uint32_t n = (uint32_t)(e - q);
                if (d >= 0)
                    atomicSub(BAND_WORD(d), n << ((d & 1) * 16));
                if (a >= 0)
                    atomicAdd(BAND_WORD(a), n << ((a & 1) * 16));
            }
            q = e;
        }
        return;
    }
    for (int q0 = 0; q0 < nq; q0 += kBatch) {
        int us[kBatch], ua[kBatch];
#pragma unroll
        for (int k = 0; k < kBatch; k++) {
            us[k] = sub[t + q0 + k];
            ua[k] = add[t + q0 + k];
        }
#pragma unroll
        for (int k = 0; k < kBatch; k++) {
            if (q0 + k >= nq || us[k] == ua[k])
                continue;
            if (us[k] >= 0)
                atomicSub(BAND_WORD(us[k]), 1u << ((us[k] & 1) * 16));
            if (ua[k] >= 0)
                atomicAdd(BAND_WORD(ua[k]), 1u << ((ua[k] & 1) * 16));
        }
    }
#undef BAND_WORD
}

/* the run ends of the staged pairs (window_update's bm); between barriers */
template <int S>
__device__ __forceinline__ void run_ends(const int16_t *add, const int16_t *sub, int span, uint32_t *bm)
{
    const int lane = threadIdx.x & 31, nc = (span + 31) >> 5;
    for (int c = threadIdx.x >> 5; c < nc; c += S / 32) {
        const int q = (c << 5) + lane;
        const bool end = q >= span - 1 || add[q] != add[q + 1] || sub[q] != sub[q + 1];
        const uint32_t m = __ballot_sync(0xffffffffu, end);
        if (lane == 0)
            bm[c] = m;
    }
}

/* a row's change once its staged rows are in shared memory (between
 * barriers): their run ends where the walk is on, then window_update */
template <int S>
__device__ __forceinline__ void apply_rows(const int16_t *add, const int16_t *sub, uint32_t *bm, int span, int t,
                                           int nq, uint32_t *mine, int runs)
{
    if (runs) {
        run_ends<S>(add, sub, span, bm);
        __syncthreads();
    }
    window_update<S>(add, sub, bm, t, nq, mine, runs);
}

/*
 * Shared: the histograms as uint16 counters, two band rows to a 32-bit
 * word: thread t's counter of band row u is half u & 1 of word
 * (u >> 1) * S + t (so a warp's 32 threads always touch 32 different
 * banks); and, in arrays of their own (so the compiler knows the counters
 * never alias them), the two staged rows of S + 2 pad entries and
 * their run ends.  A thread changes only its own counters, with shared
 * atomics on the word (counts stay below 2^16: nothing carries into or
 * borrows from the other half): the atomics do not wait for each other.
 * Each row's change walks the staged rows' runs where they are long
 * (window_update), as the CPU executor does.
 */
template <int S>
__global__ void __launch_bounds__(S)
cambi_cvalue_kernel(VqCambiParams p, CvGrid g, const float *__restrict__ recip)
{
    extern __shared__ uint32_t smem32[];
    int s = 0;
    while (s < VQ_CAMBI_SCALES - 1 && (int)blockIdx.x >= g.block0[s + 1])
        s++;
    const int b = (int)blockIdx.x - g.block0[s];
    const int sw = p.sw[s], sh = p.sh[s], pad = p.pad;
    const int16_t *__restrict__ u = g.u[s];
    const int t = threadIdx.x;
    const int x0 = (b % g.strips[s]) * S, col = x0 + t, c0 = x0 - pad;
    int r0 = (b / g.strips[s]) * g.rows;
    int r1 = min(sh, r0 + g.rows);
    if (!cvalue_trim(u, sw, x0, S, r0, r1, g.cv[s], g.trim))
        return;
    const int span = S + 2 * pad;
    const int nwords = ((p.band_size + 1) >> 1) * S;
    const int nq = 2 * pad + 1;   /* a thread's window columns: t .. t + 2 pad */
    __shared__ int16_t add[S + 2 * kMaxPad + kBatch], sub[S + 2 * kMaxPad + kBatch];
    __shared__ uint32_t bm[(S + 2 * kMaxPad + 31) / 32 + 1];
    uint32_t *hw = smem32;
    uint32_t *mine = hw + t;
#define BAND_WORD(u) (mine + ((u) >> 1) * S)

    for (int e = t; e < nwords; e += S)
        hw[e] = 0;
    for (int q = t; q < span; q += S)
        sub[q] = -1;
    /* the window of row r0: rows r0 - pad .. r0 + pad (clipped) */
    Staged<S> na, ns;     /* the next staged rows (entering, leaving) */
    for (int k = 0; k < Staged<S>::K; k++)
        ns.v[k] = -1;
    const int rlo = max(0, r0 - pad), rhi = min(sh - 1, r0 + pad);
    fetch_row<S>(na, span, u, sw, sh, rlo, c0);
    for (int r = rlo; r <= rhi; r++) {
        __syncthreads();
        put_row<S>(add, na, span);
        __syncthreads();
        if (r < rhi) {
            fetch_row<S>(na, span, u, sw, sh, r + 1, c0);
        } else if (r0 + 1 < r1) {   /* the first slide's rows */
            fetch_row<S>(na, span, u, sw, sh, r0 + 1 + pad, c0);
            fetch_row<S>(ns, span, u, sw, sh, r0 - pad, c0);
        }
        apply_rows<S>(add, sub, bm, span, t, nq, mine, g.runs);
    }
    for (int i = r0; i < r1; i++) {
        const int ui = col < sw ? u[(size_t)i * sw + col] : -1;
        if (i > r0) {
            __syncthreads();
            put_row<S>(add, na, span);     /* row i + pad: -1 below the image */
            put_row<S>(sub, ns, span);     /* row i - pad - 1: -1 above it */
            __syncthreads();
            if (i + 1 < r1) {
                fetch_row<S>(na, span, u, sw, sh, i + 1 + pad, c0);
                fetch_row<S>(ns, span, u, sw, sh, i - pad, c0);
            }
            apply_rows<S>(add, sub, bm, span, t, nq, mine, g.runs);
        }
        if (col < sw) {
            float v = 0.0f;
            if (ui >= 0)
                v = vq_cambi_c_value_of(&p, recip, (uint32_t)(ui + p.band_base),
                                        [mine](int uu) { return (int)(*BAND_WORD(uu) >> ((uu & 1) * 16)) & 0xffff; });
            g.cv[s][(size_t)i * sw + col] = v;
        }
    }
#undef BAND_WORD
}

#endif /* VQ_CUDA_CAMBI_CVALUE_CUH */
