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

class EngineDeployment {
  public:
    // source_dir: this repository (CMakeLists.txt, cmake/, trainers/ are packed).
    EngineDeployment(Transport& cluster, Scheduler& scheduler, ClusterSettings settings,
                     std::filesystem::path source_dir);

    // Builds the engine on the cluster unless a build of the same sources is there; a failed build throws
    // TransportError with the build log's tail.
    DeployedEngine ensure(const std::function<void(const std::string&)>& progress,
                          std::chrono::seconds timeout = std::chrono::seconds(1800));

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
