// The performance model's projection of one series: predicted speedup against ranks on a log2 axis with its
// band, the extrapolated part dashed over a lighter band, the measured speedups with two-sigma error bars and
// ideal linear speedup (docs/performance-model.md).
#pragma once

#include "performance_model.h"

#include <QChartView>
#include <vector>

class QAreaSeries;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace scalebench {

class ProjectionChartView : public QChartView {
    Q_OBJECT

  public:
    explicit ProjectionChartView(QWidget* parent = nullptr);

    // Charts `rows` (project() of `inputs`, rank counts ascending); speedups are against the measured
    // throughput at the smallest measured rank count N0, as project()'s are.
    void showProjection(const QString& series_label, const ModelInputs& inputs,
                        const std::vector<Projection>& rows);
    // Nothing to chart: the title says why (project()'s reason, or no series).
    void showReason(const QString& reason);

    // Up to and including the first extrapolated rank count; from there on the extrapolated series goes on.
    QLineSeries* predictedSeries() const { return predicted_; }
    QLineSeries* extrapolatedSeries() const { return extrapolated_; }
    QAreaSeries* bandSeries() const { return band_; }                          // over the predicted part
    QAreaSeries* extrapolatedBandSeries() const { return extrapolated_band_; } // lighter, over the rest
    QScatterSeries* measuredSeries() const { return measured_; }
    QLineSeries* idealSeries() const { return ideal_; }
    // One I-shaped polyline per measured rank count, as SpeedupChartView's: (x / cap, low), (x * cap, low),
    // (x, low), (x, high), (x / cap, high), (x * cap, high).
    const std::vector<QLineSeries*>& errorBars() const { return error_bars_; }
    QLogValueAxis* ranksAxis() const { return x_axis_; }
    QValueAxis* speedupAxis() const { return y_axis_; }

  private:
    void clearSeries();

    QLineSeries* predicted_;
    QLineSeries* extrapolated_;
    QLineSeries* band_upper_;
    QLineSeries* band_lower_;
    QAreaSeries* band_;
    QLineSeries* extrapolated_upper_;
    QLineSeries* extrapolated_lower_;
    QAreaSeries* extrapolated_band_;
    QScatterSeries* measured_;
    QLineSeries* ideal_;
    std::vector<QLineSeries*> error_bars_;
    QLogValueAxis* x_axis_;
    QValueAxis* y_axis_;
};

} // namespace scalebench
