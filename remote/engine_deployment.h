// Deploys the engine to a cluster: its sources packed, uploaded to a folder named by their content hash,
// built there once by a Slurm job against the cluster's LibTorch and MPI, and reused by every later run with
// the same hash.
#pragma once

#include "cluster_settings.h"
#include "scheduler.h"
#include "transport.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

namespace scalebench {

struct DeployedEngine {
    std::string hash;   // SHA-256 of the packed sources, first 16 hex digits
    std::string folder; // on the cluster: REMOTE_ROOT/engine/HASH
    std::string engine; // the executable the job scripts launch
    bool built_now = false;
};

// The engine's executable on a cluster for sources of this hash (the one place its path is spelt).
std::string deployedEngine(const std::string& remote_root, const std::string& hash);

// What ensure() does where the engine is not built yet, worked out on this machine alone (a dry run prints
// it).
struct EngineBuildPlan {
    DeployedEngine target;         // hash, folder and executable on the cluster
    std::filesystem::path archive; // the packed sources, uploaded to target.folder + "/sources.tar.gz"
    JobRequest job;                // the build job, submitted from target.folder (its stdout.log)
};

class EngineDeployment {
  public:
    // source_dir: this repository (CMakeLists.txt, cmake/, protocol/, trainers/ are packed).
    EngineDeployment(Transport& cluster, Scheduler& scheduler, ClusterSettings settings,
                     std::filesystem::path source_dir);

    // Builds the engine on the cluster unless a build of the same sources is there; a failed build throws
    // TransportError with the build log's tail. While the build job runs, `progress` is told its state when
    // it changes, the new lines of its log every `log_every` (the last few of them), and its wall time at the
    // end.
    DeployedEngine ensure(const std::function<void(const std::string&)>& progress,
                          std::chrono::seconds timeout = std::chrono::seconds(1800),
                          std::chrono::seconds log_every = std::chrono::seconds(10));

    // The sources packed into work_dir and hashed, where they go and the job that builds them; runs nothing
    // on the cluster.
    EngineBuildPlan plan(const std::filesystem::path& work_dir) const;

    // The hash of the sources and the path of the packed archive on this machine (deterministic: same
    // sources, same bytes).
    std::pair<std::string, std::filesystem::path> pack(const std::filesystem::path& work_dir) const;

  private:
    Transport& cluster_;
    Scheduler& scheduler_;
    ClusterSettings settings_;
    std::filesystem::path source_dir_;
};

} // namespace scalebench
