/*
 * registry.hpp - libvmaf v3.2.0's feature extractors as vqcuda knows them:
 * one table of extractors, each with its options (libvmaf's names, aliases,
 * types, defaults, ranges, which of them name features), the collector
 * names it provides (what a model asks for) and the outputs it appends per
 * frame and at flush, in libvmaf's order.  It replaces the F_* enum, the
 * name tables and the option lists.
 *
 * Feature names follow libvmaf's feature_name.c: with every FEATURE_PARAM
 * option at its default a feature keeps its name; otherwise its alias gets
 * "_<alias>[_<value>]" for each non-default one, in alphabetical order of
 * option name (bool: "_<alias>", int: "%d", double: "%g").
 */
#ifndef VQ_REGISTRY_HPP
#define VQ_REGISTRY_HPP

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace vq {

enum class OptType { Bool, Int, Double, Enum, String };

struct OptionSpec {
    const char *name;       /* libvmaf's option name */
    const char *alias;      /* in feature names; nullptr: none */
    OptType type;
    double def, min, max;
    bool feature_param;     /* VMAF_OPT_FLAG_FEATURE_PARAM: names carry it */
    bool implemented;       /* vqcuda computes non-default values (else refused) */
    const char *const *choices = nullptr;   /* Enum: the strings, nullptr-ended (value = index) */
};

struct Module;
struct LateOutputs;

struct FeatureSpec {
    const char *name;                       /* libvmaf's extractor name ("vif", "psnr", ...) */
    std::vector<OptionSpec> options;
    std::vector<const char *> provides;     /* collector names a model may read */
    std::vector<const char *> outputs;      /* per-frame outputs, libvmaf's append order */
    std::vector<const char *> flush_outputs;/* outputs known only at flush (motion2/3) */
    /* with the bool option `debug_option` true, appended per frame after
     * `outputs`: vif's, adm's and motion's debug=true outputs, float_ssim's
     * and float_ms_ssim's enable_lcs=true outputs */
    std::vector<const char *> debug_outputs = {};
    const char *debug_option = "debug";
    /* debug_outputs are appended under names the extractor's
     * provided_features lack (cambi's full_ref outputs): libvmaf prints them
     * as they are, without alias or option suffix */
    bool debug_outputs_raw = false;
    const Module *module = nullptr;         /* its module (its tables, plan, fold): set by the registry */
    /* outputs a frame gets after its own fold (float_motion's motion2 and
     * motion3): module.hpp's LateOutputs; nullptr: none */
    const LateOutputs *late = nullptr;
};

/* every extractor vqcuda implements, in a fixed order */
const std::vector<FeatureSpec> &feature_specs();
const FeatureSpec *find_extractor(std::string_view name);
/* the extractor providing a collector name (model JSON feature_names), or nullptr */
const FeatureSpec *extractor_providing(std::string_view collector_name);
/* alias.c: the printed name of a collector name (itself if it has none) */
std::string_view feature_alias(std::string_view collector_name);
/* names of every extractor, for error messages ("vif, adm, motion, psnr") */
std::string extractor_list();

/* dict.c's normalisation of a numeric option value: "%g" of strtof ("1.0" -> "1") */
std::string normalize_number(std::string_view text);

/* One extractor's options, resolved; compared to share instances. */
class FeatureOptions {
public:
    explicit FeatureOptions(const FeatureSpec &spec);

    /* Set an option from its text as libvmaf's opt.c parses it (bool
     * "true"/"false", int strtol, double strtod; range-checked).  Unknown
     * keys: ignored when lenient (libvmaf reads only its own options out of
     * a model's dictionaries), else an error.  Throws vq::Error(VQ_EINVAL). */
    void set(std::string_view key, std::string_view value, bool lenient = false);
    double get(std::string_view key) const;
    /* an Enum option's string, or a String option's text ("" when unset) */
    const char *get_str(std::string_view key) const;
    bool is_default(std::string_view key) const;

    /* the "_egl_1"-style suffix its non-default FEATURE_PARAM options give */
    std::string suffix() const;
    /* the name libvmaf prints: alias(collector_name) + suffix */
    std::string printed_name(std::string_view collector_name) const;
    /* Throws vq::Error(VQ_EINVAL) naming the first non-default option vqcuda
     * does not implement. */
    void check_implemented() const;

    const FeatureSpec &spec() const { return *spec_; }
    bool operator==(const FeatureOptions &o) const
    {
        return spec_ == o.spec_ && values_ == o.values_ && strings_ == o.strings_;
    }
    bool operator!=(const FeatureOptions &o) const { return !(*this == o); }

private:
    const OptionSpec *find(std::string_view key) const;
    const FeatureSpec *spec_;
    std::vector<double> values_;    /* one per spec option, as double (bool/int exact; String: 1 when set) */
    std::vector<std::string> strings_;  /* one per spec option: a String option's text */
};

}  // namespace vq

#endif /* VQ_REGISTRY_HPP */
