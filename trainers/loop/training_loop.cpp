// Synchronous data-parallel training of any workload, writing the metric stream (rank 0).
#include "training_loop.h"

#include "checkpoint.h"
#include "device_batches.h"
#include "engine_source_hash.h"
#include "eval_targets.h"
#include "gpu_inventory.h"
#include "gpu_peak.h"
#include "gradient_buckets.h"
#include "launch_environment.h"
#include "loss_scaler.h"
#include "metric_writer.h"
#include "mllog_writer.h"
#include "mlperf_benchmark.h"
#include "mpi_check.h"
#include "open_communicator.h"
#include "step_clock.h"
#include "training_device.h"
#include "training_schedule.h"

#include <ATen/Version.h>
#include <ATen/autocast_mode.h>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <malloc.h>
#include <optional>
#include <thread>
#include <torch/torch.h>
#include <torch/version.h>
#include <unistd.h> // environ

namespace scalebench {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

std::string mpiLibraryVersion() {
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    MPI_Get_library_version(text, &length);
    std::string version(text, static_cast<std::size_t>(length));
    return version.substr(0, version.find_first_of(",\n"));
}

// The thread support MPI gave this process: it changes small-message latency (Open MPI locks every call above
// MPI_THREAD_SINGLE), so sweeps taken under different levels are not alike.
std::string mpiThreadLevel() {
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    switch (provided) {
    case MPI_THREAD_SINGLE:
        return "single";
    case MPI_THREAD_FUNNELED:
        return "funneled";
    case MPI_THREAD_SERIALIZED:
        return "serialized";
    case MPI_THREAD_MULTIPLE:
        return "multiple";
    }
    return std::to_string(provided);
}

// The quality target the run stops at, if any: --target in the unit the console shows the metric in (accuracy
// in %), or the old --target-accuracy (a fraction, with a warning).
struct StopTarget {
    double shown = 0;      // as written: 80 (%)
    double evaluation = 0; // as the workload's evaluations measure it: 0.8
};
std::optional<StopTarget> stopTarget(const EngineOptions& o, const EvalMetric& metric, bool warn) {
    double target = o.target;
    if (o.target_accuracy > 0) {
        if (metric.name != "accuracy")
            throw std::invalid_argument("--target-accuracy: " + o.workload + " is evaluated by " +
                                        metric.name + ", not accuracy; use --target");
        if (o.target > 0) throw std::invalid_argument("--target-accuracy: give --target or it, not both");
        target = o.target_accuracy * 100;
        if (warn)
            std::cerr << "scalebench-engine: warning: --target-accuracy " << o.target_accuracy
                      << " is the old form of --target " << target << " (accuracy in %)\n";
    }
    if (target == 0) return std::nullopt;
    if (const std::string problem = eval_targets::targetProblem(metric.name, target); !problem.empty())
        throw std::invalid_argument("--target " + engine_cli::formatValue(target) + " for " + o.workload +
                                    " (" + metric.name + "): " + problem);
    return StopTarget{target, eval_targets::targetInEvaluationUnits(metric.name, target)};
}

bool reached(const EvalMetric& metric, double value, double target) {
    return metric.higher_is_better ? value >= target : value <= target;
}

// Every rank's step time and own compute time, gathered to rank 0 (stragglers). Collective.
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

// --precision bf16|fp16: the forward pass under LibTorch's autocast (matrix products and convolutions in the
// low precision, reductions and losses in fp32; the parameters stay fp32). What torch.autocast's __enter__
// and __exit__ do; LibTorch has no C++ guard of its own. Thread-local: only this thread's forward is cast.
class AutocastGuard {
  public:
    AutocastGuard(std::optional<at::ScalarType> dtype, at::DeviceType device)
        : dtype_(dtype), device_(device) {
        if (!dtype_) return;
        was_enabled_ = at::autocast::is_autocast_enabled(device_);
        was_dtype_ = at::autocast::get_autocast_dtype(device_);
        at::autocast::set_autocast_enabled(device_, true);
        at::autocast::set_autocast_dtype(device_, *dtype_);
        at::autocast::increment_nesting();
    }
    ~AutocastGuard() {
        if (!dtype_) return;
        if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache(); // the cast weights
        at::autocast::set_autocast_enabled(device_, was_enabled_);
        at::autocast::set_autocast_dtype(device_, was_dtype_);
    }
    AutocastGuard(const AutocastGuard&) = delete;
    AutocastGuard& operator=(const AutocastGuard&) = delete;

