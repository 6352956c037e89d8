/*
 * model_load.cpp - reading a libvmaf model: the JSON file
 * (read_json_model.c's rules) and the generated built-in tables into a
 * model_detail::Impl (model_impl.hpp); the libsvm text is model_svm.cpp's.
 *
 * JSON: nlohmann-json's SAX parser (iterative: any nesting depth is safe)
 * builds a small tree of what libvmaf can read: containers deeper than
 * kKeepDepth keep their type but not their children, arrays keep their
 * first kKeepItems items and their length; duplicate keys are refused in
 * every object.  Numbers keep their text, converted as libvmaf converts it:
 * pdjson's json_get_number is strtod (the "C" locale), feature_opts_dicts
 * numbers go through its dictionary ("%g" of strtof).
 *
 * Stricter than libvmaf where it would go on with a model it cannot
 * predict with, or would crash: no feature names, no norm_type, fewer
 * slopes/intercepts than features under linear_rescale, no libsvm text,
 * a classification SVM, chroma_correction_parameter (speed_chroma models),
 * numbers out of double range (nlohmann refuses them; strtod would give
 * infinity).
 */
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "c_locale.h"
#include "registry.hpp"
#include "model_impl.hpp"
#include "vq_error.h"
#include "vqcuda.h"

namespace vq {
namespace model_detail {

namespace {

/* ------------------------------------------------------------------ */
/* JSON: the SAX events into a depth- and length-limited tree          */

constexpr size_t kKeepDepth = 7;       /* deepest value libvmaf reads: collection/0/model_dict/score_transform/knots/[x,y]/x */
constexpr size_t kKeepItems = 128;     /* every array libvmaf reads has at most 65 items it looks at */
constexpr size_t kMaxNodes = 1u << 21; /* kept values in all */

struct JNode {
    enum Type : uint8_t { NUL, FALSE_, TRUE_, NUMBER, STRING, ARRAY, OBJECT };
    Type type = NUL;
    bool trimmed = false;          /* children not kept (too deep, or past kKeepItems) */
    size_t count = 0;              /* ARRAY / OBJECT: children in the text */
    std::string text;              /* STRING: the value; NUMBER: its text */
    std::vector<std::string> keys; /* OBJECT: kept members' keys */
    std::vector<JNode> items;      /* ARRAY: kept items; OBJECT: kept members' values */

    const JNode *get(const char *key) const
    {
        for (size_t i = 0; i < keys.size(); i++)
            if (keys[i] == key)
                return &items[i];
        return nullptr;
    }
};

const char *type_name(JNode::Type t)
{
    switch (t) {
    case JNode::NUL: return "null";
    case JNode::FALSE_:
    case JNode::TRUE_: return "a boolean";
    case JNode::NUMBER: return "a number";
    case JNode::STRING: return "a string";
    case JNode::ARRAY: return "an array";
    case JNode::OBJECT: return "an object";
    }
    return "?";
}

/* nlohmann's lexer writes the locale's decimal point into a number's text
 * (for its own strtod): put the '.' back, since we convert in "C" */
std::string c_number(std::string s)
{
    for (char &c : s)
        if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == 'e' || c == 'E'))
            c = '.';
    return s;
}

class TreeBuilder : public nlohmann::json_sax<nlohmann::json> {
public:
    JNode root;
    std::string error;

    bool null() override { return leaf(JNode::NUL, std::string()); }
    bool boolean(bool v) override { return leaf(v ? JNode::TRUE_ : JNode::FALSE_, std::string()); }
    /* nlohmann gives negative integers here, so 0 is "-0" (strtod: -0.0) */
    bool number_integer(number_integer_t v) override
    {
        return leaf(JNode::NUMBER, v == 0 ? std::string("-0") : std::to_string(v));
    }
    bool number_unsigned(number_unsigned_t v) override { return leaf(JNode::NUMBER, std::to_string(v)); }
    bool number_float(number_float_t, const string_t &s) override { return leaf(JNode::NUMBER, c_number(s)); }
    bool string(string_t &s) override { return leaf(JNode::STRING, std::move(s)); }
    bool binary(binary_t &) override { return fail("binary value"); }
    bool start_object(std::size_t) override { return open(JNode::OBJECT); }
    bool key(string_t &k) override
    {
        Frame &f = stack_.back();
        if (!f.keys.insert(k).second)
            return fail("duplicate key \"" + k + "\"");
        f.key = std::move(k);
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(JNode::ARRAY); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &ex) override
    {
        if (error.empty())
            error = ex.what();
        return false;
    }

private:
    struct Frame {
        JNode *node;                            /* nullptr: not kept */
        std::unordered_set<std::string> keys;   /* objects: keys seen */
        std::string key;                        /* objects: the pending member's key */
    };
    std::vector<Frame> stack_;
    size_t nodes_ = 0;

