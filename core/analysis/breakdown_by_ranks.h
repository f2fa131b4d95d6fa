// The step breakdown of each series per rank count: means over the successful repeats.
#pragma once

#include "results_table.h"

#include <string>
#include <vector>

namespace scalebench {

struct RanksBreakdown {
    std::string workload;
    std::string dataset;
    int ranks = 0;
    int repeats = 0;                 // successful runs with steady-state steps that went into the means
    StepBreakdown mean{};            // seconds per step, each part the mean over those repeats
    SeriesKey series{};              // the runs' series: runs of different series are never averaged together
    std::string label{};             // seriesLabels' for it
    double communication_share = 0;  // exposed all-reduce / step time of the means
    double compute_only_speedup = 0; // compute-only throughput against the series' smallest rank count
};

// Sorted by series and rank count; runs that failed or have no steady-state steps are left out.
std::vector<RanksBreakdown> breakdownByRanks(const std::vector<RunResult>& results);

} // namespace scalebench
