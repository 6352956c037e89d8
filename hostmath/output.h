/*
 * output.h - libvmaf's log files (output.c: JSON, XML, CSV), laid out as
 * libvmaf lays them out, except that every number is written "%.17g", so
 * that reading it back gives the identical double (libvmaf writes %.6f or
 * %.16f).  JSON writes NaN and infinities as null, as libvmaf does.
 * Independent of the session: it writes a table it is given.
 */
#ifndef VQ_OUTPUT_H
#define VQ_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pool.h"
#include "vqcuda.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VqLogData {
    const char *version;        /* "version" (JSON), <VMAF version=..> (XML) */
    double fps;                 /* "fps" / <fyi fps=..>: %.2f, as libvmaf */
    int width, height;          /* XML <params qualityWidth/qualityHeight> */
    int n_features;
    size_t n_frames;
    const char **names;         /* n_features printed names, in column order */
    int64_t *frame_num;         /* n_frames frame numbers */
    double *values;             /* n_frames x n_features, row-major */
    const unsigned char *written;   /* NULL: every value; else n_frames x n_features flags */
    VqPooled *pooled;           /* n_features, or NULL: no pooled metrics */
    int n_aggregate;            /* "aggregate_metrics" entries */
    const char **aggregate_names;
    const double *aggregate_values;
} VqLogData;

/* 0, or -1 (errno says why: EINVAL for bad arguments, or the I/O error) */
int vq_log_write_json(FILE *f, const VqLogData *d);
int vq_log_write_xml(FILE *f, const VqLogData *d);
int vq_log_write_csv(FILE *f, const VqLogData *d);
int vq_log_write(const char *path, enum VqLogFormat fmt, const VqLogData *d);

#ifdef __cplusplus
}
#endif
#endif /* VQ_OUTPUT_H */
