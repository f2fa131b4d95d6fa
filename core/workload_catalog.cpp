// The workloads the engine can run, with their data sets and the reference hyper-parameters of their source.
#include "workload_catalog.h"

namespace scalebench {
namespace {
constexpr const char* kCollectives = "Collectives";
} // namespace

const std::vector<std::string>& workloadGroups() {
    static const std::vector<std::string> groups = {"MLBench tasks", "MLPerf-style", "LLM pre-training",
                                                    kCollectives};
    return groups;
}

const std::vector<WorkloadInfo>& workloadCatalog() {
    static const std::vector<WorkloadInfo> catalog = {
        {.name = "resnet20",
         .group = "MLBench tasks",
         .description = "ResNet-20 (He et al. 2015, v1) image classification",
         .source = "MLBench task 1: batch 128 per worker, lr 0.02 scaled by workers, Nesterov momentum 0.9, "
                   "weight decay 1e-4",
         .datasets = {"fashion-mnist", "synthetic-cifar"},
         .precisions = {"fp32"},
         .batch_per_rank = 128,
         .base_lr = 0.02},
        {.name = "allreduce-sweep",
         .group = kCollectives,
         .description = "MPI all-reduce of fp32 messages over a range of sizes; algbw and busbw as "
                        "nccl-tests define them",
         .source = "MLBench task 0: np.logspace(0, 8, 80) elements, 100 repetitions each",
         .datasets = {"none"},
         .precisions = {"fp32"},
         .batch_per_rank = 1,
         .base_lr = 1},
    };
    return catalog;
}

const WorkloadInfo* findWorkload(const std::string& name) {
    for (const auto& w : workloadCatalog())
        if (w.name == name) return &w;
    return nullptr;
}

bool isCollectiveSweep(const WorkloadInfo& workload) {
    return workload.group == kCollectives;
}

} // namespace scalebench
