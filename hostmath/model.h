/*
 * model.h - a libvmaf JSON model (model.c, read_json_model.c) and its
 * per-frame prediction (predict.c, svm.cpp), bit for bit.
 *
 * A model is read at run time from a file, or from a table built into the
 * library (vmaf_v0.6.1, generated from libvmaf's JSON by
 * scripts/gen-model-table.py).  Only "model_dict" matters, as in libvmaf:
 * feature_names, slopes/intercepts (element 0 is the output's), norm_type,
 * score_clip, score_transform (used only when "enabled": true or when
 * loaded with VQ_MODEL_FLAG_ENABLE_TRANSFORM), feature_opts_dicts and the
 * libsvm text in "model".
 */
#ifndef VQ_MODEL_H
#define VQ_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "fex_options.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_MODEL_MAX_FEATURES 64    /* libvmaf's MAX_FEATURE_COUNT */
#define VQ_MODEL_MAX_KNOTS 10       /* libvmaf's MAX_KNOT_COUNT */
#define VQ_MODEL_SUFFIX_MAX 128

/* libvmaf's VmafModelFlags */
enum {
    VQ_MODEL_FLAG_DISABLE_CLIP = 1 << 0,
    VQ_MODEL_FLAG_ENABLE_TRANSFORM = 1 << 1,
};

enum VqModelNorm { VQ_MODEL_NORM_NONE = 1, VQ_MODEL_NORM_LINEAR_RESCALE = 2 };

/* one entry of a feature's options dictionary, normalised as libvmaf's
 * dictionary stores it (numbers: "%g" of strtof, booleans: "true"/"false") */
typedef struct VqModelOpt {
    const char *key, *val;
} VqModelOpt;

typedef struct VqModelFeature {
    const char *name;           /* collector name, as in feature_names */
    double slope, intercept;
    unsigned n_opts;
    const VqModelOpt *opts;
} VqModelFeature;

typedef struct VqSvmNode {
    int32_t index;              /* -1 ends a support vector */
    double value;
} VqSvmNode;

/* libsvm's tables (svm.cpp svm_type_table, kernel_type_table) */
enum { VQ_SVM_C_SVC, VQ_SVM_NU_SVC, VQ_SVM_ONE_CLASS, VQ_SVM_EPSILON_SVR, VQ_SVM_NU_SVR };
enum { VQ_SVM_LINEAR, VQ_SVM_POLY, VQ_SVM_RBF, VQ_SVM_SIGMOID, VQ_SVM_PRECOMPUTED };

typedef struct VqSvm {
    int32_t svm_type, kernel_type, degree;
    double gamma, coef0;
    int32_t nr_class;           /* 2 for regression models */
    int32_t l;                  /* total_sv */
    double rho;                 /* rho[0] */
    const double *sv_coef;      /* l coefficients (sv_coef[0]) */
    const uint32_t *sv_start;   /* l offsets into nodes */
    const VqSvmNode *nodes;     /* every SV's nodes in file order, each list ended by -1 */
    uint32_t n_nodes;
} VqSvm;

typedef struct VqScoreTransform {
    int32_t enabled;
    int32_t p0_enabled, p1_enabled, p2_enabled;
    double p0, p1, p2;
    int32_t knots_enabled;
    uint32_t n_knots;
    double knots[VQ_MODEL_MAX_KNOTS][2];    /* (x, y) */
    int32_t out_lte_in, out_gte_in;
} VqScoreTransform;

/* Everything a model file says that prediction uses (the built-in table's form). */
typedef struct VqModelData {
    int32_t norm_type;          /* enum VqModelNorm */
    double slope, intercept;    /* element 0: output de-normalisation */
    uint32_t n_features;
    const VqModelFeature *feature;
    int32_t score_clip_enabled;
    double score_clip_min, score_clip_max;
    VqScoreTransform transform;
    VqSvm svm;
} VqModelData;

typedef struct VqModel {
    VqModelData d;
    char version[64];           /* built-in name, or "" for a file */
    /* each model feature's extractor, and per extractor the options all its
     * features agree on (defaults when the model uses none of it) */
    enum VqFex fex[VQ_MODEL_MAX_FEATURES];
    VqFexOptions fex_opts;
    char suffix[VQ_FEX_COUNT][VQ_MODEL_SUFFIX_MAX];
    void *arena;                /* memory of a model read from JSON */
} VqModel;

/* The built-in vmaf_v0.6.1 (hostmath/model_vmaf_v0_6_1.c, generated). */
extern const VqModelData vq_model_data_vmaf_v0_6_1;

/*
 * Loaders: 0, or VQ_EMODEL (file missing or malformed, feature no extractor
 * of vqcuda provides, options libvmaf would refuse) / VQ_ENOMEM, with a
 * message in err.  flags: VQ_MODEL_FLAG_*.
 */
int vq_model_load_file(VqModel **m, const char *path, char *err, size_t errlen);
int vq_model_load_file_flags(VqModel **m, const char *path, unsigned flags,
                             char *err, size_t errlen);
int vq_model_load_json(VqModel **m, const char *json, size_t len, unsigned flags,
                       char *err, size_t errlen);
/* version: "vmaf_v0.6.1" (libvmaf's built-in name) */
int vq_model_load_builtin(VqModel **m, const char *version, char *err, size_t errlen);
int vq_model_load_builtin_flags(VqModel **m, const char *version, unsigned flags,
                                char *err, size_t errlen);
void vq_model_free(VqModel **m);

int vq_model_feature_count(const VqModel *m);
const char *vq_model_feature_name(const VqModel *m, int k);    /* collector name */
enum VqFex vq_model_feature_fex(const VqModel *m, int k);
/* the printed name of model feature k ("integer_vif_scale0_egl_1") */
void vq_model_feature_printed_name(const VqModel *m, int k, char *buf, size_t n);

/* Per-extractor options and name suffixes, as the model's dictionaries set them. */
const VqFexOptions *vq_model_fex_options(const VqModel *m);
const char *vq_model_suffix(const VqModel *m, enum VqFex fex);
const char *vq_model_vif_suffix(const VqModel *m);
const char *vq_model_adm_suffix(const VqModel *m);
const char *vq_model_motion_suffix(const VqModel *m);
double vq_model_vif_egl(const VqModel *m);
double vq_model_adm_egl(const VqModel *m);

/*
 * The model's score for one frame: features[k] is the value of model
 * feature k (feature_names order).  Exactly vmaf_predict_score_at_index:
 * normalise, libsvm's sequential kernel sum (glibc exp), minus rho,
 * de-normalise, transform if enabled, clip.  0, or VQ_EINVAL.
 */
int vq_model_predict(const VqModel *m, const double *features, double *score);

#ifdef __cplusplus
}
#endif
#endif /* VQ_MODEL_H */
