// queryGpuInventory in an engine built without the CUDA toolkit: no GPU, and why.
#include "gpu_inventory.h"

namespace scalebench {

GpuInventory queryGpuInventory() {
    return inventoryWithoutCuda();
}

} // namespace scalebench
