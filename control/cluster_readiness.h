// Checks a cluster before anything is submitted to it (scalebench --batch PLAN --dry-run --cluster NAME
// --check): the connection and host key, Slurm's commands and the partition, and everything the engine's
// build needs there, each found or missing with what to do about it.
#pragma once

#include "cluster_settings.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace scalebench {

struct ReadinessItem {
    enum class Verdict { Ok, Missing, Note } verdict = Verdict::Ok;
    std::string what;   // "sbatch", "partition 'gpu'", "CMake", ...
    std::string detail; // what was found; or what is missing and what to do on the cluster
};

struct ClusterReadiness {
    std::string where; // "user@host:port"
    std::vector<ReadinessItem> items;
    std::string remote_root; // absolute once logged in; else as the settings give it
    int problems() const;
};

// What a plan's runs need of the cluster beyond Slurm: the engine (any run of a workload), pyxis (a command
// run in a container).
struct PlanNeeds {
    bool engine = true;
    bool containers = false;
};

// Connects (the host key must be known already: nothing is added to known_hosts) and checks, in order: the
// host key and login (checkConnection), sbatch, squeue, scancel, scontrol (sacct optional), the partition,
// srun's PMIx for the srun-pmix launcher, remote_root; then, after the cluster's setup lines, what the
// engine's build job needs: C and C++ compilers, CMake >= the version engine_sources/CMakeLists.txt requires,
// MPI (mpicc), the gloo, zlib and nlohmann-json headers, torch_python with torch. engine_at(root) is the
// deployed engine's path under an absolute remote_root (said whether it is built there already). Checked from
// the head node: the build job runs on a compute node, which must have the same software. A plan without the
// engine's runs skips the engine and its build; one with containers checks that srun takes pyxis'
// --container-image.
ClusterReadiness checkClusterReadiness(const ClusterSettings& cluster,
                                       const std::filesystem::path& engine_sources,
                                       const std::function<std::string(const std::string& root)>& engine_at,
                                       PlanNeeds needs = {});

// One line an item ("  ok      CMake: cmake version 3.25.1"), then a verdict line.
std::string formatReadiness(const ClusterReadiness& readiness);

} // namespace scalebench
