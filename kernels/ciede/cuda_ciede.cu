/*
 * cuda_ciede.cu - the CUDA executor of ciede: a thin kernel around the device
 * stage of kernels/ciede/ciede.h (vq_ciede_dev_pixel), one thread per pixel, and
 * the row words (kernels/ciede/ciede_exec.h).
 *
 * Per frame, on one stream: a memset of the frame's ciede section (the list
 * count, the inline list entries and the row words: 32 KiB + 32 bytes per
 * row), then the kernel.  Each thread writes its pixel word into the slot's
 * pixel buffer (device memory, read by the host only for rows that fall
 * back: vq_ciede_cuda_fetch_rows).  A pixel whose word is not exact takes a
 * list position from an integer atomic on the count (so the list's order
 * depends on scheduling: the fold sorts the entries by pixel index, and the
 * values do not depend on it); positions past the inline ones go to the
 * slot's overflow list, fetched by vq_ciede_cuda_fetch_list.  A block is
 * 32 x 16 pixels, a warp one row's 32 columns: the warp adds its exact
 * values' row words by shuffles, then lane 0 adds them into the row's words
 * with integer atomics (sums of limbs, a max of keys: any order gives the
 * same words).  At up to 10 bits a block runs the device stage once per
 * distinct six samples (ciede_kernel: real frames repeat them, a block of
 * dog1080 has about a fifth of its pixels distinct).
 *
 * At 8 bits per sample stage A is read from a table of its 2^24 results
 * (kernels/ciede/ciede.h, vq_ciede_dev_pixel_labs): one table per CUDA context
 * for the whole process (192 MiB), made by a kernel when the first session
 * in that context asks for it and freed with the last; VQ_CUDA_CIEDE_TABLE=0 computes
 * stage A per pixel instead (the same words).
 */
#include <stdlib.h>
#include <string.h>

#include <mutex>
#include <new>
#include <vector>

#include <cuda_runtime.h>

#include "ciede.h"
#include "ciede_exec.h"
#include "cuda_exec.h"
#include "module.h"

