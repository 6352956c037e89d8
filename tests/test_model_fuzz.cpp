/*
 * test_model_fuzz.cpp - thousands of mutated model texts through the loader:
 * each must give a vq::Error (VQ_EMODEL / VQ_ENOMEM) or a model whose
 * predict() runs (twice, the same bits); never a crash, hang or leak (run
 * it under ASan + UBSan).
 *
 * Mutations: truncation anywhere, flipped / replaced / inserted bytes, every
 * value of the model replaced by every other JSON type, huge arrays,
 * NaN / Infinity / 1e400 / -0 numbers, 100000-level nested arrays and
 * objects, duplicate keys, mutations inside the libsvm text, empty input.
 *
 * Seeded: VQ_FUZZ_SEED (default: from the clock, printed), VQ_FUZZ_CASES
 * (default 6000).  Bases: two small models and a small collection of our
 * own, plus vmaf_v0.6.1.json and vmaf_v0.6.1neg.json from VQ_MODELS_DIR
 * when there.
 */
#include <gtest/gtest.h>

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "json.h"
#include "registry.hpp"
#include "test_util.h"
#include "model.hpp"
#include "vq_error.h"
#include "vqcuda.h"

using ojson = nlohmann::ordered_json;

namespace {

using vq_test::read_file;

const char *kSvm =
    "svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv 3\nrho -1.5\nSV\n"
    "4 1:0.5 2:0.25 3:0.1 \n-2.5 1:0.75 3:0.2 \n0.75 2:0.5 \n";

std::string tiny_model(const char *type, const char *rho, bool extras)
{
    ojson md;
    md["model_type"] = type;
    md["norm_type"] = "linear_rescale";
    md["score_clip"] = { 0.0, 100.0 };
    md["feature_names"] = { "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score",
                            "VMAF_integer_feature_vif_scale0_score" };
    md["slopes"] = { 0.01, 2.0, 0.05, 1.5 };
    md["intercepts"] = { -0.3, -1.0, 0.0, -0.5 };
    std::string svm = kSvm;
    svm.replace(svm.find("-1.5"), 4, rho);
    if (extras) {
        md["score_transform"] = { { "enabled", false }, { "p0", 1.5 }, { "p1", 1.25 }, { "p2", -0.005 },
                                  { "knots", { { 0.0, 0.0 }, { 50.0, 60.0 }, { 100.0, 100.0 } } },
                                  { "out_lte_in", "false" }, { "out_gte_in", "true" } };
        md["feature_opts_dicts"] = { { { "adm_enhn_gain_limit", 1.0 } }, ojson::object(),
                                     { { "vif_enhn_gain_limit", 1.0 }, { "debug", false } } };
    }
    md["model"] = svm;
    ojson root;
    root["param_dict"] = { { "C", 4.0 } };
    root["model_dict"] = md;
    return root.dump();
}

std::string tiny_collection()
{
    ojson root;
    for (int i = 0; i < 3; i++) {
        const char *rho[] = { "-1.5", "1.2", "1.4" };
        root[std::to_string(i)] = ojson::parse(tiny_model("BOOTSTRAP_LIBSVMNUSVR", rho[i], i == 1));
    }
    return root.dump();
}

struct Fuzzer {
    std::mt19937_64 rng;
    long accepted = 0, refused = 0, cases = 0;

    explicit Fuzzer(uint64_t seed) : rng(seed) {}

    size_t pick(size_t n) { return n ? size_t(rng() % n) : 0; }
    bool coin(int one_in) { return pick(size_t(one_in)) == 0; }

    std::string deep(size_t levels, bool objects)
    {
        std::string s;
        s.reserve(levels * 6 + 8);
        for (size_t i = 0; i < levels; i++)
            s += objects ? "{\"a\":" : "[";
        s += "1";
        for (size_t i = 0; i < levels; i++)
            s += objects ? "}" : "]";
        return s;
    }

