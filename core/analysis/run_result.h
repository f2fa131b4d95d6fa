// A run as the analysis sees it once it ended: its stored figures, series, outcome and where it ran. The one
// name for a finished run from the store's records (loadSessionResults) to every view and report.
#pragma once

#include "analysis.h"
#include "run_placement.h"
#include "run_status.h"
#include "slow_rank_finding.h"

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

struct RunResult {
    std::string name;
    std::string workload;
    std::string dataset;
    int ranks = 0;
    int repeat = 0;
    RunStatus status = RunStatus::Ok;
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
    // An MLPerf result read from a results tree: its benchmark folder's scaling.json factor, which the
    // summarizer multiplies the olympic average by (1 without one).
    double mlperf_scaling_factor = 1;
    // When it ran by the log's clock (run_start, run_stop; ms since 1970), and the accelerators it ran on as
    // the log says (number_of_nodes x accelerators_per_node; 0 unsaid): what MLPerf HPC's weak scaling
    // scores.
    std::optional<double> mlperf_run_start_ms{};
    std::optional<double> mlperf_run_stop_ms{};
    int mlperf_instance_scale = 0;
    // Whether an evaluation reached the benchmark's target (MLPerf's compliance check of the quality); none
    // where the reader cannot tell (a benchmark it has no target for): then the status decides.
    std::optional<bool> mlperf_target_met{};
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

} // namespace scalebench
