// Display decimation of long series: the minimum and the maximum of each horizontal bucket.
#include "series_decimation.h"

#include <algorithm>
#include <stdexcept>

namespace scalebench {

void SeriesBlocks::extend(const std::vector<double>& ys) {
    for (std::size_t block = lowest_.size(); (block + 1) * kSize <= ys.size(); ++block) {
        std::size_t low = block * kSize, high = low;
        for (std::size_t i = low + 1; i < (block + 1) * kSize; ++i) {
            if (ys[i] < ys[low]) low = i;
            if (ys[i] > ys[high]) high = i;
        }
        lowest_.push_back(low);
        highest_.push_back(high);
    }
}

namespace {

// Collects each bucket's lowest and highest point and emits them in x order when the bucket closes.
class BucketCollector {
  public:
    BucketCollector(const std::vector<double>& xs, const std::vector<double>& ys, std::size_t buckets)
        : xs_(xs), ys_(ys), buckets_(buckets), x_min_(xs.front()),
          width_((xs.back() - xs.front()) / static_cast<double>(buckets)) {
        out_.reserve(2 * buckets);
    }
    std::size_t bucketOf(double x) const {
        if (width_ <= 0) return 0;
        return std::min(buckets_ - 1, static_cast<std::size_t>((x - x_min_) / width_));
    }
    // Points in x order; `low` and `high` are candidates of the bucket of point `first`.
    void add(std::size_t first, std::size_t low, std::size_t high) {
        const std::size_t bucket = bucketOf(xs_[first]);
        if (!open_ || bucket != bucket_) {
            flush();
            open_ = true;
            bucket_ = bucket;
            low_ = low;
            high_ = high;
            return;
        }
        if (ys_[low] < ys_[low_]) low_ = low;
        if (ys_[high] > ys_[high_]) high_ = high;
    }
    std::vector<SeriesPoint> finish() {
        flush();
        return std::move(out_);
    }

  private:
    void flush() {
        if (!open_) return;
        const std::size_t a = std::min(low_, high_), c = std::max(low_, high_);
        out_.push_back({xs_[a], ys_[a]});
        if (c != a) out_.push_back({xs_[c], ys_[c]});
        open_ = false;
    }

    const std::vector<double>& xs_;
    const std::vector<double>& ys_;
    std::size_t buckets_;
    double x_min_, width_;
    bool open_ = false;
    std::size_t bucket_ = 0, low_ = 0, high_ = 0;
    std::vector<SeriesPoint> out_;
};

} // namespace

std::vector<SeriesPoint> minMaxDecimate(const std::vector<double>& xs, const std::vector<double>& ys,
                                        std::size_t buckets, const SeriesBlocks* blocks) {
    if (xs.size() != ys.size()) throw std::invalid_argument("minMaxDecimate: xs and ys differ in length");
    const std::size_t n = xs.size();
    if (n <= 2 * buckets || buckets == 0) {
        std::vector<SeriesPoint> out;
        out.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            out.push_back({xs[i], ys[i]});
        return out;
    }
    BucketCollector collector(xs, ys, buckets);
    std::size_t i = 0;
    // Whole blocks where a bucket spans many of them: a block straddling two buckets goes to the first.
    if (blocks && n / buckets >= 2 * SeriesBlocks::kSize) {
        const std::size_t complete = std::min(blocks->completeBlocks(), n / SeriesBlocks::kSize);
        for (std::size_t b = 0; b < complete; ++b)
            collector.add(b * SeriesBlocks::kSize, blocks->lowest(b), blocks->highest(b));
        i = complete * SeriesBlocks::kSize;
    }
    for (; i < n; ++i)
        collector.add(i, i, i);
    auto out = collector.finish();
    if (out.back().x != xs.back() || out.back().y != ys.back()) out.push_back({xs.back(), ys.back()});
    return out;
}

} // namespace scalebench
