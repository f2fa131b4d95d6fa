// One CUDA device per rank, chosen from the launcher's environment.
#include "device_placement.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace scalebench {
namespace {

// The entries of a CUDA_VISIBLE_DEVICES value ("0,1", "GPU-5f3c...", "MIG-..."), counted the way CUDA reads
// the list: separated by commas, empty entries not counted.
int countListedDevices(const std::string& list) {
    int count = 0;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (list.find_first_not_of(' ', start) < comma) ++count;
        start = comma + 1;
    }
    return count;
}

std::string describeVisibleDevices(const std::optional<std::string>& value) {
    return value ? "CUDA_VISIBLE_DEVICES=" + *value : "CUDA_VISIBLE_DEVICES unset";
}

} // namespace

EnvironmentLookup processEnvironment() {
    return [](const std::string& name) -> std::optional<std::string> {
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
    };
}

DevicePlacement placeOnDevice(const EnvironmentLookup& environment, int visible_devices, int rank,
                              int mpi_local_rank) {
    const std::optional<std::string> visible = environment("CUDA_VISIBLE_DEVICES");
    const std::string devices_seen =
        std::to_string(visible_devices) + " CUDA device(s) (" + describeVisibleDevices(visible) + ")";
    if (visible && countListedDevices(*visible) == 1) {
        if (visible_devices < 1)
            throw std::runtime_error("rank " + std::to_string(rank) + " is bound to one GPU by " +
                                     describeVisibleDevices(visible) + " but sees " + devices_seen);
        return {0, "CUDA_VISIBLE_DEVICES=" + *visible};
    }

    int local_rank = mpi_local_rank;
    std::string source = "MPI local rank " + std::to_string(mpi_local_rank);
    for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"}) {
        const std::optional<std::string> value = environment(name);
        if (!value) continue;
        const char* end = value->data() + value->size();
        const auto [last, error] = std::from_chars(value->data(), end, local_rank);
        if (error != std::errc() || last != end || value->empty() || local_rank < 0)
            throw std::runtime_error("rank " + std::to_string(rank) + ": " + name + "='" + *value +
                                     "' is not a node-local rank (a number >= 0)");
        source = std::string(name) + "=" + *value;
        break;
    }
    if (local_rank < 0 || local_rank >= visible_devices)
        throw std::runtime_error(
            "rank " + std::to_string(rank) + " has local rank " + std::to_string(local_rank) + " (from " +
            source + ") but its node shows it " + devices_seen + ": one rank per GPU, so at most " +
            std::to_string(visible_devices) +
            " ranks a node (two ranks on one GPU would measure something else, and NCCL refuses it)");
    return {local_rank, source};
}

} // namespace scalebench
