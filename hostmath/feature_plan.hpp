/*
 * feature_plan.hpp - what a session computes, decided once: the models
 * (each under its name), the feature extractor instances they and
 * `feature=` ask for (an instance per distinct option set, shared by every
 * model that needs it, in libvmaf's registration order), the output columns
 * in libvmaf's log order, and the executors' plan (exec_plan.h).
 *
 * libvmaf's order, which the logs follow: per frame, each instance's
 * outputs in registration order (models' features first, model by model,
 * then feature=), then what instances append at flush (motion2/3), then
 * each model's outputs in model order.
 */
#ifndef VQ_FEATURE_PLAN_HPP
#define VQ_FEATURE_PLAN_HPP

#include <memory>
#include <string>
#include <vector>

#include "exec_plan.h"
#include "model.hpp"
#include "registry.hpp"
#include "vqcuda.h"

namespace vq {

struct Instance {
    FeatureOptions opts;
    int exec_index;         /* which executor instance of its kind (exec_plan.h: vif, adm, module) */
    int first_col;          /* column of its first per-frame output */
    int first_flush_col;    /* column of its first flush output, -1 if none */
    int n_outputs;          /* per-frame outputs that are columns */
    /* their collector names, in libvmaf's append order: the spec's outputs
     * (psnr: its planes', with mse_* after each psnr_* under enable_mse),
     * then the debug outputs under debug=true (float_ssim, float_ms_ssim:
     * the lcs outputs under enable_lcs=true) */
    std::vector<std::string> outputs = {};
    const void *fold_host = nullptr;    /* a module's: its own plan's g.fold_host */
};

struct ModelUse {
    std::unique_ptr<Model> model;
    std::string name;
    std::vector<int> input_cols;    /* column of each model feature */
    int first_col;                  /* its outputs' columns, consecutive */
    int n_outputs;
};

class FeaturePlan {
public:
    /* models: libvmaf's model= syntax (empty: version=vmaf_v0.6.1; "none": no
     * model, the features alone, as libvmaf's tool's --no_prediction);
     * features: libvmaf's feature= syntax (may be empty); psnr: add psnr
     * unless feature= has it.  Throws vq::Error with the cause. */
    FeaturePlan(const VqFormat &fmt, const std::string &models, const std::string &features, bool psnr);

    const std::vector<Instance> &instances() const { return instances_; }
    const std::vector<ModelUse> &models() const { return models_; }
    const std::vector<std::string> &columns() const { return columns_; }
    int column(const std::string &name) const;      /* -1 if none */
    const VqExecPlan &exec() const { return exec_; }
    /* a module instance's geometry: its section's (which it may share), with
     * its own fold_host */
    VqModuleGeom module_geom(const Instance &in) const
    {
        VqModuleGeom g = exec_.module[in.exec_index].g;
        g.fold_host = in.fold_host;
        return g;
    }

private:
    int add_instance(FeatureOptions opts);
    void make_columns();
    void make_exec_plan();

    VqFormat fmt_;
    std::vector<Instance> instances_;
    std::vector<ModelUse> models_;
    std::vector<std::string> columns_;
    /* model inputs by (instance, output index into outputs + flush_outputs) */
    std::vector<std::vector<std::pair<int, int>>> model_inputs_;
    VqExecPlan exec_;
    std::vector<std::shared_ptr<const void>> module_host_;  /* what exec_.module[k].g.host and fold_host point into */
};

}  // namespace vq

#endif /* VQ_FEATURE_PLAN_HPP */
