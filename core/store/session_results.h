// A stored session's runs with their figures, read back from the store for tables, charts and reports.
#pragma once

#include "results_table.h"
#include "run_plan.h"
#include "stored_rows.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

class SessionStore;

// "requeued once after NODE_FAIL on node2 (attempt 0 stopped at step 12); ..." for a run's earlier attempts;
// "" when it ran once.
std::string requeueNote(const std::vector<AttemptRow>& attempts);
// Seconds from one time the store wrote (UTC, "2026-11-26T14:45:32Z") to another; none where either is
// missing or unreadable, or the end comes before the start.
std::optional<double> storedSeconds(const std::string& start, const std::string& end);

// Every run of the session with its figures (under `convention`), its series (its plan group's settings, from
// the plan stored with the session) and its target's outcome (from its summary record).
std::vector<RunResult>
loadSessionResults(const SessionStore& store, std::int64_t session_id,
                   StepTimeConvention convention = StepTimeConvention::SteadyStateMedian);

// The settings of a run's plan group that decide what it measures (SeriesKey::settings): every engine option
// the console passes for it but its workload, data set, seed and files, plus its GPUs per node and
// environment.
std::map<std::string, std::string> seriesSettings(const RunSpec& run);

} // namespace scalebench
