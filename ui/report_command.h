// `scalebench report SESSION [--baseline S] [-o FILE]`: a stored session's HTML report, its charts rendered
// in the QApplication the caller made (offscreen for the command line).
#pragma once

#include "console_options.h"

#include <ostream>

namespace scalebench {

// Writes options.report_file for options.report_session of options.db (against options.baseline where given)
// and says what it wrote on `out`; 0, or 2 with the problem on `err` (no store, an unknown session or
// baseline, a file that cannot be written).
int reportSession(const ConsoleOptions& options, std::ostream& out, std::ostream& err);

} // namespace scalebench
