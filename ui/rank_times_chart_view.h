// Per-rank mean step and compute time of one run from a RankTimesModel; the gap between them is the wait, and
// the slowest rank is marked. Lines, not bars, so thousands of ranks stay readable and fast.
#pragma once

#include <QChartView>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace scalebench {

class RankTimesModel;

class RankTimesChartView : public QChartView {
    Q_OBJECT

  public:
    // The model is not owned and must outlive the view; the chart follows its resets.
    explicit RankTimesChartView(RankTimesModel* model, QWidget* parent = nullptr);

    QLineSeries* stepSeries() const { return step_; }
    QLineSeries* computeSeries() const { return compute_; }
    QScatterSeries* slowestMarker() const { return slowest_; }
    QValueAxis* rankAxis() const { return x_axis_; }
    QValueAxis* timeAxis() const { return y_axis_; }

  private:
    void refresh();

    RankTimesModel* model_;
    QLineSeries* step_;
    QLineSeries* compute_;
    QScatterSeries* slowest_;
    QValueAxis* x_axis_;
    QValueAxis* y_axis_;
};

} // namespace scalebench
