/*
 * cpu_simd_x86.cpp - simd_impl.h built three times, for SSE2 (the x86-64
 * baseline), AVX2 and AVX-512 (F, BW, VL, DQ), each in its own namespace
 * under its own #pragma GCC target; cpu_simd.cpp picks one at run time.
 * -ffp-contract=off (the project's flags) holds here too: no FMA appears.
 */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include "simd/cpu_simd.h"
#include "adm/adm.h"
#include "motion/motion.h"
#include "psnr/psnr.h"
#include "psnr_hvs/psnr_hvs.h"
#include "vif/vif.h"

#include <immintrin.h>

/* GCC 12's AVX-512 headers trip -Wmaybe-uninitialized and -Wuninitialized
 * on their own _mm512_undefined_* placeholders (GCC bug 105593) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
/* simd_psnr_hvs.h's vectors are wider than SSE2's and AVX2's registers; they
 * never cross a call (its functions inline), so the ABI note does not apply */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

extern "C" {
extern const VqCpuSimd vq_cpu_simd_sse2, vq_cpu_simd_avx2, vq_cpu_simd_avx512;
}

namespace vq_sse2 {
#define VQ_SIMD_NAME "sse2"
#define VQ_SIMD_TABLE vq_cpu_simd_sse2
#include "simd/simd_impl.h"
#undef VQ_SIMD_NAME
#undef VQ_SIMD_TABLE
}  // namespace vq_sse2

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi,bmi2,popcnt,lzcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,popcnt,lzcnt")
#endif
#define VQ_SIMD_X86_AVX2 1
namespace vq_avx2 {
#define VQ_SIMD_NAME "avx2"
#define VQ_SIMD_TABLE vq_cpu_simd_avx2
#include "simd/simd_impl.h"
#undef VQ_SIMD_NAME
#undef VQ_SIMD_TABLE
}  // namespace vq_avx2
#undef VQ_SIMD_X86_AVX2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx2,bmi,bmi2,popcnt,lzcnt"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx2,bmi,bmi2,popcnt,lzcnt,prefer-vector-width=512")
#endif
#define VQ_SIMD_X86_AVX2 1
#define VQ_SIMD_X86_AVX512 1
namespace vq_avx512 {
#define VQ_SIMD_NAME "avx512"
#define VQ_SIMD_TABLE vq_cpu_simd_avx512
#include "simd/simd_impl.h"
#undef VQ_SIMD_NAME
#undef VQ_SIMD_TABLE
}  // namespace vq_avx512
#undef VQ_SIMD_X86_AVX2
#undef VQ_SIMD_X86_AVX512
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif
