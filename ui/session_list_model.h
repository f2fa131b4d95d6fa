// The sessions of the store as a table: one row per session, newest last (the store's order).
#pragma once

#include "stored_rows.h"

#include <QAbstractTableModel>
#include <cstdint>
#include <vector>

namespace scalebench {

class SessionListModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Id, Name, Started, Status, Runs, Cluster, ColumnCount };

    explicit SessionListModel(QObject* parent = nullptr);

    // Replaces every row in one reset.
    void setSessions(std::vector<SessionRow> sessions);
    std::int64_t sessionId(int row) const;
    // The listed session with this id, as last read from the store; nullptr when it is not listed.
    const SessionRow* session(std::int64_t id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<SessionRow> sessions_;
    std::vector<int> planned_; // per session: the runs its plan expands to while it runs (0: not running)
};

} // namespace scalebench