namespace {

constexpr int kBlockX = 32;

struct CiedeArgs {
    VqPlaneView ref[3], dis[3];
    VqCiedeGeom g;
    int64_t *buf;
    int64_t *px;            /* w * h pixel words */
    int64_t *overflow;      /* 2 * w * h words */
    const VqCiedeLab *table;    /* 8 bits: stage A's table, else NULL */
};

/* the device stage of one pixel's samples: a pure function of s (and the
 * depth and table), so pixels with the same six samples get the same word */
__device__ uint64_t pixel_word(const CiedeArgs &a, const uint32_t s[6])
{
    if (a.table && (s[0] | s[1] | s[2] | s[3] | s[4] | s[5]) < 256u)   /* 8 bits: always */
        return vq_ciede_dev_pixel_labs(s, a.table[vq_ciede_table_index(s[0], s[1], s[2])],
                                       a.table[vq_ciede_table_index(s[3], s[4], s[5])]);
    return vq_ciede_dev_pixel(s, a.g.bpc);
}

/* Samples of up to 10 bits, six of them in one 60-bit key (never ~0). */
constexpr unsigned long long kNoKey = ~0ull;
__device__ unsigned long long pack_key(const uint32_t s[6])
{
    unsigned long long k = 0;
    for (int c = 5; c >= 0; c--)
        k = (k << 10) | s[c];
    return k;
}
__device__ void unpack_key(unsigned long long k, uint32_t s[6])
{
    for (int c = 0; c < 6; c++, k >>= 10)
        s[c] = (uint32_t)(k & 1023u);
}

/*
 * A block is 32 x kRows pixels, a warp one row's 32 columns.  With kDedup
 * (samples of at most 10 bits) the block's pixels first put their sample
 * keys in a small hash table in shared memory; each distinct key (pixels
 * with equal samples apart) gets a place in a list, the list's entries are
 * run by the block's first threads (so a block of many equal pixels -
 * flat areas, 4:2:0 chroma - runs the long device stage in few warps) and
 * each pixel reads its key's word.  The word depends on the samples alone,
 * so every pixel's word is the one it would have computed; which pixel
 * came first only decides who runs it.  The rest (the list entries, the
 * pixel words, the row words) is per pixel as without.
 */
template <bool kDedup, int kRows>
__global__ void __launch_bounds__(kBlockX * kRows) ciede_kernel(CiedeArgs a)
{
    constexpr int kThreads = kBlockX * kRows;
    constexpr int kHash = 2 * kThreads;     /* a power of two, at most half full */
    const int j = blockIdx.x * kBlockX + threadIdx.x;
    const int i = blockIdx.y * kRows + threadIdx.y;
    const bool in = i < a.g.h && j < a.g.w;
    uint32_t s[6];
    uint64_t word = 0;
    if (in)
        vq_ciede_fetch(a.ref, a.dis, &a.g, i, j, s);
    if (kDedup) {
        __shared__ unsigned long long hkey[kHash];
        __shared__ int hpos[kHash];
        __shared__ unsigned long long ukey[kThreads];
        __shared__ unsigned long long uword[kThreads];
        __shared__ int nu;
        const int t = threadIdx.y * kBlockX + threadIdx.x;
        for (int k = t; k < kHash; k += kThreads)
            hkey[k] = kNoKey;
        if (!t)
            nu = 0;
        __syncthreads();
        /* slot: the pixel's key in hkey; -1: equal samples (+0), -2: a
         * sample of more than 10 bits (a view of wider samples than the
         * depth says): the pixel runs its own */
        int slot = -1;
        if (in && !vq_ciede_same_samples(s) && (s[0] | s[1] | s[2] | s[3] | s[4] | s[5]) >= 1024u) {
            slot = -2;
        } else if (in && !vq_ciede_same_samples(s)) {
            const unsigned long long key = pack_key(s);
            unsigned h = (unsigned)((key * 0x9E3779B97F4A7C15ull) >> 40) & (kHash - 1);
            for (;;) {
                const unsigned long long prev = atomicCAS(&hkey[h], kNoKey, key);
                if (prev == kNoKey) {
                    const int u = atomicAdd(&nu, 1);
                    ukey[u] = key;
                    hpos[h] = u;
                    break;
                }
                if (prev == key)
                    break;
                h = (h + 1) & (kHash - 1);
            }
            slot = (int)h;
        }
        __syncthreads();
        for (int u = t; u < nu; u += kThreads) {
            uint32_t su[6];
            unpack_key(ukey[u], su);
            uword[u] = pixel_word(a, su);
        }
        __syncthreads();
        if (in)
            word = slot == -2 ? pixel_word(a, s) : slot < 0 ? VQ_CIEDE_WORD_ZERO : uword[hpos[slot]];
    }
    if (i >= a.g.h)
        return;     /* the whole warp (a warp is one row's 32 columns) */
    VqCiedeRowAcc acc;
    vq_ciede_acc_zero(&acc);
    if (in) {
        const size_t k = (size_t)i * a.g.w + j;
        if (!kDedup)
            word = pixel_word(a, s);
        if ((uint32_t)(word >> 32) != VQ_CIEDE_TAG_EXACT) {
            /* listed (word 0) or two-candidate: a list entry */
            const unsigned long long pos = atomicAdd((unsigned long long *)a.buf, 1ull);
            uint64_t e[2];
            if (word)
                vq_ciede_two_entry(word, (uint32_t)k, e);
            else
                vq_ciede_list_entry(s, (uint32_t)k, e);
            int64_t *dst = pos < VQ_CIEDE_LIST_INLINE ? a.buf + 1 + 2 * pos
                                                      : a.overflow + 2 * (pos - VQ_CIEDE_LIST_INLINE);
            dst[0] = (int64_t)e[0];
            dst[1] = (int64_t)e[1];
            if (!word)
                word = ((uint64_t)VQ_CIEDE_TAG_LIST << 32) | (uint32_t)pos;
        }
        a.px[k] = (int64_t)word;
        vq_ciede_acc_word(&acc, word);
    }
    /* the warp's 32 columns (lanes past w add nothing) */
    for (int off = 16; off > 0; off >>= 1) {
        VqCiedeRowAcc o;
        for (int l = 0; l < 3; l++)
            o.limb[l] = __shfl_down_sync(0xffffffffu, (unsigned long long)acc.limb[l], off);
        o.key = __shfl_down_sync(0xffffffffu, (unsigned long long)acc.key, off);
        vq_ciede_acc_merge(&acc, &o);
    }
    if (threadIdx.x == 0 && acc.key) {  /* key 0: no nonzero value, every limb 0 */
        unsigned long long *rw =
            (unsigned long long *)(a.buf + VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * i);
        for (int l = 0; l < 3; l++)
            if (acc.limb[l])
                atomicAdd(rw + l, (unsigned long long)acc.limb[l]);
        atomicMax(rw + 3, (unsigned long long)acc.key);
    }
}

__global__ void __launch_bounds__(256) ciede_table_kernel(VqCiedeLab *table)
{
    const uint32_t k = blockIdx.x * 256u + threadIdx.x;
    if (k < VQ_CIEDE_TABLE_ENTRIES)
        table[k] = vq_ciede_table_entry(k);
}

/* The process's tables, one per CUDA context (memory of one context is not
 * another's, even on the same device), shared by every session in it. */
constexpr int kMaxTables = 64;
struct SharedTable {
    void *ctx;
    VqCiedeLab *p;
    int refs;
};
std::mutex table_mu;
SharedTable tables[kMaxTables];

/* the current context (the driver's cuCtxGetCurrent, reached through the
 * runtime), or NULL when it cannot be known: then no table */
void *current_context()
{
    typedef int (*CtxGetCurrent)(void **);
    static const CtxGetCurrent fn = [] {
        void *f = nullptr;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &f, 12000, cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess)
            f = nullptr;
        return (CtxGetCurrent)f;
    }();
    void *ctx = nullptr;
    if (!fn || fn(&ctx) != 0)
        return nullptr;
    return ctx;
}

