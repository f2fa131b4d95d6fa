// The environment a run's result depends on and that a launch does not change every time: what the header's
// "environment" keeps, so that Compare names an NCCL or Open MPI setting that differs between two runs.
#pragma once

#include <map>
#include <string>

namespace scalebench {

// From `environ`-style "NAME=value" entries: NCCL_*, UCX_*, CUDA_VISIBLE_DEVICES, OMP_NUM_THREADS and Open
// MPI's OMPI_MCA_* settings, but not those mpirun sets afresh for every launch (OMPI_MCA_orte_*, _ess*,
// _pmix*, _initial_wdir, _shmem_*: session directories, URIs, job ids) nor its OMPI_COMM_WORLD_* and PMIX_*
// ranks. Sorted by name.
std::map<std::string, std::string> launchEnvironment(const char* const* entries);

} // namespace scalebench
