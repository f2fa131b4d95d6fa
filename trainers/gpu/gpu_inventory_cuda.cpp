// queryGpuInventory through the CUDA runtime (and NCCL's version where the engine has NCCL).
#include "device_check.h"
#include "gpu_inventory.h"

#include <cuda_runtime.h>
#ifdef SCALEBENCH_GPU_HAVE_NCCL
#include <nccl.h>
#endif

namespace scalebench {

GpuInventory queryGpuInventory() {
    GpuInventory inventory;
    // The versions need no device (the driver's is 0 without a driver); one that cannot be read stays 0 (null
    // in the header) rather than failing the run over a description.
    if (cudaDriverGetVersion(&inventory.cuda_driver) != cudaSuccess) inventory.cuda_driver = 0;
    if (cudaRuntimeGetVersion(&inventory.cuda_runtime) != cudaSuccess) inventory.cuda_runtime = 0;
#ifdef SCALEBENCH_GPU_HAVE_NCCL
    if (ncclGetVersion(&inventory.nccl) != ncclSuccess) inventory.nccl = 0;
#endif
    int count = 0;
    if (const cudaError_t code = cudaGetDeviceCount(&count); code != cudaSuccess) {
        // No driver, no device, CUDA_VISIBLE_DEVICES naming none: the reason, and the sticky error cleared.
        inventory.no_device_reason = cudaErrorText(code);
        cudaGetLastError();
        return inventory;
    }
    if (count == 0) inventory.no_device_reason = "cudaGetDeviceCount found no device";
    for (int device = 0; device < count; ++device) {
        cudaDeviceProp properties{};
        CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
        char bus_id[32] = {}; // "dddd:bb:dd.f" with the NUL: 13 characters
        CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, device));
        inventory.devices.push_back({properties.name, static_cast<std::uint64_t>(properties.totalGlobalMem),
                                     properties.major, properties.minor, bus_id});
    }
    return inventory;
}

} // namespace scalebench
