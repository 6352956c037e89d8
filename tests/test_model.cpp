/*
 * test_model.cpp - the model (vq::Model: loader, built-in tables,
 * prediction, the bootstrap collection), the old C shim the session uses,
 * the extractor-option naming rule, motion2/motion3, pooling and the log
 * writers, against libvmaf's golden output and model files.
 *
 * VQ_MODELS_DIR: libvmaf's model files (vmaf_v0.6.1.json, vmaf_b_v0.6.3.json,
 * ...); VQ_GOLDEN_DIR: <pair>.json and <pair>.<what>.json.  Tests that need
 * either skip without it.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <cstdio>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <dirent.h>
#include <unistd.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "feature_plan.hpp"
#include "golden.h"
#include "log_writer.hpp"
#include "model.hpp"
#include "model_impl.hpp"
#include "motion/motion_fold.h"
#include "pool.hpp"
#include "registry.hpp"
#include "test_util.h"
#include "adm/adm_exec.h"
#include "vif/vif_exec.h"
#include "vq_error.h"
#include "vqcuda.h"

using vq::Model;
using vq::model_detail::Access;
using vq::model_detail::Impl;
using vq::model_detail::Sub;

namespace {

using vq_test::env_dir;
using vq_test::read_file;

/* one model a golden log was made with (libvmaf tool's -m) */
struct GoldenModel {
    std::string version, name = "vmaf";
    unsigned flags = 0;
    bool force_zero = false;    /* motion.motion_force_zero=true overload */
    int csf = 0;                /* adm.adm_csf_mode=N overload */
    /* other <extractor>.<option>=<value> overloads (vif.vif_skip_scale0=true, ...) */
    std::vector<std::pair<std::string, std::string>> overrides;
};

/* A golden log: frames in order (names in file order) and pooled values. */
struct Golden {
    std::string file;
    std::vector<GoldenModel> models;
    std::vector<std::string> names;
    std::vector<std::map<std::string, double>> frames;
    std::map<std::string, std::map<std::string, double>> pooled;
};

/* JSON writes every value that is not finite as null (libvmaf does): an
 * infinity (PSNR-HVS of identical frames) or a NaN (ADM with adm_csf_mode 1,
 * whose wrapped factors make 0/0).  Read as NaN (golden.h's GoldenNull::NaN),
 * which carries through the model and the pools as the reference's value
 * did; compared with golden_equal: equal as doubles, or both not finite
 * (both written null). */
bool golden_equal(double got, double want)
{
    return got == want || (!std::isfinite(got) && !std::isfinite(want));
}

/* "-m version=X:name=Y:enable_transform:motion.motion_force_zero=true ..." */
std::vector<GoldenModel> models_of(const vq_test::GoldenLog &log)
{
    std::vector<GoldenModel> out;
    if (log.has_str("model")) {
        GoldenModel m;
        m.version = log.str("model");
        out.push_back(m);
        return out;
    }
    std::istringstream args(log.str("oracle_args"));
    std::string w;
    bool no_prediction = false;     /* the tool's --no_prediction: no model at all */
    while (args >> w) {
        no_prediction = no_prediction || w == "--no_prediction";
        if (w != "-m" || !(args >> w))
            continue;
        GoldenModel m;
        std::istringstream parts(w);
        std::string p;
        while (std::getline(parts, p, ':')) {
            if (p.compare(0, 8, "version=") == 0)
                m.version = p.substr(8);
            else if (p.compare(0, 5, "name=") == 0)
                m.name = p.substr(5);
            else if (p == "enable_transform")
                m.flags |= vq::MODEL_ENABLE_TRANSFORM;
            else if (p == "disable_clip")
                m.flags |= vq::MODEL_DISABLE_CLIP;
            else if (p == "motion.motion_force_zero=true")
                m.force_zero = true;
            else if (p.compare(0, 17, "adm.adm_csf_mode=") == 0 && p.size() > 17)
                m.csf = std::stoi(p.substr(17));
            else if (p.find('.') != std::string::npos && p.find('=') > p.find('.') &&
                     p.find('=') != std::string::npos)
                m.overrides.emplace_back(p.substr(0, p.find('=')), p.substr(p.find('=') + 1));
            else
                ADD_FAILURE() << "unknown -m part " << p;
        }
        out.push_back(m);
    }
    if (out.empty() && !no_prediction) {      /* no -m: the tool's default model */
        GoldenModel m;
        m.version = "vmaf_v0.6.1";
        out.push_back(m);
    }
    return out;
}

bool load_golden(const std::string &path, Golden *g)
{
    vq_test::GoldenLog log;
    std::string err;
    const vq_test::GoldenStatus st = vq_test::load_golden(path, &log, &err, vq_test::GoldenNull::NaN);
    if (st == vq_test::GoldenStatus::Bad)
        ADD_FAILURE() << err;
    if (st != vq_test::GoldenStatus::Ok)
        return false;
    g->file = path;
    g->models = models_of(log);
    if (!log.frames.empty())
        g->names = log.frames[0].names;
    for (const vq_test::GoldenMetrics &m : log.frames)
        g->frames.push_back(m.values);
    for (const std::string &k : log.pooled_names)
        g->pooled[k] = log.pooled.at(k).values;
    return true;
}

std::vector<Golden> load_all_golden()
{
    std::vector<Golden> out;
    const std::string dir = env_dir("VQ_GOLDEN_DIR");
    if (dir.empty())
        return out;
    DIR *d = opendir(dir.c_str());
    if (!d)
        return out;
    std::vector<std::string> files;
    while (struct dirent *e = readdir(d)) {
        const std::string n = e->d_name;
        if (n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0)
            files.push_back(n);
    }
    closedir(d);
    std::sort(files.begin(), files.end());
    for (const std::string &f : files) {
        Golden g;
        if (load_golden(dir + "/" + f, &g) && !g.frames.empty())
            out.push_back(g);
    }
    return out;
}

std::string models_file(const std::string &name)
{
    const std::string dir = env_dir("VQ_MODELS_DIR");
    if (dir.empty())
        return std::string();
    const std::string p = dir + "/" + name;
    FILE *f = fopen(p.c_str(), "rb");
    if (!f)
        return std::string();
    fclose(f);
    return p;
}

bool same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof(a)) == 0;
}

/* The printed name of a model feature in libvmaf's log: alias.c's name,
 * plus the suffix its options give (feature_name.c), for the features the
 * built-in models use. */
std::string printed_name(const vq::ModelFeature &f, bool force_zero, int csf = 0,
                         const std::vector<std::pair<std::string, std::string>> &overrides = {})
{
    const vq::FeatureSpec *spec = vq::extractor_providing(f.name);
    if (!spec)      /* an extractor vqcuda lacks: its alias (right while its options are defaults) */
        return std::string(vq::feature_alias(f.name));
    vq::FeatureOptions o(*spec);
    if (csf && std::strcmp(spec->name, "adm") == 0)
        o.set("adm_csf_mode", std::to_string(csf));
    for (const auto &kv : f.opts)
        o.set(kv.first, kv.second, true);
    if (force_zero && std::strcmp(spec->name, "motion") == 0)
        o.set("motion_force_zero", "true");
    for (const auto &[key, value] : overrides)
        if (key.compare(0, key.find('.'), spec->name) == 0)
            o.set(key.substr(key.find('.') + 1), value);
    return o.printed_name(f.name);
}

