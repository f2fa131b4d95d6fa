// The metric stream's records of a training run (rank 0 writes them): header fields, steps, buckets, rank
// times and the summary.
#include "training_records.h"

#include "metric_stream.h"
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
    namespace field = metric_stream::header;
    json header;
    // The first bucket's size as GradientBuckets closes it: never above the others'.
    const double first_bucket_mb = std::min(o.first_bucket_mb, o.bucket_mb);
    header[field::kThreadsPerRank] = threads;
    header[field::kParameters] = gradients.elements();
    header[field::kHyperparameters] = state.workload.hyperparameters();
    header[field::kEvalMetric] = metric.name;
    header[field::kAllreduce] =
        "fp32 gradients averaged in " + std::to_string(gradients.bucketCount()) + " buckets of up to " +
        json(o.bucket_mb).dump() + " MiB, the first up to " + json(first_bucket_mb).dump() +
        " MiB (reverse registration order), " +
        (o.overlap ? "each started as soon as backward has filled it; " : "all after backward; ") +
        comm.description();
    header[field::kBackend] = comm.backend();
    header[field::kBucketMb] = o.bucket_mb;
    header[field::kFirstBucketMb] = first_bucket_mb;
    header[field::kOverlap] = o.overlap;
    header[field::kBucketElements] = gradients.bucketElements();
    header[field::kPrecision] = o.precision;
    if (state.scaler) {
        namespace scaling = field::loss_scaling;
        const auto& s = state.scaler->options();
        header[field::kLossScaling] = {
            {scaling::kInitialScale, s.initial_scale},
            {scaling::kFactor, s.factor},
            {scaling::kWindow, s.window},
            {scaling::kMaxScale, std::isfinite(s.max_scale) ? json(s.max_scale) : json(nullptr)},
            {scaling::kMinScale, s.min_scale}};
    }
    return header;
}

void scheduleHeaderFields(json& header, const EngineOptions& o, const TrainingSchedule& schedule) {
    namespace field = metric_stream::header;
    namespace hyper = field::hyperparameters;
    json& hp = header[field::kHyperparameters];
    hp[hyper::kSteps] = schedule.steps();
    hp[hyper::kBatchPerRank] = o.batch_per_rank;
    hp[hyper::kAccumulation] = schedule.accumulation();
    hp[hyper::kGlobalBatch] = schedule.globalBatch();
    if (o.epochs > 0) hp[hyper::kEpochs] = o.epochs;
    if (schedule.trainingSamples() > 0) hp[hyper::kTrainSamples] = schedule.trainingSamples();
    hp[hyper::kEvalEvery] = o.eval_every;
    hp[hyper::kEvalSamples] = o.eval_samples;
    header[field::kDataDir] = o.data_dir;
}

json deviceHeaderFields(const TrainingDevice& device, const GpuInventory& gpus,
                        const GradientBuckets& gradients, const PeakChoice& peak) {
    namespace field = metric_stream::header;
    json header;
    header[field::kDevice] = device.record();
    header.update(toJson(gpus));
    header[field::kGradientPath] = gradients.path();
    if (device.cuda()) {
        const auto& context = at::globalContext();
        header[field::kTf32] = {
            {field::tf32::kMatmul,
             at::precision2str(context.float32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL))},
            {field::tf32::kConv,
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
    namespace field = metric_stream::step;
    json record = {{metric_stream::kType, field::kRecord},
                   {field::kStep, step},
                   {field::kEpoch, s.epoch},
                   {field::kLoss, s.loss},
                   {field::kLr, s.lr},
                   {field::kSamplesPerS, static_cast<double>(step_samples) / step_s},
                   {field::kStepS, step_s},
                   {field::kDataS, s.data_s},
                   {field::kForwardS, s.forward_s},
                   {field::kBackwardS, s.backward_s},
                   {field::kAllreduceS, s.allreduce_s},
                   {field::kOptimizerS, s.optimizer_s},
                   {field::kCommHiddenS, s.comm_hidden_s},
                   {field::kElapsedS, std::chrono::duration<double>(s.end - run_start).count()}};
    if (step_tokens > 0) record[field::kTokensPerS] = static_cast<double>(step_tokens) / step_s;
    if (loss_scaling) record[field::kLossScale] = s.loss_scale;
    if (!s.stepped) record[field::kSkipped] = true;
    // MaxText's Llama-2 recipe (seed 003): MFU = global model FLOPs / step time / GPUs / peak.
    if (step_flops > 0) {
        record[field::kModelFlopsPerS] = step_flops / step_s;
        if (peak_tflops > 0) record[field::kMfu] = step_flops / step_s / (w.ranks * peak_tflops * 1e12);
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
    namespace field = metric_stream::buckets;
    return {{metric_stream::kType, field::kRecord},
            {field::kStep, step},
            {field::kBytes, bytes},
            {field::kStartS, start},
            {field::kEndS, end}};
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
    namespace field = metric_stream::rank_times;
    metrics->write({{metric_stream::kType, field::kRecord},
                    {field::kStep, step},
                    {field::kStepS, step_times},
                    {field::kComputeS, compute_times}});
}

bool reached(const EvalMetric& metric, double value, double target) {
    return metric.higher_is_better ? value >= target : value <= target;
}

json summaryRecord(double peak_tflops, const World& w, const Workload& workload, int64_t accumulation,
                   const EvalMetric& metric, std::optional<StopTarget> target, const RunTotals& t,
                   const LossScaler* scaler, double wall_s) {
    namespace field = metric_stream::summary;
    const bool accuracy = metric.name == metric_stream::eval_metric::kAccuracy;
    json summary = {
        {metric_stream::kType, field::kRecord},
        {field::kSteps, t.steps},
        {field::kWallS, wall_s},
        {field::kTrainS, t.train_s},
        {field::kSamplesPerS, static_cast<double>(t.samples) / t.train_s},
        {field::kEvalMetric, metric.name},
        {field::kTarget, target ? json(target->shown) : json(nullptr)},
        {field::kTargetReached, target ? json(t.time_to_target_s.has_value()) : json(nullptr)},
        {field::kTargetAccuracy, target && accuracy ? json(target->evaluation) : json(nullptr)},
        {field::kTimeToAccuracyS, t.time_to_target_s ? json(*t.time_to_target_s) : json(nullptr)},
        {field::kBestValue, t.best_value ? json(*t.best_value) : json(nullptr)},
        {field::kFinalLoss, t.final_loss},
        {field::kSkippedSteps, scaler ? scaler->skippedSteps() : 0},
        {field::kFinalValue, t.last_eval ? json(t.last_eval->value) : json(nullptr)},
        {field::kFinalAccuracy, t.last_eval && accuracy ? json(t.last_eval->value) : json(nullptr)}};
    if (t.tokens > 0) summary[field::kTokensPerS] = static_cast<double>(t.tokens) / t.train_s;
    if (const double flops =
            workload.trainingFlopsPerStep() * static_cast<double>(accumulation) * w.ranks * t.steps;
        flops > 0) {
        summary[field::kModelFlopsPerS] = flops / t.train_s;
        if (peak_tflops > 0) summary[field::kMfu] = flops / t.train_s / (w.ranks * peak_tflops * 1e12);
    }
    return summary;
}

} // namespace scalebench
