// The keys of an engine [[run]] table: the engine option table's plan keys and the console's own, which
// workloads take each (their scope), and what a [[run]] that leaves a key out gets (groupDefaults,
// run_plan.h).
#pragma once

#include "run_plan.h"
#include "toml_table_reader.h"

#include <string>
#include <vector>

namespace scalebench {

struct WorkloadInfo;

// Every key an engine [[run]] takes: the engine's plan keys, then the console's.
std::vector<std::string> engineRunKeys();
// Whether a workload takes the keys of a scope.
bool inScope(engine_cli::Scope scope, const WorkloadInfo& info);
// What the workloads of a scope are called in a refusal: "training workloads".
const char* scopeWords(engine_cli::Scope scope);
// Refuses, naming it, the first key the table holds that its workload does not take.
void refuseKeysOutOfScope(const TableReader& r, const toml::table& table, const WorkloadInfo& info);

} // namespace scalebench
