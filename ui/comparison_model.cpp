// Figures of two sessions side by side: A, B and the change in percent, coloured better (green) or worse
// (red) by which way each figure improves.
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
        return column >= A || column == Ranks ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                              : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (column == Change && (role == Qt::BackgroundRole || role == Qt::ForegroundRole)) {
        const int v = verdict(r);
        if (v == 0) return {};
        if (role == Qt::BackgroundRole) return QBrush(v > 0 ? QColor(214, 245, 214) : QColor(250, 214, 214));
        return QBrush(v > 0 ? QColor(0, 110, 0) : QColor(170, 0, 0));
    }
    if (role == Qt::ToolTipRole && column == Change) {
        const QString direction = r.better == Better::Neither  ? tr("no better direction for this figure")
                                  : r.better == Better::Higher ? tr("higher is better")
                                                               : tr("lower is better");
        return r.change ? direction + QStringLiteral("; ") + QString::fromStdString(describeChange(*r.change))
                        : direction;
    }
    if (role == Qt::UserRole) {
        switch (column) {
        case Ranks:
            return r.ranks;
        case A:
            return r.a ? QVariant(*r.a) : QVariant();
        case B:
            return r.b ? QVariant(*r.b) : QVariant();
        case Change:
            return r.percent ? QVariant(*r.percent) : QVariant();
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (column) {
    case Workload:
        return QStringLiteral("%1 / %2").arg(QString::fromStdString(r.workload),
                                             QString::fromStdString(r.dataset)) +
               (r.settings.empty() ? QString() : QLatin1Char(' ') + QString::fromStdString(r.settings));
    case Ranks:
        return r.ranks;
    case Figure:
        return QString::fromStdString(r.figure);
    case A:
        return valueText(r.a, r.unit);
    case B:
        return valueText(r.b, r.unit);
    case Change:
        if (!r.percent) return QString::fromStdString(r.note);
        return (*r.percent > 0 ? QStringLiteral("+") : QString()) + QString::number(*r.percent, 'f', 1) +
               QLatin1Char('%') + QLatin1Char(' ') + QString::fromStdString(judgement(r));
    }
    return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole && section == Change) return tr("(B - A) / A x 100; undefined when A is 0");
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Workload:
        return tr("Workload / dataset");
    case Ranks:
        return tr("Ranks");
    case Figure:
        return tr("Figure");
    case A:
        return name_a_.isEmpty() ? tr("A") : tr("A: %1").arg(name_a_);
    case B:
        return name_b_.isEmpty() ? tr("B") : tr("B: %1").arg(name_b_);
    case Change:
        return tr("Change (B - A) / A");
    }
    return {};
}

} // namespace scalebench
