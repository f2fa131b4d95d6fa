// Every rank's compute time at every step of one run relative to that step's median across ranks, ranks
// grouped by node, slow ranks (findSlowRanks) marked: the data of the straggler heat map.
#pragma once

#include "slow_rank_finding.h"

#include <QAbstractTableModel>
#include <string>
#include <vector>

namespace scalebench {

class RankHeatMapModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    // Relative, the colour's value: compute_s / the step's median compute_s across ranks (1 = typical).
    static constexpr int RelativeRole = Qt::UserRole;
    // The row's rank (int), and whether findSlowRanks flagged it (bool).
    static constexpr int RankRole = Qt::UserRole + 1;
    static constexpr int SlowRole = Qt::UserRole + 2;

    explicit RankHeatMapModel(QObject* parent = nullptr);

    // Replaces everything in one reset. `hosts`: each rank's host (hostsOfRanks of the run's header).
    void setRankTimes(const std::vector<RankTimesRecord>& records, const std::vector<std::string>& hosts);
    const SlowRankFinding& finding() const { return finding_; }
    // The rank in each row: ranks ordered by host (in order of first appearance), then by rank.
    const std::vector<int>& rowRanks() const { return row_ranks_; }

    // Rows are ranks, columns the run's steps (every rank_times record, warm-up included).
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // DisplayRole: nothing (a heat map); BackgroundRole: white at 1, red above (full at 1.5), blue below
    // (full at 0.5); ToolTipRole: "rank 3 on node2, step 12: compute 41.2 ms (1.37 x the step's median)".
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    // Vertical: "3 node2", with "slow" after a flagged rank; horizontal: the step.
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<std::int64_t> steps_;
    std::vector<std::vector<double>> compute_s_; // [record][rank]
    std::vector<std::vector<double>> relative_;  // [record][rank]; 0 where the rank has no time
    std::vector<std::string> hosts_;
    std::vector<int> row_ranks_;
    std::vector<bool> slow_; // by rank
    SlowRankFinding finding_;
};

} // namespace scalebench