/* the current context's table, made on first use (synchronously: at a
 * session's start, never inside a graph's capture); 0 or a cudaError_t.
 * *out stays NULL (stage A per pixel) where no table can be kept. */
cudaError_t table_acquire(const VqCiedeLab **out, void **key)
{
    *out = nullptr;
    cudaError_t e = cudaFree(0);    /* the runtime's context is current */
    if (e != cudaSuccess)
        return e;
    void *ctx = current_context();
    if (!ctx)
        return cudaSuccess;
    std::lock_guard<std::mutex> lock(table_mu);
    SharedTable *t = nullptr;
    for (int k = 0; k < kMaxTables && !t; k++)
        if (tables[k].p && tables[k].ctx == ctx)
            t = &tables[k];
    if (!t) {
        for (int k = 0; k < kMaxTables && !t; k++)
            if (!tables[k].p)
                t = &tables[k];
        if (!t)
            return cudaSuccess;
        VqCiedeLab *p = nullptr;
        e = cudaMalloc((void **)&p, sizeof(VqCiedeLab) * (size_t)VQ_CIEDE_TABLE_ENTRIES);
        if (e != cudaSuccess)
            return e;
        cudaStream_t st;
        e = cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
        if (e == cudaSuccess) {
            ciede_table_kernel<<<VQ_CIEDE_TABLE_ENTRIES / 256, 256, 0, st>>>(p);
            e = cudaGetLastError();
            const cudaError_t e2 = cudaStreamSynchronize(st);
            if (e == cudaSuccess)
                e = e2;
            cudaStreamDestroy(st);
        }
        if (e != cudaSuccess) {
            cudaFree(p);
            return e;
        }
        t->ctx = ctx;
        t->p = p;
        t->refs = 0;
    }
    t->refs++;
    *out = t->p;
    *key = ctx;
    return cudaSuccess;
}

void table_release(const VqCiedeLab *p, void *ctx)
{
    if (!p)
        return;
    std::lock_guard<std::mutex> lock(table_mu);
    for (int k = 0; k < kMaxTables; k++) {
        SharedTable &t = tables[k];
        if (t.p == p && t.ctx == ctx && --t.refs == 0) {
            cudaFree(t.p);
            t.p = nullptr;
            t.ctx = nullptr;
        }
    }
}

int table_wanted(int bpc)
{
    const char *e = getenv("VQ_CUDA_CIEDE_TABLE");
    return bpc == 8 && !(e && !strcmp(e, "0"));
}

/* the kernel's variant: rows per block (VQ_CUDA_CIEDE_ROWS: 4, 8 or 16;
 * default 16) and whether equal samples run once per block (samples of at
 * most 10 bits, unless VQ_CUDA_CIEDE_DEDUP=0); every variant gives the same
 * words.  H100, 2026-12-05, the first frames of dog1080 and dog2160 (ref
 * against crf34 / crf32): 4 rows without dedupe (the kernel before) 0.253 /
 * 0.842 ms with the table, 0.668 / 2.431 ms without; 16 rows with dedupe
 * 0.213 / 0.730 ms and 0.412 / 1.372 ms (docs/ciede.md section 12) */
int rows_wanted()
{
    const char *e = getenv("VQ_CUDA_CIEDE_ROWS");
    const int r = e ? atoi(e) : 16;
    return r == 4 || r == 8 ? r : 16;
}

int dedup_wanted()
{
    const char *e = getenv("VQ_CUDA_CIEDE_DEDUP");
    return !(e && !strcmp(e, "0"));
}

