/*
 * simd_impl.h - the SIMD twins of the CPU executor's hot loops, written as
 * straight loops over columns (structure of arrays, tap loops outside the
 * column loops) that the compiler vectorises for the instruction set it is
 * included under (simd/cpu_simd_x86.cpp includes this file once per ISA,
 * each time inside its own namespace and #pragma GCC target).
 *
 * Exactness: every step keeps the plain loops' integer types, widths and
 * roundings (the per-element formulas are those of vif.h, adm.h, motion.h,
 * psnr.h; integer sums are exact in any order), and every double step is
 * the VQ_HD function itself (vq_vif_accumulate, vq_adm_pixel_cm_in), called
 * per pixel in the plain order.  No system header may be included here.
 */

constexpr int kCols = 256;  /* output columns per chunk */

/* reflected-column fill of a chunk: t <-> column base + t, computed for
 * [t0, t1), every other t in [0, n) copied from the reflected column */
template <typename V>
static inline void reflect_fill(V *a, int base, int t0, int t1, int n, int w)
{
    for (int t = 0; t < t0; t++)
        a[t] = a[vq_reflect101(base + t, w) - base];
    for (int t = t1; t < n; t++)
        a[t] = a[vq_reflect101(base + t, w) - base];
}

/*
 * vq_vif_accumulate over n pixels in two loops: the first (vectorised)
 * computes every pixel's sigmas and double steps in vif.h's order, with a
 * lane's result replaced by 0 where the plain code would not compute it
 * (so no conversion ever sees an out-of-range double); the second does the
 * table look-ups and sums.
 */
__attribute__((noinline)) static void vif_decide_sums(const int32_t *__restrict s1, const int32_t *__restrict s2,
                                                      const int32_t *__restrict sv, const double *__restrict tmp,
                                                      const uint8_t *__restrict lg, int n,
                                                      const uint16_t *__restrict log2_table, int64_t *acc);

__attribute__((noinline)) static void vif_decide(const uint32_t *__restrict mu1, const uint32_t *__restrict mu2,
                                                 const uint32_t *__restrict hxx, const uint32_t *__restrict hyy,
                                                 const uint32_t *__restrict hxy, int n,
                                                 const uint16_t *log2_table, double egl, int64_t *acc)
{
    alignas(64) int32_t s1[kCols], s2[kCols], sv[kCols];
    alignas(64) double tmp[kCols];
    alignas(64) uint8_t lg[kCols];
    const double eps = 65536 * 1.0e-10;
    for (int j = 0; j < n; j++) {
        const uint32_t xx = hxx[j], yy = hyy[j], xy = hxy[j];
        const int32_t sigma1_sq = (int32_t)(xx - vq_vif_mu_product(mu1[j], mu1[j]));
        const int32_t sigma12 = (int32_t)(xy - vq_vif_mu_product(mu1[j], mu2[j]));
        int32_t sigma2_sq = (int32_t)(yy - vq_vif_mu_product(mu2[j], mu2[j]));
        sigma2_sq = sigma2_sq < 0 ? 0 : sigma2_sq;
        const int big = sigma1_sq >= VQ_VIF_SIGMA_NSQ;
        const int num = big & (sigma12 > 0) & (sigma2_sq > 0);
        double g = vq_vif_ddiv((double)sigma12, vq_vif_dadd((double)sigma1_sq, eps));
        const double svd = vq_vif_dsub((double)sigma2_sq, vq_vif_dmul(g, (double)sigma12));
        const double svc = (num & (svd > 0.0)) ? svd : 0.0;
        g = g < egl ? g : egl;
        /* (int64) of it in the second loop: AVX2 has no double -> int64 */
        tmp[j] = num ? vq_vif_dmul(vq_vif_dmul(g, g), (double)sigma1_sq) : 0.0;
        s1[j] = sigma1_sq;
        s2[j] = sigma2_sq;
        sv[j] = (int32_t)svc;
        lg[j] = (uint8_t)(big + num);
    }
    vif_decide_sums(s1, s2, sv, tmp, lg, n, log2_table, acc);
}

#ifdef VQ_SIMD_X86_AVX512
/*
 * log2_hi[idx] for 16 indices in 0..32767: each a 32-bit gather of the
 * entry's aligned pair (so nothing past the table's end is read), the half
 * picked by the index's low bit.
 */
static inline __m512i vif_log2_gather16(const uint16_t *log2_hi, __m512i idx)
{
    const __m512i pair = _mm512_i32gather_epi32(_mm512_srli_epi32(idx, 1), (const void *)log2_hi, 4);
    const __m512i half = _mm512_slli_epi32(_mm512_and_si512(idx, _mm512_set1_epi32(1)), 4);
    return _mm512_and_si512(_mm512_srlv_epi32(pair, half), _mm512_set1_epi32(0xffff));
}

/* 2048 * log2 from the normalised x >> k (in 32768..65535) and k, 16 lanes:
 * the table entry plus 2048 k, as vq_vif_log2_32 and _64 end */
static inline __m512i vif_log2_entry16(const uint16_t *log2_hi, __m512i xs, __m512i k)
{
    return _mm512_add_epi32(vif_log2_gather16(log2_hi, _mm512_sub_epi32(xs, _mm512_set1_epi32(VQ_VIF_LOG2_HI))),
                            _mm512_slli_epi32(k, 11));
}

/* vq_vif_log2_32 on 16 lanes (every x >= 2^17); for x < 2^32 it equals
 * vq_vif_log2_64 (48 - clz64 = 16 - clz32) */
static inline __m512i vif_log2_32x16(const uint16_t *log2_hi, __m512i x)
{
    const __m512i k = _mm512_sub_epi32(_mm512_set1_epi32(16), _mm512_lzcnt_epi32(x));
    return vif_log2_entry16(log2_hi, _mm512_srlv_epi32(x, k), k);
}

/* two vectors of 8 int64 lanes (each below 2^31) as 16 int32 lanes, in order */
static inline __m512i vif_narrow16(__m512i lo, __m512i hi)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)), _mm512_cvtepi64_epi32(hi), 1);
}

/* vq_vif_log2_64 on 16 lanes given as two of 8 (every x >= 2^17), as int32:
 * x >> k is below 2^16 and k below 48, so both narrow to 32 bits */
static inline __m512i vif_log2_64x16(const uint16_t *log2_hi, __m512i xlo, __m512i xhi)
{
    const __m512i k48 = _mm512_set1_epi64(48);
    const __m512i klo = _mm512_sub_epi64(k48, _mm512_lzcnt_epi64(xlo));
    const __m512i khi = _mm512_sub_epi64(k48, _mm512_lzcnt_epi64(xhi));
    return vif_log2_entry16(log2_hi, vif_narrow16(_mm512_srlv_epi64(xlo, klo), _mm512_srlv_epi64(xhi, khi)),
                            vif_narrow16(klo, khi));
}

/*
 * The loop below on 16 pixels at a time: the same terms, masked where the
 * plain code masks them.  The log terms of one call (n <= kCols pixels,
 * each term below 2^17) are summed in int32 lanes, the non-log sums in
 * int64 lanes; integer sums, so their order does not matter.  Returns the
 * pixels done (a multiple of 16).
 */
static inline int vif_decide_sums_avx512(const int32_t *__restrict s1, const int32_t *__restrict s2,
                                         const int32_t *__restrict sv, const double *__restrict tmp,
                                         const uint8_t *__restrict lg, int n, const uint16_t *log2_hi,
                                         int64_t sums[4])
{
    const __m512i nsq = _mm512_set1_epi32(VQ_VIF_SIGMA_NSQ), den_bias = _mm512_set1_epi32(2048 * 17);
    __m512i den_log = _mm512_setzero_si512(), num_log = den_log, nnl = den_log;
    int64_t den_non_log = 0;
    int j = 0;
    for (; j + 16 <= n; j += 16) {
        const __mmask16 big = _mm_cmpneq_epi8_mask(_mm_loadu_si128((const __m128i *)(lg + j)), _mm_setzero_si128());
        const __m512i x32 = _mm512_add_epi32(_mm512_maskz_loadu_epi32(big, s1 + j), nsq);
        den_log = _mm512_mask_add_epi32(den_log, big, den_log,
                                        _mm512_sub_epi32(vif_log2_32x16(log2_hi, x32), den_bias));
        const __m512i numer1 = _mm512_add_epi32(_mm512_loadu_si512((const void *)(sv + j)), nsq);
        const __m512i n1lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(numer1));
        const __m512i n1hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(numer1, 1));
        const __m512i xlo = _mm512_add_epi64(_mm512_cvttpd_epi64(_mm512_loadu_pd(tmp + j)), n1lo);
        const __m512i xhi = _mm512_add_epi64(_mm512_cvttpd_epi64(_mm512_loadu_pd(tmp + j + 8)), n1hi);
        const __m512i l64 = vif_log2_64x16(log2_hi, xlo, xhi);
        num_log = _mm512_add_epi32(num_log, _mm512_sub_epi32(l64, vif_log2_32x16(log2_hi, numer1)));
        const __m512i s2n = _mm512_maskz_loadu_epi32((__mmask16)~big, s2 + j);
        nnl = _mm512_add_epi64(nnl, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(s2n)));
        nnl = _mm512_add_epi64(nnl, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(s2n, 1)));
        den_non_log += 16 - __builtin_popcount((unsigned)big);
    }
    sums[0] += _mm512_reduce_add_epi32(num_log);
    sums[1] += _mm512_reduce_add_epi32(den_log);
    sums[2] += _mm512_reduce_add_epi64(nnl);
    sums[3] += den_non_log;
    return j;
}
#endif

