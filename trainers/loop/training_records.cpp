// The metric stream's records of a training run (rank 0 writes them): header fields, steps, buckets, rank
// times and the summary.
#include "training_records.h"

#include "mpi_check.h"

#include <ATen/Context.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

namespace scalebench {

using nlohmann::json;

json trainingHeaderFields(const EngineOptions& o, int threads, const TrainingState& state,
                          const EvalMetric& metric, const GradientBuckets& gradients,
                          const Communicator& comm) {
    json header;
    // The first bucket's size as GradientBuckets closes it: never above the others'.
    const double first_bucket_mb = std::min(o.first_bucket_mb, o.bucket_mb);
    header["threads_per_rank"] = threads;
    header["parameters"] = gradients.elements();
    header["hyperparameters"] = state.workload.hyperparameters();
    header["eval_metric"] = metric.name;
    header["allreduce"] =
        "fp32 gradients averaged in " + std::to_string(gradients.bucketCount()) + " buckets of up to " +
        json(o.bucket_mb).dump() + " MiB, the first up to " + json(first_bucket_mb).dump() +
        " MiB (reverse registration order), " +
        (o.overlap ? "each started as soon as backward has filled it; " : "all after backward; ") +
        comm.description();
    header["backend"] = comm.backend();
    header["bucket_mb"] = o.bucket_mb;
    header["first_bucket_mb"] = first_bucket_mb;
    header["overlap"] = o.overlap;
    header["bucket_elements"] = gradients.bucketElements();
    header["precision"] = o.precision;
    if (state.scaler) {
        const auto& s = state.scaler->options();
        header["loss_scaling"] = {
            {"initial_scale", s.initial_scale},
            {"factor", s.factor},
            {"window", s.window},
            {"max_scale", std::isfinite(s.max_scale) ? json(s.max_scale) : json(nullptr)},
            {"min_scale", s.min_scale}};
    }
    return header;
}

void scheduleHeaderFields(json& header, const EngineOptions& o, const TrainingSchedule& schedule) {
    json& hp = header["hyperparameters"];
    hp["steps"] = schedule.steps();
    hp["batch_per_rank"] = o.batch_per_rank;
    hp["accumulation"] = schedule.accumulation();
    hp["global_batch"] = schedule.globalBatch();
    if (o.epochs > 0) hp["epochs"] = o.epochs;
    if (schedule.trainingSamples() > 0) hp["train_samples"] = schedule.trainingSamples();
    hp["eval_every"] = o.eval_every;
    hp["eval_samples"] = o.eval_samples;
    header["data_dir"] = o.data_dir;
}

json deviceHeaderFields(const TrainingDevice& device, const GpuInventory& gpus,
                        const GradientBuckets& gradients, const PeakChoice& peak) {
    json header;
    header["device"] = device.record();
    header.update(toJson(gpus));
    header["gradient_path"] = gradients.path();
    if (device.cuda()) {
        const auto& context = at::globalContext();
        header["tf32"] = {
            {"matmul",
             at::precision2str(context.float32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL))},
            {"conv",
             at::precision2str(context.float32Precision(at::Float32Backend::CUDA, at::Float32Op::CONV))}};
    }
    header.update(toJson(peak));
    return header;
}

json stepRecord(int64_t step, const StepOutcome& s, const Workload& workload, int64_t accumulation,
                double peak_tflops, const World& w, bool loss_scaling,
                StepClock::Clock::time_point run_start) {
    const double step_s = s.stepSeconds();
    // Every rank's batch is the same size, so the global counts are the local ones times the ranks.
    const int64_t step_samples = s.samples * w.ranks, step_tokens = s.tokens * w.ranks;
    const double step_flops = workload.trainingFlopsPerStep() * static_cast<double>(accumulation) *
                              w.ranks; // model FLOPs, all micro-batches of all ranks
    json record = {{"type", "step"},
                   {"step", step},
                   {"epoch", s.epoch},
                   {"loss", s.loss},
                   {"lr", s.lr},
                   {"samples_per_s", static_cast<double>(step_samples) / step_s},
                   {"step_s", step_s},
                   {"data_s", s.data_s},
                   {"forward_s", s.forward_s},
                   {"backward_s", s.backward_s},
                   {"allreduce_s", s.allreduce_s},
                   {"optimizer_s", s.optimizer_s},
                   {"comm_hidden_s", s.comm_hidden_s},
                   {"elapsed_s", std::chrono::duration<double>(s.end - run_start).count()}};
    if (step_tokens > 0) record["tokens_per_s"] = static_cast<double>(step_tokens) / step_s;
    if (loss_scaling) record["loss_scale"] = s.loss_scale;
    if (!s.stepped) record["skipped"] = true;
    // MaxText's Llama-2 recipe (seed 003): MFU = global model FLOPs / step time / GPUs / peak.
    if (step_flops > 0) {
        record["model_flops_per_s"] = step_flops / step_s;
        if (peak_tflops > 0) record["mfu"] = step_flops / step_s / (w.ranks * peak_tflops * 1e12);
    }
    return record;
}

