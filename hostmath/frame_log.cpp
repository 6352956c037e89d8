/* frame_log.cpp - see frame_log.hpp. */
#include "frame_log.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include "vq_error.h"

namespace vq {

FrameLog::FrameLog(size_t columns, size_t spill_bytes)
    : cols_(columns), rec_(sizeof(int64_t) + columns * sizeof(double)),
      spill_bytes_(spill_bytes < rec_ ? rec_ : spill_bytes)
{
}

FrameLog::~FrameLog()
{
    if (fd_ >= 0)
        close(fd_);
}

void FrameLog::add(int64_t frame, const double *values)
{
    const size_t at = mem_.size();
    mem_.resize(at + rec_);
    std::memcpy(&mem_[at], &frame, sizeof(frame));
    if (cols_)
        std::memcpy(&mem_[at + sizeof(frame)], values, cols_ * sizeof(double));
    n_mem_++;
    if (mem_.size() >= spill_bytes_ && disk_error_.empty())
        spill();
}

/* the gathered records to the end of the file (made at the first spill);
 * on any failure they stay where they are, and so do the later ones */
void FrameLog::spill()
{
    if (fd_ < 0) {
        const char *dir = std::getenv("TMPDIR");
        std::string path = std::string(dir && *dir ? dir : "/tmp") + "/vqcuda-frames-XXXXXX";
        fd_ = mkostemp(&path[0], O_CLOEXEC);    /* not inherited by a child process */
        if (fd_ < 0) {
            disk_error_ = path + ": " + std::strerror(errno);
            return;
        }
        unlink(path.c_str());
    }
    const off_t at = (off_t)(n_file_ * rec_);
    size_t done = 0;
    while (done < mem_.size()) {
        const ssize_t w = pwrite(fd_, mem_.data() + done, mem_.size() - done, at + (off_t)done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            disk_error_ = std::string("temporary file: ") + (w < 0 ? std::strerror(errno) : "no room");
            return;     /* what was written past n_file_ records is never read */
        }
        done += (size_t)w;
    }
    n_file_ += n_mem_;
    n_mem_ = 0;
    mem_.clear();
}

void FrameLog::each(const std::function<void(int64_t, const double *)> &fn) const
{
    std::vector<unsigned char> buf;
    std::vector<double> v(cols_);
    auto record = [&](const unsigned char *p) {
        int64_t frame;
        std::memcpy(&frame, p, sizeof(frame));
        if (cols_)
            std::memcpy(v.data(), p + sizeof(frame), cols_ * sizeof(double));
        fn(frame, v.data());
    };
    const size_t per_read = spill_bytes_ / rec_ ? spill_bytes_ / rec_ : 1;
    for (size_t r = 0; r < n_file_;) {
        const size_t n = n_file_ - r < per_read ? n_file_ - r : per_read;
        buf.resize(n * rec_);
        size_t got = 0;
        while (got < buf.size()) {
            const ssize_t k = pread(fd_, buf.data() + got, buf.size() - got, (off_t)((r * rec_) + got));
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                fail(VQ_EIO, "cannot read back the frames' values kept for the log: %s",
                     k < 0 ? std::strerror(errno) : "the temporary file is shorter than written");
            got += (size_t)k;
        }
        for (size_t i = 0; i < n; i++)
            record(&buf[i * rec_]);
        r += n;
    }
    for (size_t i = 0; i < n_mem_; i++)
        record(&mem_[i * rec_]);
}

}  // namespace vq
