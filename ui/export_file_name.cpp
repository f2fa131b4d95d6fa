// The file name an export dialog suggests: what was exported, from which tab, on which day.
#include "export_file_name.h"

namespace scalebench {

QString exportFileName(const QString& source, const QString& what, const QDate& date, const QString& suffix) {
    QString name = QStringLiteral("%1-%2-%3").arg(source, what, date.toString(Qt::ISODate));
    for (QChar& c : name)
        if (!c.isLetterOrNumber() && c != QLatin1Char('.') && c != QLatin1Char('_') && c != QLatin1Char('-'))
            c = QLatin1Char('-');
    return name + QLatin1Char('.') + suffix;
}

} // namespace scalebench
