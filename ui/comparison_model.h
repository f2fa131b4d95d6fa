// Figures of two sessions side by side: A, B and the change in percent, coloured better (green) or worse
// (red) only where change or noise finds it beyond the repeats' noise; grey "within noise" or "cannot tell"
// otherwise.
#pragma once

#include "session_comparison.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace scalebench {

class ComparisonModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    // The view shows Workload to Change but Unit (A and B show theirs); Unit and the columns after Change
    // (the judgement, the bootstrap interval and the repeats a side) are for the CSV, the view hides them.
    enum Column {
        Workload,
        Dataset,
        Series, // the settings that tell the series apart ("precision=bf16"), empty for most
        Ranks,
        Figure,
        Unit,
        A,
        B,
        Change,
        Judgement,    // judgement(): better, worse, within noise, cannot tell, ...
        IntervalLow,  // the 95 % bootstrap interval of the change, percent
        IntervalHigh, //
        RepeatsA,
        RepeatsB,
        ColumnCount
    };
    static constexpr int kShownColumns = Change + 1;

    explicit ComparisonModel(QObject* parent = nullptr);

    // Replaces all rows in one reset; the names head the A and B columns.
    void setComparison(std::vector<FigureComparison> rows, const QString& name_a, const QString& name_b);
    const std::vector<FigureComparison>& rows() const { return rows_; }
    QString nameA() const { return name_a_; }
    QString nameB() const { return name_b_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Qt::DisplayRole: text ("+10.0% better", "+1.2% within noise", "+30.0% cannot tell", or why there is no
    // percent); Qt::UserRole: the plain value for CSV (a number, or the text without units) or an invalid
    // QVariant where there is none; Qt::ToolTipRole on
    // Change: the bootstrap interval (describeChange); Qt::BackgroundRole/ForegroundRole on Change: green
    // better, red worse, grey text otherwise.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    // Qt::UserRole: the CSV column name with its unit ("change_percent").
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // +1 when B is better than A for this row, -1 when worse, 0 when equal, without a direction, or
    // undefined.
    static int verdict(const FigureComparison& row);
    // "+10.0%", "-9.1%"; a change that rounds to nothing is "0.0%", never "-0.0%".
    static QString percentText(double percent);

  private:
    std::vector<FigureComparison> rows_;
    QString name_a_;
    QString name_b_;
};

} // namespace scalebench
