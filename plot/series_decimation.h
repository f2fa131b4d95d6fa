// What display decimation works from: a chart's point, and block summaries of a growing series (where each
// block's lowest and highest value are), with which ColumnDecimation (column_decimation.h) reads a million
// points as a few thousand blocks.
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

} // namespace scalebench
