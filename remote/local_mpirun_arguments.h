// Renders a job as the mpirun command line of one run on this machine: what LocalScheduler launches.
#pragma once

#include "job_request.h"

#include <string>
#include <vector>

namespace scalebench {

// The logical CPUs this process may run on (its affinity mask), at least 1.
int usableCpus();

// `mpirun -np RANKS PLACEMENT [-x NAME=value ...] PROGRAM...`. Every variable of the job's environment
// reaches every rank (OpenMPI's -x). Placement: when every rank can have `threads_per_rank` logical CPUs of
// its own (0: cpus / ranks), each rank is bound to its own (`--use-hwthread-cpus --map-by slot:PE=T --bind-to
// hwthread`, Open MPI's way for MPI + threads): ranks that migrate between cores wait for each other at every
// all-reduce. When they do not fit, ranks run unbound and oversubscribed (`--oversubscribe --bind-to none`).
// Throws std::invalid_argument for a name that is not an environment variable name.
std::vector<std::string> localMpirunArguments(const JobRequest& job, int cpus = usableCpus());

} // namespace scalebench