void expect_same_sub(const Sub &x, const Sub &y, const std::string &what)
{
    EXPECT_EQ(x.type, y.type) << what;
    EXPECT_EQ(x.norm, y.norm) << what;
    EXPECT_TRUE(same_double(x.slope, y.slope)) << what;
    EXPECT_TRUE(same_double(x.intercept, y.intercept)) << what;
    ASSERT_EQ(x.fslope.size(), y.fslope.size()) << what;
    ASSERT_EQ(x.fintercept.size(), y.fintercept.size()) << what;
    for (size_t k = 0; k < x.fslope.size(); k++) {
        EXPECT_TRUE(same_double(x.fslope[k], y.fslope[k])) << what << " slope " << k;
        EXPECT_TRUE(same_double(x.fintercept[k], y.fintercept[k])) << what << " intercept " << k;
    }
    EXPECT_EQ(x.input, y.input) << what;
    EXPECT_EQ(x.cfl, y.cfl) << what;
    EXPECT_TRUE(same_double(x.cfl_param, y.cfl_param)) << what;
    EXPECT_EQ(x.cfl_guiding, y.cfl_guiding) << what;
    EXPECT_EQ(x.cfl_guided, y.cfl_guided) << what;
    EXPECT_EQ(x.clip, y.clip) << what;
    EXPECT_TRUE(same_double(x.clip_min, y.clip_min)) << what;
    EXPECT_TRUE(same_double(x.clip_max, y.clip_max)) << what;
    const auto &a = x.tf, &b = y.tf;
    EXPECT_EQ(a.present, b.present) << what;
    EXPECT_EQ(a.enabled, b.enabled) << what;
    EXPECT_EQ(a.p0_enabled, b.p0_enabled) << what;
    EXPECT_EQ(a.p1_enabled, b.p1_enabled) << what;
    EXPECT_EQ(a.p2_enabled, b.p2_enabled) << what;
    EXPECT_TRUE(same_double(a.p0, b.p0)) << what;
    EXPECT_TRUE(same_double(a.p1, b.p1)) << what;
    EXPECT_TRUE(same_double(a.p2, b.p2)) << what;
    EXPECT_EQ(a.knots_enabled, b.knots_enabled) << what;
    ASSERT_EQ(a.n_knots, b.n_knots) << what;
    for (unsigned k = 0; k < a.n_knots; k++)
        EXPECT_TRUE(same_double(a.knots[k].x, b.knots[k].x) && same_double(a.knots[k].y, b.knots[k].y)) << what;
    EXPECT_EQ(a.out_lte_in, b.out_lte_in) << what;
    EXPECT_EQ(a.out_gte_in, b.out_gte_in) << what;
    const auto &s = x.svm, &t = y.svm;
    EXPECT_EQ(s.svm_type, t.svm_type) << what;
    EXPECT_EQ(s.kernel_type, t.kernel_type) << what;
    EXPECT_EQ(s.degree, t.degree) << what;
    EXPECT_TRUE(same_double(s.gamma, t.gamma)) << what;
    EXPECT_TRUE(same_double(s.coef0, t.coef0)) << what;
    EXPECT_TRUE(same_double(s.rho, t.rho)) << what;
    ASSERT_EQ(s.coef.size(), t.coef.size()) << what;
    ASSERT_EQ(s.sv.size(), t.sv.size()) << what;
    ASSERT_EQ(s.sv.size(), s.coef.size()) << what;
    for (size_t i = 0; i < s.sv.size(); i++) {
        EXPECT_TRUE(same_double(s.coef[i], t.coef[i])) << what << " sv " << i;
        const vq::model_detail::SvmNode *p = s.sv[i], *q = t.sv[i];
        for (;; p++, q++) {
            ASSERT_EQ(p->index, q->index) << what << " sv " << i;
            if (p->index == -1)
                break;
            EXPECT_TRUE(same_double(p->value, q->value)) << what << " sv " << i;
        }
    }
}

}  // namespace

/* The generated tables hold, number for number, what the run-time loader
 * reads from libvmaf's files (under every flag combination). */
/* the plan's VIF row works (module instances): their enhancement gain limits, in order */
static std::vector<double> vif_egls(const vq::FeaturePlan &p)
{
    std::vector<double> v;
    for (int k = 0; k < p.exec().n_modules; k++)
        if (!std::strcmp(p.exec().module[k].name, "vif"))
            v.push_back(static_cast<const VqVifGeom *>(p.exec().module[k].g.host)->egl);
    return v;
}

/* the plan's ADM row works (module instances): their enhancement gain limits, in order */
static std::vector<double> adm_egls(const vq::FeaturePlan &p)
{
    std::vector<double> v;
    for (int k = 0; k < p.exec().n_modules; k++)
        if (!std::strcmp(p.exec().module[k].name, "adm"))
            v.push_back(static_cast<const VqAdmGeom *>(p.exec().module[k].g.host)->p.egl);
    return v;
}

TEST(Model, BuiltinTablesEqualJsonFiles)
{
    const std::vector<std::string> want = {
        "vmaf_float_v0.6.1", "vmaf_float_b_v0.6.3", "vmaf_float_v0.6.1neg", "vmaf_float_4k_v0.6.1",
        "vmaf_v0.6.1", "vmaf_b_v0.6.3", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1neg",
        "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_1d5h_2160",
        "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_3d0h_2160", "vmaf_v1.0.16_hfr_5d0h",
        "vmaf_v1.0.16_hfr_1d5h_2160" };
    EXPECT_EQ(Model::builtin_versions(), want);
    int checked = 0;
    for (const std::string &v : want) {
        const std::string path = models_file(v + ".json");
        if (path.empty()) {
            printf("  %s.json not in VQ_MODELS_DIR: table not checked\n", v.c_str());
            continue;
        }
        for (unsigned flags = 0; flags < 4; flags++) {
            auto a = Model::builtin(v, flags);
            auto b = Model::from_file(path, flags);
            const Impl &x = Access::impl(*a), &y = Access::impl(*b);
            EXPECT_EQ(x.collection, y.collection) << v;
            EXPECT_EQ(x.features, y.features) << v;
            ASSERT_EQ(x.subs.size(), y.subs.size()) << v;
            for (size_t i = 0; i < x.subs.size(); i++)
                expect_same_sub(x.subs[i], y.subs[i], v + " model " + std::to_string(i) + " flags " +
                                std::to_string(flags));
        }
        checked++;
    }
    if (!checked)
        GTEST_SKIP() << "no model files in VQ_MODELS_DIR";
    auto b = Model::builtin("vmaf_b_v0.6.3", 0);
    EXPECT_TRUE(b->is_collection());
    EXPECT_EQ(Access::impl(*b).subs.size(), 21u);
    EXPECT_EQ(Access::impl(*Model::builtin("vmaf_v0.6.1", 0)).subs[0].svm.sv.size(), 211u);
}

