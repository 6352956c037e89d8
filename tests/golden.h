/*
 * golden.h - libvmaf's JSON logs (tests/data/golden/, golden_columns/ and
 * golden_parts/), read one way for the C++ tests.
 *
 * A log is {"reference": ..., "distorted": ..., (other strings: "model",
 * "oracle_args", "refused_by_reference", "cpu", ...), "refused": [extractor,
 * ...] (vqcuda's: what the reference refused), "frames": [{"frameNum": n,
 * "metrics": {name: value, ...}}, ...], "pooled_metrics": {name: {"min": v,
 * "max": v, "mean": v, "harmonic_mean": v}}, ...}.  The columns and parts
 * files have the same shape (fewer metrics, or frames of a subsample: the
 * frames are kept in file order, frameNum beside them).  A log the reference
 * refused has no frames.  "aggregate_metrics" and other members are not read.
 *
 * The parser is the library's own vq_json (hostmath/json.h): a number's
 * value is strtod of its printed %.17g text ("C" locale), the correctly
 * rounded double that libvmaf printed, "-0" included (a JSON parser that
 * reads "-0" as the integer 0 loses the sign); names keep the file's order.
 *
 * Values that are not finite: libvmaf's logs hold them as null.  The log
 * cannot tell +inf (ciede2000 or psnr_hvs of identical frames) from NaN
 * (ADM with adm_csf_mode 1: 0/0), so the reader takes the caller's
 * GoldenNull (+inf by default) and keeps, beside the value, which names
 * were null (GoldenMetrics::is_null).
 *
 * A metric that is not there: has() says so; at() and value() throw
 * std::out_of_range (a test that did not ask first fails on it).
 */
#ifndef VQ_TESTS_GOLDEN_H
#define VQ_TESTS_GOLDEN_H

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "json.h"

namespace vq_test {

/* what a null value reads as */
enum class GoldenNull {
    Inf,   /* +infinity: the reference printed inf (ciede2000, psnr_hvs, ...) */
    NaN,   /* not a number: inf or NaN, unknown (compare "both not finite") */
};

/* one frame's metrics, or one pooled metric's pools */
struct GoldenMetrics {
    std::vector<std::string> names;          /* file order */
    std::map<std::string, double> values;    /* null as load_golden's GoldenNull */
    std::set<std::string> nulls;             /* the names written null */

    bool has(const std::string &name) const { return values.count(name) != 0; }
    bool is_null(const std::string &name) const { return nulls.count(name) != 0; }
    double at(const std::string &name) const
    {
        const auto it = values.find(name);
        if (it == values.end())
            throw std::out_of_range("golden: no value " + name);
        return it->second;
    }
};

struct GoldenLog {
    std::string path;
    std::map<std::string, std::string> strings;   /* the top-level string members */
    std::vector<std::string> refused;             /* "refused", in file order */
    std::vector<int> frame_num;                   /* frameNum of frames[i] */
    std::vector<GoldenMetrics> frames;            /* "frames"[i]["metrics"], file order */
    std::vector<std::string> pooled_names;        /* "pooled_metrics", file order */
    std::map<std::string, GoldenMetrics> pooled;  /* name -> min, max, mean, harmonic_mean */

