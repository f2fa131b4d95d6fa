// Figures from metric records: statistics over repeats, a run's steady-state figures, speedup and efficiency.
#pragma once

#include "metric_record.h"

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// Mean and two sample standard deviations (the MLPerf write-ups), and MLPerf's olympic mean.
struct Statistics {
    int count = 0;
    double mean = 0;
    double stddev = 0; // sample standard deviation (n - 1); 0 for one value
    double two_sigma() const { return 2 * stddev; }
};
Statistics describe(const std::vector<double>& values);
double olympicMean(std::vector<double> values); // drops the best and the worst when there are at least 3
double median(std::vector<double> values);

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
    int steady_steps = 0;      // steps counted (after the warm-up steps)
    double samples_per_s = 0;  // median over steady-state steps
    double tokens_per_s = 0;   // median over the same steps (language workloads; 0 for the others)
    std::optional<double> mfu; // median over the same steps, where the run states its peak FLOPs
    StepBreakdown breakdown;   // means over the same steps
    double final_loss = 0;
    std::string eval_metric = "accuracy"; // of the workload's evaluations: accuracy, loss, perplexity, bleu
    std::optional<double> final_eval;     // the last evaluation's value
};

// How a workload's evaluation metric reads: accuracy in % (higher is better), perplexity and loss (lower),
// BLEU (0-100, higher).
struct EvalMetricStyle {
    std::string label; // "accuracy", "perplexity", "BLEU", "eval loss"
    std::string unit;  // "%" or ""
    double scale = 1;  // displayed = value x scale
    bool higher_is_better = true;
};
EvalMetricStyle evalMetricStyle(const std::string& metric);
// "acc 85.7%", "ppl 123.45", "BLEU 24.10", "loss 0.3110"; "-" without a value.
std::string formatEvalValue(const std::string& metric, std::optional<double> value);

// Steps before the steady state: a tenth of the run, at least 1 and at most 20 (allocator, caches, warm-up).
int warmupStepsToSkip(std::size_t step_count);
RunFigures runFigures(const std::vector<StepRecord>& steps, const std::vector<EvalRecord>& evals);

// One finished run as analysis sees it.
struct RunOutcome {
    std::string workload;
    std::string dataset;
    int ranks = 0;
    double samples_per_s = 0;
};

// Throughput scaling of one workload: S(N) = X(N) / X(N0), E(N) = S(N) * N0 / N, N0 = its smallest rank
// count.
struct ScalingPoint {
    std::string workload;
    std::string dataset;
    int ranks = 0;
    Statistics throughput; // samples/s over repeats
    double speedup = 0;
    double efficiency = 0;
};
std::vector<ScalingPoint> throughputScaling(const std::vector<RunOutcome>& runs);

// nccl-tests' bus bandwidth factor: busbw = algbw x factor. All-reduce 2(n-1)/n; all-gather, reduce-scatter
// and all-to-all (n-1)/n; broadcast and reduce 1. Throws std::invalid_argument for another name.
double busBandwidthFactor(const std::string& collective, int ranks);

} // namespace scalebench
