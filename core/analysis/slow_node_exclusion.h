// Keeping a plan off the slow nodes a session's results flagged: the nodes, and the plan with them excluded.
#pragma once

#include "results_table.h"
#include "run_plan.h"

#include <string>
#include <vector>

namespace scalebench {

// The slow nodes the runs' slow-rank findings flagged, each once, in the runs' order; hosts left unnamed ("")
// are not nodes.
std::vector<std::string> slowNodesOf(const std::vector<RunResult>& results);

// The plan with `nodes` added to every group's exclude_nodes (after those already there, each node once),
// engine and command groups alike: on Slurm its jobs then ask `sbatch --exclude` to keep off them. Its
// source_text (what a session stores and a resubmission reads) is rewritten to say so, [[reference]] tables
// and the other keys kept (comments and the keys' order are not). Throws PlanError for a node that is not a
// host name exclude_nodes takes; no nodes: the plan unchanged.
RunPlan withExcludedNodes(const RunPlan& plan, const std::vector<std::string>& nodes);

} // namespace scalebench
