/*
 * model_svm.cpp - a model's libsvm text, as libvmaf's svm.cpp
 * SVMModelParser reads it, into a model_detail::Svm (model_impl.hpp).
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

/* ------------------------------------------------------------------ */
/* the libsvm text, as svm.cpp SVMModelParser reads it                 */

class SvmText {
public:
    explicit SvmText(const std::string &s) : p_(s.data()), end_(s.data() + s.size()) {}

    /* read_next: a word ended by ' ' or '\n'; false for an empty word or the end */
    bool word(std::string *w)
    {
        w->clear();
        while (p_ < end_) {
            const char c = *p_++;
            if (c == '\n' || c == ' ')
                return !w->empty();
            if (w->size() < 64)
                w->push_back(c);
        }
        return false;
    }
    /* get(): istream >> value, then ignore(1) */
    bool get_double(double *v)
    {
        if (!scan_double(&p_, end_, v))
            return false;
        skip1();
        return true;
    }
    bool get_int(int32_t *v)
    {
        if (!scan_int(&p_, end_, v))
            return false;
        skip1();
        return true;
    }
    /* getline */
    bool line(const char **b, const char **e)
    {
        if (p_ >= end_)
            return false;
        const char *nl = static_cast<const char *>(memchr(p_, '\n', size_t(end_ - p_)));
        *b = p_;
        *e = nl ? nl : end_;
        p_ = nl ? nl + 1 : end_;
        return true;
    }

    static bool is_space(char c)
    {
        return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
    }
    static bool is_digit(char c) { return c >= '0' && c <= '9'; }

    /* istream >> double (libstdc++ num_get): whitespace skipped, then the
     * characters [+-]digits[.digits][(e|E)[+-]digits] go to strtod ("C"
     * locale), which must take them all; an infinite result fails. */
    static bool scan_double(const char **pp, const char *end, double *out)
    {
        const char *p = *pp;
        while (p < end && is_space(*p))
            p++;
        const char *start = p;
        int digits = 0;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        while (p < end && is_digit(*p)) {
            p++;
            digits++;
        }
        if (p < end && *p == '.') {
            p++;
            while (p < end && is_digit(*p)) {
                p++;
                digits++;
            }
        }
        if (digits && p < end && (*p == 'e' || *p == 'E')) {
            p++;
            if (p < end && (*p == '+' || *p == '-'))
                p++;
            while (p < end && is_digit(*p))
                p++;
        }
        *pp = p;
        const size_t n = size_t(p - start);
        if (!digits || n >= 512)
            return false;
        char buf[512];
        memcpy(buf, start, n);
        buf[n] = 0;
        char *stop;
        const double v = vq_strtod_c(buf, &stop);
        if (*stop || std::isinf(v))
            return false;
        *out = v;
        return true;
    }

    /* istream >> int: [+-]digits, failing on overflow */
    static bool scan_int(const char **pp, const char *end, int32_t *out)
    {
        const char *p = *pp;
        while (p < end && is_space(*p))
            p++;
        bool neg = false;
        if (p < end && (*p == '+' || *p == '-'))
            neg = *p++ == '-';
        int64_t v = 0;
        int digits = 0;
        bool over = false;
        while (p < end && is_digit(*p)) {
            v = v * 10 + (*p++ - '0');
            digits++;
            if (v > int64_t(INT32_MAX) + 1)
                over = true, v = int64_t(INT32_MAX) + 1;
        }
        *pp = p;
        if (!digits || over)
            return false;
        v = neg ? -v : v;
        if (v < INT32_MIN || v > INT32_MAX)
            return false;
        *out = int32_t(v);
        return true;
    }

private:
    const char *p_, *end_;

    void skip1()
    {
        if (p_ < end_)
            p_++;
    }
};

int lookup(const std::string &w, const char *const *table)
{
    for (int i = 0; table[i]; i++)
        if (w == table[i])
            return i;
    return -1;
}

}  // namespace

