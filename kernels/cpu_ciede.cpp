/*
 * cpu_ciede.cpp - the ciede executors' CPU loops.
 *
 * vq_ciede_cpu_run: the reference itself per pixel (hostmath's
 * vq_ciede_pixel_ref, glibc), exact words only.
 * vq_ciede_dev_cpu_run: the device stage (kernels/ciede.h, pure IEEE
 * arithmetic) in a plain loop: the words the CUDA kernel writes.
 */
/* GCC 12.2 (Debian 12) at -O2/-O3 SLP-vectorizes pairs of float
 * conversions and then folds (double)(float)x back to x: wrong code for the
 * reference's float roundings (docs/ciede.md, "Compiler").  No vectorizing in
 * this file. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-tree-loop-vectorize")
#endif
#include <string.h>

#include "ciede.h"
#include "ciede_exec.h"
#include "ciede_fold.h"

void vq_ciede_cpu_run_rows(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                           int64_t *buf, int64_t *px, int row0, int row1)
{
    for (int i = row0; i < row1; i++) {
        VqCiedeRowAcc acc;
        vq_ciede_acc_zero(&acc);
        for (int j = 0; j < g->w; j++) {
            uint32_t s[6];
            vq_ciede_fetch(ref, dis, g, i, j, s);
            const float v = vq_ciede_pixel_ref(s, g->bpc);
            const uint64_t word = ((uint64_t)VQ_CIEDE_TAG_EXACT << 32) | vq_f2u(v);
            px[(size_t)i * g->w + j] = (int64_t)word;
            vq_ciede_acc_word(&acc, word);
        }
        vq_ciede_acc_store(&acc, buf + VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * i);
    }
}

void vq_ciede_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                      int64_t *buf, int64_t *px)
{
    memset(buf, 0, sizeof(int64_t) * VQ_CIEDE_ROW_OFF);
    vq_ciede_cpu_run_rows(ref, dis, g, buf, px, 0, g->h);
}

void vq_ciede_dev_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                          int64_t *buf, int64_t *extra, int64_t *px)
{
    int64_t n = 0;
    for (int i = 0; i < g->h; i++) {
        VqCiedeRowAcc acc;
        vq_ciede_acc_zero(&acc);
        for (int j = 0; j < g->w; j++) {
            uint32_t s[6];
            const size_t k = (size_t)i * g->w + j;
            vq_ciede_fetch(ref, dis, g, i, j, s);
            uint64_t word = vq_ciede_dev_pixel(s, g->bpc);
            if ((uint32_t)(word >> 32) != VQ_CIEDE_TAG_EXACT) {
                /* listed (word 0) or two-candidate: a list entry */
                uint64_t e[2];
                if (word)
                    vq_ciede_two_entry(word, (uint32_t)k, e);
                else
                    vq_ciede_list_entry(s, (uint32_t)k, e);
                int64_t *dst = n < VQ_CIEDE_LIST_INLINE ? buf + 1 + 2 * n
                                                        : extra ? extra + 2 * (n - VQ_CIEDE_LIST_INLINE)
                                                                : nullptr;
                if (dst) {
                    dst[0] = (int64_t)e[0];
                    dst[1] = (int64_t)e[1];
                }
                if (!word)
                    word = ((uint64_t)VQ_CIEDE_TAG_LIST << 32) | (uint32_t)n;
                n++;
            }
            if (px)
                px[k] = (int64_t)word;
            vq_ciede_acc_word(&acc, word);
        }
        vq_ciede_acc_store(&acc, buf + VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * i);
    }
    for (int64_t k = n; k < VQ_CIEDE_LIST_INLINE; k++)
        buf[1 + 2 * k] = buf[2 + 2 * k] = 0;
    buf[0] = n;
}
