/*
 * cuda_ssim.cu - the CUDA executor of float_ssim / float_ms_ssim: thin
 * kernels around kernels/ssim/ssim.h.
 *
 * Per frame, on one stream (docs/ssim.md, "GPU"):
 *   convert         the luma planes as floats (picture_copy)
 *   box / lpf       float_ssim's box decimation, float_ms_ssim's 2x low-pass
 *   hpass, vpass    per image pair: the five Gaussian-filtered images, then
 *                   the per-pixel terms (one double array per sum) and
 *                   approximate row pieces of every sum (any order)
 *   scan            per sum: the approximate sum before each row
 *   summary         per row and per 128-term segment: the terms as integers
 *                   for the binade the approximate sum predicts (warp scan)
 *   compose         per sum, one warp: the summaries in raster order,
 *                   staged 256 at a time in shared memory, checked against
 *                   the exact running sum (a batch of 32 at a time); what
 *                   fails is redone by segments, then term by term.  The
 *                   result is the reference's sequential double sum, bit
 *                   for bit, whatever the predictions were.
 * No atomics; integer scans only where the order matters.  Everything is
 * allocated once (one arena); nothing is copied to the host.
 */
#include <new>

#include <cuda_runtime.h>

#include "module.h"
#include "ssim.h"
#include "ssim_exec.h"

static_assert(VQ_SEQ_SEG % 32 == 0, "segments are whole warps");