    /* raw JSON text for a replacement value: every type, odd numbers, invalid tokens */
    std::string odd_value()
    {
        static const char *const v[] = {
            "null", "true", "false", "0", "-0", "1", "-1", "0.5", "1e400", "-1e400", "1e-400", "NaN",
            "Infinity", "-Infinity", "nan", "inf", "18446744073709551616", "-9223372036854775809",
            "123456789012345678901234567890", "\"\"", "\"x\"", "\"true\"", "\"linear_rescale\"",
            "\"none\"", "\"BOOTSTRAP_LIBSVMNUSVR\"", "\"\\u0000\"", "\"svm_type nu_svr\\nSV\\n\"", "[]",
            "{}", "[1]", "[1, 2]", "[\"a\", \"b\"]", "[[1, 2], [3, 4]]", "[[1, 2, 3]]", "[null]",
            "{\"a\": 1}", "{\"0\": {}}", "[0.0, 100.0]", "[100.0, 0.0]", "[[0, 0], [10, 5], [5, 50]]",
            "0x10", "01", "1.", ".5", "+1", "\"\\ud800\"", "[1,]", "{\"a\" 1}",
        };
        const size_t n = sizeof(v) / sizeof(v[0]);
        const size_t k = pick(n + 4);
        if (k < n)
            return v[k];
        if (k == n) {   /* a huge array */
            std::string s = "[";
            const size_t len = 1000 + pick(100000);
            for (size_t i = 0; i < len; i++)
                s += i ? ",0.5" : "0.5";
            return s + "]";
        }
        if (k == n + 1)
            return deep(coin(4) ? 100000 : 1 + pick(40), coin(2));
        if (k == n + 2) {  /* many knots / names */
            std::string s = "[";
            for (size_t i = 0, len = pick(80); i < len; i++)
                s += std::string(i ? "," : "") + (coin(2) ? "[1, 2]" : "\"VMAF_integer_feature_adm2_score\"");
            return s + "]";
        }
        char b[64];
        snprintf(b, sizeof(b), "%.17g", std::ldexp(double(int64_t(rng())), int(pick(200)) - 100));
        return b;
    }

    /* every value's JSON pointer */
    static void paths(const ojson &j, const ojson::json_pointer &at, std::vector<ojson::json_pointer> *out)
    {
        out->push_back(at);
        if (j.is_object()) {
            for (auto it = j.begin(); it != j.end(); ++it)
                paths(it.value(), at / it.key(), out);
        } else if (j.is_array()) {
            for (size_t i = 0; i < j.size(); i++)
                paths(j[i], at / i, out);
        }
    }

    /* a byte-level mutation of text */
    std::string mutate_bytes(std::string s)
    {
        static const char alphabet[] = "{}[]:,\"\\ 0123456789.eE+-ntfalsru\n\t\x01\xff";
        const int n = 1 + int(pick(8));
        for (int i = 0; i < n && !s.empty(); i++) {
            const size_t at = pick(s.size());
            switch (pick(5)) {
            case 0: s[at] = char(s[at] ^ (1 << pick(8))); break;
            case 1: s[at] = alphabet[pick(sizeof(alphabet) - 1)]; break;
            case 2: s.erase(at, 1 + pick(16)); break;
            case 3: s.insert(at, 1, alphabet[pick(sizeof(alphabet) - 1)]); break;
            default: s.insert(at, s.substr(pick(s.size()), pick(64))); break;
            }
        }
        return s;
    }

    /* a mutation inside the libsvm text */
    std::string mutate_svm(std::string s)
    {
        static const char *const tok[] = {
            "1e400", "-1e400", "nan", "inf", "-0", "99999999999", "2147483648", "-2147483649", "SV", "\n",
            " ", "  ", ":", "-1:", "1:", "7:0.5", "total_sv 100000000", "total_sv -1", "nr_class 3",
            "nr_class 1", "rho", "label 1 2", "probA 0.1", "kernel_type linear", "kernel_type polynomial",
            "kernel_type sigmoid", "kernel_type precomputed", "svm_type one_class", "svm_type epsilon_svr",
            "svm_type c_svc", "degree 3", "degree -7", "coef0 0.5", "gamma", "1e-320", "0x1p3", "1.5e",
            "\r", "\t", "+4", ".5", "1.", "\0",
        };
        const int n = 1 + int(pick(4));
        for (int i = 0; i < n; i++) {
            const size_t at = pick(s.size() + 1);
            switch (pick(4)) {
            case 0: s.resize(at); break;
            case 1: s.insert(at, tok[pick(sizeof(tok) / sizeof(tok[0]))]); break;
            case 2:
                if (at < s.size())
                    s.erase(at, 1 + pick(8));
                break;
            default: {
                const std::string t = tok[pick(sizeof(tok) / sizeof(tok[0]))];
                if (at < s.size())
                    s.replace(at, std::min(t.size(), s.size() - at), t);
                break;
            }
            }
        }
        return s;
    }

