// The Scaling tab: throughput with its two-sigma band beside speedup with error bars and efficiency, over the
// shown session's results.
#pragma once

#include "results_table.h"

#include <QSplitter>
#include <vector>

namespace scalebench {

class ScalingModel;

class ScalingTab : public QSplitter {
    Q_OBJECT

  public:
    explicit ScalingTab(QWidget* parent = nullptr);

    void setResults(const std::vector<RunResult>& results);
    ScalingModel* model() const { return model_; }

  private:
    ScalingModel* model_;
};

} // namespace scalebench
