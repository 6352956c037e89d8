/*
 * vq_common.h - what every arithmetic header in kernels/ shares.
 *
 * The per-pixel and per-row arithmetic is written once, as VQ_HD inline
 * functions; the CUDA kernels (the .cu files, built by nvcc with --fmad=false)
 * and the CPU executor (the cpu_ .cpp files, built by g++ with
 * -ffp-contract=off) are thin loops around them.  Nothing here may call a
 * math library function (log, pow, exp, ...): those live in hostmath/.
 */
#ifndef VQ_COMMON_H
#define VQ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__CUDACC__)
#define VQ_HD __host__ __device__ __forceinline__
#else
#define VQ_HD static inline
#endif

/* the bits of a float / double and back (IEEE layout, no conversion) */
VQ_HD uint32_t vq_f32_bits(float x)
{
#if defined(__CUDA_ARCH__)
    return __float_as_uint(x);
#else
    uint32_t b;
    memcpy(&b, &x, sizeof(b));
    return b;
#endif
}

VQ_HD float vq_f32_from_bits(uint32_t b)
{
#if defined(__CUDA_ARCH__)
    return __uint_as_float(b);
#else
    float x;
    memcpy(&x, &b, sizeof(x));
    return x;
#endif
}

VQ_HD uint64_t vq_f64_bits(double x)
{
#if defined(__CUDA_ARCH__)
    return (uint64_t)__double_as_longlong(x);
#else
    uint64_t b;
    memcpy(&b, &x, sizeof(b));
    return b;
#endif
}

VQ_HD double vq_f64_from_bits(uint64_t b)
{
#if defined(__CUDA_ARCH__)
    return __longlong_as_double((long long)b);
#else
    double x;
    memcpy(&x, &b, sizeof(x));
    return x;
#endif
}

/*
 * A read-only view of one plane, as the decoder left it (or one of our own
 * intermediate buffers).  A sample is read as
 *     bytes == 1: data[i * pitch + j * step]
 *     bytes == 2: ((const uint16_t *)(data + i * pitch))[j * step] >> shift
 * so P010 (10 bits in the high bits) is {bytes 2, shift 6}, P016 carrying
 * 12-bit video is {bytes 2, shift 4}, yuv420p10 is {bytes 2, shift 0}, and
 * the interleaved UV plane of NV12 is two views {step 2} starting one
 * sample apart.  w and h are the plane's visible size in samples.
 */
typedef struct VqPlaneView {
    const uint8_t *data;
    ptrdiff_t pitch;    /* bytes between rows, may exceed w * bytes * step */
    int32_t w, h;
    int32_t bytes;      /* 1 or 2 */
    int32_t shift;      /* right shift applied to 16-bit samples */
    int32_t step;       /* samples between horizontal neighbours: 1 or 2 */
} VqPlaneView;

/* where sample (i, j) is, and the sample at such an address: a column's
 * next row is pitch bytes on (the CUDA kernels walk columns that way) */
VQ_HD const uint8_t *vq_sample_addr(const VqPlaneView v, int i, int j)
{
    return v.data + (ptrdiff_t)i * v.pitch + (ptrdiff_t)j * v.step * v.bytes;
}

VQ_HD uint32_t vq_sample_load(const VqPlaneView v, const uint8_t *p)
{
    if (v.bytes == 1)
        return *p;
    return (uint32_t)(*(const uint16_t *)p >> v.shift);
}

VQ_HD uint32_t vq_sample(const VqPlaneView v, int i, int j)
{
    return vq_sample_load(v, vq_sample_addr(v, i, j));
}

/* A view of one of our own intermediate images: packed rows of uint16. */
VQ_HD VqPlaneView vq_packed_u16_view(const uint16_t *data, int w, int h)
{
    VqPlaneView v;
    v.data = (const uint8_t *)data;
    v.pitch = (ptrdiff_t)w * 2;
    v.w = w;
    v.h = h;
    v.bytes = 2;
    v.shift = 0;
    v.step = 1;
    return v;
}

/* reflect-101: -k -> k, n-1+k -> n-1-k (the edge sample is not repeated) */
VQ_HD int vq_reflect101(int idx, int n)
{
    if (idx < 0)
        return -idx;
    if (idx >= n)
        return 2 * n - idx - 2;
    return idx;
}

#endif /* VQ_COMMON_H */
