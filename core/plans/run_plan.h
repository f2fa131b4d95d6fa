// A benchmark plan (TOML) and its expansion into runs: workload x ranks x repeat.
#pragma once

#include "engine_option_table.h"
#include "plan_error.h"
#include "reference.h"

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace scalebench {

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

// One [[run]] table: a workload (or a command: `command`) at several rank counts. Its engine settings are
// members made from the engine's option table (protocol/engine_option_table.h: each plan key's name, type,
// accepted values, the [[run]] tables it belongs in, meaning and the engine's default); a plan that leaves
// one out gets the workload's own value where the catalog has one (groupDefaults). The rest are the
// console's: how many ranks, how they are placed, what is exported and logged.
struct RunGroup {
#define SCALEBENCH_GROUP_MEMBER(name, kind, accepts, scope, help, ...)                                       \
    engine_cli::Value<engine_cli::Kind::kind> name = engine_cli::defaults::name;
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_GROUP_MEMBER)
#undef SCALEBENCH_GROUP_MEMBER
    // The rank counts, one run each (one rank per GPU).
    std::vector<int> ranks;
    // `batch_per_rank = [48, 24, 12, 36]`: one per entry of `ranks`, as MLPerf submissions change the per-GPU
    // batch with the GPU count (MLPerf Training v3.0's ResNet-50 submission, seed 000: config_1cc_1x8x48x1
    // ... 8x8x36x1); empty: batch_per_rank at every rank count. expandPlan gives each run its own.
    std::vector<int> batch_per_rank_by_ranks{};
    int gpus_per_node = 0; // ranks (one per GPU) per node; 0: the cluster's tasks_per_node
    // The engine also writes MLPerf's compliance log (--mllog attempt-K/kMllogFileName), which the console
    // reads back after the run for MLPerf's time to train.
    bool mllog = false;
    // Slurm only: nodes the jobs must not run on (sbatch --exclude), e.g. those a run's slow-rank finding
    // named.
    std::vector<std::string> exclude_nodes{};
    std::map<std::string, std::string> env{}; // exported to every rank of the job
    // A command run: workload is then the program's name (osu_allreduce), dataset empty, and the engine's
    // settings above unused.
    CommandRun command{};

    bool isCommand() const {
        return !command.argv.empty();
    }
    friend bool operator==(const RunGroup&, const RunGroup&) = default;
};

struct WorkloadInfo;
// The group of a [[run]] of this workload on this data set that leaves every other key out: the engine's
// defaults, and the workload's own batch per rank, learning rate, evaluation cadence and size, the seed's
// target for the data set, and the first preset. What the plan reader starts from and what the writer leaves
// out.
RunGroup groupDefaults(const WorkloadInfo& workload, const std::string& dataset);

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

    friend bool operator==(const RunSpec&, const RunSpec&) = default;
};

// Whether any of the runs is the engine's (not a command of its own): only then is the engine deployed.
bool runsEngine(const std::vector<RunSpec>& runs);

// The most runs one plan may expand to (rank counts x repeats over its groups).
inline constexpr std::size_t kMostRunsInPlan = 100000;

RunPlan parsePlanText(const std::string& text, const std::string& file_name);
RunPlan parsePlanFile(const std::filesystem::path& path);
std::vector<RunSpec> expandPlan(const RunPlan& plan);

} // namespace scalebench
