// A benchmark plan (TOML) and its expansion into runs: workload x ranks x repeat.
#pragma once

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

// One [[run]] table: a workload at several rank counts.
struct RunGroup {
    std::string workload;
    std::string dataset;
    std::vector<int> ranks;
    int steps = 100;
    int batch_per_rank = 0;   // 0: the workload's reference value
    double lr = 0;            // base learning rate before scaling by ranks; 0: the workload's reference value
    int warmup_steps = -1;    // linear warm-up to lr x ranks; -1: log2(ranks) epochs as in MLBench
    int eval_every = 0;       // steps between evaluations; 0: only at the end
    int eval_samples = 2000;  // held-out samples per evaluation
    int threads_per_rank = 0; // 0: cores of the node / ranks on it
    int seed = 1;
    // Collective sweeps (MLBench task 0): message sizes logspace(0, sweep_max_log10, sweep_points) elements.
    int sweep_points = 80;
    double sweep_max_log10 = 8;
    int repetitions = 100;     // timed calls per size
    int warmup_iterations = 5; // untimed calls per size before them
    // How gradients (and a sweep's collectives) travel: one of kBackends.
    std::string backend = "mpi";
    double bucket_mb = 25;                    // gradient bucket size, MiB
    bool overlap = true;                      // all-reduce buckets while backward still runs
    std::string precision = "fp32";           // one of the workload's precisions (workload catalog)
    double target_accuracy = 0;               // stop when the evaluation reaches it (0..1]; 0: run all steps
    double target = 0;       // stop when the workload's eval metric reaches it (catalog eval_metric); 0: never
    std::string preset;      // model size, one of the workload's presets ("" where it has none)
    int seq_len = 0;         // tokens per sequence; 0: the workload's default
    int gpus_per_node = 0;                    // ranks (one per GPU) per node; 0: the cluster's tasks_per_node
    std::map<std::string, std::string> env{}; // exported to every rank of the job
    // Collective sweeps only: which collectives, element types and buffer placements to time.
    std::vector<std::string> collectives = {"allreduce"};
    std::vector<std::string> dtypes = {"float32"};
    std::vector<std::string> ops = {"sum"}; // reductions: sum, avg
    std::string in_place = "no"; // "yes", "no" or "both"

    friend bool operator==(const RunGroup&, const RunGroup&) = default;
};

inline const std::vector<std::string> kBackends = {"mpi", "gloo", "nccl"};
inline const std::vector<std::string> kPrecisions = {"fp32", "bf16", "fp16"};
inline const std::vector<std::string> kCollectiveNames = {"allreduce", "allgather", "reducescatter",
                                                          "broadcast", "alltoall"};
inline const std::vector<std::string> kDtypes = {"float32", "float16", "bfloat16"};
inline const std::vector<std::string> kOps = {"sum", "avg"};
inline const std::vector<std::string> kInPlaceChoices = {"no", "yes", "both"};

// A name a POSIX shell accepts for a variable: a letter or '_', then letters, digits and '_'.
bool isEnvironmentVariableName(const std::string& name);

struct RunPlan {
    std::string name;
    std::string description;
    int repeats = 1;
    std::vector<RunGroup> groups;
    std::string source_text; // the TOML as read, stored with the session
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

RunPlan parsePlanText(const std::string& text, const std::string& file_name);
RunPlan parsePlanFile(const std::filesystem::path& path);
std::vector<RunSpec> expandPlan(const RunPlan& plan);

} // namespace scalebench
