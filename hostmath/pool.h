/*
 * pool.h - pooling one feature over frames, as libvmaf v3.2.0's
 * vmaf_feature_score_pooled (libvmaf.c) does it: one pass in frame order,
 * in double: sum += s; i_sum += 1 / (s + 1); min and max (the first frame
 * starts both); mean = sum / n; harmonic_mean = n / i_sum - 1.
 */
#ifndef VQ_POOL_H
#define VQ_POOL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqPooled {
    double min, max, mean, harmonic_mean;
} VqPooled;

/* The running form: add the frames' values one at a time, in frame order
 * (what a session does as results go out), then read the pooled values. */
typedef struct VqPoolAcc {
    double min, max, sum, i_sum;
    unsigned count;     /* unsigned, as libvmaf's pic_cnt: n / i_sum converts it */
} VqPoolAcc;

void vq_pool_acc_init(VqPoolAcc *a);
void vq_pool_acc_add(VqPoolAcc *a, double v);
/* 0, or VQ_EINVAL when nothing was added (libvmaf has no value to give then) */
int  vq_pool_acc_get(const VqPoolAcc *a, VqPooled *out);

/* values v[0], v[stride], ... of n frames (the scored ones, in frame order).
 * 0, or VQ_EINVAL for n == 0 (libvmaf has no value to give then). */
int vq_pool(const double *v, size_t n, VqPooled *out);
int vq_pool_strided(const double *v, size_t n, size_t stride, VqPooled *out);

#ifdef __cplusplus
}
#endif
#endif /* VQ_POOL_H */
