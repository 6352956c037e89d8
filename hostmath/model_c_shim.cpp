/* model_c_shim.cpp - the old C model interface (model.h) over vq::Model,
 * for hostmath/session.c until the C++ session lands.  To be deleted then. */
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#include "model.h"
#include "model.hpp"
#include "vq_error.h"
#include "vqcuda.h"

#define SUFFIX_MAX 128

struct VqModel {
    std::unique_ptr<vq::Model> m;
    enum VqFex fex[VQ_MODEL_MAX_FEATURES];
    VqFexOptions fex_opts;
    char suffix[VQ_FEX_COUNT][SUFFIX_MAX];
};

namespace {

void set_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", msg);
}

/* each feature's extractor and options; one set of options per extractor */
void resolve_features(VqModel *vm)
{
    const std::vector<vq::ModelFeature> &feats = vm->m->features();
    VqFexOptions per[VQ_FEX_COUNT];
    bool seen[VQ_FEX_COUNT] = {};
    if (feats.size() > VQ_MODEL_MAX_FEATURES)
        vq::fail(VQ_EMODEL, "more than %d features", VQ_MODEL_MAX_FEATURES);
    vq_fex_options_default(&vm->fex_opts);
    for (size_t k = 0; k < feats.size(); k++) {
        const vq::ModelFeature &ft = feats[k];
        const enum VqFex fex = vq_fex_of_feature(ft.name.c_str());
        if (fex == VQ_FEX_NONE)
            vq::fail(VQ_EMODEL, "model feature '%s': no feature extractor of vqcuda (libvmaf's integer "
                     "vif, adm, motion and psnr) provides it", ft.name.c_str());
        VqFexOptions o;
        vq_fex_options_default(&o);
        for (const auto &kv : ft.opts) {
            char msg[160] = "";
            if (vq_fex_option_set(&o, fex, kv.first.c_str(), kv.second.c_str(), msg, sizeof(msg)) < 0)
                vq::fail(VQ_EMODEL, "model feature '%s': %s", ft.name.c_str(), msg);
        }
        if (!seen[fex]) {
            seen[fex] = true;
            per[fex] = o;
        } else if (!vq_fex_options_equal(&per[fex], &o, fex)) {
            vq::fail(VQ_EMODEL, "model feature '%s': its %s options differ from another feature's "
                     "(two configurations of one extractor are not supported)", ft.name.c_str(),
                     vq_fex_name(fex));
        }
        vm->fex[k] = fex;
    }
    for (int f = 1; f < VQ_FEX_COUNT; f++) {
        if (seen[f])
            vq_fex_options_copy(&vm->fex_opts, &per[f], (enum VqFex)f);
        vq_fex_name_suffix(&vm->fex_opts, (enum VqFex)f, vm->suffix[f], SUFFIX_MAX);
    }
}

template <class Load>
int load(VqModel **out, char *err, size_t errlen, Load &&how)
{
    *out = nullptr;
    try {
        std::unique_ptr<VqModel> vm(new VqModel());
        vm->m = how();
        resolve_features(vm.get());
        *out = vm.release();
        return 0;
    } catch (const vq::Error &e) {
        set_err(err, errlen, e.what());
        return e.code();
    } catch (const std::bad_alloc &) {
        set_err(err, errlen, "out of memory");
        return VQ_ENOMEM;
    } catch (const std::exception &e) {
        set_err(err, errlen, e.what());
        return VQ_EMODEL;
    }
}

}  // namespace

extern "C" {

int vq_model_load_file_flags(VqModel **m, const char *path, unsigned flags, char *err, size_t errlen)
{
    if (!path) {
        *m = nullptr;
        set_err(err, errlen, "no model path");
        return VQ_EMODEL;
    }
    return load(m, err, errlen, [&] { return vq::Model::from_file(path, flags); });
}

int vq_model_load_file(VqModel **m, const char *path, char *err, size_t errlen)
{
    return vq_model_load_file_flags(m, path, 0, err, errlen);
}

int vq_model_load_json(VqModel **m, const char *json, size_t len, unsigned flags, char *err, size_t errlen)
{
    return load(m, err, errlen, [&] { return vq::Model::from_json(std::string_view(json ? json : "", json ? len : 0), flags); });
}

int vq_model_load_builtin_flags(VqModel **m, const char *version, unsigned flags, char *err, size_t errlen)
{
    return load(m, err, errlen, [&] { return vq::Model::builtin(version ? version : "(null)", flags); });
}

int vq_model_load_builtin(VqModel **m, const char *version, char *err, size_t errlen)
{
    return vq_model_load_builtin_flags(m, version, 0, err, errlen);
}

void vq_model_free(VqModel **pm)
{
    if (!pm)
        return;
    delete *pm;
    *pm = nullptr;
}

int vq_model_feature_count(const VqModel *m)
{
    return (int)m->m->features().size();
}

const char *vq_model_feature_name(const VqModel *m, int k)
{
    return k >= 0 && k < vq_model_feature_count(m) ? m->m->features()[k].name.c_str() : nullptr;
}

enum VqFex vq_model_feature_fex(const VqModel *m, int k)
{
    return k >= 0 && k < vq_model_feature_count(m) ? m->fex[k] : VQ_FEX_NONE;
}

void vq_model_feature_printed_name(const VqModel *m, int k, char *buf, size_t n)
{
    if (k < 0 || k >= vq_model_feature_count(m)) {
        if (n)
            buf[0] = 0;
        return;
    }
    vq_fex_printed_name(m->m->features()[k].name.c_str(), m->fex[k], &m->fex_opts, buf, n);
}

const VqFexOptions *vq_model_fex_options(const VqModel *m) { return &m->fex_opts; }

const char *vq_model_suffix(const VqModel *m, enum VqFex fex)
{
    return fex > VQ_FEX_NONE && fex < VQ_FEX_COUNT ? m->suffix[fex] : "";
}

const char *vq_model_vif_suffix(const VqModel *m) { return m->suffix[VQ_FEX_VIF]; }
const char *vq_model_adm_suffix(const VqModel *m) { return m->suffix[VQ_FEX_ADM]; }
const char *vq_model_motion_suffix(const VqModel *m) { return m->suffix[VQ_FEX_MOTION]; }
double vq_model_vif_egl(const VqModel *m) { return m->fex_opts.vif_enhn_gain_limit; }
double vq_model_adm_egl(const VqModel *m) { return m->fex_opts.adm_enhn_gain_limit; }

int vq_model_predict(const VqModel *m, const double *features, double *score)
{
    double out[VQ_MODEL_MAX_FEATURES + 8];
    std::unique_ptr<double[]> big;
    double *o = out;
    if (m->m->output_count() > sizeof(out) / sizeof(out[0])) {
        big.reset(new (std::nothrow) double[m->m->output_count()]);
        if (!big)
            return VQ_ENOMEM;
        o = big.get();
    }
    m->m->predict(features, o);
    *score = o[0];
    return 0;
}

}  // extern "C"
