// nccl-tests' bus bandwidth factor of each collective.
#include "bus_bandwidth.h"

#include <stdexcept>

namespace scalebench {

double busBandwidthFactor(const std::string& collective, int ranks) {
    if (ranks < 1)
        throw std::invalid_argument("no bus bandwidth factor for " + std::to_string(ranks) + " ranks");
    const double n = ranks;
    if (collective == "allreduce") return 2 * (n - 1) / n;
    if (collective == "allgather" || collective == "reducescatter" || collective == "alltoall")
        return (n - 1) / n;
    if (collective == "broadcast" || collective == "reduce") return 1;
    throw std::invalid_argument("no bus bandwidth factor for collective '" + collective + "'");
}

} // namespace scalebench
