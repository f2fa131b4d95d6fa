// The mpirun command line of one run on this machine: what LocalScheduler launches, and what the plan builder
// previews.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace scalebench {

// `mpirun -np RANKS --oversubscribe --bind-to none [-x NAME=value ...] PROGRAM...`: more ranks than cores is
// allowed here, the engine sets its own threads, and every variable of `environment` reaches every rank
// (OpenMPI's -x). Throws std::invalid_argument for a name that is not an environment variable name.
std::vector<std::string> localMpirunArguments(int ranks, const std::vector<std::string>& program,
                                              const std::map<std::string, std::string>& environment = {});

} // namespace scalebench
