// The engine's command line: what to train, for how long, with which hyper-parameters, and where to write
// metrics.
#pragma once

#include <string>
#include <vector>

namespace scalebench {

struct EngineOptions {
    std::string workload = "resnet20";
    std::string dataset = "fashion-mnist"; // or cifar10, synthetic-cifar, synthetic-imagenet
    std::string data_dir = "/usr/share/datasets/fashion-mnist";
    std::string metrics_path; // JSON-lines metric stream, written by rank 0
    int steps = 100;
    int batch_per_rank = 128;
    double lr = 0.02;           // base learning rate; scaled linearly to lr x ranks after the warm-up
    int warmup_steps = -1;      // -1: log2(ranks) epochs (MLBench task 1)
    int eval_every = 0;         // 0: evaluate only at the end
    double target_accuracy = 0; // > 0: stop at the first evaluation that reaches it (time to accuracy)
    double target =
        0; // > 0: stop when the workload's eval metric reaches it (accuracy, loss, perplexity, BLEU)
    int eval_samples = 2000;
    int threads = 0; // intra-op threads per rank; 0: cores / ranks on this node
    int seed = 1;
    int sweep_points = 80; // allreduce-sweep: sizes logspace(0, sweep_max_log10, sweep_points) elements
    double sweep_max_log10 = 8;
    int repetitions = 100;
    int warmup_iterations = 5;
    // Communication (docs/architecture.md, "Engine"): the backend of the gradient all-reduce and the sweep.
    std::string backend = "mpi"; // mpi, gloo, nccl
    std::string rendezvous_file; // gloo, nccl: meet through this file instead of MPI (empty: MPI)
    double bucket_mb = 25;       // gradient bucket size in MiB (PyTorch DDP's default bucket_cap_mb)
    double first_bucket_mb =
        1;               // the first bucket (the last layers' gradients) at most this: DDP's
                         // _DEFAULT_FIRST_BUCKET_BYTES, so the first all-reduce starts early in backward
    bool overlap = true; // false (--no-overlap): all-reduce every bucket after backward
    std::string dump_parameters; // rank 0 writes the trained parameters here (float32, registration order)
    // Workloads (docs/workloads.md).
    std::string precision = "fp32"; // fp32, bf16, fp16 (dynamic loss scaling); fp32 master weights always
    std::string augmentation = "standard"; // standard: the dataset's own (CIFAR-10: crop and flip); none: off
    std::string preset; // model size where a workload has several (llama: tiny ... 70b); resnet50: image side
    int seq_len = 0;    // tokens per sequence; 0: the workload's default
    std::string checkpoint_dir; // save a checkpoint here every checkpoint_every steps and at the end
    int checkpoint_every = 0;   // 0: only at the end (when checkpoint_dir is set)
    bool resume = false;        // start from the newest checkpoint in checkpoint_dir
    std::string mllog_path;     // MLPerf's ":::MLLOG {...}" lines (rank 0); empty: none
    // Dense peak of one rank's accelerator in TFLOP/s at the run's precision, as the user states it (H100 SXM
    // bf16: 989); 0: unknown. With it, step records carry MFU = model FLOPs/s / (ranks x peak) (seed 003).
    double peak_tflops = 0;
    // allreduce-sweep: which collectives, dtypes, reductions and placements to time.
    std::vector<std::string> collectives = {
        "allreduce"};                              // allreduce, allgather, reducescatter, broadcast, alltoall
    std::vector<std::string> dtypes = {"float32"}; // float32, float16, bfloat16
    std::vector<std::string> ops = {"sum"};        // sum, avg (reductions only)
    std::string placement = "out-of-place";        // out-of-place, in-place, both
    // back-to-back: the timed calls in one loop, like nccl-tests; per-call: each call alone after a barrier,
    // the barrier left out of the time, like OSU's osu_allreduce (host memory only).
    std::string timing = "back-to-back";
    bool show_version = false;
    bool show_help = false;
};

// Throws std::invalid_argument naming the option and the problem.
EngineOptions parseEngineOptions(const std::vector<std::string>& arguments);
std::string engineUsage();

} // namespace scalebench
