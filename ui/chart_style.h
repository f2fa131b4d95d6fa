// The look shared by the console's charts: margins, title font, legend place and a colour-blind-safe palette.
#pragma once

#include <QColor>

class QChart;

namespace scalebench {

// A chart with the console's margins and title font, its legend below the plot (outside it).
QChart* createStyledChart();
// The i-th colour of the palette (Tableau 10), cycling.
QColor paletteColour(int index);
// A tick interval of 1, 2 or 5 times a power of ten, at least 1, giving about `ticks` ticks up to `span`
// (rank axes). Set it before the axis range: a range of thousands with the old interval of 1 lays out
// thousands of labels.
double niceIntegerStep(double span, int ticks);

} // namespace scalebench
