/*
 * model_impl.hpp - what a loaded model holds (read by model_load.cpp and
 * model_svm.cpp, used by model.cpp), and the form of
 * the generated built-in tables (model_builtin_tables.cpp).
 */
#ifndef VQ_MODEL_IMPL_HPP
#define VQ_MODEL_IMPL_HPP

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"

namespace vq {
namespace model_detail {

constexpr unsigned kMaxFeatures = 64;  /* read_json_model.c MAX_FEATURE_COUNT */
constexpr unsigned kMaxKnots = 10;     /* MAX_KNOT_COUNT */

/* libvmaf's VmafModelType */
enum ModelType { TYPE_UNKNOWN = 0, TYPE_SVM_NUSVR, TYPE_BOOTSTRAP_SVM_NUSVR, TYPE_RESIDUE_BOOTSTRAP_SVM_NUSVR };
/* VmafModelNormalizationType; 0: none given (libvmaf cannot predict) */
enum NormType { NORM_UNSET = 0, NORM_NONE = 1, NORM_LINEAR_RESCALE = 2 };
/* libsvm's svm_type_table and kernel_type_table order */
enum SvmType { SVM_C_SVC, SVM_NU_SVC, SVM_ONE_CLASS, SVM_EPSILON_SVR, SVM_NU_SVR };
enum KernelType { KERNEL_LINEAR, KERNEL_POLY, KERNEL_RBF, KERNEL_SIGMOID, KERNEL_PRECOMPUTED };

struct SvmNode {
    int32_t index;  /* -1 ends a support vector */
    double value;
};

struct Knot {
    double x, y;
};

struct Transform {
    bool present;           /* the model has a score_transform (ENABLE_TRANSFORM needs one) */
    bool enabled;
    bool p0_enabled, p1_enabled, p2_enabled;
    double p0, p1, p2;
    bool knots_enabled;
    unsigned n_knots;
    Knot knots[kMaxKnots];
    bool out_lte_in, out_gte_in;
};

struct Svm {
    int svm_type, kernel_type, degree;
    double gamma, coef0, rho;
    std::vector<double> coef;          /* sv_coef[0][i] */
    std::vector<const SvmNode *> sv;   /* SV i's nodes, ended by index -1 */
    std::vector<SvmNode> storage;      /* the nodes sv points into (built-ins: static tables) */
};

/* one libvmaf VmafModel */
struct Sub {
    int type;
    int norm;
    double slope, intercept;                /* element 0: the output's */
    std::vector<double> fslope, fintercept; /* one per feature */
    bool clip;
    double clip_min, clip_max;
    Transform tf;
    Svm svm;
    std::vector<unsigned> input;            /* feature k -> index in Model::features() */
    /* chroma_correction_parameter (predict.c post_process_feature_from_another):
     * the feature whose name contains "speed_chroma" (guided), when its
     * denormalized value is exactly 0.0, becomes cfl_param * (1 - the
     * denormalized "adm3" feature), normalized again */
    bool cfl = false;
    double cfl_param = 0.0;
    int cfl_guiding = -1, cfl_guided = -1;  /* feature k of this sub */
};

struct Impl {
    std::vector<ModelFeature> features;
    std::vector<Sub> subs;      /* subs[0]: the model (collection: member "0") */
    bool collection = false;
};

/* the loaders: a model file's text (model_load.cpp), its libsvm text
 * (model_svm.cpp); vq::Error on what libvmaf could not predict with */
std::unique_ptr<Impl> load_json(std::string_view text, unsigned flags);
void parse_svm(const std::string &text, Svm *svm);

/* Model's private parts, for the loaders (and the tests) */
struct Access {
    static std::unique_ptr<Model> make(std::unique_ptr<Impl> impl)
    {
        return std::unique_ptr<Model>(new Model(std::move(impl)));
    }
    static const Impl &impl(const Model &m) { return *m.impl_; }
};

/* ---- the generated built-in tables (model_builtin_tables.cpp) ---- */

struct BuiltinOpt {
    const char *key, *val;
};

struct BuiltinFeature {
    const char *name;
    unsigned n_opts;
    const BuiltinOpt *opts;
    double slope, intercept;
};

/* one model as its JSON file says it, before the load flags */
struct BuiltinSub {
    int type, norm;
    double slope, intercept;
    unsigned n_features;
    const BuiltinFeature *features;
    bool has_clip;
    double clip_min, clip_max;
    Transform tf;
    int svm_type, kernel_type, degree;
    double gamma, coef0, rho;
    unsigned l;
    const double *coef;         /* l coefficients */
    const uint32_t *row;        /* l rows of builtin_nodes (shared between models) */
    bool has_cfl;               /* chroma_correction_parameter given */
    double cfl_param;
};

struct BuiltinModel {
    const char *version;
    bool collection;
    unsigned n_subs;
    const BuiltinSub *subs;
};

extern const SvmNode builtin_nodes[];          /* every row's nodes, each ended by index -1 */
extern const uint32_t builtin_row_start[];     /* row r starts at builtin_nodes[builtin_row_start[r]] */
extern const unsigned builtin_n_rows;
extern const BuiltinModel builtin_models[];
extern const unsigned builtin_n_models;

/* a built-in model with the load flags applied (model_load.cpp) */
std::unique_ptr<Impl> load_builtin(const BuiltinModel &bm, unsigned flags);

}  // namespace model_detail
}  // namespace vq

#endif /* VQ_MODEL_IMPL_HPP */
