// The GPU inventory asked of the real CUDA runtime (this machine has the toolkit but no driver: no device,
// and CUDA's own reason), and the header's JSON form of an inventory with two devices.
#include "gpu_inventory.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("the CUDA runtime's inventory lists the devices or says why there is none", "[engine]") {
    const GpuInventory inventory = queryGpuInventory();
    const nlohmann::json header = toJson(inventory);
    CHECK(header["gpu_count"] == inventory.devices.size());
    if (inventory.cuda_runtime == 0) { // an engine built without the CUDA toolkit
        CHECK(inventory.devices.empty());
        CHECK(inventory.no_device_reason == "the engine was built without the CUDA toolkit");
        return;
    }
    CHECK(inventory.cuda_runtime >= 11000);
    if (inventory.cuda_driver == 0) { // no driver: this machine and CI
        CHECK(inventory.devices.empty());
        CHECK(inventory.no_device_reason ==
              "cudaErrorInsufficientDriver (CUDA driver version is insufficient for CUDA runtime version)");
        CHECK(header["gpu_unavailable"] == inventory.no_device_reason);
        CHECK(header["cuda_driver"].is_null());
        CHECK(header["cuda_runtime"] == cudaVersionText(inventory.cuda_runtime));
    } else if (inventory.devices.empty()) { // a driver and no device (CUDA_VISIBLE_DEVICES="", a CPU node)
        CHECK_THAT(inventory.no_device_reason, Catch::StartsWith("cudaError"));
    } else { // a GPU node
        for (const GpuDevice& device : inventory.devices) {
            INFO(device.name);
            CHECK_THAT(device.name, Catch::StartsWith("NVIDIA"));
            CHECK(device.total_memory > (std::uint64_t{1} << 30));
            CHECK(device.compute_major >= 7);
            CHECK(device.pci_bus_id.size() == 12); // "0000:18:00.0"
            CHECK(device.pci_bus_id[4] == ':');
        }
        CHECK_FALSE(header.contains("gpu_unavailable"));
    }
}

TEST_CASE("the header's JSON of an inventory with two devices has every field", "[engine]") {
    GpuInventory inventory;
    inventory.devices = {{"NVIDIA H100 80GB HBM3", 85'029'158'912, 9, 0, "0000:18:00.0"},
                         {"NVIDIA H100 80GB HBM3", 85'029'158'912, 9, 0, "0000:2A:00.0"}};
    inventory.cuda_driver = 13000;
    inventory.cuda_runtime = 12080;
    inventory.nccl = 22809;
    const nlohmann::json expected = nlohmann::json::parse(R"({
        "gpu_count": 2,
        "gpus": [
            {"name": "NVIDIA H100 80GB HBM3", "memory_bytes": 85029158912, "compute_capability": "9.0",
             "pci_bus_id": "0000:18:00.0"},
            {"name": "NVIDIA H100 80GB HBM3", "memory_bytes": 85029158912, "compute_capability": "9.0",
             "pci_bus_id": "0000:2A:00.0"}
        ],
        "cuda_driver": "13.0",
        "cuda_runtime": "12.8",
        "nccl": "2.28.9"
    })");
    CHECK(toJson(inventory) == expected);
}

TEST_CASE("an engine without CUDA reports no GPU, its reason, and null versions", "[engine]") {
    const nlohmann::json header = toJson(inventoryWithoutCuda());
    CHECK(header["gpu_count"] == 0);
    CHECK(header["gpus"] == nlohmann::json::array());
    CHECK(header["gpu_unavailable"] == "the engine was built without the CUDA toolkit");
    CHECK(header["cuda_driver"].is_null());
    CHECK(header["cuda_runtime"].is_null());
    CHECK(header["nccl"].is_null());
}

TEST_CASE("CUDA and NCCL version numbers read as their releases", "[engine]") {
    CHECK(cudaVersionText(13000) == "13.0");
    CHECK(cudaVersionText(12080) == "12.8");
    CHECK(cudaVersionText(11040) == "11.4");
    CHECK(cudaVersionText(0) == "");
    CHECK(ncclVersionText(22809) == "2.28.9");
    CHECK(ncclVersionText(21803) == "2.18.3");
    CHECK(ncclVersionText(0) == "");
}
