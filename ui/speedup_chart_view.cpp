// Speedup against rank count from a ScalingModel: measured throughput speedup with two-sigma error bars, the
// time-to-target speedup T(N0)/T(N) where runs reached a target, the compute-only speedup, ideal linear
// speedup, and scaling efficiency on a second axis.
#include "speedup_chart_view.h"

#include "chart_style.h"
#include "figure_labels.h"
#include "scaling_model.h"

#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace scalebench {

namespace {

void hideFromLegend(QChart* chart, QAbstractSeries* series) {
    for (QLegendMarker* marker : chart->legend()->markers(series))
        marker->setVisible(false);
}

} // namespace

SpeedupChartView::SpeedupChartView(ScalingModel* model, QWidget* parent)
    : QChartView(parent), model_(model), speedup_(new QLineSeries), speedup_markers_(new QScatterSeries),
      ideal_(new QLineSeries), efficiency_(new QLineSeries), efficiency_markers_(new QScatterSeries),
      time_to_target_(new QLineSeries), time_to_target_markers_(new QScatterSeries),
      compute_only_(new QLineSeries), x_axis_(new QValueAxis), speedup_axis_(new QValueAxis),
      efficiency_axis_(new QValueAxis) {
    QChart* chart = createStyledChart();
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);

    const QColor speedup_colour = paletteColour(0), efficiency_colour = paletteColour(1);
    speedup_->setName(tr("speedup ±2σ")); // X(N)/X(N0); its error bars have no entry of their own
    const QColor time_colour = paletteColour(2), compute_colour = paletteColour(3);
    time_to_target_->setName(tr("T(N0)/T(N)"));
    time_to_target_->setPen(QPen(time_colour, 2.5));
    time_to_target_markers_->setColor(time_colour);
    time_to_target_markers_->setBorderColor(time_colour);
    time_to_target_markers_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    time_to_target_markers_->setMarkerSize(10);
    compute_only_->setName(tr("compute only"));
    compute_only_->setPen(QPen(compute_colour, 1.8, Qt::DashDotLine));
    speedup_->setPen(QPen(speedup_colour, 2.5));
    speedup_markers_->setColor(speedup_colour);
    speedup_markers_->setBorderColor(speedup_colour);
    speedup_markers_->setMarkerSize(9);
    ideal_->setName(tr("ideal"));
    ideal_->setPen(QPen(QColor(120, 120, 120), 1.8, Qt::DashLine));
    efficiency_->setName(figureLabel(Figure::Efficiency));
    efficiency_->setPen(QPen(efficiency_colour, 2, Qt::DotLine));
    efficiency_markers_->setColor(efficiency_colour);
    efficiency_markers_->setBorderColor(efficiency_colour);
    efficiency_markers_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    efficiency_markers_->setMarkerSize(8);

    x_axis_->setTitleText(tr("ranks (GPUs or processes)"));
    x_axis_->setLabelFormat(QStringLiteral("%d"));
    x_axis_->setTickType(QValueAxis::TicksDynamic);
    x_axis_->setTickAnchor(0);
    speedup_axis_->setTitleText(tr("speedup S(N)"));
    speedup_axis_->setLabelFormat(QStringLiteral("%.1f"));
    efficiency_axis_->setTitleText(tr("efficiency S(N) N0/N (%)"));
    efficiency_axis_->setLabelFormat(QStringLiteral("%.0f"));
    efficiency_axis_->setLinePenColor(efficiency_colour);
    efficiency_axis_->setLabelsColor(efficiency_colour);
    efficiency_axis_->setGridLineVisible(false);
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(speedup_axis_, Qt::AlignLeft);
    chart->addAxis(efficiency_axis_, Qt::AlignRight);
    for (QAbstractSeries* series : std::initializer_list<QAbstractSeries*>{
             ideal_, compute_only_, speedup_, speedup_markers_, time_to_target_, time_to_target_markers_}) {
        chart->addSeries(series);
        series->attachAxis(x_axis_);
        series->attachAxis(speedup_axis_);
    }
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{efficiency_, efficiency_markers_}) {
        chart->addSeries(series);
        series->attachAxis(x_axis_);
        series->attachAxis(efficiency_axis_);
    }
    hideFromLegend(chart, speedup_markers_);
    hideFromLegend(chart, efficiency_markers_);
    hideFromLegend(chart, time_to_target_markers_);

    connect(model_, &QAbstractItemModel::modelReset, this, &SpeedupChartView::refresh);
    connect(model_, &QAbstractItemModel::dataChanged, this, &SpeedupChartView::refresh);
    connect(model_, &QAbstractItemModel::rowsInserted, this, &SpeedupChartView::refresh);
    connect(model_, &QAbstractItemModel::rowsRemoved, this, &SpeedupChartView::refresh);
    refresh();
}

