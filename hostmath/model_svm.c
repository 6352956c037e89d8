/*
 * model_svm.c - the libsvm text of a model, read as libvmaf's svm.cpp
 * (SVMModelParser over an istringstream) reads it:
 *   header: words split at ' ' or '\n' until "SV"; a value after its
 *           keyword is read as istream >> does (whitespace skipped), then
 *           one character is dropped;
 *   then total_sv lines: nr_class-1 coefficients, then "index:value" pairs
 *           until one does not parse.
 * istream >> double hands the characters of a number to strtod, so the
 * values are strtod's correctly rounded doubles.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_locale.h"
#include "model_internal.h"

typedef struct Cur {
    const char *p, *end;
} Cur;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* read_next: a word ended by ' ' or '\n'; 0 for an empty word or the end */
static int read_word(Cur *c, char *buf, size_t n)
{
    size_t len = 0;
    while (c->p < c->end) {
        const char ch = *c->p++;
        if (ch == '\n' || ch == ' ') {
            buf[len < n ? len : n - 1] = 0;
            return len > 0;
        }
        if (len + 1 < n)
            buf[len] = ch;
        len++;
    }
    return 0;
}

/* the characters num_get takes for a double: [+-]digits[.digits][(e|E)[+-]digits] */
static int scan_double(const char **pp, const char *end, double *out)
{
    const char *p = *pp, *start;
    char buf[128], *stop;
    size_t n;
    int digits = 0;
    while (p < end && is_space(*p))
        p++;
    start = p;
    if (p < end && (*p == '+' || *p == '-'))
        p++;
    while (p < end && isdigit((unsigned char)*p)) {
        p++;
        digits++;
    }
    if (p < end && *p == '.') {
        p++;
        while (p < end && isdigit((unsigned char)*p)) {
            p++;
            digits++;
        }
    }
    if (digits && p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        while (p < end && isdigit((unsigned char)*p))
            p++;
    }
    *pp = p;
    n = (size_t)(p - start);
    if (!digits || n >= sizeof(buf))
        return -1;
    memcpy(buf, start, n);
    buf[n] = 0;
    *out = vq_strtod_c(buf, &stop);
    return *stop ? -1 : 0;  /* strtod must take all of it ("1e" fails) */
}

static int scan_int(const char **pp, const char *end, int32_t *out)
{
    const char *p = *pp, *start;
    char buf[32];
    size_t n;
    long v;
    while (p < end && is_space(*p))
        p++;
    start = p;
    if (p < end && (*p == '+' || *p == '-'))
        p++;
    while (p < end && isdigit((unsigned char)*p))
        p++;
    *pp = p;
    n = (size_t)(p - start);
    if (n == 0 || n >= sizeof(buf) || !isdigit((unsigned char)start[n - 1]))
        return -1;
    memcpy(buf, start, n);
    buf[n] = 0;
    errno = 0;
    v = strtol(buf, NULL, 10);
    if (errno || v < INT32_MIN || v > INT32_MAX)
        return -1;
    *out = (int32_t)v;
    return 0;
}

/* get(): a value, then drop one character */
static int get_double(Cur *c, double *v)
{
    if (scan_double(&c->p, c->end, v) < 0)
        return -1;
    if (c->p < c->end)
        c->p++;
    return 0;
}

static int get_int(Cur *c, int32_t *v)
{
    if (scan_int(&c->p, c->end, v) < 0)
        return -1;
    if (c->p < c->end)
        c->p++;
    return 0;
}

static int lookup(const char *word, const char *const *table)
{
    int i;
    for (i = 0; table[i]; i++)
        if (!strcmp(word, table[i]))
            return i;
    return -1;
}