void parse_svm(const std::string &text, Svm *svm)
{
    static const char *const svm_types[] = { "c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr", nullptr };
    static const char *const kernels[] = { "linear", "polynomial", "rbf", "sigmoid", "precomputed", nullptr };
    SvmText in(text);
    std::string w;
    int32_t nr_class = 0, total_sv = -1, perms = 0;
    bool have_type = false, have_kernel = false, have_rho = false;

    *svm = Svm();
    while (in.word(&w) && w != "SV") {
        if (w == "svm_type") {
            if (!in.word(&w) || (svm->svm_type = lookup(w, svm_types)) < 0)
                fail(VQ_EMODEL, "libsvm text: unknown svm_type");
            have_type = true;
        } else if (w == "kernel_type") {
            if (!in.word(&w) || (svm->kernel_type = lookup(w, kernels)) < 0)
                fail(VQ_EMODEL, "libsvm text: unknown kernel_type");
            have_kernel = true;
        } else if (w == "degree") {
            int32_t d;
            if (!in.get_int(&d))
                fail(VQ_EMODEL, "libsvm text: bad degree");
            svm->degree = d;
        } else if (w == "gamma") {
            if (!in.get_double(&svm->gamma))
                fail(VQ_EMODEL, "libsvm text: bad gamma");
        } else if (w == "coef0") {
            if (!in.get_double(&svm->coef0))
                fail(VQ_EMODEL, "libsvm text: bad coef0");
        } else if (w == "nr_class") {
            if (!in.get_int(&nr_class) || nr_class < 2 || nr_class > 1000)
                fail(VQ_EMODEL, "libsvm text: bad nr_class");
            perms = nr_class * (nr_class - 1) / 2;
        } else if (w == "total_sv") {
            if (!in.get_int(&total_sv) || total_sv < 0)
                fail(VQ_EMODEL, "libsvm text: bad total_sv");
        } else if (w == "rho" || w == "probA" || w == "probB") {
            const bool is_rho = w == "rho";
            for (int32_t i = 0; i < perms; i++) {
                double v;
                if (!in.get_double(&v))
                    fail(VQ_EMODEL, "libsvm text: bad %s", is_rho ? "rho" : "probA/probB");
                if (is_rho && i == 0) {
                    svm->rho = v;
                    have_rho = true;
                }
            }
        } else if (w == "label" || w == "nr_sv") {
            for (int32_t i = 0; i < nr_class; i++) {
                int32_t v;
                if (!in.get_int(&v))
                    fail(VQ_EMODEL, "libsvm text: bad %s", w.c_str());
            }
        } else {
            fail(VQ_EMODEL, "libsvm text: unknown word '%s' in the header", w.c_str());
        }
    }
    if (!have_type || !have_kernel || !nr_class || !have_rho || total_sv < 0)
        fail(VQ_EMODEL, "libsvm text: svm_type, kernel_type, nr_class, total_sv or rho missing");
    if (svm->svm_type != SVM_NU_SVR && svm->svm_type != SVM_EPSILON_SVR && svm->svm_type != SVM_ONE_CLASS)
        fail(VQ_EMODEL, "libsvm text: only regression models (nu_svr, epsilon_svr, one_class) are supported");
    if (svm->kernel_type == KERNEL_PRECOMPUTED)
        fail(VQ_EMODEL, "libsvm text: precomputed kernels are not supported");
    if (nr_class != 2)
        fail(VQ_EMODEL, "libsvm text: a regression model has nr_class 2");

    std::vector<size_t> start;
    for (int32_t i = 0; i < total_sv; i++) {
        const char *lp, *le;
        if (!in.line(&lp, &le))
            fail(VQ_EMODEL, "libsvm text: %d support vectors, expected %d", i, total_sv);
        double coef;
        if (!SvmText::scan_double(&lp, le, &coef))  /* nr_class - 1 == 1 coefficient */
            fail(VQ_EMODEL, "libsvm text: support vector %d: bad coefficient", i);
        svm->coef.push_back(coef);
        start.push_back(svm->storage.size());
        /* while (line.good() && line >> index) { line.ignore(1, ':'); line >> value } */
        for (int k = 0;; k++) {
            SvmNode nd{ -1, 0.0 };
            if (lp < le && SvmText::scan_int(&lp, le, &nd.index)) {
                if (lp < le)
                    lp++;
                if (!SvmText::scan_double(&lp, le, &nd.value))
                    fail(VQ_EMODEL, "libsvm text: support vector %d: bad node %d", i, k);
                svm->storage.push_back(nd);
                continue;
            }
            svm->storage.push_back(SvmNode{ -1, 0.0 });
            break;
        }
    }
    for (size_t s : start)
        svm->sv.push_back(svm->storage.data() + s);
}

}  // namespace model_detail
}  // namespace vq
