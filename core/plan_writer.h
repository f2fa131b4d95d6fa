// Writes a RunPlan as the TOML that parsePlanText reads back to the same plan (what "Save plan..." stores).
#pragma once

#include "run_plan.h"

#include <string>

namespace scalebench {

// A comment header, the plan's keys, then one [[run]] table per group holding only the keys that differ from
// their defaults (the workload's reference values for dataset, batch_per_rank and lr).
std::string writePlanToml(const RunPlan& plan);
// A TOML basic string: "text" with quotes, backslashes and control characters escaped.
std::string tomlString(const std::string& text);

} // namespace scalebench
