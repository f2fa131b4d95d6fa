// Where a run's ranks ran, from its header (hosts[].host, hosts[].cpus, threads_per_rank): the most ranks on
// one host, the CPUs they were bound to there, and the threads each rank computed with.
#pragma once

#include <string>

namespace scalebench {

struct RunPlacement {
    int ranks_on_a_host = 0;  // the busiest host's ranks (0: the header names no hosts)
    int cpus_on_a_host = 0;   // the CPUs that host's ranks were bound to, together (0: no CPU lists)
    int threads_per_rank = 0; // compute threads of each rank (0: not said)
};
RunPlacement runPlacement(const std::string& header_json);

// The number of CPUs in a Linux CPU list ("0-3,8" is 5); 0 for text that is not one.
int cpuListSize(const std::string& list);

} // namespace scalebench
