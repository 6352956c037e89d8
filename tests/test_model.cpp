/*
 * test_model.cpp - the model (loader, built-in table, prediction), the
 * extractor-option naming rule, motion2/motion3, pooling and the log
 * writers, against libvmaf's golden output and model files.
 *
 * VQ_MODELS_DIR: libvmaf's model files (vmaf_v0.6.1.json, vmaf_4k_v0.6.1.json,
 * vmaf_v0.6.1neg.json); VQ_GOLDEN_DIR: <pair>.json and <pair>.<model>.json.
 * Tests that need either skip without it.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <unistd.h>
#include <map>
#include <string>
#include <vector>

#include "fex_options.h"
#include "json.h"
#include "model.h"
#include "motion_fold.h"
#include "output.h"
#include "pool.h"
#include "vqcuda.h"

namespace {

std::string env_dir(const char *var)
{
    const char *v = getenv(var);
    return v && *v ? std::string(v) : std::string();
}

bool read_file(const std::string &path, std::string *text)
{
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return false;
    char buf[65536];
    size_t n;
    text->clear();
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        text->append(buf, n);
    fclose(f);
    return true;
}

/* A golden log: frames in order (names in file order) and pooled values. */
struct Golden {
    std::string file, model;
    std::vector<std::string> names;
    std::vector<std::map<std::string, double>> frames;
    std::map<std::string, std::map<std::string, double>> pooled;
};

bool load_golden(const std::string &path, Golden *g)
{
    std::string text;
    if (!read_file(path, &text))
        return false;
    VqJson *root = nullptr;
    char err[256];
    if (vq_json_parse(text.data(), text.size(), &root, err, sizeof(err)) < 0) {
        ADD_FAILURE() << path << ": " << err;
        return false;
    }
    g->file = path;
    const VqJson *model = vq_json_get(root, "model");
    g->model = model && model->type == VQ_JSON_STRING ? model->str : "";
    const VqJson *frames = vq_json_get(root, "frames");
    for (size_t i = 0; frames && i < frames->n; i++) {
        const VqJson *m = vq_json_get(&frames->item[i], "metrics");
        std::map<std::string, double> row;
        for (size_t k = 0; m && k < m->n; k++) {
            row[m->key[k]] = m->item[k].number;
            if (i == 0)
                g->names.push_back(m->key[k]);
        }
        g->frames.push_back(row);
    }
    const VqJson *pooled = vq_json_get(root, "pooled_metrics");
    for (size_t k = 0; pooled && k < pooled->n; k++)
        for (size_t j = 0; j < pooled->item[k].n; j++)
            g->pooled[pooled->key[k]][pooled->item[k].key[j]] = pooled->item[k].item[j].number;
    vq_json_free(root);
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

/* the model a golden file was made with: built in, or read from VQ_MODELS_DIR */
VqModel *model_for(const std::string &name, std::string *why)
{
    VqModel *m = nullptr;
    char err[512] = "";
    int ret;
    if (name == "vmaf_v0.6.1") {
        ret = vq_model_load_builtin(&m, "vmaf_v0.6.1", err, sizeof(err));
    } else {
        const std::string dir = env_dir("VQ_MODELS_DIR");
        if (dir.empty()) {
            *why = "VQ_MODELS_DIR not set";
            return nullptr;
        }
        ret = vq_model_load_file(&m, (dir + "/" + name + ".json").c_str(), err, sizeof(err));
    }
    if (ret < 0) {
        *why = err;
        return nullptr;
    }
    return m;
}

std::string models_file(const char *name)
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

}  // namespace

