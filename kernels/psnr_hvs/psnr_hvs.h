/*
 * psnr_hvs.h - the arithmetic of libvmaf v3.2.0's "psnr_hvs" extractor
 * (src/feature/third_party/xiph/psnr_hvs.c, Daala's PSNR-HVS-M), written
 * once for the CPU executor and the CUDA kernels.  docs/psnr_hvs.md has the
 * full account; in short, per plane:
 *
 *   blocks:  8x8 windows at (x, y) = (7 bx, 7 by), x < w - 7, y < h - 7
 *            (step 7: neighbouring windows overlap by one sample), raster order.
 *   block:   int32 samples; float means and variances of the block and its
 *            four 4x4 quadrants (raster order, float accumulators); Daala's
 *            integer lifting fDCT 8x8; a float contrast mask from the AC
 *            energies; 64 float terms t[k] = (err_k * csf_k)^2 in raster
 *            order (err_k the masked |DCT difference|).
 *   plane:   ret += t, one float accumulator over every term of every block
 *            in that order  (this file: vq_psnr_hvs_block_terms gives the
 *            terms; the sum is the executors' job, see psnr_hvs_exec.h).
 *
 * The reference adds each term straight into the plane's single float, so
 * no per-block partial sum can stand in for the terms.  A sequential float
 * sum can still be split up exactly: while the running sum s stays inside
 * one binade [2^E, 2^(E+1)), fl(s + t) is s plus t rounded to a multiple of
 * s's ulp, so the sum is an integer prefix sum (vq_psnr_hvs_fsum_split);
 * only binade changes and exact ties need a real float add.  The CUDA
 * executor sums that way; tests/test_psnr_hvs.cpp holds it to the plain
 * sequential sum.
 *
 * Only +, -, *, / of floats and doubles, int->float conversion and one
 * double sqrt (all IEEE correctly rounded on both sides) appear here.
 */
#ifndef VQ_PSNR_HVS_H
#define VQ_PSNR_HVS_H

#include <math.h>
#include <string.h>

#include "vq_common.h"

#if defined(__CUDACC__)
#define VQ_PHVS_UNROLL _Pragma("unroll")
#else
#define VQ_PHVS_UNROLL
#endif

#define VQ_PSNR_HVS_STEP 7          /* block stride in samples (blocks are 8x8) */
#define VQ_PSNR_HVS_MIN_PLANE 8     /* a plane needs one whole block each way */
#define VQ_PSNR_HVS_MAX_BPC 12      /* init(): "bpc must be less than or equal to 12" */

/* Blocks along a plane side of n samples: positions 0, 7, 14, ... < n - 7. */
VQ_HD int vq_psnr_hvs_nblocks(int n)
{
    return n < VQ_PSNR_HVS_MIN_PLANE ? 0 : (n - VQ_PSNR_HVS_MIN_PLANE) / VQ_PSNR_HVS_STEP + 1;
}

/* The per-plane tables: csf as the reference's float tables hold it, and its
 * mask = (float)((csf * K) * (csf * K)) with csf promoted to double,
 * K = 0.3885746225901003.  Plane 0: csf_y; planes 1, 2: csf_cb420, csf_cr420
 * (used for every chroma layout, 4:2:0 or not).  Index k = 8 i + j: row
 * (vertical frequency) i, column (horizontal frequency) j. */
typedef struct VqPsnrHvsTables {
    float csf[3][64];
    float mask[3][64];
} VqPsnrHvsTables;

#define VQ_PSNR_HVS_MASK_SCALE 0.3885746225901003

/*
 * Fills t (host only).  The three tables are symmetric (csf[i][j] ==
 * csf[j][i]); the data below are their upper triangles, row by row, as the
 * decimal literals the reference initialises its float arrays with (a
 * test compares them with the reference's source when it is at hand).
 */