/*
 * The second loop of vif_decide: table look-ups and sums, branch-free (a
 * term the plain code skips is masked to 0, or is log2(x) - log2(x): tmp is
 * 0.0 where the plain code does not add it), in its own function so that
 * the sums stay in registers.
 */
__attribute__((noinline)) static void vif_decide_sums(const int32_t *__restrict s1, const int32_t *__restrict s2,
                                                      const int32_t *__restrict sv, const double *__restrict tmp,
                                                      const uint8_t *__restrict lg, int n,
                                                      const uint16_t *__restrict log2_table, int64_t *acc)
{
    int64_t num_log = 0, den_log = 0, num_non_log = 0, den_non_log = 0;
    const uint16_t *log2_hi = log2_table + VQ_VIF_LOG2_HI;   /* what vq_vif_log2_* index */
    int j = 0;
#ifdef VQ_SIMD_X86_AVX512
    {
        int64_t sums[4] = { 0, 0, 0, 0 };
        j = vif_decide_sums_avx512(s1, s2, sv, tmp, lg, n, log2_hi, sums);
        num_log = sums[0];
        den_log = sums[1];
        num_non_log = sums[2];
        den_non_log = sums[3];
    }
#endif
    for (; j < n; j++) {
        const uint32_t big = lg[j] != 0, mask = 0u - big;
        const uint32_t x32 = ((uint32_t)s1[j] & mask) + VQ_VIF_SIGMA_NSQ;
        den_log += (int32_t)((uint32_t)(vq_vif_log2_32(log2_hi, x32) - 2048 * 17) & mask);
        const uint32_t numer1 = (uint32_t)sv[j] + VQ_VIF_SIGMA_NSQ;
        const uint64_t x64 = (uint64_t)((int64_t)tmp[j] + numer1);
        num_log += vq_vif_log2_64(log2_hi, x64) - vq_vif_log2_32(log2_hi, numer1);   /* numer1 < 2^32 */
        num_non_log += (uint32_t)s2[j] & ~mask;
        den_non_log += 1 - big;
    }
    acc[VQ_VIF_NUM_LOG] += num_log;
    acc[VQ_VIF_DEN_LOG] += den_log;
    acc[VQ_VIF_NUM_NON_LOG] += num_non_log;
    acc[VQ_VIF_DEN_NON_LOG] += den_non_log;
}

#ifdef VQ_SIMD_X86_AVX2
/*
 * Scale 0, 8-bit, V::N columns at a time with vpmaddwd on rows paired
 * (0,1) (2,3) ... (16, a tap-0 copy of 16): taps are below 2^15 and samples
 * below 2^8, so each 16-bit product pair is exact in int32.  The squares and
 * the product (below 2^16) enter as sq - 2^15 in int16; the taps sum to
 * 2^16, so the int32 lane holds sum(tap * sq) - 2^31 mod 2^32, and adding
 * 2^31 gives the uint32 sum of the plain code (< 2^32).  Within each 128-bit
 * lane the unpacks pair columns 8L..8L+3 ("lo") and 8L+4..8L+7 ("hi");
 * V::store puts them back in column order.  V: the vector width's
 * operations (VifVert8Avx2: 16 columns, VifVert8Avx512: 32).  Starts at
 * column t0 and returns the columns done (t0 plus a multiple of V::N); the
 * caller does the rest.
 */
struct VifVert8Avx2 {
    using R = __m256i;
    static constexpr int N = 16;
    static R set32(uint32_t v) { return _mm256_set1_epi32((int)v); }
    static R set16(uint16_t v) { return _mm256_set1_epi16((short)v); }
    static R zero() { return _mm256_setzero_si256(); }
    static R load(const uint8_t *p) { return _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p)); }
    static R madd(R a, R b) { return _mm256_madd_epi16(a, b); }
    static R unlo(R a, R b) { return _mm256_unpacklo_epi16(a, b); }
    static R unhi(R a, R b) { return _mm256_unpackhi_epi16(a, b); }
    static R mul16(R a, R b) { return _mm256_mullo_epi16(a, b); }
    static R xor_(R a, R b) { return _mm256_xor_si256(a, b); }
    static R add32(R a, R b) { return _mm256_add_epi32(a, b); }
    static R shr32(R a, int n) { return _mm256_srli_epi32(a, n); }
    static void store(uint32_t *dst, R lo, R hi)
    {
        _mm256_storeu_si256((__m256i *)dst, _mm256_permute2x128_si256(lo, hi, 0x20));
        _mm256_storeu_si256((__m256i *)(dst + 8), _mm256_permute2x128_si256(lo, hi, 0x31));
    }
};

#ifdef VQ_SIMD_X86_AVX512
struct VifVert8Avx512 {
    using R = __m512i;
    static constexpr int N = 32;
    static R set32(uint32_t v) { return _mm512_set1_epi32((int)v); }
    static R set16(uint16_t v) { return _mm512_set1_epi16((short)v); }
    static R zero() { return _mm512_setzero_si512(); }
    static R load(const uint8_t *p) { return _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)p)); }
    static R madd(R a, R b) { return _mm512_madd_epi16(a, b); }
    static R unlo(R a, R b) { return _mm512_unpacklo_epi16(a, b); }
    static R unhi(R a, R b) { return _mm512_unpackhi_epi16(a, b); }
    static R mul16(R a, R b) { return _mm512_mullo_epi16(a, b); }
    static R xor_(R a, R b) { return _mm512_xor_si512(a, b); }
    static R add32(R a, R b) { return _mm512_add_epi32(a, b); }
    static R shr32(R a, int n) { return _mm512_srli_epi32(a, n); }
    static void store(uint32_t *dst, R lo, R hi)
    {
        _mm512_storeu_si512((void *)dst, _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), hi));
        _mm512_storeu_si512((void *)(dst + 16),
                            _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), hi));
    }
};
#endif

template <class V>
static inline int vif_vert8_s0_simd(const uint8_t *const *pr, const uint8_t *const *pd, const uint32_t *tap,
                                    uint32_t *__restrict m1, uint32_t *__restrict m2, uint32_t *__restrict xx,
                                    uint32_t *__restrict yy, uint32_t *__restrict xy, int m, int t0)
{
    using R = typename V::R;
    R tp[9];
    for (int q = 0; q < 9; q++) {
        const uint32_t lo = tap[2 * q], hi = 2 * q + 1 < 17 ? tap[2 * q + 1] : 0;
        tp[q] = V::set32((hi << 16) | lo);
    }
    const R off = V::set16(0x8000), bias = V::set32(0x80000000u), r128 = V::set32(128);
    int t = t0;
    for (; t + V::N <= m; t += V::N) {
        R a1l = V::zero(), a1h = a1l, a2l = a1l, a2h = a1l, axl = a1l, axh = a1l;
        R ayl = a1l, ayh = a1l, apl = a1l, aph = a1l;
        for (int q = 0; q < 9; q++) {
            const int ka = 2 * q, kb = 2 * q + 1 < 17 ? 2 * q + 1 : 16;
            const R xa = V::load(pr[ka] + t), xb = V::load(pr[kb] + t);
            const R ya = V::load(pd[ka] + t), yb = V::load(pd[kb] + t);
            const R c = tp[q];
            a1l = V::add32(a1l, V::madd(V::unlo(xa, xb), c));
            a1h = V::add32(a1h, V::madd(V::unhi(xa, xb), c));
            a2l = V::add32(a2l, V::madd(V::unlo(ya, yb), c));
            a2h = V::add32(a2h, V::madd(V::unhi(ya, yb), c));
            const R sxa = V::xor_(V::mul16(xa, xa), off), sxb = V::xor_(V::mul16(xb, xb), off);
            axl = V::add32(axl, V::madd(V::unlo(sxa, sxb), c));
            axh = V::add32(axh, V::madd(V::unhi(sxa, sxb), c));
            const R sya = V::xor_(V::mul16(ya, ya), off), syb = V::xor_(V::mul16(yb, yb), off);
            ayl = V::add32(ayl, V::madd(V::unlo(sya, syb), c));
            ayh = V::add32(ayh, V::madd(V::unhi(sya, syb), c));
            const R spa = V::xor_(V::mul16(xa, ya), off), spb = V::xor_(V::mul16(xb, yb), off);
            apl = V::add32(apl, V::madd(V::unlo(spa, spb), c));
            aph = V::add32(aph, V::madd(V::unhi(spa, spb), c));
        }
        V::store(m1 + t, V::shr32(V::add32(a1l, r128), 8), V::shr32(V::add32(a1h, r128), 8));
        V::store(m2 + t, V::shr32(V::add32(a2l, r128), 8), V::shr32(V::add32(a2h, r128), 8));
        V::store(xx + t, V::add32(axl, bias), V::add32(axh, bias));
        V::store(yy + t, V::add32(ayl, bias), V::add32(ayh, bias));
        V::store(xy + t, V::add32(apl, bias), V::add32(aph, bias));
    }
    return t;
}
#endif

