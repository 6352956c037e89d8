/*
 * scale_filter.cpp - swscale's bicubic filter tables and the upscaler plan.
 *
 * scale_init_filter() follows FFmpeg 7.1 libswscale/utils.c initFilter for
 * SWS_BICUBIC step by step (written from its description in docs/scale.md):
 *   1. unscaled (|inc - 2^16| < 10 and equal positions): one tap of weight
 *      fone; else 1 + 4 taps (upscale) or 1 + (4 * src + dst - 1) / dst,
 *      at most src - 2, at least 1, each weight the cubic of B and C in
 *      int64 fixed point (distance in units of 2^-30);
 *   2. shift taps off the left while their running |sum| <= 0.002 * fone
 *      (keeping positions monotonic), count taps off the right likewise,
 *      and round the largest remaining size up to the alignment;
 *   3. fold taps outside the source onto the edge samples;
 *   4. normalise to `one` with error diffusion (ROUNDED_DIV).
 * Every comparison keeps swscale's types: the cut-off test compares the
 * int64 sum, converted to double, with 0.002 * fone.
 */
#include "scale_filter.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "vq_error.h"

namespace vq {

namespace {

constexpr double kParamDefault = 123456;    /* SWS_PARAM_DEFAULT */
constexpr double kReduceCutoff = 0.002;     /* SWS_MAX_REDUCE_CUTOFF */
constexpr int kMaxFilterSize = 256;         /* SWS_MAX_FILTER_SIZE */

int64_t abs64(int64_t a) { return a >= 0 ? a : -a; }

/* av_log2 of a non-negative int: floor(log2(v | 1)) */
int log2_floor(unsigned v)
{
    int n = 0;
    v |= 1;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

/* libavutil's ROUNDED_DIV for int64 */
int64_t rounded_div(int64_t a, int64_t b)
{
    return (a >= 0 ? a + (b >> 1) : a - (b >> 1)) / b;
}

}  // namespace

ScaleFilterTable scale_init_filter(int64_t inc, int src_n, int dst_n, int align, int one,
                                   int src_pos, int dst_pos, double param0, double param1)
{
    if (src_n < 1 || dst_n < 1 || align < 1 || (align & (align - 1)))
        fail(VQ_EINVAL, "scale filter: bad sizes %d -> %d or alignment %d", src_n, dst_n, align);
    const int shift_fone = 54 - (log2_floor((unsigned)(src_n / dst_n)) < 8
                                     ? log2_floor((unsigned)(src_n / dst_n)) : 8);
    const int64_t fone = (int64_t)1 << shift_fone;
    std::vector<int32_t> pos((size_t)dst_n);
    std::vector<int64_t> filter;
    int size;

    /* ---- 1. the taps ---- */
    if (abs64(inc - 0x10000) < 10 && src_pos == dst_pos) {
        size = 1;
        filter.assign((size_t)dst_n, 0);
        for (int i = 0; i < dst_n; i++) {
            filter[(size_t)i] = fone;
            pos[(size_t)i] = i;
        }
    } else {
        const int size_factor = 4;  /* bicubic */
        if (inc <= 1 << 16)
            size = 1 + size_factor;
        else
            size = 1 + (size_factor * src_n + dst_n - 1) / dst_n;
        if (size > src_n - 2)
            size = src_n - 2;
        if (size < 1)
            size = 1;
        filter.assign((size_t)dst_n * size, 0);
        const int64_t B = (int64_t)((param0 != kParamDefault ? param0 : 0) * (1 << 24));
        const int64_t C = (int64_t)((param1 != kParamDefault ? param1 : 0.6) * (1 << 24));
        int64_t x_dst_in_src = ((dst_pos * inc) >> 7) - (((int64_t)src_pos * 0x10000LL) >> 7);
        for (int i = 0; i < dst_n; i++) {
            int xx = (int)((x_dst_in_src - (int64_t)(size - 2) * (1LL << 16)) / (1 << 17));
            pos[(size_t)i] = xx;
            for (int j = 0; j < size; j++) {
                int64_t d = abs64((int64_t)xx * (1 << 17) - x_dst_in_src) << 13;
                int64_t coeff;
                if (inc > 1 << 16)
                    d = d * dst_n / src_n;
                if (d >= 1LL << 31) {
                    coeff = 0;
                } else {
                    const int64_t dd = (d * d) >> 30;
                    const int64_t ddd = (dd * d) >> 30;
                    if (d < 1LL << 30)
                        coeff = (12 * (1 << 24) - 9 * B - 6 * C) * ddd +
                                (-18 * (1 << 24) + 12 * B + 6 * C) * dd +
                                (6 * (1 << 24) - 2 * B) * (1 << 30);
                    else
                        coeff = (-B - 6 * C) * ddd + (6 * B + 30 * C) * dd +
                                (-12 * B - 48 * C) * d + (8 * B + 24 * C) * (1 << 30);
                }
                coeff /= (1LL << 54) / fone;
                filter[(size_t)i * size + j] = coeff;
                xx++;
            }
            x_dst_in_src += 2 * inc;
        }
    }

    /* no source or destination vectors: filter2 is the filter */
    const int size2 = size;
    std::vector<int64_t> filter2 = filter;

    /* ---- 2. reduce ---- */
    int min_size = 0;
    const double cutoff_limit = kReduceCutoff * (double)fone;
    for (int i = dst_n - 1; i >= 0; i--) {
        int64_t *f = &filter2[(size_t)i * size2];
        int min = size2;
        int64_t cut = 0;
        for (int j = 0; j < size2; j++) {
            cut += abs64(f[0]);
            if ((double)cut > cutoff_limit)
                break;
            if (i < dst_n - 1 && pos[(size_t)i] >= pos[(size_t)i + 1])
                break;
            for (int k = 1; k < size2; k++)
                f[k - 1] = f[k];
            f[size2 - 1] = 0;
            pos[(size_t)i]++;
        }
        cut = 0;
        for (int j = size2 - 1; j > 0; j--) {
            cut += abs64(f[j]);
            if ((double)cut > cutoff_limit)
                break;
            min--;
        }
        if (min > min_size)
            min_size = min;
    }
    /* x86 with MMX: an unscaled vertical filter stays one tap */
    if (min_size == 1 && align == 2)
        align = 1;
    if (min_size <= 0)
        fail(VQ_EINVAL, "scale filter: empty filter");
    size = (min_size + (align - 1)) & ~(align - 1);
    if (size >= kMaxFilterSize * 16 / 24)
        fail(VQ_EINVAL, "scale filter: %d taps need swscale's cascade", size);
    filter.assign((size_t)dst_n * size, 0);
    for (int i = 0; i < dst_n; i++)
        for (int j = 0; j < size; j++)
            filter[(size_t)i * size + j] = j >= size2 ? 0 : filter2[(size_t)i * size2 + j];

    /* ---- 3. borders ---- */
    for (int i = 0; i < dst_n; i++) {
        int64_t *f = &filter[(size_t)i * size];
        int32_t &p = pos[(size_t)i];
        if (p < 0) {
            for (int j = 1; j < size; j++) {
                const int left = j + p > 0 ? j + p : 0;
                f[left] += f[j];
                f[j] = 0;
            }
            p = 0;
        }
        if (p + size > src_n) {
            const int shift = p + (size - src_n < 0 ? size - src_n : 0);
            int64_t acc = 0;
            for (int j = size - 1; j >= 0; j--)
                if (p + j >= src_n) {
                    acc += f[j];
                    f[j] = 0;
                }
            for (int j = size - 1; j >= 0; j--)
                f[j] = j < shift ? 0 : f[j - shift];
            p -= shift;
            f[src_n - 1 - p] += acc;
        }
        if (p < 0 || p >= src_n)
            fail(VQ_EINVAL, "scale filter: position %d outside the source", p);
    }

    /* ---- 4. normalise ---- */
    ScaleFilterTable t;
    t.src_n = src_n;
    t.dst_n = dst_n;
    t.size = size;
    t.pos = pos;
    t.coef.assign((size_t)dst_n * size, 0);
    for (int i = 0; i < dst_n; i++) {
        const int64_t *f = &filter[(size_t)i * size];
        int64_t sum = 0, error = 0;
        for (int j = 0; j < size; j++)
            sum += f[j];
        sum = (sum + one / 2) / one;
        if (!sum)
            sum = 1;
        for (int j = 0; j < size; j++) {
            const int64_t v = f[j] + error;
            const int iv = (int)rounded_div(v, sum);
            t.coef[(size_t)i * size + j] = (int16_t)iv;
            error = v - iv * sum;
            if (iv != 0 && pos[(size_t)i] + j >= src_n)
                fail(VQ_EINVAL,
                     "scale %d -> %d: swscale gives a tap outside the source a weight "
                     "(it reads memory past the row there)", src_n, dst_n);
        }
    }
    return t;
}

}  // namespace vq

/* ---- the plan ------------------------------------------------------------ */

namespace {

struct PlanStore {
    VqScalePlan plan;
    vq::ScaleFilterTable t[2][2];   /* [luma, chroma][h, v] */
};

int ceil_rshift(int a, int b) { return -((-a) >> b); }

void set_msg(char *msg, size_t len, const char *s)
{
    if (msg && len) {
        std::snprintf(msg, len, "%s", s);
    }
}

void check(const VqScaleFormat *s, const VqScaleFormat *d, int mode)
{
    if (!s || !d)
        vq::fail(VQ_EINVAL, "scale: no format given");
    if (mode != VQ_SCALE_BICUBIC && mode != VQ_SCALE_BICUBIC_X86)
        vq::fail(VQ_EINVAL, "scale: unknown mode %d (bicubic: 0, bicubic_x86: 1)", mode);
    if (s->bpc != d->bpc)
        vq::fail(VQ_EINVAL, "scale: the rendition has %d bits, the reference %d: only the same "
                 "bit depth is supported", s->bpc, d->bpc);
    if (s->bpc != 8 && s->bpc != 9 && s->bpc != 10 && s->bpc != 12 && s->bpc != 14 && s->bpc != 16)
        vq::fail(VQ_EINVAL, "scale: %d-bit video is not supported (8, 9, 10, 12, 14, 16)", s->bpc);
    if (s->nplanes != d->nplanes || (s->nplanes != 1 && s->nplanes != 3))
        vq::fail(VQ_EINVAL, "scale: rendition and reference must both have 1 or both 3 planes");
    if (s->nplanes == 3 && (s->log2_cw != d->log2_cw || s->log2_ch != d->log2_ch))
        vq::fail(VQ_EINVAL, "scale: the rendition's chroma subsampling (%d,%d) differs from the "
                 "reference's (%d,%d)", s->log2_cw, s->log2_ch, d->log2_cw, d->log2_ch);
    if (s->log2_cw < 0 || s->log2_cw > 2 || s->log2_ch < 0 || s->log2_ch > 2)
        vq::fail(VQ_EINVAL, "scale: chroma subsampling (%d,%d) unsupported", s->log2_cw, s->log2_ch);
    if (s->w < 1 || s->h < 1 || d->w < 1 || d->h < 1 || d->w > 32768 || d->h > 32768)
        vq::fail(VQ_EINVAL, "scale: bad size %dx%d -> %dx%d", s->w, s->h, d->w, d->h);
    if (s->w > d->w || s->h > d->h)
        vq::fail(VQ_EINVAL, "scale: the rendition (%dx%d) is larger than the reference (%dx%d) in "
                 "one direction: only upscaling is supported", s->w, s->h, d->w, d->h);
}

/* what FFmpeg's scale filter gives swscale: center chroma siting, i.e.
 * srcPos = dstPos = 128 (get_local_pos) for every plane */
constexpr int kPos = 128;
constexpr double kSwsParamDefault = 123456;  /* vf_scale leaves param0/1 at swscale's default */

void build(PlanStore *st, const VqScaleFormat *s, const VqScaleFormat *d, int mode)
{
    VqScalePlan &pl = st->plan;
    pl.bpc = s->bpc;
    pl.mode = mode;
    pl.nplanes = s->nplanes;
    pl.log2_cw = s->nplanes == 3 ? s->log2_cw : 0;
    pl.log2_ch = s->nplanes == 3 ? s->log2_ch : 0;
    pl.identity = s->w == d->w && s->h == d->h;
    const int nkind = s->nplanes == 3 ? 2 : 1;
    for (int k = 0; k < nkind; k++) {
        const int sw = k ? ceil_rshift(s->w, pl.log2_cw) : s->w;
        const int sh = k ? ceil_rshift(s->h, pl.log2_ch) : s->h;
        const int dw = k ? ceil_rshift(d->w, pl.log2_cw) : d->w;
        const int dh = k ? ceil_rshift(d->h, pl.log2_ch) : d->h;
        VqScalePlanePlan pp;
        std::memset(&pp, 0, sizeof(pp));
        pp.src_w = sw;
        pp.src_h = sh;
        pp.dst_w = dw;
        pp.dst_h = dh;
        if (!pl.identity) {
            const int64_t xinc = (((int64_t)sw << 16) + (dw >> 1)) / dw;
            const int64_t yinc = (((int64_t)sh << 16) + (dh >> 1)) / dh;
            if (xinc < 10 || yinc < 10)
                vq::fail(VQ_EINVAL, "scale: ratio out of swscale's range");
            st->t[k][0] = vq::scale_init_filter(xinc, sw, dw, 4, 1 << 14, kPos, kPos,
                                                kSwsParamDefault, kSwsParamDefault);
            st->t[k][1] = vq::scale_init_filter(yinc, sh, dh, 2, 1 << 12, kPos, kPos,
                                                kSwsParamDefault, kSwsParamDefault);
            const vq::ScaleFilterTable &th = st->t[k][0], &tv = st->t[k][1];
            pp.h = VqScaleFilter{ th.pos.data(), th.coef.data(), th.dst_n, th.size };
            pp.v = VqScaleFilter{ tv.pos.data(), tv.coef.data(), tv.dst_n, tv.size };
            if (mode == VQ_SCALE_BICUBIC_X86 && pl.bpc == 8) {
                /* luma rows >= dstH - 2 use C; chroma row r is made at luma row r << log2_ch */
                const int first = d->h - 2 > 0 ? d->h - 2 : 0;
                const int sub = k ? pl.log2_ch : 0;
                pp.c_row_begin = (first + (1 << sub) - 1) >> sub;
            }
        }
        pl.plane[k] = pp;
        if (k == 1)
            pl.plane[2] = pp;
    }
}

}  // namespace

extern "C" int vq_scale_check(const VqScaleFormat *src, const VqScaleFormat *dst, int mode,
                              char *msg, size_t msglen)
{
    try {
        check(src, dst, mode);
        return 0;
    } catch (const vq::Error &e) {
        set_msg(msg, msglen, e.what());
        return e.code();
    }
}

extern "C" int vq_scale_plan_create(VqScalePlan **plan, const VqScaleFormat *src,
                                    const VqScaleFormat *dst, int mode, char *msg, size_t msglen)
{
    *plan = nullptr;
    PlanStore *st = nullptr;
    try {
        check(src, dst, mode);
        st = new PlanStore();
        std::memset(&st->plan, 0, sizeof(st->plan));
        st->plan.store = st;
        build(st, src, dst, mode);
        *plan = &st->plan;
        return 0;
    } catch (const vq::Error &e) {
        delete st;
        set_msg(msg, msglen, e.what());
        return e.code();
    } catch (const std::bad_alloc &) {
        delete st;
        set_msg(msg, msglen, "scale: out of memory");
        return VQ_ENOMEM;
    }
}

extern "C" void vq_scale_plan_free(VqScalePlan *plan)
{
    if (plan)
        delete static_cast<PlanStore *>(plan->store);
}
