// Speedup against rank count from a ScalingModel: measured throughput speedup with two-sigma error bars, the
// time-to-target speedup T(N0)/T(N) where runs reached a target, the compute-only speedup, ideal linear
// speedup, and scaling efficiency on a second axis.
#pragma once

#include <QChartView>
#include <vector>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace scalebench {

class ScalingModel;

class SpeedupChartView : public QChartView {
    Q_OBJECT

  public:
    // The model is not owned and must outlive the view; the chart follows its resets (runs finishing).
    explicit SpeedupChartView(ScalingModel* model, QWidget* parent = nullptr);

    QLineSeries* speedupSeries() const { return speedup_; }
    QLineSeries* idealSeries() const { return ideal_; }
    QLineSeries* efficiencySeries() const { return efficiency_; }
    QLineSeries* timeToTargetSeries() const { return time_to_target_; } // empty without a time to target
    QLineSeries* computeOnlySeries() const { return compute_only_; }
    // One I-shaped polyline per rank count: (x - cap, low), (x + cap, low), (x, low), (x, high),
    // (x - cap, high), (x + cap, high).
    const std::vector<QLineSeries*>& errorBars() const { return error_bars_; }
    QValueAxis* ranksAxis() const { return x_axis_; }
    QValueAxis* speedupAxis() const { return speedup_axis_; }
    QValueAxis* efficiencyAxis() const { return efficiency_axis_; }

  private:
    void refresh();

    ScalingModel* model_;
    QLineSeries* speedup_;
    QScatterSeries* speedup_markers_;
    QLineSeries* ideal_;
    QLineSeries* efficiency_;
    QScatterSeries* efficiency_markers_;
    QLineSeries* time_to_target_;
    QScatterSeries* time_to_target_markers_;
    QLineSeries* compute_only_;
    std::vector<QLineSeries*> error_bars_;
    QValueAxis* x_axis_;
    QValueAxis* speedup_axis_;
    QValueAxis* efficiency_axis_;
};

} // namespace scalebench
