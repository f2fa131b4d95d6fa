// A problem named by file, line and key (plan_error.h).
#include "plan_error.h"

namespace scalebench {

PlanError::PlanError(const std::string& file, int line, const std::string& key, const std::string& problem)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + problem), file_(file), line_(line),
      key_(key) {}

} // namespace scalebench
