// The engine's choice of communication backend (--backend mpi|gloo|nccl), with its rendezvous over MPI or a
// file (--rendezvous-file).
#pragma once

#include "communicator.h"
#include "engine_options.h"

#include <memory>
#include <mpi.h>

namespace scalebench {

// local_rank: this rank's index among the ranks of its node (NCCL picks the GPU with it). Throws
// std::runtime_error naming the backend and the problem (e.g. no CUDA device for nccl).
std::unique_ptr<Communicator> openCommunicator(const EngineOptions& options, MPI_Comm comm, int local_rank);

} // namespace scalebench
