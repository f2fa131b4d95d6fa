// Renders a scaling chart to a PNG file without showing a window (reports, batch mode with a QApplication).
#include "scaling_chart_png.h"

#include "scaling_chart_view.h"
#include "scaling_model.h"

#include <QApplication>
#include <QImage>
#include <QPixmap>

namespace scalebench {

bool renderScalingChartPng(const std::vector<ScalingPoint>& points, const QString& title, const QString& path,
                           QSize size) {
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()) || size.isEmpty()) return false;
    ScalingModel model;
    model.setPoints(points);
    ScalingChartView view(&model);
    if (!title.isEmpty()) view.chart()->setTitle(title);
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.setFrameShape(QFrame::NoFrame);
    view.resize(size);
    view.show(); // lays the chart out; nothing reaches the screen
    QCoreApplication::processEvents();
    QImage image = view.grab().toImage();
    if (image.isNull()) return false;
    if (image.size() != size) // a screen with a device pixel ratio above 1 grabs more pixels
        image = image.scaled(size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    return image.save(path, "PNG");
}

} // namespace scalebench
