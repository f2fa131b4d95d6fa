// The results of a session as a text table for the terminal and as CSV.
#pragma once

#include "analysis.h"
#include "run_placement.h"
#include "slow_rank_finding.h"

#include <string>
#include <vector>

namespace scalebench {

struct RunResult {
    std::string name;
    std::string workload;
    std::string dataset;
    int ranks = 0;
    int repeat = 0;
    std::string status;
    std::string error;
    RunFigures figures;
    std::vector<CollectiveRecord> collectives{}; // a collective sweep's sizes, in order
    std::string requeues{}; // "requeued once after NODE_FAIL on node2 (...)": empty when it ran once
    // What the run measured besides its ranks (its plan group's settings); workload and dataset alone where
    // the plan is not known.
    SeriesKey series{};
    // Why `series` is the workload and data set alone although the session stored a plan: the plan no longer
    // reads (StoredPlan::problem); "" otherwise.
    std::string plan_problem{};
    // Its quality target in the unit the console shows the metric in (accuracy in %), whether it was reached,
    // and MLBench's time to accuracy (run start to the evaluation that reached it).
    std::optional<double> target{};
    bool target_reached = false;
    std::optional<double> time_to_target_s{};
    // An MLPerf run (its MLLOG read): time to train as the result summarizer gives it, in minutes, and its
    // status (success, aborted); none for the others.
    std::optional<double> mlperf_time_to_train_min{};
    std::string mlperf_status{};
    std::string mlperf_benchmark{}; // submission_benchmark: "bert"
    std::string
        mlperf_division{}; // submission_division: "closed", "open" (the engine's stand-ins); "" unsaid
    // Ranks and nodes whose compute time stands out (findSlowRanks over its rank-times records and header).
    SlowRankFinding slow_ranks{};
    RunPlacement placement{}; // where its ranks ran: ranks and CPUs on the busiest host, threads per rank
    // Seconds the run held its ranks: its summary's wall_s (the engine's, start to end), else from the
    // store's start (job submitted) to its end; none where neither is known (what its cost is from).
    std::optional<double> wall_s{};
    // A run of a plan's check_device: the device self-check's verdict and checks instead of figures.
    std::optional<DeviceCheckRecord> device_check{};
};

// The run's series: its `series`, or its workload and dataset where that is empty.
SeriesKey seriesOf(const RunResult& result);

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
