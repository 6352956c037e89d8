/*
 * parity_common.cuh - what every parity family (tests/parity/<family>.cu,
 * the families of vqparity) and glibc_powf_gpu.cu share: the CUDA error
 * check that ends the program (it takes a cudaError_t, or the executors'
 * int carrying one), and the seeded xorshift generator whose seed each
 * family prints.  The generator's state is static: each translation unit,
 * so each family, has its own, seeded by its entry from the driver's args.
 */
#ifndef VQ_PARITY_COMMON_CUH
#define VQ_PARITY_COMMON_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (cudaError_t)(x);                                                      \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

#endif /* VQ_PARITY_COMMON_CUH */