void SpeedupChartView::refresh() {
    const int rows = model_->rowCount();
    chart()->setTitle(rows == 0 ? tr("No successful runs to chart")
                                : tr("%1: speedup, efficiency").arg(model_->seriesLabel()));
    auto value = [&](int row, int column) { return model_->data(model_->index(row, column)).toDouble(); };

    for (QLineSeries* bar : error_bars_) {
        chart()->removeSeries(bar);
        delete bar;
    }
    error_bars_.clear();

    QList<QPointF> speedup, ideal, efficiency, time_to_target, compute_only;
    double max_ranks = 1, max_speedup = 1, max_efficiency = 100;
    for (int row = 0; row < rows; ++row)
        max_ranks = std::max(max_ranks, value(row, ScalingModel::Ranks));
    const double step = niceIntegerStep(max_ranks, 8);
    const double cap = (max_ranks + step / 2) * 0.012; // half the width of an error bar's caps, in ranks
    const QColor bar_colour = paletteColour(0).darker(130);
    for (int row = 0; row < rows; ++row) {
        const double ranks = value(row, ScalingModel::Ranks), s = value(row, ScalingModel::Speedup);
        const double sigma = value(row, ScalingModel::SpeedupTwoSigma);
        if (const double t = value(row, ScalingModel::TimeToTargetSpeedup); t > 0) {
            time_to_target.append({ranks, t});
            max_speedup = std::max(max_speedup, t + value(row, ScalingModel::TimeToTargetSpeedupTwoSigma));
        }
        // A point without throughput (an MLPerf run's, charted by its time to train alone) has no speedup.
        if (value(row, ScalingModel::SamplesPerS) <= 0) continue;
        speedup.append({ranks, s});
        ideal.append({ranks, value(row, ScalingModel::IdealSpeedup)});
        efficiency.append({ranks, value(row, ScalingModel::Efficiency)});
        max_speedup = std::max({max_speedup, s + sigma, value(row, ScalingModel::IdealSpeedup)});
        max_efficiency = std::max(max_efficiency, value(row, ScalingModel::Efficiency));
        if (const double c = value(row, ScalingModel::ComputeOnlySpeedup); c > 0) {
            compute_only.append({ranks, c});
            max_speedup = std::max(max_speedup, c);
        }

        const double low = std::max(0.0, s - sigma), high = s + sigma;
        auto* bar = new QLineSeries;
        bar->replace(QList<QPointF>{{ranks - cap, low},
                                    {ranks + cap, low},
                                    {ranks, low},
                                    {ranks, high},
                                    {ranks - cap, high},
                                    {ranks + cap, high}});
        bar->setName(tr("±2σ"));
        bar->setPen(QPen(bar_colour, 1.6));
        chart()->addSeries(bar);
        bar->attachAxis(x_axis_);
        bar->attachAxis(speedup_axis_);
        hideFromLegend(chart(), bar); // the speedup's entry says ±2σ: five entries do not fit at scale 2
        error_bars_.push_back(bar);
    }
    speedup_->replace(speedup);
    speedup_markers_->replace(speedup);
    ideal_->replace(ideal);
    time_to_target_->replace(time_to_target);
    time_to_target_markers_->replace(time_to_target);
    time_to_target_->setVisible(!time_to_target.isEmpty());
    time_to_target_markers_->setVisible(!time_to_target.isEmpty());
    hideFromLegend(chart(), time_to_target_markers_); // showing a series shows its legend entry again
    compute_only_->replace(compute_only);
    compute_only_->setVisible(!compute_only.isEmpty()); // no entry for a line that is not there
    efficiency_->replace(efficiency);
    efficiency_markers_->replace(efficiency);

    x_axis_->setTickInterval(step);
    x_axis_->setRange(0, max_ranks + step / 2);
    speedup_axis_->setRange(0, max_speedup * 1.08);
    speedup_axis_->applyNiceNumbers();
    // Ticks every 20%, with room above 100% (or above a superlinear point).
    const double efficiency_top = std::ceil(max_efficiency / 20) * 20 + 20;
    efficiency_axis_->setRange(0, efficiency_top);
    efficiency_axis_->setTickCount(static_cast<int>(efficiency_top / 20) + 1);
}

} // namespace scalebench