  private:
    std::optional<at::ScalarType> dtype_;
    at::DeviceType device_;
    bool was_enabled_ = false;
    at::ScalarType was_dtype_ = at::kFloat;
};

std::optional<at::ScalarType> autocastType(const std::string& precision) {
    if (precision == "bf16") return at::kBFloat16;
    if (precision == "fp16") return at::kHalf;
    return std::nullopt; // fp32
}

// fp16: divides the averaged gradients by the loss scale in place; true when one of them holds an inf or a
// NaN (GradScaler's fused check). Every rank holds the same averaged gradients, so every rank decides alike.
bool unscaleGradients(torch::nn::Module& model, double scale) {
    std::vector<torch::Tensor> grads;
    for (const auto& p : model.parameters())
        if (p.grad().defined()) grads.push_back(p.grad());
    if (grads.empty()) return false;
    auto found_inf = torch::zeros({1}, grads.front().options());
    const auto inv_scale = torch::full({1}, 1.0 / scale, grads.front().options());
    at::_amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale);
    return found_inf.item<float>() > 0;
}

// The MLPerf compliance log's training-session keys (mlcommons/logging constants.py), as the open division of
// the workload's benchmark wants them (mlperf_benchmark.h; docs/workloads.md). tf32: fp32 matrix products run
// on TF32 tensor cores (--tf32 on a GPU).
void logRunInfo(MllogWriter& log, const EngineOptions& o, const World& w, const Workload& workload,
                const TrainingSchedule& schedule, bool tf32) {
    const json hp = workload.hyperparameters();
    // A workload without an MLPerf benchmark names none rather than one the checker would look up as its own.
    if (const auto benchmark = mlperfBenchmarkOf(o.workload))
        log.event("submission_benchmark", benchmark->benchmark);
    log.event("submission_org", o.mllog_org);
    log.event("submission_division", "open"); // a proxy is never a closed result
    log.event("submission_status", "research");
    log.event("submission_platform", std::to_string(w.ranks) + "x" + w.host);
    log.event("cache_clear", false); // the engine drops no page cache before a run
    log.event("seed", o.seed);
    log.event("global_batch_size", schedule.globalBatch());
    log.event("gradient_accumulation_steps", schedule.accumulation());
    log.event("opt_base_learning_rate", hp.value("base_lr", o.lr));
    if (hp.contains("warmup_steps")) log.event("opt_learning_rate_warmup_steps", hp["warmup_steps"]);
    json fields = workload.mllogFields(); // items() refers to it
    // One data pass over every rank where the workload knows it (--epochs counts them), else the samples the
    // run trains on (steps x global batch: synthetic streams).
    if (!fields.contains("train_samples"))
        fields["train_samples"] = schedule.trainingSamples() > 0 ? schedule.trainingSamples()
                                                                 : schedule.steps() * schedule.globalBatch();
    for (const auto& [key, value] : fields.items())
        log.event(key, value);
    // MLPerf 6.1's disclosure: autocast casts every matrix product (attention's too) to the run's precision;
    // gradients are averaged in fp32 (gradient_buckets.h); data parallelism only, over w.ranks ranks.
    const std::string precision = mlperfPrecision(o.precision, tf32);
    log.event("lowest_numerical_precision_in_linear", precision);
    log.event("lowest_numerical_precision_in_attn", precision);
    log.event("lowest_numerical_precision_in_comm", "fp32");
    for (const char* parallelism :
         {"tensor_parallelism", "pipeline_parallelism", "context_parallelism", "expert_parallelism"})
        log.event(parallelism, 1);
    log.event("micro_batch_size", o.batch_per_rank);   // a rank's micro-batch
    log.event("config_filename", "scalebench-engine"); // no file: the options on its command line
}

