// Mean, two sigma, olympic mean and median (statistics.h).
#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace scalebench {

Statistics describe(const std::vector<double>& values) {
    Statistics s;
    s.count = static_cast<int>(values.size());
    if (values.empty()) return s;
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / s.count;
    if (s.count > 1) {
        double squares = 0;
        for (double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(squares / (s.count - 1));
    }
    return s;
}

double olympicMean(std::vector<double> values) {
    if (values.size() >= 3) {
        std::sort(values.begin(), values.end());
        values = std::vector<double>(values.begin() + 1, values.end() - 1);
    }
    return describe(values).mean;
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

std::string describeConvention(StepTimeConvention convention) {
    return convention == StepTimeConvention::LastStep ? "last step (MaxText's convention)"
                                                      : "median over steady-state steps";
}

} // namespace scalebench
