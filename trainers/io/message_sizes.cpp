// Message sizes of a collective sweep: np.logspace(0, max_log10, points) elements rounded, duplicates dropped
// (MLBench task 0 uses logspace(0, 8, 80)).
#include "message_sizes.h"

#include <cmath>

namespace scalebench {

std::vector<std::int64_t> logspaceSizes(double max_log10, int points) {
    std::vector<std::int64_t> sizes;
    for (int i = 0; i < points; ++i) {
        const double exponent = points == 1 ? max_log10 : max_log10 * i / (points - 1);
        const auto n = static_cast<std::int64_t>(std::llround(std::pow(10.0, exponent)));
        if (sizes.empty() || n != sizes.back()) sizes.push_back(n);
    }
    return sizes;
}

} // namespace scalebench