// MLPerf: a run that ends in an error stops with status "aborted".
struct RunStopOnError {
    MllogWriter* log;
    const int exceptions = std::uncaught_exceptions();
    ~RunStopOnError() {
        if (log && std::uncaught_exceptions() > exceptions) try {
                log->end("run_stop", nullptr, {{"status", "aborted"}});
            } catch (...) {
            }
    }
};

void dumpParameters(const std::string& path, torch::nn::Module& module) {
    std::ofstream dump(path, std::ios::binary); // float32, registration order, logical (NCHW) layout
    for (const auto& p : module.parameters()) {
        const auto values = p.detach().to(torch::kCPU, torch::kFloat32).contiguous();
        dump.write(reinterpret_cast<const char*>(values.data_ptr<float>()),
                   static_cast<std::streamsize>(values.numel() * sizeof(float)));
    }
    if (!dump) throw std::runtime_error("--dump-parameters: cannot write " + path);
}

// The CPU kernels this rank's LibTorch dispatches to, which move every training figure from one CPU to the
// next: ATen's vector width (AVX512, AVX2, DEFAULT; capped by ATEN_CPU_CAPABILITY), oneDNN's ISA cap
// (ONEDNN_MAX_CPU_ISA, "ALL" when unset) and the CPU's model name (docs/testing.md).
json cpuKernels() {
    const char* onednn = std::getenv("ONEDNN_MAX_CPU_ISA");
    std::string model = "unknown";
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);)
        if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
            model = line.substr(line.find(':') + 2);
            break;
        }
    return {{"aten_capability", at::get_cpu_capability()},
            {"onednn_max_isa", onednn && *onednn ? onednn : "ALL"},
            {"cpu_model", model}};
}

// --threads, else this node's cores shared among its ranks.
int trainingThreads(const EngineOptions& o, const World& w) {
    return o.threads_per_rank > 0
               ? o.threads_per_rank
               : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / w.local_ranks);
}

// glibc hands freed blocks above its (dynamic) mmap threshold back to the kernel, and every step then
// page-faults its activations (8 MB each at batch 128) back in: ~3,000 minor faults per step. Keep them
// in the heap: 10% less CPU per ResNet-20 step here (bench/results/2026-11-22-peers.md).
void keepFreedBlocksInHeap() {
    if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 || mallopt(M_TRIM_THRESHOLD, 1 << 30) != 1)
        throw std::runtime_error("mallopt refused the mmap and trim thresholds");
}

// MLPerf's compliance log (--mllog, rank 0), opened with init_start; nullptr elsewhere.
std::unique_ptr<MllogWriter> openMllog(const EngineOptions& o, const World& w) {
    if (w.rank != 0 || o.mllog.empty()) return nullptr;
    auto log = std::make_unique<MllogWriter>(o.mllog);
    log->start("init_start");
    return log;
}

// Where the run starts: step 1, or with --resume the step after the newest checkpoint's.
struct StartPoint {
    int64_t first_step = 1;
    std::string resumed_from; // the checkpoint's rank-0 file; empty without --resume
};

// Resume: the parameters, optimizer, loss scale, data position and random state of the newest checkpoint.
StartPoint resumeFromCheckpoint(const EngineOptions& o, const TrainingState& state, const World& w) {
    StartPoint start;
    if (!o.resume) return start;
    start.first_step = loadNewestCheckpoint(o.checkpoint_dir, state, w) + 1;
    start.resumed_from = checkpointPath(o.checkpoint_dir, start.first_step - 1).string();
    if (start.first_step > o.steps)
        throw std::invalid_argument("--resume: " + start.resumed_from + " is at step " +
                                    std::to_string(start.first_step - 1) + ", not before --steps " +
                                    std::to_string(o.steps));
    return start;
}