/* Every golden frame: the outputs from the golden features == the golden values. */
TEST(Model, PredictionEqualsGolden)
{
    std::vector<Golden> all = load_all_golden();
    if (all.empty())
        GTEST_SKIP() << "no golden files (VQ_GOLDEN_DIR)";
    int files = 0;
    long values = 0, exact = 0;
    for (const Golden &g : all) {
        long fv = 0, fe = 0;
        std::string line;
        /* a model whose features vqcuda does not all compute yet, with
         * options that rename them (vmaf_float_v0.6.1neg's float_adm):
         * no column to read, checked once the extractor is there */
        bool skip = false;
        for (const GoldenModel &gm : g.models) {
            const std::unique_ptr<Model> m = Model::builtin(gm.version, gm.flags);
            for (const vq::ModelFeature &f : m->features())
                if (!vq::extractor_providing(f.name) && !g.frames.empty() &&
                    !g.frames[0].count(printed_name(f, gm.force_zero, gm.csf))) {
                    printf("  %-34s skipped: no extractor for %s yet\n",
                           g.file.substr(g.file.rfind('/') + 1).c_str(), f.name.c_str());
                    skip = true;
                }
        }
        if (skip)
            continue;
        for (const GoldenModel &gm : g.models) {
            for (int from_file = 0; from_file < 2; from_file++) {
                std::unique_ptr<Model> m;
                if (!from_file) {
                    m = Model::builtin(gm.version, gm.flags);
                } else {
                    const std::string path = models_file(gm.version + ".json");
                    if (path.empty())
                        continue;
                    m = Model::from_file(path, gm.flags);
                }
                const auto &feats = m->features();
                const std::vector<std::string> outs = m->output_names(gm.name);
                ASSERT_EQ(outs.size(), m->output_count());
                std::vector<double> in(feats.size()), out(outs.size());
                for (size_t i = 0; i < g.frames.size(); i++) {
                    const auto &fr = g.frames[i];
                    for (size_t k = 0; k < feats.size(); k++) {
                        const std::string n = printed_name(feats[k], gm.force_zero, gm.csf, gm.overrides);
                        ASSERT_TRUE(fr.count(n)) << g.file << ": no feature " << n;
                        in[k] = fr.at(n);
                    }
                    m->predict(in.data(), out.data());
                    for (size_t o = 0; o < outs.size(); o++) {
                        ASSERT_TRUE(fr.count(outs[o])) << g.file << ": no output " << outs[o];
                        const double want = fr.at(outs[o]);
                        EXPECT_TRUE(golden_equal(out[o], want)) << g.file << " frame " << i << " "
                                                                << outs[o] << ": " << out[o] << " != " << want
                                                                << (from_file ? " (file)" : " (built in)");
                        fv++;
                        fe += golden_equal(out[o], want);
                    }
                }
                /* the collection's outputs are the log's names, in its order */
                if (m->is_collection()) {
                    auto at = std::find(g.names.begin(), g.names.end(), outs[0]);
                    ASSERT_LE(size_t(g.names.end() - at), g.names.size());
                    EXPECT_EQ(std::vector<std::string>(at, g.names.end()), outs) << g.file;
                }
                line += " " + gm.version + (from_file ? "(file)" : "(built-in)");
            }
        }
        const std::string base = g.file.substr(g.file.rfind('/') + 1);
        printf("  %-34s %5ld/%-5ld exact  %zu frames,%s\n", base.c_str(), fe, fv, g.frames.size(), line.c_str());
        files++;
        values += fv;
        exact += fe;
    }
    printf("model prediction: %ld of %ld values exact in %d golden files\n", exact, values, files);
}

/* The collection's names and sizes, with another name. */
TEST(Model, CollectionNames)
{
    auto m = Model::builtin("vmaf_b_v0.6.3", 0);
    const auto n = m->output_names("q");
    ASSERT_EQ(n.size(), 25u);
    EXPECT_EQ(n[0], "q");
    EXPECT_EQ(n[1], "q_0001");
    EXPECT_EQ(n[20], "q_0020");
    EXPECT_EQ(n[21], "q_bagging");
    EXPECT_EQ(n[22], "q_stddev");
    EXPECT_EQ(n[23], "q_ci_p95_lo");
    EXPECT_EQ(n[24], "q_ci_p95_hi");
    EXPECT_EQ(m->features().size(), 6u);
    auto p = Model::builtin("vmaf_v0.6.1neg", 0);
    EXPECT_FALSE(p->is_collection());
    EXPECT_EQ(p->output_names("vmaf_neg"), std::vector<std::string>{ "vmaf_neg" });
    ASSERT_EQ(p->features().size(), 6u);
    EXPECT_EQ(p->features()[0].name, "VMAF_integer_feature_adm2_score");
    EXPECT_EQ(p->features()[0].opts, (std::vector<std::pair<std::string, std::string>>{ { "adm_enhn_gain_limit", "1" } }));
    EXPECT_TRUE(p->features()[1].opts.empty());
}

namespace {

VqFormat format_1080()
{
    VqFormat f;
    memset(&f, 0, sizeof(f));
    f.width = 1920;
    f.height = 1080;
    f.bitdepth = 8;
    f.bytes_per_sample = 1;
    f.chroma_shift_w = f.chroma_shift_h = 1;
    f.layout = VQ_LAYOUT_PLANAR;
    return f;
}

}  // namespace

/* The option-name rule (registry + feature plan, as the session uses them):
 * the neg model's features print with "_egl_1", the default's as aliases,
 * and every one of them is in the reference's log. */
TEST(Model, FeatureNamesFollowOptions)
{
    Golden g, gd;
    const std::string gdir = env_dir("VQ_GOLDEN_DIR");
    if (gdir.empty() || !load_golden(gdir + "/dog1080.vmaf_v0.6.1neg.json", &g) ||
        !load_golden(gdir + "/dog1080.json", &gd))
        GTEST_SKIP() << "dog1080.vmaf_v0.6.1neg.json / dog1080.json not found in VQ_GOLDEN_DIR";
    vq::FeaturePlan neg(format_1080(), "version=vmaf_v0.6.1neg", "", false);
    for (const std::string &n : neg.columns())
        EXPECT_TRUE(g.frames[0].count(n)) << n << " is not in the golden log";
    EXPECT_EQ(neg.columns().size(), g.frames[0].size());
    EXPECT_EQ(vif_egls(neg), std::vector<double>{ 1.0 });
    EXPECT_EQ(adm_egls(neg), std::vector<double>{ 1.0 });
    for (const vq::Instance &in : neg.instances())
        EXPECT_EQ(in.opts.suffix(), std::strcmp(in.opts.spec().name, "motion") == 0 ? "" : "_egl_1");
    vq::FeaturePlan def(format_1080(), "version=vmaf_v0.6.1", "name=psnr", false);
    EXPECT_EQ(def.columns(), gd.names) << "the default log's columns, in its order";
    EXPECT_EQ(vif_egls(def), std::vector<double>{ 100.0 });
    /* the bootstrap collection reads its members' features once */
    vq::FeaturePlan b(format_1080(), "version=vmaf_b_v0.6.3", "", false);
    EXPECT_EQ(b.models()[0].input_cols.size(), 6u);
}

