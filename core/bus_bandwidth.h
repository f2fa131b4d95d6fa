// nccl-tests' bus bandwidth factor of each collective, shared by every reader of collective timings.
#pragma once

#include <string>

namespace scalebench {

// busbw = algbw x factor, as nccl-tests defines it (its doc/PERFORMANCE.md and each test's GetBw): all-reduce
// 2(n-1)/n; all-gather, reduce-scatter and all-to-all (n-1)/n; broadcast and reduce 1. At 1 rank the formula
// gives 0 for all but broadcast and reduce. Throws std::invalid_argument for another collective name or fewer
// than 1 rank.
double busBandwidthFactor(const std::string& collective, int ranks);

} // namespace scalebench
