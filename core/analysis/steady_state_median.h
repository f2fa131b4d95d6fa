// The median of a growing series after its warm-up steps (warmupStepsToSkip), kept up to date as steps
// arrive: the same value as median() of the steady-state steps, in O(log n) per new step instead of a sort of
// them all.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace scalebench {

class SteadyStateMedian {
  public:
    // values: the series so far (it only grows). None before the first steady-state step.
    std::optional<double> update(const std::vector<double>& values);
    // Room for a series of `values` values, so that it does not copy its halves as it grows.
    void reserve(std::size_t values);

  private:
    void restart(std::size_t skip);
    void insert(double value);

    std::size_t skip_ = 0, read_ = 0;
    std::vector<double> lower_; // max-heap: the lower half (one more than upper_ for an odd count)
    std::vector<double> upper_; // min-heap: the upper half
};

} // namespace scalebench
