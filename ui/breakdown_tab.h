// The Breakdown tab: where a step's time goes per rank count, and the per-rank step times of one run (which
// rank the others wait for, a heat map of ranks by step with slow ranks marked), over the shown session as
// the loader read it.
#pragma once

#include "metric_record.h"
#include "results_table.h"

#include <QSplitter>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class QLabel;

namespace scalebench {

class BreakdownModel;
class RankHeatMapModel;
class RankTimesModel;
struct StoredSession;

class BreakdownTab : public QSplitter {
    Q_OBJECT

  public:
    explicit BreakdownTab(QWidget* parent = nullptr);

    void setResults(const std::vector<RunResult>& results);
    // The session's runs and their per-rank times, for showStragglers.
    void setRuns(const StoredSession& session);
    // The run's per-rank times; run 0: the session's run with the most ranks that has any.
    void showStragglers(std::int64_t run_id);
    void clear();

    BreakdownModel* breakdownModel() const { return breakdown_; }
    RankTimesModel* rankTimesModel() const { return rank_times_; }
    RankHeatMapModel* heatMapModel() const { return heat_map_; }

  private:
    struct RunTimes {
        std::int64_t id = 0;
        std::string name;
        int ranks = 0;
        std::shared_ptr<const std::vector<RankTimesRecord>>
            times;               // shared with the loader's answer, never null
        std::string header_json; // each rank's host is read from it when the run is shown (hostsOfRanks)
    };
    QWidget* buildStragglers(QWidget* parent);

    std::vector<RunTimes> runs_;
    BreakdownModel* breakdown_;
    RankTimesModel* rank_times_;
    RankHeatMapModel* heat_map_;
    QLabel* heading_ = nullptr;
};

} // namespace scalebench
