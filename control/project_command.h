// project SESSION: each training series of a stored session predicted at other rank counts (the performance
// model, docs/performance-model.md), as a table for the terminal.
#pragma once

#include "console_options.h"

#include <ostream>

namespace scalebench {

// Prints, per series, its inputs (measured rank counts, the sweep's sizes and rank counts, buckets) and
// formatProjection at options.project_ranks. 0; 2 naming the problem (no store, no such session, no training
// series, a series without a sweep: every series is still tried, the others printed).
int projectSession(const ConsoleOptions& options, std::ostream& out, std::ostream& err);

} // namespace scalebench