/* motion2 / motion3 from the golden SAD scores (pushed in frame order, as the session does) == golden. */
TEST(Motion2, FromGoldenSadScores)
{
    std::vector<Golden> all = load_all_golden();
    if (all.empty())
        GTEST_SKIP() << "no golden files (VQ_GOLDEN_DIR)";
    int frames = 0, exact = 0;
    for (const Golden &g : all) {
        const size_t n = g.frames.size();
        if (!g.frames[0].count("VMAF_integer_feature_motion_sad_score") || !g.frames[0].count("integer_motion2"))
            continue;   /* motion_force_zero logs */
        std::vector<double> sad(n);
        for (size_t i = 0; i < n; i++)
            sad[i] = g.frames[i].at("VMAF_integer_feature_motion_sad_score");
        VqMotion2 st;
        vq_motion2_init(&st, nullptr);
        std::vector<int> seen(n, 0);
        auto check = [&](int64_t idx, double m2, double m3, const char *how) {
            ASSERT_GE(idx, 0);
            ASSERT_LT((size_t)idx, n);
            const double w2 = g.frames[idx].at("integer_motion2"), w3 = g.frames[idx].at("integer_motion3");
            EXPECT_EQ(m2, w2) << g.file << " frame " << idx << " motion2 (" << how << ")";
            EXPECT_EQ(m3, w3) << g.file << " frame " << idx << " motion3 (" << how << ")";
            frames++;
            exact += m2 == w2 && m3 == w3;
        };
        for (size_t i = 0; i < n; i++) {
            VqMotion2Out o[2];
            const int got = vq_motion2_push(&st, sad[i], o);
            EXPECT_EQ(got, i > 0 ? 1 : 0);
            if (got) {
                EXPECT_EQ(o[0].index, (int64_t)i - 1);
                seen[o[0].index]++;
                check(o[0].index, o[0].motion2, o[0].motion3, "push");
            }
        }
        VqMotion2Out o[2];
        ASSERT_EQ(vq_motion2_flush(&st, o), 1);
        EXPECT_EQ(o[0].index, (int64_t)n - 1);
        seen[o[0].index]++;
        check(o[0].index, o[0].motion2, o[0].motion3, "flush");
        EXPECT_EQ(vq_motion2_flush(&st, o), 0);
        for (size_t i = 0; i < n; i++)
            EXPECT_EQ(seen[i], 1) << g.file << " frame " << i;
    }
    printf("motion2/motion3: %d of %d checks exact\n", exact, frames);
}

/* Pooling the golden per-frame values gives the golden pooled values, every key. */
TEST(Pool, EqualsGolden)
{
    std::vector<Golden> all = load_all_golden();
    if (all.empty())
        GTEST_SKIP() << "no golden files (VQ_GOLDEN_DIR)";
    int keys = 0, exact = 0;
    for (const Golden &g : all) {
        for (const auto &kv : g.pooled) {
            std::vector<double> v;
            for (const auto &fr : g.frames)
                v.push_back(fr.at(kv.first));
            vq::PoolAcc acc;
            for (double x : v)
                acc.add(x);
            ASSERT_GT(acc.count(), 0u);
            const vq::Pooled p = acc.get();
            const double got[4] = { p.min, p.max, p.mean, p.harmonic_mean };
            const char *const what[4] = { "min", "max", "mean", "harmonic_mean" };
            bool ok = true;
            for (int j = 0; j < 4; j++) {
                const double want = kv.second.at(what[j]);
                EXPECT_TRUE(golden_equal(got[j], want)) << g.file << " " << kv.first << " " << what[j]
                                                        << ": " << got[j] << " != " << want;
                ok = ok && golden_equal(got[j], want);
            }
            keys++;
            exact += ok;
        }
    }
    printf("pooling: %d of %d (file, feature) pairs exact\n", exact, keys);
    EXPECT_EQ(vq::PoolAcc().count(), 0u);
}

namespace {

/* from_json: 0, or the vq::Error's code (message in *msg) */
int load_text(const std::string &json, std::string *msg, unsigned flags = 0)
{
    msg->clear();
    try {
        auto m = Model::from_json(json, flags);
        EXPECT_NE(m, nullptr);
        std::vector<double> in(m->features().size(), 0.5), out(m->output_count());
        m->predict(in.data(), out.data());
        return 0;
    } catch (const vq::Error &e) {
        *msg = e.what();
        return e.code();
    }
}

/* the session's feature plan over the model as a file (extractor resolution
 * on top of the model): 0 or its code; the plan in *keep */
int load_plan(const std::string &json, std::string *msg, std::unique_ptr<vq::FeaturePlan> *keep = nullptr)
{
    char tmpl[] = "/tmp/vq_test_model_XXXXXX";
    const int fd = mkstemp(tmpl);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, json.data(), json.size()), (ssize_t)json.size());
    close(fd);
    int ret = 0;
    msg->clear();
    try {
        auto p = std::make_unique<vq::FeaturePlan>(format_1080(), std::string("path=") + tmpl, "", false);
        if (keep)
            *keep = std::move(p);
    } catch (const vq::Error &e) {
        *msg = e.what();
        ret = e.code();
    }
    remove(tmpl);
    return ret;
}

/* replaces the first `from` inside model_dict (param_dict repeats some keys) */
std::string replace_once(std::string s, const std::string &from, const std::string &to)
{
    const size_t md = s.find("\"model_dict\"");
    const size_t at = s.find(from, md == std::string::npos ? 0 : md);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        s.replace(at, from.size(), to);
    return s;
}

/* the tool's text of the built-in vmaf_v0.6.1: a minimal model of our own */
const char *kTiny =
    "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"linear_rescale\","
    " \"score_clip\": [0.0, 100.0], \"feature_names\": [\"VMAF_integer_feature_adm2_score\","
    " \"VMAF_integer_feature_motion2_score\"], \"slopes\": [0.01, 2.0, 0.05], \"intercepts\": [-0.3, -1.0, 0.0],"
    " \"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.04\\nnr_class 2\\ntotal_sv 2\\nrho -1.5\\nSV\\n"
    "4 1:0.5 2:0.25 \\n-2.5 1:0.75 \\n\"}}";

}  // namespace

