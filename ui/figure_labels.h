// How the views name a figure that has more than one reading: the throughput statistic in a column header and
// its tooltip, the same wherever runs are listed (the Runs tab's two tables, Compare, exports).
#pragma once

#include "analysis.h"
#include "figure_registry.h"
#include "run_status.h"

#include <QString>

namespace scalebench {

// "samples/s (median)" or "samples/s (last step)".
QString throughputHeader(StepTimeConvention convention);
// Which steps, and that it is the figure `scalebench run` prints.
QString throughputHeaderTip(StepTimeConvention convention);

// A figure's label and its header with its unit, as the registry names it (figure_registry.h): "forward",
// "step time (ms)".
QString figureLabel(Figure figure);
QString figureTitle(Figure figure);

// A status in the views: the stored word (the Runs table, the report, the session list), or the word a
// followed run shows ("done" for ok).
QString storedStatusText(RunStatus status);
QString storedStatusText(SessionStatus status);
QString shownStatusText(RunStatus status);

} // namespace scalebench
