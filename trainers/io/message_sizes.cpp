// Message sizes of a collective sweep: numpy's logspace rounded, repeats moved to the next whole size
// (MLBench task 0 times 80 sizes of logspace(0, 8, 80); rounding alone gives 77).
#include "message_sizes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace scalebench {

std::vector<std::int64_t> logspaceSizes(double max_log10, int points) {
    std::vector<std::int64_t> sizes;
    for (int i = 0; i < points; ++i) {
        const double exponent = points == 1 ? max_log10 : max_log10 * i / (points - 1);
        const std::int64_t rounded = std::llround(std::pow(10.0, exponent));
        sizes.push_back(sizes.empty() ? rounded : std::max(rounded, sizes.back() + 1));
    }
    const std::int64_t largest = std::llround(std::pow(10.0, max_log10));
    if (!sizes.empty() && sizes.back() > largest)
        throw std::invalid_argument("sweep: " + std::to_string(points) +
                                    " sizes of whole elements from 1 to " + std::to_string(largest) +
                                    " cannot all differ (at most " + std::to_string(largest) +
                                    "): lower sweep_points or raise sweep_max_log10");
    return sizes;
}

} // namespace scalebench
