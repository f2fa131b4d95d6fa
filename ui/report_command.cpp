// The report command: a stored session, its baseline and projection, written as one HTML page
// (report_command.h).
#include "report_command.h"

#include "baseline_session.h"
#include "run_capsule.h"
#include "session_projection.h"
#include "session_report.h"
#include "session_results.h"
#include "session_store.h"

#include <optional>
#include <stdexcept>

namespace scalebench {

int reportSession(const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    try {
        if (!std::filesystem::exists(options.db))
            throw std::runtime_error("no session store " + options.db.string());
        const SessionStore store(options.db);
        const std::optional<SessionRow> session = namedSession(store, options.report_session);
        const auto convention = options.step_time == "last-step" ? StepTimeConvention::LastStep
                                                                 : StepTimeConvention::SteadyStateMedian;
        const std::vector<RunResult> results = loadSessionResults(store, session->id, convention);
        std::optional<ReportBaseline> baseline;
        if (!options.baseline.empty()) {
            baseline = ReportBaseline{options.baseline, baselineSession(store, options.baseline, *session)};
            if (baseline->session)
                baseline->results = loadSessionResults(store, baseline->session->id, convention);
        }
        ReportProjection projection;
        try {
            projection.series = sessionModelInputs(store, *session);
        } catch (const std::exception& e) { // the page says why, the rest of it still stands
            projection.error = e.what();
        }
        QString error;
        if (!writeSessionReport(*session, results, QString::fromStdString(options.report_file.string()),
                                &error, baseline, loadCapsules(store, *session), projection))
            throw std::runtime_error(error.toStdString());
        out << "report of session " << session->id << " (" << session->name << ", " << results.size()
            << " runs";
        if (baseline && baseline->session)
            out << ", against session " << baseline->session->id << " (" << baseline->session->name << ")";
        else if (baseline)
            out << "; no baseline: 'last' found no earlier session of the plan that ended ok";
        out << "): " << options.report_file.string() << "\n";
        return 0;
    } catch (const std::exception& e) {
        err << "scalebench: " << e.what() << "\n";
        return 2;
    }
}

} // namespace scalebench
