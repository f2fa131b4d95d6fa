// Per-rank mean step and compute time of one run from a RankTimesModel; the gap between them is the wait, and
// the slowest rank is marked. Lines, not bars, so thousands of ranks stay readable and fast.
#include "rank_times_chart_view.h"

#include "analysis.h"
#include "chart_style.h"
#include "rank_times_model.h"
#include "slow_rank_finding.h"

#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace scalebench {

RankTimesChartView::RankTimesChartView(RankTimesModel* model, QWidget* parent)
    : QChartView(parent), model_(model), step_(new QLineSeries), compute_(new QLineSeries),
      slowest_(new QScatterSeries), x_axis_(new QValueAxis), y_axis_(new QValueAxis) {
    QChart* chart = createStyledChart();
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);

    step_->setName(tr("step"));
    step_->setPen(QPen(paletteColour(0), 2));
    compute_->setName(tr("own compute"));
    compute_->setPen(QPen(paletteColour(2), 2));
    slowest_->setName(tr("slowest"));
    slowest_->setColor(paletteColour(3));
    slowest_->setBorderColor(paletteColour(3).darker(140));
    slowest_->setMarkerSize(13);

    x_axis_->setTitleText(tr("rank"));
    x_axis_->setLabelFormat(QStringLiteral("%d"));
    y_axis_->setTitleText(tr("ms"));
    y_axis_->setLabelFormat(QStringLiteral("%.1f"));
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(y_axis_, Qt::AlignLeft);
    for (QAbstractSeries* series : std::initializer_list<QAbstractSeries*>{step_, compute_, slowest_}) {
        chart->addSeries(series);
        series->attachAxis(x_axis_);
        series->attachAxis(y_axis_);
    }
    connect(model_, &QAbstractItemModel::modelReset, this, &RankTimesChartView::refresh);
    connect(model_, &QAbstractItemModel::dataChanged, this, &RankTimesChartView::refresh);
    refresh();
}

void RankTimesChartView::refresh() {
    const RankTimeSummary& summary = model_->summary();
    QList<QPointF> step, compute, slowest;
    double max_ms = 0;
    for (const RankTimes& t : summary.ranks) {
        step.append({static_cast<double>(t.rank), t.step_s * 1e3});
        compute.append({static_cast<double>(t.rank), t.compute_s * 1e3});
        if (t.rank == summary.slowest_rank) slowest.append({static_cast<double>(t.rank), t.compute_s * 1e3});
        max_ms = std::max({max_ms, t.step_s * 1e3, t.compute_s * 1e3});
    }
    const bool markers = summary.ranks.size() <= 64;
    step_->setPointsVisible(markers);
    compute_->setPointsVisible(markers);
    step_->replace(step);
    compute_->replace(compute);
    slowest_->replace(slowest);

    if (summary.ranks.empty()) {
        chart()->setTitle(tr("No per-rank times recorded for this run"));
    } else {
        // "Slowest" only where it stands out: beyond the slow-rank rule's 5 % margin over the ranks' median
        // (a 0.1 ms lead in 292 ms once read "Rank 1 is slowest").
        const RankTimes& s = summary.ranks[static_cast<std::size_t>(std::max(0, summary.slowest_rank))];
        std::vector<double> computes;
        for (const RankTimes& t : summary.ranks)
            computes.push_back(t.compute_s * 1e3);
        const double middle = median(computes);
        const auto [low, high] = std::minmax_element(computes.begin(), computes.end());
        if (summary.ranks.size() > 1 && s.compute_s * 1e3 > middle * (1 + SlowRankRule{}.min_margin))
            chart()->setTitle(tr("Rank %1 slowest: %2 ms (median %3)")
                                  .arg(s.rank)
                                  .arg(s.compute_s * 1e3, 0, 'f', 1)
                                  .arg(middle, 0, 'f', 1));
        else
            chart()->setTitle(tr("No slow rank (%1-%2 ms)").arg(*low, 0, 'f', 1).arg(*high, 0, 'f', 1));
    }
    const double last_rank = summary.ranks.empty() ? 1 : static_cast<double>(summary.ranks.size() - 1);
    // The interval before the range: the other way round, thousands of ranks would lay out a label per rank.
    x_axis_->setTickType(QValueAxis::TicksDynamic);
    x_axis_->setTickAnchor(0);
    x_axis_->setTickInterval(niceIntegerStep(last_rank, 10));
    x_axis_->setRange(-0.5, std::max(1.0, last_rank) + 0.5);
    y_axis_->setRange(0, max_ms > 0 ? max_ms * 1.12 : 1);
    y_axis_->applyNiceNumbers();
}

} // namespace scalebench
