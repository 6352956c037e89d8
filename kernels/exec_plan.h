/*
 * exec_plan.h - what an executor runs for every frame pair, and where in the
 * per-frame row-sum buffer each run writes (kernels/vq_rows.h's sections,
 * repeated once per feature instance).  Built once per session by
 * hostmath/ (feature_plan.cpp) from the models and features asked for; POD, so the
 * CPU and CUDA executors take the same plan.
 *
 * Instances: the metric modules' (kernels/module.h), one per distinct row
 * work (vmaf + vmaf_neg in one run: two of VIF and of ADM, one of motion).
 */
#ifndef VQ_EXEC_PLAN_H
#define VQ_EXEC_PLAN_H

#include <stddef.h>
#include <string.h>

#include "vq_rows.h"
#include "module.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqExecPlan {
    int w, h, bpc;
    /* planes as libvmaf's pictures hold them: chroma w >> ss, h >> ss */
    int plane_w[3], plane_h[3];
    int n_modules;              /* metric modules' instances (module.h): each its own section */
    VqModuleExec module[VQ_EXEC_MAX_MODULES];
    size_t total;               /* int64 words per frame */
} VqExecPlan;

/* Lay out the modules' sections one after another. */
static inline void vq_exec_plan_layout(VqExecPlan *p)
{
    size_t off = 0;
    int k;
    for (k = 0; k < p->n_modules; k++) {
        p->module[k].off = off;
        off += p->module[k].words;
    }
    p->total = off;
}

/* The first feature of the plan the CUDA executor does not run yet (its
 * extractor's name), or NULL: the CUDA executor refuses such a plan, and a
 * session on host pictures with device=auto takes the CPU for it: a module
 * without CUDA tables (none today), a float_adm whose powf the device cannot
 * reproduce (the host's libm is not glibc's). */
static inline const char *vq_exec_plan_gpu_lacks(const VqExecPlan *p)
{
    int k;
    for (k = 0; k < p->n_modules; k++) {
        if (p->module[k].skip)
            continue;
        if (!p->module[k].cuda)
            return p->module[k].name;
        if (p->module[k].g.cuda_lacks)
            return p->module[k].g.cuda_lacks;
    }
    return NULL;
}

#ifdef __cplusplus
}
#endif
#endif /* VQ_EXEC_PLAN_H */
