/*
 * model.cpp - predicting with a libvmaf model (predict.c, svm.cpp), see
 * model.hpp; the model is read by model_load.cpp and model_svm.cpp.
 *
 * Built with -ffp-contract=off: slope * x + intercept rounds twice, as in
 * libvmaf.
 */
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "c_locale.h"
#include "registry.hpp"
#include "model_impl.hpp"
#include "vq_error.h"
#include "vqcuda.h"

namespace vq {
namespace model_detail {

namespace {

constexpr size_t kMaxFileBytes = size_t(64) << 20;   /* a model file read at most */

/* ------------------------------------------------------------------ */
/* prediction (predict.c, svm.cpp)                                     */

/* Kernel::dot: the indices both lists have, in index order */
double dot(const SvmNode *x, const SvmNode *y)
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
double powi(double base, int times)
{
    double tmp = base, ret = 1.0;
    for (int t = times; t > 0; t /= 2) {
        if (t % 2 == 1)
            ret *= tmp;
        tmp = tmp * tmp;
    }
    return ret;
}

/* Kernel::k_function; RBF sums the squared distance in the merge order of
 * the two index lists (an index one list lacks adds its square) */
double kernel(const Svm &svm, const SvmNode *x, const SvmNode *y)
{
    switch (svm.kernel_type) {
    case KERNEL_LINEAR:
        return dot(x, y);
    case KERNEL_POLY:
        return powi(svm.gamma * dot(x, y) + svm.coef0, svm.degree);
    case KERNEL_RBF: {
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
        return std::exp(-svm.gamma * sum);
    }
    case KERNEL_SIGMOID:
        return std::tanh(svm.gamma * dot(x, y) + svm.coef0);
    default:
        return 0;
    }
}

/* svm_predict_values for ONE_CLASS, EPSILON_SVR and NU_SVR */
double svm_predict(const Svm &svm, const SvmNode *x)
{
    double sum = 0;
    for (size_t i = 0; i < svm.sv.size(); i++)
        sum += svm.coef[i] * kernel(svm, x, svm.sv[i]);
    sum -= svm.rho;
    if (svm.svm_type == SVM_ONE_CLASS)
        return sum > 0 ? 1 : -1;
    return sum;
}

/* find_linear_function_parameters (its result is ignored by the caller) */
void line_through(const Knot &p1, const Knot &p2, double *alpha, double *beta)
{
    if (!(p1.x <= p2.x && p1.y <= p2.y))
        return;
    if (p2.x - p1.x == 0 || p2.y - p1.y == 0) {
        if (!(p1.x == p2.x && p1.y == p2.y))
            return;
        *alpha = 1.0;
        *beta = 0.0;
    } else if (p1.x == 0) {
        *beta = p1.y;
        *alpha = (p2.y - *beta) / p2.x;
    } else {
        *alpha = (p2.y - p1.y) / (p2.x - p1.x);
        *beta = p1.y - (p1.x * (*alpha));
    }
}

/* piecewise_linear_mapping, including where it stops half-way */
void piecewise_linear(double x, const Transform &t, double *y)
{
    double slope = 0.0, offset = 0.0;
    if (t.n_knots <= 1)
        return;
    const unsigned n_seg = t.n_knots - 1;
    *y = 0.0;
    for (unsigned idx = 0; idx < n_seg; idx++) {
        const Knot &k0 = t.knots[idx], &k1 = t.knots[idx + 1];
        if (!(k0.x < k1.x && k0.y <= k1.y))
            return;
        const bool cond0 = k0.x <= x, cond1 = x <= k1.x;
        if (k0.y == k1.y) {
            if (cond0 && cond1)
                *y = k0.y;
            if (idx == 0 && x < k0.x)
                *y = k0.y;
            if (idx == n_seg - 1 && x > k1.x)
                *y = k0.y;
        } else {
            line_through(k0, k1, &slope, &offset);
            if (cond0 && cond1)
                *y = slope * x + offset;
            if (idx == 0 && x < k0.x)
                *y = slope * x + offset;
            if (idx == n_seg - 1 && x > k1.x)
                *y = slope * x + offset;
        }
    }
}

/* predict.c transform: polynomial, then knots, then rectification */
void transform(const Transform &t, double *y_in)
{
    if (!t.enabled)
        return;
    double y_stage = *y_in, y_out;
    if (t.p0_enabled || t.p1_enabled || t.p2_enabled) {
        y_out = 0.;
        if (t.p0_enabled)
            y_out += t.p0;
        if (t.p1_enabled)
            y_out += t.p1 * y_stage;
        if (t.p2_enabled)
            y_out += t.p2 * y_stage * y_stage;
    } else {
        y_out = y_stage;
    }
    y_stage = y_out;
    if (t.knots_enabled)
        piecewise_linear(y_stage, t, &y_out);
    else
        y_out = y_stage;
    if (t.out_lte_in)
        y_out = (y_out > *y_in) ? *y_in : y_out;
    if (t.out_gte_in)
        y_out = (y_out < *y_in) ? *y_in : y_out;
    *y_in = y_out;
}

void clip(const Sub &s, double *p)
{
    if (!s.clip)
        return;
    *p = (*p < s.clip_min) ? s.clip_min : *p;
    *p = (*p > s.clip_max) ? s.clip_max : *p;
}

/* vmaf_predict_score_at_index; raw: flags DISABLE_CLIP | DISABLE_TRANSFORM */
double predict_sub(const Sub &s, const double *features, bool raw)
{
    SvmNode x[kMaxFeatures + 1];
    const size_t nf = s.input.size();
    for (size_t i = 0; i < nf; i++) {
        double v = features[s.input[i]];
        if (s.norm == NORM_LINEAR_RESCALE)
            v = s.fslope[i] * v + s.fintercept[i];
        x[i].index = int32_t(i + 1);
        x[i].value = v;
    }
    if (s.cfl) {    /* post_process_feature_from_another(..., 0.0, "adm3", "speed_chroma") */
        const size_t gi = (size_t)s.cfl_guiding, di = (size_t)s.cfl_guided;
        double guiding = x[gi].value, guided = x[di].value;
        if (s.norm == NORM_LINEAR_RESCALE) {
            guiding = (guiding - s.fintercept[gi]) / s.fslope[gi];
            guided = (guided - s.fintercept[di]) / s.fslope[di];
        }
        if (guided == 0.0) {
            double c = (-s.cfl_param * guiding) + s.cfl_param;
            if (s.norm == NORM_LINEAR_RESCALE)
                c = s.fslope[di] * c + s.fintercept[di];
            x[di].value = c;
        }
    }
    x[nf].index = -1;
    x[nf].value = 0.0;
    double p = svm_predict(s.svm, x);
    if (s.norm == NORM_LINEAR_RESCALE)
        p = (p - s.intercept) / s.slope;
    if (!raw) {
        transform(s.tf, &p);
        clip(s, &p);
    }
    return p;
}

/* predict.c score_compare */
int score_compare(double x, double y)
{
    return x > y ? 1 : x < y ? -1 : 0;
}

/* qsort(scores, score_compare) as glibc does it (msort.c: top-down merge
 * sort, stable); the same order for -0.0 / 0.0 and NaN as there */
void msort(double *b, size_t n, double *tmp)
{
    if (n <= 1)
        return;
    size_t n1 = n / 2, n2 = n - n1;
    double *b1 = b, *b2 = b + n1, *t = tmp;
    msort(b1, n1, tmp);
    msort(b2, n2, tmp);
    while (n1 > 0 && n2 > 0) {
        if (score_compare(*b1, *b2) <= 0) {
            *t++ = *b1++;
            n1--;
        } else {
            *t++ = *b2++;
            n2--;
        }
    }
    if (n1 > 0)
        memcpy(t, b1, n1 * sizeof(double));
    memcpy(b, tmp, (n - n2) * sizeof(double));
}

/* predict.c percentile, on sorted scores */
double percentile(const double *scores, unsigned n, double perc)
{
    const double p = perc * (n - 1) / 100.;
    const int idx_l = int(std::floor(p));
    const int idx_r = int(std::ceil(p));
    return (idx_l == idx_r) ? scores[idx_l] : scores[idx_l] * (idx_r - p) + scores[idx_r] * (p - idx_l);
}

/* transform and clip of the collection's first member (model "1"), flags 0 */
double post(const Sub &s, double v)
{
    transform(s.tf, &v);
    clip(s, &v);
    return v;
}

}  // namespace
}  // namespace model_detail

using namespace model_detail;

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model::~Model() = default;

std::unique_ptr<Model> Model::from_json(std::string_view text, unsigned flags)
{
    try {
        return Access::make(load_json(text, flags));
    } catch (const std::bad_alloc &) {
        fail(VQ_ENOMEM, "out of memory reading a model");
    }
}

std::unique_ptr<Model> Model::from_file(const std::string &path, unsigned flags)
{
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        fail(VQ_EMODEL, "model '%s': %s", path.c_str(), strerror(errno));
    std::string text;
    char buf[65536];
    size_t n;
    bool too_big = false;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
        if (text.size() + n > kMaxFileBytes) {
            too_big = true;
            break;
        }
        text.append(buf, n);
    }
    const bool err = ferror(f);
    fclose(f);
    if (too_big)
        fail(VQ_EMODEL, "model '%s': larger than %zu MiB", path.c_str(), kMaxFileBytes >> 20);
    if (err)
        fail(VQ_EMODEL, "model '%s': read error", path.c_str());
    try {
        return from_json(text, flags);
    } catch (const Error &e) {
        fail(e.code(), "model '%s': %s", path.c_str(), e.what());
    }
}