/* The generated table holds what the run-time loader reads from libvmaf's file. */
TEST(Model, BuiltinTableEqualsJsonFile)
{
    const std::string path = models_file("vmaf_v0.6.1.json");
    if (path.empty())
        GTEST_SKIP() << "vmaf_v0.6.1.json not found in VQ_MODELS_DIR";
    VqModel *a = nullptr, *b = nullptr;
    char err[512] = "";
    ASSERT_EQ(vq_model_load_builtin(&a, "vmaf_v0.6.1", err, sizeof(err)), 0) << err;
    ASSERT_EQ(vq_model_load_file(&b, path.c_str(), err, sizeof(err)), 0) << err;
    const VqModelData &x = a->d, &y = b->d;
    EXPECT_EQ(x.norm_type, y.norm_type);
    EXPECT_TRUE(same_double(x.slope, y.slope));
    EXPECT_TRUE(same_double(x.intercept, y.intercept));
    ASSERT_EQ(x.n_features, y.n_features);
    for (uint32_t k = 0; k < x.n_features; k++) {
        EXPECT_STREQ(x.feature[k].name, y.feature[k].name);
        EXPECT_TRUE(same_double(x.feature[k].slope, y.feature[k].slope)) << k;
        EXPECT_TRUE(same_double(x.feature[k].intercept, y.feature[k].intercept)) << k;
        EXPECT_EQ(x.feature[k].n_opts, y.feature[k].n_opts);
    }
    EXPECT_EQ(x.score_clip_enabled, y.score_clip_enabled);
    EXPECT_TRUE(same_double(x.score_clip_min, y.score_clip_min));
    EXPECT_TRUE(same_double(x.score_clip_max, y.score_clip_max));
    EXPECT_EQ(0, memcmp(&x.transform, &y.transform, sizeof(x.transform)));
    EXPECT_EQ(x.svm.svm_type, y.svm.svm_type);
    EXPECT_EQ(x.svm.kernel_type, y.svm.kernel_type);
    EXPECT_EQ(x.svm.degree, y.svm.degree);
    EXPECT_TRUE(same_double(x.svm.gamma, y.svm.gamma));
    EXPECT_TRUE(same_double(x.svm.coef0, y.svm.coef0));
    EXPECT_EQ(x.svm.nr_class, y.svm.nr_class);
    EXPECT_TRUE(same_double(x.svm.rho, y.svm.rho));
    ASSERT_EQ(x.svm.l, y.svm.l);
    ASSERT_EQ(x.svm.n_nodes, y.svm.n_nodes);
    for (int32_t i = 0; i < x.svm.l; i++) {
        EXPECT_TRUE(same_double(x.svm.sv_coef[i], y.svm.sv_coef[i])) << "sv " << i;
        EXPECT_EQ(x.svm.sv_start[i], y.svm.sv_start[i]) << "sv " << i;
    }
    for (uint32_t i = 0; i < x.svm.n_nodes; i++) {
        EXPECT_EQ(x.svm.nodes[i].index, y.svm.nodes[i].index) << "node " << i;
        EXPECT_TRUE(same_double(x.svm.nodes[i].value, y.svm.nodes[i].value)) << "node " << i;
    }
    EXPECT_EQ(x.svm.l, 211);
    vq_model_free(&a);
    vq_model_free(&b);
    EXPECT_EQ(a, nullptr);
}

/* Every golden frame: the model's score from the golden features == golden vmaf. */
TEST(Model, PredictionEqualsGolden)
{
    std::vector<Golden> all = load_all_golden();
    if (all.empty())
        GTEST_SKIP() << "no golden files (VQ_GOLDEN_DIR)";
    int files = 0, frames = 0, exact = 0;
    for (const Golden &g : all) {
        std::string why;
        VqModel *m = model_for(g.model, &why);
        if (!m) {
            printf("  %s: model %s not loaded (%s), not checked\n", g.file.c_str(), g.model.c_str(),
                   why.c_str());
            continue;
        }
        files++;
        const int nf = vq_model_feature_count(m);
        std::vector<std::string> names(nf);
        for (int k = 0; k < nf; k++) {
            char buf[160];
            vq_model_feature_printed_name(m, k, buf, sizeof(buf));
            names[k] = buf;
        }
        for (size_t i = 0; i < g.frames.size(); i++) {
            std::vector<double> feat(nf);
            bool have_all = true;
            for (int k = 0; k < nf; k++) {
                auto it = g.frames[i].find(names[k]);
                if (it == g.frames[i].end()) {
                    ADD_FAILURE() << g.file << ": no feature " << names[k];
                    have_all = false;
                    break;
                }
                feat[k] = it->second;
            }
            if (!have_all)
                break;
            double score = -1;
            ASSERT_EQ(vq_model_predict(m, feat.data(), &score), 0);
            const double want = g.frames[i].at("vmaf");
            EXPECT_EQ(score, want) << g.file << " frame " << i;
            frames++;
            exact += score == want;
        }
        vq_model_free(&m);
    }
    printf("model prediction: %d of %d frames exact in %d golden files\n", exact, frames, files);
}