#define FAIL(...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int vq_svm_parse(void **arena, const char *text, size_t len, VqSvm *svm, char *err, size_t errlen)
{
    static const char *const svm_types[] = { "c_svc", "nu_svc", "one_class", "epsilon_svr", "nu_svr", NULL };
    static const char *const kernels[] = { "linear", "polynomial", "rbf", "sigmoid", "precomputed", NULL };
    Cur c = { text, text + len };
    char word[64];
    int have_rho = 0, have_type = 0, have_kernel = 0;
    int32_t perms = 0, i, k;
    size_t cap = 0, n_nodes = 0;
    VqSvmNode *nodes = NULL;
    double *coef;
    uint32_t *start;
    char msg[96];

    memset(svm, 0, sizeof(*svm));
    while (read_word(&c, word, sizeof(word)) && strcmp(word, "SV")) {
        if (!strcmp(word, "svm_type")) {
            if (!read_word(&c, word, sizeof(word)) || (svm->svm_type = lookup(word, svm_types)) < 0)
                FAIL("libsvm text: unknown svm_type");
            have_type = 1;
        } else if (!strcmp(word, "kernel_type")) {
            if (!read_word(&c, word, sizeof(word)) || (svm->kernel_type = lookup(word, kernels)) < 0)
                FAIL("libsvm text: unknown kernel_type");
            have_kernel = 1;
        } else if (!strcmp(word, "degree")) {
            if (get_int(&c, &svm->degree) < 0)
                FAIL("libsvm text: bad degree");
        } else if (!strcmp(word, "gamma")) {
            if (get_double(&c, &svm->gamma) < 0)
                FAIL("libsvm text: bad gamma");
        } else if (!strcmp(word, "coef0")) {
            if (get_double(&c, &svm->coef0) < 0)
                FAIL("libsvm text: bad coef0");
        } else if (!strcmp(word, "nr_class")) {
            if (get_int(&c, &svm->nr_class) < 0 || svm->nr_class < 2 || svm->nr_class > 1000)
                FAIL("libsvm text: bad nr_class");
            perms = svm->nr_class * (svm->nr_class - 1) / 2;
        } else if (!strcmp(word, "total_sv")) {
            if (get_int(&c, &svm->l) < 0 || svm->l < 0 || svm->l > 10000000)
                FAIL("libsvm text: bad total_sv");
        } else if (!strcmp(word, "rho") || !strcmp(word, "probA") || !strcmp(word, "probB")) {
            const int is_rho = word[0] == 'r';
            for (i = 0; i < perms; i++) {
                double v;
                if (get_double(&c, &v) < 0)
                    FAIL("libsvm text: bad %s", is_rho ? "rho" : "probA/probB");
                if (is_rho && i == 0) {
                    svm->rho = v;
                    have_rho = 1;
                }
            }
        } else if (!strcmp(word, "label") || !strcmp(word, "nr_sv")) {
            for (i = 0; i < svm->nr_class; i++) {
                int32_t v;
                if (get_int(&c, &v) < 0)
                    FAIL("libsvm text: bad %s", word);
            }
        } else {
            FAIL("libsvm text: unknown word '%s' in the header", word);
        }
    }
    if (!have_type || !have_kernel || !svm->nr_class || !have_rho)
        FAIL("libsvm text: svm_type, kernel_type, nr_class or rho missing");
    if (svm->svm_type != VQ_SVM_NU_SVR && svm->svm_type != VQ_SVM_EPSILON_SVR &&
        svm->svm_type != VQ_SVM_ONE_CLASS)
        FAIL("libsvm text: only regression models (nu_svr, epsilon_svr, one_class) are supported");
    if (svm->kernel_type == VQ_SVM_PRECOMPUTED)
        FAIL("libsvm text: precomputed kernels are not supported");
    if (svm->nr_class != 2)
        FAIL("libsvm text: a regression model has nr_class 2");

    coef = (double *)vq_arena_alloc(arena, (size_t)(svm->l ? svm->l : 1) * sizeof(*coef));
    start = (uint32_t *)vq_arena_alloc(arena, (size_t)(svm->l ? svm->l : 1) * sizeof(*start));
    if (!coef || !start)
        FAIL("out of memory");
    for (i = 0; i < svm->l; i++) {
        const char *lp = c.p, *le;
        if (c.p >= c.end) {
            snprintf(msg, sizeof(msg), "%d support vectors, expected %d", i, svm->l);
            goto fail;
        }
        le = memchr(c.p, '\n', (size_t)(c.end - c.p));
        if (!le)
            le = c.end;
        c.p = le < c.end ? le + 1 : le;
        /* nr_class - 1 == 1 coefficient */
        if (scan_double(&lp, le, &coef[i]) < 0) {
            snprintf(msg, sizeof(msg), "support vector %d: bad coefficient", i);
            goto fail;
        }
        start[i] = (uint32_t)n_nodes;
        for (k = 0;; k++) {
            VqSvmNode nd;
            /* "while (line.good() && line >> index)" */
            const int last = lp >= le || scan_int(&lp, le, &nd.index) < 0;
            if (!last) {
                if (lp < le)
                    lp++;       /* ignore(1, ':') */
                if (scan_double(&lp, le, &nd.value) < 0) {
                    snprintf(msg, sizeof(msg), "support vector %d: bad node %d", i, k);
                    goto fail;
                }
            } else {
                nd.index = -1;
                nd.value = 0.0;
            }
            if (n_nodes == cap) {
                const size_t nc = cap ? cap * 2 : 1024;
                VqSvmNode *nn = (VqSvmNode *)realloc(nodes, nc * sizeof(*nn));
                if (!nn) {
                    snprintf(msg, sizeof(msg), "out of memory");
                    goto fail;
                }
                nodes = nn;
                cap = nc;
            }
            nodes[n_nodes++] = nd;
            if (last)
                break;
        }
    }
    svm->nodes = (const VqSvmNode *)vq_arena_alloc(arena, (n_nodes ? n_nodes : 1) * sizeof(*nodes));
    if (!svm->nodes) {
        snprintf(msg, sizeof(msg), "out of memory");
        goto fail;
    }
    if (n_nodes)
        memcpy((void *)svm->nodes, nodes, n_nodes * sizeof(*nodes));
    free(nodes);
    svm->n_nodes = (uint32_t)n_nodes;
    svm->sv_coef = coef;
    svm->sv_start = start;
    return 0;

fail:
    free(nodes);
    FAIL("libsvm text: %s", msg);
}
