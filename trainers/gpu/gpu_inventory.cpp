// The GPU inventory's parts that need no CUDA: version texts, the JSON form, the toolkit-less inventory.
#include "gpu_inventory.h"

namespace scalebench {

GpuInventory inventoryWithoutCuda() {
    GpuInventory inventory;
    inventory.no_device_reason = "the engine was built without the CUDA toolkit";
    return inventory;
}

std::string cudaVersionText(int version) {
    if (version <= 0) return "";
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string ncclVersionText(int version) {
    if (version <= 0) return "";
    return std::to_string(version / 10000) + "." + std::to_string(version % 10000 / 100) + "." +
           std::to_string(version % 100);
}

nlohmann::json toJson(const GpuInventory& inventory) {
    auto version = [](const std::string& text) {
        return text.empty() ? nlohmann::json() : nlohmann::json(text);
    };
    nlohmann::json gpus = nlohmann::json::array();
    for (const GpuDevice& device : inventory.devices)
        gpus.push_back({{"name", device.name},
                        {"memory_bytes", device.total_memory},
                        {"compute_capability",
                         std::to_string(device.compute_major) + "." + std::to_string(device.compute_minor)},
                        {"pci_bus_id", device.pci_bus_id}});
    nlohmann::json out = {{"gpu_count", inventory.devices.size()},
                          {"gpus", std::move(gpus)},
                          {"cuda_driver", version(cudaVersionText(inventory.cuda_driver))},
                          {"cuda_runtime", version(cudaVersionText(inventory.cuda_runtime))},
                          {"nccl", version(ncclVersionText(inventory.nccl))}};
    if (inventory.devices.empty()) out["gpu_unavailable"] = inventory.no_device_reason;
    return out;
}

} // namespace scalebench
