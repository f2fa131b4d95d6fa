// What one run needs launched, and the one place a run becomes it.
#include "job_request.h"

#include "engine_invocation.h"
#include "output_formats.h"
#include "run_output.h"
#include "workload_catalog.h"

#include <algorithm>
#include <stdexcept>

namespace scalebench {

std::string dataDirOf(const RunGroup& group, const ClusterSettings& cluster) {
    if (!group.data_dir.empty() && group.data_dir.front() == '/') return group.data_dir;
    return cluster.data_root + "/" + (group.data_dir.empty() ? group.dataset : group.data_dir);
}

JobRequest jobRequestFor(const RunSpec& run, const LaunchSite& site) {
    JobRequest job;
    job.name = run.name;
    RunSpec placed = run; // with its data set's folder on the machine that runs it (data made up needs none)
    const WorkloadInfo* workload = findWorkload(run.group.workload);
    const bool reads_files = run.group.dataset.rfind("synthetic-", 0) != 0 && run.group.dataset != "none";
    if (workload && !isCollectiveSweep(*workload) && reads_files)
        placed.group.data_dir = dataDirOf(run.group, site.cluster);
    if (const CommandRun& command = run.group.command; run.group.isCommand()) {
        job.program = command.argv;
        job.engine = false;
        job.output = outputFileOf(run);
        job.output_from_stdout = command.output.empty();
        job.container_image = command.container_image;
        job.container_mounts = command.container_mounts;
    } else {
        job.program = engineArguments(placed, site.engine, job.output);
    }
    job.ranks = run.ranks;
    job.threads_per_rank = run.group.threads_per_rank;
    job.exclude_nodes = run.group.exclude_nodes;
    job.environment = run.environment;
    job.run_dir = runFolder(site.sessions_root, site.session, run.name);
    if (isLocalMachine(site.cluster)) {
        job.nodes = 1;
        job.ranks_per_node = run.ranks;
        return job;
    }
    const ClusterSettings& c = site.cluster;
    if (c.gpus_per_node > 0) {
        // One rank per GPU: as many on a node as the plan asks for (its gpus_per_node), else as the node has
        // GPUs; never more than it has.
        if (run.ranks_per_node > c.gpus_per_node)
            throw std::invalid_argument(
                "run " + run.name + " asks for " + std::to_string(run.ranks_per_node) +
                " GPUs per node (the plan's gpus_per_node), but the nodes of cluster '" + c.name + "' have " +
                std::to_string(c.gpus_per_node) + " (its gpus_per_node): one rank runs on each GPU");
        const int per_node = run.ranks_per_node > 0 ? run.ranks_per_node : c.gpus_per_node;
        job.nodes = (run.ranks + per_node - 1) / per_node;
        job.ranks_per_node = std::min(run.ranks, per_node);
        job.gpus_per_node = job.ranks_per_node;
        return job;
    }
    // No GPUs: the plan's gpus_per_node only packs ranks, else the cluster's tasks_per_node does.
    const int per_node = run.ranks_per_node > 0 ? run.ranks_per_node : std::max(1, c.tasks_per_node);
    job.nodes = (run.ranks + per_node - 1) / per_node;
    job.ranks_per_node = std::min(run.ranks, per_node);
    return job;
}

} // namespace scalebench
