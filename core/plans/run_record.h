// What a run was, as the store keeps it beside the run: every setting it ran with (its RunSpec), as
// versioned JSON, written when the run is created and read back as it was, whatever later versions make of
// its plan's text (docs/architecture.md, "The session store").
#pragma once

#include "run_plan.h"

#include <string>

namespace scalebench {

// The record's format; a record of a later version is refused by name, never guessed at.
inline constexpr int kRunRecordVersion = 1;

// {"version": 1, "name", "ranks", "repeat", "ranks_per_node", "nodes", "environment", "group": {every key of
// the engine's option table that a plan may set, then the console's: ranks, batch_per_rank_by_ranks,
// gpus_per_node, mllog, exclude_nodes, env, command}}.
std::string runRecordJson(const RunSpec& spec);

// The run as its record says. A key of the option table the record lacks (a key added after the run)
// is the engine's default, which is what the run's engine did without it. Throws std::runtime_error naming
// what does not read: not JSON, a version this scalebench does not know, a value of another type.
RunSpec readRunRecord(const std::string& json);

} // namespace scalebench
