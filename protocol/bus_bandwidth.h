// nccl-tests' bus bandwidth factor of each collective: the engine's sweep writes busbw with it, and every
// reader of collective timings in the console (OSU's output, the performance model) computes busbw with it.
#pragma once

#include <stdexcept>
#include <string>

namespace scalebench {

// busbw = algbw x factor, as nccl-tests defines it (its doc/PERFORMANCE.md and each test's GetBw): all-reduce
// 2(n-1)/n; all-gather, reduce-scatter and all-to-all (n-1)/n; broadcast and reduce 1. At 1 rank the formula
// gives 0 for all but broadcast and reduce. Throws std::invalid_argument for another collective name or fewer
// than 1 rank.
inline double busBandwidthFactor(const std::string& collective, int ranks) {
    if (ranks < 1)
        throw std::invalid_argument("no bus bandwidth factor for " + std::to_string(ranks) + " ranks");
    const double n = ranks;
    if (collective == "allreduce") return 2 * (n - 1) / n;
    if (collective == "allgather" || collective == "reducescatter" || collective == "alltoall")
        return (n - 1) / n;
    if (collective == "broadcast" || collective == "reduce") return 1;
    throw std::invalid_argument("no bus bandwidth factor for collective '" + collective + "'");
}

// The factor as nccl-tests writes it: "2(n-1)/n" for all-reduce, "(n-1)/n", "1"; "" for a collective it has
// none for (send/receive pairs print their own busbw).
inline std::string busBandwidthFormula(const std::string& collective) {
    if (collective == "allreduce") return "2(n-1)/n";
    if (collective == "allgather" || collective == "reducescatter" || collective == "alltoall")
        return "(n-1)/n";
    if (collective == "broadcast" || collective == "reduce") return "1";
    return "";
}

} // namespace scalebench
