// scalebench --batch PLAN --dry-run [--cluster NAME [--check]]: what a batch would run and where, running
// nothing: each run's mpirun line on this machine, or on a cluster each run's sbatch script and the engine's
// deployment.
#pragma once

#include "console_options.h"
#include "run_plan.h"

#include <ostream>

namespace scalebench {

// Connects to nothing unless options.check: then it connects and checks the cluster (cluster_readiness.h) and
// prints the scripts with remote_root as the cluster resolves it. Returns the exit code: 0, or 2 when a check
// failed (the problems named on out, their count on err). Throws for a cluster the store does not know
// (naming the ones it does), without creating a store.
int printDryRun(const RunPlan& plan, const ConsoleOptions& options, std::ostream& out, std::ostream& err);

} // namespace scalebench