// The header's fields of a training run beyond headerRecord's: threads, parameters, how the gradients are
// averaged, the precision and where a resumed run started.
json trainingHeaderFields(const EngineOptions& o, int threads, const TrainingState& state,
                          const EvalMetric& metric, const GradientBuckets& gradients,
                          const Communicator& comm, const StartPoint& start) {
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
    if (o.resume) {
        header["resumed_from"] = start.resumed_from;
        header["first_step"] = start.first_step;
    }
    return header;
}

// The run's length and batch as the schedule made them: the steps (of --epochs), the micro-batch, the
// gradient accumulation and the global batch, in the header's hyperparameters.
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

// On a GPU, fp32 matrix products and convolutions on TF32 tensor cores or in full fp32 (--tf32), set
// explicitly rather than left to LibTorch's defaults (which differ between the two).
void useTf32(bool on) {
    auto& context = at::globalContext();
    const auto precision = on ? at::Float32Precision::TF32 : at::Float32Precision::IEEE;
    context.setFloat32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL, precision);
    context.setFloat32Precision(at::Float32Backend::CUDA, at::Float32Op::CONV, precision);
}

// The dense peak that MFU divides by: --peak-tflops, else the GPU's from the table (gpu_peak.h), else none
// (tflops 0) with the reason.
PeakChoice peakFor(const EngineOptions& o, const TrainingDevice& device, const GpuInventory& gpus) {
    if (o.peak_tflops > 0) return *choosePeak(o.peak_tflops, "", o.precision);
    if (!device.cuda()) return {0, "none on a CPU: give --peak-tflops for MFU"};
    const std::string name = gpus.devices.at(static_cast<std::size_t>(device.device.index())).name;
    if (o.precision == "fp32" && !o.tf32) // the table's fp32 figure is TF32's
        return {0, "none: fp32 without TF32 runs on CUDA cores, whose peak the table leaves out; give "
                   "--peak-tflops"};
    if (auto peak = choosePeak(0, name, o.precision)) return *peak;
    return {0, "none: " + name + " is not in the engine's table; give --peak-tflops for MFU"};
}

// The header's fields of where the rank trained: the device and why, the node's GPUs (rank 0's), how
// gradients reach the backend, TF32, and the peak behind MFU.
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

// The forward pass's autocast (docs: --precision): the low-precision type (none for fp32) and the parameters'
// device.
struct Autocast {
    std::optional<at::ScalarType> type;
    at::DeviceType device;
};

// MLPerf's epoch_start and epoch_stop events around every data pass (epochs counted from 1); nothing without
// a log.
class MllogEpochs {
  public:
    explicit MllogEpochs(MllogWriter* log) : log_(log) {}
    // Before the forward pass: closes the previous epoch and opens the batch's when it changed.
    void enter(int64_t epoch) {
        if (!log_ || epoch == epoch_) return;
        if (epoch_ >= 0) log_->end("epoch_stop", nullptr, {{"epoch_num", epoch_ + 1}});
        epoch_ = epoch;
        log_->start("epoch_start", nullptr, {{"epoch_num", epoch_ + 1}});
    }
    // After the last step: closes the open epoch.
    void close() {
        if (log_ && epoch_ >= 0) log_->end("epoch_stop", nullptr, {{"epoch_num", epoch_ + 1}});
    }

  private:
    MllogWriter* log_;
    int64_t epoch_ = -1; // the epoch whose epoch_start the log holds
};

