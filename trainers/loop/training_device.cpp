// The rank's training device from --device, the node's GPUs and the rank's place on its node.
#include "training_device.h"

#include <c10/core/impl/VirtualGuardImpl.h>
#include <cstdlib>
#include <stdexcept>
#include <torch/cuda.h>

namespace scalebench {
namespace {

// Why LibTorch sees no GPU here.
std::string noGpuReason() {
#ifdef SCALEBENCH_CUDA
    return "LibTorch sees no CUDA device on " +
           std::string(std::getenv("HOSTNAME") ? std::getenv("HOSTNAME") : "this node") +
           " (no NVIDIA driver, or no device visible: CUDA_VISIBLE_DEVICES=" +
           (std::getenv("CUDA_VISIBLE_DEVICES") ? std::getenv("CUDA_VISIBLE_DEVICES") : "unset") + ")";
#else
    return "this engine was built without LibTorch's CUDA libraries (build it with -DSCALEBENCH_CUDA=ON: the "
           "`cuda` preset)";
#endif
}

// The node-local rank that picks the GPU, and which variable said it.
std::pair<int, std::string> nodeLocalRank(const World& world) {
    for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"})
        if (const char* value = std::getenv(name); value && *value)
            return {std::atoi(value), std::string(name) + "=" + value};
    return {world.local_rank, "MPI's node-local rank " + std::to_string(world.local_rank)};
}

} // namespace

nlohmann::json TrainingDevice::record() const {
    return {{"requested", requested},
            {"type", cuda() ? "cuda" : "cpu"},
            {"index", cuda() ? nlohmann::json(device.index()) : nlohmann::json(nullptr)},
            {"reason", reason}};
}

TrainingDevice chooseTrainingDevice(const std::string& requested, const World& world) {
    if (requested == "cpu") return {torch::Device(torch::kCPU), requested, "--device cpu"};
    if (requested != "cuda" && requested != "auto")
        throw std::invalid_argument("--device: '" + requested + "' is not auto, cpu or cuda");
    const int devices = static_cast<int>(torch::cuda::device_count());
    if (devices == 0) {
        if (requested == "cuda") throw std::runtime_error("--device cuda: " + noGpuReason());
        return {torch::Device(torch::kCPU), requested, "no GPU: " + noGpuReason()};
    }
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    int index = 0;
    std::string reason;
    if (devices == 1 && visible && *visible && std::string(visible).find(',') == std::string::npos) {
        reason = "CUDA_VISIBLE_DEVICES=" + std::string(visible) + " (one GPU per task)";
    } else {
        const auto [local, source] = nodeLocalRank(world);
        if (local >= devices)
            throw std::runtime_error("--device " + requested + ": rank " + std::to_string(world.rank) +
                                     " has no GPU of its own: " + source + ", and this node shows " +
                                     std::to_string(devices) + " CUDA devices (CUDA_VISIBLE_DEVICES=" +
                                     (visible ? visible : "unset") + "); run at most one rank per GPU");
        index = local;
        reason = source;
    }
    const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
    c10::impl::VirtualGuardImpl(device.type()).setDevice(device);
    return {device, requested, reason};
}

} // namespace scalebench
