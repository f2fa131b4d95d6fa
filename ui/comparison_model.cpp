// Figures of two sessions side by side: A, B and the change in percent, coloured better (green) or worse
// (red) only where change or noise finds it beyond the repeats' noise; grey "within noise" or "cannot tell"
// otherwise.
#include "comparison_model.h"

#include <QBrush>
#include <QColor>

namespace scalebench {

namespace {

// The figure's value with the decimals its row gives (figure_registry.h), and its unit where one is worth
// writing beside it.
QString valueText(const std::optional<double>& value, const FigureComparison& figure) {
    if (!value) return QStringLiteral("-");
    const std::string& unit = figure.unit;
    QString text = QString::number(*value, 'f', figure.decimals);
    if (unit == "x") return text + QLatin1Char('x');
    if (unit == "%") return text + QLatin1Char('%');
    return unit.empty() || unit == "samples/s" ? text
                                               : text + QLatin1Char(' ') + QString::fromStdString(unit);
}

// Whether change or noise gave the change an interval (not for "cannot tell").
bool hasInterval(const FigureComparison& r) {
    return r.change && r.change->kind != ChangeKind::CannotTell;
}

// The Change column's background and text colour (role).
QVariant changeColour(const FigureComparison& r, int role) {
    // changeOrNoise is the only rule: green or red only beyond the noise of the repeats; within noise,
    // cannot tell and one value a side are grey text on no colour.
    const int v = ComparisonModel::verdict(r);
    if (v == 0) return role == Qt::ForegroundRole && r.percent ? QBrush(QColor(110, 110, 110)) : QVariant();
    if (role == Qt::BackgroundRole) return QBrush(v > 0 ? QColor(214, 245, 214) : QColor(250, 214, 214));
    return QBrush(v > 0 ? QColor(0, 110, 0) : QColor(170, 0, 0));
}

// The Change column's tooltip: which direction is better, and the bootstrap interval and the repeats a side
// ("+1.0 % [-2.2, +4.1] (95 % bootstrap, 5 vs 5 repeats): noise"), or why there is none.
QString changeToolTip(const FigureComparison& r) {
    const QString direction = r.better == Better::Neither
                                  ? ComparisonModel::tr("no better direction for this figure")
                              : r.better == Better::Higher ? ComparisonModel::tr("higher is better")
                                                           : ComparisonModel::tr("lower is better");
    return r.change ? direction + QStringLiteral("; ") + QString::fromStdString(describeChange(*r.change))
                    : direction +
                          ComparisonModel::tr("; not a mean over repeats: change or noise cannot judge it");
}

// Qt::UserRole: the plain value for CSV, or none.
QVariant plainValue(const FigureComparison& r, int column) {
    switch (column) {
    case ComparisonModel::Workload:
        return QString::fromStdString(r.workload);
    case ComparisonModel::Dataset:
        return QString::fromStdString(r.dataset);
    case ComparisonModel::Series:
        return QString::fromStdString(r.settings);
    case ComparisonModel::Ranks:
        return r.ranks;
    case ComparisonModel::Figure:
        return QString::fromStdString(r.figure);
    case ComparisonModel::Unit:
        return QString::fromStdString(r.unit);
    case ComparisonModel::A:
        return r.a ? QVariant(*r.a) : QVariant();
    case ComparisonModel::B:
        return r.b ? QVariant(*r.b) : QVariant();
    case ComparisonModel::Change:
        return r.percent ? QVariant(*r.percent) : QVariant();
    case ComparisonModel::Judgement:
        return r.percent ? QString::fromStdString(judgement(r)) : QString::fromStdString(r.note);
    case ComparisonModel::IntervalLow:
        return hasInterval(r) ? QVariant(r.change->low * 100) : QVariant();
    case ComparisonModel::IntervalHigh:
        return hasInterval(r) ? QVariant(r.change->high * 100) : QVariant();
    case ComparisonModel::RepeatsA:
        return r.change ? QVariant(r.change->repeats_a) : QVariant();
    case ComparisonModel::RepeatsB:
        return r.change ? QVariant(r.change->repeats_b) : QVariant();
    }
    return {};
}

// Qt::DisplayRole, formatted: the values with their units, the change with its judgement, the interval in
// percent; every other column as its plain value.
QVariant shownText(const FigureComparison& r, int column) {
    switch (column) {
    case ComparisonModel::A:
        return valueText(r.a, r);
    case ComparisonModel::B:
        return valueText(r.b, r);
    case ComparisonModel::Change:
        if (!r.percent) return QString::fromStdString(r.note);
        return ComparisonModel::percentText(*r.percent) + QLatin1Char(' ') +
               QString::fromStdString(judgement(r));
    case ComparisonModel::IntervalLow:
        return hasInterval(r) ? ComparisonModel::percentText(r.change->low * 100) : QString();
    case ComparisonModel::IntervalHigh:
        return hasInterval(r) ? ComparisonModel::percentText(r.change->high * 100) : QString();
    default:
        return plainValue(r, column);
    }
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
    if (column == Change && (role == Qt::BackgroundRole || role == Qt::ForegroundRole))
        return changeColour(r, role);
    // The whole settings string the view elides in the middle.
    if (role == Qt::ToolTipRole && column == Series) return QString::fromStdString(r.settings);
    if (role == Qt::ToolTipRole && column == Change) return changeToolTip(r);
    if (role == Qt::UserRole) return plainValue(r, column);
    if (role != Qt::DisplayRole) return {};
    return shownText(r, column);
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
