// The step breakdown of one series as a table, one row per rank count: each part in ms, means over repeats.
#include "breakdown_model.h"

#include <algorithm>

namespace scalebench {

BreakdownModel::BreakdownModel(QObject* parent) : QAbstractTableModel(parent) {}

void BreakdownModel::setBreakdowns(std::vector<RanksBreakdown> rows, const QString& workload) {
    if (!rows.empty()) {
        auto first = rows.begin();
        if (!workload.isEmpty())
            first = std::find_if(rows.begin(), rows.end(), [&](const RanksBreakdown& r) {
                return r.workload == workload.toStdString();
            });
        if (first == rows.end()) {
            rows.clear();
        } else {
            const SeriesKey chosen = first->series;
            std::erase_if(rows, [&](const RanksBreakdown& r) { return r.series != chosen; });
            std::stable_sort(rows.begin(), rows.end(), [](const RanksBreakdown& a, const RanksBreakdown& b) {
                return a.ranks < b.ranks;
            });
        }
    }
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

void BreakdownModel::setResults(const std::vector<RunResult>& results, const QString& workload) {
    setBreakdowns(breakdownByRanks(results), workload);
}

QString BreakdownModel::workload() const {
    return rows_.empty() ? QString() : QString::fromStdString(rows_.front().workload);
}

QString BreakdownModel::dataset() const {
    return rows_.empty() ? QString() : QString::fromStdString(rows_.front().dataset);
}

QString BreakdownModel::seriesLabel() const {
    if (rows_.empty()) return {};
    const RanksBreakdown& r = rows_.front();
    return QString::fromStdString(r.label.empty() ? r.workload + " " + r.dataset : r.label);
}

int BreakdownModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int BreakdownModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BreakdownModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) return headerData(index.column(), Qt::Horizontal, Qt::ToolTipRole);
    if (role == Qt::UserRole) return data(index, Qt::DisplayRole); // plain numbers already
    if (role != Qt::DisplayRole) return {};
    const RanksBreakdown& r = rows_[static_cast<std::size_t>(index.row())];
    const StepBreakdown& b = r.mean;
    switch (index.column()) {
    case Ranks:
        return static_cast<double>(r.ranks);
    case DataMs:
        return b.data_s * 1e3;
    case ForwardMs:
        return b.forward_s * 1e3;
    case BackwardMs:
        return b.backward_s * 1e3;
    case OptimizerMs:
        return b.optimizer_s * 1e3;
    case ExposedCommMs:
        return b.allreduce_s * 1e3;
    case HiddenCommMs:
        return b.comm_hidden_s * 1e3;
    case StepMs:
        return b.step_s * 1e3;
    case Repeats:
        return static_cast<double>(r.repeats);
    case CommunicationShare:
        return r.communication_share * 100;
    case ComputeOnlySpeedup:
        return r.compute_only_speedup;
    }
    return {};
}

QVariant BreakdownModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case ExposedCommMs:
            return tr("Gradient all-reduce the step waited for after backward (part of the step time)");
        case HiddenCommMs:
            return tr("Communication overlapped with backward (not part of the step time)");
        case StepMs:
            return tr("Mean step time over the steady-state steps, mean over repeats");
        case CommunicationShare:
            return tr("The share of the step spent waiting for communication: exposed communication / step "
                      "time (MLBench's ratio of communication to total time)");
        case ComputeOnlySpeedup:
            return tr("Speedup if communication took no time: global batch / (step - exposed "
                      "communication) against the smallest rank count (MLBench's compute speedup)");
        }
        return {};
    }
    if (role == Qt::UserRole) { // the CSV's column names, with their units
        static const char* const kCsvNames[ColumnCount] = {"ranks",
                                                           "data_ms",
                                                           "forward_ms",
                                                           "backward_ms",
                                                           "optimizer_ms",
                                                           "exposed_communication_ms",
                                                           "hidden_communication_ms",
                                                           "step_ms",
                                                           "repeats",
                                                           "communication_share_percent",
                                                           "compute_only_speedup"};
        return section >= 0 && section < ColumnCount ? QString::fromLatin1(kCsvNames[section]) : QVariant();
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Ranks:
        return tr("Ranks");
    case DataMs:
        return tr("Data loading (ms)");
    case ForwardMs:
        return tr("Forward (ms)");
    case BackwardMs:
        return tr("Backward (ms)");
    case OptimizerMs:
        return tr("Optimizer (ms)");
    case ExposedCommMs:
        return tr("Exposed communication (ms)");
    case HiddenCommMs:
        return tr("Hidden communication (ms)");
    case StepMs:
        return tr("Step time (ms)");
    case Repeats:
        return tr("Repeats");
    case CommunicationShare:
        return tr("Communication share (%)");
    case ComputeOnlySpeedup:
        return tr("Compute-only speedup");
    }
    return {};
}

} // namespace scalebench
