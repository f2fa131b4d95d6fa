// The results of a session as a text table for the terminal and as CSV.
#pragma once

#include "run_result.h"
#include "series_scaling.h"

#include <string>
#include <vector>

namespace scalebench {

// "12.3 s" for a run that reached its target ("4.81 min" for an MLPerf run without steps: its time to train),
// "not reached" for one that did not, "-" without a target.
std::string formatTimeToTarget(const RunResult& result);

// "device check on cpu: pass (5 of 5 checks)", or "device check on cuda:0: FAIL: " and the failed checks'
// names, each with the figure it was judged by where it has one.
std::string formatDeviceCheck(const DeviceCheckRecord& check);

// The results table's figure columns, after a run's name, ranks and status (the terminal's table and the
// report's): their headers, the registry's terse names (figure_registry.h), and a run's texts where it has
// steady-state steps, with the registry's terse decimals.
std::vector<std::string> resultsFigureHeaders();
std::vector<std::string> resultsFigureCells(const RunResult& result, const RunScaling& scaling);

std::string formatResultsTable(const std::vector<RunResult>& results);
std::string resultsCsv(const std::vector<RunResult>& results);
// One table per collective sweep: message size, time per call, algbw and busbw, correctness.
std::string formatCollectiveSweeps(const std::vector<RunResult>& results);

} // namespace scalebench
