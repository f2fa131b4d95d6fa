// Synchronous data-parallel training of any workload: setup, the timed steps, evaluations, checkpoints and
// the summary (the records they write: training_records.h; MLPerf's log: training_mllog.h).
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
#include "metric_stream.h"
#include "metric_writer.h"
#include "mllog_writer.h"
#include "mpi_check.h"
#include "open_communicator.h"
#include "step_clock.h"
#include "training_device.h"
#include "training_mllog.h"
#include "training_records.h"
#include "training_schedule.h"

#include <ATen/Version.h>
#include <ATen/autocast_mode.h>
#include <chrono>
#include <cmath>
#include <cstdlib>
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
    namespace field = metric_stream::header::cpu_kernels;
    return {{field::kAtenCapability, at::get_cpu_capability()},
            {field::kOnednnMaxIsa, onednn && *onednn ? onednn : "ALL"},
            {field::kCpuModel, model}};
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

// On a GPU, fp32 matrix products and convolutions on TF32 tensor cores or in full fp32 (--tf32), set
// explicitly rather than left to LibTorch's defaults (which differ between the two).
void useTf32(bool on) {
    auto& context = at::globalContext();
    const auto precision = on ? at::Float32Precision::TF32 : at::Float32Precision::IEEE;
    context.setFloat32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL, precision);
    context.setFloat32Precision(at::Float32Backend::CUDA, at::Float32Op::CONV, precision);
}

// On a GPU: TF32 or full fp32 as --tf32 says, and cuDNN's benchmark mode.
void useGpuKernels(bool tf32) {
    useTf32(tf32);
    at::globalContext().setBenchmarkCuDNN(true); // each convolution shape's fastest algorithm, timed once
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

// The forward pass's autocast (docs: --precision): the low-precision type (none for fp32) and the parameters'
// device.
struct Autocast {
    std::optional<at::ScalarType> type;
    at::DeviceType device;
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
        mllog->event("eval_accuracy",
                     metric.name == metric_stream::eval_metric::kBleu ? eval.value / 100 : eval.value, at);
        mllog->end("eval_stop", nullptr, at);
    }
    workload.afterEvaluation(eval);
    if (metrics) {
        namespace field = metric_stream::eval;
        json record = {{metric_stream::kType, field::kRecord},
                       {field::kStep, step},
                       {field::kMetric, metric.name},
                       {field::kValue, eval.value},
                       {field::kLoss, eval.loss},
                       {field::kElapsedS, seconds(run_start, Clock::now())}};
        if (metric.name == metric_stream::eval_metric::kAccuracy) record[field::kAccuracy] = eval.value;
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
    namespace field = metric_stream::checkpoint;
    if (metrics)
        metrics->write({{metric_stream::kType, field::kRecord},
                        {field::kStep, step},
                        {field::kPath, path.string()},
                        {field::kSeconds, seconds(start, Clock::now())}});
}

// A training run as the setup made it: what its header describes, and what the training section and the
// summary work with.
struct TrainingRun {
    const EngineOptions& o; // as the workload was built with them; steps the schedule's
    const World& w;
    Workload& workload;
    const TrainingSchedule& schedule;
    const EvalMetric& metric;
    const std::optional<StopTarget>& target;
    const TrainingDevice& device;
    const PeakChoice& peak;
    const TrainingState& state;
    GradientBuckets& gradients;
    const StartPoint& start;
    MllogWriter* mllog; // rank 0 with --mllog, else nullptr
};

// The metric stream (rank 0), opened with the run's header: headerRecord's fields, then the training run's,
// where a resumed run started, its schedule's, its device's and the workload's own; nullptr elsewhere.
std::unique_ptr<MetricWriter> openMetricStream(const TrainingRun& run, const json& hosts, int threads,
                                               const Communicator& comm, const GpuInventory& gpus) {
    if (run.w.rank != 0) return nullptr; // only rank 0 talks
    auto metrics = std::make_unique<MetricWriter>(run.o.metrics);
    json header = headerRecord(run.o, run.w, hosts);
    header.update(trainingHeaderFields(run.o, threads, run.state, run.metric, run.gradients, comm));
    if (run.o.resume) {
        header[metric_stream::header::kResumedFrom] = run.start.resumed_from;
        header[metric_stream::header::kFirstStep] = run.start.first_step;
    }
    scheduleHeaderFields(header, run.o, run.schedule);
    header.update(deviceHeaderFields(run.device, gpus, run.gradients, run.peak));
    header.update(run.workload.headerFields());
    metrics->write(header);
    return metrics;
}

// A step's records (rank 0): the step, its buckets' times where due, and every rank's times. Collective.
void writeStepRecords(const TrainingRun& run, int64_t step, const StepOutcome& outcome, MetricWriter* metrics,
                      Clock::time_point run_start) {
    if (metrics)
        metrics->write(stepRecord(step, outcome, run.workload, run.schedule.accumulation(), run.peak.tflops,
                                  run.w, run.state.scaler != nullptr, run_start));
    if (metrics && writesBucketTimes(step, run.start.first_step))
        metrics->write(bucketsRecord(step, outcome, run.gradients));
    writeRankTimes(metrics, run.w, step, outcome.stepSeconds(), outcome.stepSeconds() - outcome.allreduce_s);
}

// The steps from the run's first to its last, or to the evaluation that reaches the target: each step's
// records, the evaluations and the checkpoints. Collective.
RunTotals trainSteps(const TrainingRun& run, const StepParts& parts, MetricWriter* metrics,
                     Clock::time_point run_start) {
    const EngineOptions& o = run.o;
    const World& w = run.w;
    const int64_t steps = run.schedule.steps();
    const auto evaluates = [&](int64_t step) { return run.schedule.evaluatesAfter(step); };
    const auto checkpoints = [&](int64_t step) {
        return !o.checkpoint_dir.empty() &&
               ((o.checkpoint_every > 0 && step % o.checkpoint_every == 0) || step == steps);
    };
    // --slow-rank: that rank computes slow_factor times longer, sleeping for the difference after its
    // optimizer (a straggler on purpose, for tests of the straggler views); from the previous step's time.
    const bool slowed = w.rank == o.slow_rank && o.slow_factor > 1;
    double unslowed_compute_s = 0; // the previous step's compute without the sleep, seconds
    RunTotals totals;
    for (int64_t step = run.start.first_step; step <= steps && !totals.time_to_target_s; ++step) {
        totals.steps = step;
        // The next batch is made during this step only where no evaluation or checkpoint comes between.
        const double slow_s = slowed ? (o.slow_factor - 1) * unslowed_compute_s : 0;
        const StepOutcome outcome = trainStep(step, parts, run.schedule.accumulation(),
                                              !evaluates(step) && !checkpoints(step), slow_s);
        unslowed_compute_s = outcome.stepSeconds() - outcome.allreduce_s - slow_s;
        totals.add(outcome, w.ranks);
        if (!std::isfinite(outcome.loss))
            throw std::runtime_error("loss is " + std::to_string(outcome.loss) + " at step " +
                                     std::to_string(step));
        writeStepRecords(run, step, outcome, metrics, run_start);

        if (evaluates(step)) {
            totals.addEvaluation(evaluateAfterStep(step, run.workload, run.metric, run.mllog, metrics,
                                                   run_start, run.schedule.globalBatch()),
                                 run.metric);
            // Every rank sees the same global metric, so every rank stops at the same step.
            if (run.target && reached(run.metric, totals.last_eval->value, run.target->evaluation))
                totals.time_to_target_s = seconds(run_start, Clock::now());
        }

        // Checkpoints: every --checkpoint-every steps and at the end, outside the timed step.
        if (checkpoints(step) || (!o.checkpoint_dir.empty() && totals.time_to_target_s))
            writeCheckpoint(o, step, run.state, w, metrics);
    }
    return totals;
}

} // namespace

