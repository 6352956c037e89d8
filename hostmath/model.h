/*
 * model.h - the old C interface of the model, for hostmath/session.c until
 * the C++ session uses vq::Model (model.hpp) directly: a thin shim
 * (model_c_shim.cpp) over vq::Model.  To be deleted with the old session.
 *
 * Besides vq::Model, the shim resolves the model's features to vqcuda's
 * extractors and their options (fex_options.h) as the old loader did, and
 * refuses a model whose features no extractor of vqcuda provides, whose
 * options libvmaf's option parser would refuse, or that configures one
 * extractor two ways.  A collection (vmaf_b_v0.6.3) predicts its first
 * output ("vmaf") here.
 */
#ifndef VQ_MODEL_H
#define VQ_MODEL_H

#include <stddef.h>

#include "fex_options.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_MODEL_MAX_FEATURES 64    /* libvmaf's MAX_FEATURE_COUNT */

/* libvmaf's VmafModelFlags (vq::ModelFlags) */
enum {
    VQ_MODEL_FLAG_DISABLE_CLIP = 1 << 0,
    VQ_MODEL_FLAG_ENABLE_TRANSFORM = 1 << 1,
};

typedef struct VqModel VqModel;

/* 0, or VQ_EMODEL / VQ_ENOMEM with a message in err */
int vq_model_load_file(VqModel **m, const char *path, char *err, size_t errlen);
int vq_model_load_file_flags(VqModel **m, const char *path, unsigned flags, char *err, size_t errlen);
int vq_model_load_json(VqModel **m, const char *json, size_t len, unsigned flags, char *err, size_t errlen);
int vq_model_load_builtin(VqModel **m, const char *version, char *err, size_t errlen);
int vq_model_load_builtin_flags(VqModel **m, const char *version, unsigned flags, char *err, size_t errlen);
void vq_model_free(VqModel **m);

int vq_model_feature_count(const VqModel *m);
const char *vq_model_feature_name(const VqModel *m, int k);    /* collector name */
enum VqFex vq_model_feature_fex(const VqModel *m, int k);
/* the printed name of model feature k ("integer_vif_scale0_egl_1") */
void vq_model_feature_printed_name(const VqModel *m, int k, char *buf, size_t n);

const VqFexOptions *vq_model_fex_options(const VqModel *m);
const char *vq_model_suffix(const VqModel *m, enum VqFex fex);
const char *vq_model_vif_suffix(const VqModel *m);
const char *vq_model_adm_suffix(const VqModel *m);
const char *vq_model_motion_suffix(const VqModel *m);
double vq_model_vif_egl(const VqModel *m);
double vq_model_adm_egl(const VqModel *m);

/* the model's (first) output for one frame; features[k]: model feature k. 0 */
int vq_model_predict(const VqModel *m, const double *features, double *score);

#ifdef __cplusplus
}
#endif
#endif /* VQ_MODEL_H */
