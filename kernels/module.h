/*
 * module.h - a metric module's row work as the executors see it
 * (docs/adding-a-metric.md).  A module lives in kernels/<metric>/ (its
 * __host__ __device__ arithmetic, its CPU loops and CUDA kernels, and the two
 * tables below) and hostmath/<metric>/ (its options, outputs, plan and fold:
 * hostmath/module.hpp).  The executors name no module: the plan
 * (exec_plan.h: VqExecPlan.module[]) gives each instance its tables, its
 * settings and its section of the row buffer, and the executors call the
 * tables.
 */
#ifndef VQ_MODULE_H
#define VQ_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an instance's row work needs to know: the frame's geometry and the
 * module's own settings (integers its plan hook fills from the options). */
typedef struct VqModuleGeom {
    int w, h, bpc;                  /* luma size, bit depth */
    int plane_w[3], plane_h[3];     /* libvmaf's plane sizes (0: no such plane) */
    int64_t opt[8];                 /* the module's settings */
    /* host memory the instance's plan made and owns, read (never written)
     * while the plan lives: by its tables (a kernels/ type), by its fold
     * (a hostmath/ type); NULL when it needs none */
    const void *host;
    const void *fold_host;
    /* NULL, or why the CUDA executor cannot run this instance (its plan
     * found something the device would not reproduce): the executor then
     * refuses the plan, as for a module without CUDA tables */
    const char *cuda_lacks;
    /* for the fold only (set by the session on its copy): what the executor
     * that ran the frame keeps for this instance's fold (its table's
     * fold_data), NULL when the table has none */
    const void *exec_data;
    /* set by the CPU executor on its copy, before its table's alloc: its
     * threads, and whether the instance runs in its steps' bands (1) or as
     * one task (0: a table with run, where the executor's split chose it) */
    int cpu_threads, cpu_bands;
    /* set by the CUDA executor on its copy, before its table's alloc, for a
     * lane's own instance (cuda_exec.cu, lanes): the one pipeline slot, 1 to
     * depth - 1, that instance runs, so that what it keeps per slot it needs
     * for that slot alone; 0: every slot (the first instance) */
    int cuda_slot;
} VqModuleGeom;

/* A part of a CPU step (VqModuleCpu.step_parts): its rows follow the
 * previous part's in the step's row numbers; most > 0: in at most that
 * many bands; first: one item, before the step's other items (an ordered
 * sum that must run on one thread, say: rows 1). */
typedef struct VqModulePart {
    int rows, most, first;
} VqModulePart;
#define VQ_MODULE_MAX_PARTS 8
/* a CPU table's steps at most (VqModuleCpu.steps) */
#define VQ_MODULE_MAX_STEPS 24

/* Rows [a, b) of a step, within its part of n rows from row base (the
 * parts' rows one after another): the part's own rows [*lo, *hi); 0 when
 * they miss it. */
static inline int vq_module_part_rows(int base, int n, int a, int b, int *lo, int *hi)
{
    *lo = (a > base ? a : base) - base;
    *hi = (b < base + n ? b : base + n) - base;
    return *lo < *hi;
}

/* The CPU executor's side.  scratch: per instance, made once (NULL when the
 * module needs none).  Steps run one after another on scored frames (step k
 * starts when every module's step k - 1 has ended); a step's rows [0, n) go
 * in bands to the executor's threads, any split, concurrently, so rows()
 * writes only what its rows own.  Every word of the section is written. */
typedef struct VqModuleCpu {
    int (*alloc)(void **scratch, const VqModuleGeom *g);    /* 0, or -1 (no memory) */
    void (*free)(void *scratch);
    int steps;
    int (*step_rows)(const VqModuleGeom *g, int step);      /* 0: nothing in that step */
    void (*rows)(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                 int64_t *section, int step, int row_begin, int row_end);
    /* steps (bit s: step s) whose "rows" are each a long task of its own
     * (a whole plane): they start first in their step, one per item */
    unsigned long_steps;
    /* optional (NULL: none): before the steps of a frame, 0, or -1 when
     * the pictures disagree with the instance's geometry (the executor
     * refuses the frame) */
    int (*check)(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3]);
    /* optional (NULL: not counted): the executor's cost hint, single-thread
     * nanoseconds per luma pixel (only ratios matter), for its split of the
     * threads */
    double (*cost)(const VqModuleGeom *g);
    /* optional (NULL: none): what the fold of the last frame run may read
     * besides the section (per-pixel words kept in the scratch, say),
     * valid until the next run; the fold sees it as g.exec_data */
    const void *(*fold_data)(void *scratch);
    /* optional: after every frame's steps (scored or not; the steps run on
     * scored frames only), on the executor's calling thread: state kept for
     * the next frame (its pictures, say) */
    void (*frame_end)(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3]);
    /* optional (NULL: step_rows' rows, one part): a step's parts, their
     * number (at most VQ_MODULE_MAX_PARTS) */
    int (*step_parts)(const VqModuleGeom *g, int step, VqModulePart parts[VQ_MODULE_MAX_PARTS]);
    /* optional (NULL: always in steps): the frame's whole work as one task
     * on one thread, 0 or -1 (refused); the executor runs it so, beside the
     * others' bands, where its cost is below a thread's share of the frame
     * (then g->cpu_bands is 0) */
    int (*run)(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
               int64_t *section);
    /* optional (NULL: rows cannot fail): after a scored frame's steps,
     * whether a rows() call of that frame failed (no memory for a band's
     * buffers, say: the executor refuses the frame); reading clears it */
    int (*rows_failed)(void *scratch);
} VqModuleCpu;