// One training step as the records see it: the time of each phase, its loss and learning rate.
struct StepOutcome {
    double data_s = 0, forward_s = 0, backward_s = 0, allreduce_s = 0, optimizer_s = 0; // seconds
    Clock::time_point end; // the host's clock once the step had ended
    int64_t epoch = 0;     // of the step's batch
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

// What one step works with.
struct StepParts {
    const TrainingState& state;
    DeviceBatches& batches;
    GradientBuckets& gradients;
    const Autocast& autocast;
    MllogEpochs& epochs;
    StepClock& clock;
};

// data, forward, backward (buckets averaged meanwhile), the rest of the all-reduce, the optimizer; on a GPU
// all enqueued, then (prefetch_next) the next batch made and its copy started while the device works, and
// only then the host waits for the step's end and reads its times and loss. With gradient accumulation
// (accumulation > 1) data, forward and backward run once per micro-batch, each loss divided by the count;
// only the last micro-batch's backward averages the buckets across ranks.
// slow_s: seconds this rank sleeps in its optimizer phase (--slow-rank), 0 for none.
StepOutcome trainStep(int64_t step, const StepParts& parts, int64_t accumulation, bool prefetch_next,
                      double slow_s) {
    const TrainingState& state = parts.state;
    StepClock& clock = parts.clock;
    StepOutcome out;
    out.lr = state.workload.learningRate(step);
    out.loss_scale = state.scaler ? state.scaler->scale() : 1.0; // this step's
    clock.mark(StepClock::Start);
    torch::Tensor step_loss; // () fp32: the micro-batches' mean losses over accumulation, added up
    for (int64_t micro = 1; micro <= accumulation; ++micro) {
        const bool last = micro == accumulation;
        const Batch batch = parts.batches.take();
        clock.mark(StepClock::Data);
        out.epoch = parts.batches.epoch();
        parts.epochs.enter(out.epoch);
        torch::Tensor local_loss; // () fp32
        {
            AutocastGuard guard(parts.autocast.type, parts.autocast.device);
            local_loss = state.workload.forwardLoss(batch);
        }
        if (accumulation > 1) local_loss = local_loss / static_cast<double>(accumulation);
        step_loss = micro == 1 ? local_loss.detach() : step_loss + local_loss.detach();
        clock.mark(StepClock::Forward);
        if (last)
            parts.gradients.beginStep(step_loss, accumulation == 1); // zeroes the gradients where none wait
        else
            parts.gradients.accumulate(micro == 1);
        (state.scaler ? local_loss * out.loss_scale : local_loss)
            .backward(); // the last micro-batch: full buckets are averaged meanwhile
        clock.mark(StepClock::Backward);
        out.samples += batch.samples;
        out.tokens += batch.tokens;
    }
    parts.gradients.finishStep();
    clock.mark(StepClock::AllReduce);
    // fp16: an inf or a NaN in the averaged gradients skips the step (and shrinks the scale).
    out.stepped = !state.scaler || state.scaler->update(unscaleGradients(state.model, out.loss_scale));
    if (out.stepped) {
        state.workload.beforeOptimizerStep();
        setLearningRate(state.optimizer, out.lr);
        state.optimizer.step();
        state.workload.afterOptimizerStep();
    }
    if (slow_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(slow_s));
    clock.mark(StepClock::Optimizer);
    if (prefetch_next) parts.batches.prefetch();
    clock.finish();
    out.end = Clock::now();
    const auto communication = parts.gradients.collect();
    out.loss = communication.mean_loss;
    out.comm_hidden_s = communication.hidden_s;
    // The buckets' times count from beginStep, right after the last micro-batch's Forward mark.
    const double backward_begins_s = clock.seconds(StepClock::Start, StepClock::Forward);
    for (const auto& b : communication.buckets)
        out.buckets.push_back({backward_begins_s + b.start_s, backward_begins_s + b.end_s});
    out.data_s = clock.phaseSeconds(StepClock::Data);
    out.forward_s = clock.phaseSeconds(StepClock::Forward);
    out.backward_s = clock.phaseSeconds(StepClock::Backward);
    out.allreduce_s = clock.phaseSeconds(StepClock::AllReduce);
    out.optimizer_s = clock.phaseSeconds(StepClock::Optimizer);
    return out;
}

// The step record (rank 0): global throughput, the time of each phase, and with model FLOPs the MFU.
json stepRecord(int64_t step, const StepOutcome& s, const Workload& workload, int64_t accumulation,
                double peak_tflops, const World& w, bool loss_scaling, Clock::time_point run_start) {
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
                   {"elapsed_s", seconds(run_start, s.end)}};
    if (step_tokens > 0) record["tokens_per_s"] = static_cast<double>(step_tokens) / step_s;
    if (loss_scaling) record["loss_scale"] = s.loss_scale;
    if (!s.stepped) record["skipped"] = true;
    if (step_flops > 0) { // seed 003: MFU = global model FLOPs / step time / GPUs / peak
        record["model_flops_per_s"] = step_flops / step_s;
        if (peak_tflops > 0) record["mfu"] = step_flops / step_s / (w.ranks * peak_tflops * 1e12);
    }
    return record;
}