const std::vector<std::string> &Model::builtin_versions()
{
    static const std::vector<std::string> v = [] {
        std::vector<std::string> r;
        for (unsigned i = 0; i < builtin_n_models; i++)
            r.push_back(builtin_models[i].version);
        return r;
    }();
    return v;
}

std::unique_ptr<Model> Model::builtin(const std::string &version, unsigned flags)
{
    for (unsigned i = 0; i < builtin_n_models; i++)
        if (version == builtin_models[i].version)
            return Access::make(load_builtin(builtin_models[i], flags));
    std::string list;
    for (const std::string &v : builtin_versions())
        list += (list.empty() ? "" : ", ") + v;
    fail(VQ_EMODEL, "no built-in model \"%.100s\" (built in: %s)", version.c_str(), list.c_str());
}

const std::vector<ModelFeature> &Model::features() const
{
    return impl_->features;
}

bool Model::is_collection() const
{
    return impl_->collection;
}

size_t Model::output_count() const
{
    return impl_->collection ? impl_->subs.size() + 4 : 1;
}

/* model_collection_parse names member i "%s_%04d"; the collection's name is
 * member 1's without its last 5 characters, i.e. `name` again */
std::vector<std::string> Model::output_names(const std::string &name) const
{
    std::vector<std::string> out{ name };
    if (!impl_->collection)
        return out;
    for (size_t i = 1; i < impl_->subs.size(); i++) {
        char b[16];
        snprintf(b, sizeof(b), "_%04u", unsigned(i));
        out.push_back(name + b);
    }
    for (const char *suffix : { "_bagging", "_stddev", "_ci_p95_lo", "_ci_p95_hi" })
        out.push_back(name + suffix);
    return out;
}

