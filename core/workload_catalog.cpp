// The workloads the engine can run, with their data sets and the reference hyper-parameters of their source.
#include "workload_catalog.h"

namespace scalebench {

const std::vector<WorkloadInfo>& workloadCatalog() {
    static const std::vector<WorkloadInfo> catalog = {
        {"resnet20",
         "ResNet-20 (He et al. 2015, v1) image classification",
         "MLBench task 1: batch 128 per worker, lr 0.02 scaled by workers, Nesterov momentum 0.9, weight "
         "decay 1e-4",
         {"fashion-mnist", "synthetic-cifar"},
         128,
         0.02},
        {"allreduce-sweep",
         "MPI all-reduce of fp32 messages over a range of sizes; algbw and busbw as nccl-tests define them",
         "MLBench task 0: np.logspace(0, 8, 80) elements, 100 repetitions each",
         {"none"},
         1,
         1},
    };
    return catalog;
}

const WorkloadInfo* findWorkload(const std::string& name) {
    for (const auto& w : workloadCatalog())
        if (w.name == name) return &w;
    return nullptr;
}

} // namespace scalebench
