/* feature_plan.cpp - see feature_plan.hpp. */
#include "feature_plan.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

#include "option_string.hpp"
#include "module.hpp"
#include "vq_error.h"

namespace vq {

namespace {

int output_index(const FeatureSpec &spec, const std::string &name)
{
    int k = 0;
    for (const char *o : spec.outputs) {
        if (name == o)
            return k;
        k++;
    }
    for (const char *o : spec.flush_outputs) {
        if (name == o)
            return k;
        k++;
    }
    return -1;
}

bool is_true(const std::string &v)
{
    if (v == "true" || v == "1")
        return true;
    if (v == "false" || v == "0")
        return false;
    fail(VQ_EINVAL, "'%s' is not a boolean (true or false)", v.c_str());
}

}  // namespace

FeaturePlan::FeaturePlan(const VqFormat &fmt, const std::string &models, const std::string &features,
                         bool psnr)
    : fmt_(fmt)
{
    std::memset(&exec_, 0, sizeof(exec_));
    /* models, and the instances their features need, in order; "none": no
     * model (the features alone) */
    std::vector<KeyValues> model_sets;
    if (models != "none")
        model_sets = parse_option_sets(models.empty() ? "version=vmaf_v0.6.1" : models, "model");
    for (const KeyValues &kv : model_sets) {
        std::string version, path, name = "vmaf";
        unsigned flags = 0;
        KeyValues overrides;
        for (const auto &[key, value] : kv) {
            if (key == "version")
                version = value;
            else if (key == "path")
                path = value;
            else if (key == "name")
                name = value;
            else if (key == "disable_clip")
                flags |= is_true(value) ? (unsigned)MODEL_DISABLE_CLIP : 0u;
            else if (key == "enable_transform")
                flags |= is_true(value) ? (unsigned)MODEL_ENABLE_TRANSFORM : 0u;
            else if (key.find('.') != std::string::npos)
                overrides.emplace_back(key, value);
            else
                fail(VQ_EINVAL, "model option '%s' is unknown (version, path, name, disable_clip, "
                     "enable_transform, or <feature>.<option>)", key.c_str());
        }
        if (version.empty() == path.empty())
            fail(VQ_EINVAL, "model '%s': give exactly one of version= and path=", name.c_str());
        if (name.empty())
            fail(VQ_EINVAL, "a model's name is empty");
        for (const ModelUse &m : models_)
            if (m.name == name)
                fail(VQ_EINVAL, "two models are named '%s': give each its own name=", name.c_str());
        ModelUse use;
        use.model = path.empty() ? Model::builtin(version, flags) : Model::from_file(path, flags);
        use.name = name;
        /* every override must name an extractor this model uses */
        for (const auto &[key, value] : overrides) {
            const std::string fex = key.substr(0, key.find('.'));
            bool used = false;
            for (const ModelFeature &f : use.model->features()) {
                const FeatureSpec *s = extractor_providing(f.name);
                used = used || (s && fex == s->name);
            }
            if (!find_extractor(fex))
                fail(VQ_EINVAL, "model '%s': '%s': no feature extractor '%s' (vqcuda has: %s)",
                     name.c_str(), key.c_str(), fex.c_str(), extractor_list().c_str());
            if (!used)
                fail(VQ_EINVAL, "model '%s': '%s': the model uses no %s feature", name.c_str(),
                     key.c_str(), fex.c_str());
        }
        std::vector<std::pair<int, int>> inputs;
        for (const ModelFeature &f : use.model->features()) {
            const FeatureSpec *spec = extractor_providing(f.name);
            if (!spec)
                fail(VQ_EMODEL, "model '%s': feature '%s' is not computed by vqcuda (it has: %s)",
                     name.c_str(), f.name.c_str(), extractor_list().c_str());
            FeatureOptions o(*spec);
            try {
                for (const auto &[k, v] : f.opts)
                    o.set(k, v, true);
            } catch (const Error &e) {
                fail(VQ_EMODEL, "model '%s': feature '%s': %s", name.c_str(), f.name.c_str(), e.what());
            }
            for (const auto &[key, value] : overrides)
                if (key.compare(0, key.find('.'), spec->name) == 0)
                    o.set(key.substr(key.find('.') + 1), value, false);
            inputs.emplace_back(add_instance(o), output_index(*spec, f.name));
        }
        model_inputs_.push_back(std::move(inputs));
        models_.push_back(std::move(use));
    }
    /* feature=, then the psnr shorthand */
    bool have_psnr = false;
    if (!features.empty()) {
        for (const KeyValues &kv : parse_option_sets(features, "feature")) {
            const FeatureSpec *spec = nullptr;
            for (const auto &[key, value] : kv)
                if (key == "name" && !(spec = find_extractor(value)))
                    fail(VQ_EINVAL, "feature '%s' is not supported (supported: %s)", value.c_str(),
                         extractor_list().c_str());
            if (!spec)
                fail(VQ_EINVAL, "feature entry without name=");
            FeatureOptions o(*spec);
            for (const auto &[key, value] : kv)
                if (key != "name")
                    o.set(key, value, false);
            have_psnr = have_psnr || std::string_view(spec->name) == "psnr";
            add_instance(o);
        }
    }
    if (psnr && !have_psnr)
        add_instance(FeatureOptions(*find_extractor("psnr")));
    if (instances_.empty())
        fail(VQ_EINVAL, "model=none with no feature and psnr=0: there is nothing to compute");
    make_columns();
    make_exec_plan();
}

/* a and b are the same instance but for the option that only adds outputs
 * (vif/adm/motion's debug, float_ssim's enable_lcs): the same work, the
 * same names */
static bool same_but_extra_outputs(const FeatureOptions &a, const FeatureOptions &b)
{
    const FeatureSpec &spec = a.spec();
    if (&spec != &b.spec() || spec.debug_outputs.empty())
        return false;
    FeatureOptions x = a, y = b;
    x.set(spec.debug_option, "false");
    y.set(spec.debug_option, "false");
    return x == y;
}

int FeaturePlan::add_instance(FeatureOptions opts)
{
    opts.check_implemented();
    for (size_t i = 0; i < instances_.size(); i++) {
        if (instances_[i].opts == opts)
            return (int)i;
        /* feature=name=vif:debug=true beside a model that loads vif with the
         * same options: the model's instance gives the debug outputs too
         * (libvmaf drops the request there; vqcuda honours it) */
        if (same_but_extra_outputs(instances_[i].opts, opts)) {
            const char *extra = opts.spec().debug_option;
            if (opts.get(extra))
                instances_[i].opts.set(extra, "true");
            return (int)i;
        }
    }
    instances_.push_back(Instance{ std::move(opts), -1, -1, -1, 0 });
    return (int)instances_.size() - 1;
}

void FeaturePlan::make_columns()
{
    auto add = [this](std::string name) {
        for (const std::string &c : columns_)
            if (c == name)
                fail(VQ_EINVAL, "two features are both named '%s' (the same extractor with options "
                     "that do not change its names)", name.c_str());
        columns_.push_back(std::move(name));
        return (int)columns_.size() - 1;
    };
    for (Instance &in : instances_) {
        const FeatureSpec &spec = in.opts.spec();
        in.outputs.clear();
        if (spec.module && spec.module->outputs) {
            /* a module whose outputs depend on its options and the format */
            const std::vector<const char *> names = spec.module->outputs(in.opts, fmt_);
            in.outputs.assign(names.begin(), names.end());
        } else {
            in.outputs.assign(spec.outputs.begin(), spec.outputs.end());
            if (!spec.debug_outputs.empty() && in.opts.get(spec.debug_option))
                in.outputs.insert(in.outputs.end(), spec.debug_outputs.begin(), spec.debug_outputs.end());
        }
        in.n_outputs = (int)in.outputs.size();
        for (int k = 0; k < in.n_outputs; k++) {
            const int c = add(in.opts.printed_name(in.outputs[(size_t)k]));
            if (k == 0)
                in.first_col = c;
        }
    }
    /* what is first appended after frame 0's outputs: what is appended with
     * frame 1 (float_motion's motion3), then what flush() appends (integer
     * motion's) */
    for (int frame1 = 1; frame1 >= 0; frame1--)
        for (Instance &in : instances_) {
            const FeatureSpec &spec = in.opts.spec();
            if ((spec.late && spec.late->with_frame1) != (frame1 == 1))
                continue;
            const std::vector<const char *> flush = spec.late && spec.late->flush_outputs
                                                        ? spec.late->flush_outputs(in.opts) : spec.flush_outputs;
            for (size_t k = 0; k < flush.size(); k++) {
                const int c = add(in.opts.printed_name(flush[k]));
                if (k == 0)
                    in.first_flush_col = c;
            }
        }
    for (size_t m = 0; m < models_.size(); m++) {
        ModelUse &use = models_[m];
        const std::vector<std::string> names = use.model->output_names(use.name);
        for (size_t k = 0; k < names.size(); k++) {
            const int c = add(names[k]);
            if (k == 0)
                use.first_col = c;
        }
        use.n_outputs = (int)names.size();
        for (const auto &[inst, out] : model_inputs_[m]) {
            const Instance &in = instances_[(size_t)inst];
            const FeatureSpec &spec = in.opts.spec();
            const int n_frame = (int)spec.outputs.size();
            const char *output = out < n_frame ? spec.outputs[(size_t)out] : spec.flush_outputs[(size_t)(out - n_frame)];
            const int c = column(in.opts.printed_name(output));
            if (c < 0)
                fail(VQ_EINVAL, "model '%s': feature '%s' is not computed for this format", use.name.c_str(),
                     output);
            use.input_cols.push_back(c);
        }
    }
}

void FeaturePlan::make_exec_plan()
{
    VqExecPlan &p = exec_;
    p.w = fmt_.width;
    p.h = fmt_.height;
    p.bpc = fmt_.bitdepth;
    const int nplanes = fmt_.layout == VQ_LAYOUT_GRAY ? 1 : 3;
    for (int k = 0; k < 3; k++) {
        p.plane_w[k] = k == 0 ? fmt_.width : k < nplanes ? fmt_.width >> fmt_.chroma_shift_w : 0;
        p.plane_h[k] = k == 0 ? fmt_.height : k < nplanes ? fmt_.height >> fmt_.chroma_shift_h : 0;
    }
    for (Instance &in : instances_) {
        /* a metric module: its tables, its geometry and settings, its section */
        const FeatureOptions &o = in.opts;
        const Module &m = *o.spec().module;
        if (p.n_modules >= VQ_EXEC_MAX_MODULES)
            fail(VQ_EINVAL, "more than %d module instances", VQ_EXEC_MAX_MODULES);
        VqModuleExec &x = p.module[p.n_modules];
        x = VqModuleExec{};
        x.name = o.spec().name;
        x.cpu = m.cpu;
        x.cuda = m.cuda;
        x.chroma = m.chroma;
        x.temporal = m.temporal;
        x.g.w = p.w;
        x.g.h = p.h;
        x.g.bpc = p.bpc;
        for (int q = 0; q < 3; q++) {
            x.g.plane_w[q] = p.plane_w[q];
            x.g.plane_h[q] = p.plane_h[q];
        }
        std::shared_ptr<const void> owner;
        const std::string why = m.plan(o, fmt_, x.g, x.words, owner);
        if (!why.empty())
            fail(VQ_EINVAL, "%s", why.c_str());
        module_host_.push_back(std::move(owner));
        in.fold_host = x.g.fold_host;
        x.chroma = m.chroma && x.g.plane_w[1] > 0;   /* the plan clears planes it does not read */
        /* another instance of the module with the same row work: its section */
        int k = 0;
        while (k < p.n_modules && !(m.share && p.module[k].cpu == m.cpu && p.module[k].words == x.words &&
                                    m.share(p.module[k].g, x.g)))
            k++;
        in.exec_index = k;
        if (k == p.n_modules)
            p.n_modules++;
    }
    vq_exec_plan_layout(&p);
}

int FeaturePlan::column(const std::string &name) const
{
    for (size_t i = 0; i < columns_.size(); i++)
        if (columns_[i] == name)
            return (int)i;
    return -1;
}

}  // namespace vq
