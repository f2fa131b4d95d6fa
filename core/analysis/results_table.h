// The results of a session as a text table for the terminal and as CSV.
#pragma once

#include "analysis.h"
#include "run_result.h"

#include <string>
#include <vector>

namespace scalebench {

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

// "12.3 s" for a run that reached its target ("4.81 min" for an MLPerf run without steps: its time to train),
// "not reached" for one that did not, "-" without a target.
std::string formatTimeToTarget(const RunResult& result);

// "device check on cpu: pass (5 of 5 checks)", or "device check on cuda:0: FAIL: " and the failed checks'
// names, each with the figure it was judged by where it has one.
std::string formatDeviceCheck(const DeviceCheckRecord& check);

std::string formatResultsTable(const std::vector<RunResult>& results);
std::string resultsCsv(const std::vector<RunResult>& results);
// One table per collective sweep: message size, time per call, algbw and busbw, correctness.
std::string formatCollectiveSweeps(const std::vector<RunResult>& results);

} // namespace scalebench
