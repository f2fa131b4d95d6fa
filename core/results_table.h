// The results of a session as a text table for the terminal and as CSV.
#pragma once

#include "analysis.h"

#include <string>
#include <vector>

namespace scalebench {

struct RunResult {
    std::string name;
    std::string workload;
    std::string dataset;
    int ranks = 0;
    int repeat = 0;
    std::string status;
    std::string error;
    RunFigures figures;
    std::vector<CollectiveRecord> collectives{}; // a collective sweep's sizes, in order
    std::string requeues{}; // "requeued once after NODE_FAIL on node2 (...)": empty when it ran once
};

// Throughput scaling over the successful runs (mean and two sigma over repeats).
std::vector<ScalingPoint> sessionScaling(const std::vector<RunResult>& results);

// Speedup and efficiency of each run against the mean throughput of its workload's smallest rank count.
struct RunScaling {
    double speedup = 0;
    double efficiency = 0;
};
std::vector<RunScaling> runScaling(const std::vector<RunResult>& results);

std::string formatResultsTable(const std::vector<RunResult>& results);
std::string resultsCsv(const std::vector<RunResult>& results);
// One table per collective sweep: message size, time per call, algbw and busbw, correctness.
std::string formatCollectiveSweeps(const std::vector<RunResult>& results);

} // namespace scalebench