template <bool kDedup, int kRows>
void launch(const CiedeArgs &a, cudaStream_t st)
{
    const dim3 block(kBlockX, kRows);
    const dim3 grid((unsigned)((a.g.w + kBlockX - 1) / kBlockX), (unsigned)((a.g.h + kRows - 1) / kRows));
    ciede_kernel<kDedup, kRows><<<grid, block, 0, st>>>(a);
}

}  // namespace

struct VqCiedeCuda {
    int w, h, slots;
    int64_t **overflow;     /* per slot, 2 * w * h words */
    int64_t **px;           /* per slot, w * h pixel words */
    cudaStream_t fetch;     /* vq_ciede_cuda_fetch_rows's copies */
    const VqCiedeLab *table;    /* stage A's table (8 bits), or NULL */
    void *table_ctx;            /* the context it belongs to */
    int rows, dedup;            /* the kernel's variant (rows_wanted, dedup_wanted) */
};

extern "C" void vq_ciede_cuda_free(VqCiedeCuda *p)
{
    if (!p)
        return;
    table_release(p->table, p->table_ctx);
    for (int s = 0; p->overflow && s < p->slots; s++)
        cudaFree(p->overflow[s]);
    for (int s = 0; p->px && s < p->slots; s++)
        cudaFree(p->px[s]);
    if (p->fetch)
        cudaStreamDestroy(p->fetch);
    free(p->overflow);
    free(p->px);
    free(p);
}

extern "C" int vq_ciede_cuda_alloc(VqCiedeCuda **pp, int w, int h, int bpc, int slots, int only)
{
    *pp = nullptr;
    if (w <= 0 || h <= 0 || slots <= 0 || only < -1 || only >= slots || (long long)w * h > VQ_CIEDE_MAX_PIXELS)
        return (int)cudaErrorInvalidValue;
    VqCiedeCuda *p = (VqCiedeCuda *)calloc(1, sizeof(*p));
    if (!p)
        return (int)cudaErrorMemoryAllocation;
    p->w = w;
    p->h = h;
    p->slots = slots;
    p->rows = rows_wanted();
    p->dedup = dedup_wanted();
    p->overflow = (int64_t **)calloc((size_t)slots, sizeof(*p->overflow));
    p->px = (int64_t **)calloc((size_t)slots, sizeof(*p->px));
    if (!p->overflow || !p->px) {
        vq_ciede_cuda_free(p);
        return (int)cudaErrorMemoryAllocation;
    }
    cudaError_t e = cudaStreamCreateWithFlags(&p->fetch, cudaStreamNonBlocking);
    if (e == cudaSuccess && table_wanted(bpc))
        e = table_acquire(&p->table, &p->table_ctx);
    const int first = only < 0 ? 0 : only, end = only < 0 ? slots : only + 1;   /* the slots to fill */
    for (int s = first; s < end && e == cudaSuccess; s++) {
        e = cudaMalloc((void **)&p->overflow[s], 2 * sizeof(int64_t) * (size_t)w * h);
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&p->px[s], sizeof(int64_t) * (size_t)w * h);
    }
    if (e != cudaSuccess) {
        vq_ciede_cuda_free(p);
        return (int)e;
    }
    *pp = p;
    return 0;
}

extern "C" int vq_ciede_cuda_run(VqCiedeCuda *p, int slot, const VqPlaneView ref[3],
                                 const VqPlaneView dis[3], const VqCiedeGeom *g, int64_t *d_buf,
                                 void *stream)
{
    if (!p || slot < 0 || slot >= p->slots || !p->px[slot] || g->w != p->w || g->h != p->h)
        return (int)cudaErrorInvalidValue;
    const cudaStream_t st = (cudaStream_t)stream;
    cudaError_t e = cudaMemsetAsync(d_buf, 0, sizeof(int64_t) * vq_ciede_buffer_words(g->w, g->h), st);
    if (e != cudaSuccess)
        return (int)e;
    CiedeArgs a;
    for (int c = 0; c < 3; c++) {
        a.ref[c] = ref[c];
        a.dis[c] = dis[c];
    }
    a.g = *g;
    a.buf = d_buf;
    a.px = p->px[slot];
    a.overflow = p->overflow[slot];
    a.table = g->bpc == 8 ? p->table : nullptr;
    const bool dedup = p->dedup && g->bpc <= 10;
    switch (p->rows * 2 + dedup) {
    case 8:  launch<false, 4>(a, st); break;
    case 9:  launch<true, 4>(a, st); break;
    case 32: launch<false, 16>(a, st); break;
    case 16: launch<false, 8>(a, st); break;
    case 17: launch<true, 8>(a, st); break;
    default: launch<true, 16>(a, st); break;
    }
    return (int)cudaGetLastError();
}

