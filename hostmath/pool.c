/* pool.c - see pool.h. */
#include "pool.h"
#include "vqcuda.h"

int vq_pool_strided(const double *v, size_t n, size_t stride, VqPooled *out)
{
    double min = 0., max = 0., sum = 0., i_sum = 0.;
    unsigned pic_cnt = 0;   /* unsigned, as there: n / i_sum converts it */
    size_t i;
    if (!n)
        return VQ_EINVAL;
    for (i = 0; i < n; i++) {
        const double s = v[i * stride];
        pic_cnt++;
        sum += s;
        i_sum += 1. / (s + 1.);
        if (i == 0 || s < min)
            min = s;
        if (i == 0 || s > max)
            max = s;
    }
    out->min = min;
    out->max = max;
    out->mean = sum / pic_cnt;
    out->harmonic_mean = pic_cnt / i_sum - 1.0;
    return 0;
}

int vq_pool(const double *v, size_t n, VqPooled *out)
{
    return vq_pool_strided(v, n, 1, out);
}
