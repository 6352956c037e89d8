/*
 * simd_psnr_hvs.h - psnr_hvs's block terms of a block row: a part of
 * simd_impl.h (included there, inside the instruction set's namespace; its
 * rules hold here).
 *
 * kHvsLanes blocks at a time, one per lane: each lane goes through
 * vq_psnr_hvs_block_terms's steps for its own block, in their order, so the
 * blocks' long float chains (the variance sums, the masks' energies) run side
 * by side instead of one after another.  The DCT is psnr_hvs.h's own template
 * (psnr_hvs/psnr_hvs_fdct.inc, included here) on packs of int32 lanes; the
 * float steps are those of vq_psnr_hvs_var_ratios, vq_psnr_hvs_mask and
 * vq_psnr_hvs_block_terms written lane by lane: the same conversions,
 * operations and order of each accumulator, no contraction, no lane ever
 * added into another (tests/test_checkcpu.cpp holds every term to the plain
 * twin's).
 */
constexpr int kHvsLanes = 16;

/* GCC/Clang vector types of kHvsLanes lanes: each operation lane by lane,
 * IEEE single or int32 as the scalar one (the compiler splits them into the
 * instruction set's widths) */
typedef int32_t HvsVi __attribute__((vector_size(4 * kHvsLanes)));
typedef uint32_t HvsVu __attribute__((vector_size(4 * kHvsLanes)));
typedef float HvsVf __attribute__((vector_size(4 * kHvsLanes)));

/* Every function here inlines into psnr_hvs_row, so that the vectors never
 * cross a call (whose convention would differ between the instruction sets). */

/* a pack of int32 lanes for vq_psnr_hvs_fdct8_t (a struct, so that the two
 * steps below are found for it) */
struct HvsLanes {
    HvsVi v;
};

static inline __attribute__((always_inline)) HvsLanes operator+(HvsLanes a, HvsLanes b) { return HvsLanes{ a.v + b.v }; }
static inline __attribute__((always_inline)) HvsLanes operator-(HvsLanes a, HvsLanes b) { return HvsLanes{ a.v - b.v }; }
static inline __attribute__((always_inline)) HvsLanes &operator+=(HvsLanes &a, HvsLanes b) { a.v += b.v; return a; }
static inline __attribute__((always_inline)) HvsLanes &operator-=(HvsLanes &a, HvsLanes b) { a.v -= b.v; return a; }

/* vq_psnr_hvs_unbiased_rshift and vq_psnr_hvs_lift on every lane: their
 * formulas on the vector types (unsigned add, arithmetic shift; int32
 * product, add, arithmetic shift) */
static inline __attribute__((always_inline)) HvsLanes vq_psnr_hvs_unbiased_rshift(HvsLanes a, int b)
{
    const HvsVu u = (HvsVu)a.v;
    return HvsLanes{ (HvsVi)((u >> (32 - b)) + u) >> b };
}

static inline __attribute__((always_inline)) HvsLanes vq_psnr_hvs_lift(HvsLanes t, int32_t c, int32_t r, int s)
{
    return HvsLanes{ (t.v * c + r) >> s };
}

/* the DCT's templates again, in this namespace, under this instruction set */
#include "psnr_hvs/psnr_hvs_fdct.inc"

static inline __attribute__((always_inline)) HvsVf hvs_float(HvsVi x)
{
    return __builtin_convertvector(x, HvsVf);
}

