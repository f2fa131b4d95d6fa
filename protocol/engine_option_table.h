// The engine's command line, written once: every option with its kind, what it accepts, its default and its
// meaning. The engine parses and prints its --help from it (trainers/engine_options.cpp); the console renders
// every plan key from it (core/plans/engine_invocation.cpp); a new option is one line here.
#pragma once

#include <algorithm>
#include <charconv>
#include <string>
#include <system_error>
#include <vector>

// Where the data sets are on this machine and, unless a cluster's data_root says otherwise, on a cluster: one
// folder per data set, named as the data set (Debian's dataset-fashion-mnist installs
// /usr/share/datasets/fashion-mnist).
#define SCALEBENCH_DATA_ROOT "/usr/share/datasets"

// Each row: X(name, Kind, accepts, Scope, help, default...). The option is --name with '_' as '-'.
//   Kind: Text (a string), Int, Real, Switch (yes or no), List (comma-separated, each item accepted).
//   accepts: for Text and List the accepted values separated by '|' ("" for any text); for numbers the least
//   value, or "LEAST..MOST".
//   Scope: the [[run]] tables of a plan that take the key: Any, Training (training workloads), Sweep
//   (allreduce-sweep), Presets (workloads with presets), Sequence (sequence workloads); Any for the rows that
//   are no plan key.
//   default: the engine's default, as a C++ initialiser of the kind's type.

// The settings a plan's [[run]] table holds: RunGroup (core/plans/run_plan.h) has a member of the same name
// and type, the plan key is the same word, and the console passes every one of them for every run.
#define SCALEBENCH_PLAN_OPTIONS(X)                                                                           \
    X(workload, Text, "", Any, "what to train, or allreduce-sweep (docs/workloads.md)", "resnet20")          \
    X(dataset, Text, "", Any, "the workload's data set (docs/workloads.md)", "fashion-mnist")                \
    X(check_device, Switch, "", Training,                                                                    \
      "run the device self-check instead of training: the same seeded steps twice, with batch prefetch "     \
      "and synchronously, and on the CPU; the fused kernels against their formulas (docs/workloads.md)",     \
      false)                                                                                                 \
    X(data_dir, Text, "", Training,                                                                          \
      "where the dataset's files are; empty: " SCALEBENCH_DATA_ROOT "/DATASET (synthetic data: unused)", "") \
    X(steps, Int, "1", Any, "training steps (optimizer steps)", 100)                                         \
    X(epochs, Real, "0", Training,                                                                           \
      "passes over the training set instead of steps: steps = ceil(epochs x training samples / "             \
      "global_batch); 0: steps",                                                                             \
      0)                                                                                                     \
    X(batch_per_rank, Int, "1", Any,                                                                         \
      "samples per step on each rank; with global_batch, the most per micro-batch", 128)                     \
    X(global_batch, Int, "0", Training,                                                                      \
      "samples per step over all ranks: micro-batches of global_batch / (ranks x A) on each rank, A (the "   \
      "gradient accumulation) the least that fits batch_per_rank; 0: batch_per_rank x ranks, A = 1",         \
      0)                                                                                                     \
    X(lr, Real, "0", Any, "base learning rate, scaled linearly to lr x ranks after the warm-up", 0.02)       \
    X(warmup_steps, Int, "-1", Any,                                                                          \
      "steps of linear warm-up to lr x ranks; -1: log2(ranks) epochs (MLBench)", -1)                         \
    X(eval_every, Int, "-1", Any, "steps between evaluations; 0: only at the end; -1: after each epoch", 0)  \
    X(eval_samples, Int, "0", Any, "held-out samples per evaluation; 0: the whole held-out set", 0)          \
    X(threads_per_rank, Int, "0", Any,                                                                       \
      "intra-op threads per rank; 0: cores of the node / ranks on it (the header "                           \
      "records what it became)",                                                                             \
      0)                                                                                                     \
    X(seed, Int, "0", Any, "seed of initialisation, shuffling and synthetic data", 1)                        \
    X(sweep_points, Int, "1", Any,                                                                           \
      "allreduce-sweep: sizes logspace(0, sweep_max_log10, sweep_points) elements", 80)                      \
    X(sweep_max_log10, Real, "0", Any, "allreduce-sweep: log10 of the largest size in elements", 8)          \
    X(repetitions, Int, "1", Any, "allreduce-sweep: timed calls per size", 100)                              \
    X(warmup_iterations, Int, "0", Any, "allreduce-sweep: untimed calls per size before them", 5)            \
    X(backend, Text, "mpi|gloo|nccl", Any, "how gradients and a sweep's collectives travel", "mpi")          \
    X(device, Text, "auto|cpu|cuda", Any,                                                                    \
      "where each rank trains: the GPU of its node-local rank (cuda), the CPU, or a GPU where one is "       \
      "(auto)",                                                                                              \
      "auto")                                                                                                \
    X(bucket_mb, Real, "0", Any, "gradient bucket size in MiB (PyTorch DDP's bucket_cap_mb)", 25)            \
    X(overlap, Switch, "", Any, "all-reduce buckets while backward still runs (no: all after backward)",     \
      true)                                                                                                  \
    X(precision, Text, "fp32|bf16|fp16", Any,                                                                \
      "compute precision; fp32 master weights always, fp16 loss scaling", "fp32")                            \
    X(target, Real, "0", Training,                                                                           \
      "stop at the first evaluation whose metric reaches it, in the unit the console shows it: accuracy in " \
      "% (80), perplexity, BLEU (0-100), loss; 0: run all steps",                                            \
      0)                                                                                                     \
    X(peak_tflops, Real, "0", Training,                                                                      \
      "dense peak TFLOP/s of one rank's accelerator at the run's precision, for MFU; 0: the GPU's from the " \
      "engine's table (none on a CPU)",                                                                      \
      0)                                                                                                     \
    X(preset, Text, "", Presets,                                                                             \
      "model size where a workload has several (llama: tiny ... 70b); empty: its default", "")               \
    X(seq_len, Int, "0", Sequence, "tokens per sequence; 0: the workload's default", 0)                      \
    X(collectives, List, "allreduce|allgather|reducescatter|broadcast|alltoall", Sweep,                      \
      "allreduce-sweep: which to time", "allreduce")                                                         \
    X(dtypes, List, "float32|float16|bfloat16", Sweep, "allreduce-sweep: element types", "float32")          \
    X(ops, List, "sum|avg", Sweep, "allreduce-sweep: reductions", "sum")                                     \
    X(in_place, Text, "no|yes|both", Sweep, "allreduce-sweep: buffers out of place, in place or both", "no")

