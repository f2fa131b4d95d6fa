// The engine's choice of communication backend (--backend mpi|gloo|nccl), with its rendezvous over MPI or a
// file (--rendezvous-file).
#pragma once

#include "communicator.h"
#include "engine_options.h"

#include <memory>
#include <mpi.h>
#include <optional>
#include <string>

namespace scalebench {

// gpu: the CUDA device the rank trains on, which NCCL then uses too; without one (a sweep, a CPU run), NCCL
// takes the device placeOnDevice gives this rank (local_rank: its index among the ranks of its node). Throws
// std::runtime_error naming the backend and the problem (e.g. no CUDA device for nccl).
std::unique_ptr<Communicator> openCommunicator(const EngineOptions& options, MPI_Comm comm, int local_rank,
                                               std::optional<int> gpu);

// The version of the NCCL library this engine runs with ("2.28.9", ncclGetVersion), whatever the backend;
// nothing where the engine was built without NCCL.
std::optional<std::string> ncclLibraryVersion();

} // namespace scalebench
