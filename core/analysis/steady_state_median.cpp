// The median of a growing series after its warm-up steps, kept up to date as steps arrive.
#include "steady_state_median.h"

#include "analysis.h"

#include <algorithm>
#include <functional>

namespace scalebench {

void SteadyStateMedian::restart(std::size_t skip) {
    skip_ = skip;
    read_ = skip;
    lower_.clear();
    upper_.clear();
}

void SteadyStateMedian::reserve(std::size_t values) {
    lower_.reserve(values / 2 + 1);
    upper_.reserve(values / 2 + 1);
}

void SteadyStateMedian::insert(double value) {
    if (lower_.empty() || value <= lower_.front()) {
        lower_.push_back(value);
        std::push_heap(lower_.begin(), lower_.end());
    } else {
        upper_.push_back(value);
        std::push_heap(upper_.begin(), upper_.end(), std::greater<>());
    }
    // Halves of equal size, or the lower one larger by one.
    if (lower_.size() > upper_.size() + 1) {
        std::pop_heap(lower_.begin(), lower_.end());
        upper_.push_back(lower_.back());
        lower_.pop_back();
        std::push_heap(upper_.begin(), upper_.end(), std::greater<>());
    } else if (upper_.size() > lower_.size()) {
        std::pop_heap(upper_.begin(), upper_.end(), std::greater<>());
        lower_.push_back(upper_.back());
        upper_.pop_back();
        std::push_heap(lower_.begin(), lower_.end());
    }
}

std::optional<double> SteadyStateMedian::update(const std::vector<double>& values) {
    const auto skip = static_cast<std::size_t>(warmupStepsToSkip(values.size()));
    // The warm-up grows with the first 200 steps (and a shorter series is another one): start over.
    if (skip != skip_ || values.size() < read_) restart(skip);
    for (; read_ < values.size(); ++read_)
        insert(values[read_]);
    if (lower_.empty()) return std::nullopt;
    if (lower_.size() > upper_.size()) return lower_.front();
    return (lower_.front() + upper_.front()) / 2;
}

} // namespace scalebench