    /* a structural mutation: one value (or the libsvm text) replaced */
    std::string mutate_tree(const ojson &base, const std::vector<ojson::json_pointer> &ps)
    {
        ojson j = base;
        const ojson::json_pointer &p = ps[pick(ps.size())];
        const std::string mark = "@@VQFUZZ@@";
        if (j.at(p).is_string() && j.at(p).get<std::string>().find("SV\n") != std::string::npos) {
            j.at(p) = mutate_svm(j.at(p).get<std::string>());
            return j.dump();
        }
        switch (pick(4)) {
        case 0: {   /* duplicate a key of the enclosing object */
            if (p.empty() || !j.at(p.parent_pointer()).is_object())
                break;
            std::string text = j.dump();
            const std::string key = "\"" + p.back() + "\":";
            const size_t at = text.find(key);
            if (at != std::string::npos)
                text.insert(at, key + odd_value() + ",");
            return text;
        }
        case 1:     /* remove it */
            if (!p.empty()) {
                ojson &parent = j.at(p.parent_pointer());
                if (parent.is_object())
                    parent.erase(p.back());
                else if (parent.is_array())
                    parent.erase(size_t(std::stoul(p.back())));
                return j.dump();
            }
            break;
        default:
            break;
        }
        j.at(p) = mark;
        std::string text = j.dump();
        const size_t at = text.find("\"" + mark + "\"");
        text.replace(at, mark.size() + 2, odd_value());
        return text;
    }

    void check(const std::string &text)
    {
        cases++;
        const unsigned flags = unsigned(pick(4));
        std::unique_ptr<vq::Model> m;
        try {
            m = vq::Model::from_json(text, flags);
        } catch (const vq::Error &e) {
            EXPECT_TRUE(e.code() == VQ_EMODEL || e.code() == VQ_ENOMEM) << e.code();
            EXPECT_GT(strlen(e.what()), 0u);
            refused++;
            return;
        } catch (const std::exception &e) {
            ADD_FAILURE() << "not a vq::Error: " << e.what() << "\n" << text.substr(0, 300);
            return;
        }
        ASSERT_NE(m, nullptr);
        accepted++;
        const size_t nf = m->features().size(), no = m->output_count();
        ASSERT_EQ(m->output_names("vmaf").size(), no);
        std::vector<double> in(nf), a(no), b(no);
        for (int round = 0; round < 2; round++) {
            for (double &v : in) {
                switch (pick(8)) {
                case 0: v = NAN; break;
                case 1: v = pick(2) ? INFINITY : -INFINITY; break;
                case 2: v = std::ldexp(double(int64_t(rng())), int(pick(2000)) - 1000); break;
                default: v = double(rng() % 100000) / 50000.0; break;
                }
            }
            m->predict(in.data(), a.data());
            m->predict(in.data(), b.data());
            EXPECT_EQ(0, memcmp(a.data(), b.data(), no * sizeof(double)));
        }
        /* the session's extractor resolution too: registry lookup and options */
        if (coin(4)) {
            for (const vq::ModelFeature &f : m->features()) {
                const vq::FeatureSpec *spec = vq::extractor_providing(f.name);
                if (!spec)
                    continue;
                vq::FeatureOptions o(*spec);
                try {
                    for (const auto &kv : f.opts)
                        o.set(kv.first, kv.second, true);
                    (void)o.printed_name(f.name);
                } catch (const vq::Error &) {
                }
            }
        }
    }
};

uint64_t env_u64(const char *name, uint64_t def)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, nullptr, 0) : def;
}

}  // namespace

