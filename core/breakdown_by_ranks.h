// The step breakdown of each workload per rank count: means over the successful repeats.
#pragma once

#include "results_table.h"

#include <string>
#include <vector>

namespace scalebench {

struct RanksBreakdown {
    std::string workload;
    std::string dataset;
    int ranks = 0;
    int repeats = 0;      // successful runs with steady-state steps that went into the means
    StepBreakdown mean{}; // seconds per step, each part the mean over those repeats
};

// Sorted by workload, dataset and rank count; runs that failed or have no steady-state steps are left out.
std::vector<RanksBreakdown> breakdownByRanks(const std::vector<RunResult>& results);

} // namespace scalebench
