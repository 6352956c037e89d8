/*
 * pool.hpp - pooling one feature over frames, as libvmaf v3.2.0's
 * vmaf_feature_score_pooled (libvmaf.c) does it: one pass in frame order,
 * in double: sum += s; i_sum += 1 / (s + 1); min and max (the first frame
 * starts both); mean = sum / n; harmonic_mean = n / i_sum - 1.
 */
#ifndef VQ_POOL_HPP
#define VQ_POOL_HPP

namespace vq {

struct Pooled {
    double min, max, mean, harmonic_mean;
};

class PoolAcc {
public:
    void add(double s)
    {
        sum_ += s;
        i_sum_ += 1. / (s + 1.);
        if (count_ == 0 || s < min_)
            min_ = s;
        if (count_ == 0 || s > max_)
            max_ = s;
        count_++;
    }
    unsigned count() const { return count_; }
    /* count() must be > 0 */
    Pooled get() const
    {
        return Pooled{ min_, max_, sum_ / count_, count_ / i_sum_ - 1.0 };
    }

private:
    double min_ = 0, max_ = 0, sum_ = 0, i_sum_ = 0;
    unsigned count_ = 0;    /* unsigned, as libvmaf's pic_cnt: n / i_sum converts it */
};

}  // namespace vq

#endif /* VQ_POOL_HPP */
