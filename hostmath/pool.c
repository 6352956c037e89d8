/* pool.c - see pool.h. */
#include "pool.h"
#include "vqcuda.h"

void vq_pool_acc_init(VqPoolAcc *a)
{
    a->min = a->max = a->sum = a->i_sum = 0.;
    a->count = 0;
}

void vq_pool_acc_add(VqPoolAcc *a, double s)
{
    a->sum += s;
    a->i_sum += 1. / (s + 1.);
    if (a->count == 0 || s < a->min)
        a->min = s;
    if (a->count == 0 || s > a->max)
        a->max = s;
    a->count++;
}

int vq_pool_acc_get(const VqPoolAcc *a, VqPooled *out)
{
    if (!a->count)
        return VQ_EINVAL;
    out->min = a->min;
    out->max = a->max;
    out->mean = a->sum / a->count;
    out->harmonic_mean = a->count / a->i_sum - 1.0;
    return 0;
}

int vq_pool_strided(const double *v, size_t n, size_t stride, VqPooled *out)
{
    VqPoolAcc a;
    size_t i;
    vq_pool_acc_init(&a);
    for (i = 0; i < n; i++)
        vq_pool_acc_add(&a, v[i * stride]);
    return vq_pool_acc_get(&a, out);
}

int vq_pool(const double *v, size_t n, VqPooled *out)
{
    return vq_pool_strided(v, n, 1, out);
}
