// Where this rank trains (--device): the GPU of its node-local rank, or the CPU, and why; made current for
// the process, so that every later allocation, stream and collective of the rank refers to it.
#pragma once

#include "gpu_inventory.h"
#include "world.h"

#include <nlohmann/json.hpp>
#include <string>
#include <torch/types.h>

namespace scalebench {

struct TrainingDevice {
    torch::Device device{torch::kCPU};
    std::string requested; // --device: auto, cpu or cuda
    std::string reason; // how it was chosen, e.g. "OMPI_COMM_WORLD_LOCAL_RANK=1", "--device cpu", or why no
                        // GPU was taken

    bool cuda() const { return device.is_cuda(); }
    // The header's "device" record: {"requested", "type", "index", "reason"}.
    nlohmann::json record() const;
};

// --device cpu: the CPU. cuda: the GPU of this rank's node-local rank; throws std::runtime_error naming the
// cause where there is none (no CUDA in this engine, no driver, no device, or fewer devices than ranks on
// the node). auto: as cuda where the node has a GPU, else the CPU, with the reason. `gpus` (this node's, as
// the CUDA runtime sees them) gives the reason where LibTorch sees no device.
TrainingDevice chooseTrainingDevice(const std::string& requested, const World& world,
                                    const GpuInventory& gpus);

} // namespace scalebench
