// A benchmark plan (TOML) and its expansion into runs: workload x ranks x repeat.
#pragma once

#include "engine_option_table.h"
#include "reference.h"

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace scalebench {

// A plan that cannot be used; the message names the file, the line and the key.
class PlanError : public std::runtime_error {
  public:
    PlanError(const std::string& file, int line, const std::string& key, const std::string& problem);
    const std::string& file() const { return file_; }
    int line() const { return line_; }
    const std::string& key() const { return key_; }

  private:
    std::string file_;
    int line_;
    std::string key_;
};

// A [[run]] that runs a program of its own instead of the engine (nccl-tests, OSU, an MLPerf container...):
// launched as the engine is, one process a rank, and its output read by the reader of `format`.
struct CommandRun {
    std::vector<std::string> argv; // the program and its arguments, as every rank runs them
    // How its output reads (kOutputFormats): nccl-tests, nccl-tests-json, osu, metric-stream.
    std::string format;
    // The file it writes for the console, relative to its attempt's folder; empty: its standard output, which
    // the launcher then writes to kCommandOutputFileName there.
    std::string output;
    std::string container_image;               // pyxis' --container-image on Slurm; empty: none
    std::vector<std::string> container_mounts; // pyxis' --container-mounts, SRC:DST[:FLAGS] each
    std::string name; // what names its runs (and stands as their workload); empty: the program's name

    friend bool operator==(const CommandRun&, const CommandRun&) = default;
};

// One [[run]] table: a workload (or a command: `command`) at several rank counts. Its engine settings are the
// engine's options of the same name (protocol/engine_option_table.h), with the engine's defaults but where a
// plan means otherwise.
struct RunGroup {
    std::string workload;
    std::string dataset;
    std::vector<int> ranks;
    // Where the data set's files are on the machine that runs it; empty: the cluster's data_root/DATASET
    // (this machine: SCALEBENCH_DATA_ROOT/DATASET); relative: to that data root.
    std::string data_dir = engine_cli::defaults::data_dir;
    int steps = engine_cli::defaults::steps;
    double epochs = engine_cli::defaults::epochs; // passes over the training set instead of steps; 0: steps
    int batch_per_rank = 0; // 0: the workload's reference value; with global_batch the most per micro-batch
    // `batch_per_rank = [48, 24, 12, 36]`: one per entry of `ranks`, as MLPerf submissions change the per-GPU
    // batch with the GPU count (seed 000's config_1cc_1x8x48x1 ... 8x8x36x1); empty: batch_per_rank at every
    // rank count. expandPlan gives each run its own.
    std::vector<int> batch_per_rank_by_ranks{};
    // Samples per step over all ranks, split into ranks x accumulation micro-batches
    // (engine_cli::splitGlobalBatch); 0: batch_per_rank x ranks.
    int global_batch = engine_cli::defaults::global_batch;
    double lr = 0; // base learning rate before scaling by ranks; 0: the workload's reference value
    int warmup_steps = engine_cli::defaults::warmup_steps; // linear warm-up to lr x ranks; -1: log2(ranks)
                                                           // epochs as in MLBench
    int eval_every =
        engine_cli::defaults::eval_every; // steps between evaluations; 0: only at the end; -1:
                                          // after each epoch (the catalog's default per workload)
    int eval_samples = engine_cli::defaults::eval_samples;         // held-out samples per evaluation; 0: all
    int threads_per_rank = engine_cli::defaults::threads_per_rank; // 0: cores of the node / ranks on it
    int seed = engine_cli::defaults::seed;
    // Collective sweeps (MLBench task 0): message sizes logspace(0, sweep_max_log10, sweep_points) elements.
    int sweep_points = engine_cli::defaults::sweep_points;
    double sweep_max_log10 = engine_cli::defaults::sweep_max_log10;
    int repetitions = engine_cli::defaults::repetitions;             // timed calls per size
    int warmup_iterations = engine_cli::defaults::warmup_iterations; // untimed calls per size before them
    // How gradients (and a sweep's collectives) travel: one of kBackends.
    std::string backend = engine_cli::defaults::backend;
    // Where each rank trains: one of kDevices (auto: the GPU of its node-local rank where the node has one).
    std::string device = engine_cli::defaults::device;
    double bucket_mb = engine_cli::defaults::bucket_mb; // gradient bucket size, MiB
    bool overlap = engine_cli::defaults::overlap;       // all-reduce buckets while backward still runs
    std::string precision =
        engine_cli::defaults::precision; // one of the workload's precisions (workload catalog)
    // Stop at the first evaluation whose metric (catalog eval_metric) reaches it, in the unit the console
    // shows it (accuracy in %); 0: run all steps. A plan that leaves it out gets the target the seed states
    // for the workload on its data set (seedTarget), if any.
    double target = engine_cli::defaults::target;
    // Dense peak TFLOP/s of one GPU at the run's precision, for MFU; 0: the engine's table for the GPU's
    // model.
    double peak_tflops = engine_cli::defaults::peak_tflops;
    std::string preset =
        engine_cli::defaults::preset; // model size, one of the workload's presets ("" where it has none)
    int seq_len = engine_cli::defaults::seq_len; // tokens per sequence; 0: the workload's default
    int gpus_per_node = 0; // ranks (one per GPU) per node; 0: the cluster's tasks_per_node
    // The engine also writes MLPerf's compliance log (--mllog attempt-K/kMllogFileName), which the console
    // reads back after the run for MLPerf's time to train.
    bool mllog = false;
    // Slurm only: nodes the jobs must not run on (sbatch --exclude), e.g. those a run's slow-rank finding
    // named.
    std::vector<std::string> exclude_nodes{};
    std::map<std::string, std::string> env{}; // exported to every rank of the job
    // Collective sweeps only: which collectives, element types and buffer placements to time.
    std::vector<std::string> collectives = engine_cli::defaults::collectives;
    std::vector<std::string> dtypes = engine_cli::defaults::dtypes;
    std::vector<std::string> ops = engine_cli::defaults::ops; // reductions: sum, avg
    std::string in_place = engine_cli::defaults::in_place;    // "yes", "no" or "both"
    // Training workloads: the run checks its device instead of training (the engine's --check-device: fused
    // kernels against their formulas, the same seeded steps twice) and ends with a device_check record's
    // verdict; a failed check fails the run.
    bool check_device = engine_cli::defaults::check_device;
    // A command run: workload is then the program's name (osu_allreduce), dataset empty, and the engine's
    // settings above unused.
    CommandRun command{};

    bool isCommand() const { return !command.argv.empty(); }
    friend bool operator==(const RunGroup&, const RunGroup&) = default;
};

// What the engine accepts for these keys, from its option table, in the table's order.
inline const std::vector<std::string> kBackends = engine_cli::splitWords(engine_cli::accepts::backend, '|');
inline const std::vector<std::string> kDevices = engine_cli::splitWords(engine_cli::accepts::device, '|');
inline const std::vector<std::string> kPrecisions =
    engine_cli::splitWords(engine_cli::accepts::precision, '|');
inline const std::vector<std::string> kCollectiveNames =
    engine_cli::splitWords(engine_cli::accepts::collectives, '|');
inline const std::vector<std::string> kDtypes = engine_cli::splitWords(engine_cli::accepts::dtypes, '|');
inline const std::vector<std::string> kOps = engine_cli::splitWords(engine_cli::accepts::ops, '|');
inline const std::vector<std::string> kInPlaceChoices =
    engine_cli::splitWords(engine_cli::accepts::in_place, '|');

// A command run's program as the stem of its runs' names (and folders): characters other than letters,
// digits, '.', '_' and '-' become '_'.
std::string runNameOfProgram(const std::string& program);

// A name a POSIX shell accepts for a variable: a letter or '_', then letters, digits and '_'.
bool isEnvironmentVariableName(const std::string& name);

struct RunPlan {
    std::string name;
    std::string description;
    int repeats = 1;
    std::vector<RunGroup> groups;
    // What the runs are expected to measure ([[reference]] tables), and the least relative change against a
    // baseline session worth calling a regression (regression_threshold; docs/plans.md, "Verdicts").
    std::vector<Reference> references{};
    double regression_threshold = 0.05;
    std::string source_text; // the TOML as read, stored with the session
    // "plan.toml:7: ..." for what the plan says in a way that still works but should be written otherwise (an
    // old key): shown before the runs start.
    std::vector<std::string> warnings{};
};

// One run of an expanded plan.
struct RunSpec {
    std::string name; // e.g. "resnet20-fashion-mnist-n2-r1"
    RunGroup group;   // hyper-parameters, with the workload's defaults filled in
    int ranks = 1;
    int repeat = 1;
    // Ranks per node asked for by the plan (gpus_per_node), and the nodes that makes; 0 and 0: the
    // scheduler's choice (the cluster's tasks_per_node, or this one machine).
    int ranks_per_node = 0;
    int nodes = 0;
    std::map<std::string, std::string> environment{}; // the group's env: exported to every rank of the job
};

// Whether any of the runs is the engine's (not a command of its own): only then is the engine deployed.
bool runsEngine(const std::vector<RunSpec>& runs);

// The most runs one plan may expand to (rank counts x repeats over its groups).
inline constexpr std::size_t kMostRunsInPlan = 100000;

RunPlan parsePlanText(const std::string& text, const std::string& file_name);
RunPlan parsePlanFile(const std::filesystem::path& path);
std::vector<RunSpec> expandPlan(const RunPlan& plan);

} // namespace scalebench
