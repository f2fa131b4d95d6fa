// Figures from metric records: statistics over repeats, a run's steady-state figures, speedup and efficiency.
#pragma once

#include "bus_bandwidth.h" // busBandwidthFactor, which lived here first
#include "llm_step_figures.h"
#include "metric_record.h"
#include "mlperf_score.h"
#include "statistics.h"

#include <compare>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// Mean seconds per step of each part, over the steady-state steps; the parts add up to step_s.
// comm_hidden_s (communication overlapped with backward) is not one of them: it is shown beside the step.
struct StepBreakdown {
    double step_s = 0;
    double data_s = 0;
    double forward_s = 0;
    double backward_s = 0;
    double allreduce_s = 0; // exposed communication
    double optimizer_s = 0;
    double comm_hidden_s = 0;
};

struct RunFigures {
    StepTimeConvention convention = StepTimeConvention::SteadyStateMedian;
    int steady_steps = 0;         // steps counted (after the warm-up steps; 1 for the last step)
    double samples_per_s = 0;     // median over the counted steps
    double tokens_per_s = 0;      // median over the same steps (language workloads; 0 for the others)
    double model_flops_per_s = 0; // achieved model FLOPs of all ranks, median (0 where none are defined)
    std::optional<double> mfu;    // median over the same steps, where the run states its peak FLOPs
    StepBreakdown breakdown;      // means over the same steps
    double final_loss = 0;
    std::string eval_metric = "accuracy"; // of the workload's evaluations: accuracy, loss, perplexity, bleu
    std::optional<double> final_eval;     // the last evaluation's value
};

// How a workload's evaluation metric reads: accuracy in % (higher is better), perplexity, log perplexity and
// loss (lower), BLEU (0-100, higher), and MLPerf's FID (lower), CLIP score (higher) and HPC's error (lower):
// one row each in analysis.cpp's table, read by every view.
struct EvalMetricStyle {
    std::string label; // "accuracy", "perplexity", "BLEU", "eval loss"
    std::string unit;  // "%" or ""
    double scale = 1;  // displayed = value x scale
    bool higher_is_better = true;
    int decimals = 4; // shown with in Compare: accuracy 2 (in %), the others 4
};
EvalMetricStyle evalMetricStyle(const std::string& metric);
// "acc 85.7%", "ppl 123.45", "BLEU 24.10", "loss 0.3110"; "-" without a value.
std::string formatEvalValue(const std::string& metric, std::optional<double> value);

// How a run with a quality target ended: "reached acc 80.0% at step 40: time to accuracy 12.3 s" or "target
// acc 80.0% not reached in 100 steps (best acc 64.7%)"; "" for a run without a target.
std::string formatTargetOutcome(const SummaryRecord& summary);

// Steps before the steady state: a tenth of the run, at least 1 and at most 20 (allocator, caches, warm-up).
int warmupStepsToSkip(std::size_t step_count);
RunFigures runFigures(const std::vector<StepRecord>& steps, const std::vector<EvalRecord>& evals,
                      StepTimeConvention convention = StepTimeConvention::SteadyStateMedian);

// The share of a step spent waiting for communication (exposed all-reduce / step time), and the throughput
// the step would reach if communication took no time (global batch / (step time - exposed communication)):
// that throughput over the same at N0 is what MLBench's task 4 results (seed 004) call the "compute
// speedup", "the maximum achievable speedup with lightspeed communication".
double communicationShare(const StepBreakdown& breakdown);
// Whether the step's parts were timed: an outside trainer's log (MaxText's) gives a step's time alone, and
// its parts (data, forward, backward, communication, optimizer) are unknown, never 0.
bool partsMeasured(const StepBreakdown& breakdown);
double computeOnlyThroughput(double samples_per_s, const StepBreakdown& breakdown);

// What a run measured besides its rank count: its workload, data set and every setting of its plan group
// (preset, precision, sequence length, batch and its convention, backend, buckets, environment...). Runs
// alike in all of them form one scaling series; runs that differ in any are never pooled.
struct SeriesKey {
    std::string workload;
    std::string dataset;
    std::map<std::string, std::string> settings{}; // plan key -> value as the engine is given it
    auto operator<=>(const SeriesKey&) const = default;
};
// One label per key: "workload dataset", then the settings in which keys of the same workload and data set
// differ ("llama synthetic-tokens preset=tiny"), so that each series is told apart by what differs.
std::vector<std::string> seriesLabels(const std::vector<SeriesKey>& keys);

// Scaling of one series at one rank count N against its smallest rank count N0, over repeats (mean and two
// sigma). Throughput: S(N) = X(N) / X(N0) from samples/s, each repeat at N against the mean at N0. Time to
// target (MLBench's time to accuracy): S_T(N) = T(N0) / T(N), each repeat at N that reached the target
// against the mean at N0. Efficiency E = S * N0 / N for both. Compute-only: the same from
// computeOnlyThroughput.
struct ScalingPoint {
    std::string workload;
    std::string dataset;
    SeriesKey series{};
    std::string label{}; // seriesLabels' for the series
    int ranks = 0;
    int repeats = 0;
    Statistics throughput;    // samples/s over repeats
    double speedup = 0;       // mean of X_i(N) / mean X(N0)
    Statistics speedup_stats; // the same ratios: mean and two sigma
    double efficiency = 0;
    double compute_only_speedup = 0;
    double communication_share = 0; // mean over repeats
    // The series' baseline the ratios are taken against: its smallest rank count N0, mean throughput X(N0),
    // mean compute-only throughput there, and mean time to target T(N0) (0 where no repeat at N0 reached it).
    int base_ranks = 0;
    double base_throughput = 0;
    double base_compute_only_throughput = 0;
    double base_time_to_target_s = 0;
    // Why its figures are not to be taken at face value: its runs' cautions, each reason once
    // (attachCautions, core/analysis/figure_cautions.h); empty where there is none.
    std::vector<std::string> cautions{};
    // Time to target: the repeats that had one and how many reached it; times over those that did.
    int target_repeats = 0;
    int reached = 0;
    Statistics time_to_target{};
    std::optional<Statistics> time_to_target_speedup{}; // absent where N or N0 has no time
    double time_to_target_efficiency = 0;
    // MLPerf runs (their MLLOG read): the benchmark's score at N over the repeats, and MLPerf's time-to-train
    // speedup score(N0) / score(N) where both have one (sessionScaling fills them; throughputScaling does
    // not).
    std::optional<MlperfScore> mlperf{};
    std::optional<double> mlperf_speedup{};
    double mlperf_efficiency = 0; // mlperf_speedup x N0 / N
};
} // namespace scalebench