// Whether `step` writes a buckets record: each of the run's first 100 steps (from its first, resumed runs
// too), enough for a steady-state median per bucket, then one in 100, so a long run's stream grows by 1 %
// of that (docs/metric-stream.md).
bool writesBucketTimes(int64_t step, int64_t first_step) {
    constexpr int64_t kEveryStepUpTo = 100, kThenEvery = 100;
    return step < first_step + kEveryStepUpTo || step % kThenEvery == 0;
}

// The buckets record (rank 0): each bucket's bytes on the wire (fp32, the loss in the last) and its
// all-reduce's start and end since the step's start, rounded to the microsecond to keep the line short.
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

// An evaluation after step: MLPerf's eval events, the workload told of it, and the eval record (rank 0).
// Collective.
Evaluation evaluateAfterStep(int64_t step, Workload& workload, const EvalMetric& metric, MllogWriter* mllog,
                             MetricWriter* metrics, Clock::time_point run_start, int64_t global_batch) {
    // MLPerf's eval metadata: the epoch and the samples trained on so far (every rank's).
    const nlohmann::ordered_json at = {{"epoch_num", workload.epoch() + 1},
                                       {"samples_count", step * global_batch}};
    if (mllog) mllog->start("eval_start", nullptr, at);
    const Evaluation eval = workload.evaluate();
    if (mllog) {
        // MLPerf logs BLEU as a fraction (gnmt's and transformer's targets are 0.24 and 0.25).
        mllog->event("eval_accuracy", metric.name == "bleu" ? eval.value / 100 : eval.value, at);
        mllog->end("eval_stop", nullptr, at);
    }
    workload.afterEvaluation(eval);
    if (metrics) {
        json record = {{"type", "eval"},        {"step", step},
                       {"metric", metric.name}, {"value", eval.value},
                       {"loss", eval.loss},     {"elapsed_s", seconds(run_start, Clock::now())}};
        if (metric.name == "accuracy") record["accuracy"] = eval.value;
        record.update(eval.evidence);
        metrics->write(record);
    }
    return eval;
}

// A checkpoint of step and its record (rank 0). Collective.
void writeCheckpoint(const EngineOptions& o, int64_t step, const TrainingState& state, const World& w,
                     MetricWriter* metrics) {
    const auto start = Clock::now();
    const auto path = saveCheckpoint(o.checkpoint_dir, step, state, w);
    if (metrics)
        metrics->write({{"type", "checkpoint"},
                        {"step", step},
                        {"path", path.string()},
                        {"seconds", seconds(start, Clock::now())}});
}

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

} // namespace