    bool fail(const std::string &msg)
    {
        if (error.empty())
            error = msg;
        return false;
    }

    /* where a new value goes: nullptr when it is not kept */
    JNode *slot(bool *ok)
    {
        *ok = true;
        if (stack_.empty())
            return &root;
        Frame &f = stack_.back();
        if (!f.node)
            return nullptr;
        JNode &p = *f.node;
        p.count++;
        if (stack_.size() >= kKeepDepth || (p.type == JNode::ARRAY && p.items.size() >= kKeepItems)) {
            p.trimmed = true;
            return nullptr;
        }
        if (++nodes_ > kMaxNodes) {
            *ok = fail("too many values (more than " + std::to_string(kMaxNodes) + ")");
            return nullptr;
        }
        if (p.type == JNode::OBJECT)
            p.keys.push_back(f.key);
        p.items.emplace_back();
        return &p.items.back();
    }

    bool leaf(JNode::Type t, std::string text)
    {
        bool ok;
        JNode *n = slot(&ok);
        if (n) {
            n->type = t;
            n->text = std::move(text);
        }
        return ok;
    }

    bool open(JNode::Type t)
    {
        bool ok;
        JNode *n = slot(&ok);
        if (!ok)
            return false;
        if (n)
            n->type = t;
        stack_.push_back(Frame{ n, {}, {} });
        return true;
    }

    bool close()
    {
        stack_.pop_back();
        return true;
    }
};

JNode parse_json(std::string_view text)
{
    TreeBuilder b;
    bool ok;
    try {
        ok = nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &b,
                                       nlohmann::json::input_format_t::json, true, false);
    } catch (const std::bad_alloc &) {
        fail(VQ_ENOMEM, "out of memory reading the JSON text");
    } catch (const std::exception &e) {
        fail(VQ_EMODEL, "malformed JSON: %s", e.what());
    }
    if (!ok)
        fail(VQ_EMODEL, "malformed JSON: %s", b.error.empty() ? "parse error" : b.error.c_str());
    return std::move(b.root);
}

/* ------------------------------------------------------------------ */
/* numbers as libvmaf converts them                                    */

/* pdjson json_get_number: strtod of the number's text */
double json_number(const JNode &n)
{
    return vq_strtod_c(n.text.c_str(), nullptr);
}

bool has_nul(const std::string &s)
{
    return s.find('\0') != std::string::npos;
}

/* ------------------------------------------------------------------ */
/* one model object ({"model_dict": ...}), read_json_model.c's rules   */

/* a number array's kept items, or an error naming it */
const std::vector<JNode> &numbers(const JNode &v, const char *what, size_t max)
{
    if (v.type != JNode::ARRAY)
        fail(VQ_EMODEL, "%s is not an array", what);
    if (v.count > max)
        fail(VQ_EMODEL, "%s: more than %zu entries", what, max);
    for (size_t i = 0; i < v.items.size(); i++)
        if (v.items[i].type != JNode::NUMBER)
            fail(VQ_EMODEL, "%s[%zu] is not a number", what, i);
    return v.items;
}

