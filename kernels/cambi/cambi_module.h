/*
 * cambi_module.h - what the cambi module's tables (cpu_cambi_module.cpp,
 * cuda_cambi_module.cu) read of an instance: its passes' parameters, tables
 * and words within its section, made by its plan (hostmath/cambi/cambi.cpp)
 * and pointed to by VqModuleGeom.host (the fold reads it too).
 *
 * The section: the distorted pass's words (cambi.h's VqCambiLayout), with
 * full_ref the source pass's words (the reference luma), with heatmaps_path
 * the distorted pass's c-values of every scale (sw[s] x sh[s] floats, raster
 * order, two per word, from cv_off[s]), on every scored frame.
 */
#ifndef VQ_CAMBI_MODULE_H
#define VQ_CAMBI_MODULE_H

#include <stddef.h>

#include "cambi/cambi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqCambiModuleHost {
    int passes;                         /* 1, or 2: full_ref's source pass too */
    VqCambiParams p[2];                 /* [0]: the distorted luma's pass, [1]: the reference luma's */
    VqCambiLayout l[2];                 /* offsets within the section */
    const VqCambiTables *t[2];          /* the plan's (host memory) */
    int cv;                             /* heatmaps_path: the c-values ride in the section */
    size_t cv_off[VQ_CAMBI_SCALES];
    size_t words;                       /* the section's words */
} VqCambiModuleHost;

/* the section's layout from h->passes, h->p[] and h->cv */
static inline void vq_cambi_module_layout(VqCambiModuleHost *h)
{
    size_t off = 0;
    int k, s;
    for (k = 0; k < h->passes; k++) {
        vq_cambi_layout_init(&h->l[k], &h->p[k], off);
        off += h->l[k].total;
    }
    for (s = 0; s < VQ_CAMBI_SCALES; s++) {
        h->cv_off[s] = off;
        if (h->cv)
            off += ((size_t)h->p[0].sw[s] * h->p[0].sh[s] + 1) / 2;
    }
    h->words = off;
}

#ifdef __cplusplus
}
#endif
#endif /* VQ_CAMBI_MODULE_H */
