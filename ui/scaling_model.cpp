// Throughput scaling of one workload and dataset as a table for the chart to map, one row per rank count.
#include "scaling_model.h"

#include <algorithm>

namespace scalebench {

ScalingModel::ScalingModel(QObject* parent) : QAbstractTableModel(parent) {}

void ScalingModel::setPoints(std::vector<ScalingPoint> points) {
    if (!points.empty()) {
        const std::string workload = points.front().workload;
        const std::string dataset = points.front().dataset;
        std::erase_if(points,
                      [&](const ScalingPoint& p) { return p.workload != workload || p.dataset != dataset; });
        std::stable_sort(points.begin(), points.end(),
                         [](const ScalingPoint& a, const ScalingPoint& b) { return a.ranks < b.ranks; });
    }
    beginResetModel();
    points_ = std::move(points);
    endResetModel();
}

QString ScalingModel::workload() const {
    return points_.empty() ? QString() : QString::fromStdString(points_.front().workload);
}

QString ScalingModel::dataset() const {
    return points_.empty() ? QString() : QString::fromStdString(points_.front().dataset);
}

int ScalingModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(points_.size());
}

int ScalingModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ScalingModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    const ScalingPoint& p = points_[static_cast<std::size_t>(index.row())];
    const ScalingPoint& base = points_.front(); // N0, the smallest rank count
    switch (index.column()) {
    case Ranks:
        return static_cast<double>(p.ranks);
    case SamplesPerS:
        return p.throughput.mean;
    case TwoSigma:
        return p.throughput.two_sigma();
    case IdealSamplesPerS:
        return base.ranks > 0 ? base.throughput.mean * p.ranks / base.ranks : 0.0;
    case Speedup:
        return p.speedup;
    case Efficiency:
        return p.efficiency * 100;
    case SpeedupTwoSigma:
        return base.throughput.mean > 0 ? p.throughput.two_sigma() / base.throughput.mean : 0.0;
    case IdealSpeedup:
        return base.ranks > 0 ? static_cast<double>(p.ranks) / base.ranks : 0.0;
    case EfficiencyTwoSigma:
        return base.throughput.mean > 0 && p.ranks > 0
                   ? p.throughput.two_sigma() / base.throughput.mean * base.ranks / p.ranks * 100
                   : 0.0;
    }
    return {};
}

QVariant ScalingModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Ranks:
        return tr("Ranks");
    case SamplesPerS:
        return tr("Samples/s (mean)");
    case TwoSigma:
        return tr("Two sigma");
    case IdealSamplesPerS:
        return tr("Ideal samples/s");
    case Speedup:
        return tr("Speedup");
    case Efficiency:
        return tr("Efficiency (%)");
    case SpeedupTwoSigma:
        return tr("Speedup two sigma");
    case IdealSpeedup:
        return tr("Ideal speedup");
    case EfficiencyTwoSigma:
        return tr("Efficiency two sigma (%)");
    }
    return {};
}

} // namespace scalebench
