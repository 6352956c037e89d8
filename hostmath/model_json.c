/*
 * model_json.c - a libvmaf JSON model into VqModelData, with
 * read_json_model.c's rules: only "model_dict" is read; unknown keys are
 * skipped; a value of the wrong type is an error.  Stricter than libvmaf
 * where it would go on with an unusable model (no SVM, no norm_type,
 * fewer slopes than features: libvmaf would crash or predict from zeros).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fex_options.h"
#include "json.h"
#include "model_internal.h"
#include "vqcuda.h"

#define FAIL(code, ...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); return (code); } while (0)

static int parse_transform(const VqJson *o, VqScoreTransform *t, char *err, size_t errlen)
{
    size_t i, k;
    memset(t, 0, sizeof(*t));
    for (i = 0; i < o->n; i++) {
        const char *key = o->key[i];
        const VqJson *v = &o->item[i];
        if (!strcmp(key, "enabled")) {
            if (v->type != VQ_JSON_TRUE && v->type != VQ_JSON_FALSE)
                FAIL(VQ_EMODEL, "score_transform.enabled is not a boolean");
            t->enabled = v->type == VQ_JSON_TRUE;
        } else if (!strcmp(key, "p0") || !strcmp(key, "p1") || !strcmp(key, "p2")) {
            int32_t *en = key[1] == '0' ? &t->p0_enabled : key[1] == '1' ? &t->p1_enabled : &t->p2_enabled;
            double *val = key[1] == '0' ? &t->p0 : key[1] == '1' ? &t->p1 : &t->p2;
            if (v->type == VQ_JSON_NULL) {
                *en = 0;
            } else if (v->type == VQ_JSON_NUMBER) {
                *en = 1;
                *val = v->number;
            } else {
                FAIL(VQ_EMODEL, "score_transform.%s is not a number", key);
            }
        } else if (!strcmp(key, "knots")) {
            if (v->type == VQ_JSON_NULL) {
                t->knots_enabled = 0;
                t->n_knots = 0;
            } else if (v->type == VQ_JSON_ARRAY) {
                if (v->n > VQ_MODEL_MAX_KNOTS)
                    FAIL(VQ_EMODEL, "score_transform.knots: more than %d knots", VQ_MODEL_MAX_KNOTS);
                for (k = 0; k < v->n; k++) {
                    const VqJson *kn = &v->item[k];
                    size_t j;
                    if (kn->type != VQ_JSON_ARRAY || kn->n > 2)
                        FAIL(VQ_EMODEL, "score_transform.knots[%zu] is not [x, y]", k);
                    t->knots[k][0] = t->knots[k][1] = 0.0;
                    for (j = 0; j < kn->n; j++) {
                        if (kn->item[j].type != VQ_JSON_NUMBER)
                            FAIL(VQ_EMODEL, "score_transform.knots[%zu] is not [x, y]", k);
                        t->knots[k][j] = kn->item[j].number;
                    }
                }
                t->n_knots = (uint32_t)v->n;
                t->knots_enabled = 1;
            } else {
                FAIL(VQ_EMODEL, "score_transform.knots is not an array");
            }
        } else if (!strcmp(key, "out_lte_in") || !strcmp(key, "out_gte_in")) {
            if (v->type != VQ_JSON_STRING)
                FAIL(VQ_EMODEL, "score_transform.%s is not a string", key);
            if (!strcmp(v->str, "true")) {
                if (key[4] == 'l')
                    t->out_lte_in = 1;
                else
                    t->out_gte_in = 1;
            }
        }
    }
    return 0;
}

/* slopes / intercepts: element 0 is the output's, then one per feature */
static int parse_coefs(const VqJson *v, const char *what, double *first, double *rest,
                       uint32_t *n_rest, char *err, size_t errlen)
{
    size_t i;
    if (v->type != VQ_JSON_ARRAY || v->n < 1)
        FAIL(VQ_EMODEL, "%s is not a non-empty array", what);
    if (v->n > VQ_MODEL_MAX_FEATURES + 1)
        FAIL(VQ_EMODEL, "%s: more than %d entries", what, VQ_MODEL_MAX_FEATURES + 1);
    for (i = 0; i < v->n; i++) {
        if (v->item[i].type != VQ_JSON_NUMBER)
            FAIL(VQ_EMODEL, "%s[%zu] is not a number", what, i);
        if (i == 0)
            *first = v->item[i].number;
        else
            rest[i - 1] = v->item[i].number;
    }
    *n_rest = (uint32_t)(v->n - 1);
    return 0;
}

