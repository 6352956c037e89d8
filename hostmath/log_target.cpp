/* log_target.cpp - see log_target.hpp. */
#include "log_target.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <vector>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "vq_error.h"
#include "vqcuda.h"

namespace vq {

namespace {

[[noreturn]] void refuse(const std::string &path, const char *why)
{
    fail(VQ_EIO, "cannot write log '%s': %s", path.c_str(), why);
}

[[noreturn]] void refuse_errno(const std::string &path, int err)
{
    refuse(path, std::strerror(err));
}

std::string dir_of(const std::string &p)
{
    const size_t s = p.rfind('/');
    if (s == std::string::npos)
        return ".";
    return s ? p.substr(0, s) : "/";
}

std::string base_of(const std::string &p)
{
    const size_t s = p.rfind('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}

/* the path with its symbolic links followed (a dangling one: its target) */
std::string follow_links(const std::string &path)
{
    std::string p = path;
    for (int hops = 0;; hops++) {
        struct stat st;
        if (lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            return p;
        if (hops == 40)
            refuse_errno(path, ELOOP);
        char buf[PATH_MAX];
        const ssize_t n = readlink(p.c_str(), buf, sizeof(buf) - 1);
        if (n < 0)
            refuse_errno(path, errno);
        const std::string t(buf, (size_t)n);
        p = t[0] == '/' ? t : dir_of(p) + "/" + t;
    }
}

/* kernel interfaces, whose files take writes of their own kind only */
bool pseudo_fs(const std::string &p)
{
    struct statfs f;
    if (statfs(p.c_str(), &f) != 0)
        return false;
    switch ((unsigned long)f.f_type) {
    case 0x9fa0:        /* proc */
    case 0x62656572:    /* sysfs */
    case 0x64626720:    /* debugfs */
    case 0x73636673:    /* securityfs */
    case 0x27e0eb:      /* cgroup */
    case 0x63677270:    /* cgroup2 */
    case 0x74726163:    /* tracefs */
        return true;
    default:
        return false;
    }
}

}  // namespace

LogTarget log_target(const std::string &path)
{
    if (path.empty())
        refuse(path, "empty path");
    LogTarget t;
    t.path = follow_links(path);
    const std::string dir = dir_of(t.path);
    struct stat st;
    const bool exists = stat(t.path.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        refuse(path, "it is a directory");
    if (pseudo_fs(exists ? t.path : dir))
        refuse(path, "it is on a kernel file system (/proc, /sys, ...), not a place for a log");
    if (exists && !S_ISREG(st.st_mode)) {   /* a FIFO, /dev/stdout, /dev/null */
        if (access(t.path.c_str(), W_OK) != 0)
            refuse_errno(path, errno);
        t.in_place = true;
        return t;
    }
    if (exists && access(t.path.c_str(), W_OK) != 0)
        refuse_errno(path, errno);
    if (access(dir.c_str(), W_OK | X_OK) != 0) {
        const int e = errno;
        if (!exists)
            refuse_errno(path, e);
        t.in_place = true;      /* a log we may write in a directory we may not */
        return t;
    }
    /* beside it, hidden, within NAME_MAX: "." + at most 200 bytes of the name + ".XXXXXX" */
    t.tmp = (dir == "/" ? "" : dir) + "/." + base_of(t.path).substr(0, 200) + ".XXXXXX";
    return t;
}

void log_target_check(const std::string &path)
{
    const LogTarget t = log_target(path);
    if (t.in_place) {
        struct stat st;
        if (stat(t.path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode))
            return;     /* its reader may come later: opening would wait for it */
        const int fd = open(t.path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
            refuse_errno(path, errno);
        close(fd);
        return;
    }
    std::string tmp = t.tmp;
    const int fd = mkstemp(&tmp[0]);
    if (fd < 0)
        refuse_errno(path, errno);
    close(fd);
    unlink(tmp.c_str());
}

namespace {

/* the regular file's identity, links followed (one still to be made: its
 * directory's and its name); "" for what is not a regular file (/dev/null,
 * a FIFO, a terminal: written in place, nothing there to replace) or a path
 * whose directory is not there */
std::string identity(const std::string &path)
{
    std::string p;
    try {
        p = follow_links(path);
    } catch (const Error &) {
        p = path;
    }
    struct stat st;
    if (stat(p.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return "";
        return "f" + std::to_string((unsigned long long)st.st_dev) + ":" + std::to_string((unsigned long long)st.st_ino);
    }
    if (stat(dir_of(p).c_str(), &st) == 0)
        return "d" + std::to_string((unsigned long long)st.st_dev) + ":" + std::to_string((unsigned long long)st.st_ino) +
               "/" + base_of(p);
    return "";
}

}  // namespace

bool log_target_same(const std::string &a, const std::string &b)
{
    const std::string x = identity(a), y = identity(b);
    return !x.empty() && x == y;
}

bool log_target_remove(const std::string &path)
{
    std::string p;
    try {
        p = follow_links(path);
    } catch (const Error &) {
        return false;
    }
    struct stat st;
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && unlink(p.c_str()) == 0;
}

namespace {

struct Claim {
    const void *owner;
    std::string what, path;
};

std::mutex claims_lock;
std::vector<Claim> claims;

}  // namespace

void output_claim(const void *owner, const std::string &kind, const std::string &what, const std::string &path)
{
    std::lock_guard<std::mutex> lock(claims_lock);
    for (const Claim &c : claims) {
        if (!log_target_same(c.path, path))
            continue;
        if (c.owner == owner)
            fail(VQ_EINVAL, "%s %s and %s %s name one file: each output needs its own", c.what.c_str(),
                 c.path.c_str(), what.c_str(), path.c_str());
        fail(VQ_EINVAL, "%s %s: another %s of this process writes that file (its %s %s): each needs its own",
             what.c_str(), path.c_str(), kind.c_str(), c.what.c_str(), c.path.c_str());
    }
    claims.push_back(Claim{owner, what, path});
}

void output_release(const void *owner)
{
    /* allocates nothing: no exception leaves it (vq_output_release) */
    std::lock_guard<std::mutex> lock(claims_lock);
    claims.erase(std::remove_if(claims.begin(), claims.end(), [owner](const Claim &c) { return c.owner == owner; }),
                 claims.end());
}

std::vector<OutputFile> output_files(int n, const char *log_path, const char *segment_path,
                                     const char *stream_path)
{
    const struct {
        const char *what, *tmpl;
    } per[2] = {{"log_path", log_path}, {"segment_path", segment_path}};
    std::vector<OutputFile> files;
    char p[4096];

    if (n < 1 || n > VQ_LADDER_MAX)
        fail(VQ_EINVAL, "%d renditions: a run scores 1 to %d", n, VQ_LADDER_MAX);
    if (segment_path && !log_path)
        fail(VQ_EINVAL, "segment_path needs log_path (the segments are kept with the log)");
    for (const auto &t : per)
        if (t.tmpl && n > 1 && !std::strstr(t.tmpl, "%d"))
            fail(VQ_EINVAL, "%d renditions: %s needs a %%d (the rendition's number, from 1) to give "
                 "each its own file", n, t.what);
    for (const auto &t : per)
        for (int k = 0; t.tmpl && k < n; k++) {
            if (vq_ladder_path(t.tmpl, k, p, sizeof(p)) < 0)
                fail(VQ_EINVAL, "%s is too long", t.what);
            files.push_back(OutputFile{t.what, p, true});
        }
    if (stream_path) {
        if (std::strlen(stream_path) >= sizeof(p))
            fail(VQ_EINVAL, "stream_path is too long");
        files.push_back(OutputFile{"stream_path", stream_path, false});
    }
    return files;
}

}  // namespace vq
