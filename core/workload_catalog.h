// The workloads the engine can run, with their data sets and the reference hyper-parameters of their source.
#pragma once

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

} // namespace scalebench
