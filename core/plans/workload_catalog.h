// The workloads the engine can run, with their data sets and the reference hyper-parameters of their source.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace scalebench {

struct WorkloadInfo {
    std::string name;
    std::string group; // one of workloadGroups(): where the console lists it
    std::string description;
    std::string source; // where the hyper-parameters come from
    std::vector<std::string> datasets;
    std::vector<std::string> precisions; // training precisions the engine implements for it ("fp32", ...)
    int batch_per_rank = 0;
    double base_lr = 0;                   // before linear scaling with the number of ranks
    std::string eval_metric = "accuracy"; // accuracy, loss, perplexity, bleu (what `target` is measured in)
    std::vector<std::string> presets;     // model sizes; the first is the default (empty: one size)
    int seq_len =
        0; // the source's tokens per sequence (the engine's default may depend on the preset); 0: none
    // Evaluation as the source does it: steps between evaluations (0: only at the end; -1: after each
    // epoch) and held-out samples (0: the whole held-out set).
    int eval_every = 0;
    int eval_samples = 0;
};

// The groups of the catalog, in the order the console lists them.
const std::vector<std::string>& workloadGroups();
const std::vector<WorkloadInfo>& workloadCatalog();
const WorkloadInfo* findWorkload(const std::string& name);
// A collective benchmark (MLBench task 0 and its kin): no model, no accuracy; collectives, dtypes, in_place.
bool isCollectiveSweep(const WorkloadInfo& workload);

// The quality target a seed states for a workload on its data set, in the unit the console shows the metric
// in (accuracy in %): a plan that states no `target` stops there.
struct SeedTarget {
    std::string metric; // the workload's eval_metric it is measured in
    double value = 0;
    std::string source; // the seed's words
};
// None where the seed states no target for this data set (synthetic data, a proxy's data, Fashion-MNIST).
std::optional<SeedTarget> seedTarget(const std::string& workload, const std::string& dataset);
// Why the engine cannot run this preset of the workload ("" where it can): a data-parallel rank holds a whole
// replica, fp32 weights, gradients and Adam's two moments, 16 bytes a parameter, which for Llama-2 13B and
// 70B is beyond any one GPU (80 GB H100, 141 GB H200); they need sharding (FSDP), which the engine does not
// have.
std::string presetRefusal(const std::string& workload, const std::string& preset);

// The target a plan gets when it states none: the seed's, where the engine measures the metric the seed
// states it in; 0 (none) otherwise.
double defaultTarget(const WorkloadInfo& workload, const std::string& dataset);

} // namespace scalebench