// How the engine measures, not a plan key: the console passes the default written here with every run, so a
// stored command line says how its figures were taken even after a default changes.
#define SCALEBENCH_METHOD_OPTIONS(X)                                                                         \
    X(first_bucket_mb, Real, "0", Any,                                                                       \
      "the first gradient bucket at most this (DDP's _DEFAULT_FIRST_BUCKET_BYTES)", 1)                       \
    X(augmentation, Text, "standard|none", Any,                                                              \
      "the dataset's own augmentation (CIFAR-10: crop and flip), or none", "standard")                       \
    X(timing, Text, "back-to-back|per-call", Any,                                                            \
      "allreduce-sweep: timed calls in one loop (nccl-tests), or each alone after a barrier (OSU)",          \
      "back-to-back")                                                                                        \
    X(tf32, Switch, "", Any,                                                                                 \
      "on a GPU, fp32 matrix products and convolutions on TF32 tensor cores (the header records it)", true)

// Where files go and uses of the engine outside a plan (tests, benchmarks, checkpoints): passed when used.
#define SCALEBENCH_INVOCATION_OPTIONS(X)                                                                     \
    X(metrics, Text, "", Any, "the JSON-lines metric stream rank 0 writes (required; must not exist)", "")   \
    X(rendezvous_file, Text, "", Any, "gloo, nccl: meet through this file instead of MPI", "")               \
    X(nccl_timeout_s, Real, "1", Any,                                                                        \
      "nccl: seconds a rank waits for a collective before it aborts the communicator and stops, naming "     \
      "itself (a dead or hung peer)",                                                                        \
      600)                                                                                                   \
    X(dump_parameters, Text, "", Any,                                                                        \
      "rank 0 writes the trained parameters here (float32, registration order)", "")                         \
    X(checkpoint_dir, Text, "", Any, "save a checkpoint here every checkpoint_every steps and at the end",   \
      "")                                                                                                    \
    X(checkpoint_every, Int, "0", Any, "steps between checkpoints; 0: only at the end", 0)                   \
    X(resume, Switch, "", Any, "start from the newest checkpoint in checkpoint_dir", false)                  \
    X(mllog, Text, "", Any, "MLPerf's :::MLLOG lines go to this file (rank 0; benchmarks below)", "")        \
    X(mllog_org, Text, "", Any, "the MLLOG file's submission_org", "scalebench")                             \
    X(target_accuracy, Real, "0..1", Any,                                                                    \
      "the old form of --target for accuracy: a fraction (0.8 = --target 80)", 0)                            \
    X(slow_rank, Int, "-1", Any,                                                                             \
      "tests of the straggler views: this rank sleeps (slow_factor - 1) x its compute time each step; -1: "  \
      "none",                                                                                                \
      -1)                                                                                                    \
    X(slow_factor, Real, "1", Any, "how many times longer slow_rank computes", 1)

