// One stored session as a self-contained HTML page: its facts, the results table, and the window's charts as
// inline SVG (scaling, speedup, breakdown, collectives), with MLPerf scores where the runs have them.
#pragma once

#include "results_table.h"
#include "session_store.h"

#include <QString>
#include <vector>

namespace scalebench {

// The page: no script, no stylesheet or image of its own outside it, no network reference; every text from
// the store HTML-escaped. The charts need a QApplication (QT_QPA_PLATFORM=offscreen is enough); without one
// the page says that they are missing.
QString sessionReportHtml(const SessionRow& session, const std::vector<RunResult>& results);
// Writes sessionReportHtml to `path` (UTF-8); false with `error` saying why when it cannot.
bool writeSessionReport(const SessionRow& session, const std::vector<RunResult>& results, const QString& path,
                        QString* error = nullptr);

} // namespace scalebench
