// Figures a researcher should not take at face value: for each run, why its throughput, speedup or efficiency
// is outside what the machine can give (efficiency above 100 %, ranks sharing cores, a repeat far from its
// siblings, too few steady-state steps), shown beside the figure in the Runs tab and under the run in `run`'s
// table.
#pragma once

#include "results_table.h"

#include <string>
#include <vector>

namespace scalebench {

struct FigureCaution {
    std::string figure;     // the figure it is about: "samples/s", "efficiency"
    std::string short_text; // a table cell's few words: "ranks share cores"
    std::string reason;     // the whole sentence, with its numbers
    bool operator==(const FigureCaution&) const = default;
};

// The rules, with their thresholds:
// - efficiency above 100 % at N > N0: within the noise where X(N) - 2 sigma(N) <= N / N0 x (X(N0) + 2
// sigma(N0)),
//   beyond it otherwise (N0's runs were slowed or had less of the machine per rank);
// - ranks x threads per rank above the CPUs their host bound them to: ranks share cores;
// - a repeat whose samples/s is further than max(3 x 1.4826 x MAD, 5 %) from its siblings' median (3 or more
//   repeats), or 2 repeats more than 10 % apart;
// - fewer than 10 steady-state steps (the median reads warm-up-affected steps);
// - a session whose stored plan no longer reads: its runs' series are their workload and data set alone.
// - MFU above 100 %: a peak below the device's, or a compilation step among the steps read.
std::vector<std::vector<FigureCaution>> figureCautions(const std::vector<RunResult>& results);

// Fills each point's `cautions` with the reasons its runs (same series and rank count) have, each once.
void attachCautions(std::vector<ScalingPoint>& points, const std::vector<RunResult>& results);

// Each caution of a run as "caution: REASON" lines for the terminal, indented by `indent`.
std::string formatCautions(const std::vector<FigureCaution>& cautions, const std::string& indent);

} // namespace scalebench
