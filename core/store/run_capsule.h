// What ran, exactly: a run's capsule (its job script, the engine's source hash, versions, GPUs, container,
// nodes, NCCL/OMPI environment, the plan), assembled from what the store keeps of the run, and what differs
// between the capsules of two sessions' runs.
#pragma once

#include "stored_rows.h"

#include <string>
#include <utility>
#include <vector>

namespace scalebench {

class SessionStore;

struct CapsuleEntry {
    std::string key; // "job script", "engine source", "versions.libtorch", "environment.NCCL_ALGO", ...
    std::string value;
    bool operator==(const CapsuleEntry&) const = default;
};

struct RunCapsule {
    std::string run;                     // the run's name
    std::vector<CapsuleEntry> entries{}; // in the order above; a key the run does not have is absent
    // The entry's value, or empty.
    std::string value(const std::string& key) const;
};

// Keys, in order: "job script" (the rendered Slurm script, or the launch command on this machine, with the
// run's folder written <run folder> and its session's folder <session folder>: they differ on every
// session), "engine source" (the hash of the sources the engine was built from,
// cmake/EngineSourceHash.cmake), "versions.engine|libtorch|mpi|cuda driver|cuda runtime|nccl", "gpus" (names,
// one per line), "cpu", "container.image" and "container.digest" (a pinned reference's sha256; pyxis reports
// none for a tag), "nodes" (the scheduler's list), "hosts" (rank: host and CPUs, one per line),
// "environment.NAME" (the NCCL_*, UCX_*, OMPI_MCA_*, CUDA_VISIBLE_DEVICES, OMP_NUM_THREADS the engine saw),
// "plan" (the session's plan text). Runs of outside programs have what their output and job script tell.
RunCapsule runCapsule(const SessionRow& session, const RunRow& run);

// The run header keys a capsule holds (versions, hosts, GPUs, CPU, environment): the settings comparison
// leaves them to the capsules, so that each fact is shown once.
bool capsuleHeaderKey(const std::string& flattened_key);

// Two texts line by line (a longest common subsequence): the lines only A has and those only B has, each
// "line N: text" with its line number on its side, joined by newlines. Both empty when the texts are equal.
std::pair<std::string, std::string> differingLines(const std::string& a, const std::string& b);

// A session's capsules in one view: the entries every run shares (run = "every run"), then each run's
// entries that not every run shares.
struct SessionCapsule {
    std::vector<CapsuleEntry> shared{};
    std::vector<std::pair<std::string, std::vector<CapsuleEntry>>> per_run{}; // run name, its own entries
};
SessionCapsule sessionCapsule(const std::vector<RunCapsule>& runs);

// The capsules of a stored session's runs, in run order.
std::vector<RunCapsule> loadCapsules(const SessionStore& store, const SessionRow& session);

} // namespace scalebench
