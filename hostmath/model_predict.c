/*
 * model_predict.c - one frame's model score, in libvmaf's order of
 * operations (predict.c vmaf_predict_score_at_index, svm.cpp
 * svm_predict_values / Kernel::k_function).  Built with -ffp-contract=off:
 * slope * x + intercept must round twice, as there.
 */
#include <math.h>

#include "model.h"
#include "vqcuda.h"

/* Kernel::dot: sum over the indices both lists have, in index order */
static double dot(const VqSvmNode *x, const VqSvmNode *y)
{
    double sum = 0;
    while (x->index != -1 && y->index != -1) {
        if (x->index == y->index) {
            sum += x->value * y->value;
            ++x;
            ++y;
        } else if (x->index > y->index) {
            ++y;
        } else {
            ++x;
        }
    }
    return sum;
}

/* svm.cpp powi */
static double powi(double base, int times)
{
    double tmp = base, ret = 1.0;
    int t;
    for (t = times; t > 0; t /= 2) {
        if (t % 2 == 1)
            ret *= tmp;
        tmp = tmp * tmp;
    }
    return ret;
}

/* Kernel::k_function; for RBF the squared distance is summed in the merge
 * order of the two index lists (an index one list lacks adds its square) */
static double kernel(const VqSvm *svm, const VqSvmNode *x, const VqSvmNode *y)
{
    switch (svm->kernel_type) {
    case VQ_SVM_LINEAR:
        return dot(x, y);
    case VQ_SVM_POLY:
        return powi(svm->gamma * dot(x, y) + svm->coef0, svm->degree);
    case VQ_SVM_RBF: {
        double sum = 0;
        while (x->index != -1 && y->index != -1) {
            if (x->index == y->index) {
                const double d = x->value - y->value;
                sum += d * d;
                ++x;
                ++y;
            } else if (x->index > y->index) {
                sum += y->value * y->value;
                ++y;
            } else {
                sum += x->value * x->value;
                ++x;
            }
        }
        while (x->index != -1) {
            sum += x->value * x->value;
            ++x;
        }
        while (y->index != -1) {
            sum += y->value * y->value;
            ++y;
        }
        return exp(-svm->gamma * sum);
    }
    case VQ_SVM_SIGMOID:
        return tanh(svm->gamma * dot(x, y) + svm->coef0);
    default:
        return 0;
    }
}

/* svm_predict_values for ONE_CLASS, EPSILON_SVR and NU_SVR */
static double svm_predict(const VqSvm *svm, const VqSvmNode *x)
{
    double sum = 0;
    int32_t i;
    for (i = 0; i < svm->l; i++)
        sum += svm->sv_coef[i] * kernel(svm, x, svm->nodes + svm->sv_start[i]);
    sum -= svm->rho;
    if (svm->svm_type == VQ_SVM_ONE_CLASS)
        return sum > 0 ? 1 : -1;
    return sum;
}

/* predict.c find_linear_function_parameters (its return value is ignored there) */
static int line_through(const double p1[2], const double p2[2], double *alpha, double *beta)
{
    if (!(p1[0] <= p2[0] && p1[1] <= p2[1]))
        return -1;
    if (p2[0] - p1[0] == 0 || p2[1] - p1[1] == 0) {
        if (!(p1[0] == p2[0] && p1[1] == p2[1]))
            return -1;
        *alpha = 1.0;
        *beta = 0.0;
    } else if (p1[0] == 0) {
        *beta = p1[1];
        *alpha = (p2[1] - *beta) / p2[0];
    } else {
        *alpha = (p2[1] - p1[1]) / (p2[0] - p1[0]);
        *beta = p1[1] - (p1[0] * (*alpha));
    }
    return 0;
}

/* predict.c piecewise_linear_mapping, including where it stops half-way */
static void piecewise_linear(double x, const VqScoreTransform *t, double *y)
{
    double slope = 0.0, offset = 0.0;
    unsigned idx, n_seg;
    if (t->n_knots <= 1)
        return;
    n_seg = t->n_knots - 1;
    *y = 0.0;
    for (idx = 0; idx < n_seg; idx++) {
        const double *k0 = t->knots[idx], *k1 = t->knots[idx + 1];
        const int cond0 = k0[0] <= x, cond1 = x <= k1[0];
        if (!(k0[0] < k1[0] && k0[1] <= k1[1]))
            return;
        if (k0[1] == k1[1]) {
            if (cond0 && cond1)
                *y = k0[1];
            if (idx == 0 && x < k0[0])
                *y = k0[1];
            if (idx == n_seg - 1 && x > k1[0])
                *y = k0[1];
        } else {
            line_through(k0, k1, &slope, &offset);
            if (cond0 && cond1)
                *y = slope * x + offset;
            if (idx == 0 && x < k0[0])
                *y = slope * x + offset;
            if (idx == n_seg - 1 && x > k1[0])
                *y = slope * x + offset;
        }
    }
}

/* predict.c transform: polynomial, then knots, then rectification */
static void transform(const VqScoreTransform *t, double *y_in)
{
    double y_stage, y_out;
    if (!t->enabled)
        return;
    y_stage = *y_in;
    if (t->p0_enabled || t->p1_enabled || t->p2_enabled) {
        y_out = 0.;
        if (t->p0_enabled)
            y_out += t->p0;
        if (t->p1_enabled)
            y_out += t->p1 * y_stage;
        if (t->p2_enabled)
            y_out += t->p2 * y_stage * y_stage;
    } else {
        y_out = y_stage;
    }
    y_stage = y_out;
    if (t->knots_enabled)
        piecewise_linear(y_stage, t, &y_out);
    else
        y_out = y_stage;
    if (t->out_lte_in)
        y_out = (y_out > *y_in) ? *y_in : y_out;
    if (t->out_gte_in)
        y_out = (y_out < *y_in) ? *y_in : y_out;
    *y_in = y_out;
}

int vq_model_predict(const VqModel *m, const double *features, double *score)
{
    const VqModelData *d = &m->d;
    VqSvmNode x[VQ_MODEL_MAX_FEATURES + 1];
    double p;
    uint32_t i;

    if (d->n_features > VQ_MODEL_MAX_FEATURES)
        return VQ_EINVAL;
    for (i = 0; i < d->n_features; i++) {
        double v = features[i];
        if (d->norm_type == VQ_MODEL_NORM_LINEAR_RESCALE)
            v = d->feature[i].slope * v + d->feature[i].intercept;
        else if (d->norm_type != VQ_MODEL_NORM_NONE)
            return VQ_EINVAL;
        x[i].index = (int32_t)i + 1;
        x[i].value = v;
    }
    x[d->n_features].index = -1;
    x[d->n_features].value = 0.0;

    p = svm_predict(&d->svm, x);
    if (d->norm_type == VQ_MODEL_NORM_LINEAR_RESCALE)
        p = (p - d->intercept) / d->slope;
    transform(&d->transform, &p);
    if (d->score_clip_enabled) {
        p = (p < d->score_clip_min) ? d->score_clip_min : p;
        p = (p > d->score_clip_max) ? d->score_clip_max : p;
    }
    *score = p;
    return 0;
}
