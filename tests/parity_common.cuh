/*
 * parity_common.cuh - what every parity program (tests/parity*.cu) shares:
 * the CUDA error check that ends the program (it takes a cudaError_t, or
 * the executors' int carrying one), and the seeded xorshift
 * generator whose seed each program prints.
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
