/* model.c - loading a model (file, text or built-in table) and what the
 * session asks of it; see model.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "vqcuda.h"

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    double align[];         /* payload, aligned for doubles */
} ArenaBlock;

void *vq_arena_alloc(void **arena, size_t n)
{
    ArenaBlock *b = (ArenaBlock *)malloc(sizeof(*b) + (n ? n : 1));
    if (!b)
        return NULL;
    b->next = (ArenaBlock *)*arena;
    *arena = b;
    return b->align;
}

char *vq_arena_strndup(void **arena, const char *s, size_t n)
{
    char *d = (char *)vq_arena_alloc(arena, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

void vq_arena_free(void **arena)
{
    ArenaBlock *b = (ArenaBlock *)*arena;
    while (b) {
        ArenaBlock *next = b->next;
        free(b);
        b = next;
    }
    *arena = NULL;
}

#define FAIL(code, ...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); return (code); } while (0)

/* each feature's extractor and options; one set of options per extractor */
static int resolve_features(VqModel *m, char *err, size_t errlen)
{
    VqFexOptions per[VQ_FEX_COUNT];
    int seen[VQ_FEX_COUNT] = { 0 };
    unsigned k, j;
    int f;

    vq_fex_options_default(&m->fex_opts);
    for (k = 0; k < m->d.n_features; k++) {
        const VqModelFeature *ft = &m->d.feature[k];
        const enum VqFex fex = vq_fex_of_feature(ft->name);
        VqFexOptions o;
        if (fex == VQ_FEX_NONE)
            FAIL(VQ_EMODEL, "model feature '%s': no feature extractor of vqcuda (libvmaf's integer "
                 "vif, adm, motion and psnr) provides it", ft->name);
        vq_fex_options_default(&o);
        for (j = 0; j < ft->n_opts; j++) {
            char msg[160] = "";
            if (vq_fex_option_set(&o, fex, ft->opts[j].key, ft->opts[j].val, msg, sizeof(msg)) < 0)
                FAIL(VQ_EMODEL, "model feature '%s': %s", ft->name, msg);
        }
        if (!seen[fex]) {
            seen[fex] = 1;
            per[fex] = o;
        } else if (!vq_fex_options_equal(&per[fex], &o, fex)) {
            FAIL(VQ_EMODEL, "model feature '%s': its %s options differ from another feature's "
                 "(two configurations of one extractor are not supported)", ft->name, vq_fex_name(fex));
        }
        m->fex[k] = fex;
    }
    for (f = 1; f < VQ_FEX_COUNT; f++) {
        if (seen[f])
            vq_fex_options_copy(&m->fex_opts, &per[f], (enum VqFex)f);
        vq_fex_name_suffix(&m->fex_opts, (enum VqFex)f, m->suffix[f], sizeof(m->suffix[f]));
    }
    return 0;
}

static int finish(VqModel **out, VqModel *m, char *err, size_t errlen)
{
    int ret = resolve_features(m, err, errlen);
    if (ret < 0) {
        vq_model_free(&m);
        return ret;
    }
    *out = m;
    return 0;
}

int vq_model_load_json(VqModel **out, const char *json, size_t len, unsigned flags,
                       char *err, size_t errlen)
{
    VqModel *m = (VqModel *)calloc(1, sizeof(*m));
    int ret;
    *out = NULL;
    if (!m)
        FAIL(VQ_ENOMEM, "out of memory");
    ret = vq_model_data_from_json(&m->arena, json, len, flags, &m->d, err, errlen);
    if (ret < 0) {
        vq_model_free(&m);
        return ret;
    }
    return finish(out, m, err, errlen);
}

int vq_model_load_file_flags(VqModel **out, const char *path, unsigned flags,
                             char *err, size_t errlen)
{
    FILE *f;
    char *buf = NULL, msg[256] = "";
    size_t len = 0, cap = 0;
    int ret;

    *out = NULL;
    if (!path)
        FAIL(VQ_EMODEL, "no model path");
    f = fopen(path, "rb");
    if (!f)
        FAIL(VQ_EMODEL, "model '%s': %s", path, strerror(errno));
    for (;;) {
        size_t got;
        if (len == cap) {
            char *nb;
            cap = cap ? cap * 2 : 65536;
            if (cap > ((size_t)256 << 20) || !(nb = (char *)realloc(buf, cap))) {
                free(buf);
                fclose(f);
                FAIL(VQ_EMODEL, "model '%s': too large or out of memory", path);
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        FAIL(VQ_EMODEL, "model '%s': read error", path);
    }
    fclose(f);
    ret = vq_model_load_json(out, buf ? buf : "", len, flags, msg, sizeof(msg));
    free(buf);
    if (ret < 0)
        FAIL(ret, "model '%s': %s", path, msg);
    return 0;
}

int vq_model_load_file(VqModel **out, const char *path, char *err, size_t errlen)
{
    return vq_model_load_file_flags(out, path, 0, err, errlen);
}

int vq_model_load_builtin_flags(VqModel **out, const char *version, unsigned flags,
                                char *err, size_t errlen)
{
    VqModel *m;
    *out = NULL;
    if (!version || strcmp(version, "vmaf_v0.6.1"))
        FAIL(VQ_EMODEL, "no built-in model \"%s\" (built in: vmaf_v0.6.1)", version ? version : "(null)");
    m = (VqModel *)calloc(1, sizeof(*m));
    if (!m)
        FAIL(VQ_ENOMEM, "out of memory");
    m->d = vq_model_data_vmaf_v0_6_1;
    /* the flags as read_json_model.c applies them */
    if (flags & VQ_MODEL_FLAG_DISABLE_CLIP)
        m->d.score_clip_enabled = 0;
    if (flags & VQ_MODEL_FLAG_ENABLE_TRANSFORM)
        m->d.transform.enabled = 1;
    snprintf(m->version, sizeof(m->version), "%s", version);
    return finish(out, m, err, errlen);
}

int vq_model_load_builtin(VqModel **out, const char *version, char *err, size_t errlen)
{
    return vq_model_load_builtin_flags(out, version, 0, err, errlen);
}

void vq_model_free(VqModel **pm)
{
    VqModel *m = pm ? *pm : NULL;
    if (!m)
        return;
    vq_arena_free(&m->arena);
    free(m);
    *pm = NULL;
}

int vq_model_feature_count(const VqModel *m)
{
    return (int)m->d.n_features;
}

const char *vq_model_feature_name(const VqModel *m, int k)
{
    return k >= 0 && (unsigned)k < m->d.n_features ? m->d.feature[k].name : NULL;
}

enum VqFex vq_model_feature_fex(const VqModel *m, int k)
{
    return k >= 0 && (unsigned)k < m->d.n_features ? m->fex[k] : VQ_FEX_NONE;
}

void vq_model_feature_printed_name(const VqModel *m, int k, char *buf, size_t n)
{
    if (k < 0 || (unsigned)k >= m->d.n_features) {
        if (n)
            buf[0] = 0;
        return;
    }
    vq_fex_printed_name(m->d.feature[k].name, m->fex[k], &m->fex_opts, buf, n);
}

const VqFexOptions *vq_model_fex_options(const VqModel *m)
{
    return &m->fex_opts;
}

const char *vq_model_suffix(const VqModel *m, enum VqFex fex)
{
    return fex > VQ_FEX_NONE && fex < VQ_FEX_COUNT ? m->suffix[fex] : "";
}

const char *vq_model_vif_suffix(const VqModel *m) { return m->suffix[VQ_FEX_VIF]; }
const char *vq_model_adm_suffix(const VqModel *m) { return m->suffix[VQ_FEX_ADM]; }
const char *vq_model_motion_suffix(const VqModel *m) { return m->suffix[VQ_FEX_MOTION]; }
double vq_model_vif_egl(const VqModel *m) { return m->fex_opts.vif_enhn_gain_limit; }
double vq_model_adm_egl(const VqModel *m) { return m->fex_opts.adm_enhn_gain_limit; }