/* the vertical statistic pass of 8-bit samples over m columns: uint32
 * sums, kept in registers over the 2r+1 rows */
template <int S>
__attribute__((noinline)) static void vif_vert8(const uint8_t *const *rrow, const uint8_t *const *drow, int lo,
                                                uint32_t *__restrict m1, uint32_t *__restrict m2,
                                                uint32_t *__restrict xx, uint32_t *__restrict yy,
                                                uint32_t *__restrict xy, int m)
{
    constexpr int nt = 2 * VQ_VIF_RADIUS(S) + 1;
    const uint8_t *pr[nt], *pd[nt];
    uint32_t tap[nt];
    for (int k = 0; k < nt; k++) {
        pr[k] = rrow[k] + lo;
        pd[k] = drow[k] + lo;
        tap[k] = vq_vif_tap(S, k);
    }
    int t0 = 0;
#ifdef VQ_SIMD_X86_AVX512
    if constexpr (S == 0)
        t0 = vif_vert8_s0_simd<VifVert8Avx512>(pr, pd, tap, m1, m2, xx, yy, xy, m, t0);
#endif
#ifdef VQ_SIMD_X86_AVX2
    if constexpr (S == 0)
        t0 = vif_vert8_s0_simd<VifVert8Avx2>(pr, pd, tap, m1, m2, xx, yy, xy, m, t0);
#endif
    for (int t = t0; t < m; t++) {
        uint32_t s1 = 0, s2 = 0, sxx = 0, syy = 0, sxy = 0;
#pragma GCC unroll 17
        for (int k = 0; k < nt; k++) {
            const uint32_t x = pr[k][t], y = pd[k][t];
            const uint32_t ax = tap[k] * x, ay = tap[k] * y;
            s1 += ax;
            s2 += ay;
            sxx += ax * x;
            syy += ay * y;
            sxy += ax * y;
        }
        m1[t] = (s1 + 128) >> 8;
        m2[t] = (s2 + 128) >> 8;
        xx[t] = sxx;
        yy[t] = syy;
        xy[t] = sxy;
    }
}

/* the same for 16-bit samples: uint64 squares, rounded as vif.h's _16 path */
template <int S>
__attribute__((noinline)) static void vif_vert16(const uint16_t *const *rrow, const uint16_t *const *drow, int lo,
                                                 int rsh, int dsh, VqVifStatShift sh, uint32_t *__restrict m1,
                                                 uint32_t *__restrict m2, uint32_t *__restrict xx,
                                                 uint32_t *__restrict yy, uint32_t *__restrict xy, int m)
{
    constexpr int nt = 2 * VQ_VIF_RADIUS(S) + 1;
    const uint16_t *pr[nt], *pd[nt];
    uint32_t tap[nt];
    for (int k = 0; k < nt; k++) {
        pr[k] = rrow[k] + lo;
        pd[k] = drow[k] + lo;
        tap[k] = vq_vif_tap(S, k);
    }
    for (int t = 0; t < m; t++) {
        uint32_t s1 = 0, s2 = 0;
        uint64_t sxx = 0, syy = 0, sxy = 0;
#pragma GCC unroll 17
        for (int k = 0; k < nt; k++) {
            const uint32_t x = (uint32_t)pr[k][t] >> rsh, y = (uint32_t)pd[k][t] >> dsh;
            const uint32_t ax = tap[k] * x, ay = tap[k] * y;
            s1 += ax;
            s2 += ay;
            sxx += (uint64_t)ax * x;
            syy += (uint64_t)ay * y;
            sxy += (uint64_t)ax * y;
        }
        m1[t] = (uint16_t)((s1 + sh.mu_round) >> sh.mu_shift);
        m2[t] = (uint16_t)((s2 + sh.mu_round) >> sh.mu_shift);
        xx[t] = (uint32_t)((sxx + sh.sq_round) >> sh.sq_shift);
        yy[t] = (uint32_t)((syy + sh.sq_round) >> sh.sq_shift);
        xy[t] = (uint32_t)((sxy + sh.sq_round) >> sh.sq_shift);
    }
}

/*
 * The horizontal statistic pass over n columns, in uint32 lanes: the
 * means' sums fit (taps sum to 2^16, means are 16-bit), and a square's sum
 * sum(a * v) with v = vh * 2^16 + vl is 2^16 * sum(a * vh) + sum(a * vl),
 * both below 2^32, so ((sum + 2^15) >> 16) mod 2^32 - the plain code's
 * uint64 sum rounded and cast - is sum(a * vh) + ((sum(a * vl) + 2^15) >> 16)
 * in uint32.
 */
template <int S>
__attribute__((noinline)) static void vif_horz(const uint32_t *__restrict v1, const uint32_t *__restrict v2,
                                               const uint32_t *__restrict vx, const uint32_t *__restrict vy,
                                               const uint32_t *__restrict vxy, uint32_t *__restrict h1,
                                               uint32_t *__restrict h2, uint32_t *__restrict hxx,
                                               uint32_t *__restrict hyy, uint32_t *__restrict hxy, int n)
{
    constexpr int nt = 2 * VQ_VIF_RADIUS(S) + 1;
    uint32_t tap[nt];
    for (int k = 0; k < nt; k++)
        tap[k] = vq_vif_tap(S, k);
    /* the taps are symmetric: tap k and tap 2r-k multiply one sum (uint32
     * sums mod 2^32 are the same sums; none of these wraps anyway) */
    constexpr int r = VQ_VIF_RADIUS(S);
    for (int j = 0; j < n; j++) {
        uint32_t s1 = tap[r] * v1[j + r], s2 = tap[r] * v2[j + r];
#pragma GCC unroll 8
        for (int k = 0; k < r; k++) {
            s1 += tap[k] * (v1[j + k] + v1[j + 2 * r - k]);
            s2 += tap[k] * (v2[j + k] + v2[j + 2 * r - k]);
        }
        h1[j] = s1;
        h2[j] = s2;
    }
    const uint32_t *src[3] = { vx, vy, vxy };
    uint32_t *dst[3] = { hxx, hyy, hxy };
    for (int q = 0; q < 3; q++) {
        const uint32_t *__restrict v = src[q];
        uint32_t *__restrict o = dst[q];
        for (int j = 0; j < n; j++) {
            uint32_t hi = tap[r] * (v[j + r] >> 16), lo = tap[r] * (v[j + r] & 0xffff);
#pragma GCC unroll 8
            for (int k = 0; k < r; k++) {
                hi += tap[k] * ((v[j + k] >> 16) + (v[j + 2 * r - k] >> 16));
                lo += tap[k] * ((v[j + k] & 0xffff) + (v[j + 2 * r - k] & 0xffff));
            }
            o[j] = hi + ((lo + 32768) >> 16);
        }
    }
}

/* ---- VIF statistic ---------------------------------------------------- */

template <int S, bool E8, typename T>
static void vif_stat_row_t(VqPlaneView ref, VqPlaneView dis, int i, int bpc, double egl,
                           const uint16_t *log2_table, int64_t *acc_out)
{
    constexpr int r = VQ_VIF_RADIUS(S), nt = 2 * r + 1;
    constexpr int N = kCols + 2 * r;
    const int w = ref.w, h = ref.h;
    const VqVifStatShift sh = vq_vif_stat_shift(S, bpc);
    const int rsh = ref.shift, dsh = dis.shift;
    const T *rrow[nt], *drow[nt];
    for (int k = 0; k < nt; k++) {
        const int row = vq_reflect101(i - r + k, h);
        rrow[k] = (const T *)(ref.data + (ptrdiff_t)row * ref.pitch);
        drow[k] = (const T *)(dis.data + (ptrdiff_t)row * dis.pitch);
    }
    alignas(64) uint32_t vmu1[N], vmu2[N], vxx[N], vyy[N], vxy[N];
    alignas(64) uint32_t hmu1[kCols], hmu2[kCols], hxx[kCols], hyy[kCols], hxy[kCols];
    int64_t acc[VQ_VIF_NSUMS] = { 0, 0, 0, 0 };

    for (int c0 = 0; c0 < w; c0 += kCols) {
        const int n = w - c0 < kCols ? w - c0 : kCols;
        const int base = c0 - r;
        const int lo = base < 0 ? 0 : base, hi = c0 + n + r > w ? w : c0 + n + r;
        const int t0 = lo - base, m = hi - lo;
        if constexpr (E8)
            vif_vert8<S>((const uint8_t *const *)rrow, (const uint8_t *const *)drow, lo, vmu1 + t0, vmu2 + t0,
                         vxx + t0, vyy + t0, vxy + t0, m);
        else
            vif_vert16<S>((const uint16_t *const *)rrow, (const uint16_t *const *)drow, lo, rsh, dsh, sh,
                          vmu1 + t0, vmu2 + t0, vxx + t0, vyy + t0, vxy + t0, m);
        const int nn = n + 2 * r;
        reflect_fill(vmu1, base, t0, t0 + m, nn, w);
        reflect_fill(vmu2, base, t0, t0 + m, nn, w);
        reflect_fill(vxx, base, t0, t0 + m, nn, w);
        reflect_fill(vyy, base, t0, t0 + m, nn, w);
        reflect_fill(vxy, base, t0, t0 + m, nn, w);
        /* horizontal */
        vif_horz<S>(vmu1, vmu2, vxx, vyy, vxy, hmu1, hmu2, hxx, hyy, hxy, n);
        vif_decide(hmu1, hmu2, hxx, hyy, hxy, n, log2_table, egl, acc);
    }
    for (int k = 0; k < VQ_VIF_NSUMS; k++)
        acc_out[k] = acc[k];
}

