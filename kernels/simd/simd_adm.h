/*
 * simd_adm.h - ADM's DWT, row sums and decouple + CSF rows: a part of simd_impl.h (included there, inside
 * the instruction set's namespace; its rules hold here).
 */
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