extern "C" int vq_ciede_cuda_fetch_list(VqCiedeCuda *p, int slot, int64_t n, int64_t *dst, void *stream)
{
    if (!p || slot < 0 || slot >= p->slots || !p->px[slot] || n > (int64_t)p->w * p->h)
        return (int)cudaErrorInvalidValue;
    if (n <= VQ_CIEDE_LIST_INLINE)
        return 0;
    const cudaStream_t st = (cudaStream_t)stream;
    cudaError_t e = cudaMemcpyAsync(dst, p->overflow[slot],
                                    2 * sizeof(int64_t) * (size_t)(n - VQ_CIEDE_LIST_INLINE),
                                    cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(st);
    return (int)e;
}

extern "C" int vq_ciede_cuda_fetch_rows(VqCiedeCuda *p, int slot, int row0, int nrows, int64_t *dst)
{
    if (!p || slot < 0 || slot >= p->slots || !p->px[slot] || row0 < 0 || nrows < 0 || nrows > p->h - row0)
        return (int)cudaErrorInvalidValue;
    if (!nrows)
        return 0;
    cudaError_t e = cudaMemcpyAsync(dst, p->px[slot] + (size_t)row0 * p->w,
                                    sizeof(int64_t) * (size_t)nrows * p->w, cudaMemcpyDeviceToHost, p->fetch);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(p->fetch);
    return (int)e;
}

/* The module's table (kernels/module.h): g->host is the instance's
 * VqCiedeGeom.  The pixel words stay in the slot's device buffer until the
 * slot is run again; collect fetches a pathological frame's overflow list
 * and notes the slot, from which the fold fetches the rows it needs. */
namespace {

struct CudaScratch {
    VqCiedeCuda *c = nullptr;
    int slot = 0;                   /* the frame collected last */
    std::vector<int64_t> extra;     /* its list entries past VQ_CIEDE_LIST_INLINE */
    VqCiedeFoldData fd{};
};

int fetch_rows(void *ctx, int row0, int nrows, int64_t *dst)
{
    CudaScratch *m = static_cast<CudaScratch *>(ctx);
    return vq_ciede_cuda_fetch_rows(m->c, m->slot, row0, nrows, dst);
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    const VqCiedeGeom *cg = static_cast<const VqCiedeGeom *>(g->host);
    CudaScratch *m = new (std::nothrow) CudaScratch;
    *scratch = m;
    if (!m)
        return (int)cudaErrorMemoryAllocation;
    m->fd.src.fetch = fetch_rows;
    m->fd.src.ctx = m;
    /* a lane's own instance runs one slot (g->cuda_slot): its buffers alone */
    return vq_ciede_cuda_alloc(&m->c, cg->w, cg->h, cg->bpc, vq_cuda_pipeline_depth(),
                               g->cuda_slot > 0 ? g->cuda_slot : -1);
}

void module_free(void *scratch)
{
    CudaScratch *m = static_cast<CudaScratch *>(scratch);
    if (m && m->c)
        vq_ciede_cuda_free(m->c);
    delete m;
}

int module_enqueue(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                   int64_t *d_section, void *stream, int slot)
{
    return vq_ciede_cuda_run(static_cast<CudaScratch *>(scratch)->c, slot, ref, dis,
                             static_cast<const VqCiedeGeom *>(g->host), d_section, stream);
}

int module_collect(void *scratch, const VqModuleGeom *, int slot, const int64_t *section, void *stream)
{
    CudaScratch *m = static_cast<CudaScratch *>(scratch);
    m->slot = slot;
    const int64_t listed = section[0];
    const int64_t n = listed > VQ_CIEDE_LIST_INLINE ? listed - VQ_CIEDE_LIST_INLINE : 0;
    try {
        m->extra.assign((size_t)(n > 0 ? 2 * n : 0), 0);
    } catch (const std::bad_alloc &) {
        return (int)cudaErrorMemoryAllocation;
    }
    m->fd.extra = n > 0 ? m->extra.data() : nullptr;
    return n > 0 ? vq_ciede_cuda_fetch_list(m->c, slot, listed, m->extra.data(), stream) : 0;
}

const void *module_fold_data(void *scratch)
{
    return &static_cast<CudaScratch *>(scratch)->fd;
}

}  // namespace

extern "C" const VqModuleCuda vq_ciede_module_cuda = { module_alloc, module_free, module_enqueue, module_collect,
                                                       module_fold_data };
