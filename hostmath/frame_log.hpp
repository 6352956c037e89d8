/*
 * frame_log.hpp - the values of every frame a session has given out, kept
 * for its per-frame log (VqConfig.keep_frames) without holding them in
 * memory: records (the title frame number, then the columns' values) are
 * gathered in memory up to a few megabytes and then appended to an
 * unnamed temporary file (in $TMPDIR, else /tmp; unlinked at once, so it is
 * gone with the process).  If that file cannot be made or written, the
 * records stay in memory instead: a score is never lost for want of disk.
 * Read back in order, at the log's writing.  Used from one thread.
 */
#ifndef VQ_FRAME_LOG_HPP
#define VQ_FRAME_LOG_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vq {

class FrameLog {
public:
    /* spill_bytes: the memory gathered before it goes to the file */
    FrameLog(size_t columns, size_t spill_bytes);
    ~FrameLog();
    FrameLog(const FrameLog &) = delete;
    FrameLog &operator=(const FrameLog &) = delete;

    void add(int64_t frame, const double *values);
    size_t size() const { return n_file_ + n_mem_; }
    size_t on_disk() const { return n_file_; }
    /* why records stay in memory (empty: they do not) */
    const std::string &disk_error() const { return disk_error_; }
    /* fn(frame, values) for every record, in order; throws vq::Error
     * (VQ_EIO) when the file cannot be read back */
    void each(const std::function<void(int64_t, const double *)> &fn) const;

private:
    void spill();
    size_t cols_, rec_, spill_bytes_;
    std::vector<unsigned char> mem_;
    size_t n_mem_ = 0, n_file_ = 0;
    int fd_ = -1;
    std::string disk_error_;
};

}  // namespace vq

#endif /* VQ_FRAME_LOG_HPP */
