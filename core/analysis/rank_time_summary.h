// Per-rank step and compute times of one run over its steady-state steps, for straggler views.
#pragma once

#include "metric_record.h"

#include <vector>

namespace scalebench {

struct RankTimes {
    int rank = 0;
    double step_s = 0;    // mean seconds per step on this rank
    double compute_s = 0; // mean seconds of its own work per step (data, forward, backward, optimizer)
    double wait_s = 0;    // step_s - compute_s: time spent waiting for the other ranks and communication
};

struct RankTimeSummary {
    int steady_steps = 0; // records counted, after warmupStepsToSkip of them
    std::vector<RankTimes> ranks{};
    int slowest_rank =
        -1; // the rank with the largest mean compute time (the one the others wait for); -1 if none
};

// Ranks missing from some records (a shorter vector) are averaged over the records that have them.
RankTimeSummary summarizeRankTimes(const std::vector<RankTimesRecord>& records);

} // namespace scalebench
