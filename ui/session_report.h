// One stored session as a self-contained HTML page: its facts, the results table, and the window's charts as
// inline SVG (scaling, speedup, breakdown, collectives), with MLPerf scores where the runs have them, the
// performance model's projection and the buckets' check, the verdicts, slow ranks and nodes, each figure's
// change against a baseline session, and what ran (the runs' capsules).
#pragma once

#include "projection_report.h"
#include "results_table.h"
#include "run_capsule.h"
#include "session_store.h"

#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// The session the report judges each figure against (report --baseline): none where `asked` ("last") found
// none, and the page says so.
struct ReportBaseline {
    std::string asked; // as the user named it: an id, a name, "last"
    std::optional<SessionRow> session{};
    std::vector<RunResult> results{};
};

// The page: no script, no stylesheet or image of its own outside it, no network reference; every text from
// the store HTML-escaped. The charts need a QApplication (QT_QPA_PLATFORM=offscreen is enough); without one
// the page says that they are missing. With a baseline, a section "Regressions against" it:
// regressionVerdicts with the threshold of the session's plan. With capsules, a section "What ran": what
// every run shares once, then each run's own (sessionCapsule). With model inputs (or why there are none), a
// section "Projection" (projectionSection).
QString sessionReportHtml(const SessionRow& session, const std::vector<RunResult>& results,
                          const std::optional<ReportBaseline>& baseline = std::nullopt,
                          const std::vector<RunCapsule>& capsules = {},
                          const ReportProjection& projection = {});
// Writes sessionReportHtml to `path` (UTF-8); false with `error` saying why when it cannot.
bool writeSessionReport(const SessionRow& session, const std::vector<RunResult>& results, const QString& path,
                        QString* error = nullptr,
                        const std::optional<ReportBaseline>& baseline = std::nullopt,
                        const std::vector<RunCapsule>& capsules = {},
                        const ReportProjection& projection = {});

} // namespace scalebench