/* Missing, malformed and unsupported models: an error and a message, no crash. */
TEST(Model, BadModelsGiveErrors)
{
    try {
        Model::from_file("/nonexistent/dir/model.json", 0);
        ADD_FAILURE() << "no error";
    } catch (const vq::Error &e) {
        EXPECT_EQ(e.code(), VQ_EMODEL);
        EXPECT_NE(strstr(e.what(), "/nonexistent/dir/model.json"), nullptr) << e.what();
    }
    try {
        Model::builtin("vmaf_v9", 0);
        ADD_FAILURE() << "no error";
    } catch (const vq::Error &e) {
        EXPECT_EQ(e.code(), VQ_EMODEL);
        EXPECT_NE(strstr(e.what(), "vmaf_b_v0.6.3"), nullptr) << e.what();  /* lists the built-ins */
    }

    std::string msg;
    const char *const junk[] = { "", "{", "[1, 2]", "{\"model_dict\": 3}", "{\"model_dict\": {}}",
                                 "{\"model_dict\": {\"feature_names\": [\"a\",]}}", "nul",
                                 "{\"a\": \"\\x\"}", "{\"model_dict\": {\"norm_type\": 1}}",
                                 "{\"0\": {}}", "{\"0\": 1, \"1\": 2}", "{\"a\": 1, \"a\": 2}" };
    for (const char *j : junk) {
        EXPECT_EQ(load_text(j, &msg), VQ_EMODEL) << j;
        EXPECT_FALSE(msg.empty()) << j;
        EXPECT_EQ(load_plan(j, &msg), VQ_EMODEL) << j;
    }
    ASSERT_EQ(load_text(kTiny, &msg), 0) << msg;

    std::string good;
    const std::string path = models_file("vmaf_v0.6.1.json");
    if (path.empty())
        GTEST_SKIP() << "vmaf_v0.6.1.json not found in VQ_MODELS_DIR: edits of a real model not tried";
    ASSERT_TRUE(read_file(path, &good));
    ASSERT_EQ(load_text(good, &msg), 0) << msg;
    ASSERT_EQ(load_plan(good, &msg), 0) << msg;
    /* truncated anywhere: never accepted */
    for (size_t cut = 0; cut < good.size(); cut += good.size() / 97 + 1)
        EXPECT_EQ(load_text(good.substr(0, cut), &msg), VQ_EMODEL) << "cut at " << cut;

    struct Edit {
        const char *from, *to, *why;
    };
    const Edit edits[] = {
        { "\"VMAF_integer_feature_adm2_score\"", "17", "feature name not a string" },
        { "\"norm_type\": \"linear_rescale\"", "\"norm_type\": \"log\"", "unknown norm_type" },
        { "\"model_type\": \"LIBSVMNUSVR\"", "\"model_type\": \"SVM\"", "unknown model_type" },
        { "\"score_clip\": [", "\"score_clip\": [\"a\", ", "score_clip not numbers" },
        { "svm_type nu_svr", "svm_type c_svc", "classification SVM" },
        { "svm_type nu_svr", "svm_type nonsense", "unknown svm_type" },
        { "total_sv 211", "total_sv 999", "too few support vectors" },
        { "gamma 0.04", "gamma x", "bad gamma" },
        { "gamma 0.04", "gamma 1e999", "gamma out of range" },
        { "rho -1.33133", "rhubarb 1", "unknown header word" },
        { "\\nSV\\n", "\\nSV\\nx\\n", "bad coefficient" },
        { "1:0.65734273", "1:zz", "bad node value" },
        { "\"slopes\": [", "\"slopes\": [0.5], \"x\": [", "too few slopes" },
        { "\"model\": \"", "\"model\": 5, \"y\": \"", "model not a string" },
        { "\"p0\": 1.70674692", "\"p0\": null", "p0 null (libvmaf reads it as the next key)" },
        { "\"p0\": 1.70674692", "\"p0\": \"1\"", "p0 not a number" },
        { "\"out_gte_in\": \"true\"", "\"out_gte_in\": true", "out_gte_in not a string" },
        { "\"score_transform\": {", "\"score_transform\": {\"knots\": [[1, 2], [3]], \"enabled\": 1, ", "enabled not a boolean" },
        { "\"norm_type\"", "\"chroma_correction_parameter\": 1.0, \"norm_type\"", "chroma_correction_parameter without a speed_chroma feature" },
        { "\"slopes\"", "\"slopes\": [1], \"slopes\"", "duplicate key" },
        { "\"slopes\": [", "\"slopes\": [1e400, ", "number out of range" },
    };
    for (const Edit &e : edits) {
        const std::string bad = replace_once(good, e.from, e.to);
        EXPECT_EQ(load_text(bad, &msg), VQ_EMODEL) << e.why;
        EXPECT_FALSE(msg.empty()) << e.why;
    }
    /* what the class accepts (as libvmaf reads it) and the session's plan refuses (every
     * extractor of libvmaf 3.2 is computed now: a name no extractor provides) */
    const Edit shim_only[] = {
        { "\"VMAF_integer_feature_adm2_score\"", "\"no_such_feature\"", "unknown feature" },
        { "\"VMAF_integer_feature_adm2_score\"", "\"Speed_temporal_feature_no_such_score\"",
          "an extractor's prefix with an output it does not have" },
    };
    for (const Edit &e : shim_only) {
        const std::string bad = replace_once(good, e.from, e.to);
        EXPECT_EQ(load_text(bad, &msg), 0) << e.why << ": " << msg;
        EXPECT_EQ(load_plan(bad, &msg), VQ_EMODEL) << e.why;
        EXPECT_FALSE(msg.empty()) << e.why;
    }
    /* a bootstrap model_type on a plain model: libvmaf reads it as a plain model */
    EXPECT_EQ(load_text(replace_once(good, "\"model_type\": \"LIBSVMNUSVR\"",
                                     "\"model_type\": \"BOOTSTRAP_LIBSVMNUSVR\""), &msg), 0) << msg;
    /* options libvmaf's option parser refuses, and two configurations of one extractor */
    const std::string with_opts = replace_once(good, "\"feature_names\"",
        "\"feature_opts_dicts\": [{}, {}, {\"vif_enhn_gain_limit\": 0.5}, {}, {}, {}], \"feature_names\"");
    EXPECT_EQ(load_plan(with_opts, &msg), VQ_EMODEL) << "egl below 1";
    EXPECT_NE(msg.find("vif_enhn_gain_limit"), std::string::npos) << msg;
    /* two option sets of one extractor in one model: two instances, as libvmaf registers them */
    const std::string mixed = replace_once(good, "\"feature_names\"",
        "\"feature_opts_dicts\": [{}, {}, {\"vif_enhn_gain_limit\": 1.0}, {}, {}, {}], \"feature_names\"");
    std::unique_ptr<vq::FeaturePlan> two;
    ASSERT_EQ(load_plan(mixed, &msg, &two), 0) << msg;
    EXPECT_EQ(vif_egls(*two), (std::vector<double>{ 1.0, 100.0 }));   // scale 0's first, as the model lists it
    EXPECT_GE(two->column("integer_vif_scale0_egl_1"), 0);
    EXPECT_GE(two->column("integer_vif_scale1"), 0);
    const std::string egl2 = replace_once(good, "\"feature_names\"",
        "\"feature_opts_dicts\": [{\"adm_enhn_gain_limit\": 1.5}, {\"motion_force_zero\": true}], \"feature_names\"");
    std::unique_ptr<vq::FeaturePlan> ok;
    ASSERT_EQ(load_plan(egl2, &msg, &ok), 0) << msg;
    EXPECT_GE(ok->column("integer_adm2_egl_1.5"), 0);
    EXPECT_GE(ok->column("integer_motion2_force_0"), 0);
    EXPECT_GE(ok->column("integer_vif_scale0"), 0);
    /* the options as libvmaf's dictionary stores them, in file order */
    const std::string opts = replace_once(good, "\"feature_names\"",
        "\"feature_opts_dicts\": [{\"b\": 1.0, \"a\": 1e-7, \"c\": true, \"d\": \"x y\", \"e\": 0.1, \"f\": -0,"
        " \"g\": 123456789}], \"feature_names\"");
    auto mo = Model::from_json(opts, 0);
    const std::vector<std::pair<std::string, std::string>> want_opts = {
        { "b", "1" }, { "a", "1e-07" }, { "c", "true" }, { "d", "x y" }, { "e", "0.1" }, { "f", "-0" },
        { "g", "1.23457e+08" } };
    EXPECT_EQ(mo->features()[0].opts, want_opts);
}