/* vq_psnr_hvs_var_ratios for one image's blocks, lane by lane */
static inline __attribute__((always_inline)) HvsVf hvs_var_ratio(const HvsLanes v[64])
{
    HvsVi qs[4] = {};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            qs[0] += v[8 * i + j].v;
            qs[2] += v[8 * i + j + 4].v;
            qs[1] += v[8 * (i + 4) + j].v;
            qs[3] += v[8 * (i + 4) + j + 4].v;
        }
    const HvsVf gmean = hvs_float(qs[0] + qs[1] + qs[2] + qs[3]) / 64.f;
    HvsVf mq[4], gvar = {}, vq[4] = {};
    for (int q = 0; q < 4; q++)
        mq[q] = hvs_float(qs[q]) / 16.f;
    for (int i = 0; i < 8; i++) {
        const int qlo = i >> 2, qhi = qlo + 2;
        for (int j = 0; j < 4; j++) {
            const HvsVf f = hvs_float(v[8 * i + j].v);
            gvar += (f - gmean) * (f - gmean);
            vq[qlo] += (f - mq[qlo]) * (f - mq[qlo]);
        }
        for (int j = 4; j < 8; j++) {
            const HvsVf f = hvs_float(v[8 * i + j].v);
            gvar += (f - gmean) * (f - gmean);
            vq[qhi] += (f - mq[qhi]) * (f - mq[qhi]);
        }
    }
    gvar *= 1 / 63.f * 64;
    for (int q = 0; q < 4; q++)
        vq[q] *= 1 / 15.f * 16;
    return gvar > 0 ? (vq[0] + vq[1] + vq[2] + vq[3]) / gvar : gvar;
}

/* vq_psnr_hvs_mask, lane by lane (the double square roots one lane at a time) */
static inline __attribute__((always_inline)) HvsVf hvs_mask(const HvsLanes a[64], const HvsLanes b[64], HvsVf ra, HvsVf rb, const float *mask)
{
    HvsVf e0 = {}, e1 = {};
    for (int k = 1; k < 64; k++) {
        e0 += hvs_float(a[k].v * a[k].v) * mask[k];
        e1 += hvs_float(b[k].v * b[k].v) * mask[k];
    }
    const HvsVf p0 = e0 * ra, p1 = e1 * rb;
    HvsVf m;
    for (int l = 0; l < kHvsLanes; l++) {
        const float ma = (float)(sqrt((double)p0[l]) / 32.0);
        const float mb = (float)(sqrt((double)p1[l]) / 32.0);
        m[l] = mb > ma ? mb : ma;
    }
    return m;
}

static void psnr_hvs_row(VqPlaneView ref, VqPlaneView dis, int by, int nbx, const float *csf,
                         const float *mask, float *terms)
{
    constexpr int L = kHvsLanes;
    const int y = by * VQ_PSNR_HVS_STEP;
    for (int b0 = 0; b0 < nbx; b0 += L) {
        const int n = nbx - b0 < L ? nbx - b0 : L;   /* lanes past the row repeat its last block */
        HvsLanes s[64], d[64];
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++)
                for (int l = 0; l < L; l++) {
                    const int x = (b0 + (l < n ? l : n - 1)) * VQ_PSNR_HVS_STEP + j;
                    s[8 * i + j].v[l] = (int32_t)vq_sample(ref, y + i, x);
                    d[8 * i + j].v[l] = (int32_t)vq_sample(dis, y + i, x);
                }
        const HvsVf rs = hvs_var_ratio(s), rd = hvs_var_ratio(d);
        vq_psnr_hvs_fdct8x8_t<HvsLanes>(s);
        vq_psnr_hvs_fdct8x8_t<HvsLanes>(d);
        const HvsVf m = hvs_mask(s, d, rs, rd, mask);
        HvsVf t[64];
        for (int k = 0; k < 64; k++) {
            const HvsVi diff = s[k].v - d[k].v;
            HvsVf err = hvs_float(diff < 0 ? -diff : diff);
            if (k != 0) {
                const HvsVf thr = m / mask[k];
                err = err < thr ? HvsVf{} : err - thr;
            }
            t[k] = (err * csf[k]) * (err * csf[k]);
        }
        for (int l = 0; l < n; l++)
            for (int k = 0; k < 64; k++)
                terms[(size_t)(b0 + l) * 64 + k] = t[k][l];
    }
}
