/*
 * vq_rows.h - the per-frame row-sum buffer: the only thing that comes back
 * from an executor.  One array of int64 per frame pair; each section holds,
 * for every row of the plane or band it covers, the raw integer sums of that
 * row (before any per-row rounding shift: hostmath/ applies those, per row,
 * in the reference's order).  The GPU and CPU executors must produce
 * identical buffers; tests/parity compares them section by section.
 */
#ifndef VQ_ROWS_H
#define VQ_ROWS_H

#include <stddef.h>
#include <stdint.h>

#define VQ_VIF_SCALES 4
#define VQ_ADM_SCALES 4

/* per VIF row: the four int64 accumulators of the reference */
enum { VQ_VIF_NUM_LOG, VQ_VIF_DEN_LOG, VQ_VIF_NUM_NON_LOG, VQ_VIF_DEN_NON_LOG, VQ_VIF_NSUMS };

/* per ADM band row: denominator (ref H/V/D), CM numerator, AIM numerator */
enum {
    VQ_ADM_DEN_H, VQ_ADM_DEN_V, VQ_ADM_DEN_D,
    VQ_ADM_NUM_H, VQ_ADM_NUM_V, VQ_ADM_NUM_D,
    VQ_ADM_AIM_H, VQ_ADM_AIM_V, VQ_ADM_AIM_D,
    VQ_ADM_NSUMS
};

typedef struct VqRowLayout {
    int32_t w, h;                   /* luma size */
    int32_t cw, ch;                 /* chroma plane size (0 when no chroma) */
    int32_t vif_w[VQ_VIF_SCALES], vif_h[VQ_VIF_SCALES];   /* floor halving */
    int32_t adm_w[VQ_ADM_SCALES], adm_h[VQ_ADM_SCALES];   /* band sizes: ceil halving */
    size_t vif_off[VQ_VIF_SCALES];  /* vif_h[s] rows x VQ_VIF_NSUMS */
    size_t adm_off[VQ_ADM_SCALES];  /* adm_h[s] rows x VQ_ADM_NSUMS */
    size_t total;                   /* int64 elements in all */
} VqRowLayout;

static inline void vq_row_layout_init(VqRowLayout *l, int w, int h, int cw, int ch)
{
    size_t off = 0;
    int s;
    l->w = w; l->h = h; l->cw = cw; l->ch = ch;
    for (s = 0; s < VQ_VIF_SCALES; s++) {
        l->vif_w[s] = s ? l->vif_w[s - 1] / 2 : w;
        l->vif_h[s] = s ? l->vif_h[s - 1] / 2 : h;
        l->vif_off[s] = off; off += (size_t)l->vif_h[s] * VQ_VIF_NSUMS;
    }
    for (s = 0; s < VQ_ADM_SCALES; s++) {
        l->adm_w[s] = ((s ? l->adm_w[s - 1] : w) + 1) / 2;
        l->adm_h[s] = ((s ? l->adm_h[s - 1] : h) + 1) / 2;
        l->adm_off[s] = off; off += (size_t)l->adm_h[s] * VQ_ADM_NSUMS;
    }
    l->total = off;
}

/* The layout of a module's section that holds VIF's sections alone
 * (VQ_ROWS_VIF) or ADM's (VQ_ROWS_ADM), from the section's start: the
 * other feature's offsets are 0; returns its words (l->total). */
enum { VQ_ROWS_VIF, VQ_ROWS_ADM };
static inline size_t vq_row_layout_one(VqRowLayout *l, int w, int h, int which)
{
    size_t off = 0;
    int s;
    vq_row_layout_init(l, w, h, 0, 0);
    for (s = 0; s < VQ_VIF_SCALES; s++) {
        l->vif_off[s] = which == VQ_ROWS_VIF ? off : 0;
        if (which == VQ_ROWS_VIF)
            off += (size_t)l->vif_h[s] * VQ_VIF_NSUMS;
    }
    for (s = 0; s < VQ_ADM_SCALES; s++) {
        l->adm_off[s] = which == VQ_ROWS_ADM ? off : 0;
        if (which == VQ_ROWS_ADM)
            off += (size_t)l->adm_h[s] * VQ_ADM_NSUMS;
    }
    l->total = off;
    return off;
}

#endif /* VQ_ROWS_H */
