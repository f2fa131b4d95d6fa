// Cost against time to train, one point per projected rank count, and the cheapest one for a deadline.
#include "cost_chart_view.h"

#include "chart_style.h"

#include <QChart>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>

namespace scalebench {

namespace {
constexpr double kHour = 3600; // seconds
}

CostChartView::CostChartView(QWidget* parent)
    : QChartView(parent), line_(new QLineSeries), points_(new QScatterSeries), pick_(new QScatterSeries),
      deadline_(new QLineSeries), x_axis_(new QLogValueAxis), y_axis_(new QValueAxis) {
    QChart* chart = createStyledChart();
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);

    const QColor colour = paletteColour(0), pick_colour = paletteColour(3);
    line_->setName(tr("cost to train"));
    line_->setPen(QPen(colour, 2));
    points_->setName(tr("N ranks"));
    points_->setColor(colour);
    points_->setBorderColor(colour.darker(130));
    points_->setMarkerSize(9);
    pick_->setName(tr("cheapest for the deadline"));
    pick_->setColor(pick_colour);
    pick_->setBorderColor(pick_colour.darker(140));
    pick_->setMarkerSize(16);
    deadline_->setName(tr("deadline"));
    deadline_->setPen(QPen(QColor(150, 40, 40), 1.6, Qt::DashLine));

    x_axis_->setBase(10);
    x_axis_->setLabelFormat(QStringLiteral("%g"));
    x_axis_->setMinorTickCount(8);
    x_axis_->setTitleText(tr("time to train, hours (log)"));
    y_axis_->setLabelFormat(QStringLiteral("%.2f"));
    chart->addAxis(x_axis_, Qt::AlignBottom);
    chart->addAxis(y_axis_, Qt::AlignLeft);
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*>{line_, deadline_, points_, pick_}) {
        chart->addSeries(series);
        series->attachAxis(x_axis_);
        series->attachAxis(y_axis_);
    }
    for (QLegendMarker* marker : chart->legend()->markers(line_))
        marker->setVisible(false); // the markers' entry stands for the line
    connect(chart, &QChart::plotAreaChanged, this, &CostChartView::placeLabels);
    showReason(tr("No session shown"));
}

void CostChartView::clearSeries() {
    for (QGraphicsSimpleTextItem* label : labels_)
        delete label;
    labels_.clear();
    for (QXYSeries* series : std::initializer_list<QXYSeries*>{line_, points_, pick_, deadline_})
        series->clear();
}

QStringList CostChartView::pointLabels() const {
    QStringList out;
    for (const QGraphicsSimpleTextItem* label : labels_)
        out << label->text();
    return out;
}

void CostChartView::showReason(const QString& reason) {
    clearSeries();
    chart()->setTitle(tr("Cost to train: %1").arg(reason));
    y_axis_->setTitleText(tr("cost to train"));
    x_axis_->setRange(0.1, 10);
    y_axis_->setRange(0, 1);
}

void CostChartView::showCosts(const QString& series_label, const QString& currency,
                              const std::vector<Projection>& rows, const std::optional<Projection>& pick,
                              double deadline_s) {
    clearSeries();
    double low = 0, high = 0, top = 0;
    for (const Projection& p : rows) {
        if (p.time_to_train_s <= 0 || p.cost_to_train <= 0) continue;
        const double hours = p.time_to_train_s / kHour;
        line_->append(hours, p.cost_to_train);
        points_->append(hours, p.cost_to_train);
        auto* label = new QGraphicsSimpleTextItem(QString::number(p.ranks), chart());
        label->setZValue(10);
        labels_.push_back(label);
        low = low > 0 ? std::min(low, hours) : hours;
        high = std::max(high, hours);
        top = std::max(top, p.cost_to_train);
    }
    if (points_->count() == 0) return showReason(tr("%1: no time and cost to train").arg(series_label));
    chart()->setTitle(tr("%1: cost against time to train, one point per N ranks").arg(series_label));
    y_axis_->setTitleText(tr("cost to train, %1").arg(currency));
    if (pick) pick_->append(pick->time_to_train_s / kHour, pick->cost_to_train);
    if (deadline_s > 0) {
        low = std::min(low, deadline_s / kHour);
        high = std::max(high, deadline_s / kHour);
    }
    x_axis_->setRange(low / 1.5, high * 1.5);
    y_axis_->setRange(0, top * 1.2);
    y_axis_->applyNiceNumbers();
    if (deadline_s > 0)
        deadline_->replace(
            QList<QPointF>{{deadline_s / kHour, y_axis_->min()}, {deadline_s / kHour, y_axis_->max()}});
    placeLabels();
}

void CostChartView::placeLabels() {
    for (std::size_t i = 0; i < labels_.size() && i < static_cast<std::size_t>(points_->count()); ++i) {
        const QPointF at = chart()->mapToPosition(points_->at(static_cast<int>(i)), points_);
        labels_[i]->setPos(at + QPointF(6, -18)); // above and to the right of its marker
    }
}

} // namespace scalebench
