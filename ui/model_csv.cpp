// Any table model as CSV (RFC 4180): a header line, then one line per row, plain numbers where the model
// gives them (Qt::UserRole).
#include "model_csv.h"

#include <QAbstractItemModel>
#include <QSaveFile>

namespace scalebench {

namespace {

QString csvField(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) &&
        !text.contains(QLatin1Char('\r')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

QString modelCsv(const QAbstractItemModel& model, const std::vector<CsvConstant>& leading) {
    const int columns = model.columnCount();
    QString csv;
    auto line = [&](auto constant, auto text_of) {
        bool first = true;
        for (const CsvConstant& c : leading) {
            csv += (first ? QString() : QStringLiteral(",")) + csvField(constant(c));
            first = false;
        }
        for (int column = 0; column < columns; ++column) {
            if (!first) csv += QLatin1Char(',');
            first = false;
            csv += csvField(text_of(column));
        }
        csv += QLatin1String("\r\n");
    };
    std::vector<bool> raw; // the column's cells from Qt::UserRole
    for (int column = 0; column < columns; ++column)
        raw.push_back(model.headerData(column, Qt::Horizontal, Qt::UserRole).isValid());
    line([](const CsvConstant& c) { return c.name; },
         [&](int column) {
             return model
                 .headerData(column, Qt::Horizontal,
                             raw[static_cast<std::size_t>(column)] ? Qt::UserRole : Qt::DisplayRole)
                 .toString();
         });
    for (int row = 0; row < model.rowCount(); ++row)
        line([](const CsvConstant& c) { return c.value; },
             [&](int column) {
                 const QModelIndex index = model.index(row, column);
                 if (!raw[static_cast<std::size_t>(column)]) return index.data().toString();
                 const QVariant value = index.data(Qt::UserRole);
                 return value.isValid() ? value.toString() : QString();
             });
    return csv;
}

bool saveModelCsv(const QAbstractItemModel& model, const QString& path, QString* error,
                  const std::vector<CsvConstant>& leading) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) *error = file.errorString();
        return false;
    }
    file.write(modelCsv(model, leading).toUtf8());
    if (!file.commit()) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace scalebench
