/*
 * simd_impl.h - the SIMD twins of the CPU executor's hot loops, written as
 * straight loops over columns (structure of arrays, tap loops outside the
 * column loops) that the compiler vectorises for the instruction set it is
 * included under (simd/cpu_simd_x86.cpp includes this file once per ISA,
 * each time inside its own namespace and #pragma GCC target).
 *
 * Exactness: every step keeps the plain loops' integer types, widths and
 * roundings (the per-element formulas are those of vif.h, adm.h, motion.h,
 * psnr.h; integer sums are exact in any order), and every double step is
 * the VQ_HD function itself (vq_vif_accumulate, vq_adm_pixel_cm_in), called
 * per pixel in the plain order, or its steps lane by lane in their order
 * (psnr_hvs: a block per lane).  No system header may be included here.
 */

constexpr int kCols = 256;  /* output columns per chunk */

/* the families' rows, each in a file of its own */
#include "simd/simd_vif.h"
#include "simd/simd_motion_psnr.h"
#include "simd/simd_adm.h"
#include "simd/simd_cambi.h"
#include "simd/simd_psnr_hvs.h"

extern "C" const VqCpuSimd VQ_SIMD_TABLE = {
    VQ_SIMD_NAME, vif_stat_row, vif_sub_row, motion_row, psnr_row, adm_dwt0_row, adm_dwt_s123_row,
    adm_sums_row, adm_decouple_row, cambi_cvalue_row, cambi_mode3_row, psnr_hvs_row,
};
