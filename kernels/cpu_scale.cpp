/* cpu_scale.cpp - the CPU executor of the upscaler: plain loops around kernels/scale.h. */
#include <new>
#include <string.h>
#include <vector>

#include "scale.h"
#include "scale_exec.h"
#include "vqcuda.h"

struct VqScaleCpu {
    const VqScalePlan *plan;
    std::vector<int16_t> tmp15[3];  /* src_h x dst_w, bit depths 8..14 */
    std::vector<int32_t> tmp19[3];  /* the same for 16 bits */
    std::vector<uint8_t> out[3];    /* dst_h x dst_w samples of 1 or 2 bytes */
};

namespace {

int sample_bytes(const VqScalePlan *p) { return p->bpc > 8 ? 2 : 1; }

bool view_fits(const VqScalePlanePlan &pp, const VqPlaneView &v)
{
    return v.data && v.w == pp.src_w && v.h == pp.src_h && (v.bytes == 1 || v.bytes == 2);
}

void store(uint8_t *row, int bytes, int x, uint32_t v)
{
    if (bytes == 1)
        row[x] = (uint8_t)v;
    else
        ((uint16_t *)row)[x] = (uint16_t)v;
}

/*
 * The loops below are specialised (view layout, number of taps) only so
 * that the compiler sees constants: the arithmetic is scale.h's, called
 * exactly as the CUDA kernels call it.
 */
template <int kBytes, int kStep>
void hpass_rows(VqScaleCpu *s, VqPlaneView v, int p, int row_begin, int row_end)
{
    const VqScalePlan *pl = s->plan;
    const VqScalePlanePlan &pp = pl->plane[p];
    v.bytes = kBytes;
    v.step = kStep;
    const VqScaleFilter f = pp.h;
    const int w = pp.dst_w, bpc = pl->bpc;
    for (int i = row_begin; i < row_end; i++) {
        if (bpc == 16) {
            int32_t *t = s->tmp19[p].data() + (size_t)i * w;
            for (int x = 0; x < w; x++)
                t[x] = vq_scale_h_to19(vq_scale_h_sum(v, i, f, x));
        } else if (f.size == 4) {
            int16_t *t = s->tmp15[p].data() + (size_t)i * w;
            VqScaleFilter f4 = f;
            f4.size = 4;    /* the upscaler's usual size, as a constant */
            for (int x = 0; x < w; x++)
                t[x] = vq_scale_h_to15(vq_scale_h_sum(v, i, f4, x), bpc);
        } else {
            int16_t *t = s->tmp15[p].data() + (size_t)i * w;
            for (int x = 0; x < w; x++)
                t[x] = vq_scale_h_to15(vq_scale_h_sum(v, i, f, x), bpc);
        }
    }
}

/* kTaps: the vertical filter's size as a constant (0: not specialised) */
template <int kTaps>
void vpass_rows(VqScaleCpu *s, int p, int row_begin, int row_end)
{
    const VqScalePlan *pl = s->plan;
    const VqScalePlanePlan &pp = pl->plane[p];
    const int taps = kTaps ? kTaps : pp.v.size;
    const int w = pp.dst_w;     /* locals: the stores below may alias the plan */
    const ptrdiff_t stride = w;
    const int bpc = pl->bpc;
    const int x86_rows = pl->mode == VQ_SCALE_BICUBIC_X86 ? pp.c_row_begin : 0;
    for (int y = row_begin; y < row_end; y++) {
        const int16_t *coef = pp.v.coef + (ptrdiff_t)y * pp.v.size;
        const ptrdiff_t first = (ptrdiff_t)pp.v.pos[y] * stride;
        if (bpc == 16) {
            const int32_t *t = s->tmp19[p].data() + first;
            uint16_t *o = (uint16_t *)s->out[p].data() + (size_t)y * w;
            for (int x = 0; x < w; x++)
                o[x] = (uint16_t)vq_scale_v_sample19(t + x, stride, coef, taps);
        } else if (bpc == 8) {
            const int16_t *t = s->tmp15[p].data() + first;
            uint8_t *o = s->out[p].data() + (size_t)y * w;
            if (y < x86_rows) {
                for (int x = 0; x < w; x++)
                    o[x] = (uint8_t)vq_scale_v_sample15(t + x, stride, coef, taps, 8, 1);
            } else {
                for (int x = 0; x < w; x++)
                    o[x] = (uint8_t)vq_scale_v_sample15(t + x, stride, coef, taps, 8, 0);
            }
        } else {
            const int16_t *t = s->tmp15[p].data() + first;
            uint16_t *o = (uint16_t *)s->out[p].data() + (size_t)y * w;
            for (int x = 0; x < w; x++)
                o[x] = (uint16_t)vq_scale_v_sample15(t + x, stride, coef, taps, bpc, 0);
        }
    }
}

}  // namespace

