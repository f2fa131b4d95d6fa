// Throughput against rank count from a ScalingModel: measured mean, two-sigma band, ideal linear scaling.
#include "scaling_chart_view.h"

#include "chart_style.h"
#include "figure_labels.h"
#include "scaling_model.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace scalebench {

ScalingChartView::ScalingChartView(ScalingModel* model, QWidget* parent)
    : QChartView(parent), model_(model), measured_(new QLineSeries), markers_(new QScatterSeries),
      ideal_(new QLineSeries), band_upper_(new QLineSeries), band_lower_(new QLineSeries),
      band_(new QAreaSeries(band_upper_, band_lower_)), x_axis_(new QValueAxis), y_axis_(new QValueAxis) {
    QChart* chart = createStyledChart();
    setChart(chart); // the view owns the chart, the chart owns series and axes
    setRenderHint(QPainter::Antialiasing);

    const QColor colour(31, 119, 180);
    band_->setName(tr("±2σ over repeats"));
    band_->setColor(QColor(colour.red(), colour.green(), colour.blue(), 50));
    band_->setBorderColor(Qt::transparent);
    measured_->setName(tr("mean"));
    measured_->setPen(QPen(colour, 2.5));
    markers_->setColor(colour);
    markers_->setBorderColor(colour);
    markers_->setMarkerSize(9);
    ideal_->setName(tr("ideal"));
    ideal_->setPen(QPen(QColor(120, 120, 120), 1.8, Qt::DashLine));

    x_axis_->setTitleText(tr("ranks (processes)"));
    x_axis_->setLabelFormat(QStringLiteral("%d"));
    x_axis_->setTickType(QValueAxis::TicksDynamic);
    x_axis_->setTickAnchor(0);
    y_axis_->setTitleText(figureTitle(Figure::SamplesPerS));
    y_axis_->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(y_axis_, Qt::AlignLeft);
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{band_, ideal_, measured_, markers_}) {
        chart->addSeries(series);
        series->attachAxis(x_axis_);
        series->attachAxis(y_axis_);
    }
    for (QLegendMarker* marker : chart->legend()->markers(markers_))
        marker->setVisible(false);

    connect(model_, &QAbstractItemModel::modelReset, this, &ScalingChartView::refresh);
    connect(model_, &QAbstractItemModel::dataChanged, this, &ScalingChartView::refresh);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &ScalingChartView::refresh);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, &ScalingChartView::refresh);
    refresh();
}

void ScalingChartView::refresh() {
    const int rows = model_->rowCount();
    chart()->setTitle(rows == 0 ? tr("No successful runs to chart")
                                : tr("%1: throughput scaling").arg(model_->seriesLabel()));

    QList<QPointF> measured, ideal, upper, lower;
    double max_ranks = 1, max_y = 0;
    for (int row = 0; row < rows; ++row) {
        auto value = [&](int column) { return model_->data(model_->index(row, column)).toDouble(); };
        const double ranks = value(ScalingModel::Ranks), mean = value(ScalingModel::SamplesPerS);
        // A point without a throughput (an MLPerf run's, scored by its time to train) is no point here: a
        // gap, never one at 0 samples/s.
        if (!model_->data(model_->index(row, ScalingModel::SamplesPerS)).isValid()) continue;
        const double two_sigma = value(ScalingModel::TwoSigma);
        measured.append({ranks, mean});
        ideal.append({ranks, value(ScalingModel::IdealSamplesPerS)});
        upper.append({ranks, mean + two_sigma});
        lower.append({ranks, std::max(0.0, mean - two_sigma)});
        max_ranks = std::max(max_ranks, ranks);
        max_y = std::max({max_y, mean + two_sigma, value(ScalingModel::IdealSamplesPerS)});
    }
    measured_->replace(measured);
    markers_->replace(measured);
    ideal_->replace(ideal);
    band_upper_->replace(upper);
    band_lower_->replace(lower);

    const double step = niceIntegerStep(max_ranks, 8);
    x_axis_->setTickInterval(step);
    x_axis_->setRange(0, max_ranks + step / 2); // half a tick of room so the last marker is not cut
    y_axis_->setRange(0, max_y > 0 ? max_y * 1.08 : 1);
    y_axis_->applyNiceNumbers();
}

} // namespace scalebench
