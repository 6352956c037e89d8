/* log_writer.cpp - see log_writer.hpp. */
#include "log_writer.hpp"

#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

#include "log_target.hpp"
#include "vq_error.h"

namespace vq {

int format_17g(char *buf, size_t size, double v)
{
    /* std::to_chars with a precision formats as printf does in the C
     * locale, without printf's locale and argument handling */
    const std::to_chars_result r = std::to_chars(buf, buf + size, v, std::chars_format::general, 17);
    if (r.ec != std::errc())
        return std::snprintf(buf, size, "%.17g", v);
    return (int)(r.ptr - buf);
}

void append_json_number(std::string &o, double v)
{
    if (!std::isfinite(v)) {
        o += "null";
        return;
    }
    char t[32];
    o.append(t, (size_t)format_17g(t, sizeof(t), v));
}

namespace {

const char *const pool_names[4] = { "min", "max", "mean", "harmonic_mean" };

double pooled_value(const Pooled &p, int j)
{
    return j == 0 ? p.min : j == 1 ? p.max : j == 2 ? p.mean : p.harmonic_mean;
}

/* numbers in the C locale whatever the process's LC_NUMERIC */
class CLocale {
public:
    CLocale() : c_(newlocale(LC_NUMERIC_MASK, "C", (locale_t)0)), old_(c_ ? uselocale(c_) : (locale_t)0) {}
    ~CLocale()
    {
        if (c_) {
            uselocale(old_);
            freelocale(c_);
        }
    }

private:
    locale_t c_, old_;
};

/* The log's text, built in memory and written a chunk at a time (stdio
 * calls per token cost more than the formatting; a day-long title's log is
 * gigabytes of text, which is never held whole): each number first writes
 * out what is there once it reaches kChunk bytes. */
struct Out {
    static constexpr size_t kChunk = (size_t)1 << 20;
    std::string b;
    FILE *f = nullptr;      /* where the chunks go (the write's errors: ferror at the end) */
    void spill()
    {
        if (f && !b.empty())
            std::fwrite(b.data(), 1, b.size(), f);
        b.clear();
    }
    void chunk()
    {
        if (f && b.size() >= kChunk)
            spill();
    }
    void put(const char *s) { b.append(s); }
    void putc(char c) { b.push_back(c); }
    void putf(const char *fmt, ...) __attribute__((format(printf, 2, 3)))
    {
        char t[256];
        va_list ap;
        va_start(ap, fmt);
        const int n = std::vsnprintf(t, sizeof(t), fmt, ap);
        va_end(ap);
        if (n < 0)
            return;
        if ((size_t)n < sizeof(t)) {
            b.append(t, (size_t)n);
            return;
        }
        std::string big((size_t)n + 1, '\0');
        va_start(ap, fmt);
        std::vsnprintf(&big[0], big.size(), fmt, ap);
        va_end(ap);
        b.append(big, 0, (size_t)n);
    }
    void num(double v)
    {
        chunk();
        char t[32];
        const int n = vq::format_17g(t, sizeof(t), v);
        b.append(t, (size_t)n);
    }
    void json_num(double v)
    {
        chunk();
        append_json_number(b, v);
    }
    void json_str(const std::string &s)
    {
        putc('"');
        for (unsigned char c : s) {
            if (c == '"' || c == '\\')
                putf("\\%c", c);
            else if (c < 0x20)
                putf("\\u%04x", c);
            else
                putc((char)c);
        }
        putc('"');
    }
    void xml(const std::string &s)
    {
        for (char c : s) {
            switch (c) {
            case '&': put("&amp;"); break;
            case '<': put("&lt;"); break;
            case '>': put("&gt;"); break;
            case '"': put("&quot;"); break;
            default: putc(c); break;
            }
        }
    }
};

/* fn(i, frame number, values) for every frame of the log, in order */
template <typename F> void each_frame(const LogTable &t, F &&fn)
{
    size_t i = 0;
    if (t.kept)
        t.kept->each([&](int64_t num, const double *v) { fn(i++, num, v); });
    for (size_t j = 0; j < t.frame_num.size(); j++)
        fn(i++, t.frame_num[j], t.values.data() + j * t.names.size());
}

void write_json(Out &o, const LogTable &t)
{
    const size_t nc = t.names.size();
    o.put("{\n  \"version\": ");
    o.json_str(t.version);
    o.putf(",\n  \"fps\": %.2f,\n", std::isfinite(t.fps) ? t.fps : 0.0);
    if (t.sections.size() > 1) {
        /* where the size or format changed: each section scored as a title of its own */
        o.put("  \"sections\": [");
        for (size_t i = 0; i < t.sections.size(); i++)
            o.putf("%s\n    { \"first_frame\": %lld, \"width\": %d, \"height\": %d, \"bitdepth\": %d }",
                   i ? "," : "", (long long)t.sections[i].first_frame, t.sections[i].width,
                   t.sections[i].height, t.sections[i].bitdepth);
        o.put("\n  ],\n");
    }
    if (t.piece) {
        o.putf("  \"piece\": { \"first_frame\": %lld, \"end_frame\": %lld, \"key\": ",
               (long long)t.piece_begin, (long long)t.piece_end);
        o.json_str(t.piece_key);
        o.put(" },\n");
    }
    o.put("  \"frames\": [");
    each_frame(t, [&](size_t i, int64_t num, const double *v) {
        o.putf("%s    {\n      \"frameNum\": %lld,\n      \"metrics\": {\n", i ? ",\n" : "\n", (long long)num);
        for (size_t k = 0; k < nc; k++) {
            o.put("        ");
            o.json_str(t.names[k]);
            o.put(": ");
            o.json_num(v[k]);
            o.put(k + 1 < nc ? ",\n" : "\n");
        }
        o.put("      }\n    }");
    });
    o.put("\n  ],\n  \"pooled_metrics\": {");
    for (size_t k = 0; k < t.pooled.size() && k < nc; k++) {
        o.put(k ? ",\n    " : "\n    ");
        o.json_str(t.names[k]);
        o.put(": {");
        for (int j = 0; j < 4; j++) {
            o.putf("%s      \"%s\": ", j ? ",\n" : "\n", pool_names[j]);
            o.json_num(pooled_value(t.pooled[k], j));
        }
        o.put("\n    }");
    }
    o.put("\n  },\n");
    if (t.segmented) {
        o.put("  \"segments\": [");
        for (size_t i = 0; i < t.segments.size(); i++) {
            const LogSegment &g = t.segments[i];
            o.putf("%s\n    {\n      \"first_frame\": %lld,\n      \"last_frame\": %lld,\n"
                   "      \"start_time\": ", i ? "," : "", (long long)g.first_frame, (long long)g.last_frame);
            o.json_num(g.start_time);
            o.put(",\n      \"end_time\": ");
            o.json_num(g.end_time);
            o.put(",\n      \"pooled_metrics\": {");
            for (size_t k = 0; k < g.pooled.size() && k < nc; k++) {
                o.put(k ? ",\n        " : "\n        ");
                o.json_str(t.names[k]);
                o.put(": {");
                for (int j = 0; j < 4; j++) {
                    o.putf("%s\"%s\": ", j ? ", " : "", pool_names[j]);
                    o.json_num(pooled_value(g.pooled[k], j));
                }
                o.put("}");
            }
            o.put("\n      }\n    }");
        }
        o.put("\n  ],\n");
    }
    if (!t.unpaired.empty()) {
        /* frames not scored: no reference frame of their time */
        o.put("  \"unpaired_frames\": [");
        for (size_t i = 0; i < t.unpaired.size(); i++) {
            o.put(i ? ",\n    { \"time\": " : "\n    { \"time\": ");
            o.json_num(t.unpaired[i].first);
            o.put(", \"reference_time\": ");
            o.json_num(t.unpaired[i].second);
            o.put(" }");
        }
        o.put("\n  ],\n");
    }
    o.put("  \"aggregate_metrics\": {");
    for (size_t i = 0; i < t.aggregate.size(); i++) {
        o.put("\n    ");
        o.json_str(t.aggregate[i].first);
        o.put(": ");
        o.json_num(t.aggregate[i].second);
        o.put(i + 1 < t.aggregate.size() ? "," : "");
    }
    o.put("\n  }\n}\n");
}

void write_xml(Out &o, const LogTable &t)
{
    const size_t nc = t.names.size();
    o.put("<VMAF version=\"");
    o.xml(t.version);
    o.put("\">\n");
    o.putf("  <params qualityWidth=\"%d\" qualityHeight=\"%d\" />\n", t.width, t.height);
    o.putf("  <fyi fps=\"%.2f\" />\n  <frames>\n", std::isfinite(t.fps) ? t.fps : 0.0);
    each_frame(t, [&](size_t, int64_t num, const double *v) {
        o.putf("    <frame frameNum=\"%lld\" ", (long long)num);
        for (size_t k = 0; k < nc; k++) {
            o.xml(t.names[k]);
            o.put("=\"");
            o.num(v[k]);
            o.put("\" ");
        }
        o.put("/>\n");
    });
    o.put("  </frames>\n");
    if (t.sections.size() > 1) {
        o.put("  <sections>\n");
        for (const LogSection &x : t.sections)
            o.putf("    <section first_frame=\"%lld\" width=\"%d\" height=\"%d\" bitdepth=\"%d\" />\n",
                   (long long)x.first_frame, x.width, x.height, x.bitdepth);
        o.put("  </sections>\n");
    }
    o.put("  <pooled_metrics>\n");
    for (size_t k = 0; k < t.pooled.size() && k < nc; k++) {
        o.put("    <metric name=\"");
        o.xml(t.names[k]);
        o.put("\" ");
        for (int j = 0; j < 4; j++) {
            o.putf("%s=\"", pool_names[j]);
            o.num(pooled_value(t.pooled[k], j));
            o.put("\" ");
        }
        o.put("/>\n");
    }
    o.put("  </pooled_metrics>\n");
    if (t.segmented) {
        o.put("  <segments>\n");
        for (const LogSegment &g : t.segments) {
            o.putf("    <segment first_frame=\"%lld\" last_frame=\"%lld\" start_time=\"",
                   (long long)g.first_frame, (long long)g.last_frame);
            o.num(g.start_time);
            o.put("\" end_time=\"");
            o.num(g.end_time);
            o.put("\">\n");
            for (size_t k = 0; k < g.pooled.size() && k < nc; k++) {
                o.put("      <metric name=\"");
                o.xml(t.names[k]);
                o.put("\" ");
                for (int j = 0; j < 4; j++) {
                    o.putf("%s=\"", pool_names[j]);
                    o.num(pooled_value(g.pooled[k], j));
                    o.put("\" ");
                }
                o.put("/>\n");
            }
            o.put("    </segment>\n");
        }
        o.put("  </segments>\n");
    }
    if (!t.unpaired.empty()) {
        o.put("  <unpaired_frames>\n");
        for (const std::pair<double, double> &u : t.unpaired) {
            o.put("    <frame time=\"");
            o.num(u.first);
            o.put("\" reference_time=\"");
            o.num(u.second);
            o.put("\" />\n");
        }
        o.put("  </unpaired_frames>\n");
    }
    o.put("  <aggregate_metrics ");
    for (const auto &a : t.aggregate) {
        o.xml(a.first);
        o.put("=\"");
        o.num(a.second);
        o.put("\" ");
    }
    o.put("/>\n</VMAF>\n");
}

/* libvmaf's CSV: a header, one line per frame, no pooled values */
void write_csv(Out &o, const LogTable &t)
{
    const size_t nc = t.names.size();
    o.put("Frame,");
    for (const std::string &n : t.names) {
        o.put(n.c_str());
        o.put(",");
    }
    o.put("\n");
    each_frame(t, [&](size_t, int64_t num, const double *v) {
        o.putf("%lld,", (long long)num);
        for (size_t k = 0; k < nc; k++) {
            o.num(v[k]);
            o.put(",");
        }
        o.put("\n");
    });
}

/* libvmaf's subtitle-like lines: {i}{i+1}frame: i|name: value|... */
void write_sub(Out &o, const LogTable &t)
{
    const size_t nc = t.names.size();
    each_frame(t, [&](size_t, int64_t num, const double *v) {
        const long long n = (long long)num;
        o.putf("{%lld}{%lld}frame: %lld|", n, n + 1, n);
        for (size_t k = 0; k < nc; k++) {
            o.put(t.names[k].c_str());
            o.put(": ");
            o.num(v[k]);
            o.put("|");
        }
        o.put("\n");
    });
}

[[noreturn]] void io_fail(const std::string &path, int err)
{
    fail(VQ_EIO, "cannot write log '%s': %s", path.c_str(), std::strerror(err));
}


/* the segments as CSV rows */
void write_seg_csv(Out &o, const LogTable &t)
{
    o.put("first_frame,last_frame,start_time,end_time");
    for (const std::string &n : t.names)
        for (const char *p : pool_names)
            o.putf(",%s.%s", n.c_str(), p);
    o.put("\n");
    for (const LogSegment &g : t.segments) {
        o.putf("%lld,%lld,", (long long)g.first_frame, (long long)g.last_frame);
        o.num(g.start_time);
        o.put(",");
        o.num(g.end_time);
        for (size_t k = 0; k < g.pooled.size(); k++)
            for (int j = 0; j < 4; j++) {
                o.put(",");
                o.num(pooled_value(g.pooled[k], j));
            }
        o.put("\n");
    }
}

void write_file(const std::string &path, const LogTable &t, void (*body)(Out &, const LogTable &));

}  // namespace

void write_segments_csv(const std::string &path, const LogTable &t)
{
    write_file(path, t, write_seg_csv);
}

void write_log(const std::string &path, VqLogFormat fmt, const LogTable &t)
{
    if (fmt == VQ_LOG_AUTO) {
        const size_t dot = path.rfind('.'), slash = path.rfind('/');
        std::string ext = dot == std::string::npos || (slash != std::string::npos && slash > dot) ? ""
                                                                                                  : path.substr(dot);
        for (char &c : ext)
            c = (char)std::tolower((unsigned char)c);
        fmt = ext == ".json" ? VQ_LOG_JSON : ext == ".csv" ? VQ_LOG_CSV : VQ_LOG_XML;
    }
    if (fmt != VQ_LOG_JSON && fmt != VQ_LOG_XML && fmt != VQ_LOG_CSV && fmt != VQ_LOG_SUB)
        fail(VQ_EINVAL, "unknown log format %d", (int)fmt);
    write_file(path, t, fmt == VQ_LOG_JSON ? write_json : fmt == VQ_LOG_XML ? write_xml
                        : fmt == VQ_LOG_CSV ? write_csv : write_sub);
}

namespace {

void write_file(const std::string &path, const LogTable &t, void (*body)(Out &, const LogTable &))
{
    const LogTarget target = log_target(path);
    const bool in_place = target.in_place;
    std::string tmp = target.tmp;
    int fd = -1;
    if (!in_place) {
        fd = mkstemp(&tmp[0]);
        if (fd < 0)
            io_fail(path, errno);
        /* the permissions a plain fopen would give (mkstemp makes 0600) */
        const mode_t um = umask(0);
        umask(um);
        fchmod(fd, 0666 & ~um);
    }
    FILE *f = in_place ? std::fopen(target.path.c_str(), "w") : fdopen(fd, "w");
    if (!f) {
        const int e = errno;
        if (!in_place) {
            close(fd);
            unlink(tmp.c_str());
        }
        io_fail(path, e);
    }
    Out o;
    o.f = f;
    errno = 0;
    {
        CLocale c;
        body(o, t);
    }
    o.spill();
    int err = 0;
    if (std::fflush(f) != 0 || std::ferror(f))
        err = errno ? errno : EIO;
    if (!err && !in_place && fsync(fileno(f)) != 0)
        err = errno;
    if (std::fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    if (!err && !in_place && std::rename(tmp.c_str(), target.path.c_str()) != 0)
        err = errno;
    if (err) {
        if (!in_place)
            unlink(tmp.c_str());
        io_fail(path, err);
    }
}

}  // namespace

}  // namespace vq