/* The CUDA executor's side: views and section in device memory; enqueue is
 * asynchronous on stream (a cudaStream_t) and capturable into a graph (no
 * host wait, nothing allocated); 0 or a cudaError_t.  slot: the frame's
 * pipeline slot (0 .. VQ_CUDA_PIPELINE_DEPTH - 1: a frame's slot is reused
 * once that frame was collected), for device memory kept per frame.
 * Consecutive frames may run at once (the executor's lanes): an instance
 * whose table has none of phase, replayed and enqueue_every (and that is not
 * temporal) is allocated once per slot and given that slot's frames only;
 * one that has them is allocated once, and each frame's work on it starts
 * after the frame before's. */
typedef struct VqModuleCuda {
    int (*alloc)(void **scratch, const VqModuleGeom *g);
    void (*free)(void *scratch);
    int (*enqueue)(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                   int64_t *d_section, void *stream, int slot);
    /* optional (NULL: none): once the frame of `slot` is collected, its
     * section in host memory; may copy, synchronously on stream (the
     * frame's), what the fold needs beyond the section; 0 or a
     * cudaError_t */
    int (*collect)(void *scratch, const VqModuleGeom *g, int slot, const int64_t *section, void *stream);
    /* optional: as VqModuleCpu's, for the frame collected last (valid until
     * the next submit) */
    const void *(*fold_data)(void *scratch);
    /* optional: on every frame (scored or not), after enqueue on a scored
     * one, on the same stream and as capturable: state kept for the next
     * frame, in device memory the instance owns */
    int (*enqueue_every)(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                         void *stream);
    /* optional (NULL: always 0): host-side state that decides what the
     * next frame's work reads or writes (float_motion's ring of two blurred
     * images, integer motion's of two or three frames): 0 .. 3, or -1 while
     * the frame's work is of its own (the first frames: the executor
     * enqueues it directly).  The executor captures a
     * frame's work into a graph per phase of its modules and replays it for
     * frames of the same phases, calling replayed instead of enqueue and
     * enqueue_every: the host-side state steps as they would have stepped it */
    int (*phase)(const void *scratch);
    void (*replayed)(void *scratch);
    /* optional (NULL: none): the reference's part of a frame's work (VIF's
     * scale images and moments), which depends on the reference picture and
     * the geometry alone: a ladder's leader makes it once per frame into a
     * part per pipeline slot (ref_alloc, ref_enqueue: asynchronous and
     * capturable like enqueue), and every rendition's instance of the same
     * table reads it (enqueue_shared in place of enqueue; the part is ready
     * on the device before the call's work starts) */
    int (*ref_alloc)(void **part, const VqModuleGeom *g);
    void (*ref_free)(void *part);
    int (*ref_enqueue)(void *part, const VqModuleGeom *g, const VqPlaneView ref[3], void *stream);
    int (*enqueue_shared)(void *scratch, const VqModuleGeom *g, const void *part, const VqPlaneView ref[3],
                          const VqPlaneView dis[3], int64_t *d_section, void *stream, int slot);
} VqModuleCuda;

/* One module instance in the executors' plan. */
typedef struct VqModuleExec {
    const char *name;               /* its extractor's name, for messages */
    const VqModuleCpu *cpu;
    const VqModuleCuda *cuda;       /* NULL: the CUDA executor does not run it (refused there) */
    VqModuleGeom g;
    int chroma;                     /* it reads the chroma planes (the CUDA executor copies them) */
    /* libvmaf's temporal extractor (float_motion): its row work (steps,
     * enqueue) runs on every frame, scored or not (n_subsample) */
    int temporal;
    /* its row work does not run here (nothing allocated, no steps, no
     * enqueue): a ladder's later rendition folds the section rendition 1
     * computed (hostmath/ladder.cpp) */
    int skip;
    size_t words;                   /* its section's int64 words per frame */
    size_t off;                     /* where the section starts (vq_exec_plan_layout) */
} VqModuleExec;

/* module instances in a plan at most (every extractor at once beside two
 * models' VIF and ADM instances fits) */
#define VQ_EXEC_MAX_MODULES 32

#ifdef __cplusplus
}
#endif

#endif /* VQ_MODULE_H */
