// What one run needs launched, and the one place a run becomes it.
#include "job_request.h"

#include "engine_invocation.h"

#include <algorithm>
#include <stdexcept>

namespace scalebench {

JobRequest jobRequestFor(const RunSpec& run, const LaunchSite& site) {
    JobRequest job;
    job.name = run.name;
    job.program = engineArguments(run, site.engine, job.output);
    job.ranks = run.ranks;
    job.threads_per_rank = run.group.threads_per_rank;
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
