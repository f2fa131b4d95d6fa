// Whether a figure changed between two sets of repeats or only moved inside their noise: the one judgement
// every comparison of runs (verdicts against a baseline, Compare, --compare) makes.
#pragma once

#include <string>
#include <vector>

namespace scalebench {

// The method: the percentile bootstrap of the relative difference of the medians, (median B - median A) /
// median A, each side resampled with replacement kBootstrapResamples times (fixed seed: the same repeats
// always give the same interval), its 95 % interval [2.5th, 97.5th percentile]; bench/train_vs_ddp.py
// bootstraps the same way. Medians, not means: on a shared machine one repeat in five can be several times
// slower (another job took the cores), and a mean follows it where a median does not (bench/false-alarms.sh
// measured a false alarm from means on this machine under load). A change is called only where the interval
// lies wholly beyond the threshold (low > threshold, or high < -threshold); an interval that reaches inside
// it is noise. Fewer than kLeastRepeatsForChange repeats on either side cannot tell: with two, a bootstrap
// has three distinct resamples and no interval worth the name.
inline constexpr int kBootstrapResamples = 4000;
inline constexpr int kLeastRepeatsForChange = 3;

enum class ChangeKind { Higher, Lower, Noise, CannotTell };

struct ChangeVerdict {
    ChangeKind kind = ChangeKind::CannotTell;
    double relative = 0; // (median B - median A) / median A; 0 where A's median is 0
    double low = 0;      // the 95 % interval of `relative`
    double high = 0;
    int repeats_a = 0;
    int repeats_b = 0;
    double threshold = 0;
    double median_a = 0; // of each side's repeats, the values compared; 0 for a side without any
    double median_b = 0;
};

// `threshold`: the least relative change worth calling, a fraction (0.05: 5 %).
ChangeVerdict changeOrNoise(const std::vector<double>& a, const std::vector<double>& b, double threshold);

// "-10.2 % [-13.1, -7.4] (95 % bootstrap, 5 vs 5 repeats): lower", "+1.0 % [-2.2, +4.1] ...: noise",
// "cannot tell: 2 vs 2 repeats (at least 3 a side)".
std::string describeChange(const ChangeVerdict& verdict);

} // namespace scalebench