static void vif_stat_row(int s, VqPlaneView ref, VqPlaneView dis, int i, int bpc, double egl,
                         const uint16_t *log2_table, int64_t *acc)
{
    if (ref.step != 1 || dis.step != 1 || ref.bytes != dis.bytes) {
        vq_vif_stat_row_plain(s, ref, dis, i, bpc, egl, log2_table, acc);
        return;
    }
    if (s == 0 && bpc == 8 && ref.bytes == 1) {
        vif_stat_row_t<0, true, uint8_t>(ref, dis, i, bpc, egl, log2_table, acc);
        return;
    }
    if (ref.bytes != 2 || (s == 0 && bpc == 8)) {
        vq_vif_stat_row_plain(s, ref, dis, i, bpc, egl, log2_table, acc);
        return;
    }
    switch (s) {
    case 0: vif_stat_row_t<0, false, uint16_t>(ref, dis, i, bpc, egl, log2_table, acc); break;
    case 1: vif_stat_row_t<1, false, uint16_t>(ref, dis, i, bpc, egl, log2_table, acc); break;
    case 2: vif_stat_row_t<2, false, uint16_t>(ref, dis, i, bpc, egl, log2_table, acc); break;
    default: vif_stat_row_t<3, false, uint16_t>(ref, dis, i, bpc, egl, log2_table, acc); break;
    }
}

/* ---- VIF down-sampling ------------------------------------------------ */

/* vertical pass over m source columns (symmetric taps: one product per
 * pair of rows; the uint32 sum is the same) */
template <int S, typename T>
__attribute__((noinline)) static void vif_sub_vert(const T *const *row, int lo, int sh, uint32_t round, int shift,
                                                   uint32_t *__restrict vt, int m)
{
    constexpr int r = VQ_VIF_RADIUS(S);
    const T *p[2 * r + 1];
    uint32_t tap[r + 1];
    for (int k = 0; k <= 2 * r; k++)
        p[k] = row[k] + lo;
    for (int k = 0; k <= r; k++)
        tap[k] = vq_vif_tap(S, k);
    for (int t = 0; t < m; t++) {
        uint32_t acc = tap[r] * ((uint32_t)p[r][t] >> sh);
#pragma GCC unroll 8
        for (int k = 0; k < r; k++)
            acc += tap[k] * (((uint32_t)p[k][t] >> sh) + ((uint32_t)p[2 * r - k][t] >> sh));
        vt[t] = (uint16_t)((acc + round) >> shift);
    }
}

/* horizontal pass: output j reads v[2j .. 2j+2r] */
template <int S>
__attribute__((noinline)) static void vif_sub_horz(const uint32_t *__restrict v, uint16_t *__restrict out, int n)
{
    constexpr int r = VQ_VIF_RADIUS(S);
    uint32_t tap[r + 1];
    for (int k = 0; k <= r; k++)
        tap[k] = vq_vif_tap(S, k);
    for (int j = 0; j < n; j++) {
        const uint32_t *q = v + 2 * j;
        uint32_t acc = tap[r] * q[r];
#pragma GCC unroll 8
        for (int k = 0; k < r; k++)
            acc += tap[k] * (q[k] + q[2 * r - k]);
        out[j] = (uint16_t)((acc + 32768) >> 16);
    }
}

template <int S, typename T>
static void vif_sub_one(VqPlaneView src, int i, int bpc, int out_w, uint16_t *out)
{
    constexpr int r = VQ_VIF_RADIUS(S), nt = 2 * r + 1;
    constexpr int N = 2 * kCols + 2 * r;
    const int shift = vq_vif_down_shift(S, bpc);
    const uint32_t round = 1u << (shift - 1);
    const int src_w = src.w, sh = sizeof(T) == 1 ? 0 : src.shift;
    const T *row[nt];
    for (int k = 0; k < nt; k++)
        row[k] = (const T *)(src.data + (ptrdiff_t)vq_reflect101(2 * i - r + k, src.h) * src.pitch);
    alignas(64) uint32_t v[N];
    for (int c0 = 0; c0 < out_w; c0 += kCols) {
        const int n = out_w - c0 < kCols ? out_w - c0 : kCols;
        const int base = 2 * c0 - r, nn = 2 * (n - 1) + 2 * r + 1;
        const int lo = base < 0 ? 0 : base, hi = base + nn > src_w ? src_w : base + nn;
        const int t0 = lo - base, m = hi - lo;
        vif_sub_vert<S, T>(row, lo, sh, round, shift, v + t0, m);
        reflect_fill(v, base, t0, t0 + m, nn, src_w);
        vif_sub_horz<S>(v, out + c0, n);
    }
}

static void vif_sub_row(int s, VqPlaneView src_ref, VqPlaneView src_dis, int i, int bpc, int out_w,
                        uint16_t *out_ref, uint16_t *out_dis)
{
    if (src_ref.step != 1 || src_dis.step != 1 || src_ref.bytes != src_dis.bytes) {
        vq_vif_sub_row_plain(s, src_ref, src_dis, i, bpc, out_w, out_ref, out_dis);
        return;
    }
    if (src_ref.bytes == 1) {   /* only scale 1 reads the picture */
        if (s != 1) {
            vq_vif_sub_row_plain(s, src_ref, src_dis, i, bpc, out_w, out_ref, out_dis);
            return;
        }
        vif_sub_one<1, uint8_t>(src_ref, i, bpc, out_w, out_ref);
        vif_sub_one<1, uint8_t>(src_dis, i, bpc, out_w, out_dis);
        return;
    }
    switch (s) {
    case 1:
        vif_sub_one<1, uint16_t>(src_ref, i, bpc, out_w, out_ref);
        vif_sub_one<1, uint16_t>(src_dis, i, bpc, out_w, out_dis);
        break;
    case 2:
        vif_sub_one<2, uint16_t>(src_ref, i, bpc, out_w, out_ref);
        vif_sub_one<2, uint16_t>(src_dis, i, bpc, out_w, out_dis);
        break;
    default:
        vif_sub_one<3, uint16_t>(src_ref, i, bpc, out_w, out_ref);
        vif_sub_one<3, uint16_t>(src_dis, i, bpc, out_w, out_dis);
        break;
    }
}

/* ---- motion ----------------------------------------------------------- */

template <typename T>
static uint64_t motion_row_t(VqPlaneView prev, VqPlaneView cur, int i, int bpc, int32_t *y_row)
{
    const int w = cur.w, h = cur.h, sh = sizeof(T) == 1 ? 0 : cur.shift;
    const uint16_t *pr[5];
    const T *cr[5];
    int32_t tap[5];
    for (int k = 0; k < 5; k++) {
        const int row = vq_reflect101(i - VQ_MOTION_RADIUS + k, h);
        pr[k] = (const uint16_t *)(prev.data + (ptrdiff_t)row * prev.pitch);
        cr[k] = (const T *)(cur.data + (ptrdiff_t)row * cur.pitch);
        tap[k] = vq_motion_tap(k);
    }
    /* |sum| <= 65536 * (2^bpc - 1) + 2^(bpc-1) < 2^31 for bpc <= 15 */
    const int32_t round = 1 << (bpc - 1);
    int32_t *y = y_row + 2;
    for (int j = 0; j < w; j++) {
        int32_t acc = 0;
        for (int k = 0; k < 5; k++)
            acc += tap[k] * ((int32_t)pr[k][j] - (int32_t)((uint32_t)cr[k][j] >> sh));
        y[j] = (acc + round) >> bpc;
    }
    y[-2] = y[2];
    y[-1] = y[1];
    y[w] = y[w - 2];
    y[w + 1] = y[w - 3];
    uint64_t sad = 0;
    for (int j = 0; j < w; j++) {
        int64_t acc = 0;
        for (int k = 0; k < 5; k++)
            acc += (int64_t)tap[k] * y[j - 2 + k];
        const int32_t v = (int32_t)((acc + 32768) >> 16);
        sad += (uint32_t)(v < 0 ? -v : v);
    }
    return sad;
}

