// Lines drawn straight into a chart's plot area, in the axes' coordinates.
#include "plot_lines_item.h"

#include <QChart>
#include <QPainter>
#include <QValueAxis>

namespace scalebench {

PlotLinesItem::PlotLinesItem(QChart* chart, QValueAxis* x_axis, QValueAxis* y_axis)
    : QGraphicsItem(chart), chart_(chart), x_axis_(x_axis), y_axis_(y_axis), plot_(chart->plotArea()) {
    setZValue(5); // Qt Charts' line series' level: over the grid, under the legend
    setFlag(ItemClipsToShape, false);
    setAcceptedMouseButtons(Qt::NoButton);
}

void PlotLinesItem::setLines(const std::vector<const std::vector<SeriesPoint>*>& lines,
                             const std::vector<QColor>& colours) {
    lines_.resize(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        QPolygonF& points = lines_[i].points;
        points.resize(static_cast<qsizetype>(lines[i]->size()));
        for (std::size_t k = 0; k < lines[i]->size(); ++k)
            points[static_cast<qsizetype>(k)] = QPointF((*lines[i])[k].x, (*lines[i])[k].y);
        // One pixel wide: the raster engine draws such a line directly; a wider pen is stroked into a path
        // and filled, which costs ~7x as much for the ~10,000 points of the three live charts.
        lines_[i].pen = QPen(colours[i], 1.0);
    }
    plotChanged();
}

int PlotLinesItem::pointCount() const {
    int count = 0;
    for (const Line& line : lines_)
        count += static_cast<int>(line.points.size());
    return count;
}

void PlotLinesItem::plotChanged() {
    const QRectF plot = chart_->plotArea();
    if (plot != plot_) {
        prepareGeometryChange();
        plot_ = plot;
    }
    update();
}

QRectF PlotLinesItem::boundingRect() const {
    return plot_.adjusted(-2, -2, 2, 2); // the pen's half width over the edges
}

void PlotLinesItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    const double x_span = x_axis_->max() - x_axis_->min(), y_span = y_axis_->max() - y_axis_->min();
    if (lines_.empty() || plot_.isEmpty() || !(x_span > 0) || !(y_span > 0)) return;
    // Axis units to pixels: x from the left edge, y up from the bottom edge.
    const double sx = plot_.width() / x_span, sy = plot_.height() / y_span;
    const double x0 = plot_.left() - x_axis_->min() * sx, y0 = plot_.bottom() + y_axis_->min() * sy;
    painter->save();
    painter->setClipRect(plot_);
    painter->setRenderHint(QPainter::Antialiasing);
    QPolygonF pixels;
    for (const Line& line : lines_) {
        pixels.resize(line.points.size());
        for (qsizetype k = 0; k < line.points.size(); ++k)
            pixels[k] = QPointF(x0 + line.points[k].x() * sx, y0 - line.points[k].y() * sy);
        painter->setPen(line.pen);
        painter->drawPolyline(pixels);
    }
    painter->restore();
}

} // namespace scalebench
