// The performance model's projection of one series: predicted speedup against ranks on a log2 axis with its
// band, the extrapolated part dashed over a lighter band, the measured speedups with two-sigma error bars and
// ideal linear speedup (docs/performance-model.md).
#include "projection_chart_view.h"

#include "chart_style.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
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

QColor withAlpha(QColor colour, int alpha) {
    colour.setAlpha(alpha);
    return colour;
}

constexpr double kCap =
    1.06; // an error bar's caps reach this factor either side of its rank count (log axis)

} // namespace

ProjectionChartView::ProjectionChartView(QWidget* parent)
    : QChartView(parent), predicted_(new QLineSeries), extrapolated_(new QLineSeries),
      band_upper_(new QLineSeries), band_lower_(new QLineSeries),
      band_(new QAreaSeries(band_upper_, band_lower_)), extrapolated_upper_(new QLineSeries),
      extrapolated_lower_(new QLineSeries),
      extrapolated_band_(new QAreaSeries(extrapolated_upper_, extrapolated_lower_)),
      measured_(new QScatterSeries), ideal_(new QLineSeries), x_axis_(new QLogValueAxis),
      y_axis_(new QValueAxis) {
    QChart* chart = createStyledChart();
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);

    const QColor predicted_colour = paletteColour(0), measured_colour = paletteColour(1);
    predicted_->setName(tr("predicted"));
    predicted_->setPen(QPen(predicted_colour, 2.5));
    extrapolated_->setName(tr("extrapolated"));
    extrapolated_->setPen(QPen(predicted_colour, 2.5, Qt::DashLine));
    band_->setName(tr("band"));
    band_->setColor(withAlpha(predicted_colour, 70));
    band_->setBorderColor(Qt::transparent);
    extrapolated_band_->setName(tr("extrapolated band"));
    extrapolated_band_->setColor(withAlpha(predicted_colour, 28));
    extrapolated_band_->setBorderColor(Qt::transparent);
    measured_->setName(tr("measured"));
    measured_->setColor(measured_colour);
    measured_->setBorderColor(measured_colour.darker(130));
    measured_->setMarkerSize(10);
    ideal_->setName(tr("ideal"));
    ideal_->setPen(QPen(QColor(120, 120, 120), 1.8, Qt::DotLine));

    x_axis_->setBase(2);
    x_axis_->setLabelFormat(QStringLiteral("%d"));
    x_axis_->setMinorTickCount(0);
    x_axis_->setTitleText(tr("ranks, log2"));
    y_axis_->setTitleText(tr("speedup S(N)"));
    y_axis_->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(y_axis_, Qt::AlignLeft);
    for (QAbstractSeries* series : std::initializer_list<QAbstractSeries*>{
             band_, extrapolated_band_, ideal_, predicted_, extrapolated_, measured_}) {
        chart->addSeries(series);
        series->attachAxis(x_axis_);
        series->attachAxis(y_axis_);
    }
    hideFromLegend(chart, band_);
    hideFromLegend(chart, extrapolated_band_);
    showReason(tr("No session shown"));
}

void ProjectionChartView::clearSeries() {
    for (QLineSeries* bar : error_bars_) {
        chart()->removeSeries(bar);
        delete bar;
    }
    error_bars_.clear();
    for (QXYSeries* series :
         std::initializer_list<QXYSeries*>{predicted_, extrapolated_, band_upper_, band_lower_,
                                           extrapolated_upper_, extrapolated_lower_, measured_, ideal_})
        series->clear();
}

void ProjectionChartView::showReason(const QString& reason) {
    clearSeries();
    chart()->setTitle(tr("Performance model: %1").arg(reason));
    x_axis_->setRange(1, 64);
    y_axis_->setRange(0, 1);
}

void ProjectionChartView::showProjection(const QString& series_label, const ModelInputs& inputs,
                                         const std::vector<Projection>& rows) {
    clearSeries();
    // N0 and its measured throughput X(N0): what every speedup here is against.
    const auto n0 =
        std::min_element(inputs.measured.begin(), inputs.measured.end(),
                         [](const MeasuredPoint& a, const MeasuredPoint& b) { return a.ranks < b.ranks; });
    if (rows.empty() || n0 == inputs.measured.end() || n0->samples_per_s.mean <= 0) {
        showReason(tr("%1: no measured throughput to project from").arg(series_label));
        return;
    }
    const double x0 = n0->samples_per_s.mean;
    chart()->setTitle(tr("%1: predicted speedup").arg(series_label)); // to the N chosen above it

    double top = 1;
    const auto first_extrapolated =
        std::find_if(rows.begin(), rows.end(), [](const Projection& p) { return p.extrapolated; });
    for (auto row = rows.begin(); row != rows.end(); ++row) {
        const double n = row->ranks;
        const double low = row->samples_low / x0;
        const double high = std::isfinite(row->samples_high) ? row->samples_high / x0 : row->speedup;
        top = std::max(top, row->speedup); // not the band's top: a noisy N0 makes it run off far above
        // The solid part runs to the first extrapolated point, where the dashed part takes over.
        if (row <= first_extrapolated) { // all of them where none is extrapolated
            predicted_->append(n, row->speedup);
            band_upper_->append(n, high);
            band_lower_->append(n, low);
        }
        if (first_extrapolated != rows.end() && row >= first_extrapolated) {
            extrapolated_->append(n, row->speedup);
            extrapolated_upper_->append(n, high);
            extrapolated_lower_->append(n, low);
        }
        ideal_->append(n, n / n0->ranks);
    }

    const QColor bar_colour = paletteColour(1).darker(130);
    const int last = rows.back().ranks;
    int largest_measured = n0->ranks;
    for (const MeasuredPoint& m : inputs.measured) {
        if (m.ranks > last) continue;
        largest_measured = std::max(largest_measured, m.ranks);
        const double n = m.ranks, s = m.samples_per_s.mean / x0, sigma = m.samples_per_s.two_sigma() / x0;
        const double low = std::max(0.0, s - sigma), high = s + sigma;
        top = std::max(top, high);
        measured_->append(n, s);
        auto* bar = new QLineSeries;
        bar->replace(QList<QPointF>{
            {n / kCap, low}, {n * kCap, low}, {n, low}, {n, high}, {n / kCap, high}, {n * kCap, high}});
        bar->setName(tr("measured"));
        bar->setPen(QPen(bar_colour, 1.6));
        chart()->addSeries(bar);
        bar->attachAxis(x_axis_);
        bar->attachAxis(y_axis_);
        hideFromLegend(chart(), bar); // the markers' legend entry stands for them
        error_bars_.push_back(bar);
    }
    // Ideal speedup soon leaves the predicted curve far below: the axis shows it up to the measured range and
    // the prediction, not to N/N0 at the far end; the band is clipped a little above the curve.
    top = std::max(top, static_cast<double>(largest_measured) / n0->ranks);
    x_axis_->setRange(std::min<double>(n0->ranks, rows.front().ranks) / 1.4, last * 1.4);
    y_axis_->setRange(0, top * 1.25);
    y_axis_->applyNiceNumbers();
}

} // namespace scalebench