static uint64_t motion_row(VqPlaneView prev, VqPlaneView cur, int i, int bpc, int32_t *y_row)
{
    if (cur.step != 1 || bpc > 15 || cur.w < 4)
        return vq_motion_row_plain(prev, cur, i, bpc, y_row);
    if (cur.bytes == 1)
        return motion_row_t<uint8_t>(prev, cur, i, bpc, y_row);
    return motion_row_t<uint16_t>(prev, cur, i, bpc, y_row);
}

/* ---- psnr ------------------------------------------------------------- */

static uint64_t psnr_row(VqPlaneView ref, VqPlaneView dis, int i, int w, int bpc)
{
    if (ref.step != 1 || dis.step != 1)
        return vq_psnr_row_plain(ref, dis, i, w, bpc);
    if (bpc == 8 && ref.bytes == 1 && dis.bytes == 1) {
        /* |ref - dis| <= 255: the int16 cast keeps it; a row sum < 2^32 per 66051 samples */
        const uint8_t *a = ref.data + (ptrdiff_t)i * ref.pitch, *b = dis.data + (ptrdiff_t)i * dis.pitch;
        uint64_t sse = 0;
        for (int j0 = 0; j0 < w; j0 += 32768) {
            const int n = w - j0 < 32768 ? w - j0 : 32768;
            uint32_t s = 0;
            for (int j = 0; j < n; j++) {
                const int32_t d = (int32_t)a[j0 + j] - (int32_t)b[j0 + j];
                s += (uint32_t)(d * d);
            }
            sse += s;
        }
        return sse;
    }
    if (bpc > 8 && ref.bytes == 2 && dis.bytes == 2) {
        const uint16_t *a = (const uint16_t *)(ref.data + (ptrdiff_t)i * ref.pitch);
        const uint16_t *b = (const uint16_t *)(dis.data + (ptrdiff_t)i * dis.pitch);
        const int as = ref.shift, bs = dis.shift;
        uint64_t sse = 0;
        for (int j = 0; j < w; j++) {
            const int32_t d = (int32_t)((uint32_t)a[j] >> as) - (int32_t)((uint32_t)b[j] >> bs);
            const uint32_t e = (uint32_t)(d < 0 ? -d : d);
            sse += e * e;
        }
        return sse;
    }
    return vq_psnr_row_plain(ref, dis, i, w, bpc);
}

/* ---- ADM DWT ---------------------------------------------------------- */

/* interior outputs 1 .. jend-1 of the horizontal passes (columns 2j-1 .. 2j+2) */
__attribute__((noinline)) static void adm_horz0(const int32_t *__restrict lo, const int32_t *__restrict hi, int jend,
                                                int32_t *__restrict oa, int32_t *__restrict oh,
                                                int32_t *__restrict ov, int32_t *__restrict od)
{
    for (int j = 1; j < jend; j++) {
        const int c = 2 * j - 1;
        int16_t a, v, hh, d;
        vq_adm_dwt0_horz((int16_t)lo[c], (int16_t)lo[c + 1], (int16_t)lo[c + 2], (int16_t)lo[c + 3], &a, &v);
        vq_adm_dwt0_horz((int16_t)hi[c], (int16_t)hi[c + 1], (int16_t)hi[c + 2], (int16_t)hi[c + 3], &hh, &d);
        oa[j] = a;
        ov[j] = v;
        oh[j] = hh;
        od[j] = d;
    }
}

__attribute__((noinline)) static void adm_horz123(const int32_t *__restrict lo, const int32_t *__restrict hi,
                                                  int jend, int32_t hadd, int hshift, int32_t *__restrict oa,
                                                  int32_t *__restrict oh, int32_t *__restrict ov,
                                                  int32_t *__restrict od)
{
    for (int j = 1; j < jend; j++) {
        const int c = 2 * j - 1;
        int32_t a, v, hh, d;
        vq_adm_dwt_s123_pass(lo[c], lo[c + 1], lo[c + 2], lo[c + 3], hadd, hshift, &a, &v);
        vq_adm_dwt_s123_pass(hi[c], hi[c + 1], hi[c + 2], hi[c + 3], hadd, hshift, &hh, &d);
        oa[j] = a;
        ov[j] = v;
        oh[j] = hh;
        od[j] = d;
    }
}

template <typename T>
static void adm_dwt0_row_t(VqPlaneView src, int bpc, int i, int band_w, int32_t *oa, int32_t *oh,
                           int32_t *ov, int32_t *od, int32_t *scratch)
{
    const int w = src.w, sh = sizeof(T) == 1 ? 0 : src.shift;
    int ty[4];
    vq_adm_dwt_taps(i, src.h, ty);
    const T *r0 = (const T *)(src.data + (ptrdiff_t)ty[0] * src.pitch);
    const T *r1 = (const T *)(src.data + (ptrdiff_t)ty[1] * src.pitch);
    const T *r2 = (const T *)(src.data + (ptrdiff_t)ty[2] * src.pitch);
    const T *r3 = (const T *)(src.data + (ptrdiff_t)ty[3] * src.pitch);
    int32_t *lo = scratch, *hi = scratch + w + 8;
    for (int x = 0; x < w; x++) {
        int16_t l, hh;
        vq_adm_dwt0_vert((uint32_t)r0[x] >> sh, (uint32_t)r1[x] >> sh, (uint32_t)r2[x] >> sh,
                         (uint32_t)r3[x] >> sh, bpc, &l, &hh);
        lo[x] = l;
        hi[x] = hh;
    }
    /* interior outputs read columns 2j-1 .. 2j+2 < w */
    const int jend = (w - 3) / 2 + 1 < band_w ? (w - 3) / 2 + 1 : band_w;
    adm_horz0(lo, hi, jend, oa, oh, ov, od);
    for (int j = 0; j < band_w; j++) {
        if (j >= 1 && j < jend)
            continue;
        int tx[4];
        int16_t a, v, hh, d;
        vq_adm_dwt_taps(j, w, tx);
        vq_adm_dwt0_horz((int16_t)lo[tx[0]], (int16_t)lo[tx[1]], (int16_t)lo[tx[2]], (int16_t)lo[tx[3]], &a, &v);
        vq_adm_dwt0_horz((int16_t)hi[tx[0]], (int16_t)hi[tx[1]], (int16_t)hi[tx[2]], (int16_t)hi[tx[3]], &hh, &d);
        oa[j] = a;
        ov[j] = v;
        oh[j] = hh;
        od[j] = d;
    }
}

static void adm_dwt0_row(VqPlaneView src, int bpc, int i, int band_w, int32_t *a, int32_t *h,
                         int32_t *v, int32_t *d, int32_t *scratch)
{
    if (src.step != 1 || src.w < 5)
        vq_adm_dwt0_row_plain(src, bpc, i, band_w, a, h, v, d, scratch);
    else if (src.bytes == 1)
        adm_dwt0_row_t<uint8_t>(src, bpc, i, band_w, a, h, v, d, scratch);
    else
        adm_dwt0_row_t<uint16_t>(src, bpc, i, band_w, a, h, v, d, scratch);
}

static void adm_dwt_s123_row(const int32_t *src, ptrdiff_t stride, int in_w, int in_h, int scale,
                             int i, int band_w, int32_t *oa, int32_t *oh, int32_t *ov, int32_t *od,
                             int32_t *scratch)
{
    if (in_w < 5) {
        vq_adm_dwt_s123_row_plain(src, stride, in_w, in_h, scale, i, band_w, oa, oh, ov, od, scratch);
        return;
    }
    const int32_t vadd = vq_adm_dwt_vadd(scale), hadd = vq_adm_dwt_hadd(scale);
    const int vshift = vq_adm_dwt_vshift(scale), hshift = vq_adm_dwt_hshift(scale);
    int ty[4];
    vq_adm_dwt_taps(i, in_h, ty);
    const int32_t *r0 = src + ty[0] * stride, *r1 = src + ty[1] * stride;
    const int32_t *r2 = src + ty[2] * stride, *r3 = src + ty[3] * stride;
    int32_t *lo = scratch, *hi = scratch + in_w + 8;
    for (int x = 0; x < in_w; x++) {
        int32_t l, hh;
        vq_adm_dwt_s123_pass(r0[x], r1[x], r2[x], r3[x], vadd, vshift, &l, &hh);
        lo[x] = l;
        hi[x] = hh;
    }
    const int jend = (in_w - 3) / 2 + 1 < band_w ? (in_w - 3) / 2 + 1 : band_w;
    adm_horz123(lo, hi, jend, hadd, hshift, oa, oh, ov, od);
    for (int j = 0; j < band_w; j++) {
        if (j >= 1 && j < jend)
            continue;
        int tx[4];
        vq_adm_dwt_taps(j, in_w, tx);
        vq_adm_dwt_s123_pass(lo[tx[0]], lo[tx[1]], lo[tx[2]], lo[tx[3]], hadd, hshift, &oa[j], &ov[j]);
        vq_adm_dwt_s123_pass(hi[tx[0]], hi[tx[1]], hi[tx[2]], hi[tx[3]], hadd, hshift, &oh[j], &od[j]);
    }
}

