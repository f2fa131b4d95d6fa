// The rank's training device from --device, the node's GPUs and the rank's place on its node.
#include "training_device.h"

#include "device_placement.h"
#include "metric_stream.h"

#include <c10/core/impl/VirtualGuardImpl.h>
#include <stdexcept>
#include <torch/cuda.h>

namespace scalebench {
namespace {

// Why LibTorch sees no GPU here.
std::string noGpuReason([[maybe_unused]] const GpuInventory& gpus) {
#ifdef SCALEBENCH_CUDA
    return "LibTorch sees no CUDA device" +
           (gpus.no_device_reason.empty() ? std::string() : ": " + gpus.no_device_reason);
#else
    return "this engine was built without LibTorch's CUDA libraries (build it with -DSCALEBENCH_CUDA=ON: the "
           "`cuda` preset)";
#endif
}

} // namespace

nlohmann::json TrainingDevice::record() const {
    namespace field = metric_stream::header::device;
    return {{field::kRequested, requested},
            {field::kType, cuda() ? field::kCuda : field::kCpu},
            {field::kIndex, cuda() ? nlohmann::json(device.index()) : nlohmann::json(nullptr)},
            {field::kReason, reason}};
}

TrainingDevice chooseTrainingDevice(const std::string& requested, const World& world,
                                    const GpuInventory& gpus) {
    if (requested == "cpu") return {torch::Device(torch::kCPU), requested, "--device cpu"};
    if (requested != "cuda" && requested != "auto")
        throw std::invalid_argument("--device: '" + requested + "' is not auto, cpu or cuda");
    const int devices = static_cast<int>(torch::cuda::device_count());
    if (devices == 0) {
        if (requested == "cuda") throw std::runtime_error("--device cuda: " + noGpuReason(gpus));
        return {torch::Device(torch::kCPU), requested, "no GPU: " + noGpuReason(gpus)};
    }
    DevicePlacement placement;
    try {
        placement = placeOnDevice(processEnvironment(), devices, world.rank, world.local_rank);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error("--device " + requested + ": " + e.what());
    }
    const torch::Device device(torch::kCUDA, static_cast<c10::DeviceIndex>(placement.device));
    c10::impl::VirtualGuardImpl(device.type()).setDevice(device);
    return {device, requested, placement.source};
}

} // namespace scalebench
