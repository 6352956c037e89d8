/*
 * glibc_powf_gpu - kernels/float_adm/glibc_powf.h on the device against the host's
 * powf (glibc's libm of the machine it runs on), bit for bit, on every
 * non-negative float x (2^31 of them: zero, subnormals, normals, infinity,
 * NaNs) for each exponent given; the device computes a chunk while the
 * host's threads compare the last one.
 *
 *   glibc_powf_gpu [y ...]        (default: 2.5)
 *
 * Exit 0: all equal; 1: a difference (the first few printed); 77: no GPU.
 */
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>
#include <thread>
#include <vector>

#include "float_adm/glibc_powf.h"
#include "parity_common.cuh"

namespace {

const uint32_t kChunk = 1u << 27;

__global__ void pow_kernel(uint32_t first, uint32_t n, float y, const VqPowfTables *t, float *out)
{
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n)
        return;
    out[k] = vq_glibc_powf(__uint_as_float(first + k), y, t);
}

/* the host's powf on [first, first + n) against got; the differences */
long compare(uint32_t first, uint32_t n, float y, const float *got, int threads)
{
    std::atomic<long> bad{ 0 };
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++)
        pool.emplace_back([&, t] {
            const uint32_t a = (uint32_t)((uint64_t)n * t / threads), b = (uint32_t)((uint64_t)n * (t + 1) / threads);
            for (uint32_t k = a; k < b; k++) {
                const uint32_t xb = first + k;
                float x;
                memcpy(&x, &xb, 4);
                const float want = powf(x, y);
                uint32_t w, g;
                memcpy(&w, &want, 4);
                memcpy(&g, &got[k], 4);
                if (w != g && !(want != want && got[k] != got[k])) {
                    if (bad.fetch_add(1) < 5)
                        printf("DIFF powf(%a, %a): host %a device %a\n", x, y, want, got[k]);
                }
            }
        });
    for (auto &th : pool)
        th.join();
    return bad.load();
}

}  // namespace

int main(int argc, char **argv)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("SKIP: no CUDA device\n");
        return 77;
    }
    std::vector<float> ys;
    for (int i = 1; i < argc; i++)
        ys.push_back(strtof(argv[i], NULL));
    if (ys.empty())
        ys.push_back(2.5f);
    const int threads = std::thread::hardware_concurrency() ? (int)std::thread::hardware_concurrency() : 4;
    static const VqPowfTables tables = VQ_POWF_TABLES_INIT;
    VqPowfTables *d_tab;
    float *d_out[2], *h_out[2];
    CK(cudaMalloc(&d_tab, sizeof(tables)));
    CK(cudaMemcpy(d_tab, &tables, sizeof(tables), cudaMemcpyHostToDevice));
    for (int k = 0; k < 2; k++) {
        CK(cudaMalloc(&d_out[k], kChunk * sizeof(float)));
        CK(cudaMallocHost(&h_out[k], kChunk * sizeof(float)));
    }
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    long total_bad = 0;
    for (float y : ys) {
        long bad = 0;
        const uint32_t chunks = 0x80000000u / kChunk;
        for (uint32_t c = 0; c <= chunks; c++) {
            /* enqueue chunk c, then compare chunk c - 1 while it runs */
            if (c < chunks) {
                pow_kernel<<<kChunk / 256, 256, 0, st>>>(c * kChunk, kChunk, y, d_tab, d_out[c % 2]);
                CK(cudaGetLastError());
                CK(cudaMemcpyAsync(h_out[c % 2], d_out[c % 2], kChunk * sizeof(float), cudaMemcpyDeviceToHost, st));
            }
            if (c > 0)
                bad += compare((c - 1) * kChunk, kChunk, y, h_out[(c - 1) % 2], threads);
            CK(cudaStreamSynchronize(st));
        }
        printf("y=%a (%g): %s on all 2^31 non-negative x (%ld differ)\n", y, y, bad ? "DIFFERENT" : "equal", bad);
        total_bad += bad;
    }
    return total_bad ? 1 : 0;
}
