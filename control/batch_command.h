// scalebench --batch PLAN: run a plan headless, store the session, print the results table, write
// results.csv.
#pragma once

#include "console_options.h"
#include "results_table.h"

#include <ostream>
#include <vector>

namespace scalebench {

struct BatchResult {
    // 0: every run ok; 1: a run failed; 2: the plan or the store cannot be used; 3: a verdict failed (a
    // reference or a regression against the baseline); 128 + signal: interrupted.
    int exit_code = 0;
    std::vector<RunResult> results;
};

BatchResult runBatch(const ConsoleOptions& options, std::ostream& out, std::ostream& err);
// scalebench --add-clusters FILE: keeps the file's clusters in the store; 0, or 2 with the problem on err.
int addClusters(const ConsoleOptions& options, std::ostream& out, std::ostream& err);
// scalebench --compare A B: the comparison of two stored sessions as text; 0, or 2 with the problem on err.
int compareSessions(const ConsoleOptions& options, std::ostream& out, std::ostream& err);

} // namespace scalebench