/* one feature's options dictionary, stored as libvmaf's dictionary stores it */
static int parse_opts_dict(void **arena, const VqJson *o, size_t idx, VqModelFeature *f,
                           char *err, size_t errlen)
{
    VqModelOpt *opts;
    size_t i, j, n = 0;
    if (o->type != VQ_JSON_OBJECT)
        FAIL(VQ_EMODEL, "feature_opts_dicts[%zu] is not an object", idx);
    opts = (VqModelOpt *)vq_arena_alloc(arena, (o->n ? o->n : 1) * sizeof(*opts));
    if (!opts)
        FAIL(VQ_ENOMEM, "out of memory");
    for (i = 0; i < o->n; i++) {
        const VqJson *v = &o->item[i];
        char buf[64];
        const char *val;
        if (v->type == VQ_JSON_NUMBER) {
            vq_fex_normalize_number(v->str, buf, sizeof(buf));
            val = buf;
        } else if (v->type == VQ_JSON_TRUE || v->type == VQ_JSON_FALSE) {
            val = v->type == VQ_JSON_TRUE ? "true" : "false";
        } else if (v->type == VQ_JSON_STRING) {
            val = v->str;
        } else {
            FAIL(VQ_EMODEL, "feature_opts_dicts[%zu].%s: not a number, boolean or string",
                 idx, o->key[i]);
        }
        for (j = 0; j < n; j++)
            if (!strcmp(opts[j].key, o->key[i]))
                break;
        if (j < n) {
            /* VMAF_DICT_DO_NOT_OVERWRITE: the same value again is fine */
            if (strcmp(opts[j].val, val))
                FAIL(VQ_EMODEL, "feature_opts_dicts[%zu]: two values for %s", idx, o->key[i]);
            continue;
        }
        opts[n].key = vq_arena_strndup(arena, o->key[i], strlen(o->key[i]));
        opts[n].val = vq_arena_strndup(arena, val, strlen(val));
        if (!opts[n].key || !opts[n].val)
            FAIL(VQ_ENOMEM, "out of memory");
        n++;
    }
    f->opts = opts;
    f->n_opts = (unsigned)n;
    return 0;
}

