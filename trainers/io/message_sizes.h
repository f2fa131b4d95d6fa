// Message sizes of a collective sweep: np.logspace(0, max_log10, points) elements rounded to whole elements,
// each at least one more than the one before, so that `points` distinct sizes are timed (MLBench task 0:
// logspace(0, 8, 80), 80 sizes).
#pragma once

#include <cstdint>
#include <vector>

namespace scalebench {

// `points` increasing sizes from 1 to 10^max_log10 elements: numpy's logspace rounded, a repeat (where the
// logspace's steps are below one element: 1, 1, 2, 2, 3, 3 for logspace(0, 8, 80)) taken to the next whole
// size up (1, 2, 3, 4, 5, 6). Throws std::invalid_argument when the sizes would pass 10^max_log10 (more
// points than whole sizes up to it).
std::vector<std::int64_t> logspaceSizes(double max_log10, int points);

} // namespace scalebench