/* ---- ADM row sums ----------------------------------------------------- */

/* thr[j] of columns j0 .. j0+n-1 (all with both neighbours in the band) */
__attribute__((noinline)) static void adm_thr_cols(const int32_t *__restrict up, const int32_t *__restrict mid,
                                                   const int32_t *__restrict dn, const int32_t *__restrict centre,
                                                   int32_t *__restrict thr, int n)
{
    for (int j = 0; j < n; j++) {
        uint32_t s = (uint32_t)centre[j];
        s += (uint32_t)up[j - 1] + (uint32_t)up[j] + (uint32_t)up[j + 1];
        s += (uint32_t)mid[j - 1] + (uint32_t)mid[j + 1];
        s += (uint32_t)dn[j - 1] + (uint32_t)dn[j] + (uint32_t)dn[j + 1];
        thr[j] = (int32_t)s;
    }
}

/* den, CM and AIM sums of band b over n columns, scale 0 */
__attribute__((noinline)) static void adm_terms_s0(const int32_t *__restrict rb, const int32_t *__restrict xr,
                                                   const int32_t *__restrict xa, const int32_t *__restrict thr_a,
                                                   const int32_t *__restrict thr_r, int n, int b,
                                                   uint32_t shift_cub, uint32_t add_cub, uint64_t *out)
{
    uint64_t den = 0, num = 0, aim = 0;
    for (int j = 0; j < n; j++) {
        den += vq_adm_den_term_s0(rb[j]);
        num += (uint64_t)vq_adm_cm_val_s0(xr[j], thr_a[j], b, shift_cub, add_cub);
        aim += (uint64_t)vq_adm_cm_val_s0(xa[j], thr_r[j], b, shift_cub, add_cub);
    }
    out[0] += den;
    out[1] += num;
    out[2] += aim;
}

__attribute__((noinline)) static void adm_terms_s123(const int32_t *__restrict rb, const int32_t *__restrict xr,
                                                     const int32_t *__restrict xa, const int32_t *__restrict thr_a,
                                                     const int32_t *__restrict thr_r, int n,
                                                     const VqAdmScaleParams *sp, uint32_t shift_cub,
                                                     uint32_t add_cub, uint64_t *out)
{
    uint64_t den = 0, num = 0, aim = 0;
    for (int j = 0; j < n; j++) {
        den += vq_adm_den_term_s123(rb[j], sp);
        num += (uint64_t)vq_adm_cm_val_s123(xr[j], thr_a[j], shift_cub, add_cub);
        aim += (uint64_t)vq_adm_cm_val_s123(xa[j], thr_r[j], shift_cub, add_cub);
    }
    out[0] += den;
    out[1] += num;
    out[2] += aim;
}

static void adm_sums_row(const int32_t *const *in, const int32_t *ref_h, const int32_t *ref_v,
                         const int32_t *ref_d, ptrdiff_t stride, const VqAdmParams *p, int scale, int i,
                         uint64_t *sum)
{
    const VqAdmScaleParams *sp = &p->s[scale];
    const int w = sp->w, h = sp->h;
    /* columns whose neighbours j-1, j+1 are in the band: straight loops */
    const int jl = sp->cm.left < 1 ? 1 : sp->cm.left;
    const int jr = sp->cm.right > w - 1 ? w - 1 : sp->cm.right;
    if (jr - jl < 8) {
        vq_adm_sums_row_plain(in, ref_h, ref_v, ref_d, stride, p, scale, i, sum);
        return;
    }
    for (int k = 0; k < VQ_ADM_NSUMS; k++)
        sum[k] = 0;
    /* the edge columns through the plain per-pixel function */
    for (int j = sp->cm.left; j < sp->cm.right; j++) {
        if (j >= jl && j < jr)
            continue;
        uint64_t t[VQ_ADM_NSUMS];
        vq_adm_pixel_terms(in, ref_h, ref_v, ref_d, stride, p, scale, i, j, t);
        for (int k = 0; k < VQ_ADM_NSUMS; k++)
            sum[k] += t[k];
    }
    const ptrdiff_t ou = (ptrdiff_t)(i == 0 ? 1 : i - 1) * stride, om = (ptrdiff_t)i * stride;
    const ptrdiff_t od = (ptrdiff_t)(i == h - 1 ? h - 1 : i + 1) * stride;
    const int32_t *rb[3] = { ref_h, ref_v, ref_d };
    alignas(64) int32_t thr_a[kCols], thr_r[kCols];
    uint64_t part[3][3] = { { 0 } };
    for (int c0 = jl; c0 < jr; c0 += kCols) {
        const int n = jr - c0 < kCols ? jr - c0 : kCols;
        const int32_t *fa = in[VQ_ADM_IN_FA], *fr = in[VQ_ADM_IN_FR];
        adm_thr_cols(fa + ou + c0, fa + om + c0, fa + od + c0, in[VQ_ADM_IN_CA] + om + c0, thr_a, n);
        adm_thr_cols(fr + ou + c0, fr + om + c0, fr + od + c0, in[VQ_ADM_IN_CR] + om + c0, thr_r, n);
        for (int b = 0; b < 3; b++) {
            const int32_t *x_r = in[VQ_ADM_IN_XR0 + b] + om + c0, *x_a = in[VQ_ADM_IN_XA0 + b] + om + c0;
            if (scale == 0)
                adm_terms_s0(rb[b] + om + c0, x_r, x_a, thr_a, thr_r, n, b, sp->cm_shift_cub[b],
                             sp->cm_add_cub[b], part[b]);
            else
                adm_terms_s123(rb[b] + om + c0, x_r, x_a, thr_a, thr_r, n, sp, sp->cm_shift_cub[b],
                               sp->cm_add_cub[b], part[b]);
        }
    }
    for (int b = 0; b < 3; b++) {
        sum[VQ_ADM_DEN_H + b] += part[b][0];
        sum[VQ_ADM_NUM_H + b] += part[b][1];
        sum[VQ_ADM_AIM_H + b] += part[b][2];
    }
}

/* ---- ADM decouple + CSF (scale 0) -------------------------------------- */

/*
 * vq_adm_pixel_cm_in for scale 0 over n columns, branch-free.  Where the
 * plain code takes an int64 or an integer division, this takes an exact
 * equivalent the vector units have:
 *   - the angle test's int64 dot products of int16 values are below 2^31
 *     in magnitude, so they are exact in double, and (float) of that
 *     double is the same single rounding as (float) of the int64;
 *   - 2^30 / |o| (|o| <= 32768) truncated from the double quotient: the
 *     true quotient q + r/|o| is at least 2^-15 below q + 1 and the double's
 *     error is below 2^-22, so truncation gives q;
 *   - every select picks the value the plain code computes, and only the
 *     selected double is converted.
 */
