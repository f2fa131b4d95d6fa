// The engine's command line for one run of a plan (what a job launches on every rank): every setting of the
// run, rendered from the option table both programs share (protocol/engine_option_table.h).
#pragma once

#include "run_plan.h"

#include <string>
#include <vector>

namespace scalebench {

// `engine --workload W --dataset D ... --metrics METRICS_PATH`: every plan key (SCALEBENCH_PLAN_OPTIONS) with
// the run's value, even where it equals the engine's default, and every measurement setting the plan has no
// key for (SCALEBENCH_METHOD_OPTIONS) at the table's default, so the stored command line says everything.
std::vector<std::string> engineArguments(const RunSpec& run, const std::string& engine,
                                         const std::string& metrics_path);

} // namespace scalebench
