/*
 * ref_share.hpp - the reference's own work in a ladder (ladder.cpp), once for
 * every rendition.
 *
 * A module whose row work reads the reference alone (Module::ref_only:
 * integer motion) gives the same section for every rendition of a ladder.
 * The ladder owns one RefShare: rendition 1 runs that row work and puts each
 * frame's sections here as it folds the frame (its module instances `parts`,
 * in order); the other renditions skip the row work of each instance that
 * one of the parts gives as it is and fold the part's words of the same
 * frame.  A frame's words are kept until every rendition still joined has
 * folded it.  The ladder gives every reference frame to rendition 1 first
 * and has it fold what it has in flight before another rendition ends, so a
 * rendition never waits here for a frame.  Used from the ladder's thread.
 */
#ifndef VQ_REF_SHARE_HPP
#define VQ_REF_SHARE_HPP

#include <cstdint>
#include <deque>
#include <vector>

#include "module.h"

namespace vq {

class RefShare {
public:
    /* rendition 1's module instances whose sections it puts, in order */
    explicit RefShare(std::vector<VqModuleExec> parts);
    const std::vector<VqModuleExec> &parts() const { return parts_; }

    /* a rendition joins before any frame; returns its number */
    int join();
    /* the rendition is done (flushed or closed): its frames need not be kept */
    void leave(int member);
    /* rendition 1: frame `frame` (the next one, in order) has these words
     * (the parts' words, in order) */
    void put(int64_t frame, const int64_t *words);
    /* frame's words, or nullptr if rendition 1 has not folded it */
    const int64_t *get(int64_t frame) const;
    /* rendition `member` has folded every frame below `upto` */
    void consumed(int member, int64_t upto);
    int64_t frames_put() const { return base_ + (int64_t)rows_.size(); }

private:
    void trim();
    std::vector<VqModuleExec> parts_;
    size_t words_ = 0;
    std::deque<std::vector<int64_t>> rows_;
    int64_t base_ = 0;                /* frame number of rows_.front() */
    std::vector<int64_t> upto_;       /* per member; INT64_MAX once it left */
};

}  // namespace vq

#endif /* VQ_REF_SHARE_HPP */