__attribute__((noinline)) static void adm_decouple_s0_cols(
    const int32_t *__restrict oh, const int32_t *__restrict ov, const int32_t *__restrict od,
    const int32_t *__restrict th, const int32_t *__restrict tv, const int32_t *__restrict td, int n,
    float cos_1deg_sq, double egl, uint32_t irf0, uint32_t irf1, uint32_t irf2,
    int32_t *__restrict xr0, int32_t *__restrict xr1, int32_t *__restrict xr2, int32_t *__restrict xa0,
    int32_t *__restrict xa1, int32_t *__restrict xa2, int32_t *__restrict fa, int32_t *__restrict ca,
    int32_t *__restrict fr, int32_t *__restrict cr)
{
    for (int j = 0; j < n; j++) {
        const int32_t o[3] = { (int16_t)oh[j], (int16_t)ov[j], (int16_t)od[j] };
        const int32_t t[3] = { (int16_t)th[j], (int16_t)tv[j], (int16_t)td[j] };
        const uint32_t irf[3] = { irf0, irf1, irf2 };
        const double dpi = (double)o[0] * (double)t[0] + (double)o[1] * (double)t[1];
        const double omi = (double)o[0] * (double)o[0] + (double)o[1] * (double)o[1];
        const double tmi = (double)t[0] * (double)t[0] + (double)t[1] * (double)t[1];
        const double dp = (double)(float)dpi / 4096.0;
        const int flag = (dp >= 0.0) & (dp * dp >= (double)cos_1deg_sq * ((double)(float)omi / 4096.0) *
                                                       ((double)(float)tmi / 4096.0));
        uint32_t sfa = 0, sca = 0, sfr = 0, scr = 0;
        int32_t xr[3], xa[3];
        for (int b = 0; b < 3; b++) {
            const int32_t ob = o[b], tb = t[b];
            const int32_t abs_o = ob < 0 ? -ob : ob;
            const int32_t q = (int32_t)(1073741824.0 / (double)(abs_o ? abs_o : 1));
            const int32_t recip = ob < 0 ? -q : q;
            int64_t kl = ((int64_t)recip * tb + 16384) >> 15;
            kl = kl < 0 ? 0 : (kl > 32768 ? 32768 : kl);
            const int32_t k = ob == 0 ? 32768 : (int32_t)kl;
            const int32_t rst = (int16_t)((k * ob + 16384) >> 15);
            const float rst_f = ((float)k / 32768) * ((float)ob / 64);
            const double g = rst * egl;
            const double gmin = g < (double)tb ? g : (double)tb;
            const double gmax = g > (double)tb ? g : (double)tb;
            const int pos = flag & (rst_f > 0.0f), neg = flag & (rst_f < 0.0f);
            const double e = pos ? gmin : (neg ? gmax : (double)rst);
            const int32_t r = (int16_t)(int32_t)e;
            const int32_t a = (int16_t)(tb - r);
            const int16_t cav = vq_adm_csf_a_s0(a, irf[b], b);
            const int16_t crv = vq_adm_csf_a_s0(r, irf[b], b);
            sfa += (uint32_t)(int32_t)vq_adm_csf_f_s0(cav);
            sca += (uint32_t)(int32_t)vq_adm_cm_centre_s0(cav);
            sfr += (uint32_t)(int32_t)vq_adm_csf_f_s0(crv);
            scr += (uint32_t)(int32_t)vq_adm_cm_centre_s0(crv);
            xr[b] = r * (int32_t)irf[b];
            xa[b] = a * (int32_t)irf[b];
        }
        xr0[j] = xr[0];
        xr1[j] = xr[1];
        xr2[j] = xr[2];
        xa0[j] = xa[0];
        xa1[j] = xa[1];
        xa2[j] = xa[2];
        fa[j] = (int32_t)sfa;
        ca[j] = (int32_t)sca;
        fr[j] = (int32_t)sfr;
        cr[j] = (int32_t)scr;
    }
}

#ifdef VQ_SIMD_X86_AVX512
/*
 * vq_adm_pixel_cm_in for scales 1-3, 8 pixels at a time in int64 lanes
 * (AVX-512 F/VL/DQ/CD), every step the plain code's: int64 products,
 * (float) of the int64 (vcvtqq2ps, one rounding), the ratio's 2^30 / m
 * (m <= 32768) truncated from the double quotient (exact, see above), its
 * rounding add (int64)(int32)(1u << (14 + shift)) and arithmetic shift,
 * MIN/MAX in double (minpd/maxpd return the second operand unless the first
 * is smaller/greater: the plain ?: ), truncating conversions.  Returns the
 * columns done from j0; the caller does the rest.
 */
static inline int adm_decouple_s123_avx512(const int32_t *const *ref, const int32_t *const *dis, int j0, int j1,
                                           const VqAdmParams *p, int scale, int32_t *const *out)
{
    const VqAdmScaleParams *sp = &p->s[scale];
    const __m512d cosd = _mm512_set1_pd((double)p->cos_1deg_sq), c4096 = _mm512_set1_pd(4096.0);
    const __m512d egl = _mm512_set1_pd(p->egl), two30 = _mm512_set1_pd(1073741824.0);
    const __m256i one32 = _mm256_set1_epi32(1), c32768 = _mm256_set1_epi32(32768);
    const __m512i k32768 = _mm512_set1_epi64(32768), zero64 = _mm512_setzero_si512();
    const __m512i r16384 = _mm512_set1_epi64(16384), r27 = _mm512_set1_epi64(1 << 27);
    const __m512i imin = _mm512_set1_epi64(INT32_MIN);
    const __m512i cf = _mm512_set1_epi64(143165577), cc = _mm512_set1_epi64(286331153);
    int j = j0;
    for (; j + 8 <= j1; j += 8) {
        __m256i o32[3], t32[3];
        __m512i o64[3], t64[3];
        for (int b = 0; b < 3; b++) {
            o32[b] = _mm256_loadu_si256((const __m256i *)(ref[1 + b] + j));
            t32[b] = _mm256_loadu_si256((const __m256i *)(dis[1 + b] + j));
            o64[b] = _mm512_cvtepi32_epi64(o32[b]);
            t64[b] = _mm512_cvtepi32_epi64(t32[b]);
        }
        /* vq_adm_angle_flag */
        const __m512i ot = _mm512_add_epi64(_mm512_mul_epi32(o64[0], t64[0]), _mm512_mul_epi32(o64[1], t64[1]));
        const __m512i om = _mm512_add_epi64(_mm512_mul_epi32(o64[0], o64[0]), _mm512_mul_epi32(o64[1], o64[1]));
        const __m512i tm = _mm512_add_epi64(_mm512_mul_epi32(t64[0], t64[0]), _mm512_mul_epi32(t64[1], t64[1]));
        const __m512d dp = _mm512_div_pd(_mm512_cvtps_pd(_mm512_cvtepi64_ps(ot)), c4096);
        const __m512d omd = _mm512_div_pd(_mm512_cvtps_pd(_mm512_cvtepi64_ps(om)), c4096);
        const __m512d tmd = _mm512_div_pd(_mm512_cvtps_pd(_mm512_cvtepi64_ps(tm)), c4096);
        const __m512d rhs = _mm512_mul_pd(_mm512_mul_pd(cosd, omd), tmd);
        const __mmask8 flag = _mm512_cmp_pd_mask(dp, _mm512_setzero_pd(), _CMP_GE_OQ) &
                              _mm512_cmp_pd_mask(_mm512_mul_pd(dp, dp), rhs, _CMP_GE_OQ);
        __m256i sfa = _mm256_setzero_si256(), sca = sfa, sfr = sfa, scr = sfa;
        for (int b = 0; b < 3; b++) {
            const __m512i irf = _mm512_set1_epi64((int64_t)sp->i_rfactor[b]);
            /* vq_adm_ratio_s123 */
            const __m256i abs_o = _mm256_abs_epi32(o32[b]);
            const __mmask8 big = _mm256_cmpge_epu32_mask(abs_o, c32768);
            const __m256i shift = _mm256_maskz_sub_epi32(big, _mm256_set1_epi32(17), _mm256_lzcnt_epi32(abs_o));
            const __m256i half = _mm256_maskz_sllv_epi32(big, one32, _mm256_sub_epi32(shift, one32));
            const __m256i m = _mm256_srlv_epi32(_mm256_add_epi32(abs_o, half), shift);
            const __mmask8 ozero = _mm256_cmpeq_epi32_mask(o32[b], _mm256_setzero_si256());
            const __m256i m1 = _mm256_mask_mov_epi32(m, ozero, one32);
            const __m256i q = _mm512_cvttpd_epi32(_mm512_div_pd(two30, _mm512_cvtepu32_pd(m1)));
            __m512i prod = _mm512_mul_epi32(_mm512_cvtepi32_epi64(q), t64[b]);
            const __mmask8 oneg = _mm256_cmplt_epi32_mask(o32[b], _mm256_setzero_si256());
            prod = _mm512_mask_sub_epi64(prod, oneg, zero64, prod);
            const __m256i rnd32 = _mm256_sllv_epi32(one32, _mm256_add_epi32(shift, _mm256_set1_epi32(14)));
            const __m512i sh64 = _mm512_cvtepi32_epi64(_mm256_add_epi32(shift, _mm256_set1_epi32(15)));
            __m512i kl = _mm512_srav_epi64(_mm512_add_epi64(prod, _mm512_cvtepi32_epi64(rnd32)), sh64);
            kl = _mm512_min_epi64(_mm512_max_epi64(kl, zero64), k32768);
            const __m512i k = _mm512_mask_mov_epi64(kl, ozero, k32768);
            /* rst and the enhancement */
            const __m256i rst = _mm512_cvtepi64_epi32(
                _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(k, o64[b]), r16384), 15));
            const __m256 rst_f = _mm256_mul_ps(_mm256_div_ps(_mm256_cvtepi32_ps(_mm512_cvtepi64_epi32(k)),
                                                             _mm256_set1_ps(32768.0f)),
                                               _mm256_div_ps(_mm256_cvtepi32_ps(o32[b]), _mm256_set1_ps(64.0f)));
            const __m512d rstd = _mm512_cvtepi32_pd(rst), td = _mm512_cvtepi32_pd(t32[b]);
            const __m512d g = _mm512_mul_pd(rstd, egl);
            const __mmask8 pos = flag & _mm256_cmp_ps_mask(rst_f, _mm256_setzero_ps(), _CMP_GT_OQ);
            const __mmask8 neg = flag & _mm256_cmp_ps_mask(rst_f, _mm256_setzero_ps(), _CMP_LT_OQ);
            __m512d e = _mm512_mask_mov_pd(rstd, neg, _mm512_max_pd(g, td));
            e = _mm512_mask_mov_pd(e, pos, _mm512_min_pd(g, td));
            const __m256i r = _mm512_cvttpd_epi32(e);
            const __m256i a = _mm256_sub_epi32(t32[b], r);
            /* CSF: vq_adm_csf_a_s123, _csf_f_s123, _cm_centre_s123 */
            const __m256i cav = _mm512_cvtepi64_epi32(
                _mm512_srai_epi64(_mm512_add_epi64(_mm512_mullo_epi64(irf, _mm512_cvtepi32_epi64(a)), r27), 28));
            const __m256i crv = _mm512_cvtepi64_epi32(
                _mm512_srai_epi64(_mm512_add_epi64(_mm512_mullo_epi64(irf, _mm512_cvtepi32_epi64(r)), r27), 28));
            const __m512i ma = _mm512_abs_epi64(_mm512_cvtepi32_epi64(cav));
            const __m512i mr = _mm512_abs_epi64(_mm512_cvtepi32_epi64(crv));
            auto term = [imin](__m512i c, __m512i mag) {
                return _mm512_cvtepi64_epi32(_mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epu32(c, mag), imin), 32));
            };
            sfa = _mm256_add_epi32(sfa, term(cf, ma));
            sca = _mm256_add_epi32(sca, term(cc, ma));
            sfr = _mm256_add_epi32(sfr, term(cf, mr));
            scr = _mm256_add_epi32(scr, term(cc, mr));
            _mm256_storeu_si256((__m256i *)(out[VQ_ADM_IN_XR0 + b] + j), crv);
            _mm256_storeu_si256((__m256i *)(out[VQ_ADM_IN_XA0 + b] + j), cav);
        }
        _mm256_storeu_si256((__m256i *)(out[VQ_ADM_IN_FA] + j), sfa);
        _mm256_storeu_si256((__m256i *)(out[VQ_ADM_IN_CA] + j), sca);
        _mm256_storeu_si256((__m256i *)(out[VQ_ADM_IN_FR] + j), sfr);
        _mm256_storeu_si256((__m256i *)(out[VQ_ADM_IN_CR] + j), scr);
    }
    return j - j0;
}
#endif

