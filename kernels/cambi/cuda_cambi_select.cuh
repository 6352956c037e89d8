/*
 * cuda_cambi_select.cuh - a part of cuda_cambi.cu, included there inside its
 * anonymous namespace (it uses that file's constants and types): the exact
 * selection of the k-th largest c-value (a radix select on the float bits,
 * integer counts) and the rows' words of the pooling (docs/cambi.md
 * section 6).
 */
#ifndef VQ_CUDA_CAMBI_SELECT_CUH
#define VQ_CUDA_CAMBI_SELECT_CUH

/* ---- selection: T = the k-th largest c-value (as bits) -------------------- */

__device__ __forceinline__ int digit_shift(int pass)
{
    return pass == 0 ? 21 : (pass == 1 ? 10 : 0);
}

__device__ __forceinline__ uint32_t digit_mask(int pass)
{
    return pass == 2 ? 0x3ffu : 0x7ffu;
}

/* counts of the pass's digit among the values whose higher digits are the
 * prefix found so far (integer counts: any order) */
__global__ void __launch_bounds__(kThreads)
cambi_sel_hist_kernel(Scales sc, int pass, SelState *sel)
{
    const int s = blockIdx.y, n = sc.n[s];
    const float *__restrict__ cv = sc.cv[s];
    SelState *st = sel + s;
    __shared__ uint32_t h[kBins];
    for (int e = threadIdx.x; e < kBins; e += kThreads)
        h[e] = 0;
    __syncthreads();
    const int sh = digit_shift(pass);
    const uint32_t dm = digit_mask(pass);
    const int hi = sh + (pass == 2 ? 10 : 11);   /* bits above the digit */
    const uint32_t prefix = st->prefix;
    uint32_t zeros = 0;                          /* the common value 0: bin 0 of every pass */
    for (int x = blockIdx.x * kThreads + threadIdx.x; x < n; x += gridDim.x * kThreads) {
        const uint32_t b = vq_f32_bits(cv[x]);
        if (pass > 0 && (b >> hi) != prefix)
            continue;
        if (b == 0)
            zeros++;
        else
            atomicAdd(&h[(b >> sh) & dm], 1u);
    }
    if (zeros)
        atomicAdd(&h[0], zeros);
    __syncthreads();
    for (int e = threadIdx.x; e < kBins; e += kThreads)
        if (h[e])
            atomicAdd(&st->hist[e], h[e]);
}

/* block s: scale s's bin (from the top) holding the krem-th largest;
 * clears the counts for the next pass */
__global__ void __launch_bounds__(kFindThreads)
cambi_sel_find_kernel(Scales sc, int pass, SelState *sel)
{
    const int k = sc.k[blockIdx.x];
    SelState *st = sel + blockIdx.x;
    __shared__ uint32_t cum[kBins];      /* cum[r]: counts of bins kBins-1-r' for r' <= r */
    __shared__ uint32_t found;
    const int nb = pass == 2 ? 1024 : kBins;
    for (int r = threadIdx.x; r < kBins; r += kFindThreads) {
        const int e = nb - 1 - r;
        cum[r] = r < nb ? st->hist[e] : 0;
    }
    if (threadIdx.x == 0)
        found = 0xffffffffu;
    __syncthreads();
    for (int e = threadIdx.x; e < kBins; e += kFindThreads)
        st->hist[e] = 0;
    for (int o = 1; o < kBins; o <<= 1) {   /* inclusive scan (Hillis-Steele) */
        uint32_t v[kBins / kFindThreads];
        for (int q = 0; q < kBins / kFindThreads; q++) {
            const int r = threadIdx.x + q * kFindThreads;
            v[q] = cum[r] + (r >= o ? cum[r - o] : 0);
        }
        __syncthreads();
        for (int q = 0; q < kBins / kFindThreads; q++)
            cum[threadIdx.x + q * kFindThreads] = v[q];
        __syncthreads();
    }
    const uint32_t krem = pass == 0 ? (uint32_t)k : st->krem;
    for (int r = threadIdx.x; r < nb; r += kFindThreads)
        if (cum[r] >= krem && (r == 0 || cum[r - 1] < krem))
            found = (uint32_t)r;
    __syncthreads();
    if (threadIdx.x == 0) {
        const uint32_t r = found;   /* always found: krem <= the values counted */
        const uint32_t bin = (uint32_t)(nb - 1) - r;
        const uint32_t before = r ? cum[r - 1] : 0;
        const uint32_t prefix = pass == 0 ? bin : (st->prefix << (pass == 2 ? 10 : 11)) | bin;
        st->krem = krem - before;
        st->prefix = prefix;
        if (pass == 2)
            st->tbits = prefix;
    }
}

/* per row: count, 2^-32 sum and lowest-bit minimum of the values above T */
__global__ void __launch_bounds__(kThreads)
cambi_row_words_kernel(Scales sc, const SelState *sel)
{
    __shared__ int smin[kThreads];
    const int s = blockIdx.y, i = blockIdx.x, sw = sc.sw[s];
    if (i >= sc.sh[s])
        return;
    const float *__restrict__ cv = sc.cv[s];
    const SelState *st = sel + s;
    int64_t *sel_word = sc.hdr[s] + VQ_CAMBI_SEL_T, *row_words = sc.rows[s];
    const uint32_t tb = st->tbits;
    unsigned long long cnt = 0, sum = 0;
    int minexp = VQ_CAMBI_NONE_EXP;
    for (int j = threadIdx.x; j < sw; j += kThreads) {
        const uint32_t b = vq_f32_bits(cv[(size_t)i * sw + j]);
        if (b > tb) {
            cnt++;
            sum += vq_cambi_fixed32(b);
            minexp = min(minexp, vq_cambi_lowbit_exp(b));
        }
    }
    cnt = vq_block_sum_u64<kThreads>(cnt);
    sum = vq_block_sum_u64<kThreads>(sum);
    smin[threadIdx.x] = minexp;
    __syncthreads();
    for (int o = kThreads / 2; o > 0; o >>= 1) {
        if ((int)threadIdx.x < o)
            smin[threadIdx.x] = min(smin[threadIdx.x], smin[threadIdx.x + o]);
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        int64_t *w = row_words + (size_t)i * VQ_CAMBI_ROW_WORDS;
        w[VQ_CAMBI_ROW_COUNT] = (int64_t)cnt;
        w[VQ_CAMBI_ROW_SUM] = (int64_t)sum;
        w[VQ_CAMBI_ROW_MINEXP] = smin[0];
        if (i == 0)
            *sel_word = (int64_t)tb;
    }
}

#endif /* VQ_CUDA_CAMBI_SELECT_CUH */