static int parse_model_dict(void **arena, const VqJson *md, unsigned flags, VqModelData *d,
                            char *err, size_t errlen)
{
    static const char *const once[] = {
        "score_transform", "model_type", "norm_type", "score_clip", "slopes", "intercepts",
        "feature_names", "feature_opts_dicts", "model", "chroma_correction_parameter", NULL
    };
    double slopes[VQ_MODEL_MAX_FEATURES], intercepts[VQ_MODEL_MAX_FEATURES];
    uint32_t n_slopes = 0, n_intercepts = 0;
    int have_slopes = 0, have_intercepts = 0;
    const VqJson *names = NULL, *opts = NULL, *svm_text = NULL;
    VqModelFeature *feat;
    size_t i, j;
    int ret;

    for (i = 0; i < md->n; i++)
        for (j = i + 1; j < md->n; j++)
            if (!strcmp(md->key[i], md->key[j])) {
                size_t k;
                for (k = 0; once[k]; k++)
                    if (!strcmp(md->key[i], once[k]))
                        FAIL(VQ_EMODEL, "model_dict has two \"%s\"", md->key[i]);
            }

    for (i = 0; i < md->n; i++) {
        const char *key = md->key[i];
        const VqJson *v = &md->item[i];
        if (!strcmp(key, "score_transform")) {
            if (v->type != VQ_JSON_OBJECT)
                FAIL(VQ_EMODEL, "score_transform is not an object");
            if ((ret = parse_transform(v, &d->transform, err, errlen)) < 0)
                return ret;
            if (flags & VQ_MODEL_FLAG_ENABLE_TRANSFORM)
                d->transform.enabled = 1;
        } else if (!strcmp(key, "model_type")) {
            if (v->type != VQ_JSON_STRING)
                FAIL(VQ_EMODEL, "model_type is not a string");
            if (!strcmp(v->str, "BOOTSTRAP_LIBSVMNUSVR") || !strcmp(v->str, "RESIDUEBOOTSTRAP_LIBSVMNUSVR"))
                FAIL(VQ_EMODEL, "model_type %s: bootstrap models are not supported", v->str);
            if (strcmp(v->str, "LIBSVMNUSVR"))
                FAIL(VQ_EMODEL, "unknown model_type \"%s\"", v->str);
        } else if (!strcmp(key, "norm_type")) {
            if (v->type != VQ_JSON_STRING)
                FAIL(VQ_EMODEL, "norm_type is not a string");
            if (!strcmp(v->str, "linear_rescale"))
                d->norm_type = VQ_MODEL_NORM_LINEAR_RESCALE;
            else if (!strcmp(v->str, "none"))
                d->norm_type = VQ_MODEL_NORM_NONE;
            else
                FAIL(VQ_EMODEL, "unknown norm_type \"%s\"", v->str);
        } else if (!strcmp(key, "score_clip")) {
            if (v->type != VQ_JSON_ARRAY)
                FAIL(VQ_EMODEL, "score_clip is not an array");
            if (!(flags & VQ_MODEL_FLAG_DISABLE_CLIP)) {
                if (v->n < 2 || v->item[0].type != VQ_JSON_NUMBER || v->item[1].type != VQ_JSON_NUMBER)
                    FAIL(VQ_EMODEL, "score_clip is not [min, max]");
                d->score_clip_enabled = 1;
                d->score_clip_min = v->item[0].number;
                d->score_clip_max = v->item[1].number;
            }
        } else if (!strcmp(key, "chroma_correction_parameter")) {
            FAIL(VQ_EMODEL, "chroma_correction_parameter (speed_chroma models) is not supported");
        } else if (!strcmp(key, "slopes")) {
            if ((ret = parse_coefs(v, "slopes", &d->slope, slopes, &n_slopes, err, errlen)) < 0)
                return ret;
            have_slopes = 1;
        } else if (!strcmp(key, "intercepts")) {
            if ((ret = parse_coefs(v, "intercepts", &d->intercept, intercepts, &n_intercepts, err, errlen)) < 0)
                return ret;
            have_intercepts = 1;
        } else if (!strcmp(key, "feature_names")) {
            if (v->type != VQ_JSON_ARRAY)
                FAIL(VQ_EMODEL, "feature_names is not an array");
            names = v;
        } else if (!strcmp(key, "feature_opts_dicts")) {
            if (v->type != VQ_JSON_ARRAY)
                FAIL(VQ_EMODEL, "feature_opts_dicts is not an array");
            opts = v;
        } else if (!strcmp(key, "model")) {
            if (v->type != VQ_JSON_STRING)
                FAIL(VQ_EMODEL, "model (the libsvm text) is not a string");
            svm_text = v;
        }
    }

    if (!names || names->n == 0)
        FAIL(VQ_EMODEL, "feature_names is missing or empty");
    if (names->n > VQ_MODEL_MAX_FEATURES)
        FAIL(VQ_EMODEL, "more than %d features", VQ_MODEL_MAX_FEATURES);
    if (opts && opts->n > VQ_MODEL_MAX_FEATURES)
        FAIL(VQ_EMODEL, "feature_opts_dicts: more than %d entries", VQ_MODEL_MAX_FEATURES);
    if (!d->norm_type)
        FAIL(VQ_EMODEL, "norm_type is missing");
    if (d->norm_type == VQ_MODEL_NORM_LINEAR_RESCALE &&
        (!have_slopes || !have_intercepts || n_slopes < names->n || n_intercepts < names->n))
        FAIL(VQ_EMODEL, "linear_rescale needs %zu slopes and intercepts (output + features)",
             names->n + 1);
    if (!svm_text)
        FAIL(VQ_EMODEL, "model (the libsvm text) is missing");

    d->n_features = (uint32_t)names->n;
    feat = (VqModelFeature *)vq_arena_alloc(arena, names->n * sizeof(*feat));
    if (!feat)
        FAIL(VQ_ENOMEM, "out of memory");
    memset(feat, 0, names->n * sizeof(*feat));
    for (i = 0; i < names->n; i++) {
        const VqJson *nm = &names->item[i];
        if (nm->type != VQ_JSON_STRING)
            FAIL(VQ_EMODEL, "feature_names[%zu] is not a string", i);
        feat[i].name = vq_arena_strndup(arena, nm->str, nm->len);
        if (!feat[i].name)
            FAIL(VQ_ENOMEM, "out of memory");
        feat[i].slope = i < n_slopes ? slopes[i] : 0.0;
        feat[i].intercept = i < n_intercepts ? intercepts[i] : 0.0;
        if (opts && i < opts->n && (ret = parse_opts_dict(arena, &opts->item[i], i, &feat[i], err, errlen)) < 0)
            return ret;
    }
    /* dictionaries past the last feature are still checked, as libvmaf reads them */
    for (i = names->n; opts && i < opts->n; i++) {
        VqModelFeature spare;
        if ((ret = parse_opts_dict(arena, &opts->item[i], i, &spare, err, errlen)) < 0)
            return ret;
    }
    d->feature = feat;

    {
        char msg[200] = "";
        if (vq_svm_parse(arena, svm_text->str, svm_text->len, &d->svm, msg, sizeof(msg)) < 0)
            FAIL(VQ_EMODEL, "%s", msg);
    }
    return 0;
}

int vq_model_data_from_json(void **arena, const char *json, size_t len, unsigned flags,
                            VqModelData *d, char *err, size_t errlen)
{
    VqJson *root = NULL;
    const VqJson *md;
    char msg[200] = "";
    int ret;

    memset(d, 0, sizeof(*d));
    if (vq_json_parse(json, len, &root, msg, sizeof(msg)) < 0)
        FAIL(VQ_EMODEL, "malformed JSON: %s", msg);
    md = vq_json_get(root, "model_dict");
    if (!md || md->type != VQ_JSON_OBJECT) {
        vq_json_free(root);
        FAIL(VQ_EMODEL, "no \"model_dict\" object (not a libvmaf JSON model)");
    }
    ret = parse_model_dict(arena, md, flags, d, err, errlen);
    vq_json_free(root);
    return ret;
}
