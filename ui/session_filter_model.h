// Session search: keeps the sessions of a SessionListModel whose name, cluster, status or start date contain
// every word of the search text (case-insensitive).
#pragma once

#include <QSortFilterProxyModel>
#include <QStringList>

namespace scalebench {

class SessionFilterModel : public QSortFilterProxyModel {
    Q_OBJECT

  public:
    explicit SessionFilterModel(QObject* parent = nullptr);

    // "jean-zay 2024-05 failed" keeps sessions matching all three words; empty text keeps every session.
    void setSearchText(const QString& text);
    QString searchText() const { return words_.join(QLatin1Char(' ')); }

  protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

  private:
    QStringList words_;
};

} // namespace scalebench
