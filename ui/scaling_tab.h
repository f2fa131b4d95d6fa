// The Scaling tab: throughput with its two-sigma band beside speedup with error bars and efficiency (and the
// time-to-target speedup where runs reached a target), for one series of the shown session's results at a
// time: runs that differ in any setting but their rank count are never charted as one series.
#pragma once

#include "results_table.h"

#include <QWidget>
#include <vector>

class QComboBox;

namespace scalebench {

class ScalingModel;

class ScalingTab : public QWidget {
    Q_OBJECT

  public:
    explicit ScalingTab(QWidget* parent = nullptr);

    // Lists the results' series in the series choice (keeping the chosen one where it is still there) and
    // charts the chosen one.
    void setResults(const std::vector<RunResult>& results);
    ScalingModel* model() const { return model_; }
    QComboBox* seriesChoice() const { return series_; }

  private:
    void showSeries();

    ScalingModel* model_;
    QComboBox* series_;
    std::vector<ScalingPoint> points_;
};

} // namespace scalebench
