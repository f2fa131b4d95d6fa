// Figures of two sessions side by side: A, B and the change in percent, coloured better (green) or worse
// (red) by which way each figure improves.
#pragma once

#include "session_comparison.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace scalebench {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Workload, Ranks, Figure, A, B, Change, ColumnCount };

    explicit ComparisonModel(QObject* parent = nullptr);

    // Replaces all rows in one reset; the names head the A and B columns.
    void setComparison(std::vector<FigureComparison> rows, const QString& name_a, const QString& name_b);
    const std::vector<FigureComparison>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Qt::DisplayRole: text ("+10.0%", or why there is no percent); Qt::UserRole: the raw number (percent,
    // A, B) or an invalid QVariant; Qt::BackgroundRole/ForegroundRole on Change: green better, red worse.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // +1 when B is better than A for this row, -1 when worse, 0 when equal, without a direction, or
    // undefined.
    static int verdict(const FigureComparison& row);

  private:
    std::vector<FigureComparison> rows_;
    QString name_a_;
    QString name_b_;
};

} // namespace scalebench
