// The step breakdown of one series as a table, one row per rank count: each part in ms, means over repeats.
#pragma once

#include "breakdown_by_ranks.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace scalebench {

class BreakdownModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    // Data, forward, backward, optimizer and exposed communication add up to the step time; hidden
    // communication ran during backward and is not part of it.
    enum Column {
        Ranks,
        DataMs,
        ForwardMs,
        BackwardMs,
        OptimizerMs,
        ExposedCommMs,
        HiddenCommMs,
        StepMs,
        Repeats,
        CommunicationShare, // exposed communication / step time, percent
        ComputeOnlySpeedup, // the speedup with free communication against the smallest rank count
        ColumnCount
    };

    explicit BreakdownModel(QObject* parent = nullptr);

    // Keeps the rows of one series: the first (or the first of `workload` when given), sorted by rank count;
    // replaces all rows in one reset.
    void setBreakdowns(std::vector<RanksBreakdown> rows, const QString& workload = {});
    // The same from a session's results (breakdownByRanks).
    void setResults(const std::vector<RunResult>& results, const QString& workload = {});
    const std::vector<RanksBreakdown>& breakdowns() const { return rows_; }
    QString workload() const;
    QString dataset() const;
    QString seriesLabel() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Qt::DisplayRole and Qt::UserRole: the number as double (ms, or ranks and repeats); Qt::ToolTipRole:
    // what a part means. The header's Qt::UserRole: the CSV's column name with its unit ("step_ms").
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<RanksBreakdown> rows_;
};

} // namespace scalebench
