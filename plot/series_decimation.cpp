// Block summaries of a growing series: each block's lowest and highest point.
#include "series_decimation.h"

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

} // namespace scalebench