void parse_transform(const JNode &o, Transform *t)
{
    *t = Transform();
    t->present = true;
    for (size_t i = 0; i < o.keys.size(); i++) {
        const std::string &key = o.keys[i];
        const JNode &v = o.items[i];
        if (key == "enabled") {
            if (v.type != JNode::TRUE_ && v.type != JNode::FALSE_)
                fail(VQ_EMODEL, "score_transform.enabled is not a boolean");
            t->enabled = v.type == JNode::TRUE_;
        } else if (key == "p0" || key == "p1" || key == "p2") {
            /* libvmaf only peeks at a null here, then fails on it as a key */
            if (v.type != JNode::NUMBER)
                fail(VQ_EMODEL, "score_transform.%s is not a number", key.c_str());
            bool *en = key[1] == '0' ? &t->p0_enabled : key[1] == '1' ? &t->p1_enabled : &t->p2_enabled;
            double *val = key[1] == '0' ? &t->p0 : key[1] == '1' ? &t->p1 : &t->p2;
            *en = true;
            *val = json_number(v);
        } else if (key == "knots") {
            if (v.type != JNode::ARRAY)  /* null: as for p0 */
                fail(VQ_EMODEL, "score_transform.knots is not an array");
            if (v.count > kMaxKnots)
                fail(VQ_EMODEL, "score_transform.knots: more than %u knots", kMaxKnots);
            for (size_t k = 0; k < v.items.size(); k++) {
                const JNode &kn = v.items[k];
                if (kn.type != JNode::ARRAY || kn.count > 2)
                    fail(VQ_EMODEL, "score_transform.knots[%zu] is not [x, y]", k);
                for (size_t j = 0; j < kn.items.size(); j++) {
                    if (kn.items[j].type != JNode::NUMBER)
                        fail(VQ_EMODEL, "score_transform.knots[%zu] is not [x, y]", k);
                    (j == 0 ? t->knots[k].x : t->knots[k].y) = json_number(kn.items[j]);
                }
            }
            t->n_knots = unsigned(v.items.size());
            t->knots_enabled = true;
        } else if (key == "out_lte_in" || key == "out_gte_in") {
            if (v.type != JNode::STRING)
                fail(VQ_EMODEL, "score_transform.%s is not a string", key.c_str());
            if (v.text == "true")
                (key[4] == 'l' ? t->out_lte_in : t->out_gte_in) = true;
        }
    }
}

std::vector<std::pair<std::string, std::string>> parse_opts_dict(const JNode &o, size_t idx)
{
    std::vector<std::pair<std::string, std::string>> out;
    if (o.type != JNode::OBJECT)
        fail(VQ_EMODEL, "feature_opts_dicts[%zu] is not an object", idx);
    for (size_t i = 0; i < o.keys.size(); i++) {
        const JNode &v = o.items[i];
        std::string val;
        if (v.type == JNode::NUMBER) {
            val = normalize_number(v.text);
        } else if (v.type == JNode::TRUE_ || v.type == JNode::FALSE_) {
            val = v.type == JNode::TRUE_ ? "true" : "false";
        } else if (v.type == JNode::STRING) {
            val = v.text;
        } else {
            fail(VQ_EMODEL, "feature_opts_dicts[%zu].%s is %s, not a number, boolean or string", idx,
                 o.keys[i].c_str(), type_name(v.type));
        }
        if (has_nul(o.keys[i]) || has_nul(val))
            fail(VQ_EMODEL, "feature_opts_dicts[%zu]: a NUL character in a key or value", idx);
        out.emplace_back(o.keys[i], std::move(val));
    }
    return out;
}

/* chroma_correction_parameter: which features predict.c's
 * post_process_feature_from_another(model, node, c, 0.0, "adm3",
 * "speed_chroma") reads (strstr on the model's feature names).  Refused
 * where libvmaf's behaviour is not a score: a parameter of 0 (the
 * predictor then writes no score), no or several features matching either
 * substring (uninitialized reads, or -EINVAL). */
void setup_cfl(Sub *s, const std::vector<ModelFeature> &feats)
{
    if (s->cfl_param == 0.0)
        fail(VQ_EMODEL, "chroma_correction_parameter 0: libvmaf predicts no score with it");
    s->cfl_guiding = s->cfl_guided = -1;
    for (size_t k = 0; k < feats.size(); k++) {
        const char *sub[2] = { "adm3", "speed_chroma" };
        int *idx[2] = { &s->cfl_guiding, &s->cfl_guided };
        for (int j = 0; j < 2; j++)
            if (feats[k].name.find(sub[j]) != std::string::npos) {
                if (*idx[j] >= 0)
                    fail(VQ_EMODEL, "chroma_correction_parameter: more than one feature name contains "
                         "'%s'", sub[j]);
                *idx[j] = (int)k;
            }
    }
    if (s->cfl_guided < 0)
        fail(VQ_EMODEL, "chroma_correction_parameter: the model has no speed_chroma feature");
    if (s->cfl_guiding < 0)
        fail(VQ_EMODEL, "chroma_correction_parameter: the model has no adm3 feature");
}

