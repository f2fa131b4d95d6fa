// The ranks of a run as the engine sees them: this rank, its node, every rank's host and process id, and
// sums across ranks (for evaluations).
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>

namespace scalebench {

struct World {
    int rank = 0;
    int ranks = 1;
    int local_ranks = 1; // ranks on this node
    int local_rank = 0;  // this rank's index among them
    std::string host;
};

// After MPI_Init: this rank's place in MPI_COMM_WORLD and on its node.
World joinWorld();
// Every rank's host, process id and the CPUs it may run on, gathered to rank 0 (the header's "hosts"; the
// console uses them to find stragglers and failed ranks). Collective: every rank calls it.
nlohmann::json gatherRanks(const World& world);
// This process's CPU affinity as a list of ranges, like /proc's Cpus_allowed_list: "0-3,8".
std::string cpuAffinityList();
// Element-wise sums across every rank, in place. Collective.
void sumAcrossRanks(std::span<double> values);

} // namespace scalebench
