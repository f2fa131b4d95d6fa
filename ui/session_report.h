// One stored session as a self-contained HTML page: its facts, the results table, and the window's charts as
// inline SVG (scaling, speedup, breakdown, collectives), with MLPerf scores where the runs have them, the
// performance model's projection and the buckets' check, the verdicts, slow ranks and nodes, each figure's
// change against a baseline session, and what ran (the runs' capsules).
#pragma once

#include "projection_report.h"
#include "report_inputs.h"
#include "results_table.h"
#include "run_capsule.h"
#include "stored_rows.h"

#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

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
