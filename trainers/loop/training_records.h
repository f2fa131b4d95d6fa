// The metric stream's records of a training run (rank 0 writes them): the header's training fields, each
// step's record, its gradient buckets' times and every rank's times, and the summary over the run.
#pragma once

#include "checkpoint.h"
#include "engine_options.h"
#include "gpu_inventory.h"
#include "gpu_peak.h"
#include "gradient_buckets.h"
#include "loss_scaler.h"
#include "metric_writer.h"
#include "step_clock.h"
#include "training_device.h"
#include "training_schedule.h"
#include "workload.h"
#include "world.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace scalebench {

// ---------------------------------------------------------------- header

// The header's fields of a training run beyond headerRecord's: threads, parameters, how the gradients are
// averaged and the precision.
nlohmann::json trainingHeaderFields(const EngineOptions& o, int threads, const TrainingState& state,
                                    const EvalMetric& metric, const GradientBuckets& gradients,
                                    const Communicator& comm);

// The run's length and batch as the schedule made them: the steps (of --epochs), the micro-batch, the
// gradient accumulation and the global batch, in the header's hyperparameters.
void scheduleHeaderFields(nlohmann::json& header, const EngineOptions& o, const TrainingSchedule& schedule);

// The header's fields of where the rank trained: the device and why, the node's GPUs (rank 0's), how
// gradients reach the backend, TF32, and the peak behind MFU.
nlohmann::json deviceHeaderFields(const TrainingDevice& device, const GpuInventory& gpus,
                                  const GradientBuckets& gradients, const PeakChoice& peak);

// ---------------------------------------------------------------- steps

// One training step as the records see it: the time of each phase, its loss and learning rate.
struct StepOutcome {
    double data_s = 0, forward_s = 0, backward_s = 0, allreduce_s = 0, optimizer_s = 0; // seconds
    StepClock::Clock::time_point end; // the host's clock once the step had ended
    int64_t epoch = 0;                // of the step's batch
    double lr = 0;
    double loss = 0;          // the batch's mean loss, averaged across ranks
    double loss_scale = 1;    // fp16: this step's
    bool stepped = true;      // false: fp16 found an inf or a NaN and skipped the optimizer
    double comm_hidden_s = 0; // all-reduce time hidden behind backward, seconds
    int64_t samples = 0;      // this rank's batch (all its micro-batches)
    int64_t tokens = 0;
    // Each gradient bucket's all-reduce (bucket order): start and end, seconds since the step's start, on
    // the step clock's time (host on the CPU, device events on a GPU).
    std::vector<GradientBuckets::BucketTime> buckets;

    // data + forward + backward + exposed all-reduce + optimizer, seconds
    double stepSeconds() const { return data_s + forward_s + backward_s + allreduce_s + optimizer_s; }
};

// The step record (rank 0): global throughput, the time of each phase, and with model FLOPs the MFU.
nlohmann::json stepRecord(int64_t step, const StepOutcome& s, const Workload& workload, int64_t accumulation,
                          double peak_tflops, const World& w, bool loss_scaling,
                          StepClock::Clock::time_point run_start);

// Whether `step` writes a buckets record: each of the run's first 100 steps (from its first, resumed runs
// too), enough for a steady-state median per bucket, then one in 100, so a long run's stream grows by 1 %
// of that (docs/metric-stream.md).
bool writesBucketTimes(int64_t step, int64_t first_step);

// The buckets record (rank 0): each bucket's bytes on the wire (fp32, the loss in the last) and its
// all-reduce's start and end since the step's start, rounded to the microsecond to keep the line short.
nlohmann::json bucketsRecord(int64_t step, const StepOutcome& s, const GradientBuckets& gradients);

// Every rank's step time and own compute time, gathered to rank 0 (stragglers). Collective.
void writeRankTimes(MetricWriter* metrics, const World& w, int64_t step, double step_s, double compute_s);

// ---------------------------------------------------------------- summary

// The quality target the run stops at, if any: --target in the unit the console shows the metric in (accuracy
// in %), or the old --target-accuracy (a fraction, with a warning).
struct StopTarget {
    double shown = 0;      // as written: 80 (%)
    double evaluation = 0; // as the workload's evaluations measure it: 0.8
};

// Whether `value` is at `target` or beyond it, in the metric's better direction.
bool reached(const EvalMetric& metric, double value, double target);

// What the summary adds up over the training section.
struct RunTotals {
    int64_t steps = 0;   // the last step taken
    int64_t samples = 0; // all ranks
    int64_t tokens = 0;  // all ranks
    double train_s = 0;  // the steps' own time, seconds
    double final_loss = 0;
    std::optional<Evaluation> last_eval;
    std::optional<double> time_to_target_s; // MLBench: wall time until the eval metric reaches the target
    std::optional<double> best_value;       // the best evaluation so far (what a run short of its target got)

    void addEvaluation(const Evaluation& eval, const EvalMetric& metric) {
        last_eval = eval;
        if (!best_value || reached(metric, eval.value, *best_value)) best_value = eval.value;
    }

    // A step's time, samples and tokens (every rank's batch is the same size: the local counts times the
    // ranks).
    void add(const StepOutcome& step, int ranks) {
        train_s += step.stepSeconds();
        samples += step.samples * ranks;
        tokens += step.tokens * ranks;
        final_loss = step.loss;
    }
};

// The summary record (rank 0): throughput over the steps' own time, the target and the final values.
nlohmann::json summaryRecord(double peak_tflops, const World& w, const Workload& workload,
                             int64_t accumulation, const EvalMetric& metric, std::optional<StopTarget> target,
                             const RunTotals& t, const LossScaler* scaler, double wall_s);

} // namespace scalebench