#define SCALEBENCH_ENGINE_OPTIONS(X)                                                                         \
    SCALEBENCH_PLAN_OPTIONS(X) SCALEBENCH_METHOD_OPTIONS(X) SCALEBENCH_INVOCATION_OPTIONS(X)

namespace scalebench::engine_cli {

enum class Kind { Text, Int, Real, Switch, List };
enum class Scope { Any, Training, Sweep, Presets, Sequence };

template <Kind> struct ValueOf;
template <> struct ValueOf<Kind::Text> { using type = std::string; };
template <> struct ValueOf<Kind::Int> { using type = int; };
template <> struct ValueOf<Kind::Real> { using type = double; };
template <> struct ValueOf<Kind::Switch> { using type = bool; };
template <> struct ValueOf<Kind::List> { using type = std::vector<std::string>; };
template <Kind K> using Value = typename ValueOf<K>::type;

// The engine's defaults by name (engine_cli::defaults::steps); the plan's own defaults start from them where
// a plan means the same.
namespace defaults {
#define SCALEBENCH_DEFAULT(name, kind, accepts, scope, help, ...)                                            \
    inline const Value<Kind::kind> name{__VA_ARGS__};
SCALEBENCH_ENGINE_OPTIONS(SCALEBENCH_DEFAULT)
#undef SCALEBENCH_DEFAULT
} // namespace defaults

// What each option accepts, by name (engine_cli::accepts::backend is "mpi|gloo|nccl").
namespace accepts {
#define SCALEBENCH_ACCEPTS(name, kind, accepted, scope, help, ...)                                           \
    inline constexpr const char* name = accepted;
SCALEBENCH_ENGINE_OPTIONS(SCALEBENCH_ACCEPTS)
#undef SCALEBENCH_ACCEPTS
} // namespace accepts

// "a|b|c" as {"a", "b", "c"} with separator '|'; a List value "x,y" with ','. Empty text gives one empty
// word.
inline std::vector<std::string> splitWords(const std::string& text, char separator) {
    std::vector<std::string> words;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t end = std::min(text.find(separator, from), text.size());
        words.push_back(text.substr(from, end - from));
        from = end + 1;
    }
    return words;
}

// --batch-per-rank for batch_per_rank.
inline std::string optionName(const std::string& name) {
    std::string option = "--" + name;
    for (char& c : option)
        if (c == '_') c = '-';
    return option;
}

// A value as it stands on the command line: numbers in their shortest exact form, switches yes or no, lists
// comma-separated.
inline std::string formatValue(const std::string& value) {
    return value;
}
inline std::string formatValue(int value) {
    return std::to_string(value);
}
inline std::string formatValue(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}
inline std::string formatValue(bool value) {
    return value ? "yes" : "no";
}
inline std::string formatValue(const std::vector<std::string>& values) {
    std::string text;
    for (const auto& v : values)
        text += (text.empty() ? "" : ",") + v;
    return text;
}

} // namespace scalebench::engine_cli
