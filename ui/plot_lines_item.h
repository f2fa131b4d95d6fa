// Lines drawn straight into a chart's plot area, in the axes' coordinates: the live charts' decimated series
// painted as polylines, without Qt Charts' per-point work (a path, its stroke for hit testing, a line per
// segment) for every redraw.
#pragma once

#include "series_decimation.h"

#include <QColor>
#include <QGraphicsItem>
#include <QPen>
#include <QPolygonF>
#include <vector>

class QChart;
class QValueAxis;

namespace scalebench {

class PlotLinesItem : public QGraphicsItem {
  public:
    // A child of the chart, drawn over its plot area in the range of these axes (owned by the chart).
    PlotLinesItem(QChart* chart, QValueAxis* x_axis, QValueAxis* y_axis);

    // The lines to draw, in the axes' units; line i in colours[i], one pixel wide.
    void setLines(const std::vector<const std::vector<SeriesPoint>*>& lines,
                  const std::vector<QColor>& colours);
    int pointCount() const;
    // The plot area moved or the axes' range changed: draw again there.
    void plotChanged();

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

  private:
    struct Line {
        QPolygonF points; // axis units
        QPen pen;
    };
    QChart* chart_;
    QValueAxis* x_axis_;
    QValueAxis* y_axis_;
    QRectF plot_;
    std::vector<Line> lines_;
};

} // namespace scalebench