static void adm_decouple_row(const int32_t *const *ref, const int32_t *const *dis, int j0, int j1,
                             const VqAdmParams *p, int scale, int32_t *const *out)
{
    if (scale != 0) {
#ifdef VQ_SIMD_X86_AVX512
        j0 += adm_decouple_s123_avx512(ref, dis, j0, j1, p, scale, out);
#endif
        vq_adm_decouple_row_plain(ref, dis, j0, j1, p, scale, out);
        return;
    }
    const VqAdmScaleParams *sp = &p->s[0];
    if (j1 <= j0)
        return;
    adm_decouple_s0_cols(ref[1] + j0, ref[2] + j0, ref[3] + j0, dis[1] + j0, dis[2] + j0, dis[3] + j0, j1 - j0,
                         p->cos_1deg_sq, p->egl, sp->i_rfactor[0], sp->i_rfactor[1], sp->i_rfactor[2],
                         out[VQ_ADM_IN_XR0] + j0, out[VQ_ADM_IN_XR1] + j0, out[VQ_ADM_IN_XR2] + j0,
                         out[VQ_ADM_IN_XA0] + j0, out[VQ_ADM_IN_XA1] + j0, out[VQ_ADM_IN_XA2] + j0,
                         out[VQ_ADM_IN_FA] + j0, out[VQ_ADM_IN_CA] + j0, out[VQ_ADM_IN_FR] + j0,
                         out[VQ_ADM_IN_CR] + j0);
}

/* CAMBI's c-values of a row: eight columns at a time with AVX2 gathers of
 * the counts (two uint16 per 32-bit load, the low one kept) and of the
 * reciprocals; per column the plain function's steps: the same integer
 * products, int -> float conversions and float products, the maximum over
 * the diffs taken in their order where the value is greater.  Other builds
 * and the last columns: the plain function. */
#ifdef VQ_SIMD_X86_AVX2
static inline __m256i cambi_gather_u16(const uint16_t *base, __m256i idx, __m256i mask)
{
    const __m256i v = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), (const int *)base, idx, mask, 2);
    return _mm256_and_si256(v, _mm256_set1_epi32(0xffff));
}
#endif

static void cambi_cvalue_row(const VqCambiParams *p, const float *recip, const uint16_t *vals, const uint8_t *act,
                             const uint16_t *hist, int sw, int n, float *out)
{
    int j = 0;
#ifdef VQ_SIMD_X86_AVX2
    const int nd = p->num_diffs;
    const __m256i zero = _mm256_setzero_si256(), base = _mm256_set1_epi32(p->band_base);
    const __m256i bsize = _mm256_set1_epi32(p->band_size), vsw = _mm256_set1_epi32(sw);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), vnd = _mm256_set1_epi32(nd);
    for (; j + 8 <= n; j += 8) {
        const __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(vals + j)));
        const __m256i a = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(act + j)));
        const __m256i compact = _mm256_sub_epi32(v, base);
        /* 0 <= compact < band_size, and counted */
        const __m256i inb = _mm256_andnot_si256(_mm256_cmpgt_epi32(zero, compact), _mm256_cmpgt_epi32(bsize, compact));
        const __m256i on = _mm256_andnot_si256(_mm256_cmpeq_epi32(a, zero), inb);
        if (_mm256_testz_si256(on, on)) {
            _mm256_storeu_ps(out + j, _mm256_setzero_ps());
            continue;
        }
        const __m256i cidx = _mm256_and_si256(on, compact);   /* 0 where off: an address that exists */
        const __m256i col = _mm256_add_epi32(_mm256_set1_epi32(j), lanes);
        const __m256i p0 = cambi_gather_u16(hist, _mm256_add_epi32(_mm256_mullo_epi32(cidx, vsw), col), on);
        const __m256i value = _mm256_add_epi32(v, vnd);
        __m256 c = _mm256_setzero_ps();
        for (int d = 0; d < nd; d++) {
            /* value <= tvi_for_diff[d] && value + d + 1 > vlt_luma */
            const __m256i le = _mm256_cmpgt_epi32(_mm256_set1_epi32(p->tvi_for_diff[d] + 1), value);
            const __m256i gt = _mm256_cmpgt_epi32(value, _mm256_set1_epi32(p->vlt_luma - d - 1));
            const __m256i ok = _mm256_and_si256(on, _mm256_and_si256(le, gt));
            if (_mm256_testz_si256(ok, ok))
                continue;
            const __m256i dd = _mm256_set1_epi32(d + 1);
            const __m256i i1 = _mm256_add_epi32(cidx, dd), i2 = _mm256_sub_epi32(cidx, dd);
            const __m256i ok2 = _mm256_andnot_si256(_mm256_cmpgt_epi32(zero, i2), ok);   /* and i2 >= 0 */
            const __m256i q1 = cambi_gather_u16(hist, _mm256_add_epi32(_mm256_mullo_epi32(i1, vsw), col), ok);
            const __m256i q2 = cambi_gather_u16(hist, _mm256_add_epi32(_mm256_mullo_epi32(_mm256_and_si256(ok2, i2), vsw), col), ok2);
            const __m256i pp = _mm256_blendv_epi8(q2, q1, _mm256_cmpgt_epi32(q1, q2));   /* p1 > p2 ? p1 : p2 */
            const __m256i prod = _mm256_mullo_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(p->diff_weights[d]), p0), pp);
            const __m256i ridx = _mm256_and_si256(ok, _mm256_add_epi32(pp, p0));
            const __m256 r = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), recip, ridx, _mm256_castsi256_ps(ok), 4);
            const __m256 val = _mm256_mul_ps(_mm256_cvtepi32_ps(prod), r);
            const __m256 take = _mm256_and_ps(_mm256_castsi256_ps(ok), _mm256_cmp_ps(val, c, _CMP_GT_OQ));
            c = _mm256_blendv_ps(c, val, take);
        }
        _mm256_storeu_ps(out + j, _mm256_and_ps(c, _mm256_castsi256_ps(on)));
    }
#endif
    vq_cambi_cvalue_row_plain(p, recip, vals + j, act + j, hist + j, sw, n - j, out + j);
}

/* CAMBI's mode of three: the plain function's choice as selects (equal
 * pairs first, then the minimum), a straight loop the compiler vectorises */
static void cambi_mode3_row(const uint16_t *a, const uint16_t *b, const uint16_t *c, int n, uint16_t *out)
{
    for (int j = 0; j < n; j++) {
        const uint16_t x = a[j], y = b[j], z = c[j];
        const uint16_t xy = x < y ? x : y, mn = xy < z ? xy : z;
        const uint16_t yz = y == z ? y : mn;
        out[j] = (x == y || x == z) ? x : yz;
    }
}

extern "C" const VqCpuSimd VQ_SIMD_TABLE = {
    VQ_SIMD_NAME, vif_stat_row, vif_sub_row, motion_row, psnr_row, adm_dwt0_row, adm_dwt_s123_row,
    adm_sums_row, adm_decouple_row, cambi_cvalue_row, cambi_mode3_row,
};
