/*
 * log_target.hpp - where a log (or the segments' CSV) is written, decided
 * once for the start check and for the write itself, so that the check
 * proves what the end will do:
 * - a symbolic link is followed to its target (the link stays a link);
 * - a directory, or a file on /proc, /sys and the like, is refused;
 * - a path that is not a regular file (a FIFO, /dev/stdout, /dev/null) is
 *   written in place;
 * - otherwise the log is written beside its target, under a temporary name
 *   that fits NAME_MAX, and renamed into place (an old log is replaced only
 *   by a complete one); where that directory cannot be written but the
 *   target can, it is written in place, as libvmaf does.
 */
#ifndef VQ_LOG_TARGET_HPP
#define VQ_LOG_TARGET_HPP

#include <string>
#include <vector>

namespace vq {

struct LogTarget {
    std::string path;       /* the file written: the path, its links followed */
    bool in_place = false;  /* opened and truncated where it is */
    std::string tmp;        /* rename mode: the template beside it (mkstemp's XXXXXX) */
};

/* Throws vq::Error(VQ_EIO) naming the path and the cause. */
LogTarget log_target(const std::string &path);
/* Does what writing will do short of writing: creates and removes the
 * temporary file, or opens the file in place without truncating it. */
void log_target_check(const std::string &path);
/* Removes the file a log at path would be (links followed; regular files
 * only); true when there was one. */
bool log_target_remove(const std::string &path);
/* Whether two paths name one regular file, links followed: an existing one
 * by its device and inode, one still to be made by its directory's and its
 * name.  Not a regular file (/dev/null, a FIFO): false. */
bool log_target_same(const std::string &a, const std::string &b);

/* The files the process's live outputs write (vq_output_claim): output
 * `what` of `owner` claims `path`; throws vq::Error(VQ_EINVAL) where an
 * earlier output of the owner, or another owner's ("another <kind> of this
 * process"), claimed that file (log_target_same).  release: every claim of
 * the owner.  Thread-safe. */
void output_claim(const void *owner, const std::string &kind, const std::string &what, const std::string &path);
void output_release(const void *owner);

/* The files of a run of n renditions (vq_ladder_claim_outputs): log_path
 * and segment_path per rendition (their %d its number, from 1), then
 * stream_path; a NULL template gives none.  Throws vq::Error(VQ_EINVAL)
 * where the templates break a rule: segment_path without log_path, a
 * ladder's template without %d, a path of 4096 bytes or more. */
struct OutputFile {
    const char *what;   /* the option's name */
    std::string path;
    bool log;           /* a log or segments file (not the live output) */
};
std::vector<OutputFile> output_files(int n, const char *log_path, const char *segment_path,
                                     const char *stream_path);

}  // namespace vq

#endif /* VQ_LOG_TARGET_HPP */