extern "C" int vq_scale_cpu_alloc(VqScaleCpu **ps, const VqScalePlan *plan)
{
    *ps = nullptr;
    if (!plan || plan->nplanes < 1 || plan->nplanes > 3)
        return VQ_EINVAL;
    VqScaleCpu *s = new (std::nothrow) VqScaleCpu();
    if (!s)
        return VQ_ENOMEM;
    s->plan = plan;
    try {
        for (int p = 0; p < plan->nplanes; p++) {
            const VqScalePlanePlan &pp = plan->plane[p];
            const size_t tmp_n = plan->identity ? 0 : (size_t)pp.src_h * pp.dst_w;
            if (plan->bpc == 16)
                s->tmp19[p].assign(tmp_n, 0);
            else
                s->tmp15[p].assign(tmp_n, 0);
            s->out[p].assign((size_t)pp.dst_h * pp.dst_w * sample_bytes(plan), 0);
        }
    } catch (const std::bad_alloc &) {
        delete s;
        return VQ_ENOMEM;
    }
    *ps = s;
    return 0;
}

extern "C" void vq_scale_cpu_free(VqScaleCpu *s)
{
    delete s;
}

extern "C" int vq_scale_cpu_hpass(VqScaleCpu *s, const VqPlaneView src[3], int p, int row_begin,
                                  int row_end)
{
    const VqScalePlan *pl = s->plan;
    if (p < 0 || p >= pl->nplanes)
        return VQ_EINVAL;
    const VqScalePlanePlan &pp = pl->plane[p];
    const VqPlaneView &v = src[p];
    if (!view_fits(pp, v) || row_begin < 0 || row_end > pp.src_h)
        return VQ_EINVAL;
    if (pl->identity) {
        /* the copy is the whole work */
        const int bytes = sample_bytes(pl);
        for (int i = row_begin; i < row_end; i++) {
            uint8_t *row = s->out[p].data() + (size_t)i * pp.dst_w * bytes;
            for (int j = 0; j < pp.dst_w; j++)
                store(row, bytes, j, vq_sample(v, i, j));
        }
        return 0;
    }
    if (v.step == 1 && v.bytes == 1)
        hpass_rows<1, 1>(s, v, p, row_begin, row_end);
    else if (v.step == 1)
        hpass_rows<2, 1>(s, v, p, row_begin, row_end);
    else if (v.bytes == 1)
        hpass_rows<1, 2>(s, v, p, row_begin, row_end);
    else
        hpass_rows<2, 2>(s, v, p, row_begin, row_end);
    return 0;
}

extern "C" int vq_scale_cpu_vpass(VqScaleCpu *s, int p, int row_begin, int row_end)
{
    const VqScalePlan *pl = s->plan;
    if (p < 0 || p >= pl->nplanes)
        return VQ_EINVAL;
    const VqScalePlanePlan &pp = pl->plane[p];
    if (row_begin < 0 || row_end > pp.dst_h)
        return VQ_EINVAL;
    if (pl->identity)
        return 0;
    switch (pp.v.size) {
    case 1: vpass_rows<1>(s, p, row_begin, row_end); break;
    case 2: vpass_rows<2>(s, p, row_begin, row_end); break;
    case 4: vpass_rows<4>(s, p, row_begin, row_end); break;
    case 6: vpass_rows<6>(s, p, row_begin, row_end); break;
    case 8: vpass_rows<8>(s, p, row_begin, row_end); break;
    default: vpass_rows<0>(s, p, row_begin, row_end); break;
    }
    return 0;
}

extern "C" int vq_scale_cpu_run(VqScaleCpu *s, const VqPlaneView src[3])
{
    for (int p = 0; p < s->plan->nplanes; p++) {
        int r = vq_scale_cpu_hpass(s, src, p, 0, s->plan->plane[p].src_h);
        if (r < 0)
            return r;
        r = vq_scale_cpu_vpass(s, p, 0, s->plan->plane[p].dst_h);
        if (r < 0)
            return r;
    }
    return 0;
}

extern "C" void vq_scale_cpu_output(const VqScaleCpu *s, VqPlaneView out[3])
{
    const VqScalePlan *pl = s->plan;
    const int bytes = sample_bytes(pl);
    for (int p = 0; p < 3; p++) {
        const int q = p < pl->nplanes ? p : 0;
        const VqScalePlanePlan &pp = pl->plane[q];
        VqPlaneView &v = out[p];
        v.data = s->out[q].data();
        v.pitch = (ptrdiff_t)pp.dst_w * bytes;
        v.w = pp.dst_w;
        v.h = pp.dst_h;
        v.bytes = bytes;
        v.shift = 0;
        v.step = 1;
    }
}
