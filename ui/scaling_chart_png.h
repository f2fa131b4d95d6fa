// Renders a scaling chart to a PNG file without showing a window (reports, batch mode with a QApplication).
#pragma once

#include "analysis.h"

#include <QSize>
#include <QString>
#include <vector>

namespace scalebench {

// Needs a QApplication (QT_QPA_PLATFORM=offscreen is enough); returns false without one or when saving fails.
// An empty title keeps the chart's own title (the workload).
bool renderScalingChartPng(const std::vector<ScalingPoint>& points, const QString& title, const QString& path,
                           QSize size = {900, 560});

} // namespace scalebench
