// A stored session's runs with their figures, read back from the store for tables, charts and reports.
#include "session_results.h"

namespace scalebench {

std::string requeueNote(const std::vector<AttemptRow>& attempts) {
    if (attempts.empty()) return "";
    const std::size_t n = attempts.size();
    std::string note = "requeued " +
                       std::string(n == 1   ? "once"
                                   : n == 2 ? "twice"
                                            : std::to_string(n) + " times") +
                       " after ";
    for (std::size_t i = 0; i < n; ++i)
        note += (i == 0       ? ""
                 : i + 1 == n ? " and "
                              : ", ") +
                attempts[i].ended + " (attempt " + std::to_string(attempts[i].attempt) + " stopped at step " +
                std::to_string(attempts[i].last_step) + ")";
    return note + "; the figures are the last attempt's";
}

std::vector<RunResult> loadSessionResults(const SessionStore& store, std::int64_t session_id) {
    std::vector<RunResult> results;
    for (const RunRow& run : store.runs(session_id))
        results.push_back({run.name, run.workload, run.dataset, run.ranks, run.repeat, run.status, run.error,
                           runFigures(store.steps(run.id), store.evals(run.id)), store.collectives(run.id),
                           requeueNote(store.attempts(run.id))});
    return results;
}

} // namespace scalebench