namespace {

constexpr int kWarp = 32;
constexpr unsigned kFull = 0xffffffffu;
constexpr int kRowThreads = 256;               /* 1-D blocks along a row */
constexpr int kRowWarps = kRowThreads / kWarp;
constexpr int kScanThreads = 1024;
constexpr int kSummaryWarps = 8;               /* one warp per row */
constexpr int kPlanes = 5;                     /* ref, cmp, ref^2, cmp^2, ref*cmp */
constexpr int kMaxSeq = VQ_SSIM_NWORDS;
constexpr int kMaxInst = 1 + VQ_MS_SSIM_SCALES;

/* One ordered sum: its terms, its approximate pieces and its summaries. */
struct Seq {
    double *terms;           /* rows x n, raster order */
    const double *part;      /* rows x npart: approximate pieces of each row */
    double *prefix;          /* rows: approximate sum of the rows before */
    VqSeqRow *row_sum;       /* rows */
    VqSeqRow *seg_sum;       /* rows x nseg */
    int n, rows, npart, nseg;
    int word;                /* where the result goes in d_words */
};

/* One image pair at one scale and the sums it feeds. */
struct Inst {
    const float *ref, *cmp;
    int w, h, dw, dh;
    int nseq;                /* 4: l*c*s, l, c, s (float_ssim); 3: l, c, s */
    int seq0;                /* its first Seq */
};

struct TermOut {
    double *terms[4];
    double *part[4];
    int npart;
};

unsigned ceil_div(int a, int b)
{
    return (unsigned)((a + b - 1) / b);
}

/* ---- warp helpers ---------------------------------------------------------- */

__device__ __forceinline__ int64_t warp_incl_scan(int64_t v)
{
    /* unsigned: a batch may hold summaries that will be ignored and whose
     * sum wraps; the ones used never come near 2^63 */
    uint64_t u = (uint64_t)v;
    const int lane = threadIdx.x & (kWarp - 1);
#pragma unroll
    for (int o = 1; o < kWarp; o <<= 1) {
        const uint64_t t = __shfl_up_sync(kFull, u, o);
        if (lane >= o)
            u += t;
    }
    return (int64_t)u;
}

__device__ __forceinline__ int64_t warp_min(int64_t v)
{
#pragma unroll
    for (int o = kWarp / 2; o > 0; o >>= 1) {
        const int64_t t = __shfl_xor_sync(kFull, v, o);
        v = t < v ? t : v;
    }
    return v;
}

__device__ __forceinline__ int64_t warp_max(int64_t v)
{
#pragma unroll
    for (int o = kWarp / 2; o > 0; o >>= 1) {
        const int64_t t = __shfl_xor_sync(kFull, v, o);
        v = t > v ? t : v;
    }
    return v;
}

/* approximate (any order); the same value in every lane */
__device__ __forceinline__ double warp_sum(double v)
{
#pragma unroll
    for (int o = kWarp / 2; o > 0; o >>= 1)
        v += __shfl_xor_sync(kFull, v, o);
    return v;
}

/* ---- images ------------------------------------------------------------------ */

__global__ void __launch_bounds__(kRowThreads)
convert_kernel(VqPlaneView ref, VqPlaneView dis, float scale, float *out_ref, float *out_cmp,
               int w)
{
    const int x = blockIdx.x * kRowThreads + threadIdx.x, y = blockIdx.y;
    if (x >= w)
        return;
    const size_t o = (size_t)y * w + x;
    if (blockIdx.z == 0)
        out_ref[o] = vq_ssim_sample(ref, y, x, scale);
    else
        out_cmp[o] = vq_ssim_sample(dis, y, x, scale);
}

/* factor > 0: float_ssim's box decimation by factor; 0: ms_ssim's low-pass */
__global__ void __launch_bounds__(kRowThreads)
decimate_kernel(const float *src_ref, const float *src_cmp, int w, int h, int factor,
                float *dst_ref, float *dst_cmp, int ow)
{
    const int x = blockIdx.x * kRowThreads + threadIdx.x, y = blockIdx.y;
    if (x >= ow)
        return;
    const float *src = blockIdx.z ? src_cmp : src_ref;
    float *dst = blockIdx.z ? dst_cmp : dst_ref;
    dst[(size_t)y * ow + x] = factor ? vq_ssim_box_pixel(src, w, h, x, y, factor)
                                     : vq_ms_ssim_lpf_pixel(src, w, h, x, y);
}

/* the horizontal Gaussian pass of the five images, for every source row */
__global__ void __launch_bounds__(kRowThreads)
hpass_kernel(const float *ref, const float *cmp, int w, float *hp, size_t plane, int dw)
{
    const int x = blockIdx.x * kRowThreads + threadIdx.x, y = blockIdx.y;
    if (x >= dw)
        return;
    const float *r = ref + (size_t)y * w + x, *c = cmp + (size_t)y * w + x;
    double a[kPlanes] = { 0.0, 0.0, 0.0, 0.0, 0.0 };
#pragma unroll
    for (int k = 0; k < VQ_SSIM_WIN; k++) {
        const float t = vq_ssim_gauss_tap(k), rv = r[k], cv = c[k];
        a[0] = vq_ssim_tap_add(a[0], rv, t);
        a[1] = vq_ssim_tap_add(a[1], cv, t);
        a[2] = vq_ssim_tap_add(a[2], rv * rv, t);   /* the reference's float squares */
        a[3] = vq_ssim_tap_add(a[3], cv * cv, t);
        a[4] = vq_ssim_tap_add(a[4], rv * cv, t);
    }
    const size_t o = (size_t)y * dw + x;
#pragma unroll
    for (int p = 0; p < kPlanes; p++)
        hp[p * plane + o] = (float)a[p];
}

/*
 * The vertical pass and the per-pixel terms of output row blockIdx.y;
 * each block also writes its piece of every sum (approximate: only the
 * predictions use it).  NSEQ 4: l*c*s, l, c, s; NSEQ 3: l, c, s.
 */
template <int NSEQ>
__global__ void __launch_bounds__(kRowThreads)
vpass_terms_kernel(const float *hp, size_t plane, int dw, TermOut out)
{
    const int x = blockIdx.x * kRowThreads + threadIdx.x, y = blockIdx.y;
    double v[NSEQ];
#pragma unroll
    for (int q = 0; q < NSEQ; q++)
        v[q] = 0.0;
    if (x < dw) {
        const float *p = hp + (size_t)y * dw + x;
        const VqSsimTerms t = vq_ssim_terms(vq_ssim_gauss_pass(p, dw),
                                            vq_ssim_gauss_pass(p + plane, dw),
                                            vq_ssim_gauss_pass(p + 2 * plane, dw),
                                            vq_ssim_gauss_pass(p + 3 * plane, dw),
                                            vq_ssim_gauss_pass(p + 4 * plane, dw));
        const double all[4] = { t.ssim, t.l, t.c, t.s };
#pragma unroll
        for (int q = 0; q < NSEQ; q++) {
            v[q] = all[4 - NSEQ + q];
            out.terms[q][(size_t)y * dw + x] = v[q];
        }
    }
    __shared__ double ws[kRowWarps][NSEQ];
    const int lane = threadIdx.x & (kWarp - 1), warp = threadIdx.x / kWarp;
#pragma unroll
    for (int q = 0; q < NSEQ; q++) {
        const double s = warp_sum(v[q]);
        if (lane == 0)
            ws[warp][q] = s;
    }
    __syncthreads();
    if (threadIdx.x < NSEQ) {
        const int q = threadIdx.x;
        double s = 0.0;
        for (int i = 0; i < kRowWarps; i++)
            s += ws[i][q];
        /* no run-time index into the parameter (it would be copied to the stack) */
        double *part = q == 0 ? out.part[0] : q == 1 ? out.part[1] : q == 2 ? out.part[2] : out.part[3];
        part[(size_t)y * out.npart + blockIdx.x] = s;
    }
}

/* ---- ordered sums -------------------------------------------------------------- */

/* per sum (blockIdx.x): prefix[r] = approximate sum of rows 0 .. r-1 */
__global__ void __launch_bounds__(kScanThreads) scan_kernel(const Seq *seqs)
{
    const Seq s = seqs[blockIdx.x];
    __shared__ double wsum[kScanThreads / kWarp];
    __shared__ double woff[kScanThreads / kWarp];
    __shared__ double total;
    const int lane = threadIdx.x & (kWarp - 1), warp = threadIdx.x / kWarp;
    double carry = 0.0;
    for (int base = 0; base < s.rows; base += kScanThreads) {
        const int r = base + threadIdx.x;
        double v = 0.0;
        if (r < s.rows)
            for (int p = 0; p < s.npart; p++)
                v += s.part[(size_t)r * s.npart + p];
        double incl = v;
#pragma unroll
        for (int o = 1; o < kWarp; o <<= 1) {
            const double t = __shfl_up_sync(kFull, incl, o);
            if (lane >= o)
                incl += t;
        }
        if (lane == kWarp - 1)
            wsum[warp] = incl;
        __syncthreads();
        if (warp == 0) {
            const double wv = wsum[lane];
            double wi = wv;
#pragma unroll
            for (int o = 1; o < kWarp; o <<= 1) {
                const double t = __shfl_up_sync(kFull, wi, o);
                if (lane >= o)
                    wi += t;
            }
            woff[lane] = wi - wv;
            if (lane == kWarp - 1)
                total = wi;
        }
        __syncthreads();
        if (r < s.rows)
            s.prefix[r] = carry + woff[warp] + (incl - v);
        carry += total;
        __syncthreads();   /* wsum, woff, total are rewritten next round */
    }
}

/* a summary being built by a warp: per-lane extremes, uniform base */
struct Acc {
    int64_t key, base, lo, hi;
    int bad;
};

__device__ __forceinline__ Acc acc_init(int64_t key)
{
    Acc a;
    a.key = key;
    a.base = 0;
    a.lo = INT64_MAX;
    a.hi = INT64_MIN;
    a.bad = key == VQ_SEQ_UNUSABLE;
    return a;
}

/* 32 consecutive terms (lanes with in == false hold none) */
__device__ __forceinline__ void acc_push(Acc &a, int64_t d, int bad, bool in)
{
    const int64_t incl = warp_incl_scan(d);
    const int64_t pre = a.base + incl;
    if (in) {
        a.lo = pre < a.lo ? pre : a.lo;
        a.hi = pre > a.hi ? pre : a.hi;
    }
    a.base += __shfl_sync(kFull, incl, kWarp - 1);
    a.bad |= __any_sync(kFull, bad);
}

/* the same 32 terms into two summaries of one key: one scan for both */
__device__ __forceinline__ void acc_push2(Acc &a, Acc &b, int64_t d, int bad, bool in)
{
    const int64_t incl = warp_incl_scan(d);
    const int64_t last = __shfl_sync(kFull, incl, kWarp - 1);
    const int any = __any_sync(kFull, bad);
    const int64_t pa = a.base + incl, pb = b.base + incl;
    if (in) {
        a.lo = pa < a.lo ? pa : a.lo;
        a.hi = pa > a.hi ? pa : a.hi;
        b.lo = pb < b.lo ? pb : b.lo;
        b.hi = pb > b.hi ? pb : b.hi;
    }
    a.base += last;
    b.base += last;
    a.bad |= any;
    b.bad |= any;
}

__device__ __forceinline__ VqSeqRow acc_done(const Acc &a)
{
    VqSeqRow r;
    r.d = a.base;
    r.lo = warp_min(a.lo);
    r.hi = warp_max(a.hi);
    r.key = a.bad ? VQ_SEQ_UNUSABLE : a.key;
    return r;
}

/*
 * One warp per row (threadIdx.y) of sum blockIdx.y: the row's summary for
 * the key of prefix[r], and each segment's for the key of prefix[r] plus
 * the (approximate) sum of the row's earlier segments.  vq_seq_summary is
 * the same thing term by term.
 */
__global__ void __launch_bounds__(kSummaryWarps * kWarp) summary_kernel(const Seq *seqs)
{
    const Seq s = seqs[blockIdx.y];
    const int r = blockIdx.x * kSummaryWarps + threadIdx.y, lane = threadIdx.x;
    if (r >= s.rows)
        return;   /* the whole warp: no warp-wide call is left behind */
    const double *t = s.terms + (size_t)r * s.n;
    double approx = s.prefix[r];
    const int64_t rkey = vq_seq_key(approx);
    Acc row = acc_init(rkey);
    for (int g = 0; g < s.nseg; g++) {
        const int64_t skey = vq_seq_key(approx);
        Acc seg = acc_init(skey);
        const int k0 = g * VQ_SEQ_SEG, k1 = min(k0 + VQ_SEQ_SEG, s.n);
        for (int c = k0; c < k1; c += kWarp) {
            const int k = c + lane;
            const bool in = k < k1;
            const double x = in ? t[k] : 0.0;
            int64_t dr = 0, ds = 0;
            int br = 0, bs = 0;
            if (in && rkey != VQ_SEQ_UNUSABLE)
                br = vq_seq_term_units(x, rkey, &dr);
            if (skey == rkey) {   /* uniform: the same integers for both */
                acc_push2(row, seg, dr, br, in);
            } else {
                if (in && skey != VQ_SEQ_UNUSABLE)
                    bs = vq_seq_term_units(x, skey, &ds);
                acc_push(row, dr, br, in);
                acc_push(seg, ds, bs, in);
            }
            approx += warp_sum(x);
        }
        const VqSeqRow sg = acc_done(seg);
        if (lane == 0)
            s.seg_sum[(size_t)r * s.nseg + g] = sg;
    }
    const VqSeqRow rw = acc_done(row);
    if (lane == 0)
        s.row_sum[r] = rw;
}

constexpr int kComposeWin = 256;   /* items staged in shared memory at a time */
constexpr int kComposeLoads = kComposeWin / kWarp;

/* win[0 .. n) = items[0 .. n), n <= kComposeWin: every lane's loads issued
 * before any is stored */
__device__ __forceinline__ void stage_items(VqSeqRow *win, const VqSeqRow *items, int n)
{
    const int lane = threadIdx.x & (kWarp - 1);
    VqSeqRow v[kComposeLoads];
#pragma unroll
    for (int c = 0; c < kComposeLoads; c++)
        if (c * kWarp + lane < n)
            v[c] = items[c * kWarp + lane];
    __syncwarp();   /* every lane is done reading the window before */
#pragma unroll
    for (int c = 0; c < kComposeLoads; c++)
        if (c * kWarp + lane < n)
            win[c * kWarp + lane] = v[c];
    __syncwarp();
}

/*
 * s (the same in every lane) after items[0 .. count) in raster order.  A
 * batch of 32: lane j checks item i0 + j against the integer the items
 * before it give (exclusive scan); the items before the first failure are
 * taken at once, the failing one goes to fail(i, s), which must leave s
 * exact and the same in every lane.  The items reach the lanes through win
 * (kComposeWin of the block's shared memory, the caller's for this level).
 * tests/test_ssim.cpp (Lanes) runs the same steps on the host.
 */
template <class Fail>
__device__ void compose_items(double &s, const VqSeqRow *items, int count, VqSeqRow *win,
                              Fail fail)
{
    const int lane = threadIdx.x & (kWarp - 1);
    int w0 = 0;   /* win holds items[w0 .. w0 + kComposeWin) (those below count) */
    stage_items(win, items, min(count, kComposeWin));
    for (int i0 = 0; i0 < count;) {
        if (i0 + kWarp > w0 + kComposeWin) {
            w0 = i0;
            stage_items(win, items + w0, min(count - w0, kComposeWin));
        }
        const int j = i0 + lane;
        VqSeqRow it;
        if (j < count) {
            it = win[j - w0];
        } else {
            it.d = it.lo = it.hi = 0;
            it.key = VQ_SEQ_UNUSABLE;
        }
        const int64_t key = vq_seq_key(s);
        const int64_t m = key == VQ_SEQ_UNUSABLE ? 0 : vq_seq_mantissa(s);
        const int64_t incl = warp_incl_scan(it.d);
        /* unsigned: wraps only in lanes past the first failure, which are ignored */
        const uint64_t at = (uint64_t)m + ((uint64_t)incl - (uint64_t)it.d);
        const bool ok = key != VQ_SEQ_UNUSABLE && it.key == key &&
                        (int64_t)(at + (uint64_t)it.lo) >= VQ_SEQ_M_LO &&
                        (int64_t)(at + (uint64_t)it.hi) <= VQ_SEQ_M_HI;
        const unsigned bad = __ballot_sync(kFull, !ok);
        const int f = bad ? __ffs(bad) - 1 : kWarp;
        const int64_t adv = __shfl_sync(kFull, incl, f > 0 ? f - 1 : 0);
        if (f > 0)
            s = vq_seq_with_mantissa(s, m + adv);
        if (i0 + f >= count)
            break;
        if (f < kWarp) {
            fail(i0 + f, s);
            i0 += f + 1;
        } else {
            i0 += kWarp;
        }
    }
}

/* one warp per sum: the exact sequential sum into d_words[word] */
__global__ void __launch_bounds__(kWarp) compose_kernel(const Seq *seqs, int64_t *words)
{
    __shared__ VqSeqRow win_rows[kComposeWin], win_segs[kComposeWin];
    const Seq s = seqs[blockIdx.x];
    const int lane = threadIdx.x;
    double sum = 0.0;
    compose_items(sum, s.row_sum, s.rows, win_rows, [&](int r, double &s1) {
        const double *t = s.terms + (size_t)r * s.n;
        compose_items(s1, s.seg_sum + (size_t)r * s.nseg, s.nseg, win_segs, [&](int g, double &s2) {
            /* term by term: every lane adds the same terms in order (the
             * segment's loads first, so that only the adds are serial) */
            constexpr int kPer = VQ_SEQ_SEG / kWarp;
            const int k0 = g * VQ_SEQ_SEG, k1 = min(k0 + VQ_SEQ_SEG, s.n);
            double x[kPer];
#pragma unroll
            for (int c = 0; c < kPer; c++) {
                const int k = k0 + c * kWarp + lane;
                x[c] = k < k1 ? t[k] : 0.0;
            }
#pragma unroll
            for (int c = 0; c < kPer; c++) {
                const int m = min(kWarp, k1 - (k0 + c * kWarp));   /* <= 0: none */
                for (int q = 0; q < m; q++)
                    s2 += __shfl_sync(kFull, x[c], q);
            }
        });
    });
    if (lane == 0)
        words[s.word] = (int64_t)vq_f64_bits(sum);
}

} // namespace

