// What one run needs launched, and the one place a run becomes it.
#include "job_request.h"

#include "engine_invocation.h"

#include <algorithm>

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
    const int per_node = run.ranks_per_node > 0 ? run.ranks_per_node : std::max(1, c.tasks_per_node);
    job.nodes = (run.ranks + per_node - 1) / per_node;
    job.ranks_per_node = std::min(run.ranks, per_node);
    // One GPU per rank when the plan says how many ranks share a node; the cluster's count otherwise.
    if (c.gpus_per_node > 0)
        job.gpus_per_node = run.ranks_per_node > 0
                                ? std::min({run.ranks, run.ranks_per_node, c.gpus_per_node})
                                : c.gpus_per_node;
    return job;
}

} // namespace scalebench
