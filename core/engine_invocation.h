// The engine's command line for one run of a plan (what a job script launches on every rank).
#pragma once

#include "run_plan.h"

#include <string>
#include <vector>

namespace scalebench {

std::vector<std::string> engineArguments(const RunSpec& run, const std::string& engine,
                                         const std::string& metrics_path);

} // namespace scalebench
