// Which CUDA device a rank uses, from its environment (a per-task CUDA_VISIBLE_DEVICES binding, Open MPI's or
// Slurm's node-local rank, or MPI's) and the devices it sees; one rank per GPU, or an error that says why
// not. No CUDA, no LibTorch: the environment comes in as a lookup, so tests set no variables.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace scalebench {

// The value of an environment variable, or nothing when it is not set.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// This process's environment (std::getenv).
EnvironmentLookup processEnvironment();

struct DevicePlacement {
    int device = 0;     // the CUDA device index, among those this process sees
    std::string source; // for the header: "CUDA_VISIBLE_DEVICES=3", "OMPI_COMM_WORLD_LOCAL_RANK=1",
                        // "SLURM_LOCALID=1" or "MPI local rank 1"
};

// The first rule that applies:
//   1. CUDA_VISIBLE_DEVICES names exactly one device (a per-task binding: srun --gpus-per-task=1, a wrapper
//      script): device 0, the only one this process sees;
//   2. OMPI_COMM_WORLD_LOCAL_RANK (mpirun), 3. SLURM_LOCALID (srun), 4. mpi_local_rank (World::local_rank):
//      the node-local rank is the device index. Open MPI's comes first: mpirun in an sbatch script passes
//      every rank the batch step's SLURM_LOCALID, 0.
// Throws std::runtime_error when the index is not below visible_devices (two ranks would share a GPU: they
// would measure something else, and NCCL refuses it), naming the rank, the local rank, where it came from,
// the device count and CUDA_VISIBLE_DEVICES; and when a local-rank variable is not a number >= 0.
DevicePlacement placeOnDevice(const EnvironmentLookup& environment, int visible_devices, int rank,
                              int mpi_local_rank);

} // namespace scalebench
