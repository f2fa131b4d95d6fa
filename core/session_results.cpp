// A stored session's runs with their figures, read back from the store for tables, charts and reports.
#include "session_results.h"

namespace scalebench {

std::vector<RunResult> loadSessionResults(const SessionStore& store, std::int64_t session_id) {
    std::vector<RunResult> results;
    for (const RunRow& run : store.runs(session_id))
        results.push_back({run.name, run.workload, run.dataset, run.ranks, run.repeat, run.status, run.error,
                           runFigures(store.steps(run.id), store.evals(run.id))});
    return results;
}

std::vector<ScalingPoint> sessionScaling(const std::vector<RunResult>& results) {
    std::vector<RunOutcome> outcomes;
    for (const auto& r : results)
        if (r.status == "ok") outcomes.push_back({r.workload, r.dataset, r.ranks, r.figures.samples_per_s});
    return throughputScaling(outcomes);
}

} // namespace scalebench