/* feats: the model's features (name and options), in feature_names order */
void parse_model_dict(const JNode &md, unsigned flags, Sub *s, std::vector<ModelFeature> *feats)
{
    std::vector<double> slopes, intercepts;
    const JNode *names = nullptr, *opts = nullptr, *svm_text = nullptr;

    *s = Sub();
    s->type = TYPE_UNKNOWN;
    s->norm = NORM_UNSET;
    for (size_t i = 0; i < md.keys.size(); i++) {
        const std::string &key = md.keys[i];
        const JNode &v = md.items[i];
        if (key == "score_transform") {
            if (v.type != JNode::OBJECT)
                fail(VQ_EMODEL, "score_transform is not an object");
            parse_transform(v, &s->tf);
            if (flags & MODEL_ENABLE_TRANSFORM)
                s->tf.enabled = true;
        } else if (key == "model_type") {
            if (v.type != JNode::STRING)
                fail(VQ_EMODEL, "model_type is not a string");
            if (v.text == "RESIDUEBOOTSTRAP_LIBSVMNUSVR")
                s->type = TYPE_RESIDUE_BOOTSTRAP_SVM_NUSVR;
            else if (v.text == "BOOTSTRAP_LIBSVMNUSVR")
                s->type = TYPE_BOOTSTRAP_SVM_NUSVR;
            else if (v.text == "LIBSVMNUSVR")
                s->type = TYPE_SVM_NUSVR;
            else
                fail(VQ_EMODEL, "unknown model_type \"%.64s\"", v.text.c_str());
        } else if (key == "norm_type") {
            if (v.type != JNode::STRING)
                fail(VQ_EMODEL, "norm_type is not a string");
            if (v.text == "linear_rescale")
                s->norm = NORM_LINEAR_RESCALE;
            else if (v.text == "none")
                s->norm = NORM_NONE;
            else
                fail(VQ_EMODEL, "unknown norm_type \"%.64s\"", v.text.c_str());
        } else if (key == "score_clip") {
            if (v.type != JNode::ARRAY)
                fail(VQ_EMODEL, "score_clip is not an array");
            if (!(flags & MODEL_DISABLE_CLIP)) {
                if (v.items.size() < 2 || v.items[0].type != JNode::NUMBER || v.items[1].type != JNode::NUMBER)
                    fail(VQ_EMODEL, "score_clip is not [min, max]");
                s->clip = true;
                s->clip_min = json_number(v.items[0]);
                s->clip_max = json_number(v.items[1]);
            }
        } else if (key == "chroma_correction_parameter") {
            if (v.type != JNode::NUMBER)
                fail(VQ_EMODEL, "chroma_correction_parameter is not a number");
            s->cfl = true;
            s->cfl_param = json_number(v);
        } else if (key == "slopes" || key == "intercepts") {
            const bool sl = key == "slopes";
            const std::vector<JNode> &a = numbers(v, sl ? "slopes" : "intercepts", kMaxFeatures + 1);
            if (a.empty())
                fail(VQ_EMODEL, "%s is empty", key.c_str());
            std::vector<double> &dst = sl ? slopes : intercepts;
            dst.clear();
            for (const JNode &n : a)
                dst.push_back(json_number(n));
        } else if (key == "feature_names") {
            if (v.type != JNode::ARRAY)
                fail(VQ_EMODEL, "feature_names is not an array");
            if (v.count > kMaxFeatures)
                fail(VQ_EMODEL, "more than %u features", kMaxFeatures);
            for (size_t k = 0; k < v.items.size(); k++)
                if (v.items[k].type != JNode::STRING || has_nul(v.items[k].text))
                    fail(VQ_EMODEL, "feature_names[%zu] is not a string", k);
            names = &v;
        } else if (key == "feature_opts_dicts") {
            if (v.type != JNode::ARRAY)
                fail(VQ_EMODEL, "feature_opts_dicts is not an array");
            if (v.count > kMaxFeatures)
                fail(VQ_EMODEL, "feature_opts_dicts: more than %u entries", kMaxFeatures);
            opts = &v;
        } else if (key == "model") {
            if (v.type != JNode::STRING)
                fail(VQ_EMODEL, "model (the libsvm text) is not a string");
            svm_text = &v;
        }
    }

    if (!names || names->items.empty())
        fail(VQ_EMODEL, "feature_names is missing or empty");
    const size_t nf = names->items.size();
    if (s->norm == NORM_UNSET)
        fail(VQ_EMODEL, "norm_type is missing");
    if (s->norm == NORM_LINEAR_RESCALE && (slopes.size() < nf + 1 || intercepts.size() < nf + 1))
        fail(VQ_EMODEL, "linear_rescale needs %zu slopes and intercepts (output + features)", nf + 1);
    if (!svm_text)
        fail(VQ_EMODEL, "model (the libsvm text) is missing");

    s->slope = slopes.empty() ? 0.0 : slopes[0];
    s->intercept = intercepts.empty() ? 0.0 : intercepts[0];
    feats->clear();
    for (size_t k = 0; k < nf; k++) {
        ModelFeature f;
        f.name = names->items[k].text;
        feats->push_back(std::move(f));
        s->fslope.push_back(k + 1 < slopes.size() ? slopes[k + 1] : 0.0);
        s->fintercept.push_back(k + 1 < intercepts.size() ? intercepts[k + 1] : 0.0);
    }
    /* every dictionary is read, also those past the last feature */
    for (size_t k = 0; opts && k < opts->items.size(); k++) {
        auto d = parse_opts_dict(opts->items[k], k);
        if (k < nf)
            (*feats)[k].opts = std::move(d);
    }
    parse_svm(svm_text->text, &s->svm);
    if (s->cfl)
        setup_cfl(s, *feats);
}

