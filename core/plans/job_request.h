// What one run needs launched, and the one place a run becomes it: jobRequestFor() maps a run of a plan and
// the site it runs on to a JobRequest. The runner, --dry-run and the plan builder's preview all call it; the
// schedulers only render the request (an sbatch script, an mpirun command line).
#pragma once

#include "cluster_settings.h"
#include "run_folder.h"
#include "run_plan.h"

#include <map>
#include <string>
#include <vector>

namespace scalebench {

// Launcher-neutral: what runs (any program, not only the engine), how many ranks where, and its folder.
struct JobRequest {
    std::string name; // from the plan: any text (Slurm's job name is sanitised from it)
    // What every rank runs, one word each, started in the attempt's folder attemptFolder(run_dir, K):
    // relative paths in it (the metric file) are relative to that folder.
    std::vector<std::string> program;
    // The file the program writes for the console in the attempt's folder (docs/metric-stream.md, or a
    // command run's format).
    std::string output = kMetricFileName;
    // The program prints what the console reads: the launcher writes its standard output (every rank's) to
    // `output`.
    bool output_from_stdout = false;
    bool engine = true; // the program is scalebench-engine (false: a command run's own program)
    // A command run in a container: pyxis' --container-image and --container-mounts on Slurm (the run's
    // folder is mounted too, and the attempt's folder is the container's working directory). On this machine
    // the command runs as it is.
    std::string container_image{};
    std::vector<std::string> container_mounts{};
    int ranks = 1;
    int nodes = 1;
    int ranks_per_node = 1;
    int gpus_per_node = 0;    // GPUs asked for on each node, one per rank (ranks_per_node); 0: none
    int threads_per_rank = 0; // intra-op threads per rank; 0: the node's CPUs / ranks
    std::vector<std::string> exclude_nodes{};         // Slurm: sbatch --exclude (the plan's exclude_nodes)
    std::map<std::string, std::string> environment{}; // exported to every rank (after a cluster's nccl_env)
    std::string run_dir;                              // the launcher's stdout.log and stderr.log go here
};

// Where a session's runs go: the machine (a cluster's settings, or localMachine()), the engine as that
// machine sees it, the sessions' root there (run_folder.h) and the session.
struct LaunchSite {
    ClusterSettings cluster;
    std::string engine;
    std::string sessions_root;
    SessionFolderKey session;
};

// The engine's run of `run` at `site` (a command run's: its command, output and container): every setting of
// the run on its command line, in runFolder(sessions_root, session, run.name), its ranks packed on nodes.
// Where the cluster has GPUs (gpus_per_node), one rank per GPU: as many ranks on a node as the plan asks for
// (its gpus_per_node), else as a node has GPUs, and as many GPUs asked for; std::invalid_argument, naming the
// run, the cluster and both counts, where the plan asks for more GPUs per node than the cluster's nodes have.
// Without GPUs: as the plan asks, else as the cluster does (tasks_per_node). On this machine: one node, every
// rank on it.
JobRequest jobRequestFor(const RunSpec& run, const LaunchSite& site);

// Where a training run reads its data set on `cluster`: the plan's data_dir where absolute, else under the
// cluster's data_root: <data_root>/<data_dir>, or <data_root>/<dataset> where the plan gives none.
std::string dataDirOf(const RunGroup& group, const ClusterSettings& cluster);

} // namespace scalebench