/* The option-name rule: the neg model's features print with "_egl_1". */
TEST(Model, FeatureNamesFollowOptions)
{
    const std::string path = models_file("vmaf_v0.6.1neg.json");
    if (path.empty())
        GTEST_SKIP() << "vmaf_v0.6.1neg.json not found in VQ_MODELS_DIR";
    Golden g;
    const std::string gdir = env_dir("VQ_GOLDEN_DIR");
    if (gdir.empty() || !load_golden(gdir + "/dog1080.vmaf_v0.6.1neg.json", &g))
        GTEST_SKIP() << "dog1080.vmaf_v0.6.1neg.json not found in VQ_GOLDEN_DIR";
    VqModel *m = nullptr;
    char err[512] = "";
    ASSERT_EQ(vq_model_load_file(&m, path.c_str(), err, sizeof(err)), 0) << err;
    /* every printed name the extractors give under the model's options is in the log */
    const char *const adm[] = { "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_aim_score",
                                "VMAF_integer_feature_adm3_score", "integer_adm_scale0",
                                "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3" };
    const char *const vif[] = { "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
                                "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score" };
    const char *const motion[] = { "VMAF_integer_feature_motion_sad_score",
                                   "VMAF_integer_feature_motion2_score",
                                   "VMAF_integer_feature_motion3_score" };
    std::vector<std::string> want;
    char buf[160];
    for (const char *n : adm) {
        vq_fex_printed_name(n, VQ_FEX_ADM, vq_model_fex_options(m), buf, sizeof(buf));
        want.push_back(buf);
    }
    for (const char *n : motion) {
        vq_fex_printed_name(n, VQ_FEX_MOTION, vq_model_fex_options(m), buf, sizeof(buf));
        want.push_back(buf);
    }
    for (const char *n : vif) {
        vq_fex_printed_name(n, VQ_FEX_VIF, vq_model_fex_options(m), buf, sizeof(buf));
        want.push_back(buf);
    }
    for (const std::string &n : want)
        EXPECT_TRUE(g.frames[0].count(n)) << n << " is not in the golden log";
    EXPECT_EQ(vq_model_vif_egl(m), 1.0);
    EXPECT_EQ(vq_model_adm_egl(m), 1.0);
    EXPECT_STREQ(vq_model_motion_suffix(m), "");
    /* and the default model's names are the plain aliases, in the default log */
    VqModel *d = nullptr;
    ASSERT_EQ(vq_model_load_builtin(&d, "vmaf_v0.6.1", err, sizeof(err)), 0) << err;
    Golden gd;
    ASSERT_TRUE(load_golden(gdir + "/dog1080.json", &gd));
    for (int k = 0; k < vq_model_feature_count(d); k++) {
        vq_model_feature_printed_name(d, k, buf, sizeof(buf));
        EXPECT_TRUE(gd.frames[0].count(buf)) << buf;
    }
    EXPECT_STREQ(vq_model_vif_suffix(d), "");
    EXPECT_STREQ(vq_model_adm_suffix(d), "");
    EXPECT_EQ(vq_model_vif_egl(d), 100.0);
    vq_model_free(&m);
    vq_model_free(&d);
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
            int64_t idx;
            double m2, m3;
            const int got = vq_motion2_push(&st, sad[i], &idx, &m2, &m3);
            EXPECT_EQ(got, i > 0 ? 1 : 0);
            if (got) {
                EXPECT_EQ(idx, (int64_t)i - 1);
                seen[idx]++;
                check(idx, m2, m3, "push");
            }
        }
        int64_t idx;
        double m2, m3;
        ASSERT_EQ(vq_motion2_flush(&st, &idx, &m2, &m3), 1);
        EXPECT_EQ(idx, (int64_t)n - 1);
        seen[idx]++;
        check(idx, m2, m3, "flush");
        EXPECT_EQ(vq_motion2_flush(&st, &idx, &m2, &m3), 0);
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
            VqPooled p;
            ASSERT_EQ(vq_pool(v.data(), v.size(), &p), 0);
            const double got[4] = { p.min, p.max, p.mean, p.harmonic_mean };
            const char *const what[4] = { "min", "max", "mean", "harmonic_mean" };
            bool ok = true;
            for (int j = 0; j < 4; j++) {
                const double want = kv.second.at(what[j]);
                EXPECT_EQ(got[j], want) << g.file << " " << kv.first << " " << what[j];
                ok = ok && got[j] == want;
            }
            keys++;
            exact += ok;
        }
    }
    printf("pooling: %d of %d (file, feature) pairs exact\n", exact, keys);
    VqPooled p;
    EXPECT_EQ(vq_pool(nullptr, 0, &p), VQ_EINVAL);
}

