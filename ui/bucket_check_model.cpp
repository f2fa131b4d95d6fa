// Each gradient bucket's measured all-reduce against the sweep's prediction for its size, as a table.
#include "bucket_check_model.h"

namespace scalebench {
namespace {

double ratioOf(const BucketCheck& c) {
    return c.predicted.time_s > 0 ? c.measured_s / c.predicted.time_s : 0.0;
}

} // namespace

BucketCheckModel::BucketCheckModel(QObject* parent) : QAbstractTableModel(parent) {}

void BucketCheckModel::setChecks(std::vector<BucketCheck> checks) {
    beginResetModel();
    checks_ = std::move(checks);
    endResetModel();
}

QString BucketCheckModel::sizeText(double bytes) {
    if (bytes >= 1e9) return QStringLiteral("%1 GB").arg(QString::number(bytes / 1e9, 'f', 2));
    if (bytes >= 1e6) return QStringLiteral("%1 MB").arg(QString::number(bytes / 1e6, 'f', 2));
    if (bytes >= 1e3) return QStringLiteral("%1 KB").arg(QString::number(bytes / 1e3, 'f', 1));
    return QStringLiteral("%1 B").arg(QString::number(bytes, 'f', 0));
}

QString BucketCheckModel::basisText(const CommPrediction& predicted) {
    if (!predicted.extrapolated) return tr("interpolated");
    QString text = tr("modelled ±%1 %").arg(QString::number(predicted.relative_error * 100, 'f', 0));
    if (predicted.inter_node_unmeasured) text += tr(", across nodes from the intra-node fit");
    return text;
}

int BucketCheckModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(checks_.size());
}

int BucketCheckModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BucketCheckModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const BucketCheck& c = checks_[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return column == Basis ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (column == Size) return tr("%1 bytes").arg(c.bytes);
        return headerData(column, Qt::Horizontal, Qt::ToolTipRole);
    }
    if (role == Qt::UserRole) {
        switch (column) {
        case Ranks:
            return c.ranks;
        case Bucket:
            return c.bucket;
        case Size:
            return QVariant::fromValue<qint64>(c.bytes);
        case MeasuredMs:
            return c.measured_s * 1e3;
        case PredictedMs:
            return c.predicted.time_s * 1e3;
        case Basis:
            return c.predicted.extrapolated ? c.predicted.relative_error : 0.0;
        case Ratio:
            return ratioOf(c);
        }
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case Ranks:
        return QString::number(c.ranks);
    case Bucket:
        return QString::number(c.bucket);
    case Size:
        return sizeText(static_cast<double>(c.bytes));
    case MeasuredMs:
        return QString::number(c.measured_s * 1e3, 'f', 3);
    case PredictedMs:
        return QString::number(c.predicted.time_s * 1e3, 'f', 3);
    case Basis:
        return basisText(c.predicted);
    case Ratio:
        return c.predicted.time_s > 0 ? QString::number(ratioOf(c), 'f', 2) + QLatin1Char('x')
                                      : QStringLiteral("-");
    }
    return {};
}

QVariant BucketCheckModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Ranks:
            return tr("The measured rank count the bucket was timed at");
        case Bucket:
            return tr("The gradient bucket's index, in the order backward fills them");
        case Size:
            return tr("The bucket's bytes: its gradient elements x 4 (fp32), in decimal units");
        case MeasuredMs:
            return tr(
                "The bucket's all-reduce as the engine timed it on rank 0, from its start to its end: the "
                "median over the steady-state steps of each run, then over the repeats (ms). It includes "
                "waiting for the slower rank and, with overlap, polling while backward runs");
        case PredictedMs:
            return tr("The time the session's all-reduce sweep gives for the bucket's size at the same rank "
                      "count (ms)");
        case Basis:
            return tr(
                "interpolated: the sweep's own times at this rank count, in log size; modelled: the "
                "ring cost model fitted to the sweep (a size or layout the sweep did not measure), with "
                "the band's half-width, twice the fit's rms relative error");
        case Ratio:
            return tr("measured / predicted: near 1 the training's all-reduce runs at the fabric's speed "
                      "(the "
                      "reading counts a median within %1-%2 so); above it slower than the sweep")
                .arg(kFabricSpeedLow)
                .arg(kFabricSpeedHigh);
        }
        return {};
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Ranks:
        return tr("Ranks");
    case Bucket:
        return tr("Bucket");
    case Size:
        return tr("Size");
    case MeasuredMs:
        return tr("Measured ms");
    case PredictedMs:
        return tr("Predicted ms");
    case Basis:
        return tr("Prediction");
    case Ratio:
        return tr("Measured / predicted");
    }
    return {};
}

} // namespace scalebench
