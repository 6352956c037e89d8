/* output.c - libvmaf's log layouts with exact numbers; see output.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "c_locale.h"
#include "output.h"

static const char *const pool_names[4] = { "min", "max", "mean", "harmonic_mean" };

static double pooled_value(const VqPooled *p, int j)
{
    return j == 0 ? p->min : j == 1 ? p->max : j == 2 ? p->mean : p->harmonic_mean;
}

/* "%.17g" in the C locale: reads back as the same double */
static const char *num(char *buf, size_t n, double v)
{
    vq_snprintf_c(buf, n, "%.17g", v);
    return buf;
}

static const char *json_num(char *buf, size_t n, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, n, "null");
        return buf;
    }
    return num(buf, n, v);
}

static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void put_xml_attr(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f); break;
        }
    }
}

static int is_written(const VqLogData *d, size_t i, int k)
{
    return !d->written || d->written[i * (size_t)d->n_features + (size_t)k];
}

static int frame_has_values(const VqLogData *d, size_t i)
{
    int k;
    for (k = 0; k < d->n_features; k++)
        if (is_written(d, i, k))
            return 1;
    return 0;
}

static int check(const VqLogData *d, FILE *f)
{
    if (!d || !f || d->n_features < 0 || (d->n_features && !d->names) ||
        (d->n_frames && (!d->frame_num || (d->n_features && !d->values))) ||
        (d->n_aggregate > 0 && (!d->aggregate_names || !d->aggregate_values))) {
        errno = EINVAL;
        return -1;
    }
    return 0;
}

static int finish(FILE *f)
{
    if (ferror(f)) {
        if (!errno)
            errno = EIO;
        return -1;
    }
    return 0;
}

int vq_log_write_json(FILE *f, const VqLogData *d)
{
    char b[64];
    size_t i;
    int k, first = 1;

    if (check(d, f) < 0)
        return -1;
    fprintf(f, "{\n  \"version\": ");
    put_json_string(f, d->version ? d->version : "");
    if (isfinite(d->fps)) {
        vq_snprintf_c(b, sizeof(b), "%.2f", d->fps);
        fprintf(f, ",\n  \"fps\": %s,\n", b);
    } else {
        fprintf(f, ",\n  \"fps\": null,\n");
    }

    fprintf(f, "  \"frames\": [");
    for (i = 0; i < d->n_frames; i++) {
        int cnt = 0, cnt2 = 0;
        if (!frame_has_values(d, i))
            continue;
        for (k = 0; k < d->n_features; k++)
            cnt += is_written(d, i, k);
        fprintf(f, "%s", first ? "\n" : ",\n");
        first = 0;
        fprintf(f, "    {\n      \"frameNum\": %lld,\n      \"metrics\": {\n", (long long)d->frame_num[i]);
        for (k = 0; k < d->n_features; k++) {
            if (!is_written(d, i, k))
                continue;
            cnt2++;
            fprintf(f, "        ");
            put_json_string(f, d->names[k]);
            fprintf(f, ": %s%s\n", json_num(b, sizeof(b), d->values[i * (size_t)d->n_features + k]),
                    cnt2 < cnt ? "," : "");
        }
        fprintf(f, "      }\n    }");
    }
    fprintf(f, "\n  ],\n");

    fprintf(f, "  \"pooled_metrics\": {");
    for (k = 0; d->pooled && k < d->n_features; k++) {
        int j;
        fprintf(f, "%s", k > 0 ? ",\n" : "\n");
        fprintf(f, "    ");
        put_json_string(f, d->names[k]);
        fprintf(f, ": {");
        for (j = 0; j < 4; j++)
            fprintf(f, "%s      \"%s\": %s", j > 0 ? ",\n" : "\n", pool_names[j],
                    json_num(b, sizeof(b), pooled_value(&d->pooled[k], j)));
        fprintf(f, "\n    }");
    }
    fprintf(f, "\n  },\n");

    fprintf(f, "  \"aggregate_metrics\": {");
    for (k = 0; k < d->n_aggregate; k++) {
        fprintf(f, "\n    ");
        put_json_string(f, d->aggregate_names[k]);
        fprintf(f, ": %s%s", json_num(b, sizeof(b), d->aggregate_values[k]),
                k < d->n_aggregate - 1 ? "," : "");
    }
    fprintf(f, "\n  }\n}\n");
    return finish(f);
}

