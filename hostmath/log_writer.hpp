/*
 * log_writer.hpp - libvmaf's log files (output.c: JSON, XML, CSV, SUB), laid
 * out as libvmaf lays them out, except that every number is written "%.17g"
 * (libvmaf: %.6f / %.16f), so that reading it back gives the identical
 * double.  JSON writes NaN and infinities as null, as libvmaf does.
 *
 * The file is written beside its path and renamed into place, so that a
 * failed or interrupted write never leaves a truncated log where a good
 * one was; a path that is not a regular file (a FIFO, /dev/stdout) is
 * written in place.
 */
#ifndef VQ_LOG_WRITER_HPP
#define VQ_LOG_WRITER_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "frame_log.hpp"
#include "pool.hpp"
#include "vqcuda.h"

namespace vq {

struct LogSection {
    int64_t first_frame;
    int width, height, bitdepth;
};

struct LogSegment {
    int64_t first_frame, last_frame;
    double start_time, end_time;        /* seconds; NaN when unknown */
    std::vector<Pooled> pooled;         /* one per column */
};

struct LogTable {
    std::string version;
    double fps = 0;
    int width = 0, height = 0;
    std::vector<std::string> names;         /* columns, in log order */
    /* the frames: kept's records (may be null), then frame_num/values' */
    const FrameLog *kept = nullptr;
    std::vector<int64_t> frame_num;         /* one per frame */
    std::vector<double> values;             /* frames x columns, row-major */
    size_t frames() const { return (kept ? kept->size() : 0) + frame_num.size(); }
    std::vector<Pooled> pooled;             /* one per column, or empty */
    /* libvmaf's aggregate_metrics (JSON, XML): name, value (psnr's apsnr_*) */
    std::vector<std::pair<std::string, double>> aggregate;
    std::vector<LogSection> sections;       /* written (JSON, XML) when more than one */
    bool segmented = false;                 /* write "segments" (JSON, XML) */
    std::vector<LogSegment> segments;
    /* distorted frames passed on unscored: their time and the time of the
     * reference frame they met (NaN: none), seconds; written (JSON, XML) when any */
    std::vector<std::pair<double, double>> unpaired;
    /* a piece of a title (score_frames): its range and what must match to merge */
    bool piece = false;
    int64_t piece_begin = 0, piece_end = 0;
    std::string piece_key;
};

/* v as printf's "%.17g" writes it in the C locale, into buf (not
 * terminated); returns the length.  32 bytes are always enough. */
int format_17g(char *buf, size_t size, double v);
/* v as a JSON number (format_17g), or null where it is not finite,
 * appended to o: the logs' and the live stream's records */
void append_json_number(std::string &o, double v);

/* Throws vq::Error(VQ_EIO-like VQ_EINVAL) naming the path and the errno text. */
void write_log(const std::string &path, VqLogFormat fmt, const LogTable &t);
/* The segments alone as CSV (first_frame,last_frame,start_time,end_time,
 * then name.min,name.max,name.mean,name.harmonic_mean per column). */
void write_segments_csv(const std::string &path, const LogTable &t);

}  // namespace vq

#endif /* VQ_LOG_WRITER_HPP */
