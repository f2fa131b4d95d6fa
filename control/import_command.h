// scalebench import FILE...: logs of runs that already happened (nccl-tests, OSU, MLLOG, MaxText, a metric
// stream), each read by its format's reader into one stored session, so that they sit beside the runs
// scalebench launched.
#pragma once

#include "console_options.h"

#include <ostream>

namespace scalebench {

// One run per file, named after it, its ranks from its log where it says them (else --ranks); prints what
// each file gave and the results. 0: every file read; 1: a file gave no record or could not be read (the
// others are kept); 2: the store cannot be used.
int importRuns(const ConsoleOptions& options, std::ostream& out, std::ostream& err);

} // namespace scalebench
