// Whether a figure changed between two sets of repeats or only moved inside their noise.
#include "change_or_noise.h"

#include <algorithm>
#include <fmt/format.h>
#include <random>

namespace scalebench {
namespace {
double medianOf(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The median of one resample of `values` with replacement.
double resampledMedian(const std::vector<double>& values, std::mt19937_64& draw,
                       std::vector<double>& scratch) {
    std::uniform_int_distribution<std::size_t> pick(0, values.size() - 1);
    scratch.resize(values.size());
    for (double& v : scratch)
        v = values[pick(draw)];
    return medianOf(scratch);
}
} // namespace

ChangeVerdict changeOrNoise(const std::vector<double>& a, const std::vector<double>& b, double threshold) {
    ChangeVerdict v;
    v.repeats_a = static_cast<int>(a.size());
    v.repeats_b = static_cast<int>(b.size());
    v.threshold = threshold;
    if (!a.empty()) v.median_a = medianOf(a);
    if (!b.empty()) v.median_b = medianOf(b);
    if (v.repeats_a < kLeastRepeatsForChange || v.repeats_b < kLeastRepeatsForChange) return v;
    const double median_a = v.median_a;
    if (median_a == 0) return v;
    v.relative = (v.median_b - median_a) / median_a;

    std::mt19937_64 draw(20261126);
    std::vector<double> spread, scratch;
    spread.reserve(kBootstrapResamples);
    for (int i = 0; i < kBootstrapResamples; ++i) {
        const double resampled_a = resampledMedian(a, draw, scratch);
        if (resampled_a != 0)
            spread.push_back((resampledMedian(b, draw, scratch) - resampled_a) / resampled_a);
    }
    std::sort(spread.begin(), spread.end());
    const auto at = [&](double fraction) {
        return spread[std::min(spread.size() - 1, static_cast<std::size_t>(fraction * spread.size()))];
    };
    v.low = at(0.025);
    v.high = at(0.975);
    v.kind = v.low > threshold     ? ChangeKind::Higher
             : v.high < -threshold ? ChangeKind::Lower
                                   : ChangeKind::Noise;
    return v;
}

std::string describeChange(const ChangeVerdict& v) {
    if (v.kind == ChangeKind::CannotTell)
        return fmt::format("cannot tell: {} vs {} repeats (at least {} a side)", v.repeats_a, v.repeats_b,
                           kLeastRepeatsForChange);
    return fmt::format("{:+.1f} % [{:+.1f}, {:+.1f}] (95 % bootstrap, {} vs {} repeats): {}",
                       v.relative * 100, v.low * 100, v.high * 100, v.repeats_a, v.repeats_b,
                       v.kind == ChangeKind::Higher ? "higher"
                       : v.kind == ChangeKind::Lower
                           ? "lower"
                           : fmt::format("noise (within {:.0f} %)", v.threshold * 100));
}

} // namespace scalebench
