/*
 * simd_cambi.h - CAMBI's c-value and mode-of-three rows: a part of simd_impl.h (included there, inside
 * the instruction set's namespace; its rules hold here).
 */
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