/* Numbers read as libvmaf reads them, and the flags. */
TEST(Model, NumbersAndFlags)
{
    std::string t = kTiny;
    t = replace_once(t, "\"intercepts\": [-0.3,", "\"intercepts\": [-0,");
    auto m = Model::from_json(t, 0);
    EXPECT_TRUE(std::signbit(Access::impl(*m).subs[0].intercept));     /* strtod("-0") */
    /* a value with more digits than a double holds: strtod's rounding */
    t = replace_once(kTiny, "0.01, 2.0", "0.01, 2.0000000000000002220446049250313080847263336181640625000001");
    EXPECT_EQ(Access::impl(*Model::from_json(t, 0)).subs[0].fslope[0], 2.0000000000000004);
    /* score_clip: applied unless DISABLE_CLIP */
    double in[2] = { 5.0, 5.0 }, a, b;
    Model::from_json(kTiny, 0)->predict(in, &a);
    Model::from_json(kTiny, vq::MODEL_DISABLE_CLIP)->predict(in, &b);
    EXPECT_EQ(a, 100.0);
    EXPECT_GT(b, 100.0);
    /* ENABLE_TRANSFORM needs a score_transform; "enabled": true without the flag */
    std::string tf = replace_once(kTiny, "\"norm_type\"",
                                  "\"score_transform\": {\"p0\": 1.0, \"p1\": 2.0, \"knots\": [[0, 0], [50, 60], [200, 210]]}, \"norm_type\"");
    double c, d, e;
    Model::from_json(tf, vq::MODEL_DISABLE_CLIP)->predict(in, &c);
    Model::from_json(tf, vq::MODEL_DISABLE_CLIP | vq::MODEL_ENABLE_TRANSFORM)->predict(in, &d);
    EXPECT_EQ(c, b);
    const double y = 1.0 + 2.0 * b;   /* polynomial, then the knot segment [50, 200] */
    const double slope = (210.0 - 60.0) / (200.0 - 50.0), off = 60.0 - 50.0 * slope;
    EXPECT_EQ(d, y > 200 ? slope * y + off : d);
    Model::from_json(replace_once(tf, "\"p0\"", "\"enabled\": true, \"p0\""), vq::MODEL_DISABLE_CLIP)->predict(in, &e);
    EXPECT_EQ(e, d);
    double f;
    Model::from_json(kTiny, vq::MODEL_DISABLE_CLIP | vq::MODEL_ENABLE_TRANSFORM)->predict(in, &f);
    EXPECT_EQ(f, b);    /* no score_transform: the flag does nothing */
}

/* A collection of our own: member "0" apart, bagging over "1".."n". */
TEST(Model, SmallCollection)
{
    std::string m1 = replace_once(kTiny, "\"LIBSVMNUSVR\"", "\"BOOTSTRAP_LIBSVMNUSVR\"");
    std::string m2 = replace_once(m1, "rho -1.5", "rho 1.2");
    std::string m3 = replace_once(m1, "rho -1.5", "rho 1.4");
    const std::string c = "{\"0\": " + m1 + ", \"x\": 1, \"1\": " + m2 + ", \"2\": " + m3 + ", \"4\": " + m2 + "}";
    auto m = Model::from_json(c, 0);
    ASSERT_TRUE(m->is_collection());
    ASSERT_EQ(m->output_count(), 3u + 4u);
    double in[2] = { 0.4, 0.3 }, out[7];
    m->predict(in, out);
    double s0, s1, s2;
    Model::from_json(m1, 0)->predict(in, &s0);
    Model::from_json(m2, 0)->predict(in, &s1);
    Model::from_json(m3, 0)->predict(in, &s2);
    EXPECT_EQ(out[0], s0);
    EXPECT_EQ(out[1], s1);
    EXPECT_EQ(out[2], s2);
    const double mean = (s1 + s2) / 2;      /* no clip reached at these inputs */
    ASSERT_LT(std::max(s1, s2), 100.0);
    ASSERT_GT(std::min(s1, s2), 0.0);
    EXPECT_EQ(out[3], mean);
    const double lo = std::min(s1, s2), hi = std::max(s1, s2);
    const double p_lo = 2.5 * 1 / 100., p_hi = 97.5 * 1 / 100.;
    EXPECT_EQ(out[5], lo * (1 - p_lo) + hi * (p_lo - 0));
    EXPECT_EQ(out[6], lo * (1 - p_hi) + hi * (p_hi - 0));
    const double sd = std::sqrt(((s1 - mean) * (s1 - mean) + (s2 - mean) * (s2 - mean)) / 2);
    EXPECT_EQ(out[4], sd * (((mean + 0.01) - (mean - 0.01)) / (2.0 * 0.01)));
    /* a plain LIBSVMNUSVR collection cannot be predicted by libvmaf */
    std::string msg;
    EXPECT_EQ(load_text("{\"0\": " + std::string(kTiny) + ", \"1\": " + kTiny + "}", &msg), VQ_EMODEL);
}

