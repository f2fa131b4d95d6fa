// Writes a RunPlan as the TOML that parsePlanText reads back to the same plan (what "Save plan..." stores).
#pragma once

#include "run_plan.h"

#include <string>

namespace scalebench {

// Which keys of each [[run]] table writePlanToml writes: those that differ from their defaults (what a user
// saves), or every key with its effective value, defaults filled in (what a comparison of two plans reads;
// not a plan to read back: a 0 or an empty text that stands for "automatic" is written out, and the plan
// reader refuses some of them, global_batch = 0, data_dir = "").
enum class PlanKeys { Differing, Effective };

// A comment header, the plan's keys, then one [[run]] table per group holding only the keys that differ from
// their defaults (the workload's reference values for dataset, batch_per_rank and lr), or with
// PlanKeys::Effective every key (repeats and regression_threshold too).
std::string writePlanToml(const RunPlan& plan, PlanKeys keys = PlanKeys::Differing);
// A TOML basic string: "text" with quotes, backslashes and control characters escaped.
std::string tomlString(const std::string& text);

} // namespace scalebench
