// Throughput against rank count from a ScalingModel: measured mean, two-sigma band, ideal linear scaling.
#pragma once

#include <QChartView>

class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace scalebench {

class ScalingModel;

class ScalingChartView : public QChartView {
    Q_OBJECT

  public:
    // The model is not owned and must outlive the view; the chart follows its resets.
    explicit ScalingChartView(ScalingModel* model, QWidget* parent = nullptr);

  private:
    void refresh(); // title, two-sigma band and axis ranges from the model

    ScalingModel* model_;
    QLineSeries* measured_;
    QScatterSeries* markers_;
    QLineSeries* ideal_;
    QLineSeries* band_upper_;
    QLineSeries* band_lower_;
    QAreaSeries* band_;
    QValueAxis* x_axis_;
    QValueAxis* y_axis_;
};

} // namespace scalebench