/* The log writers: every number read back from JSON and CSV is the same double. */
TEST(Output, WrittenNumbersReadBackExactly)
{
    std::vector<Golden> all = load_all_golden();
    if (all.empty())
        GTEST_SKIP() << "no golden files (VQ_GOLDEN_DIR)";
    const Golden &g = all[0];
    const size_t nf = g.names.size();
    vq::LogTable t;
    t.version = "test";
    t.names = g.names;
    std::vector<vq::PoolAcc> acc(nf);
    for (size_t i = 0; i < g.frames.size(); i++) {
        t.frame_num.push_back((int64_t)i);
        for (size_t k = 0; k < nf; k++) {
            t.values.push_back(g.frames[i].at(g.names[k]));
            acc[k].add(t.values.back());
        }
    }
    for (const vq::PoolAcc &a : acc)
        t.pooled.push_back(a.get());

    char tmpl[] = "/tmp/vq_test_log_XXXXXX";
    const int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    close(fd);
    vq::write_log(tmpl, VQ_LOG_JSON, t);
    Golden back;
    ASSERT_TRUE(load_golden(tmpl, &back));
    ASSERT_EQ(back.frames.size(), g.frames.size());
    for (size_t i = 0; i < g.frames.size(); i++)
        for (size_t k = 0; k < nf; k++)
            EXPECT_TRUE(same_double(back.frames[i].at(g.names[k]), t.values[i * nf + k]));
    for (const auto &kv : g.pooled)
        for (const auto &pv : kv.second)
            EXPECT_EQ(back.pooled.at(kv.first).at(pv.first), pv.second) << kv.first << " " << pv.first;

    vq::write_log(tmpl, VQ_LOG_CSV, t);
    std::string csv;
    ASSERT_TRUE(read_file(tmpl, &csv));
    size_t pos = csv.find('\n') + 1, row = 0;
    EXPECT_EQ(csv.compare(0, 6, "Frame,"), 0);
    while (pos < csv.size() && row < g.frames.size()) {
        const size_t eol = csv.find('\n', pos);
        std::string line = csv.substr(pos, eol - pos);
        char *p = &line[0];
        EXPECT_EQ(strtol(p, &p, 10), (long)row);
        for (size_t k = 0; k < nf; k++) {
            ASSERT_EQ(*p, ',');
            p++;
            EXPECT_TRUE(same_double(strtod(p, &p), t.values[row * nf + k]));
        }
        pos = eol + 1;
        row++;
    }
    EXPECT_EQ(row, g.frames.size());

    vq::write_log(tmpl, VQ_LOG_XML, t);
    std::string xml;
    ASSERT_TRUE(read_file(tmpl, &xml));
    EXPECT_NE(xml.find("<frame frameNum=\"0\" "), std::string::npos);
    EXPECT_NE(xml.find("<metric name=\"vmaf\" min=\""), std::string::npos);

    vq::write_log(tmpl, VQ_LOG_SUB, t);
    std::string sub;
    ASSERT_TRUE(read_file(tmpl, &sub));
    EXPECT_EQ(sub.compare(0, 15, "{0}{1}frame: 0|"), 0) << sub.substr(0, 40);

    /* NaN and infinity: JSON null */
    vq::LogTable odd;
    odd.names = { "a", "b" };
    odd.frame_num = { 0 };
    odd.values = { NAN, INFINITY };
    vq::write_log(tmpl, VQ_LOG_JSON, odd);
    std::string text;
    ASSERT_TRUE(read_file(tmpl, &text));
    nlohmann::json root = nlohmann::json::parse(text);
    const auto &metrics = root["frames"][0]["metrics"];
    EXPECT_TRUE(metrics["a"].is_null());
    EXPECT_TRUE(metrics["b"].is_null());
    remove(tmpl);
}

/* A log that cannot be written is an error naming the path; an existing log
 * is replaced only by a complete one. */
TEST(Output, FailedWritesKeepTheOldLog)
{
    vq::LogTable t;
    t.names = { "a" };
    t.frame_num = { 0 };
    t.values = { 1.0 };
    try {
        vq::write_log("/dev/full", VQ_LOG_JSON, t);
        ADD_FAILURE() << "no error writing /dev/full";
    } catch (const vq::Error &e) {
        EXPECT_EQ(e.code(), VQ_EIO);
        EXPECT_NE(strstr(e.what(), "/dev/full"), nullptr) << e.what();
    }
    try {
        vq::write_log("/nonexistent/dir/log.json", VQ_LOG_JSON, t);
        ADD_FAILURE() << "no error writing into a missing directory";
    } catch (const vq::Error &e) {
        EXPECT_EQ(e.code(), VQ_EIO);
        EXPECT_NE(strstr(e.what(), "/nonexistent/dir/log.json"), nullptr) << e.what();
    }
}

/* A long title's log is written a chunk at a time (hostmath/log_writer.cpp:
 * Out::kChunk, 1 MiB): logs of many megabytes in every format hold every
 * frame, every number read back the same double, across the chunks' seams. */
TEST(Output, LongLogsWrittenInChunks)
{
    const size_t nf = 40000, nc = 5;
    vq::LogTable t;
    t.version = "test";
    for (size_t k = 0; k < nc; k++)
        t.names.push_back("c" + std::to_string(k));
    std::mt19937_64 rng(11);
    std::vector<vq::PoolAcc> acc(nc);
    for (size_t i = 0; i < nf; i++) {
        t.frame_num.push_back((int64_t)i);
        for (size_t k = 0; k < nc; k++) {
            double v;
            do {
                const uint64_t b = rng();
                memcpy(&v, &b, sizeof(v));
            } while (!std::isfinite(v));
            t.values.push_back(k ? v : (double)(rng() % 100000) / 7.0);
            acc[k].add(t.values.back());
        }
    }
    for (const vq::PoolAcc &a : acc)
        t.pooled.push_back(a.get());
    char tmpl[] = "/tmp/vq_test_longlog_XXXXXX";
    const int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    close(fd);
    std::string text;

    vq::write_log(tmpl, VQ_LOG_JSON, t);
    ASSERT_TRUE(read_file(tmpl, &text));
    EXPECT_GT(text.size(), (size_t)8 << 20);
    nlohmann::json root = nlohmann::json::parse(text);
    ASSERT_EQ(root["frames"].size(), nf);
    for (size_t i = 0; i < nf; i++) {
        const auto &f = root["frames"][i];
        ASSERT_EQ(f["frameNum"].get<int64_t>(), (int64_t)i);
        for (size_t k = 0; k < nc; k++)
            ASSERT_TRUE(same_double(f["metrics"][t.names[k]].get<double>(), t.values[i * nc + k])) << i << " " << k;
    }
    EXPECT_TRUE(same_double(root["pooled_metrics"]["c0"]["mean"].get<double>(), t.pooled[0].mean));

    vq::write_log(tmpl, VQ_LOG_CSV, t);
    ASSERT_TRUE(read_file(tmpl, &text));
    EXPECT_GT(text.size(), (size_t)4 << 20);
    size_t pos = text.find('\n') + 1, row = 0;
    while (pos < text.size()) {
        const size_t eol = text.find('\n', pos);
        ASSERT_NE(eol, std::string::npos);
        std::string line = text.substr(pos, eol - pos);
        char *p = &line[0];
        ASSERT_EQ(strtol(p, &p, 10), (long)row);
        for (size_t k = 0; k < nc; k++) {
            ASSERT_EQ(*p, ',') << row;
            p++;
            ASSERT_TRUE(same_double(strtod(p, &p), t.values[row * nc + k])) << row << " " << k;
        }
        pos = eol + 1;
        row++;
    }
    EXPECT_EQ(row, nf);

    auto count = [](const std::string &s, const char *what) {
        size_t n = 0;
        for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
            n++;
        return n;
    };
    vq::write_log(tmpl, VQ_LOG_XML, t);
    ASSERT_TRUE(read_file(tmpl, &text));
    EXPECT_EQ(count(text, "<frame frameNum="), nf);
    EXPECT_NE(text.find("</VMAF>"), std::string::npos);
    vq::write_log(tmpl, VQ_LOG_SUB, t);
    ASSERT_TRUE(read_file(tmpl, &text));
    EXPECT_EQ(count(text, "frame: "), nf);
    remove(tmpl);
}

