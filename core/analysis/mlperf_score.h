// MLPerf Training's score of a benchmark from a set of runs: the olympic average of their times to train,
// with the run count and the dropped results the rules set for each benchmark.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// A time to train as MLPerf states it, in minutes with two decimals ("4.81 min"), and in seconds beside it
// where that shows a short run as 0.00 ("0.00 min (0.2 s)").
std::string formatTimeToTrain(double minutes);

// How many runs a benchmark's result needs and how many are dropped at each end. MLPerf Training rules
// (mlcommons/training_policies, training_rules.adoc, "Benchmark Results", v4.0 to v5.1): "The performance
// result is computed by dropping the fastest and slowest runs, then taking the mean of the remaining times.
// For this purpose, a single non-converging run may be treated as the slowest run and dropped. A benchmark
// result is invalid if there is more than one non-converging run." The counts are the rules' table as
// mlperf-logging 4.1.68 enforces it (benchmark_meta.py, _ALL_RESULT_FILE_COUNTS['training']); unet3d drops
// 4 at each end (result_summarizer.py, _compute_strong_score_standalone).
struct MlperfRunCount {
    int required = 0;          // result files a submission of this benchmark holds
    int dropped_each_side = 1; // fastest and slowest runs left out of the average
};
// nullopt for a benchmark the table does not name.
std::optional<MlperfRunCount> mlperfRunCount(const std::string& benchmark);

struct MlperfRun {
    double time_to_train_min = 0;
    bool converged = false; // run_stop's status was "success"
};

struct MlperfScore {
    std::string benchmark;
    int runs = 0;
    int converged = 0;
    std::optional<int> required;     // the rules' run count; none for a benchmark they do not name
    std::optional<double> score_min; // the olympic average (x scaling_factor); none where the result is
                                     // invalid or no run counts
    double scaling_factor = 1;       // the results tree's scaling.json, applied to score_min
    // MLPerf HPC's weak scaling (many models trained at once): the converged models, the accelerators each
    // ran on, and the time from the first start to the last stop, in minutes; score_min is that time.
    struct Weak {
        int models = 0;
        int instance_scale = 0;
        double time_to_train_all_min = 0;
    };
    std::optional<Weak> weak{};
    bool valid = false;  // a score, from at least the required runs, with at most the allowed
                         // non-converging ones
    std::string verdict; // "olympic average of 8 of 10 runs", or why there is no valid result
};

// The score as mlperf-logging's result summarizer computes it: sort the converged times, drop
// dropped_each_side from the fast end and dropped_each_side less the runs that did not converge from the
// slow end (a non-converging run counts as a dropped slowest one), average the rest. More non-converging
// runs than dropped_each_side make the result invalid (no score). Fewer runs than required still give the
// average, marked as not a valid MLPerf result. A benchmark the table does not name drops one at each end.
MlperfScore olympicScore(const std::string& benchmark, const std::vector<MlperfRun>& runs);

struct MlperfWeakRun {
    bool converged = false;
    double run_start_ms = 0;
    double run_stop_ms = 0;
    int instance_scale = 0;
};
// MLPerf HPC's weak-scaling score as mlperf-logging 4.1.68's result summarizer computes it
// (_compute_weak_score_standalone): the converged models M, their instance scale S, and the time to train
// them all, (latest run_stop - earliest run_start) / 60000 minutes over the converged ones; no olympic rule,
// no scaling.json. Fewer than the benchmark's required models: no score, said why. Throughput: M / that time.
MlperfScore weakScore(const std::string& benchmark, const std::vector<MlperfWeakRun>& runs);

} // namespace scalebench
