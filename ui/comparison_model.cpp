// Figures of two sessions side by side: A, B and the change in percent, coloured better (green) or worse
// (red) only where change or noise finds it beyond the repeats' noise; grey "within noise" or "cannot tell"
// otherwise.
#include "comparison_model.h"

#include <QBrush>
#include <QColor>

namespace scalebench {

namespace {

QString valueText(const std::optional<double>& value, const std::string& unit) {
    if (!value) return QStringLiteral("-");
    const int decimals = unit == "samples/s" ? 1 : unit == "" ? 4 : unit == "GB/s" ? 3 : 2;
    QString text = QString::number(*value, 'f', decimals);
    if (unit == "x") return text + QLatin1Char('x');
    if (unit == "%") return text + QLatin1Char('%');
    return unit.empty() || unit == "samples/s" ? text
                                               : text + QLatin1Char(' ') + QString::fromStdString(unit);
}

} // namespace

QString ComparisonModel::percentText(double percent) {
    return QString::fromStdString(scalebench::percentText(percent));
}

ComparisonModel::ComparisonModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparisonModel::setComparison(std::vector<FigureComparison> rows, const QString& name_a,
                                    const QString& name_b) {
    beginResetModel();
    rows_ = std::move(rows);
    name_a_ = name_a;
    name_b_ = name_b;
    endResetModel();
}

int ComparisonModel::verdict(const FigureComparison& row) {
    return changeDirection(row); // better or worse only beyond the noise of the repeats
}

int ComparisonModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const FigureComparison& r = rows_[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (role == Qt::TextAlignmentRole)
        return (column >= A && column != Judgement) || column == Ranks
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    // The interval where change or noise gave one (not for "cannot tell"), in percent.
    const bool interval = r.change && r.change->kind != ChangeKind::CannotTell;
    if (column == Change && (role == Qt::BackgroundRole || role == Qt::ForegroundRole)) {
        // changeOrNoise is the only rule: green or red only beyond the noise of the repeats; within noise,
        // cannot tell and one value a side are grey text on no colour.
        const int v = verdict(r);
        if (v == 0)
            return role == Qt::ForegroundRole && r.percent ? QBrush(QColor(110, 110, 110)) : QVariant();
        if (role == Qt::BackgroundRole) return QBrush(v > 0 ? QColor(214, 245, 214) : QColor(250, 214, 214));
        return QBrush(v > 0 ? QColor(0, 110, 0) : QColor(170, 0, 0));
    }
    if (role == Qt::ToolTipRole &&
        column == Series) // the whole settings string the view elides in the middle
        return QString::fromStdString(r.settings);
    if (role == Qt::ToolTipRole && column == Change) {
        const QString direction = r.better == Better::Neither  ? tr("no better direction for this figure")
                                  : r.better == Better::Higher ? tr("higher is better")
                                                               : tr("lower is better");
        // The bootstrap interval and the repeats a side ("+1.0 % [-2.2, +4.1] (95 % bootstrap, 5 vs 5
        // repeats): noise"), or why there is none.
        return r.change ? direction + QStringLiteral("; ") + QString::fromStdString(describeChange(*r.change))
                        : direction + tr("; not a mean over repeats: change or noise cannot judge it");
    }
    if (role == Qt::UserRole) {
        switch (column) {
        case Workload:
            return QString::fromStdString(r.workload);
        case Dataset:
            return QString::fromStdString(r.dataset);
        case Series:
            return QString::fromStdString(r.settings);
        case Ranks:
            return r.ranks;
        case Figure:
            return QString::fromStdString(r.figure);
        case Unit:
            return QString::fromStdString(r.unit);
        case A:
            return r.a ? QVariant(*r.a) : QVariant();
        case B:
            return r.b ? QVariant(*r.b) : QVariant();
        case Change:
            return r.percent ? QVariant(*r.percent) : QVariant();
        case Judgement:
            return r.percent ? QString::fromStdString(judgement(r)) : QString::fromStdString(r.note);
        case IntervalLow:
            return interval ? QVariant(r.change->low * 100) : QVariant();
        case IntervalHigh:
            return interval ? QVariant(r.change->high * 100) : QVariant();
        case RepeatsA:
            return r.change ? QVariant(r.change->repeats_a) : QVariant();
        case RepeatsB:
            return r.change ? QVariant(r.change->repeats_b) : QVariant();
        }
    }
    if (role != Qt::DisplayRole) return {};
    // Shown formatted: the values with their units, the change with its judgement, the interval in percent;
    // every other column as its plain value.
    switch (column) {
    case A:
        return valueText(r.a, r.unit);
    case B:
        return valueText(r.b, r.unit);
    case Change:
        if (!r.percent) return QString::fromStdString(r.note);
        return percentText(*r.percent) + QLatin1Char(' ') + QString::fromStdString(judgement(r));
    case IntervalLow:
        return interval ? percentText(r.change->low * 100) : QString();
    case IntervalHigh:
        return interval ? percentText(r.change->high * 100) : QString();
    default:
        return data(index, Qt::UserRole);
    }
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && section == Change) return tr("(B - A) / A x 100; undefined when A is 0");
    // The sessions' names are in the tooltips and the heading above the table: short headers keep A, B and
    // the change in view at 1280x800.
    if (role == Qt::ToolTipRole && section == A && !name_a_.isEmpty()) return tr("A: %1").arg(name_a_);
    if (role == Qt::ToolTipRole && section == B && !name_b_.isEmpty()) return tr("B: %1").arg(name_b_);
    if (role == Qt::UserRole) {
        static const char* const kCsvNames[ColumnCount] = {"workload",
                                                           "dataset",
                                                           "series",
                                                           "ranks",
                                                           "figure",
                                                           "unit",
                                                           "a",
                                                           "b",
                                                           "change_percent",
                                                           "judgement",
                                                           "interval_low_percent",
                                                           "interval_high_percent",
                                                           "repeats_a",
                                                           "repeats_b"};
        return section >= 0 && section < ColumnCount ? QString::fromLatin1(kCsvNames[section]) : QVariant();
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Workload:
        return tr("Workload");
    case Dataset:
        return tr("Dataset");
    case Series:
        return tr("Series");
    case Unit:
        return tr("Unit");
    case Judgement:
        return tr("Judgement");
    case IntervalLow:
        return tr("95 % interval low");
    case IntervalHigh:
        return tr("95 % interval high");
    case RepeatsA:
        return tr("Repeats A");
    case RepeatsB:
        return tr("Repeats B");
    case Ranks:
        return tr("Ranks");
    case Figure:
        return tr("Figure");
    case A:
        return tr("A");
    case B:
        return tr("B");
    case Change:
        return tr("Change");
    }
    return {};
}

} // namespace scalebench
