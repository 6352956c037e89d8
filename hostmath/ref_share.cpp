/* ref_share.cpp - see ref_share.hpp. */
#include "ref_share.hpp"

#include <algorithm>
#include <climits>
#include <utility>

#include "vq_error.h"

namespace vq {

RefShare::RefShare(std::vector<VqModuleExec> parts) : parts_(std::move(parts))
{
    for (const VqModuleExec &x : parts_)
        words_ += x.words;
}

int RefShare::join()
{
    if (frames_put())
        fail(VQ_EINVAL, "a rendition joins the reference's work before its first frame");
    upto_.push_back(0);
    return (int)upto_.size() - 1;
}

void RefShare::leave(int member)
{
    if (member >= 0 && (size_t)member < upto_.size())
        upto_[(size_t)member] = INT64_MAX;
    trim();
}

void RefShare::put(int64_t frame, const int64_t *words)
{
    if (frame != frames_put())
        fail(VQ_EINVAL, "the reference's work: frame %lld put out of order (expected %lld)", (long long)frame,
             (long long)frames_put());
    /* no member left to read it: nothing to keep */
    if (std::all_of(upto_.begin(), upto_.end(), [](int64_t u) { return u == INT64_MAX; })) {
        base_++;
        return;
    }
    rows_.emplace_back(words, words + words_);
}

const int64_t *RefShare::get(int64_t frame) const
{
    if (frame < base_ || frame >= frames_put())
        return nullptr;
    return rows_[(size_t)(frame - base_)].data();
}

void RefShare::consumed(int member, int64_t upto)
{
    if (member >= 0 && (size_t)member < upto_.size() && upto_[(size_t)member] != INT64_MAX)
        upto_[(size_t)member] = std::max(upto_[(size_t)member], upto);
    trim();
}

void RefShare::trim()
{
    int64_t lo = INT64_MAX;
    for (int64_t u : upto_)
        lo = std::min(lo, u);
    while (!rows_.empty() && base_ < lo) {
        rows_.pop_front();
        base_++;
    }
}

}  // namespace vq
