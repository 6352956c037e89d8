/* cpu_simd.cpp - which table of cpu_simd.h runs (see there). */
#include "simd/cpu_simd.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VQ_CPU_SIMD_X86 1
extern "C" {
extern const VqCpuSimd vq_cpu_simd_sse2, vq_cpu_simd_avx2, vq_cpu_simd_avx512;
}
#endif

static const VqCpuSimd plain_table = {
    "plain", vq_vif_stat_row_plain, vq_vif_sub_row_plain, vq_motion_row_plain, vq_psnr_row_plain,
    vq_adm_dwt0_row_plain, vq_adm_dwt_s123_row_plain, vq_adm_sums_row_plain,
    vq_adm_decouple_row_plain, vq_cambi_cvalue_row_plain, vq_cambi_mode3_row_plain,
    vq_psnr_hvs_row_plain,
};

extern "C" const char *const vq_cpu_simd_names[] = {
    "plain",
#ifdef VQ_CPU_SIMD_X86
    "sse2", "avx2", "avx512",
#endif
    nullptr,
};

extern "C" const VqCpuSimd *vq_cpu_simd_get(const char *name)
{
    if (!name)
        return nullptr;
    if (!std::strcmp(name, "plain") || !std::strcmp(name, "0"))
        return &plain_table;
#ifdef VQ_CPU_SIMD_X86
    __builtin_cpu_init();
    if (!std::strcmp(name, "sse2"))
        return &vq_cpu_simd_sse2;
    if (!std::strcmp(name, "avx2"))
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") ? &vq_cpu_simd_avx2 : nullptr;
    if (!std::strcmp(name, "avx512"))
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                       __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
                       __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("bmi2")
                   ? &vq_cpu_simd_avx512
                   : nullptr;
#endif
    return nullptr;
}

static const VqCpuSimd *best_table()
{
    const char *env = std::getenv("VQ_CPU_SIMD");
    if (env && *env) {
        const VqCpuSimd *t = vq_cpu_simd_get(env);
        if (t)
            return t;
    }
    const VqCpuSimd *t = nullptr;
    for (const char *n : { "avx512", "avx2", "sse2" })
        if (!t)
            t = vq_cpu_simd_get(n);
    return t ? t : &plain_table;
}

static std::atomic<const VqCpuSimd *> forced{nullptr};

extern "C" const VqCpuSimd *vq_cpu_simd(void)
{
    const VqCpuSimd *f = forced.load(std::memory_order_acquire);
    if (f)
        return f;
    static const VqCpuSimd *const chosen = best_table();
    return chosen;
}

extern "C" const char *vqcuda_cpu_simd(void)
{
    return vq_cpu_simd()->name;
}

extern "C" int vq_cpu_simd_force(const char *name)
{
    if (!name) {
        forced.store(nullptr, std::memory_order_release);
        return 0;
    }
    const VqCpuSimd *t = vq_cpu_simd_get(name);
    if (!t)
        return -1;
    forced.store(t, std::memory_order_release);
    return 0;
}