static inline void vq_psnr_hvs_tables_init(VqPsnrHvsTables *t)
{
    static const double upper[3][36] = {
        { /* csf_y */
          1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411, 1.00227514334, 0.678296995242,
          0.466224900598, 0.3265091542,
          1.94321815382, 2.04793073064, 1.68731108984, 1.2305666963, 0.868920337363, 0.61280991668,
          0.436405793551,
          1.34329019223, 1.09205635862, 0.875748795257, 0.670882927016, 0.501731932449,
          0.372504254596,
          0.772819797575, 0.605636379554, 0.48309405692, 0.380429446972, 0.295774038565,
          0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204,
          0.27032073436, 0.215017739696, 0.17408067321,
          0.168869545842, 0.136153931001,
          0.109083846276 },
        { /* csf_cb420 */
          1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193, 1.05017074788, 0.898018824055,
          0.74725392039, 0.615105596242,
          1.58529308355, 1.21363250036, 1.38190029285, 1.33100189972, 1.17428548929, 0.996404342439,
          0.830890433625,
          0.978712413627, 1.02624506078, 1.03145147362, 0.960060382087, 0.849823426169,
          0.731221236837,
          0.861317501629, 0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374,
          0.676555426187, 0.605503172737, 0.55002013668, 0.495804539034,
          0.514674450957, 0.454353482512, 0.407050308965,
          0.389234902883, 0.342353999733,
          0.295530605237 },
        { /* csf_cr420 */
          2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803, 1.01397751469, 0.867069376285,
          0.721500455585, 0.593906509971,
          1.69112867013, 1.17180569821, 1.3342742857, 1.28513006198, 1.13381474809, 0.962064122248,
          0.802254508198,
          0.944981930573, 0.990876405848, 0.995903384143, 0.926972725286, 0.820534991409,
          0.706020324706,
          0.831632933426, 0.77418706195, 0.725539939514, 0.661776842059, 0.587716619023,
          0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273,
          0.496936637883, 0.438694579826, 0.393021669543,
          0.375820256136, 0.330555063063,
          0.285345396658 },
    };
    for (int p = 0; p < 3; p++) {
        int n = 0;
        for (int i = 0; i < 8; i++)
            for (int j = i; j < 8; j++, n++) {
                /* a double literal stored into a float array: one rounding */
                const float c = (float)upper[p][n];
                t->csf[p][i * 8 + j] = t->csf[p][j * 8 + i] = c;
            }
        for (int k = 0; k < 64; k++) {
            const double a = (double)t->csf[p][k] * VQ_PSNR_HVS_MASK_SCALE;
            t->mask[p][k] = (float)(a * a);
        }
    }
}

/* ---- Daala's integer fDCT ---------------------------------------------- */

/* (a + (a < 0 ? 2^b - 1 : 0)) >> b for b in 1..31, in the reference's form:
 * the top b bits of a, as unsigned, added before an arithmetic shift. */
VQ_HD int32_t vq_psnr_hvs_unbiased_rshift(int32_t a, int b)
{
    return (int32_t)(((uint32_t)a >> (32 - b)) + (uint32_t)a) >> b;
}

/* (t * c + r) >> s in int32: one lifting step's rounded product. */
VQ_HD int32_t vq_psnr_hvs_lift(int32_t t, int32_t c, int32_t r, int s)
{
    return (t * c + r) >> s;
}

/* int32 -> float (exact for the sums and squares here, below 2^24) and
 * |d| -> float: the element steps of psnr_hvs_block.inc for int32_t */
VQ_HD float vq_psnr_hvs_to_float(int32_t x)
{
    return (float)x;
}

VQ_HD float vq_psnr_hvs_abs_float(int32_t d)
{
    return (float)(d < 0 ? -d : d);
}

/* a block's steps as templates on the element types (the CPU's SIMD twin
 * runs them on its lanes): od_bin_fdct8, od_bin_fdct8x8, the variance ratio,
 * the masks' energies, the terms */
#include "psnr_hvs_block.inc"

VQ_HD void vq_psnr_hvs_fdct8(int32_t y[8], const int32_t *x, int s)
{
    vq_psnr_hvs_fdct8_t<int32_t>(y, x, s);
}

/* od_bin_fdct8x8 (psnr_hvs_block.inc) */
VQ_HD void vq_psnr_hvs_fdct8x8(int32_t b[64])
{
    vq_psnr_hvs_fdct8x8_t<int32_t>(b);
}

/* ---- one block ---------------------------------------------------------- */

/* quadrant of sample (i, j): ((i & 12) >> 2) + ((j & 12) >> 1) */
VQ_HD int vq_psnr_hvs_quadrant(int i, int j)
{
    return ((i & 12) >> 2) + ((j & 12) >> 1);
}

/* The variance ratios of the two images' blocks (a: reference, b:
 * distorted): vq_psnr_hvs_var_ratio_t (psnr_hvs_block.inc) of each. */
VQ_HD void vq_psnr_hvs_var_ratios(const int32_t a[64], const int32_t b[64], float r[2])
{
    r[0] = vq_psnr_hvs_var_ratio_t<int32_t, float>(a);
    r[1] = vq_psnr_hvs_var_ratio_t<int32_t, float>(b);
}

/* The contrast mask of the two transformed blocks: for each, sqrt(E * r) / 32
 * with E its energy (vq_psnr_hvs_mask_energies_t), the sqrt in double as the
 * reference's sqrt(), the quotient rounded to float; returns the larger of
 * the two (the reference's `if (d_mask > s_mask) s_mask = d_mask`). */
VQ_HD float vq_psnr_hvs_mask_of(float ea, float eb, float ra, float rb)
{
    const float ma = (float)(sqrt((double)(ea * ra)) / 32.0);
    const float mb = (float)(sqrt((double)(eb * rb)) / 32.0);
    return mb > ma ? mb : ma;
}

VQ_HD float vq_psnr_hvs_mask(const int32_t a[64], const int32_t b[64], const float r[2],
                             const float *mask)
{
    float e[2];
    vq_psnr_hvs_mask_energies_t<int32_t, float>(a, b, mask, e);
    return vq_psnr_hvs_mask_of(e[0], e[1], r[0], r[1]);
}

/*
 * The 64 terms of the block at (x, y) of one plane, in the order the
 * reference adds them into its plane sum: t[k] = (err * csf[k])^2 with
 * err = |dct_ref[k] - dct_dis[k]| and, for k > 0, err reduced by
 * m / mask[k] (clamped at 0), m the larger of the two images' masks.
 */
VQ_HD void vq_psnr_hvs_block_terms(const VqPlaneView ref, const VqPlaneView dis, int y, int x,
                                   const float *csf, const float *mask, float t[64])
{
    int32_t s[64], d[64];
    VQ_PHVS_UNROLL
    for (int i = 0; i < 8; i++) {
        VQ_PHVS_UNROLL
        for (int j = 0; j < 8; j++) {
            s[i * 8 + j] = (int32_t)vq_sample(ref, y + i, x + j);
            d[i * 8 + j] = (int32_t)vq_sample(dis, y + i, x + j);
        }
    }
    float ratio[2];
    vq_psnr_hvs_var_ratios(s, d, ratio);
    vq_psnr_hvs_fdct8x8(s);
    vq_psnr_hvs_fdct8x8(d);
    const float m = vq_psnr_hvs_mask(s, d, ratio, mask);
    VQ_PHVS_UNROLL
    for (int k = 0; k < 64; k++)
        t[k] = vq_psnr_hvs_term_t<int32_t, float>(s[k] - d[k], m, k, csf, mask);
}

/* ---- the plane sum, split at binades ------------------------------------ */

/*
 * A running float sum s >= 0 in a normal binade is (E, K): s = K * 2^(E-23),
 * K in [2^23, 2^24).  While s + t < 2^(E+1), fl(s + t) = (K + d) * 2^(E-23)
 * where d is t / 2^(E-23) rounded to the nearest integer (t >= 0; a tie,
 * fraction exactly 1/2, goes to the even K + d and so depends on K: such a
 * term is a "stop").  split() gives d for term bits tb under binade E, or
 * -1 for a stop: a tie, or a term of 2^(E+2) or more (d could not be
 * exact, and the sum leaves the binade anyway).  Zero terms give 0.
 *
 * The caller adds d's in order while K + (sum of d) < 2^24; the first term
 * that reaches 2^24, or a stop, is added as a real float add
 * fl(K * 2^(E-23) + t), and the sum goes on from the new s.  While s is 0
 * (or subnormal: "exact" mode) every nonzero term is a stop.
 */
#define VQ_PSNR_HVS_K_END (1 << 24)

/* The CUDA sum's shape (cuda_psnr_hvs.cu; tests/test_psnr_hvs.cpp replays
 * it): 32 warps, each taking a segment of 32 lanes x 16 terms of a chunk. */
#define VQ_PSNR_HVS_SUM_WARPS 32
#define VQ_PSNR_HVS_SUM_PER_LANE 16
/* After this many chunks in a row that ended early at a stop that left the
 * binade unchanged (ties in numbers), the next chunk's terms are added one
 * by one.  (Other early ends move E up: a few dozen per plane at most.) */
#define VQ_PSNR_HVS_SUM_MAX_RESTARTS 32

VQ_HD int32_t vq_psnr_hvs_fsum_split(uint32_t tb, int E)
{
    if (tb == 0)
        return 0;
    const int eb = (int)(tb >> 23);                  /* t >= 0: no sign bit */
    const int et = eb ? eb - 127 : -126;
    const int32_t M = (int32_t)((tb & 0x7fffffu) | (eb ? 0x800000u : 0u));   /* t = M 2^(et-23) */
    const int sh = et - E;                           /* t / ulp = M 2^sh */
    if (sh >= 2)
        return -1;
    if (sh >= 0)
        return M << sh;                              /* < 2^25: exact */
    const int r = -sh;
    if (r >= 25)
        return 0;                                    /* t / ulp < 1/2 */
    const int32_t rem = M & ((1 << r) - 1), half = 1 << (r - 1);
    if (rem == half)
        return -1;                                   /* tie */
    return (M >> r) + (rem > half);
}

