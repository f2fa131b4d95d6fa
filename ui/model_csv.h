// Any table model as CSV (RFC 4180): a header line, then the displayed text of every cell.
#pragma once

#include <QString>

class QAbstractItemModel;

namespace scalebench {

// Lines end in CRLF; a field holding a comma, a double quote, CR or LF is quoted, its quotes doubled.
QString modelCsv(const QAbstractItemModel& model);
// UTF-8; false when the file cannot be written, `error` then says why.
bool saveModelCsv(const QAbstractItemModel& model, const QString& path, QString* error = nullptr);

} // namespace scalebench