int vq_log_write_xml(FILE *f, const VqLogData *d)
{
    char b[64];
    size_t i;
    int k;

    if (check(d, f) < 0)
        return -1;
    fprintf(f, "<VMAF version=\"");
    put_xml_attr(f, d->version ? d->version : "");
    fprintf(f, "\">\n");
    fprintf(f, "  <params qualityWidth=\"%d\" qualityHeight=\"%d\" />\n", d->width, d->height);
    vq_snprintf_c(b, sizeof(b), "%.2f", d->fps);
    fprintf(f, "  <fyi fps=\"%s\" />\n", b);

    fprintf(f, "  <frames>\n");
    for (i = 0; i < d->n_frames; i++) {
        if (!frame_has_values(d, i))
            continue;
        fprintf(f, "    <frame frameNum=\"%lld\" ", (long long)d->frame_num[i]);
        for (k = 0; k < d->n_features; k++) {
            if (!is_written(d, i, k))
                continue;
            put_xml_attr(f, d->names[k]);
            fprintf(f, "=\"%s\" ", num(b, sizeof(b), d->values[i * (size_t)d->n_features + k]));
        }
        fprintf(f, "/>\n");
    }
    fprintf(f, "  </frames>\n");

    fprintf(f, "  <pooled_metrics>\n");
    for (k = 0; d->pooled && k < d->n_features; k++) {
        int j;
        fprintf(f, "    <metric name=\"");
        put_xml_attr(f, d->names[k]);
        fprintf(f, "\" ");
        for (j = 0; j < 4; j++)
            fprintf(f, "%s=\"%s\" ", pool_names[j], num(b, sizeof(b), pooled_value(&d->pooled[k], j)));
        fprintf(f, "/>\n");
    }
    fprintf(f, "  </pooled_metrics>\n");

    fprintf(f, "  <aggregate_metrics ");
    for (k = 0; k < d->n_aggregate; k++) {
        put_xml_attr(f, d->aggregate_names[k]);
        fprintf(f, "=\"%s\" ", num(b, sizeof(b), d->aggregate_values[k]));
    }
    fprintf(f, "/>\n</VMAF>\n");
    return finish(f);
}

/* libvmaf's CSV has no pooled values.  An unwritten value is an empty field
 * here (libvmaf leaves it out, which shifts the columns after it). */
int vq_log_write_csv(FILE *f, const VqLogData *d)
{
    char b[64];
    size_t i;
    int k;

    if (check(d, f) < 0)
        return -1;
    fprintf(f, "Frame,");
    for (k = 0; k < d->n_features; k++)
        fprintf(f, "%s,", d->names[k]);
    fprintf(f, "\n");
    for (i = 0; i < d->n_frames; i++) {
        if (!frame_has_values(d, i))
            continue;
        fprintf(f, "%lld,", (long long)d->frame_num[i]);
        for (k = 0; k < d->n_features; k++) {
            if (is_written(d, i, k))
                fputs(num(b, sizeof(b), d->values[i * (size_t)d->n_features + k]), f);
            fputc(',', f);
        }
        fprintf(f, "\n");
    }
    return finish(f);
}

int vq_log_write(const char *path, enum VqLogFormat fmt, const VqLogData *d)
{
    FILE *f;
    int ret, saved;
    if (!path || (fmt != VQ_LOG_JSON && fmt != VQ_LOG_XML && fmt != VQ_LOG_CSV)) {
        errno = EINVAL;
        return -1;
    }
    f = fopen(path, "w");
    if (!f)
        return -1;
    errno = 0;
    ret = fmt == VQ_LOG_JSON ? vq_log_write_json(f, d)
        : fmt == VQ_LOG_XML ? vq_log_write_xml(f, d) : vq_log_write_csv(f, d);
    saved = errno;
    if (fclose(f) != 0 && ret == 0)
        return -1;
    errno = saved;
    return ret;
}