/* model_parse: an object whose "model_dict" is read */
void parse_model_object(const JNode &o, unsigned flags, Sub *s, std::vector<ModelFeature> *feats)
{
    if (o.type != JNode::OBJECT)
        fail(VQ_EMODEL, "the model is not a JSON object");
    const JNode *md = o.get("model_dict");
    if (!md)
        fail(VQ_EMODEL, "no \"model_dict\" (not a libvmaf JSON model)");
    if (md->type != JNode::OBJECT)
        fail(VQ_EMODEL, "model_dict is not an object");
    parse_model_dict(*md, flags, s, feats);
}

/* s's features into impl's list (each (name, options) once), s->input the map */
void add_features(Impl *impl, Sub *s, const std::vector<ModelFeature> &feats)
{
    s->input.clear();
    for (const ModelFeature &f : feats) {
        size_t j = 0;
        while (j < impl->features.size() && !(impl->features[j] == f))
            j++;
        if (j == impl->features.size())
            impl->features.push_back(f);
        s->input.push_back(unsigned(j));
    }
}

std::unique_ptr<Impl> plain_from_tree(const JNode &root, unsigned flags)
{
    auto impl = std::make_unique<Impl>();
    std::vector<ModelFeature> feats;
    impl->subs.emplace_back();
    parse_model_object(root, flags, &impl->subs[0], &feats);
    add_features(impl.get(), &impl->subs[0], feats);
    return impl;
}

void check_collection(const Impl &impl)
{
    if (impl.subs.size() < 2)
        fail(VQ_EMODEL, "a model collection needs models \"0\" and \"1\"");
    /* vmaf_model_collection_append: the members after "0" share one type,
     * a bootstrap type (vmaf_predict_score_at_index_model_collection) */
    const int type = impl.subs[1].type;
    for (size_t i = 2; i < impl.subs.size(); i++)
        if (impl.subs[i].type != type)
            fail(VQ_EMODEL, "model collection: model \"%zu\" has another model_type than model \"1\"", i);
    if (type != TYPE_BOOTSTRAP_SVM_NUSVR && type != TYPE_RESIDUE_BOOTSTRAP_SVM_NUSVR)
        fail(VQ_EMODEL, "model collection: model_type is not BOOTSTRAP_LIBSVMNUSVR or "
             "RESIDUEBOOTSTRAP_LIBSVMNUSVR");
}

/* model_collection_parse: the members "0", "1", ... in that order (keys
 * that are not the next number are skipped) */
