// The keys of an engine [[run]] table, their scopes, and the group a [[run]] that leaves them out gets.
#include "run_keys.h"

#include "workload_catalog.h"

namespace scalebench {

// The keys of an engine [[run]] that the console keeps (how many ranks, how they are placed, what is exported
// and logged, the old form of `target`), beside the engine option table's plan keys: X(name, Scope).
#define SCALEBENCH_CONSOLE_RUN_KEYS(X)                                                                       \
    X(ranks, Any)                                                                                            \
    X(gpus_per_node, Any) X(mllog, Training) X(exclude_nodes, Any) X(env, Any) X(target_accuracy, Training)

std::vector<std::string> engineRunKeys() {
    std::vector<std::string> keys;
#define SCALEBENCH_KEY_NAME(name, ...) keys.push_back(#name);
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_KEY_NAME)
    SCALEBENCH_CONSOLE_RUN_KEYS(SCALEBENCH_KEY_NAME)
#undef SCALEBENCH_KEY_NAME
    return keys;
}

bool inScope(engine_cli::Scope scope, const WorkloadInfo& info) {
    switch (scope) {
    case engine_cli::Scope::Any:
        return true;
    case engine_cli::Scope::Training:
        return !isCollectiveSweep(info);
    case engine_cli::Scope::Sweep:
        return isCollectiveSweep(info);
    case engine_cli::Scope::Presets:
        return !info.presets.empty();
    case engine_cli::Scope::Sequence:
        return info.seq_len > 0;
    }
    return false;
}
const char* scopeWords(engine_cli::Scope scope) {
    switch (scope) {
    case engine_cli::Scope::Any:
        return "every workload";
    case engine_cli::Scope::Training:
        return "training workloads";
    case engine_cli::Scope::Sweep:
        return "collective sweeps";
    case engine_cli::Scope::Presets:
        return "workloads with presets";
    case engine_cli::Scope::Sequence:
        return "sequence workloads";
    }
    return "";
}

void refuseKeysOutOfScope(const TableReader& r, const toml::table& table, const WorkloadInfo& info) {
    const auto check = [&](const char* key, engine_cli::Scope scope) {
        if (table.get(key) && !inScope(scope, info))
            r.fail(*table.get(key), key,
                   std::string("'") + key + "' applies to " + scopeWords(scope) + " only, and '" + info.name +
                       "' is not one");
    };
#define SCALEBENCH_CHECK_SCOPE(name, kind, accepts, scope, ...) check(#name, engine_cli::Scope::scope);
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_CHECK_SCOPE)
#undef SCALEBENCH_CHECK_SCOPE
#define SCALEBENCH_CHECK_CONSOLE_SCOPE(name, scope) check(#name, engine_cli::Scope::scope);
    SCALEBENCH_CONSOLE_RUN_KEYS(SCALEBENCH_CHECK_CONSOLE_SCOPE)
#undef SCALEBENCH_CHECK_CONSOLE_SCOPE
}

RunGroup groupDefaults(const WorkloadInfo& workload, const std::string& dataset) {
    RunGroup g;
    g.workload = workload.name;
    g.dataset = dataset;
    g.batch_per_rank = workload.batch_per_rank;
    g.lr = workload.base_lr;
    g.eval_every = workload.eval_every; // the seed's cadence and size
    g.eval_samples = workload.eval_samples;
    g.target = defaultTarget(workload, dataset);
    g.preset = workload.presets.empty() ? "" : workload.presets.front();
    return g;
}

} // namespace scalebench
