// Any table model as CSV (RFC 4180): a header line, then the displayed text of every cell.
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

QString modelCsv(const QAbstractItemModel& model) {
    const int columns = model.columnCount();
    QString csv;
    auto line = [&](auto text_of) {
        for (int column = 0; column < columns; ++column) {
            if (column > 0) csv += QLatin1Char(',');
            csv += csvField(text_of(column));
        }
        csv += QLatin1String("\r\n");
    };
    line([&](int column) { return model.headerData(column, Qt::Horizontal).toString(); });
    for (int row = 0; row < model.rowCount(); ++row)
        line([&](int column) { return model.index(row, column).data().toString(); });
    return csv;
}

bool saveModelCsv(const QAbstractItemModel& model, const QString& path, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) *error = file.errorString();
        return false;
    }
    file.write(modelCsv(model).toUtf8());
    if (!file.commit()) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace scalebench