namespace {

int load_text(const std::string &json, std::string *msg, unsigned flags = 0)
{
    VqModel *m = nullptr;
    char err[512] = "";
    const int ret = vq_model_load_json(&m, json.data(), json.size(), flags, err, sizeof(err));
    *msg = err;
    if (ret == 0) {
        EXPECT_NE(m, nullptr);
        vq_model_free(&m);
    } else {
        EXPECT_EQ(m, nullptr);
    }
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

}  // namespace

/* Missing, malformed and unsupported models: an error and a message, no crash. */
TEST(Model, BadModelsGiveErrors)
{
    VqModel *m = nullptr;
    char err[512] = "";
    EXPECT_EQ(vq_model_load_file(&m, "/nonexistent/dir/model.json", err, sizeof(err)), VQ_EMODEL);
    EXPECT_EQ(m, nullptr);
    EXPECT_NE(strstr(err, "/nonexistent/dir/model.json"), nullptr) << err;
    EXPECT_EQ(vq_model_load_builtin(&m, "vmaf_v9", err, sizeof(err)), VQ_EMODEL);
    EXPECT_EQ(m, nullptr);

    std::string msg;
    const char *const junk[] = { "", "{", "[1, 2]", "{\"model_dict\": 3}", "{\"model_dict\": {}}",
                                 "{\"model_dict\": {\"feature_names\": [\"a\",]}}", "nul",
                                 "{\"a\": \"\\x\"}", "{\"model_dict\": {\"norm_type\": 1}}" };
    for (const char *j : junk) {
        EXPECT_EQ(load_text(j, &msg), VQ_EMODEL) << j;
        EXPECT_FALSE(msg.empty()) << j;
    }

    const std::string path = models_file("vmaf_v0.6.1.json");
    if (path.empty())
        GTEST_SKIP() << "vmaf_v0.6.1.json not found in VQ_MODELS_DIR: edits of a real model not tried";
    std::string good;
    ASSERT_TRUE(read_file(path, &good));
    ASSERT_EQ(load_text(good, &msg), 0) << msg;
    /* truncated anywhere: never accepted */
    for (size_t cut = 0; cut < good.size(); cut += good.size() / 97 + 1)
        EXPECT_EQ(load_text(good.substr(0, cut), &msg), VQ_EMODEL) << "cut at " << cut;

    struct Edit {
        const char *from, *to, *why;
    };
    const Edit edits[] = {
        { "\"VMAF_integer_feature_adm2_score\"", "\"VMAF_feature_adm2_score\"", "float feature" },
        { "\"VMAF_integer_feature_adm2_score\"", "\"no_such_feature\"", "unknown feature" },
        { "\"VMAF_integer_feature_adm2_score\"", "17", "feature name not a string" },
        { "\"norm_type\": \"linear_rescale\"", "\"norm_type\": \"log\"", "unknown norm_type" },
        { "\"model_type\": \"LIBSVMNUSVR\"", "\"model_type\": \"BOOTSTRAP_LIBSVMNUSVR\"", "bootstrap" },
        { "\"score_clip\": [", "\"score_clip\": [\"a\", ", "score_clip not numbers" },
        { "svm_type nu_svr", "svm_type c_svc", "classification SVM" },
        { "svm_type nu_svr", "svm_type nonsense", "unknown svm_type" },
        { "total_sv 211", "total_sv 999", "too few support vectors" },
        { "gamma 0.04", "gamma x", "bad gamma" },
        { "rho -1.33133", "rhubarb 1", "unknown header word" },
        { "\\nSV\\n", "\\nSV\\nx\\n", "bad coefficient" },
        { "1:0.65734273", "1:zz", "bad node value" },
        { "\"slopes\": [", "\"slopes\": [0.5], \"x\": [", "too few slopes" },
        { "\"model\": \"", "\"model\": 5, \"y\": \"", "model not a string" },
    };
    for (const Edit &e : edits) {
        const std::string bad = replace_once(good, e.from, e.to);
        EXPECT_EQ(load_text(bad, &msg), VQ_EMODEL) << e.why;
        EXPECT_FALSE(msg.empty()) << e.why;
    }
    /* options libvmaf's option parser refuses, and two configurations of one extractor */
    const std::string with_opts = replace_once(good, "\"feature_names\"",
        "\"feature_opts_dicts\": [{}, {}, {\"vif_enhn_gain_limit\": 0.5}, {}, {}, {}], \"feature_names\"");
    EXPECT_EQ(load_text(with_opts, &msg), VQ_EMODEL) << "egl below 1";
    const std::string mixed = replace_once(good, "\"feature_names\"",
        "\"feature_opts_dicts\": [{}, {}, {\"vif_enhn_gain_limit\": 1.0}, {}, {}, {}], \"feature_names\"");
    EXPECT_EQ(load_text(mixed, &msg), VQ_EMODEL) << "vif features with two option sets";
    const std::string egl2 = replace_once(good, "\"feature_names\"",
        "\"feature_opts_dicts\": [{\"adm_enhn_gain_limit\": 1.5}, {\"motion_force_zero\": true}], \"feature_names\"");
    VqModel *ok = nullptr;
    ASSERT_EQ(vq_model_load_json(&ok, egl2.data(), egl2.size(), 0, err, sizeof(err)), 0) << err;
    EXPECT_STREQ(vq_model_adm_suffix(ok), "_egl_1.5");
    EXPECT_STREQ(vq_model_motion_suffix(ok), "_force_0");
    EXPECT_STREQ(vq_model_vif_suffix(ok), "");
    vq_model_free(&ok);
}

/* The log writers: every number read back from JSON and CSV is the same double. */
TEST(Output, WrittenNumbersReadBackExactly)
{
    std::vector<Golden> all = load_all_golden();
    if (all.empty())
        GTEST_SKIP() << "no golden files (VQ_GOLDEN_DIR)";
    const Golden &g = all[0];
    const int nf = (int)g.names.size();
    std::vector<const char *> names;
    for (const std::string &n : g.names)
        names.push_back(n.c_str());
    std::vector<int64_t> frame_num(g.frames.size());
    std::vector<double> values(g.frames.size() * nf);
    std::vector<VqPooled> pooled(nf);
    for (size_t i = 0; i < g.frames.size(); i++) {
        frame_num[i] = (int64_t)i;
        for (int k = 0; k < nf; k++)
            values[i * nf + k] = g.frames[i].at(g.names[k]);
    }
    for (int k = 0; k < nf; k++)
        ASSERT_EQ(vq_pool_strided(values.data() + k, g.frames.size(), nf, &pooled[k]), 0);
    VqLogData d;
    memset(&d, 0, sizeof(d));
    d.version = "test";
    d.n_features = nf;
    d.n_frames = g.frames.size();
    d.names = names.data();
    d.frame_num = frame_num.data();
    d.values = values.data();
    d.pooled = pooled.data();

    char tmpl[] = "/tmp/vq_test_log_XXXXXX";
    const int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    close(fd);
    ASSERT_EQ(vq_log_write(tmpl, VQ_LOG_JSON, &d), 0);
    Golden back;
    ASSERT_TRUE(load_golden(tmpl, &back));
    ASSERT_EQ(back.frames.size(), g.frames.size());
    for (size_t i = 0; i < g.frames.size(); i++)
        for (int k = 0; k < nf; k++)
            EXPECT_TRUE(same_double(back.frames[i].at(g.names[k]), values[i * nf + k]));
    for (const auto &kv : g.pooled)
        for (const auto &pv : kv.second)
            EXPECT_EQ(back.pooled.at(kv.first).at(pv.first), pv.second) << kv.first << " " << pv.first;

    ASSERT_EQ(vq_log_write(tmpl, VQ_LOG_CSV, &d), 0);
    std::string csv;
    ASSERT_TRUE(read_file(tmpl, &csv));
    size_t pos = csv.find('\n') + 1, row = 0;
    EXPECT_EQ(csv.compare(0, 6, "Frame,"), 0);
    while (pos < csv.size() && row < g.frames.size()) {
        const size_t eol = csv.find('\n', pos);
        std::string line = csv.substr(pos, eol - pos);
        char *p = &line[0];
        EXPECT_EQ(strtol(p, &p, 10), (long)row);
        for (int k = 0; k < nf; k++) {
            ASSERT_EQ(*p, ',');
            p++;
            EXPECT_TRUE(same_double(strtod(p, &p), values[row * nf + k]));
        }
        pos = eol + 1;
        row++;
    }
    EXPECT_EQ(row, g.frames.size());

    ASSERT_EQ(vq_log_write(tmpl, VQ_LOG_XML, &d), 0);
    std::string xml;
    ASSERT_TRUE(read_file(tmpl, &xml));
    EXPECT_NE(xml.find("<frame frameNum=\"0\" "), std::string::npos);
    EXPECT_NE(xml.find("<metric name=\"vmaf\" min=\""), std::string::npos);
    remove(tmpl);

    /* NaN and infinity: JSON null */
    double odd[2] = { NAN, INFINITY };
    const char *odd_names[2] = { "a", "b" };
    int64_t fn = 0;
    d.n_features = 2;
    d.n_frames = 1;
    d.names = odd_names;
    d.frame_num = &fn;
    d.values = odd;
    d.pooled = nullptr;
    char *buf = nullptr;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    ASSERT_EQ(vq_log_write_json(mem, &d), 0);
    fclose(mem);
    VqJson *root = nullptr;
    char err[256];
    ASSERT_EQ(vq_json_parse(buf, len, &root, err, sizeof(err)), 0) << err << "\n" << buf;
    const VqJson *metrics = vq_json_get(&vq_json_get(root, "frames")->item[0], "metrics");
    EXPECT_EQ(vq_json_get(metrics, "a")->type, VQ_JSON_NULL);
    EXPECT_EQ(vq_json_get(metrics, "b")->type, VQ_JSON_NULL);
    vq_json_free(root);
    free(buf);
}
