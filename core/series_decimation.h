// Display decimation of long series: at most two points (the minimum and the maximum) per horizontal bucket,
// so a chart of a million records draws a few thousand points and still shows every spike.
#pragma once

#include <cstddef>
#include <vector>

namespace scalebench {

struct SeriesPoint {
    double x = 0;
    double y = 0;
};

// Where the lowest and highest value of each block of kSize consecutive points are, kept up to date as a
// series grows, so that decimating a million points scans a few thousand blocks instead.
class SeriesBlocks {
  public:
    static constexpr std::size_t kSize = 256;
    // Summarises the complete blocks of ys not summarised yet.
    void extend(const std::vector<double>& ys);
    std::size_t completeBlocks() const { return lowest_.size(); }
    std::size_t lowest(std::size_t block) const { return lowest_[block]; }
    std::size_t highest(std::size_t block) const { return highest_[block]; }

  private:
    std::vector<std::size_t> lowest_, highest_; // point indices
};

// xs must not decrease (steps, elapsed seconds). The range [x_min, x_max] is cut into `buckets` equal
// buckets; each non-empty bucket gives its lowest and its highest point, in x order, and the newest point
// closes the series (a live chart ends where the run is). Series with at most
// 2 x buckets points are returned whole. O(n); with `blocks` (of these ys) whole blocks are placed in the
// bucket of their first point when buckets are at least two blocks wide: O(n / SeriesBlocks::kSize).
std::vector<SeriesPoint> minMaxDecimate(const std::vector<double>& xs, const std::vector<double>& ys,
                                        std::size_t buckets, const SeriesBlocks* blocks = nullptr);

} // namespace scalebench