/* Numbers read the same whatever LC_NUMERIC the program set (libvmaf runs in "C"). */
TEST(Model, LocaleIndependent)
{
    const char *const comma[] = { "de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8", "nl_NL.UTF-8" };
    const std::string t = replace_once(kTiny, "\"LIBSVMNUSVR\"",
                                       "\"LIBSVMNUSVR\", \"feature_opts_dicts\": [{\"adm_enhn_gain_limit\": 1.5}]");
    auto c = Model::from_json(t, 0);
    double in[2] = { 0.4, 0.3 }, a, b;
    c->predict(in, &a);
    /* VQ_LOCALE_DIR: where scripts/test.sh compiled de_DE.UTF-8 when the
     * system has no such locale (glibc reads LOCPATH at each setlocale).
     * On every way out: LC_NUMERIC back to "C", LOCPATH as it was. */
    struct Restore {
        bool set_path = false;
        std::string old_path;
        bool had_path = false;
        ~Restore()
        {
            setlocale(LC_NUMERIC, "C");
            if (set_path && had_path)
                setenv("LOCPATH", old_path.c_str(), 1);
            else if (set_path)
                unsetenv("LOCPATH");
        }
    } restore;
    const char *dir = getenv("VQ_LOCALE_DIR");
    if (dir && *dir) {
        if (const char *old = getenv("LOCPATH")) {
            restore.had_path = true;
            restore.old_path = old;
        }
        restore.set_path = true;
        setenv("LOCPATH", dir, 1);
    }
    const char *set = nullptr;
    for (const char *l : comma)
        if ((set = setlocale(LC_NUMERIC, l)))
            break;
    if (!set)
        GTEST_SKIP() << "no locale with a decimal comma installed (nor in VQ_LOCALE_DIR)";
    ASSERT_EQ(*localeconv()->decimal_point, ',') << set;
    auto d = Model::from_json(t, 0);
    d->predict(in, &b);
    setlocale(LC_NUMERIC, "C");
    EXPECT_TRUE(same_double(a, b));
    EXPECT_EQ(d->features()[0].opts[0].second, "1.5");
    EXPECT_TRUE(same_double(Access::impl(*c).subs[0].slope, Access::impl(*d).subs[0].slope));
}

/* The logs' numbers: format_17g writes exactly what printf's "%.17g" writes
 * (the C locale), for random bit patterns (every exponent, subnormals,
 * NaNs, infinities) and for the values a log holds (scores, integers,
 * powers of ten at the edges of the fixed and exponent forms). */
TEST(LogWriter, Format17gEqualsPrintf)
{
    uint64_t s = 0x2545f4914f6cdd1dull;
    auto rnd = [&s]() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545f4914f6cdd1dull;
    };
    std::vector<double> vals = { 0.0, -0.0, 1.0, -1.0, 100.0, 1e16, 1e17, 9.9999999999999998e16, 1e-5,
                                 1e-4, 0.1, 72.395517030000001, 1e300, 5e-324, 2.2250738585072014e-308,
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::quiet_NaN(),
                                 -std::numeric_limits<double>::quiet_NaN() };
    for (int k = 0; k < 200000; k++) {
        uint64_t bits = rnd();
        double v;
        std::memcpy(&v, &bits, sizeof(v));
        vals.push_back(v);
        vals.push_back((double)(int64_t)(rnd() % 100000) / (double)(1 + rnd() % 1000));   /* score-like */
    }

    for (double v : vals) {
        char a[32], b[64];
        const int n = vq::format_17g(a, sizeof(a), v);
        const int m = std::snprintf(b, sizeof(b), "%.17g", v);
        ASSERT_EQ(std::string(a, (size_t)n), std::string(b, (size_t)m));
    }
}

/* chroma_correction_parameter (v1.0.16): a speed_chroma of exactly 0 is
 * replaced by c * (1 - adm3) (each denormalized from the SVM's input, then
 * normalized again, as predict.c does); any other value is left alone. */
TEST(Model, ChromaCorrection)
{
    for (const std::string v : { "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_hfr_3d0h_2160" }) {
        auto m = Model::builtin(v, 0);
        const Sub &s = Access::impl(*m).subs[0];
        ASSERT_TRUE(s.cfl) << v;
        EXPECT_EQ(s.cfl_param, 120.0) << v;
        const auto &feats = m->features();
        ASSERT_EQ(feats.size(), 4u);
        const int gi = s.cfl_guiding, di = s.cfl_guided;
        EXPECT_NE(feats[(size_t)gi].name.find("adm3"), std::string::npos);
        EXPECT_NE(feats[(size_t)di].name.find("speed_chroma"), std::string::npos);
        double in[4] = { 0.001, 0.0, 0.97, 3.0 }, a, b;
        m->predict(in, &a);
        const double g = ((s.fslope[gi] * in[gi] + s.fintercept[gi]) - s.fintercept[gi]) / s.fslope[gi];
        in[di] = (-120.0 * g) + 120.0;
        /* the same SVM input only if normalize(that) == normalize(c (1 - g)): it is the same double */
        m->predict(in, &b);
        EXPECT_EQ(a, b) << v;
        in[di] = 0.5;    /* not 0 once normalized and denormalized: no correction */
        m->predict(in, &b);
        EXPECT_NE(a, b) << v;
    }
    std::string msg;
    const std::string path = models_file("vmaf_v1.0.16_3d0h.json");
    if (path.empty()) {
        printf("  vmaf_v1.0.16_3d0h.json not in VQ_MODELS_DIR: edits of the file not tried\n");
        return;
    }
    std::string good;
    {
        FILE *f = fopen(path.c_str(), "rb");
        ASSERT_TRUE(f);
        char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
            good.append(buf, n);
        fclose(f);
    }
    EXPECT_EQ(load_text(good, &msg), 0) << msg;
    const char *bad[][2] = {
        { "\"chroma_correction_parameter\": 120.0", "\"chroma_correction_parameter\": 0" },
        { "\"chroma_correction_parameter\": 120.0", "\"chroma_correction_parameter\": \"120\"" },
        { "\"VMAF_integer_feature_adm3_score\"", "\"VMAF_integer_feature_adm2_score\"" },
    };
    for (const auto &e : bad) {
        const size_t at = good.find(e[0]);
        ASSERT_NE(at, std::string::npos) << e[0];
        const std::string t = good.substr(0, at) + e[1] + good.substr(at + strlen(e[0]));
        EXPECT_EQ(load_text(t, &msg), VQ_EMODEL) << e[1];
    }
}
