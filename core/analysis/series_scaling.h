// A session's scaling: its runs pooled into series (runs alike in every setting but ranks), each rank
// count's repeats against the series' smallest rank count N0: speedup, efficiency, time to target and
// MLPerf's score.
#pragma once

#include "analysis.h"
#include "run_result.h"

#include <optional>
#include <vector>

namespace scalebench {

// Throughput and time-to-target scaling (ScalingPoint) of the successful runs that measured a throughput,
// one series per SeriesKey (seriesOf), each rank count's repeats against the series' smallest rank count.
std::vector<ScalingPoint> throughputScaling(const std::vector<RunResult>& results);

// Scaling over the successful runs, one series per SeriesKey (mean and two sigma over repeats); MLPerf runs
// add their benchmark's olympic score at each rank count and its time-to-train speedup.
std::vector<ScalingPoint> sessionScaling(const std::vector<RunResult>& results);

// Each run against the mean of its series at the smallest rank count: throughput speedup and efficiency, and
// time-to-target speedup T(N0) / T(N) and efficiency where both have a time.
struct RunScaling {
    double speedup = 0;
    double efficiency = 0;
    std::optional<double> time_to_target_speedup{};
    double time_to_target_efficiency = 0;
};
std::vector<RunScaling> runScaling(const std::vector<RunResult>& results);

} // namespace scalebench
