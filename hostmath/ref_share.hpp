/*
 * ref_share.hpp - the reference's work shared by the sessions of a ladder.
 *
 * A module whose row work reads the reference alone (Module::ref_only:
 * integer motion) gives the same section for every rendition, so sessions
 * that score several renditions against the same reference frames compute
 * it once: the first session (the leader) runs it and puts each frame's
 * sections here as it folds the frame; the others (members) skip that row
 * work and fold the same frame's sections from here.  A frame's words are
 * kept until every member still joined has folded the frame.
 *
 * All of a ladder's sessions are used from one thread.  A member that needs
 * a frame the leader has in flight asks the leader to collect it (pump).
 * On the GPU the leader also makes the reference's VIF images and moments and
 * ADM bands and denominators once per frame for all of them (device_work:
 * kernels/cuda_exec.h).
 */
#ifndef VQ_REF_SHARE_HPP
#define VQ_REF_SHARE_HPP

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace vq {

class RefShare {
public:
    explicit RefShare(size_t words_per_frame) : words_(words_per_frame) {}

    /* a member joins before any frame; returns its number */
    int join();
    /* the member is done (flushed or closed): its frames need not be kept */
    void leave(int member);
    /* the leader: frame `frame` (the next one, in order) has these words
     * (words_per_frame of them) */
    void put(int64_t frame, const int64_t *words);
    /* frame's words, or nullptr if the leader has not folded it (yet) */
    const int64_t *get(int64_t frame) const;
    /* member `member` has folded every frame below `upto` */
    void consumed(int member, int64_t upto);
    int64_t frames_put() const { return base_ + (int64_t)rows_.size(); }

    /* set while the leader lives (empty once it closed): collect one frame
     * in flight; false when it has none */
    std::function<bool()> pump;
    /* likewise: the leader's device-side reference work (the GPU
     * executor's, held once more for the caller), or nullptr */
    std::function<void *()> device_work;

private:
    void trim();
    size_t words_;
    std::deque<std::vector<int64_t>> rows_;
    int64_t base_ = 0;                /* frame number of rows_.front() */
    std::vector<int64_t> upto_;       /* per member; INT64_MAX once it left */
};

}  // namespace vq

#endif /* VQ_REF_SHARE_HPP */
