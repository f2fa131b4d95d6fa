// The Scaling tab: throughput with its two-sigma band beside speedup with error bars and efficiency, over the
// shown session's results.
#include "scaling_tab.h"

#include "scaling_chart_view.h"
#include "scaling_model.h"
#include "speedup_chart_view.h"

namespace scalebench {

ScalingTab::ScalingTab(QWidget* parent) : QSplitter(Qt::Horizontal, parent), model_(new ScalingModel(this)) {
    auto* throughput = new ScalingChartView(model_, this);
    throughput->setObjectName(QStringLiteral("scalingChart"));
    auto* speedup = new SpeedupChartView(model_, this);
    speedup->setObjectName(QStringLiteral("speedupChart"));
}

void ScalingTab::setResults(const std::vector<RunResult>& results) {
    model_->setPoints(sessionScaling(results));
}

} // namespace scalebench
