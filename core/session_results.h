// A stored session's runs with their figures, read back from the store for tables, charts and reports.
#pragma once

#include "results_table.h"
#include "session_store.h"

#include <string>
#include <vector>

namespace scalebench {

// "requeued once after NODE_FAIL on node2 (attempt 0 stopped at step 12); ..." for a run's earlier attempts;
// "" when it ran once.
std::string requeueNote(const std::vector<AttemptRow>& attempts);
std::vector<RunResult> loadSessionResults(const SessionStore& store, std::int64_t session_id);

} // namespace scalebench
