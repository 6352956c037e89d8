/*
 * option_string.hpp - libvmaf's filter syntax for lists of key=value sets,
 * as FFmpeg's libvmaf filter reads `model=` and `feature=`:
 *     "version=vmaf_v0.6.1:name=vmaf|version=vmaf_v0.6.1neg:name=vmaf_neg"
 * Sets are separated by '|', pairs by ':', key from value by '='; a
 * backslash takes the next character literally.  A bare key means
 * "key=true" (the vmaf tool's "enable_transform").  Order is kept.
 */
#ifndef VQ_OPTION_STRING_HPP
#define VQ_OPTION_STRING_HPP

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vq {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

/* throws vq::Error(VQ_EINVAL) on an empty key or a set with no pairs */
std::vector<KeyValues> parse_option_sets(std::string_view text, const char *what);

}  // namespace vq

#endif /* VQ_OPTION_STRING_HPP */
