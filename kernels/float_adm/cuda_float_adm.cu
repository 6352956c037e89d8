/*
 * cuda_float_adm.cu - the CUDA executor of float ADM (float_adm_exec.h):
 * per scale three kernels around the VQ_HD functions of float_adm.h, the
 * same ones the CPU loops call:
 *   dwt: a thread per band sample, ref and dis (the vertical pass of its
 *        four columns recomputed: the same float operations as the CPU's
 *        row buffer);
 *   dec: a thread per pixel of the decouple rect (RCPSS from the table in
 *        device memory, kernels/float_adm/rcp_table.h);
 *   sums: a thread per band row, its nine float sums left to right (rows
 *        are short: at most ~1000 terms), every row word written (0 outside
 *        the CM rect).
 * Nothing is allocated or copied per frame: run() only enqueues kernels, so
 * it can be captured into a CUDA graph.  adm_p_norm other than 3: glibc's
 * powf per pixel, as kernels/float_adm/glibc_powf.h computes it (its tables in device
 * memory); refused at alloc when the plan found the host's powf different.
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "float_adm_exec.h"
#include "module.h"
#include "glibc_powf.h"

struct VqFadmCuda {
    VqFadmParams p;
    VqRcpTable *d_tab;
    VqPowfTables *d_powf;    /* glibc's powf data, for adm_p_norm other than 3 */
    float *arena;
    float *terms;            /* a scale's per-pixel terms: VQ_FADM_NSUMS planes of w x h (scale 0's size) */
    VqFadmImages images[VQ_ADM_SCALES];
};

namespace {

__global__ void dwt0_kernel(VqPlaneView ref, VqPlaneView dis, int bpc, VqFadmScale sc, VqFadmImages im)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    const int side = blockIdx.z;
    if (i >= sc.h || j >= sc.w)
        return;
    const VqPlaneView v = side ? dis : ref;
    int y[4], x[4];
    for (int k = 0; k < 4; k++) {
        y[k] = vq_fadm_tap(k, i, sc.in_h);
        x[k] = vq_fadm_tap(k, j, sc.in_w);
    }
    float lo[4], hi[4], out[4];
    for (int k = 0; k < 4; k++)
        vq_fadm_vert(vq_fadm_sample0(v, bpc, y[0], x[k]), vq_fadm_sample0(v, bpc, y[1], x[k]),
                     vq_fadm_sample0(v, bpc, y[2], x[k]), vq_fadm_sample0(v, bpc, y[3], x[k]), &lo[k], &hi[k]);
    vq_fadm_dwt_out(lo, hi, out);
    const int b = side ? VQ_FADM_DA : VQ_FADM_RA;
    const size_t at = (size_t)i * im.stride + j;
    for (int k = 0; k < 4; k++)
        im.plane[b + k][at] = out[k];
}

__global__ void dwt_kernel(VqFadmImages prev, VqFadmScale sc, VqFadmImages im)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
    const int side = blockIdx.z;
    if (i >= sc.h || j >= sc.w)
        return;
    const int b = side ? VQ_FADM_DA : VQ_FADM_RA;
    const float *src = prev.plane[b];
    int y[4], x[4];
    for (int k = 0; k < 4; k++) {
        y[k] = vq_fadm_tap(k, i, sc.in_h);
        x[k] = vq_fadm_tap(k, j, sc.in_w);
    }
    float lo[4], hi[4], out[4];
    for (int k = 0; k < 4; k++)
        vq_fadm_vert(src[(size_t)y[0] * prev.stride + x[k]], src[(size_t)y[1] * prev.stride + x[k]],
                     src[(size_t)y[2] * prev.stride + x[k]], src[(size_t)y[3] * prev.stride + x[k]], &lo[k],
                     &hi[k]);
    vq_fadm_dwt_out(lo, hi, out);
    const size_t at = (size_t)i * im.stride + j;
    for (int k = 0; k < 4; k++)
        im.plane[b + k][at] = out[k];
}

