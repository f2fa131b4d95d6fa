// What this node's GPUs are, for the metric stream's header: each device's name, memory, compute capability
// and PCI bus id, the CUDA driver and runtime versions and NCCL's; or why there is no usable device. CUDA
// runtime only (no LibTorch); an engine built without the CUDA toolkit says so.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace scalebench {

struct GpuDevice {
    std::string name;               // cudaDeviceProp::name: "NVIDIA H100 80GB HBM3"
    std::uint64_t total_memory = 0; // bytes
    int compute_major = 0;          // compute capability 9.0 -> 9, 0
    int compute_minor = 0;
    std::string pci_bus_id; // "0000:18:00.0"
};

struct GpuInventory {
    std::vector<GpuDevice> devices; // those this process sees (CUDA_VISIBLE_DEVICES applies), in CUDA's order
    std::string
        no_device_reason; // when devices is empty: "cudaErrorInsufficientDriver (CUDA driver version ...)"
    int cuda_driver = 0;  // cudaDriverGetVersion: 13000 for 13.0; 0 without a driver
    int cuda_runtime = 0; // cudaRuntimeGetVersion: 13000; 0 without the toolkit
    int nccl = 0;         // ncclGetVersion: 22809 for 2.28.9; 0 without NCCL
};

// This node's GPUs, asked of the CUDA runtime (no device is initialised: no context, no device memory). A GPU
// that vanishes between the count and its properties throws std::runtime_error naming the call.
GpuInventory queryGpuInventory();

// The inventory of an engine built without the CUDA toolkit.
GpuInventory inventoryWithoutCuda();

// "13.0" from 13000 (CUDA's 1000 x major + 10 x minor), "" for 0.
std::string cudaVersionText(int version);
// "2.28.9" from 22809 (NCCL_VERSION_CODE since 2.9: 10000 x major + 100 x minor + patch), "" for 0.
std::string ncclVersionText(int version);

// {"gpu_count": 2, "gpus": [{"name": ..., "memory_bytes": ..., "compute_capability": "9.0", "pci_bus_id":
// ...}],
//  "cuda_driver": "13.0", "cuda_runtime": "13.0", "nccl": "2.28.9"}; a version that is not there is null, and
// "gpu_unavailable": the reason when there is no device.
nlohmann::json toJson(const GpuInventory& inventory);

} // namespace scalebench