/* ---- host side ------------------------------------------------------------------ */

struct VqSsimCuda {
    VqSsimGeom g;
    void *arena = nullptr;
    float *img[VQ_MS_SSIM_SCALES][2] = {};   /* [0]: the frame as floats */
    float *box[2] = {};
    float *hp = nullptr;
    size_t hp_plane = 0;
    Inst inst[kMaxInst];
    int ninst = 0;
    Seq seq[kMaxSeq];
    int nseq = 0, max_rows = 0;
    Seq *d_seq = nullptr;
};

/* Carves every buffer out of base (nullptr: only counts); returns the size. */
static size_t ssim_cuda_layout(VqSsimCuda *c, char *base)
{
    const VqSsimGeom &g = c->g;
    size_t off = 0;
    auto take = [&](size_t bytes) -> void * {
        void *p = base ? base + off : nullptr;
        off += (bytes + 255) / 256 * 256;
        return p;
    };
    const bool ms = g.features & VQ_SSIM_F_MS_SSIM, ss = g.features & VQ_SSIM_F_SSIM;
    for (int i = 0; i < (ms ? VQ_MS_SSIM_SCALES : 1); i++)
        for (int k = 0; k < 2; k++)
            c->img[i][k] = (float *)take((size_t)g.msw[i] * g.msh[i] * sizeof(float));
    if (ss && g.scale > 1)
        for (int k = 0; k < 2; k++)
            c->box[k] = (float *)take((size_t)g.sw * g.sh * sizeof(float));

    c->ninst = c->nseq = c->max_rows = 0;
    size_t hp_plane = 0;
    auto add_inst = [&](const float *ref, const float *cmp, int w, int h, int nseq, int word0) {
        Inst &in = c->inst[c->ninst++];
        in.ref = ref;
        in.cmp = cmp;
        in.w = w;
        in.h = h;
        in.dw = w - 2 * VQ_SSIM_WIN_R;
        in.dh = h - 2 * VQ_SSIM_WIN_R;
        in.nseq = nseq;
        in.seq0 = c->nseq;
        const size_t n = (size_t)in.dw * in.dh;
        const int npart = (int)ceil_div(in.dw, kRowThreads);
        const int nseg = (int)ceil_div(in.dw, VQ_SEQ_SEG);
        for (int q = 0; q < nseq; q++) {
            Seq &s = c->seq[c->nseq++];
            s.n = in.dw;
            s.rows = in.dh;
            s.npart = npart;
            s.nseg = nseg;
            s.word = word0 + q;
            s.terms = (double *)take(n * sizeof(double));
            s.part = (const double *)take((size_t)in.dh * npart * sizeof(double));
            s.prefix = (double *)take((size_t)in.dh * sizeof(double));
            s.row_sum = (VqSeqRow *)take((size_t)in.dh * sizeof(VqSeqRow));
            s.seg_sum = (VqSeqRow *)take((size_t)in.dh * nseg * sizeof(VqSeqRow));
        }
        if ((size_t)in.dw * in.h > hp_plane)
            hp_plane = (size_t)in.dw * in.h;
        if (in.dh > c->max_rows)
            c->max_rows = in.dh;
    };
    if (ss) {
        const bool dec = g.scale > 1;
        add_inst(dec ? c->box[0] : c->img[0][0], dec ? c->box[1] : c->img[0][1], g.sw, g.sh, 4,
                 VQ_SSIM_SUM_SSIM);
    }
    if (ms)
        for (int i = 0; i < VQ_MS_SSIM_SCALES; i++)
            add_inst(c->img[i][0], c->img[i][1], g.msw[i], g.msh[i], 3, VQ_MS_SSIM_SUM0 + 3 * i);
    c->hp_plane = hp_plane;
    c->hp = (float *)take(kPlanes * hp_plane * sizeof(float));
    c->d_seq = (Seq *)take(kMaxSeq * sizeof(Seq));
    return off;
}

