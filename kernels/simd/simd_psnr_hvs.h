/*
 * simd_psnr_hvs.h - psnr_hvs's block terms of a block row: a part of
 * simd_impl.h (included there, inside the instruction set's namespace; its
 * rules hold here).
 *
 * kHvsLanes blocks at a time, one per lane: each lane goes through
 * vq_psnr_hvs_block_terms's steps for its own block, in their order, so the
 * blocks' long float chains (the variance sums, the masks' energies) run side
 * by side instead of one after another.  The steps are psnr_hvs.h's own
 * templates (psnr_hvs/psnr_hvs_block.inc, included here) on packs of int32
 * lanes and vectors of floats; only the loads, the masks' double square
 * roots (lane by lane, vq_psnr_hvs_mask_of) and the stores are this file's
 * (tests/test_checkcpu.cpp holds every term to the plain twin's).
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

/* a pack of int32 lanes for the templates (a struct, so that the element
 * steps below are found for it) */
struct HvsLanes {
    HvsVi v;
};

static inline __attribute__((always_inline)) HvsLanes operator+(HvsLanes a, HvsLanes b) { return HvsLanes{ a.v + b.v }; }
static inline __attribute__((always_inline)) HvsLanes operator-(HvsLanes a, HvsLanes b) { return HvsLanes{ a.v - b.v }; }
static inline __attribute__((always_inline)) HvsLanes &operator+=(HvsLanes &a, HvsLanes b) { a.v += b.v; return a; }
static inline __attribute__((always_inline)) HvsLanes &operator-=(HvsLanes &a, HvsLanes b) { a.v -= b.v; return a; }
static inline __attribute__((always_inline)) HvsLanes operator*(HvsLanes a, HvsLanes b) { return HvsLanes{ a.v * b.v }; }

/* the element steps of psnr_hvs_block.inc on every lane: the scalar
 * versions' formulas on the vector types (vq_psnr_hvs_unbiased_rshift:
 * unsigned add, arithmetic shift; vq_psnr_hvs_lift: int32 product, add,
 * arithmetic shift; int32 -> float conversions, rounding to nearest) */
static inline __attribute__((always_inline)) HvsLanes vq_psnr_hvs_unbiased_rshift(HvsLanes a, int b)
{
    const HvsVu u = (HvsVu)a.v;
    return HvsLanes{ (HvsVi)((u >> (32 - b)) + u) >> b };
}

static inline __attribute__((always_inline)) HvsLanes vq_psnr_hvs_lift(HvsLanes t, int32_t c, int32_t r, int s)
{
    return HvsLanes{ (t.v * c + r) >> s };
}

static inline __attribute__((always_inline)) HvsVf vq_psnr_hvs_to_float(HvsLanes x)
{
    return __builtin_convertvector(x.v, HvsVf);
}

static inline __attribute__((always_inline)) HvsVf vq_psnr_hvs_abs_float(HvsLanes d)
{
    return __builtin_convertvector(d.v < 0 ? -d.v : d.v, HvsVf);
}

/* the block's templates again, in this namespace, under this instruction set */
#include "psnr_hvs/psnr_hvs_block.inc"

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
        const HvsVf rs = vq_psnr_hvs_var_ratio_t<HvsLanes, HvsVf>(s);
        const HvsVf rd = vq_psnr_hvs_var_ratio_t<HvsLanes, HvsVf>(d);
        vq_psnr_hvs_fdct8x8_t<HvsLanes>(s);
        vq_psnr_hvs_fdct8x8_t<HvsLanes>(d);
        HvsVf e[2], m;
        vq_psnr_hvs_mask_energies_t<HvsLanes, HvsVf>(s, d, mask, e);
        for (int l = 0; l < L; l++)
            m[l] = vq_psnr_hvs_mask_of(e[0][l], e[1][l], rs[l], rd[l]);
        HvsVf t[64];
        for (int k = 0; k < 64; k++)
            t[k] = vq_psnr_hvs_term_t<HvsLanes, HvsVf>(s[k] - d[k], m, k, csf, mask);
        for (int l = 0; l < n; l++)
            for (int k = 0; k < 64; k++)
                terms[(size_t)(b0 + l) * 64 + k] = t[k][l];
    }
}
