// The report's inputs read from the store (report_inputs.h).
#include "report_inputs.h"

#include "baseline_session.h"
#include "session_results.h"
#include "session_store.h"

#include <stdexcept>

namespace scalebench {

ReportInputs readReportInputs(const std::filesystem::path& db, const std::string& session_name,
                              const std::string& baseline, StepTimeConvention convention) {
    if (!std::filesystem::exists(db)) throw std::runtime_error("no session store " + db.string());
    const SessionStore store(db);
    ReportInputs in{namedSession(store, session_name), {}, {}, {}, {}};
    in.results = loadSessionResults(store, in.session.id, convention);
    if (!baseline.empty()) {
        in.baseline = ReportBaseline{baseline, baselineSession(store, baseline, in.session)};
        if (in.baseline->session)
            in.baseline->results = loadSessionResults(store, in.baseline->session->id, convention);
    }
    try {
        in.projection.series = sessionModelInputs(store, in.session);
    } catch (const std::exception& e) { // the page says why, the rest of it still stands
        in.projection.error = e.what();
    }
    in.capsules = loadCapsules(store, in.session);
    return in;
}

} // namespace scalebench
