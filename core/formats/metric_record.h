// The records of the metric stream (docs/metric-stream.md) as the console holds them after parsing.
#pragma once

#include "metric_stream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace scalebench {

// The format's version, as the engine writes it and the console's readers of other tools' output too.
inline constexpr int kMetricStreamVersion = metric_stream::header::kFormatVersion;

// First record of a run: what ran, where, with which versions and hyper-parameters.
struct HeaderRecord {
    int version = 0;
    std::string workload;
    std::string dataset;
    int ranks = 0;
    std::string json; // the whole record as written by the engine (hosts, versions, hyper-parameters)
    std::int64_t steps =
        0; // the steps it will train (hyperparameters.steps: with --epochs, what they came to)

    friend bool operator==(const HeaderRecord&, const HeaderRecord&) = default;
};

// One optimisation step, timed on rank 0. Seconds unless named otherwise; the parts add up to step_s.
struct StepRecord {
    std::int64_t step = 0;
    double loss = 0;          // global mean training loss of this step
    double samples_per_s = 0; // global batch / step_s
    double step_s = 0;
    double data_s = 0;
    double forward_s = 0;
    double backward_s = 0;
    double allreduce_s = 0; // exposed communication: the step waited for gradient all-reduce after backward
    double optimizer_s = 0;
    double elapsed_s = 0; // since the run started
    // Communication that ran while backward was still computing (overlapped buckets), measured; not part of
    // step_s. allreduce_s + comm_hidden_s is the whole communication time of the step.
    double comm_hidden_s = 0;
    double tokens_per_s = 0;      // language workloads: global tokens / step_s (0 for the others)
    double model_flops_per_s = 0; // achieved model FLOPs of every rank (0 where the workload defines none)
    std::optional<double> mfu;    // model FLOPs utilisation, where the run states the peak

    friend bool operator==(const StepRecord&, const StepRecord&) = default;
};

// Per-rank timing of one step, for straggler views: every rank's step time and its own compute (data +
// forward + backward + optimizer, without waiting for others). Ranks in order 0..n-1; hosts are in the
// header.
struct RankTimesRecord {
    std::int64_t step = 0;
    std::vector<double> step_s;
    std::vector<double> compute_s;

    friend bool operator==(const RankTimesRecord&, const RankTimesRecord&) = default;
};

// Each gradient bucket's all-reduce in one step, timed on rank 0 (the engine writes it for the run's first
// 100 steps, then every 100th). Index = bucket, in the order the buckets are reduced (the last layers first);
// times are seconds since the step's start, on the step breakdown's clock. Kept apart from the step figures.
struct BucketTimesRecord {
    std::int64_t step = 0;
    std::vector<std::int64_t> bytes; // on the wire: fp32 gradients (the last bucket also carries the loss)
    std::vector<double> start_s;
    std::vector<double> end_s;

    friend bool operator==(const BucketTimesRecord&, const BucketTimesRecord&) = default;
};

// Evaluation on held-out data.
struct EvalRecord {
    std::int64_t step = 0;
    std::string metric = "accuracy"; // the workload's: accuracy (a fraction), loss, perplexity, bleu (0-100)
    double value = 0;                // of metric
    double loss = 0;
    double elapsed_s = 0;

    friend bool operator==(const EvalRecord&, const EvalRecord&) = default;
};

// Last record of a run that ended normally.
struct SummaryRecord {
    std::int64_t steps = 0;
    double wall_s = 0;
    double samples_per_s = 0;
    double final_loss = 0;
    std::string eval_metric = "accuracy";
    std::optional<double> final_eval; // the last evaluation's value of eval_metric
    std::string json;
    // The quality target, in the unit the console shows eval_metric in (accuracy in %); none without one.
    std::optional<double> target{};
    bool target_reached = false;
    std::optional<double> time_to_target_s{}; // MLBench's time to accuracy: run start to the evaluation that
                                              // reached the target
    std::optional<double> best_eval{};        // the best evaluation's value of eval_metric

    friend bool operator==(const SummaryRecord&, const SummaryRecord&) = default;
};

// A rank that failed says why before the job ends.
struct ErrorRecord {
    int rank = 0;
    std::string message;

    friend bool operator==(const ErrorRecord&, const ErrorRecord&) = default;
};

// One message size of a collective sweep (MLBench task 0), timed like nccl-tests: warm-up, then repetitions;
// the time is the mean per call, averaged across ranks.
struct CollectiveRecord {
    std::string collective;      // allreduce, allgather, reducescatter, broadcast, alltoall
    std::string dtype;           // float32, float16, bfloat16
    std::string backend = "mpi"; // mpi, gloo, nccl
    std::string op = "sum";      // sum, avg (reductions only)
    bool in_place = false;
    std::int64_t elements = 0;
    std::int64_t bytes = 0;
    int ranks = 0;
    int repetitions = 0;
    double time_s = 0;     // seconds per call
    double algbw_gbps = 0; // bytes / time_s, in 1e9 bytes/s
    double busbw_gbps = 0; // algbw x the collective's bus factor (nccl-tests)
    bool correct = false;  // every element of the result checked
    // What measured it: "scalebench" (the engine's sweep), "nccl-tests", "osu"; the engine's records have
    // none in the stream.
    std::string tool = "scalebench";
    bool checked =
        true; // the result was checked at all (nccl-tests -c 0 prints N/A; OSU checks only with -c)

    friend bool operator==(const CollectiveRecord&, const CollectiveRecord&) = default;
};

// Whether a collective reduces (all-reduce, reduce, reduce-scatter): only those have an op; the others' is
// "none", as nccl-tests prints their redop.
inline bool reduces(const std::string& collective) {
    return collective == "allreduce" || collective == "reduce" || collective == "reducescatter";
}

// One check of the device self-check: what it compared, whether it passed, and the figure it was judged by
// where it has one (the largest difference against its tolerance); none where bit-identical results are asked
// for (the same seeded steps twice).
struct DeviceCheck {
    std::string name;
    bool passed = false;
    std::string figure{}; // the figure's key in the stream: max_abs_difference, max_relative_difference
    std::optional<double> value{};
    std::optional<double> tolerance{};

    friend bool operator==(const DeviceCheck&, const DeviceCheck&) = default;
};

// The verdict of the engine's device self-check (--check-device, a plan's check_device), written by rank 0
// instead of steps: pass only where every check passed on every rank.
struct DeviceCheckRecord {
    std::string workload;
    std::string device;     // cpu, cuda:0
    std::int64_t steps = 0; // of each seeded run
    std::string verdict;    // pass, fail
    bool ranks_passed = false;
    std::vector<DeviceCheck> checks{}; // rank 0's, in the order they ran

    bool passed() const { return verdict == metric_stream::device_check::kPass; }
    friend bool operator==(const DeviceCheckRecord&, const DeviceCheckRecord&) = default;
};

using MetricRecord = std::variant<HeaderRecord, StepRecord, EvalRecord, SummaryRecord, ErrorRecord,
                                  CollectiveRecord, RankTimesRecord, BucketTimesRecord, DeviceCheckRecord>;

} // namespace scalebench
