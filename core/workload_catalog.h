// The workloads the engine can run, with their data sets and the reference hyper-parameters of their source.
#pragma once

#include <string>
#include <vector>

namespace scalebench {

struct WorkloadInfo {
    std::string name;
    std::string description;
    std::string source; // where the hyper-parameters come from
    std::vector<std::string> datasets;
    int batch_per_rank = 0;
    double base_lr = 0; // before linear scaling with the number of ranks
};

const std::vector<WorkloadInfo>& workloadCatalog();
const WorkloadInfo* findWorkload(const std::string& name);

} // namespace scalebench
