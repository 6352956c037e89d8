/*
 * cpu_exec.h - the CPU executor: runs every instance of a plan
 * (exec_plan.h) on one frame pair with the cpu_*.cpp loops, on the calling
 * thread and a pool of threads it keeps for the session.  Same buffer, same
 * sections as the CUDA executor (tests/parity.cu holds them equal).
 */
#ifndef VQ_CPU_EXEC_H
#define VQ_CPU_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "exec_plan.h"
#include "vq_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqCpuExec VqCpuExec;

/* threads: 1 runs everything on the caller's thread.  0, or VQ_ENOMEM /
 * VQ_EINVAL (sizes the loops cannot take) with a message. */
struct VqScalePlan;
/* dis_scale: distorted pictures of another size are upscaled first (NULL:
 * the reference's size; the plan must outlive the executor). */
int  vq_cpu_exec_open(VqCpuExec **e, const VqExecPlan *plan,
                      const struct VqScalePlan *dis_scale, int threads, char *err, size_t errlen);
/* One pair, synchronously; *rows stays valid until the next run.
 * score: ADM and the modules too (0: the temporal modules only, frames
 * n_subsample skips). */
int  vq_cpu_exec_run(VqCpuExec *e, const VqPlaneView ref[3], const VqPlaneView dis[3], int score,
                     const int64_t **rows, char *err, size_t errlen);
/* module instance k's fold data of the last run (its table's fold_data),
 * or NULL; valid until the next run */
const void *vq_cpu_exec_module_fold_data(const VqCpuExec *e, int k);
void vq_cpu_exec_close(VqCpuExec **e);

#ifdef __cplusplus
}
#endif
#endif /* VQ_CPU_EXEC_H */