/* s's binade: E, and K (0 when s is 0 or subnormal: exact mode). */
VQ_HD int vq_psnr_hvs_fsum_binade(uint32_t sb, int32_t *K)
{
    const int eb = (int)(sb >> 23);
    *K = eb ? (int32_t)((sb & 0x7fffffu) | 0x800000u) : 0;
    return eb - 127;
}

/* The float K * 2^(E-23) for K in [2^23, 2^24] (2^24 gives 2^(E+1)). */
VQ_HD uint32_t vq_psnr_hvs_fsum_join(int E, int64_t K)
{
    return ((uint32_t)(E + 126) << 23) + (uint32_t)K;
}

/*
 * The chunk tables of the CUDA sum (its fast path).  Under a fixed binade E
 * a term is a map of K's parity: K + a[K & 1], where a[0] = a[1] = d for a
 * term that is not a tie, and for a tie (t / ulp = f + 1/2) a[p] = f + 1 if
 * p + f is odd (the even K + f + 1), else f.  Maps compose in order
 * (vq_psnr_hvs_fsum_compose), so a chunk of terms is one map, computed for
 * each binade the chunk may start in, by the whole GPU at once.  A chunk
 * whose map, applied to the K it starts with, stays below 2^24 is added
 * exactly in one step: every increment is >= 0, so no term before its end
 * left the binade, and each was rounded as the map says.  Increments are
 * saturated at VQ_PSNR_HVS_TAB_CAP (2^24: whatever K is, the binade is left).
 * A chunk of zero terms only (identical blocks) leaves any sum as it is,
 * 0 included: a flag of its own.
 */
#define VQ_PSNR_HVS_TAB_CAP (1 << 24)
#define VQ_PSNR_HVS_TAB_NE 3                  /* binades per chunk: e0 .. e0 + 2 */
#define VQ_PSNR_HVS_TAB_STRIDE 8              /* int32 per chunk: e0, a[0] and a[1] per binade, zero */
#define VQ_PSNR_HVS_TAB_ZERO 7                /* index of the flag: every term of the chunk is 0 */
#define VQ_PSNR_HVS_TAB_NONE (-100000)        /* e0 of a chunk without a fast path */

VQ_HD void vq_psnr_hvs_fsum_step(uint32_t tb, int E, int32_t a[2])
{
    a[0] = a[1] = 0;
    if (tb == 0)
        return;
    const int eb = (int)(tb >> 23);
    const int et = eb ? eb - 127 : -126;
    const int32_t M = (int32_t)((tb & 0x7fffffu) | (eb ? 0x800000u : 0u));
    const int sh = et - E;
    if (sh >= 1) {                                   /* t / ulp >= 2^24 */
        a[0] = a[1] = VQ_PSNR_HVS_TAB_CAP;
        return;
    }
    if (sh == 0) {
        a[0] = a[1] = M;
        return;
    }
    const int r = -sh;
    if (r >= 25)
        return;                                      /* t / ulp < 1/2 */
    const int32_t rem = M & ((1 << r) - 1), half = 1 << (r - 1), f = M >> r;
    if (rem == half) {                               /* tie: to the even K + d */
        a[0] = f + (f & 1);
        a[1] = f + ((f + 1) & 1);
    } else {
        a[0] = a[1] = f + (rem > half);
    }
}

/* a := a, then b (a's terms come first). */
VQ_HD void vq_psnr_hvs_fsum_compose(int32_t a[2], const int32_t b[2])
{
    int32_t r[2];
    for (int p = 0; p < 2; p++) {
        const int32_t x = a[p] + b[(p + a[p]) & 1];  /* <= 2^25 */
        r[p] = x < VQ_PSNR_HVS_TAB_CAP ? x : VQ_PSNR_HVS_TAB_CAP;
    }
    a[0] = r[0];
    a[1] = r[1];
}

/* The first binade the table of a chunk holds, from an estimate P of the
 * sum of the terms before it (any order: it only chooses which binades are
 * tabled, never a result): the binade of P, less one. */
VQ_HD int vq_psnr_hvs_tab_e0(double P)
{
    if (!(P > 0))
        return VQ_PSNR_HVS_TAB_NONE;
    const int eb = (int)((vq_f64_bits(P) >> 52) & 0x7ff);
    if (eb == 0 || eb == 0x7ff)
        return VQ_PSNR_HVS_TAB_NONE;
    return eb - 1023 - 1;
}

#endif /* VQ_PSNR_HVS_H */
