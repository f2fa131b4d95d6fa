// What a run of a plan will be submitted as, before it is.
#include "job_preview.h"

#include "engine_deployment.h"
#include "local_scheduler.h"
#include "no_connection.h"
#include "slurm_scheduler.h"

namespace scalebench {

std::string localEnginePath(const std::string& engine) {
    if (engine.find('/') == std::string::npos) return engine; // from PATH
    return std::filesystem::absolute(engine).string();
}

LaunchSite previewSite(const ClusterSettings& cluster, const std::string& engine,
                       const std::filesystem::path& out_dir, const std::string& store_id) {
    const SessionFolderKey session{store_id, 0, ""};
    if (isLocalMachine(cluster))
        return {cluster, localEnginePath(engine), std::filesystem::absolute(out_dir).string(), session};
    return {cluster, deployedEngine(cluster.remote_root, "HASH"), cluster.remote_root + "/sessions", session};
}

std::string submittedCommand(const RunSpec& run, const LaunchSite& site) {
    const JobRequest job = jobRequestFor(run, site);
    if (isLocalMachine(site.cluster)) return LocalScheduler().commandLine(job);
    NoConnection none(site.cluster.name);
    return SlurmScheduler(none, site.cluster).commandLine(job);
}

} // namespace scalebench
