// The file name an export dialog suggests: what was exported, from which tab, on which day.
#pragma once

#include <QDate>
#include <QString>

namespace scalebench {

// "session-12-compare-2026-11-26.csv": `source` ("session-12", "session-11-vs-12"), `what` (the tab or
// "report"), the date as ISO 8601 and the suffix without its dot. Characters a file name should not hold
// (anything but letters, digits, '.', '_' and '-') become '-'.
QString exportFileName(const QString& source, const QString& what, const QDate& date, const QString& suffix);

} // namespace scalebench