extern "C" void vq_ssim_cuda_free(VqSsimCuda *c)
{
    if (!c)
        return;
    cudaFree(c->arena);
    delete c;
}

extern "C" int vq_ssim_cuda_alloc(VqSsimCuda **out, const VqSsimGeom *g)
{
    *out = nullptr;
    if (!vq_ssim_geom_valid(g))
        return (int)cudaErrorInvalidValue;
    VqSsimCuda *c = new (std::nothrow) VqSsimCuda();
    if (!c)
        return (int)cudaErrorMemoryAllocation;
    c->g = *g;
    const size_t bytes = ssim_cuda_layout(c, nullptr);
    cudaError_t err = cudaMalloc(&c->arena, bytes);
    if (err == cudaSuccess) {
        ssim_cuda_layout(c, (char *)c->arena);
        err = cudaMemcpy(c->d_seq, c->seq, c->nseq * sizeof(Seq), cudaMemcpyHostToDevice);
    }
    if (err != cudaSuccess) {
        vq_ssim_cuda_free(c);
        return (int)err;
    }
    *out = c;
    return 0;
}

extern "C" int vq_ssim_cuda_run(VqSsimCuda *c, VqPlaneView ref, VqPlaneView dis, int64_t *d_words,
                                void *stream)
{
    if (!c || !d_words)
        return (int)cudaErrorInvalidValue;
    const VqSsimGeom &g = c->g;
    if (ref.w != g.w || ref.h != g.h || dis.w != g.w || dis.h != g.h)
        return (int)cudaErrorInvalidValue;
    const cudaStream_t st = (cudaStream_t)stream;
    const float scale = vq_ssim_sample_scale(g.bpc);
    cudaError_t err;

    convert_kernel<<<dim3(ceil_div(g.w, kRowThreads), g.h, 2), kRowThreads, 0, st>>>(
        ref, dis, scale, c->img[0][0], c->img[0][1], g.w);
    if ((err = cudaGetLastError()) != cudaSuccess)
        return (int)err;
    if ((g.features & VQ_SSIM_F_SSIM) && g.scale > 1) {
        decimate_kernel<<<dim3(ceil_div(g.sw, kRowThreads), g.sh, 2), kRowThreads, 0, st>>>(
            c->img[0][0], c->img[0][1], g.w, g.h, g.scale, c->box[0], c->box[1], g.sw);
        if ((err = cudaGetLastError()) != cudaSuccess)
            return (int)err;
    }
    if (g.features & VQ_SSIM_F_MS_SSIM) {
        for (int i = 1; i < VQ_MS_SSIM_SCALES; i++) {
            decimate_kernel<<<dim3(ceil_div(g.msw[i], kRowThreads), g.msh[i], 2), kRowThreads, 0,
                              st>>>(c->img[i - 1][0], c->img[i - 1][1], g.msw[i - 1],
                                    g.msh[i - 1], 0, c->img[i][0], c->img[i][1], g.msw[i]);
            if ((err = cudaGetLastError()) != cudaSuccess)
                return (int)err;
        }
    }
    for (int k = 0; k < c->ninst; k++) {
        const Inst &in = c->inst[k];
        hpass_kernel<<<dim3(ceil_div(in.dw, kRowThreads), in.h), kRowThreads, 0, st>>>(
            in.ref, in.cmp, in.w, c->hp, c->hp_plane, in.dw);
        if ((err = cudaGetLastError()) != cudaSuccess)
            return (int)err;
        TermOut to = {};
        for (int q = 0; q < in.nseq; q++) {
            to.terms[q] = c->seq[in.seq0 + q].terms;
            to.part[q] = (double *)c->seq[in.seq0 + q].part;
        }
        to.npart = c->seq[in.seq0].npart;
        const dim3 grid(ceil_div(in.dw, kRowThreads), in.dh);
        if (in.nseq == 4)
            vpass_terms_kernel<4><<<grid, kRowThreads, 0, st>>>(c->hp, c->hp_plane, in.dw, to);
        else
            vpass_terms_kernel<3><<<grid, kRowThreads, 0, st>>>(c->hp, c->hp_plane, in.dw, to);
        if ((err = cudaGetLastError()) != cudaSuccess)
            return (int)err;
    }
    scan_kernel<<<c->nseq, kScanThreads, 0, st>>>(c->d_seq);
    if ((err = cudaGetLastError()) != cudaSuccess)
        return (int)err;
    summary_kernel<<<dim3(ceil_div(c->max_rows, kSummaryWarps), c->nseq), dim3(kWarp, kSummaryWarps),
                     0, st>>>(c->d_seq);
    if ((err = cudaGetLastError()) != cudaSuccess)
        return (int)err;
    compose_kernel<<<c->nseq, kWarp, 0, st>>>(c->d_seq, d_words);
    return (int)cudaGetLastError();
}

/* The module's table (kernels/module.h): g->opt as cpu_ssim.cpp's table reads it. */
namespace {

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    VqSsimGeom sg;
    VqSsimCuda *c = nullptr;
    *scratch = nullptr;
    if (vq_ssim_module_geom(&sg, g->w, g->h, g->bpc, g->opt) < 0)
        return (int)cudaErrorInvalidValue;
    const int e = vq_ssim_cuda_alloc(&c, &sg);
    *scratch = c;
    return e;
}

void module_free(void *scratch)
{
    vq_ssim_cuda_free(static_cast<VqSsimCuda *>(scratch));
}

int module_enqueue(void *scratch, const VqModuleGeom *, const VqPlaneView ref[3], const VqPlaneView dis[3],
                   int64_t *d_section, void *stream, int)
{
    return vq_ssim_cuda_run(static_cast<VqSsimCuda *>(scratch), ref[0], dis[0], d_section, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_ssim_module_cuda = { module_alloc, module_free, module_enqueue };
