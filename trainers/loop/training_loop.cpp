// Synchronous data-parallel training of any workload, writing the metric stream (rank 0).
#include "training_loop.h"

#include "checkpoint.h"
#include "gradient_buckets.h"
#include "loss_scaler.h"
#include "metric_writer.h"
#include "mllog_writer.h"
#include "mpi_check.h"
#include "open_communicator.h"

#include <ATen/Version.h>
#include <ATen/autocast_mode.h>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <malloc.h>
#include <optional>
#include <thread>
#include <torch/torch.h>
#include <torch/version.h>

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

void setLearningRate(torch::optim::Optimizer& optimizer, double lr) {
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

// The value the run stops at, if any: --target in the workload's metric, or --target-accuracy.
std::optional<double> stopTarget(const EngineOptions& o, const EvalMetric& metric) {
    if (o.target > 0) return o.target;
    if (o.target_accuracy > 0) {
        if (metric.name != "accuracy")
            throw std::invalid_argument("--target-accuracy: " + o.workload + " is evaluated by " +
                                        metric.name + ", not accuracy; use --target");
        return o.target_accuracy;
    }
    return std::nullopt;
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

// The MLPerf compliance log's training-session keys (mlcommons/logging constants.py).
void logRunInfo(MllogWriter& log, const EngineOptions& o, const World& w, const Workload& workload) {
    const json hp = workload.hyperparameters();
    log.event("submission_benchmark", o.workload);
    log.event("submission_division", "open");
    log.event("submission_status", "research");
    log.event("submission_platform", std::to_string(w.ranks) + "x" + w.host);
    log.event("seed", o.seed);
    log.event("global_batch_size",
              hp.value("global_batch", static_cast<int64_t>(o.batch_per_rank) * w.ranks));
    log.event("gradient_accumulation_steps", 1);
    log.event("opt_base_learning_rate", hp.value("base_lr", o.lr));
    if (hp.contains("warmup_steps")) log.event("opt_learning_rate_warmup_steps", hp["warmup_steps"]);
    const json fields = workload.mllogFields(); // items() refers to it
    for (const auto& [key, value] : fields.items())
        log.event(key, value);
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
        const auto values = p.detach().to(torch::kFloat32).contiguous();
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

} // namespace

json headerRecord(const EngineOptions& o, const World& w, const json& hosts) {
    return {{"type", "header"},
            {"version", 1},
            {"workload", o.workload},
            {"dataset", o.workload == "allreduce-sweep" ? "none" : o.dataset},
            {"ranks", w.ranks},
            {"hosts", hosts},
            {"versions",
             {{"engine", SCALEBENCH_VERSION}, {"libtorch", TORCH_VERSION}, {"mpi", mpiLibraryVersion()}}},
            {"mpi_thread", mpiThreadLevel()},
            {"cpu_kernels", cpuKernels()},
            {"unix_time",
             std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count()}};
}

void trainWorkload(const EngineOptions& o, const World& w) {
    // ---------------------------------------------------------------- setup
    const int threads =
        o.threads > 0 ? o.threads
                      : std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / w.local_ranks);
    torch::set_num_threads(threads);
    // glibc hands freed blocks above its (dynamic) mmap threshold back to the kernel, and every step then
    // page-faults its activations (8 MB each at batch 128) back in: ~3,000 minor faults per step. Keep them
    // in the heap: 10% less CPU per ResNet-20 step here (bench/results/2026-11-22-peers.md).
    if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 || mallopt(M_TRIM_THRESHOLD, 1 << 30) != 1)
        throw std::runtime_error("mallopt refused the mmap and trim thresholds");
    std::optional<MllogWriter> mllog; // MLPerf's compliance log, rank 0
    if (w.rank == 0 && !o.mllog_path.empty()) {
        mllog.emplace(o.mllog_path);
        mllog->start("init_start");
    }
    // Same initial weights everywhere (rank 0's are broadcast too); the data order differs by rank.
    torch::manual_seed(static_cast<uint64_t>(o.seed));

    const auto workload = makeWorkload(o, w);
    const EvalMetric metric = workload->evalMetric();
    const std::optional<double> target = stopTarget(o, metric);
    torch::nn::Module& model = workload->module();
    const auto comm = openCommunicator(o, MPI_COMM_WORLD, w.local_rank);
    GradientBuckets gradients(model.parameters(), *comm, o.first_bucket_mb, o.bucket_mb, o.overlap);
    gradients.broadcastParameters();
    const auto optimizer = workload->makeOptimizer();
    const json hosts = gatherRanks(w);

    // Precision: fp32 master weights always; bf16 and fp16 cast the forward pass (autocast); fp16 scales the
    // loss (MLBench's FP16Optimizer, seed 004).
    const std::optional<at::ScalarType> autocast_type = autocastType(o.precision);
    const at::DeviceType device = model.parameters().front().device().type();
    std::optional<LossScaler> scaler;
    if (o.precision == "fp16") scaler.emplace(workload->lossScaling());

    // Resume: the parameters, optimizer, loss scale, data position and random state of the newest checkpoint.
    const TrainingState training_state{model, *optimizer, *workload, scaler ? &*scaler : nullptr,
                                       o.precision};
    int64_t first_step = 1;
    std::string resumed_from;
    if (o.resume) {
        first_step = loadNewestCheckpoint(o.checkpoint_dir, training_state, w) + 1;
        resumed_from = checkpointPath(o.checkpoint_dir, first_step - 1).string();
        if (first_step > o.steps)
            throw std::invalid_argument("--resume: " + resumed_from + " is at step " +
                                        std::to_string(first_step - 1) + ", not before --steps " +
                                        std::to_string(o.steps));
    }

    std::optional<MetricWriter> metrics; // only rank 0 talks
    if (w.rank == 0) {
        metrics.emplace(o.metrics_path);
        json header = headerRecord(o, w, hosts);
        // The first bucket's size as GradientBuckets closes it: never above the others'.
        const double first_bucket_mb = std::min(o.first_bucket_mb, o.bucket_mb);
        header["threads_per_rank"] = threads;
        header["parameters"] = gradients.elements();
        header["hyperparameters"] = workload->hyperparameters();
        header["eval_metric"] = metric.name;
        header["allreduce"] =
            "fp32 gradients averaged in " + std::to_string(gradients.bucketCount()) + " buckets of up to " +
            json(o.bucket_mb).dump() + " MiB, the first up to " + json(first_bucket_mb).dump() +
            " MiB (reverse registration order), " +
            (o.overlap ? "each started as soon as backward has filled it; " : "all after backward; ") +
            comm->description();
        header["backend"] = comm->backend();
        header["bucket_mb"] = o.bucket_mb;
        header["first_bucket_mb"] = first_bucket_mb;
        header["overlap"] = o.overlap;
        header["bucket_elements"] = gradients.bucketElements();
        header["precision"] = o.precision;
        if (scaler) {
            const auto& s = scaler->options();
            header["loss_scaling"] = {
                {"initial_scale", s.initial_scale},
                {"factor", s.factor},
                {"window", s.window},
                {"max_scale", std::isfinite(s.max_scale) ? json(s.max_scale) : json(nullptr)},
                {"min_scale", s.min_scale}};
        }
        if (o.resume) {
            header["resumed_from"] = resumed_from;
            header["first_step"] = first_step;
        }
        header.update(workload->headerFields());
        metrics->write(header);
    }

    if (mllog) {
        logRunInfo(*mllog, o, w, *workload);
        mllog->end("init_stop");
    }

    // ---------------------------------------------------------------- training
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (mllog) mllog->start("run_start");
    const RunStopOnError run_stop_on_error{mllog ? &*mllog : nullptr};
    const auto run_start = Clock::now();
    double train_seconds = 0, loss = 0;
    int64_t samples_done = 0, tokens_done = 0, steps_done = 0;
    std::optional<Evaluation> last_eval;
    std::optional<double> time_to_target_s; // MLBench: wall time until the eval metric reaches the target
    int64_t mllog_epoch = -1; // the epoch whose epoch_start the log holds (MLPerf counts from 1)
    for (int64_t step = first_step; step <= o.steps && !time_to_target_s; ++step) {
        steps_done = step;
        const double lr = workload->learningRate(step);
        const auto t0 = Clock::now();
        const Batch batch = workload->nextBatch();
        const auto t1 = Clock::now();
        if (mllog && workload->epoch() != mllog_epoch) {
            if (mllog_epoch >= 0) mllog->end("epoch_stop", nullptr, {{"epoch_num", mllog_epoch + 1}});
            mllog_epoch = workload->epoch();
            mllog->start("epoch_start", nullptr, {{"epoch_num", mllog_epoch + 1}});
        }
        torch::Tensor local_loss; // () fp32
        {
            AutocastGuard autocast(autocast_type, device);
            local_loss = workload->forwardLoss(batch);
        }
        gradients.beginStep(local_loss.item<double>());
        const auto t2 = Clock::now();
        optimizer->zero_grad();
        const double loss_scale = scaler ? scaler->scale() : 1.0;   // this step's
        (scaler ? local_loss * loss_scale : local_loss).backward(); // full buckets are averaged meanwhile
        const auto t3 = Clock::now();
        const auto communication = gradients.finishStep(t3);
        loss = communication.mean_loss;
        const auto t4 = Clock::now();
        // fp16: an inf or a NaN in the averaged gradients skips the step (and shrinks the scale).
        const bool stepped = !scaler || scaler->update(unscaleGradients(model, loss_scale));
        if (stepped) {
            workload->beforeOptimizerStep();
            setLearningRate(*optimizer, lr);
            optimizer->step();
        }
        const auto t5 = Clock::now();

        const double step_s = seconds(t0, t5); // data + forward + backward + exposed all-reduce + optimizer
        train_seconds += step_s;
        // Every rank's batch is the same size, so the global counts are the local ones times the ranks.
        const int64_t step_samples = batch.samples * w.ranks, step_tokens = batch.tokens * w.ranks;
        const double step_flops = workload->trainingFlopsPerStep() * w.ranks; // model FLOPs, all ranks
        samples_done += step_samples;
        tokens_done += step_tokens;
        if (!std::isfinite(loss))
            throw std::runtime_error("loss is " + std::to_string(loss) + " at step " + std::to_string(step));
        if (metrics) {
            json record = {{"type", "step"},
                           {"step", step},
                           {"epoch", workload->epoch()},
                           {"loss", loss},
                           {"lr", lr},
                           {"samples_per_s", static_cast<double>(step_samples) / step_s},
                           {"step_s", step_s},
                           {"data_s", seconds(t0, t1)},
                           {"forward_s", seconds(t1, t2)},
                           {"backward_s", seconds(t2, t3)},
                           {"allreduce_s", seconds(t3, t4)},
                           {"optimizer_s", seconds(t4, t5)},
                           {"comm_hidden_s", communication.hidden_s},
                           {"elapsed_s", seconds(run_start, t5)}};
            if (step_tokens > 0) record["tokens_per_s"] = static_cast<double>(step_tokens) / step_s;
            if (scaler) record["loss_scale"] = loss_scale;
            if (!stepped) record["skipped"] = true;
            if (step_flops > 0) { // seed 003: MFU = global model FLOPs / step time / GPUs / peak
                record["model_flops_per_s"] = step_flops / step_s;
                if (o.peak_tflops > 0) record["mfu"] = step_flops / step_s / (w.ranks * o.peak_tflops * 1e12);
            }
            metrics->write(record);
        }
        writeRankTimes(metrics ? &*metrics : nullptr, w, step, step_s, step_s - seconds(t3, t4));

        if ((o.eval_every > 0 && step % o.eval_every == 0) || step == o.steps) {
            if (mllog) mllog->start("eval_start", nullptr, {{"epoch_num", workload->epoch() + 1}});
            last_eval = workload->evaluate();
            if (mllog) {
                mllog->event("eval_accuracy", last_eval->value, {{"epoch_num", workload->epoch() + 1}});
                mllog->end("eval_stop", nullptr, {{"epoch_num", workload->epoch() + 1}});
            }
            workload->afterEvaluation(*last_eval);
            if (metrics) {
                json record = {{"type", "eval"},          {"step", step},
                               {"metric", metric.name},   {"value", last_eval->value},
                               {"loss", last_eval->loss}, {"elapsed_s", seconds(run_start, Clock::now())}};
                if (metric.name == "accuracy") record["accuracy"] = last_eval->value;
                record.update(last_eval->evidence);
                metrics->write(record);
            }
            // Every rank sees the same global metric, so every rank stops at the same step.
            if (target && reached(metric, last_eval->value, *target))
                time_to_target_s = seconds(run_start, Clock::now());
        }

        // Checkpoints: every --checkpoint-every steps and at the end, outside the timed step.
        const bool last = step == o.steps || time_to_target_s;
        if (!o.checkpoint_dir.empty() &&
            ((o.checkpoint_every > 0 && step % o.checkpoint_every == 0) || last)) {
            const auto start = Clock::now();
            const auto path = saveCheckpoint(o.checkpoint_dir, step, training_state, w);
            if (metrics)
                metrics->write({{"type", "checkpoint"},
                                {"step", step},
                                {"path", path.string()},
                                {"seconds", seconds(start, Clock::now())}});
        }
    }
    if (mllog) {
        if (mllog_epoch >= 0) mllog->end("epoch_stop", nullptr, {{"epoch_num", mllog_epoch + 1}});
        // MLPerf: success when the quality target was reached; a run without a target succeeds by finishing.
        mllog->end("run_stop", nullptr, {{"status", !target || time_to_target_s ? "success" : "aborted"}});
    }

    if (metrics && !o.dump_parameters.empty()) dumpParameters(o.dump_parameters, model);

    // ---------------------------------------------------------------- summary
    if (metrics) {
        const bool accuracy = metric.name == "accuracy";
        json summary = {{"type", "summary"},
                        {"steps", steps_done},
                        {"wall_s", seconds(run_start, Clock::now())},
                        {"train_s", train_seconds},
                        {"samples_per_s", static_cast<double>(samples_done) / train_seconds},
                        {"eval_metric", metric.name},
                        {"target", target ? json(*target) : json(nullptr)},
                        {"target_accuracy", target && accuracy ? json(*target) : json(nullptr)},
                        {"time_to_accuracy_s", time_to_target_s ? json(*time_to_target_s) : json(nullptr)},
                        {"final_loss", loss},
                        {"skipped_steps", scaler ? scaler->skippedSteps() : 0},
                        {"final_value", last_eval ? json(last_eval->value) : json(nullptr)},
                        {"final_accuracy", last_eval && accuracy ? json(last_eval->value) : json(nullptr)}};
        if (tokens_done > 0) summary["tokens_per_s"] = static_cast<double>(tokens_done) / train_seconds;
        if (const double flops = workload->trainingFlopsPerStep() * w.ranks * steps_done; flops > 0) {
            summary["model_flops_per_s"] = flops / train_seconds;
            if (o.peak_tflops > 0) summary["mfu"] = flops / train_seconds / (w.ranks * o.peak_tflops * 1e12);
        }
        metrics->write(summary);
    }
}

} // namespace scalebench
