// Any table model as CSV (RFC 4180): a header line, then one line per row. Models made for it give each
// column a machine name with its unit in Qt::UserRole of the header ("step_ms", "change_percent") and each
// cell's plain number (or text) in Qt::UserRole; other models' columns are written as displayed.
#pragma once

#include <QString>
#include <vector>

class QAbstractItemModel;

namespace scalebench {

// A column written before the model's, the same value on every line: what identifies the rows but is not
// in the model ("session" = "12 quickstart").
struct CsvConstant {
    QString name;
    QString value;
};

// Lines end in CRLF; a field holding a comma, a double quote, CR or LF is quoted, its quotes doubled. A
// column whose header has a Qt::UserRole name is written from its cells' Qt::UserRole (an invalid QVariant:
// an empty field, never a "0" or "-" for a figure that does not exist); any other from the displayed text.
QString modelCsv(const QAbstractItemModel& model, const std::vector<CsvConstant>& leading = {});
// UTF-8; false when the file cannot be written, `error` then says why.
bool saveModelCsv(const QAbstractItemModel& model, const QString& path, QString* error = nullptr,
                  const std::vector<CsvConstant>& leading = {});

} // namespace scalebench