__global__ void dec_kernel(const VqRcpTable *tab, VqFadmImages im, VqFadmScale sc, double egl, float cos_1deg_sq)
{
    const int j = sc.dec.left + blockIdx.x * blockDim.x + threadIdx.x;
    const int i = sc.dec.top + blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= sc.dec.bottom || j >= sc.dec.right)
        return;
    vq_fadm_dec_pixel(tab, &im, &sc, egl, cos_1deg_sq, i, j);
}

/*
 * The row sums in two steps: every pixel's nine terms (the cube of its
 * value, or glibc's powf of it) in parallel, then each (row, sum) added in the reference's order,
 * j ascending, in float, by one thread: the same terms and the same adds
 * as one thread per row doing both (which left 9 blocks for a 1080p frame).
 */
__global__ void terms_kernel(VqFadmImages im, VqFadmScale sc, int bypass_cm, int p3, float pf,
                             const VqPowfTables *__restrict__ pt, float *terms)
{
    const int j = sc.cm.left + blockIdx.x * blockDim.x + threadIdx.x;
    const int i = sc.cm.top + blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= sc.cm.bottom || j >= sc.cm.right)
        return;
    const int im1 = vq_fadm_mirror(i - 1, sc.h), ip1 = vq_fadm_mirror(i + 1, sc.h);
    float x[VQ_FADM_NSUMS];
    vq_fadm_pixel(&im, &sc, bypass_cm, i, im1, ip1, j, vq_fadm_mirror(j - 1, sc.w), vq_fadm_mirror(j + 1, sc.w), x);
    const size_t plane = (size_t)sc.w * sc.h, at = (size_t)i * sc.w + j;
    for (int k = 0; k < VQ_FADM_NSUMS; k++)
        terms[k * plane + at] = p3 ? vq_fadm_cube(x[k]) : vq_glibc_powf(x[k], pf, pt);
}

__global__ void sums_kernel(const float *__restrict__ terms, VqFadmScale sc, int64_t *rows)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = t % sc.h, k = t / sc.h;   /* a warp: one sum of consecutive rows */
    if (k >= VQ_FADM_NSUMS)
        return;
    int64_t *out = rows + (size_t)i * VQ_FADM_NSUMS + k;
    if (sc.dwt_only || i < sc.cm.top || i >= sc.cm.bottom) {
        *out = 0;
        return;
    }
    const float *row = terms + (size_t)k * sc.w * sc.h + (size_t)i * sc.w;
    float acc = 0;
    for (int j = sc.cm.left; j < sc.cm.right; j++)
        acc += row[j];
    *out = vq_fadm_word(acc);
}

}  // namespace

extern "C" int vq_fadm_cuda_alloc(VqFadmCuda **out, const VqFadmParams *p, const VqRcpTable *t)
{
    *out = NULL;
    if (!p->p3 && !p->powf_gpu)
        return -1;
    VqFadmCuda *c = (VqFadmCuda *)calloc(1, sizeof(*c));
    if (!c)
        return (int)cudaErrorMemoryAllocation;
    c->p = *p;
    size_t total = 0;
    for (int s = 0; s < VQ_ADM_SCALES; s++)
        total += (size_t)p->s[s].w * p->s[s].h * VQ_FADM_NPLANES;
    cudaError_t e = cudaMalloc((void **)&c->arena, total * sizeof(float));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&c->terms, (size_t)VQ_FADM_NSUMS * p->s[0].w * p->s[0].h * sizeof(float));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&c->d_tab, sizeof(VqRcpTable));
    if (e == cudaSuccess)
        e = cudaMemcpy(c->d_tab, t, sizeof(VqRcpTable), cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&c->d_powf, sizeof(VqPowfTables));
    if (e == cudaSuccess) {
        static const VqPowfTables powf_tables = VQ_POWF_TABLES_INIT;
        e = cudaMemcpy(c->d_powf, &powf_tables, sizeof(VqPowfTables), cudaMemcpyHostToDevice);
    }
    /* planes the decouple rect leaves unwritten are never read; cleared once
     * all the same, so that nothing reads uninitialised memory */
    if (e == cudaSuccess)
        e = cudaMemset(c->arena, 0, total * sizeof(float));
    if (e != cudaSuccess) {
        vq_fadm_cuda_free(c);
        return (int)e;
    }
    float *at = c->arena;
    for (int s = 0; s < VQ_ADM_SCALES; s++) {
        const size_t n = (size_t)p->s[s].w * p->s[s].h;
        c->images[s].stride = p->s[s].w;
        for (int k = 0; k < VQ_FADM_NPLANES; k++, at += n)
            c->images[s].plane[k] = at;
    }
    *out = c;
    return 0;
}

