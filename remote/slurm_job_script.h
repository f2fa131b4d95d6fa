// Renders a job as the sbatch script of one run: the cluster's settings (partition, account, setup lines,
// NCCL variables, launcher) around a JobRequest (core/plans/job_request.h), one job per run, reproducible
// from the store. Beside it: slurm_output.h reads what Slurm's commands print, slurm_scheduler.h submits and
// follows.
#pragma once

#include "cluster_settings.h"
#include "job_request.h"

#include <string>

namespace scalebench {

// Slurm job names keep letters, digits, '.', '_' and '-'; anything else becomes '_'.
std::string slurmJobName(const std::string& name);
// The script expects to be submitted from job.run_dir (`cd RUN_DIR && sbatch job.sbatch`). Throws
// std::invalid_argument for a setting that cannot stand in it (a line break in a directive, a bad variable
// name).
std::string renderSbatchScript(const ClusterSettings& cluster, const JobRequest& job);

} // namespace scalebench
