// A stored session's runs with their figures, read back from the store for tables, charts and reports.
#include "session_results.h"

namespace scalebench {

std::vector<RunResult> loadSessionResults(const SessionStore& store, std::int64_t session_id) {
    std::vector<RunResult> results;
    for (const RunRow& run : store.runs(session_id))
        results.push_back({run.name, run.workload, run.dataset, run.ranks, run.repeat, run.status, run.error,
                           runFigures(store.steps(run.id), store.evals(run.id)), store.collectives(run.id)});
    return results;
}

} // namespace scalebench
