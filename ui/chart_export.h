// Exports what a chart view (or any widget) shows as PNG or SVG, at its size or a size asked for.
#pragma once

#include <QSize>
#include <QString>

class QIODevice;
class QWidget;

namespace scalebench {

// Both need a QApplication (QT_QPA_PLATFORM=offscreen is enough). An empty size keeps the widget's own; for a
// window (a widget without parent) a size given lays it out at that size for the export and restores it after
// (a hidden one is laid out without reaching the screen); a widget inside a window exports as laid out. False
// when the file cannot be written; `error` then says why.
bool saveWidgetPng(QWidget& widget, const QString& path, QSize size = {}, QString* error = nullptr);
// Vector output: a QChartView's series, axes and legend become SVG paths and text.
bool saveWidgetSvg(QWidget& widget, const QString& path, QSize size = {}, QString* error = nullptr);
// The same SVG document written to an open device (a QBuffer for a page that inlines it).
bool writeWidgetSvg(QWidget& widget, QIODevice& device, QSize size = {}, QString* error = nullptr);

} // namespace scalebench
