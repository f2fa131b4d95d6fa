// Per-rank step and compute times of one run as a table, the slowest rank marked (straggler view).
#include "rank_times_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace scalebench {

RankTimesModel::RankTimesModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankTimesModel::setSummary(RankTimeSummary summary) {
    beginResetModel();
    summary_ = std::move(summary);
    endResetModel();
}

void RankTimesModel::setRankTimes(const std::vector<RankTimesRecord>& records) {
    setSummary(summarizeRankTimes(records));
}

int RankTimesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(summary_.ranks.size());
}

int RankTimesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankTimesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const RankTimes& t = summary_.ranks[static_cast<std::size_t>(index.row())];
    const bool slowest = t.rank == summary_.slowest_rank;
    if (role == Qt::TextAlignmentRole)
        return index.column() == Slowest ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && slowest) {
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role == Qt::BackgroundRole && slowest) return QBrush(QColor(255, 224, 224));
    if (role == Qt::ToolTipRole && slowest)
        return tr("Largest compute time: the other ranks wait for this one");
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
    case Rank:
        return static_cast<double>(t.rank);
    case StepMs:
        return t.step_s * 1e3;
    case ComputeMs:
        return t.compute_s * 1e3;
    case WaitMs:
        return t.wait_s * 1e3;
    case Slowest:
        return slowest ? tr("slowest") : QString();
    }
    return {};
}

QVariant RankTimesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && section == WaitMs)
        return tr("Step time minus the rank's own compute: waiting for other ranks and communication");
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Rank:
        return tr("Rank");
    case StepMs:
        return tr("Step (ms, mean)");
    case ComputeMs:
        return tr("Compute (ms, mean)");
    case WaitMs:
        return tr("Wait (ms, mean)");
    case Slowest:
        return tr("Straggler");
    }
    return {};
}

} // namespace scalebench
