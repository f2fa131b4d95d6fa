// The sessions of the store as a table: one row per session, newest last (the store's order).
#include "session_list_model.h"

#include "figure_labels.h"

#include <QColor>

namespace scalebench {

SessionListModel::SessionListModel(QObject* parent) : QAbstractTableModel(parent) {}

void SessionListModel::setSessions(std::vector<SessionRow> sessions) {
    beginResetModel();
    sessions_ = std::move(sessions);
    // A running session stores its runs as it submits them: its plan says how many there will be.
    planned_.assign(sessions_.size(), 0);
    for (std::size_t i = 0; i < sessions_.size(); ++i)
        if (sessions_[i].status == SessionStatus::Running)
            planned_[i] = static_cast<int>(sessions_[i].stored_plan.runs().size());
    endResetModel();
}

std::int64_t SessionListModel::sessionId(int row) const {
    return row >= 0 && row < rowCount() ? sessions_[static_cast<std::size_t>(row)].id : 0;
}

const SessionRow* SessionListModel::session(std::int64_t id) const {
    for (const auto& s : sessions_)
        if (s.id == id) return &s;
    return nullptr;
}

int SessionListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(sessions_.size());
}

int SessionListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const SessionRow& s = sessions_[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() == Id || index.column() == Runs ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    // A plan that no longer reads is said where the session is listed (its runs are then the stored ones
    // alone).
    if (role == Qt::ToolTipRole && !s.stored_plan.problem.empty())
        return QString::fromStdString(s.name + "\n" + s.stored_plan.problem);
    if (role == Qt::ToolTipRole && index.column() == Name) return QString::fromStdString(s.name);
    if (role == Qt::ToolTipRole && !s.finished_at.empty())
        return tr("finished %1").arg(QString::fromStdString(s.finished_at));
    if (role == Qt::ForegroundRole && index.column() == Status && s.status == SessionStatus::Failed)
        return QColor(Qt::red);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Id:
        return QVariant::fromValue<qlonglong>(s.id);
    case Name:
        return QString::fromStdString(s.name);
    case Started: // 2024-05-01T09:30:00Z -> 2024-05-01 09:30:00
        return QString::fromStdString(s.started_at)
            .replace(QLatin1Char('T'), QLatin1Char(' '))
            .remove(QLatin1Char('Z'));
    case Status:
        return storedStatusText(s.status);
    case Runs: { // "1 of 2" while running (a running session of 2 runs once said 0 or 1)
        const int planned = planned_[static_cast<std::size_t>(index.row())];
        if (planned > s.run_count) return tr("%1 of %2").arg(s.run_count).arg(planned);
        return s.run_count;
    }
    case Cluster:
        return QString::fromStdString(s.cluster);
    }
    return {};
}

QVariant SessionListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Id:
        return tr("Id");
    case Name:
        return tr("Name");
    case Started:
        return tr("Started (UTC)");
    case Status:
        return tr("Status");
    case Runs:
        return tr("Runs");
    case Cluster:
        return tr("Cluster");
    }
    return {};
}

} // namespace scalebench