/*
 * A collection (predict.c vmaf_bootstrap_predict_score_at_index): member
 * "0" is the plain model; the collection proper is members 1..n (member 0
 * is not in it).  Each member's own score (its clip and transform), then
 * from the raw scores (no clip, no transform): the mean, the population
 * stddev (sum of squared deviations in member order), the 2.5 / 97.5
 * percentiles of the sorted scores; mean, percentiles and mean +- 0.01 go
 * through member 1's transform and clip, and the stddev is scaled by the
 * slope between the last two.
 */
void Model::predict(const double *features, double *outputs) const
{
    const Impl &m = *impl_;
    outputs[0] = predict_sub(m.subs[0], features, false);
    if (!m.collection)
        return;
    const unsigned cnt = unsigned(m.subs.size() - 1);
    std::vector<double> scores(cnt);
    for (unsigned i = 0; i < cnt; i++) {
        const Sub &s = m.subs[i + 1];
        scores[i] = predict_sub(s, features, true);
        outputs[1 + i] = predict_sub(s, features, false);
    }
    double sum = 0.;
    for (unsigned i = 0; i < cnt; i++)
        sum += scores[i];
    const double mean = sum / cnt;
    const double delta = 0.01;
    double ssd = 0.;
    for (unsigned i = 0; i < cnt; i++) {
        const double d = scores[i] - mean;
        ssd += d * d;   /* pow(d, 2): GCC folds it to d * d */
    }
    double stddev = std::sqrt(ssd / cnt);
    std::vector<double> tmp(cnt);
    msort(scores.data(), cnt, tmp.data());
    const double lo = percentile(scores.data(), cnt, 2.5);
    const double hi = percentile(scores.data(), cnt, 97.5);
    const Sub &first = m.subs[1];
    const double plus = post(first, mean + delta), minus = post(first, mean - delta);
    const double slope = (plus - minus) / (2.0 * delta);
    stddev *= slope;
    double *o = outputs + 1 + cnt;
    o[0] = post(first, mean);
    o[1] = stddev;
    o[2] = post(first, lo);
    o[3] = post(first, hi);
}

}  // namespace vq

