/* Built instead of cuda_exec.cu when there is no nvcc: the CPU executor only. */
#include <stdio.h>

#include "cuda_exec.h"
#include "vqcuda.h"

int vq_cuda_available(char *err, size_t errlen)
{
    snprintf(err, errlen, "libvqcuda was built without CUDA");
    return 0;
}

int vq_cuda_exec_open(VqCudaExec **e, const VqCudaExecConfig *cfg, char *err, size_t errlen)
{
    (void)cfg;
    *e = NULL;
    snprintf(err, errlen, "libvqcuda was built without CUDA");
    return VQ_ENODEV;
}

int vq_cuda_exec_submit(VqCudaExec *e, const VqPlaneView ref[3], const VqPlaneView dis[3],
                        int on_device, int score, char *err, size_t errlen)
{
    (void)e; (void)ref; (void)dis; (void)on_device; (void)score;
    snprintf(err, errlen, "libvqcuda was built without CUDA");
    return VQ_ENODEV;
}

int vq_cuda_exec_in_flight(const VqCudaExec *e) { (void)e; return 0; }
int vq_cuda_exec_depth(const VqCudaExec *e) { (void)e; return 3; }
int vq_cuda_pipeline_depth(void) { return 3; }


const void *vq_cuda_exec_module_fold_data(const VqCudaExec *e, int k) { (void)e; (void)k; return NULL; }

int vq_cuda_exec_collect(VqCudaExec *e, const int64_t **rows, char *err, size_t errlen)
{
    (void)e; *rows = NULL;
    snprintf(err, errlen, "libvqcuda was built without CUDA");
    return VQ_ENODEV;
}

void vq_cuda_exec_close(VqCudaExec **e) { if (e) *e = NULL; }

VqCudaRef *vq_cuda_exec_ref(VqCudaExec *e) { (void)e; return NULL; }

void vq_cuda_ref_release(VqCudaRef *r) { (void)r; }

int vq_cuda_exec_lead(VqCudaExec *e, char *err, size_t errlen) { (void)e; (void)err; (void)errlen; return VQ_OK; }

int vq_cuda_exec_share(VqCudaExec *e, VqCudaRef *r) { (void)e; (void)r; return 0; }
