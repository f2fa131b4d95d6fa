// Scaling of one series (workload, dataset and settings) as a table for the chart to map, one row per rank
// count.
#include "scaling_model.h"

#include <QColor>
#include <algorithm>

namespace scalebench {

namespace {

// The columns that count (ranks, repeats, repeats at the target): whole numbers in the CSV.
bool countsColumn(int column) {
    return column == ScalingModel::Ranks || column == ScalingModel::Repeats ||
           column == ScalingModel::TargetReached;
}

// A two sigma of fewer than two values: none in the CSV (one repeat has no spread, not a spread of 0).
bool lacksSpread(const ScalingPoint& point, int column) {
    switch (column) {
    case ScalingModel::TwoSigma:
    case ScalingModel::SpeedupTwoSigma:
    case ScalingModel::EfficiencyTwoSigma:
        return point.repeats < 2;
    case ScalingModel::TimeToTargetTwoSigma:
        return point.reached < 2;
    case ScalingModel::TimeToTargetSpeedupTwoSigma:
        return !point.time_to_target_speedup || point.time_to_target_speedup->count < 2;
    default:
        return false;
    }
}

// The throughput, speedup, efficiency and rank columns of a point with cautions (efficiency above 100 %,
// ranks sharing cores, ...): the reasons as the tooltip, in amber; none for other roles and columns.
QVariant cautionData(const ScalingPoint& p, int column, int role) {
    const bool questioned = column == ScalingModel::SamplesPerS || column == ScalingModel::Speedup ||
                            column == ScalingModel::Efficiency || column == ScalingModel::Ranks;
    if (!questioned || p.cautions.empty()) return {};
    QStringList reasons;
    for (const std::string& reason : p.cautions)
        reasons << QString::fromStdString(reason);
    if (role == Qt::ToolTipRole) return reasons.join(QLatin1Char('\n'));
    if (role == Qt::ForegroundRole) return QColor(0xb3, 0x5c, 0x00);
    return {};
}

// The time-to-target columns (MLPerf's own for MLPerf runs) and the MLPerf score. Empty where no repeat
// reached the target (a chart reads it as 0 and draws no point).
QVariant targetFigure(const ScalingPoint& p, int column) {
    switch (column) {
    case ScalingModel::TargetReached:
        return static_cast<double>(p.mlperf ? p.mlperf->converged : p.reached);
    case ScalingModel::TimeToTarget:
        if (p.mlperf) return p.mlperf->score_min ? QVariant(*p.mlperf->score_min * 60) : QVariant();
        return p.reached ? QVariant(p.time_to_target.mean) : QVariant();
    case ScalingModel::TimeToTargetTwoSigma:
        return p.reached && !p.mlperf ? QVariant(p.time_to_target.two_sigma()) : QVariant();
    case ScalingModel::TimeToTargetSpeedup:
        if (p.mlperf) return p.mlperf_speedup ? QVariant(*p.mlperf_speedup) : QVariant();
        return p.time_to_target_speedup ? QVariant(p.time_to_target_speedup->mean) : QVariant();
    case ScalingModel::TimeToTargetSpeedupTwoSigma:
        return p.time_to_target_speedup && !p.mlperf ? QVariant(p.time_to_target_speedup->two_sigma())
                                                     : QVariant();
    case ScalingModel::MlperfScore:
        if (!p.mlperf) return {};
        return p.mlperf->score_min ? ScalingModel::tr("%1 min: %2")
                                         .arg(*p.mlperf->score_min, 0, 'f', 2)
                                         .arg(QString::fromStdString(p.mlperf->verdict))
                                   : QString::fromStdString(p.mlperf->verdict);
    }
    return {};
}

// The columns read from the runs' throughput: empty for a point that measured none (an MLPerf run, scored
// by its time to train), never 0.
bool fromThroughput(int column) {
    switch (column) {
    case ScalingModel::SamplesPerS:
    case ScalingModel::TwoSigma:
    case ScalingModel::IdealSamplesPerS:
    case ScalingModel::Speedup:
    case ScalingModel::Efficiency:
    case ScalingModel::SpeedupTwoSigma:
    case ScalingModel::IdealSpeedup:
    case ScalingModel::EfficiencyTwoSigma:
    case ScalingModel::ComputeOnlySpeedup:
    case ScalingModel::CommunicationShare:
        return true;
    default:
        return false;
    }
}

// A point's figure in `column` as Qt::DisplayRole shows it, `base` the point at N0.
QVariant figure(const ScalingPoint& p, const ScalingPoint& base, int column) {
    if (fromThroughput(column) && p.throughput.mean <= 0) return {};
    switch (column) {
    case ScalingModel::Repeats:
        return static_cast<double>(p.repeats);
    case ScalingModel::Ranks:
        return static_cast<double>(p.ranks);
    case ScalingModel::SamplesPerS:
        return p.throughput.mean;
    case ScalingModel::TwoSigma:
        return p.throughput.two_sigma();
    case ScalingModel::IdealSamplesPerS:
        return base.ranks > 0 ? base.throughput.mean * p.ranks / base.ranks : 0.0;
    case ScalingModel::Speedup:
        return p.speedup;
    case ScalingModel::Efficiency:
        return p.efficiency * 100;
    case ScalingModel::SpeedupTwoSigma:
        return base.throughput.mean > 0 ? p.throughput.two_sigma() / base.throughput.mean : 0.0;
    case ScalingModel::IdealSpeedup:
        return base.ranks > 0 ? static_cast<double>(p.ranks) / base.ranks : 0.0;
    case ScalingModel::EfficiencyTwoSigma:
        return base.throughput.mean > 0 && p.ranks > 0
                   ? p.throughput.two_sigma() / base.throughput.mean * base.ranks / p.ranks * 100
                   : 0.0;
    case ScalingModel::ComputeOnlySpeedup:
        return p.compute_only_speedup;
    case ScalingModel::CommunicationShare:
        return p.communication_share * 100;
    default:
        return targetFigure(p, column);
    }
}

} // namespace

ScalingModel::ScalingModel(QObject* parent) : QAbstractTableModel(parent) {}

void ScalingModel::setPoints(std::vector<ScalingPoint> points, const std::string& series) {
    if (!points.empty()) {
        const auto chosen = std::find_if(points.begin(), points.end(),
                                         [&](const ScalingPoint& p) { return p.label == series; });
        const SeriesKey key = chosen != points.end() ? chosen->series : points.front().series;
        std::erase_if(points, [&](const ScalingPoint& p) { return p.series != key; });
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

QString ScalingModel::seriesLabel() const {
    if (points_.empty()) return {};
    const ScalingPoint& p = points_.front();
    return QString::fromStdString(p.label.empty() ? p.workload + " " + p.dataset : p.label);
}

int ScalingModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(points_.size());
}

int ScalingModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ScalingModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == MlperfScore ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                             : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    const ScalingPoint& p = points_[static_cast<std::size_t>(index.row())];
    if (role == Qt::UserRole) {
        if (countsColumn(index.column())) return data(index, Qt::DisplayRole).toInt();
        return lacksSpread(p, index.column()) ? QVariant() : data(index, Qt::DisplayRole);
    }
    if (const QVariant caution = cautionData(p, index.column(), role); caution.isValid()) return caution;
    if (role != Qt::DisplayRole) return {};
    return figure(p, points_.front(), index.column()); // against N0, the smallest rank count
}

QVariant ScalingModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::UserRole) {
        static const char* const kCsvNames[ColumnCount] = {"ranks",
                                                           "samples_per_s",
                                                           "samples_per_s_two_sigma",
                                                           "ideal_samples_per_s",
                                                           "speedup",
                                                           "efficiency_percent",
                                                           "speedup_two_sigma",
                                                           "ideal_speedup",
                                                           "efficiency_two_sigma_percent",
                                                           "compute_only_speedup",
                                                           "communication_share_percent",
                                                           "target_reached_repeats",
                                                           "time_to_target_s",
                                                           "time_to_target_two_sigma_s",
                                                           "time_to_target_speedup",
                                                           "time_to_target_speedup_two_sigma",
                                                           "mlperf_score",
                                                           "repeats"};
        return section >= 0 && section < ColumnCount ? QString::fromLatin1(kCsvNames[section]) : QVariant();
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Repeats:
        return tr("Repeats");
    case Ranks:
        return tr("Ranks");
    case SamplesPerS:
        return tr("Samples/s");
    case TwoSigma:
        return tr("±2σ");
    case IdealSamplesPerS:
        return tr("Ideal samples/s");
    case Speedup:
        return tr("Speedup");
    case Efficiency:
        return tr("Efficiency (%)");
    case SpeedupTwoSigma:
        return tr("Speedup ±2σ");
    case IdealSpeedup:
        return tr("Ideal speedup");
    case EfficiencyTwoSigma:
        return tr("Efficiency ±2σ (%)");
    case ComputeOnlySpeedup:
        return tr("Compute-only speedup");
    case CommunicationShare:
        return tr("Comm. share (%)");
    case TargetReached:
        return tr("At target");
    case TimeToTarget:
        return tr("Time to target (s)");
    case TimeToTargetTwoSigma:
        return tr("Time ±2σ (s)");
    case TimeToTargetSpeedup:
        return tr("T(N0)/T(N)");
    case TimeToTargetSpeedupTwoSigma:
        return tr("T(N0)/T(N) ±2σ");
    case MlperfScore:
        return tr("MLPerf score");
    }
    return {};
}

} // namespace scalebench
