// Display decimation of long series: the minimum and the maximum of each horizontal bucket.
#include "series_decimation.h"

#include <algorithm>
#include <stdexcept>

namespace scalebench {

std::vector<SeriesPoint> minMaxDecimate(const std::vector<double>& xs, const std::vector<double>& ys,
                                        std::size_t buckets) {
    if (xs.size() != ys.size()) throw std::invalid_argument("minMaxDecimate: xs and ys differ in length");
    const std::size_t n = xs.size();
    std::vector<SeriesPoint> out;
    if (n <= 2 * buckets || buckets == 0) {
        out.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            out.push_back({xs[i], ys[i]});
        return out;
    }
    const double x_min = xs.front();
    const double width = (xs.back() - x_min) / static_cast<double>(buckets);
    out.reserve(2 * buckets);
    std::size_t i = 0;
    for (std::size_t b = 0; b < buckets && i < n; ++b) {
        // The last bucket takes everything left, so rounding never drops the final point.
        const double end = b + 1 == buckets ? xs.back() : x_min + width * static_cast<double>(b + 1);
        std::size_t lowest = i, highest = i;
        const std::size_t first = i;
        for (; i < n && (xs[i] < end || b + 1 == buckets); ++i) {
            if (ys[i] < ys[lowest]) lowest = i;
            if (ys[i] > ys[highest]) highest = i;
        }
        if (i == first) continue; // an empty bucket (a gap in x)
        const std::size_t a = std::min(lowest, highest), c = std::max(lowest, highest);
        out.push_back({xs[a], ys[a]});
        if (c != a) out.push_back({xs[c], ys[c]});
    }
    return out;
}

} // namespace scalebench
