// The step breakdown per rank count from a BreakdownModel: stacked bars that add up to the step time, and the
// hidden (overlapped) communication as its own bar beside each stack.
#pragma once

#include <QChartView>
#include <vector>

class QAreaSeries;
class QBarCategoryAxis;
class QStackedBarSeries;
class QValueAxis;

namespace scalebench {

class BreakdownModel;

class BreakdownChartView : public QChartView {
    Q_OBJECT

  public:
    // The model is not owned and must outlive the view; the chart follows its resets.
    explicit BreakdownChartView(BreakdownModel* model, QWidget* parent = nullptr);

    QStackedBarSeries* stackSeries() const { return stacks_; }
    // One bar per rank count, in the model's row order.
    const std::vector<QAreaSeries*>& hiddenBars() const { return hidden_; }
    QBarCategoryAxis* rankAxis() const { return x_axis_; }
    QValueAxis* timeAxis() const { return y_axis_; }

  private:
    void refresh();

    BreakdownModel* model_;
    QStackedBarSeries* stacks_;
    std::vector<QAreaSeries*> hidden_;
    QBarCategoryAxis* x_axis_;
    QValueAxis* y_axis_;
};

} // namespace scalebench
