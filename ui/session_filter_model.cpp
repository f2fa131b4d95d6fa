// Session search: keeps the sessions of a SessionListModel whose name, cluster, status or start date contain
// every word of the search text (case-insensitive).
#include "session_filter_model.h"

#include "session_list_model.h"

namespace scalebench {

SessionFilterModel::SessionFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {}

void SessionFilterModel::setSearchText(const QString& text) {
    const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words == words_) return;
    words_ = words;
    invalidateRowsFilter();
}

bool SessionFilterModel::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
    if (words_.isEmpty()) return true;
    const QAbstractItemModel* source = sourceModel();
    QStringList fields;
    for (int column : {SessionListModel::Name, SessionListModel::Cluster, SessionListModel::Status,
                       SessionListModel::Started})
        fields.append(source->index(source_row, column, source_parent).data().toString());
    for (const QString& word : words_) {
        bool found = false;
        for (const QString& field : fields)
            found = found || field.contains(word, Qt::CaseInsensitive);
        if (!found) return false;
    }
    return true;
}

} // namespace scalebench
