// Per-rank step and compute times of one run as a table, the slowest rank marked (straggler view).
#pragma once

#include "rank_time_summary.h"

#include <QAbstractTableModel>
#include <vector>

namespace scalebench {

class RankTimesModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column { Rank, StepMs, ComputeMs, WaitMs, Slowest, ColumnCount };

    explicit RankTimesModel(QObject* parent = nullptr);

    // Replaces all rows in one reset.
    void setSummary(RankTimeSummary summary);
    // The same from a run's rank_times records (summarizeRankTimes skips the warm-up).
    void setRankTimes(const std::vector<RankTimesRecord>& records);
    const RankTimeSummary& summary() const { return summary_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Qt::DisplayRole: numbers as double (ms), Slowest as "slowest" or empty; the slowest row is bold with a
    // tinted background.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    RankTimeSummary summary_;
};

} // namespace scalebench