bool writesBucketTimes(int64_t step, int64_t first_step) {
    constexpr int64_t kEveryStepUpTo = 100, kThenEvery = 100;
    return step < first_step + kEveryStepUpTo || step % kThenEvery == 0;
}

json bucketsRecord(int64_t step, const StepOutcome& s, const GradientBuckets& gradients) {
    const auto microseconds = [](double seconds) { return std::round(seconds * 1e6) / 1e6; };
    json bytes = json::array(), start = json::array(), end = json::array();
    const std::vector<std::int64_t> elements = gradients.bucketElements();
    for (std::size_t b = 0; b < s.buckets.size(); ++b) {
        bytes.push_back(elements[b] * static_cast<std::int64_t>(sizeof(float)));
        start.push_back(microseconds(s.buckets[b].start_s));
        end.push_back(microseconds(s.buckets[b].end_s));
    }
    return {{"type", "buckets"}, {"step", step}, {"bytes", bytes}, {"start_s", start}, {"end_s", end}};
}

void writeRankTimes(MetricWriter* metrics, const World& w, int64_t step, double step_s, double compute_s) {
    const double mine[2] = {step_s, compute_s};
    std::vector<double> all(metrics ? 2 * static_cast<std::size_t>(w.ranks) : 0);
    MPI_CHECK(MPI_Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    if (!metrics) return;
    json step_times = json::array(), compute_times = json::array();
    for (int r = 0; r < w.ranks; ++r) {
        step_times.push_back(all[2 * r]);
        compute_times.push_back(all[2 * r + 1]);
    }
    metrics->write(
        {{"type", "rank_times"}, {"step", step}, {"step_s", step_times}, {"compute_s", compute_times}});
}

bool reached(const EvalMetric& metric, double value, double target) {
    return metric.higher_is_better ? value >= target : value <= target;
}

json summaryRecord(double peak_tflops, const World& w, const Workload& workload, int64_t accumulation,
                   const EvalMetric& metric, std::optional<StopTarget> target, const RunTotals& t,
                   const LossScaler* scaler, double wall_s) {
    const bool accuracy = metric.name == "accuracy";
    json summary = {{"type", "summary"},
                    {"steps", t.steps},
                    {"wall_s", wall_s},
                    {"train_s", t.train_s},
                    {"samples_per_s", static_cast<double>(t.samples) / t.train_s},
                    {"eval_metric", metric.name},
                    {"target", target ? json(target->shown) : json(nullptr)},
                    {"target_reached", target ? json(t.time_to_target_s.has_value()) : json(nullptr)},
                    {"target_accuracy", target && accuracy ? json(target->evaluation) : json(nullptr)},
                    {"time_to_accuracy_s", t.time_to_target_s ? json(*t.time_to_target_s) : json(nullptr)},
                    {"best_value", t.best_value ? json(*t.best_value) : json(nullptr)},
                    {"final_loss", t.final_loss},
                    {"skipped_steps", scaler ? scaler->skippedSteps() : 0},
                    {"final_value", t.last_eval ? json(t.last_eval->value) : json(nullptr)},
                    {"final_accuracy", t.last_eval && accuracy ? json(t.last_eval->value) : json(nullptr)}};
    if (t.tokens > 0) summary["tokens_per_s"] = static_cast<double>(t.tokens) / t.train_s;
    if (const double flops =
            workload.trainingFlopsPerStep() * static_cast<double>(accumulation) * w.ranks * t.steps;
        flops > 0) {
        summary["model_flops_per_s"] = flops / t.train_s;
        if (peak_tflops > 0) summary["mfu"] = flops / t.train_s / (w.ranks * peak_tflops * 1e12);
    }
    return summary;
}

} // namespace scalebench
