/* registry.cpp - see registry.hpp.  The extractors' option tables are in
 * their modules' folders (hostmath/<metric>/); the aliases follow libvmaf
 * v3.2.0's alias.c. */
#include "registry.hpp"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "module.hpp"
#include "vq_error.h"

namespace vq {

namespace {

std::vector<FeatureSpec> make_specs()
{
    /* the metric modules (hostmath/modules.cpp's list), as they describe
     * themselves */
    std::vector<FeatureSpec> v;
    for (const Module *m : modules()) {
        FeatureSpec s = m->spec;
        s.module = m;
        v.push_back(std::move(s));
    }
    return v;
}

/* a C-locale strtod / strtof (the filter may run under any LC_NUMERIC) */
template <typename T> bool parse_float(std::string_view s, T &out, size_t *used)
{
    std::string buf(s);
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    char *end = nullptr;
    errno = 0;
    if constexpr (sizeof(T) == sizeof(float))
        out = std::strtof(buf.c_str(), &end);
    else
        out = std::strtod(buf.c_str(), &end);
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    *used = (size_t)(end - buf.c_str());
    return *used > 0;
}

std::string format_g(double v)
{
    char buf[64];
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    std::snprintf(buf, sizeof(buf), "%g", v);
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    return buf;
}

}  // namespace

const std::vector<FeatureSpec> &feature_specs()
{
    static const std::vector<FeatureSpec> specs = make_specs();
    return specs;
}

const FeatureSpec *find_extractor(std::string_view name)
{
    for (const FeatureSpec &s : feature_specs())
        if (name == s.name)
            return &s;
    return nullptr;
}

const FeatureSpec *extractor_providing(std::string_view collector_name)
{
    for (const FeatureSpec &s : feature_specs())
        for (const char *p : s.provides)
            if (collector_name == p)
                return &s;
    return nullptr;
}

std::string extractor_list()
{
    std::string out;
    for (const FeatureSpec &s : feature_specs())
        out += (out.empty() ? "" : ", ") + std::string(s.name);
    return out;
}

std::string_view feature_alias(std::string_view name)
{
    static const char *const map[][2] = {
        { "VMAF_feature_adm2_score", "adm2" },
        { "VMAF_feature_aim_score", "aim" },
        { "VMAF_feature_adm3_score", "adm3" },
        { "VMAF_feature_adm_scale0_score", "adm_scale0" },
        { "VMAF_feature_adm_scale1_score", "adm_scale1" },
        { "VMAF_feature_adm_scale2_score", "adm_scale2" },
        { "VMAF_feature_adm_scale3_score", "adm_scale3" },
        { "VMAF_feature_motion_score", "motion" },
        { "VMAF_feature_motion2_score", "motion2" },
        { "VMAF_feature_motion3_score", "motion3" },
        { "VMAF_feature_vif_scale0_score", "vif_scale0" },
        { "VMAF_feature_vif_scale1_score", "vif_scale1" },
        { "VMAF_feature_vif_scale2_score", "vif_scale2" },
        { "VMAF_feature_vif_scale3_score", "vif_scale3" },
        { "VMAF_integer_feature_adm2_score", "integer_adm2" },
        { "VMAF_integer_feature_aim_score", "integer_aim" },
        { "VMAF_integer_feature_adm3_score", "integer_adm3" },
        { "VMAF_integer_feature_motion_score", "integer_motion" },
        { "VMAF_integer_feature_motion2_score", "integer_motion2" },
        { "VMAF_integer_feature_motion3_score", "integer_motion3" },
        { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0" },
        { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1" },
        { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2" },
        { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3" },
        { "Cambi_feature_cambi_score", "cambi" },
        { "Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u" },
        { "Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v" },
        { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv" },
        { "Speed_temporal_feature_speed_temporal_score", "speed_temporal" },
    };
    for (const auto &m : map)
        if (name == m[0])
            return m[1];
    return name;
}

std::string normalize_number(std::string_view text)
{
    float f;
    size_t used;
    if (!parse_float(text, f, &used))
        return std::string(text);
    return format_g((double)f);
}

FeatureOptions::FeatureOptions(const FeatureSpec &spec) : spec_(&spec)
{
    for (const OptionSpec &o : spec.options)
        values_.push_back(o.def);
    strings_.resize(values_.size());
}

const OptionSpec *FeatureOptions::find(std::string_view key) const
{
    for (const OptionSpec &o : spec_->options)
        if (key == o.name)
            return &o;
    return nullptr;
}

void FeatureOptions::set(std::string_view key, std::string_view value, bool lenient)
{
    const OptionSpec *o = find(key);
    if (!o) {
        if (lenient)
            return;
        std::string known;
        for (const OptionSpec &k : spec_->options)
            known += (known.empty() ? "" : ", ") + std::string(k.name);
        fail(VQ_EINVAL, "feature %s has no option '%.*s' (its options: %s)", spec_->name,
             (int)key.size(), key.data(), known.c_str());
    }
    double &dst = values_[(size_t)(o - spec_->options.data())];
    const std::string v(value);
    bool ok = false;
    switch (o->type) {
    case OptType::Bool:     /* opt.c set_option_bool */
        if (v == "true" || v == "1")
            dst = 1, ok = true;
        else if (v == "false" || v == "0")
            dst = 0, ok = true;
        break;
    case OptType::Int: {    /* opt.c set_option_int */
        char *end = nullptr;
        errno = 0;
        const long n = std::strtol(v.c_str(), &end, 10);
        ok = end != v.c_str() && *end == 0 && errno == 0 && n >= o->min && n <= o->max;
        if (ok)
            dst = (double)n;
        break;
    }
    case OptType::Enum:
        for (int k = 0; o->choices[k]; k++)
            if (v == o->choices[k])
                dst = k, ok = true;
        break;
    case OptType::String:   /* opt.c set_option_string: the text as it is */
        strings_[(size_t)(o - spec_->options.data())] = v;
        dst = 1, ok = true;
        break;
    case OptType::Double: { /* opt.c set_option_double */
        double d;
        size_t used;
        ok = parse_float(v, d, &used) && used == v.size() && std::isfinite(d) && d >= o->min &&
             d <= o->max;
        if (ok)
            dst = d;
        break;
    }
    }
    if (!ok)
        fail(VQ_EINVAL, "feature %s: option %s: bad or out-of-range value '%s'", spec_->name, o->name,
             v.c_str());
}

const char *FeatureOptions::get_str(std::string_view key) const
{
    const OptionSpec *o = find(key);
    if (o && o->type == OptType::String)
        return strings_[(size_t)(o - spec_->options.data())].c_str();
    return o && o->choices ? o->choices[(int)values_[(size_t)(o - spec_->options.data())]] : "";
}

double FeatureOptions::get(std::string_view key) const
{
    const OptionSpec *o = find(key);
    return o ? values_[(size_t)(o - spec_->options.data())] : 0.0;
}

bool FeatureOptions::is_default(std::string_view key) const
{
    const OptionSpec *o = find(key);
    return !o || values_[(size_t)(o - spec_->options.data())] == o->def;
}

std::string FeatureOptions::suffix() const
{
    std::vector<const OptionSpec *> sel;
    for (size_t i = 0; i < spec_->options.size(); i++)
        if (spec_->options[i].feature_param && values_[i] != spec_->options[i].def)
            sel.push_back(&spec_->options[i]);
    std::sort(sel.begin(), sel.end(),
              [](const OptionSpec *a, const OptionSpec *b) { return std::strcmp(a->name, b->name) < 0; });
    std::string out;
    for (const OptionSpec *o : sel) {
        const double v = values_[(size_t)(o - spec_->options.data())];
        out += "_";
        out += o->alias ? o->alias : o->name;
        if (o->type == OptType::Int)
            out += "_" + std::to_string((int)v);
        else if (o->type == OptType::Double)
            out += "_" + format_g(v);
        else if (o->type == OptType::Enum)
            out += std::string("_") + o->choices[(int)v];
    }
    return out;
}

std::string FeatureOptions::printed_name(std::string_view collector_name) const
{
    /* the collector keeps the raw name (or alias + suffix); logs print its alias */
    if (spec_->debug_outputs_raw)
        for (const char *d : spec_->debug_outputs)
            if (collector_name == d)
                return std::string(collector_name);
    return std::string(feature_alias(collector_name)) + suffix();
}

void FeatureOptions::check_implemented() const
{
    for (size_t i = 0; i < spec_->options.size(); i++) {
        const OptionSpec &o = spec_->options[i];
        if (!o.implemented && values_[i] != o.def)
            fail(VQ_EINVAL, "feature %s: option %s is not implemented by vqcuda (only its default "
                 "is computed)", spec_->name, o.name);
    }
}

}  // namespace vq