void setLearningRate(torch::optim::Optimizer& optimizer, double lr) {
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

json headerRecord(const EngineOptions& o, const World& w, const json& hosts) {
    const std::optional<std::string> nccl = ncclLibraryVersion();
    return {{"type", "header"},
            {"version", 1},
            {"workload", o.workload},
            {"dataset", o.workload == "allreduce-sweep" ? "none" : o.dataset},
            {"ranks", w.ranks},
            {"hosts", hosts},
            {"versions",
             {{"engine", SCALEBENCH_VERSION},
              {"source", SCALEBENCH_ENGINE_SOURCE},
              {"libtorch", TORCH_VERSION},
              {"mpi", mpiLibraryVersion()}}},
            // the NCCL library this engine runs with, whatever the backend (null: built without NCCL)
            {"nccl_version", nccl ? json(*nccl) : json(nullptr)},
            {"mpi_thread", mpiThreadLevel()},
            // rank 0's: the launcher gives every rank the same settings
            {"environment", launchEnvironment(environ)},
            {"cpu_kernels", cpuKernels()},
            {"unix_time",
             std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count()}};
}

void trainWorkload(const EngineOptions& given, const World& w) {
    // ---------------------------------------------------------------- setup
    EngineOptions o = workloadOptions(given, w); // batch_per_rank: the micro-batch
    const int threads = trainingThreads(o, w);
    torch::set_num_threads(threads);
    keepFreedBlocksInHeap();
    const std::unique_ptr<MllogWriter> mllog = openMllog(o, w);
    // Same initial weights everywhere (rank 0's are broadcast too); the data order differs by rank.
    torch::manual_seed(static_cast<uint64_t>(o.seed));

    const GpuInventory gpus = queryGpuInventory(); // this node's, asked once
    const TrainingDevice device = chooseTrainingDevice(o.device, w, gpus);
    if (device.cuda()) {
        useTf32(o.tf32);
        at::globalContext().setBenchmarkCuDNN(true); // each convolution shape's fastest algorithm, timed once
    }
    const PeakChoice peak = peakFor(o, device, gpus);
    const auto workload = makeWorkload(o, w);
    refuseFp16LstmsOnCpu(*workload, o, device.device); // GNMT: fp16 on a GPU only
    const TrainingSchedule schedule(o, *workload, w);  // steps (of --epochs), accumulation, evaluations
    o.steps = static_cast<int>(schedule.steps());
    const EvalMetric metric = workload->evalMetric();
    const std::optional<StopTarget> target = stopTarget(o, metric, w.rank == 0);
    torch::nn::Module& model = workload->module();
    model.to(device.device); // model and (made below, over its parameters) optimizer state on the device
    const auto comm =
        openCommunicator(o, MPI_COMM_WORLD, w.local_rank,
                         device.cuda() ? std::optional<int>(device.device.index()) : std::nullopt);
    GradientBuckets gradients(model.parameters(), *comm, o.first_bucket_mb, o.bucket_mb, o.overlap);
    gradients.broadcastParameters();
    const auto optimizer = workload->makeOptimizer();
    const json hosts = gatherRanks(w);

    // Precision: fp32 master weights always; bf16 and fp16 cast the forward pass (autocast); fp16 scales the
    // loss (MLBench's FP16Optimizer, seed 004).
    const Autocast autocast{autocastType(o.precision), device.device.type()};
    std::optional<LossScaler> scaler;
    if (o.precision == "fp16") scaler.emplace(workload->lossScaling());

    const TrainingState state{model, *optimizer, *workload, scaler ? &*scaler : nullptr, o.precision};
    const StartPoint start = resumeFromCheckpoint(o, state, w);

    std::unique_ptr<MetricWriter> metrics; // only rank 0 talks
    if (w.rank == 0) {
        metrics = std::make_unique<MetricWriter>(o.metrics);
        json header = headerRecord(o, w, hosts);
        header.update(trainingHeaderFields(o, threads, state, metric, gradients, *comm, start));
        scheduleHeaderFields(header, o, schedule);
        header.update(deviceHeaderFields(device, gpus, gradients, peak));
        header.update(workload->headerFields());
        metrics->write(header);
    }

    if (mllog) {
        logRunInfo(*mllog, o, w, *workload, schedule, device.cuda() && o.tf32);
        mllog->end("init_stop");
    }

    // ---------------------------------------------------------------- training
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (mllog) mllog->start("run_start");
    const RunStopOnError run_stop_on_error{mllog.get()};
    const auto run_start = Clock::now();
    RunTotals totals;
    MllogEpochs epochs(mllog.get());
    DeviceBatches batches(*workload, device.device);
    StepClock clock(device.device);
    const StepParts parts{state, batches, gradients, autocast, epochs, clock};
    const int64_t steps = schedule.steps();
    const auto evaluates = [&](int64_t step) { return schedule.evaluatesAfter(step); };
    const auto checkpoints = [&](int64_t step) {
        return !o.checkpoint_dir.empty() &&
               ((o.checkpoint_every > 0 && step % o.checkpoint_every == 0) || step == steps);
    };
    // --slow-rank: that rank computes slow_factor times longer, sleeping for the difference after its
    // optimizer (a straggler on purpose, for tests of the straggler views); from the previous step's time.
    const bool slowed = w.rank == o.slow_rank && o.slow_factor > 1;
    double unslowed_compute_s = 0; // the previous step's compute without the sleep, seconds
    for (int64_t step = start.first_step; step <= steps && !totals.time_to_target_s; ++step) {
        totals.steps = step;
        // The next batch is made during this step only where no evaluation or checkpoint comes between.
        const double slow_s = slowed ? (o.slow_factor - 1) * unslowed_compute_s : 0;
        const StepOutcome outcome =
            trainStep(step, parts, schedule.accumulation(), !evaluates(step) && !checkpoints(step), slow_s);
        unslowed_compute_s = outcome.stepSeconds() - outcome.allreduce_s - slow_s;
        totals.add(outcome, w.ranks);
        if (!std::isfinite(outcome.loss))
            throw std::runtime_error("loss is " + std::to_string(outcome.loss) + " at step " +
                                     std::to_string(step));
        if (metrics)
            metrics->write(stepRecord(step, outcome, *workload, schedule.accumulation(), peak.tflops, w,
                                      scaler.has_value(), run_start));
        if (metrics && writesBucketTimes(step, start.first_step))
            metrics->write(bucketsRecord(step, outcome, gradients));
        writeRankTimes(metrics.get(), w, step, outcome.stepSeconds(),
                       outcome.stepSeconds() - outcome.allreduce_s);

        if (evaluates(step)) {
            totals.addEvaluation(evaluateAfterStep(step, *workload, metric, mllog.get(), metrics.get(),
                                                   run_start, schedule.globalBatch()),
                                 metric);
            // Every rank sees the same global metric, so every rank stops at the same step.
            if (target && reached(metric, totals.last_eval->value, target->evaluation))
                totals.time_to_target_s = seconds(run_start, Clock::now());
        }

        // Checkpoints: every --checkpoint-every steps and at the end, outside the timed step.
        if (checkpoints(step) || (!o.checkpoint_dir.empty() && totals.time_to_target_s))
            writeCheckpoint(o, step, state, w, metrics.get());
    }
    if (mllog) {
        epochs.close();
        // MLPerf: success only where the quality target was reached (its time to train is a time to quality);
        // a run without a target, or short of it, is aborted however it ended.
        mllog->end("run_stop", nullptr, {{"status", totals.time_to_target_s ? "success" : "aborted"}});
    }

    if (metrics && !o.dump_parameters.empty()) dumpParameters(o.dump_parameters, model);

    // ---------------------------------------------------------------- summary
    if (metrics)
        metrics->write(summaryRecord(peak.tflops, w, *workload, schedule.accumulation(), metric, target,
                                     totals, state.scaler, seconds(run_start, Clock::now())));
}

} // namespace scalebench
