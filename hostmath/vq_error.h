/*
 * vq_error.h - the one error domain inside libvqcuda's C++ code.
 *
 * Everything below the C API throws vq::Error (a VqError code and a message
 * that names the cause); each extern "C" entry point catches it, keeps the
 * message for vq_session_error() and returns the code.  CUDA failures are
 * turned into VQ_ECUDA with the CUDA error's name at the call that failed.
 */
#ifndef VQ_ERROR_H
#define VQ_ERROR_H

#include <cstdarg>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include "vqcuda.h"

namespace vq {

class Error : public std::runtime_error {
public:
    Error(int code, const std::string &msg) : std::runtime_error(msg), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

/* the standard attribute first: Clang takes no [[...]] after a GNU one */
[[noreturn]]
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
inline void fail(int code, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    throw Error(code, buf);
}

/* The extern "C" functions' guard: fn(), and what it throws as a VQ_E* code,
 * its message kept in err after prefix (a ladder's "rendition k: "). */
template <typename F> int guard(std::string &err, const std::string &prefix, F &&fn)
{
    try {
        fn();
        return VQ_OK;
    } catch (const Error &e) {
        err = prefix + e.what();
        return e.code();
    } catch (const std::bad_alloc &) {
        err = prefix + "out of memory";
        return VQ_ENOMEM;
    } catch (const std::exception &e) {
        err = prefix + e.what();
        return VQ_EINVAL;
    }
}

}  // namespace vq

#endif /* VQ_ERROR_H */