void setLearningRate(torch::optim::Optimizer& optimizer, double lr) {
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

json headerRecord(const EngineOptions& o, const World& w, const json& hosts) {
    namespace field = metric_stream::header;
    const std::optional<std::string> nccl = ncclLibraryVersion();
    return {{metric_stream::kType, field::kRecord},
            {field::kVersion, field::kFormatVersion},
            {field::kWorkload, o.workload},
            {field::kDataset, o.workload == "allreduce-sweep" ? "none" : o.dataset},
            {field::kRanks, w.ranks},
            {field::kHosts, hosts},
            {field::kVersions,
             {{field::versions::kEngine, SCALEBENCH_VERSION},
              {field::versions::kSource, SCALEBENCH_ENGINE_SOURCE},
              {field::versions::kLibtorch, TORCH_VERSION},
              {field::versions::kMpi, mpiLibraryVersion()}}},
            // the NCCL library this engine runs with, whatever the backend (null: built without NCCL)
            {field::kNcclVersion, nccl ? json(*nccl) : json(nullptr)},
            {field::kMpiThread, mpiThreadLevel()},
            // rank 0's: the launcher gives every rank the same settings
            {field::kEnvironment, launchEnvironment(environ)},
            {field::kCpuKernels, cpuKernels()},
            {field::kUnixTime,
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
    if (device.cuda()) useGpuKernels(o.tf32);
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
    const TrainingRun run{o,      w,    *workload, schedule,  metric, target,
                          device, peak, state,     gradients, start,  mllog.get()};
    const std::unique_ptr<MetricWriter> metrics = openMetricStream(run, hosts, threads, *comm, gpus);

    if (mllog) {
        logRunInfo(*mllog, o, w, *workload, schedule, device.cuda() && o.tf32);
        mllog->end("init_stop");
    }

    // ---------------------------------------------------------------- training
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (mllog) mllog->start("run_start");
    const RunStopOnError run_stop_on_error{mllog.get()};
    const auto run_start = Clock::now();
    MllogEpochs epochs(mllog.get());
    DeviceBatches batches(*workload, device.device);
    StepClock clock(device.device);
    const StepParts parts{state, batches, gradients, autocast, epochs, clock};
    const RunTotals totals = trainSteps(run, parts, metrics.get(), run_start);
    if (mllog) logRunStop(*mllog, epochs, totals.time_to_target_s.has_value());

    if (metrics && !o.dump_parameters.empty()) dumpParameters(o.dump_parameters, model);

    // ---------------------------------------------------------------- summary
    if (metrics)
        metrics->write(summaryRecord(peak.tflops, w, *workload, schedule.accumulation(), metric, target,
                                     totals, state.scaler, seconds(run_start, Clock::now())));
}

} // namespace scalebench
