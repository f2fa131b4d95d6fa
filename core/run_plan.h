// A benchmark plan (TOML) and its expansion into runs: workload x ranks x repeat.
#pragma once

#include <filesystem>
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
};

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
};

RunPlan parsePlanText(const std::string& text, const std::string& file_name);
RunPlan parsePlanFile(const std::filesystem::path& path);
std::vector<RunSpec> expandPlan(const RunPlan& plan);

} // namespace scalebench
