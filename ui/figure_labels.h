// How the views name a figure that has more than one reading: the throughput statistic in a column header and
// its tooltip, the same wherever runs are listed (the Runs tab's two tables, Compare, exports).
#pragma once

#include "analysis.h"

#include <QString>

namespace scalebench {

// "samples/s (median)" or "samples/s (last step)".
QString throughputHeader(StepTimeConvention convention);
// Which steps, and that it is the figure `scalebench run` prints.
QString throughputHeaderTip(StepTimeConvention convention);

} // namespace scalebench
