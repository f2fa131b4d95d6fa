// Message sizes of a collective sweep: np.logspace(0, max_log10, points) elements rounded, duplicates dropped
// (MLBench task 0 uses logspace(0, 8, 80)).
#pragma once

#include <cstdint>
#include <vector>

namespace scalebench {

std::vector<std::int64_t> logspaceSizes(double max_log10, int points);

} // namespace scalebench
