// Exports what a chart view (or any widget) shows as PNG or SVG, at its size or a size asked for.
#include "chart_export.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace scalebench {

namespace {

// Lays a window out at `size` while alive (showing a hidden one off screen), then puts it back. A widget
// inside a window keeps the size its layout gives it.
class ExportLayout {
  public:
    ExportLayout(QWidget& widget, QSize size) : widget_(widget), old_size_(widget.size()) {
        if (!widget_.isWindow()) {
            size = {};
        } else if (!widget_.isVisible()) {
            shown_ = true;
            widget_.setAttribute(Qt::WA_DontShowOnScreen);
            if (!size.isEmpty()) widget_.resize(size);
            widget_.show();
        } else if (!size.isEmpty() && size != widget_.size()) {
            widget_.resize(size);
        }
        QCoreApplication::processEvents(); // lay out and let charts react to the new size
    }
    ~ExportLayout() {
        if (shown_) {
            widget_.hide();
            widget_.setAttribute(Qt::WA_DontShowOnScreen, false);
        }
        if (widget_.size() != old_size_) widget_.resize(old_size_);
    }
    ExportLayout(const ExportLayout&) = delete;
    ExportLayout& operator=(const ExportLayout&) = delete;

  private:
    QWidget& widget_;
    QSize old_size_;
    bool shown_ = false;
};

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

bool haveApplication(QString* error) {
    if (qobject_cast<QApplication*>(QCoreApplication::instance())) return true;
    return fail(error, QStringLiteral("exporting a chart needs a QApplication"));
}

} // namespace

bool saveWidgetPng(QWidget& widget, const QString& path, QSize size, QString* error) {
    if (!haveApplication(error)) return false;
    ExportLayout layout(widget, size);
    QImage image = widget.grab().toImage();
    if (image.isNull()) return fail(error, QStringLiteral("could not grab the widget"));
    if (image.size() != widget.size()) // a screen with a device pixel ratio above 1 grabs more pixels
        image = image.scaled(widget.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    if (!image.save(path, "PNG")) return fail(error, QStringLiteral("could not write %1").arg(path));
    return true;
}

bool saveWidgetSvg(QWidget& widget, const QString& path, QSize size, QString* error) {
    if (!haveApplication(error)) return false;
    if (!QFileInfo(path).absoluteDir().exists())
        return fail(error, QStringLiteral("could not write %1: no such folder").arg(path));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return fail(error, QStringLiteral("could not write %1").arg(path));
    if (!writeWidgetSvg(widget, file, size, error)) return false;
    if (!file.flush()) return fail(error, QStringLiteral("could not finish %1").arg(path));
    return true;
}

bool writeWidgetSvg(QWidget& widget, QIODevice& device, QSize size, QString* error) {
    if (!haveApplication(error)) return false;
    ExportLayout layout(widget, size);
    QSvgGenerator svg;
    svg.setOutputDevice(&device);
    svg.setSize(widget.size());
    svg.setViewBox(QRect(QPoint(0, 0), widget.size()));
    svg.setTitle(widget.windowTitle().isEmpty() ? QStringLiteral("scalebench chart") : widget.windowTitle());
    svg.setDescription(QStringLiteral("Exported by scalebench"));
    QPainter painter;
    if (!painter.begin(&svg)) return fail(error, QStringLiteral("could not write the SVG"));
    widget.render(&painter);
    if (!painter.end()) return fail(error, QStringLiteral("could not finish the SVG"));
    return true;
}

} // namespace scalebench
