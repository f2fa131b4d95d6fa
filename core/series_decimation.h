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

// xs must not decrease (steps, elapsed seconds). The range [x_min, x_max] is cut into `buckets` equal
// buckets; each non-empty bucket gives its lowest and its highest point, in x order. Series with at most
// 2 x buckets points are returned whole. O(n).
std::vector<SeriesPoint> minMaxDecimate(const std::vector<double>& xs, const std::vector<double>& ys,
                                        std::size_t buckets);

} // namespace scalebench
