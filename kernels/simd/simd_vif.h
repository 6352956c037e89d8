/*
 * simd_vif.h - VIF's statistic and down-sampling rows (and the chunks' reflected fill): a part of simd_impl.h (included there, inside
 * the instruction set's namespace; its rules hold here).
 */
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