extern "C" void vq_fadm_cuda_free(VqFadmCuda *c)
{
    if (!c)
        return;
    cudaFree(c->arena);
    cudaFree(c->terms);
    cudaFree(c->d_tab);
    cudaFree(c->d_powf);
    free(c);
}

extern "C" int vq_fadm_cuda_run(VqFadmCuda *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p,
                                int64_t *d_rows, const size_t off[VQ_ADM_SCALES], void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    if (ref.w != p->w || ref.h != p->h || dis.w != p->w || dis.h != p->h ||
        memcmp(&c->p, p, sizeof(*p)) != 0)
        return -1;
    const dim3 blk(32, 8);
    for (int s = 0; s < VQ_ADM_SCALES; s++) {
        const VqFadmScale &sc = p->s[s];
        const dim3 grid((sc.w + 31) / 32, (sc.h + 7) / 8, 2);
        if (s == 0)
            dwt0_kernel<<<grid, blk, 0, st>>>(ref, dis, p->bpc, sc, c->images[0]);
        else
            dwt_kernel<<<grid, blk, 0, st>>>(c->images[s - 1], sc, c->images[s]);
        if (!sc.dwt_only) {
            const int dw = sc.dec.right - sc.dec.left, dh = sc.dec.bottom - sc.dec.top;
            if (dw > 0 && dh > 0)
                dec_kernel<<<dim3((dw + 31) / 32, (dh + 7) / 8), blk, 0, st>>>(c->d_tab, c->images[s], sc, p->egl,
                                                                             p->cos_1deg_sq);
        }
        const int cw = sc.cm.right - sc.cm.left, ch = sc.cm.bottom - sc.cm.top;
        if (!sc.dwt_only && cw > 0 && ch > 0)
            terms_kernel<<<dim3((cw + 31) / 32, (ch + 7) / 8), blk, 0, st>>>(c->images[s], sc, p->bypass_cm, p->p3,
                                                                           p->p_normf, c->d_powf, c->terms);
        sums_kernel<<<(sc.h * VQ_FADM_NSUMS + 127) / 128, 128, 0, st>>>(c->terms, sc, d_rows + off[s]);
    }
    return (int)cudaGetLastError();
}

/* The module's table (kernels/module.h): g->host is the instance's VqFadmInstance. */
namespace {

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    const VqFadmInstance *in = static_cast<const VqFadmInstance *>(g->host);
    VqFadmCuda *c = NULL;
    const int e = vq_fadm_cuda_alloc(&c, &in->p, in->rcp);
    *scratch = c;
    return e;
}

void module_free(void *scratch)
{
    vq_fadm_cuda_free(static_cast<VqFadmCuda *>(scratch));
}

int module_enqueue(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                   int64_t *d_section, void *stream, int)
{
    const VqFadmInstance *in = static_cast<const VqFadmInstance *>(g->host);
    return vq_fadm_cuda_run(static_cast<VqFadmCuda *>(scratch), ref[0], dis[0], &in->p, d_section, in->off, stream);
}

}  // namespace

extern "C" const VqModuleCuda vq_float_adm_module_cuda = { module_alloc, module_free, module_enqueue };
