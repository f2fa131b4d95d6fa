// The metric stream's record types, field names and status words (docs/metric-stream.md), spelled once: the
// engine writes its records with them (trainers/), the console's core/metric_stream_parser reads them.
#pragma once

namespace scalebench::metric_stream {

// Every record's key that names its type: one of the kRecord words below.
inline constexpr const char* kType = "type";

// `header`: the first record of a run.
namespace header {
inline constexpr const char* kRecord = "header";
inline constexpr int kFormatVersion = 1; // the value of kVersion: this format's version
inline constexpr const char* kVersion = "version";
inline constexpr const char* kWorkload = "workload";
inline constexpr const char* kDataset = "dataset";
inline constexpr const char* kRanks = "ranks";
inline constexpr const char* kHosts = "hosts";
inline constexpr const char* kVersions = "versions";
inline constexpr const char* kNcclVersion = "nccl_version";
inline constexpr const char* kMpiThread = "mpi_thread";
inline constexpr const char* kEnvironment = "environment";
inline constexpr const char* kCpuKernels = "cpu_kernels";
inline constexpr const char* kUnixTime = "unix_time";
inline constexpr const char* kThreadsPerRank = "threads_per_rank";
inline constexpr const char* kParameters = "parameters";
inline constexpr const char* kHyperparameters = "hyperparameters";
inline constexpr const char* kEvalMetric = "eval_metric";
inline constexpr const char* kAllreduce = "allreduce";
inline constexpr const char* kBackend = "backend";
inline constexpr const char* kBucketMb = "bucket_mb";
inline constexpr const char* kFirstBucketMb = "first_bucket_mb";
inline constexpr const char* kOverlap = "overlap";
inline constexpr const char* kBucketElements = "bucket_elements";
inline constexpr const char* kPrecision = "precision";
inline constexpr const char* kLossScaling = "loss_scaling";
inline constexpr const char* kDataDir = "data_dir";
inline constexpr const char* kResumedFrom = "resumed_from";
inline constexpr const char* kFirstStep = "first_step";
inline constexpr const char* kDevice = "device";
inline constexpr const char* kGradientPath = "gradient_path";
inline constexpr const char* kTf32 = "tf32";
inline constexpr const char* kPeakTflops = "peak_tflops";
inline constexpr const char* kPeakSource = "peak_source";
inline constexpr const char* kSkipped = "skipped"; // a sweep's: the combinations its backend lacks

// kVersions: what the engine was built from and runs with.
namespace versions {
inline constexpr const char* kEngine = "engine";
inline constexpr const char* kSource = "source";
inline constexpr const char* kLibtorch = "libtorch";
inline constexpr const char* kMpi = "mpi";
} // namespace versions

// kCpuKernels: the CPU kernels rank 0's LibTorch runs.
namespace cpu_kernels {
inline constexpr const char* kAtenCapability = "aten_capability";
inline constexpr const char* kOnednnMaxIsa = "onednn_max_isa";
inline constexpr const char* kCpuModel = "cpu_model";
} // namespace cpu_kernels

// kHyperparameters of a training run: the training loop's (each workload adds its own).
namespace hyperparameters {
inline constexpr const char* kSteps = "steps";
inline constexpr const char* kBatchPerRank = "batch_per_rank";
inline constexpr const char* kAccumulation = "accumulation";
inline constexpr const char* kGlobalBatch = "global_batch";
inline constexpr const char* kEpochs = "epochs";
inline constexpr const char* kTrainSamples = "train_samples";
inline constexpr const char* kEvalEvery = "eval_every";
inline constexpr const char* kEvalSamples = "eval_samples";
} // namespace hyperparameters

// kHyperparameters of a collective sweep.
namespace sweep_hyperparameters {
inline constexpr const char* kSizes = "sizes";
inline constexpr const char* kSweepPoints = "sweep_points";
inline constexpr const char* kSweepMaxLog10 = "sweep_max_log10";
inline constexpr const char* kRepetitions = "repetitions";
inline constexpr const char* kWarmupIterations = "warmup_iterations";
inline constexpr const char* kCollectives = "collectives";
inline constexpr const char* kDtypes = "dtypes";
inline constexpr const char* kOps = "ops";
inline constexpr const char* kInPlace = "in_place";
inline constexpr const char* kTiming = "timing";
} // namespace sweep_hyperparameters

// kLossScaling: fp16's dynamic loss scaling.
namespace loss_scaling {
inline constexpr const char* kInitialScale = "initial_scale";
inline constexpr const char* kFactor = "factor";
inline constexpr const char* kWindow = "window";
inline constexpr const char* kMaxScale = "max_scale";
inline constexpr const char* kMinScale = "min_scale";
} // namespace loss_scaling

// kDevice: where each rank trained.
namespace device {
inline constexpr const char* kRequested = "requested";
inline constexpr const char* kType = "type"; // kCpu or kCuda
inline constexpr const char* kIndex = "index";
inline constexpr const char* kReason = "reason";
inline constexpr const char* kCpu = "cpu";
inline constexpr const char* kCuda = "cuda";
} // namespace device

// kTf32: GPU runs' matrix-product and convolution math.
namespace tf32 {
inline constexpr const char* kMatmul = "matmul";
inline constexpr const char* kConv = "conv";
} // namespace tf32
} // namespace header

// `step`: one optimisation step, timed on rank 0.
namespace step {
inline constexpr const char* kRecord = "step";
inline constexpr const char* kStep = "step";
inline constexpr const char* kEpoch = "epoch";
inline constexpr const char* kLoss = "loss";
inline constexpr const char* kLr = "lr";
inline constexpr const char* kSamplesPerS = "samples_per_s";
inline constexpr const char* kStepS = "step_s";
inline constexpr const char* kDataS = "data_s";
inline constexpr const char* kForwardS = "forward_s";
inline constexpr const char* kBackwardS = "backward_s";
inline constexpr const char* kAllreduceS = "allreduce_s";
inline constexpr const char* kOptimizerS = "optimizer_s";
inline constexpr const char* kCommHiddenS = "comm_hidden_s";
inline constexpr const char* kElapsedS = "elapsed_s";
inline constexpr const char* kTokensPerS = "tokens_per_s";
inline constexpr const char* kLossScale = "loss_scale";
inline constexpr const char* kSkipped = "skipped";
inline constexpr const char* kModelFlopsPerS = "model_flops_per_s";
inline constexpr const char* kMfu = "mfu";
} // namespace step

// `rank_times`: every rank's time for one step, in rank order.
namespace rank_times {
inline constexpr const char* kRecord = "rank_times";
inline constexpr const char* kStep = "step";
inline constexpr const char* kStepS = "step_s";
inline constexpr const char* kComputeS = "compute_s";
} // namespace rank_times

// `buckets`: each gradient bucket's all-reduce in one step.
namespace buckets {
inline constexpr const char* kRecord = "buckets";
inline constexpr const char* kStep = "step";
inline constexpr const char* kBytes = "bytes";
inline constexpr const char* kStartS = "start_s";
inline constexpr const char* kEndS = "end_s";
} // namespace buckets

// The words of an eval record's kMetric and a summary's kEvalMetric.
namespace eval_metric {
inline constexpr const char* kAccuracy = "accuracy";
inline constexpr const char* kLoss = "loss";
inline constexpr const char* kPerplexity = "perplexity";
inline constexpr const char* kBleu = "bleu";
// MLPerf's other quality metrics, as imported logs give them (MLLOG): LLMs' log perplexity, Stable
// Diffusion's FID and CLIP score, MLPerf HPC's eval_error.
inline constexpr const char* kLogPerplexity = "log_perplexity";
inline constexpr const char* kFid = "fid";
inline constexpr const char* kClip = "clip";
inline constexpr const char* kError = "error";
} // namespace eval_metric

// `eval`: the workload's metric on held-out data.
namespace eval {
inline constexpr const char* kRecord = "eval";
inline constexpr const char* kStep = "step";
inline constexpr const char* kMetric = "metric";
inline constexpr const char* kValue = "value";
inline constexpr const char* kLoss = "loss";
inline constexpr const char* kElapsedS = "elapsed_s";
inline constexpr const char* kAccuracy = "accuracy"; // the value again where the metric is accuracy; older
                                                     // streams' only one
} // namespace eval

// `summary`: the last record of a run that ended normally.
namespace summary {
inline constexpr const char* kRecord = "summary";
inline constexpr const char* kSteps = "steps";
inline constexpr const char* kWallS = "wall_s";
inline constexpr const char* kTrainS = "train_s";
inline constexpr const char* kSamplesPerS = "samples_per_s";
inline constexpr const char* kEvalMetric = "eval_metric";
inline constexpr const char* kTarget = "target";
inline constexpr const char* kTargetReached = "target_reached";
inline constexpr const char* kTargetAccuracy = "target_accuracy";
inline constexpr const char* kTimeToAccuracyS = "time_to_accuracy_s";
inline constexpr const char* kBestValue = "best_value";
inline constexpr const char* kFinalLoss = "final_loss";
inline constexpr const char* kSkippedSteps = "skipped_steps";
inline constexpr const char* kFinalValue = "final_value";
inline constexpr const char* kFinalAccuracy = "final_accuracy";
inline constexpr const char* kTokensPerS = "tokens_per_s";
inline constexpr const char* kModelFlopsPerS = "model_flops_per_s";
inline constexpr const char* kMfu = "mfu";
} // namespace summary

// `checkpoint`: a checkpoint was written.
namespace checkpoint {
inline constexpr const char* kRecord = "checkpoint";
inline constexpr const char* kStep = "step";
inline constexpr const char* kPath = "path";
inline constexpr const char* kSeconds = "seconds";
} // namespace checkpoint

// `collective`: one message size of a collective sweep.
namespace collective {
inline constexpr const char* kRecord = "collective";
inline constexpr const char* kCollective = "collective";
inline constexpr const char* kBackend = "backend";
inline constexpr const char* kDtype = "dtype";
inline constexpr const char* kOp = "op";
inline constexpr const char* kInPlace = "in_place";
inline constexpr const char* kElements = "elements";
inline constexpr const char* kBytes = "bytes";
inline constexpr const char* kRanks = "ranks";
inline constexpr const char* kRepetitions = "repetitions";
inline constexpr const char* kTimeS = "time_s";
inline constexpr const char* kAlgbwGbps = "algbw_gbps";
inline constexpr const char* kBusbwGbps = "busbw_gbps";
inline constexpr const char* kCorrect = "correct";
} // namespace collective

// `device_check`: the device self-check's verdict.
namespace device_check {
inline constexpr const char* kRecord = "device_check";
inline constexpr const char* kWorkload = "workload";
inline constexpr const char* kDevice = "device";
inline constexpr const char* kSteps = "steps";
inline constexpr const char* kRank = "rank";
inline constexpr const char* kVerdict = "verdict"; // kPass or kFail
inline constexpr const char* kRanksPassed = "ranks_passed";
inline constexpr const char* kChecks = "checks";
inline constexpr const char* kPass = "pass";
inline constexpr const char* kFail = "fail";

// Each of kChecks: its name, whether it passed, and the figures it was judged by.
namespace check {
inline constexpr const char* kName = "name";
inline constexpr const char* kPassed = "passed";
inline constexpr const char* kMaxAbsDifference = "max_abs_difference";
inline constexpr const char* kMaxRelativeDifference = "max_relative_difference";
inline constexpr const char* kTolerance = "tolerance";
inline constexpr const char* kLosses = "losses";
inline constexpr const char* kAgain = "again";
inline constexpr const char* kPrefetched = "prefetched";
inline constexpr const char* kCpuLosses = "cpu_losses";
inline constexpr const char* kError = "error";
} // namespace check
} // namespace device_check

// `error`: a rank that fails says why.
namespace error {
inline constexpr const char* kRecord = "error";
inline constexpr const char* kRank = "rank";
inline constexpr const char* kMessage = "message";
} // namespace error

// MLPerf's compliance log (MLLOG, --mllog; not this stream), as the engine writes and core/mllog_reader reads
// it: run_stop's metadata status (mlcommons/logging constants.py).
namespace mllog_run_stop {
inline constexpr const char* kStatus = "status";
inline constexpr const char* kSuccess = "success";
inline constexpr const char* kAborted = "aborted";
} // namespace mllog_run_stop

} // namespace scalebench::metric_stream