std::unique_ptr<Impl> collection_from_tree(const JNode &root, unsigned flags)
{
    if (root.type != JNode::OBJECT)
        fail(VQ_EMODEL, "the model is not a JSON object");
    auto impl = std::make_unique<Impl>();
    impl->collection = true;
    std::vector<ModelFeature> feats;
    for (size_t i = 0; i < root.keys.size(); i++) {
        const std::string want = std::to_string(impl->subs.size());
        if (root.keys[i] != want)
            continue;
        Sub s;
        try {
            parse_model_object(root.items[i], flags, &s, &feats);
        } catch (const Error &e) {
            fail(e.code(), "model collection, model \"%s\": %s", want.c_str(), e.what());
        }
        add_features(impl.get(), &s, feats);
        impl->subs.push_back(std::move(s));
    }
    check_collection(*impl);
    return impl;
}

std::unique_ptr<Impl> impl_from_json(std::string_view text, unsigned flags)
{
    const JNode root = parse_json(text);
    if (root.type != JNode::OBJECT)
        fail(VQ_EMODEL, "the JSON text is %s, not an object (not a libvmaf model)", type_name(root.type));
    /* as libvmaf's tool: a model first, a collection when that fails */
    try {
        return plain_from_tree(root, flags);
    } catch (const Error &plain) {
        if (plain.code() == VQ_ENOMEM || !root.get("0"))
            throw;
        try {
            return collection_from_tree(root, flags);
        } catch (const Error &) {
            if (root.get("model_dict"))
                throw plain;
            throw;
        }
    }
}

/* ------------------------------------------------------------------ */
/* built-in tables                                                     */

std::unique_ptr<Impl> impl_from_builtin(const BuiltinModel &bm, unsigned flags)
{
    auto impl = std::make_unique<Impl>();
    impl->collection = bm.collection;
    for (unsigned m = 0; m < bm.n_subs; m++) {
        const BuiltinSub &b = bm.subs[m];
        Sub s;
        std::vector<ModelFeature> feats;
        s.type = b.type;
        s.norm = b.norm;
        s.slope = b.slope;
        s.intercept = b.intercept;
        for (unsigned k = 0; k < b.n_features; k++) {
            const BuiltinFeature &f = b.features[k];
            ModelFeature mf;
            mf.name = f.name;
            for (unsigned j = 0; j < f.n_opts; j++)
                mf.opts.emplace_back(f.opts[j].key, f.opts[j].val);
            feats.push_back(std::move(mf));
            s.fslope.push_back(f.slope);
            s.fintercept.push_back(f.intercept);
        }
        /* the load flags, as read_json_model.c applies them */
        s.clip = b.has_clip && !(flags & MODEL_DISABLE_CLIP);
        s.clip_min = s.clip ? b.clip_min : 0.0;   /* DISABLE_CLIP: not read at all */
        s.clip_max = s.clip ? b.clip_max : 0.0;
        s.tf = b.tf;
        if (s.tf.present && (flags & MODEL_ENABLE_TRANSFORM))
            s.tf.enabled = true;
        s.svm.svm_type = b.svm_type;
        s.svm.kernel_type = b.kernel_type;
        s.svm.degree = b.degree;
        s.svm.gamma = b.gamma;
        s.svm.coef0 = b.coef0;
        s.svm.rho = b.rho;
        s.svm.coef.assign(b.coef, b.coef + b.l);
        for (unsigned i = 0; i < b.l; i++)
            s.svm.sv.push_back(builtin_nodes + builtin_row_start[b.row[i]]);
        s.cfl = b.has_cfl;
        s.cfl_param = b.cfl_param;
        if (s.cfl)
            setup_cfl(&s, feats);
        add_features(impl.get(), &s, feats);
        impl->subs.push_back(std::move(s));
    }
    if (impl->collection)
        check_collection(*impl);
    return impl;
}

}  // namespace

std::unique_ptr<Impl> load_json(std::string_view text, unsigned flags)
{
    return impl_from_json(text, flags);
}

std::unique_ptr<Impl> load_builtin(const BuiltinModel &bm, unsigned flags)
{
    return impl_from_builtin(bm, flags);
}

}  // namespace model_detail
}  // namespace vq
