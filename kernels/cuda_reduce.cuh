/*
 * cuda_reduce.cuh - the block-wide integer sum the row-sum kernels share.
 * Integer addition: any order gives the same result.
 */
#ifndef VQ_CUDA_REDUCE_CUH
#define VQ_CUDA_REDUCE_CUH

/* Sum of v over a 1-D block of BLOCK threads (a power of two); every thread
 * must call it; the result is valid in every thread. */
template <int BLOCK>
__device__ __forceinline__ unsigned long long vq_block_sum_u64(unsigned long long v)
{
    __shared__ unsigned long long s[BLOCK];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int o = BLOCK / 2; o > 0; o >>= 1) {
        if ((int)threadIdx.x < o)
            s[threadIdx.x] += s[threadIdx.x + o];
        __syncthreads();
    }
    v = s[0];
    __syncthreads();   /* s may be reused by a following call */
    return v;
}

#endif /* VQ_CUDA_REDUCE_CUH */
