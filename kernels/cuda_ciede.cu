/*
 * cuda_ciede.cu - the CUDA executor of ciede: a thin kernel around the device
 * stage of kernels/ciede.h (vq_ciede_dev_pixel), one thread per pixel.
 *
 * Per frame, on one stream: a memset of the buffer's head (the list count
 * and the inline list entries: 32 KiB), then the kernel.  Every pixel word
 * is written.  A pixel the device cannot decide takes a list position from
 * an integer atomic on the count (so the list's order depends on scheduling:
 * the fold looks entries up by the position in the pixel word, and the
 * values do not depend on it); positions past the inline ones go to the
 * slot's overflow list, fetched by vq_ciede_cuda_fetch_list.
 */
#include <stdlib.h>

#include <cuda_runtime.h>

#include "ciede.h"
#include "ciede_exec.h"

namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 4;

struct CiedeArgs {
    VqPlaneView ref[3], dis[3];
    VqCiedeGeom g;
    int64_t *buf;
    int64_t *overflow;      /* 2 * w * h words */
};

__global__ void __launch_bounds__(kBlockX * kBlockY) ciede_kernel(CiedeArgs a)
{
    const int j = blockIdx.x * kBlockX + threadIdx.x;
    const int i = blockIdx.y * kBlockY + threadIdx.y;
    if (i >= a.g.h || j >= a.g.w)
        return;
    uint32_t s[6];
    const size_t k = (size_t)i * a.g.w + j;
    vq_ciede_fetch(a.ref, a.dis, &a.g, i, j, s);
    uint64_t word = vq_ciede_dev_pixel(s, a.g.bpc);
    if (!word) {
        const unsigned long long pos = atomicAdd((unsigned long long *)a.buf, 1ull);
        uint64_t e[2];
        vq_ciede_list_entry(s, (uint32_t)k, e);
        int64_t *dst = pos < VQ_CIEDE_LIST_INLINE ? a.buf + 1 + 2 * pos
                                                  : a.overflow + 2 * (pos - VQ_CIEDE_LIST_INLINE);
        dst[0] = (int64_t)e[0];
        dst[1] = (int64_t)e[1];
        word = ((uint64_t)VQ_CIEDE_TAG_LIST << 32) | (uint32_t)pos;
    }
    a.buf[VQ_CIEDE_PIX_OFF + k] = (int64_t)word;
}

}  // namespace

struct VqCiedeCuda {
    int w, h, slots;
    int64_t **overflow;     /* per slot, 2 * w * h words */
};

extern "C" void vq_ciede_cuda_free(VqCiedeCuda *p)
{
    if (!p)
        return;
    for (int s = 0; p->overflow && s < p->slots; s++)
        cudaFree(p->overflow[s]);
    free(p->overflow);
    free(p);
}

extern "C" int vq_ciede_cuda_alloc(VqCiedeCuda **pp, int w, int h, int slots)
{
    *pp = nullptr;
    if (w <= 0 || h <= 0 || slots <= 0)
        return (int)cudaErrorInvalidValue;
    VqCiedeCuda *p = (VqCiedeCuda *)calloc(1, sizeof(*p));
    if (!p)
        return (int)cudaErrorMemoryAllocation;
    p->w = w;
    p->h = h;
    p->slots = slots;
    p->overflow = (int64_t **)calloc((size_t)slots, sizeof(*p->overflow));
    if (!p->overflow) {
        free(p);
        return (int)cudaErrorMemoryAllocation;
    }
    for (int s = 0; s < slots; s++) {
        const cudaError_t e = cudaMalloc((void **)&p->overflow[s], 2 * sizeof(int64_t) * (size_t)w * h);
        if (e != cudaSuccess) {
            vq_ciede_cuda_free(p);
            return (int)e;
        }
    }
    *pp = p;
    return 0;
}

extern "C" int vq_ciede_cuda_run(VqCiedeCuda *p, int slot, const VqPlaneView ref[3],
                                 const VqPlaneView dis[3], const VqCiedeGeom *g, int64_t *d_buf,
                                 void *stream)
{
    if (!p || slot < 0 || slot >= p->slots || g->w != p->w || g->h != p->h)
        return (int)cudaErrorInvalidValue;
    const cudaStream_t st = (cudaStream_t)stream;
    cudaError_t e = cudaMemsetAsync(d_buf, 0, sizeof(int64_t) * VQ_CIEDE_PIX_OFF, st);
    if (e != cudaSuccess)
        return (int)e;
    CiedeArgs a;
    for (int c = 0; c < 3; c++) {
        a.ref[c] = ref[c];
        a.dis[c] = dis[c];
    }
    a.g = *g;
    a.buf = d_buf;
    a.overflow = p->overflow[slot];
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid((unsigned)((g->w + kBlockX - 1) / kBlockX), (unsigned)((g->h + kBlockY - 1) / kBlockY));
    ciede_kernel<<<grid, block, 0, st>>>(a);
    return (int)cudaGetLastError();
}

extern "C" int vq_ciede_cuda_fetch_list(VqCiedeCuda *p, int slot, int64_t n, int64_t *dst, void *stream)
{
    if (!p || slot < 0 || slot >= p->slots || n > (int64_t)p->w * p->h)
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
