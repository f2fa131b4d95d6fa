// Renders the sbatch script of one run from the cluster's settings: one job per run, reproducible from the
// store.
#pragma once

#include "cluster_settings.h"

#include <map>
#include <string>
#include <vector>

namespace scalebench {

struct SlurmJob {
    std::string name;                 // from the plan: any text; sanitised for Slurm
    int ranks = 1;                    // MPI processes in all
    std::vector<std::string> program; // the engine and its arguments, each one word
    std::string run_dir;              // the job's output goes here
    int ranks_per_node = 0;           // the plan's gpus_per_node; 0: the cluster's tasks_per_node
    std::map<std::string, std::string> environment{}; // the plan's env, exported after the cluster's nccl_env
};

// Slurm job names keep letters, digits, '.', '_' and '-'; anything else becomes '_'.
std::string slurmJobName(const std::string& name);
int nodesFor(const ClusterSettings& cluster, int ranks);
// Nodes for the job: its ranks_per_node when set, else the cluster's tasks_per_node.
int nodesFor(const ClusterSettings& cluster, const SlurmJob& job);
// The script expects to be submitted from job.run_dir (`cd RUN_DIR && sbatch job.sbatch`).
std::string renderSbatchScript(const ClusterSettings& cluster, const SlurmJob& job);

} // namespace scalebench
