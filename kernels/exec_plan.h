/*
 * exec_plan.h - what an executor runs for every frame pair, and where in the
 * per-frame row-sum buffer each run writes (kernels/vq_rows.h's sections,
 * repeated once per feature instance).  Built once per session by
 * hostmath/ (feature_plan.cpp) from the models and features asked for; POD, so the
 * CPU and CUDA executors take the same plan.
 *
 * Instances: ADM once per distinct set of ADM parameters (vmaf + vmaf_neg
 * in one run: two), and the metric modules' instances (kernels/module.h;
 * VIF's and integer motion's among them).  The reference's work is not yet
 * shared between ADM instances.
 */
#ifndef VQ_EXEC_PLAN_H
#define VQ_EXEC_PLAN_H

#include <stddef.h>
#include <string.h>

#include "vq_rows.h"
#include "adm_params.h"
#include "float_small_exec.h"
#include "module.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_EXEC_MAX_INSTANCES 8

typedef struct VqExecPlan {
    int w, h, bpc;
    VqRowLayout base;           /* the frame's sizes (ADM's sections: adm_layout) */
    int n_adm;
    VqAdmParams adm[VQ_EXEC_MAX_INSTANCES];
    VqRowLayout adm_layout[VQ_EXEC_MAX_INSTANCES];   /* base with adm_off moved */
    /* planes as libvmaf's pictures hold them: chroma w >> ss, h >> ss */
    int plane_w[3], plane_h[3];
    int n_modules;              /* metric modules' instances (module.h): each its own section */
    VqModuleExec module[VQ_EXEC_MAX_MODULES];
    size_t total;               /* int64 words per frame */
} VqExecPlan;

/* Lay out the sections of n_adm ADM instances, then the modules'. */
static inline void vq_exec_plan_layout(VqExecPlan *p)
{
    const VqRowLayout *b = &p->base;
    size_t adm_words = 0, off = 0;
    int s, k;
    for (s = 0; s < VQ_ADM_SCALES; s++)
        adm_words += (size_t)b->adm_h[s] * VQ_ADM_NSUMS;
    for (k = 0; k < p->n_adm; k++) {
        p->adm_layout[k] = *b;
        for (s = 0; s < VQ_ADM_SCALES; s++)
            p->adm_layout[k].adm_off[s] = off + (b->adm_off[s] - b->adm_off[0]);
        off += adm_words;
    }
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
