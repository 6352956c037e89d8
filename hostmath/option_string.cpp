/* option_string.cpp - see option_string.hpp. */
#include "option_string.hpp"

#include "vq_error.h"

namespace vq {

namespace {

/* split at unescaped `sep`, keeping escapes for the next level */
std::vector<std::string> split(std::string_view s, char sep)
{
    std::vector<std::string> out(1);
    for (size_t i = 0; i < s.size(); i++) {
        if (s[i] == '\\' && i + 1 < s.size()) {
            out.back() += s[i];
            out.back() += s[++i];
        } else if (s[i] == sep) {
            out.emplace_back();
        } else {
            out.back() += s[i];
        }
    }
    return out;
}

std::string unescape(std::string_view s)
{
    std::string out;
    for (size_t i = 0; i < s.size(); i++)
        out += (s[i] == '\\' && i + 1 < s.size()) ? s[++i] : s[i];
    return out;
}

}  // namespace

std::vector<KeyValues> parse_option_sets(std::string_view text, const char *what)
{
    std::vector<KeyValues> sets;
    for (const std::string &set : split(text, '|')) {
        KeyValues kv;
        for (const std::string &pair : split(set, ':')) {
            if (pair.empty())
                continue;
            std::vector<std::string> p = split(pair, '=');
            std::string key = unescape(p[0]);
            std::string value = p.size() > 1 ? unescape(pair.substr(p[0].size() + 1)) : "true";
            if (key.empty())
                fail(VQ_EINVAL, "%s '%.*s': a value without a key", what, (int)text.size(), text.data());
            kv.emplace_back(std::move(key), std::move(value));
        }
        if (kv.empty())
            fail(VQ_EINVAL, "%s '%.*s': an empty entry between '|'", what, (int)text.size(), text.data());
        sets.push_back(std::move(kv));
    }
    return sets;
}

}  // namespace vq