TEST(ModelFuzz, MutatedModelsNeverCrash)
{
    const uint64_t seed = env_u64("VQ_FUZZ_SEED", uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
    const long n_cases = long(env_u64("VQ_FUZZ_CASES", 6000));
    printf("model fuzz: seed %" PRIu64 " (VQ_FUZZ_SEED=%" PRIu64 " reproduces), %ld cases\n", seed, seed, n_cases);
    Fuzzer fz(seed);

    std::vector<std::string> bases = { tiny_model("LIBSVMNUSVR", "-1.5", false),
                                       tiny_model("LIBSVMNUSVR", "1.2", true), tiny_collection() };
    const char *dir = getenv("VQ_MODELS_DIR");
    for (const char *f : { "vmaf_v0.6.1.json", "vmaf_v0.6.1neg.json" }) {
        std::string t;
        if (dir && *dir && read_file(std::string(dir) + "/" + f, &t))
            bases.push_back(t);
    }
    std::vector<ojson> trees;
    std::vector<std::vector<ojson::json_pointer>> tree_paths;
    for (const std::string &b : bases) {
        trees.push_back(ojson::parse(b));
        tree_paths.emplace_back();
        Fuzzer::paths(trees.back(), ojson::json_pointer(), &tree_paths.back());
        /* every base itself loads and predicts */
        ASSERT_NO_THROW(vq::Model::from_json(b, 0)) << b.substr(0, 200);
    }

    const auto t0 = std::chrono::steady_clock::now();
    /* fixed cases */
    for (const char *t : { "", " ", "\xef\xbb\xbf{}", "{}", "[]", "null", "0", "\"model_dict\"", "{\"model_dict\":{}}" })
        fz.check(t);
    fz.check(fz.deep(100000, false));
    fz.check(fz.deep(100000, true));
    fz.check("{\"model_dict\": " + fz.deep(100000, true) + "}");
    fz.check("{\"0\": " + fz.deep(100000, false) + "}");
    fz.check(std::string(100000, '['));
    fz.check(std::string(100000, '{'));
    for (size_t b = 0; b < bases.size(); b++) {
        const std::string &s = bases[b];
        for (size_t cut = 0; cut < s.size(); cut += s.size() / 50 + 1)
            fz.check(s.substr(0, cut));
        /* every value replaced by every kind of odd value, once */
        for (size_t i = 0; i < tree_paths[b].size() && i < 400; i++) {
            ojson j = trees[b];
            j.at(tree_paths[b][i]) = "@@VQFUZZ@@";
            std::string text = j.dump();
            const size_t at = text.find("\"@@VQFUZZ@@\"");
            text.replace(at, 12, fz.odd_value());
            fz.check(text);
        }
    }
    /* random cases */
    while (fz.cases < n_cases) {
        const size_t b = fz.pick(bases.size());
        switch (fz.pick(4)) {
        case 0: fz.check(bases[b].substr(0, fz.pick(bases[b].size()))); break;
        case 1: fz.check(fz.mutate_bytes(bases[b])); break;
        default: fz.check(fz.mutate_tree(trees[b], tree_paths[b])); break;
        }
    }
    /* json.h's C reader: deep, truncated, junk */
    for (int i = 0; i < 200; i++) {
        const std::string &s = bases[size_t(i) % bases.size()];
        const std::string t = i == 0 ? fz.deep(100000, false) : i == 1 ? fz.deep(100000, true)
                              : i % 2 ? s.substr(0, fz.pick(s.size())) : fz.mutate_bytes(s);
        VqJson *root = nullptr;
        char err[256];
        if (vq_json_parse(t.data(), t.size(), &root, err, sizeof(err)) == 0)
            vq_json_free(root);
        else
            EXPECT_EQ(root, nullptr);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("model fuzz: %ld cases in %.2f s: %ld loaded and predicted, %ld refused with vq::Error\n", fz.cases,
           secs, fz.accepted, fz.refused);
    EXPECT_GT(fz.accepted, 0);
    EXPECT_GT(fz.refused, 0);
}
