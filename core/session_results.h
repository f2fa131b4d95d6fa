// A stored session's runs with their figures, read back from the store for tables, charts and reports.
#pragma once

#include "results_table.h"
#include "session_store.h"

#include <vector>

namespace scalebench {

std::vector<RunResult> loadSessionResults(const SessionStore& store, std::int64_t session_id);

} // namespace scalebench