    size_t nframes() const { return frames.size(); }
    bool has(size_t frame, const std::string &name) const
    {
        return frame < frames.size() && frames[frame].has(name);
    }
    double value(size_t frame, const std::string &name) const
    {
        if (frame >= frames.size())
            throw std::out_of_range("golden: no frame " + std::to_string(frame));
        return frames[frame].at(name);
    }
    /* the frames that have name, in order */
    std::vector<double> column(const std::string &name) const
    {
        std::vector<double> v;
        for (const GoldenMetrics &m : frames)
            if (m.has(name))
                v.push_back(m.at(name));
        return v;
    }
    /* the position of frameNum n in frames, or -1 */
    int frame_index(int n) const
    {
        for (size_t i = 0; i < frame_num.size(); i++)
            if (frame_num[i] == n)
                return (int)i;
        return -1;
    }
    bool refuses(const std::string &extractor) const
    {
        for (const std::string &r : refused)
            if (r == extractor)
                return true;
        return false;
    }
    bool has_str(const std::string &key) const { return strings.count(key) != 0; }
    /* a top-level string, or "" */
    std::string str(const std::string &key) const
    {
        const auto it = strings.find(key);
        return it == strings.end() ? std::string() : it->second;
    }
};

enum class GoldenStatus {
    Ok,
    Missing,   /* the file cannot be opened: the test skips */
    Bad,       /* not JSON, or not a log's shape: the test fails (message in *err) */
};

namespace golden_detail {

/* an object of numbers and nulls into m; false if any member is neither */
inline bool read_metrics(const VqJson *o, double null_value, GoldenMetrics *m, std::string *why)
{
    if (!o || o->type != VQ_JSON_OBJECT) {
        *why = "not an object";
        return false;
    }
    for (size_t k = 0; k < o->n; k++) {
        const VqJson &v = o->item[k];
        const std::string name = o->key[k];
        if (v.type != VQ_JSON_NUMBER && v.type != VQ_JSON_NULL) {
            *why = name + " is neither a number nor null";
            return false;
        }
        if (m->values.count(name)) {
            *why = name + " twice";
            return false;
        }
        m->names.push_back(name);
        m->values[name] = v.type == VQ_JSON_NULL ? null_value : v.number;
        if (v.type == VQ_JSON_NULL)
            m->nulls.insert(name);
    }
    return true;
}

inline bool read_log(const VqJson *root, double null_value, GoldenLog *g, std::string *why)
{
    if (root->type != VQ_JSON_OBJECT) {
        *why = "not an object";
        return false;
    }
    for (size_t k = 0; k < root->n; k++)
        if (root->item[k].type == VQ_JSON_STRING)
            g->strings[root->key[k]] = root->item[k].str;
    if (const VqJson *r = vq_json_get(root, "refused")) {
        if (r->type != VQ_JSON_ARRAY) {
            *why = "refused: not an array";
            return false;
        }
        for (size_t i = 0; i < r->n; i++) {
            if (r->item[i].type != VQ_JSON_STRING) {
                *why = "refused: not a string";
                return false;
            }
            g->refused.push_back(r->item[i].str);
        }
    }
    if (const VqJson *fr = vq_json_get(root, "frames")) {
        if (fr->type != VQ_JSON_ARRAY) {
            *why = "frames: not an array";
            return false;
        }
        for (size_t i = 0; i < fr->n; i++) {
            const VqJson *num = vq_json_get(&fr->item[i], "frameNum");
            GoldenMetrics m;
            std::string w;
            if (!num || num->type != VQ_JSON_NUMBER ||
                !read_metrics(vq_json_get(&fr->item[i], "metrics"), null_value, &m, &w)) {
                *why = "frames[" + std::to_string(i) + "]: " + (w.empty() ? "no frameNum" : "metrics: " + w);
                return false;
            }
            g->frame_num.push_back((int)num->number);
            g->frames.push_back(std::move(m));
        }
    }
    if (const VqJson *p = vq_json_get(root, "pooled_metrics")) {
        if (p->type != VQ_JSON_OBJECT) {
            *why = "pooled_metrics: not an object";
            return false;
        }
        for (size_t k = 0; k < p->n; k++) {
            GoldenMetrics m;
            std::string w;
            if (!read_metrics(&p->item[k], null_value, &m, &w)) {
                *why = std::string("pooled_metrics: ") + p->key[k] + ": " + w;
                return false;
            }
            g->pooled_names.push_back(p->key[k]);
            g->pooled[p->key[k]] = std::move(m);
        }
    }
    return true;
}

}  // namespace golden_detail

/* path into *out (cleared first); the message of a Bad file in *err */
inline GoldenStatus load_golden(const std::string &path, GoldenLog *out, std::string *err = nullptr,
                                GoldenNull null_as = GoldenNull::Inf)
{
    *out = GoldenLog();
    out->path = path;
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
        return GoldenStatus::Missing;
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        text.append(buf, n);
    fclose(f);
    VqJson *root = nullptr;
    char msg[256];
    std::string why;
    bool ok = vq_json_parse(text.data(), text.size(), &root, msg, sizeof(msg)) == 0;
    if (!ok)
        why = msg;
    else
        ok = golden_detail::read_log(root, null_as == GoldenNull::Inf ? INFINITY : NAN, out, &why);
    vq_json_free(root);
    if (!ok) {
        if (err)
            *err = path + ": " + why;
        return GoldenStatus::Bad;
    }
    return GoldenStatus::Ok;
}

}  // namespace vq_test

#endif /* VQ_TESTS_GOLDEN_H */
