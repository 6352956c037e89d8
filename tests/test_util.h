/*
 * test_util.h - the small helpers the unit tests share: a file's bytes,
 * a directory named by the environment, whether a file is there.
 */
#ifndef VQ_TEST_UTIL_H
#define VQ_TEST_UTIL_H

#include <cstdio>
#include <cstdlib>
#include <string>

namespace vq_test {

/* the file's bytes into *text; false (text cleared) when it cannot be opened */
inline bool read_file(const std::string &path, std::string *text)
{
    text->clear();
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return false;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
        text->append(buf, n);
    std::fclose(f);
    return true;
}

/* the file's bytes; "" when it cannot be opened */
inline std::string slurp(const std::string &path)
{
    std::string text;
    read_file(path, &text);
    return text;
}

/* the environment variable's value; "" when unset or empty */
inline std::string env_dir(const char *var)
{
    const char *v = std::getenv(var);
    return v && *v ? std::string(v) : std::string();
}

/* whether the file can be opened for reading */
inline bool file_exists(const std::string &path)
{
    FILE *f = path.empty() ? nullptr : std::fopen(path.c_str(), "rb");
    if (f)
        std::fclose(f);
    return f != nullptr;
}

}  // namespace vq_test

#endif /* VQ_TEST_UTIL_H */
