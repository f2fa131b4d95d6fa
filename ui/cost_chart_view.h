// Cost against time to train: one point per projected rank count N (labelled N), the time to train on a log
// axis and the cost to train at the cluster's price per GPU-hour, the deadline as a vertical line and the
// cheapest N that meets it marked (cheapestForDeadline; docs/performance-model.md, "Cost").
#pragma once

#include "performance_model.h"

#include <QChartView>
#include <QStringList>
#include <optional>
#include <vector>

class QGraphicsSimpleTextItem;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace scalebench {

class CostChartView : public QChartView {
    Q_OBJECT

  public:
    explicit CostChartView(QWidget* parent = nullptr);

    // Charts the rows with a time and a cost to train (hours, currency); `pick`: the cheapest for the
    // deadline (deadline_s 0: none asked for).
    void showCosts(const QString& series_label, const QString& currency, const std::vector<Projection>& rows,
                   const std::optional<Projection>& pick, double deadline_s);
    // Nothing to chart: the title says why (no samples to train, no price).
    void showReason(const QString& reason);

    QLineSeries* costSeries() const { return line_; }       // (hours to train, cost to train) by N
    QScatterSeries* pointSeries() const { return points_; } // the same points, as markers
    QScatterSeries* pickSeries() const { return pick_; } // the cheapest N for the deadline: one point or none
    QLineSeries* deadlineSeries() const { return deadline_; } // vertical at the deadline; empty without one
    QStringList pointLabels() const;                          // "N" beside each point, in the points' order
    QLogValueAxis* timeAxis() const { return x_axis_; }
    QValueAxis* costAxis() const { return y_axis_; }

  private:
    void clearSeries();
    void placeLabels(); // beside their points, wherever the plot area now is

    QLineSeries* line_;
    QScatterSeries* points_;
    QScatterSeries* pick_;
    QLineSeries* deadline_;
    QLogValueAxis* x_axis_;
    QValueAxis* y_axis_;
    std::vector<QGraphicsSimpleTextItem*> labels_;
};

} // namespace scalebench
