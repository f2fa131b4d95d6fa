// The engine's command line for one run of a plan, rendered from the shared option table.
#include "engine_invocation.h"

#include "engine_option_table.h"
#include "run_folder.h"

#include <type_traits>

namespace scalebench {

std::vector<std::string> engineArguments(const RunSpec& run, const std::string& engine,
                                         const std::string& metrics_path) {
    namespace cli = engine_cli;
    const RunGroup& g = run.group;
    std::vector<std::string> words = {engine};
    auto option = [&](const char* name, const auto& value) {
        words.push_back(cli::optionName(name));
        words.push_back(cli::formatValue(value));
    };
#define SCALEBENCH_FROM_PLAN(name, kind, accepts, scope, help, ...)                                          \
    static_assert(std::is_same_v<decltype(RunGroup::name), cli::Value<cli::Kind::kind>>,                     \
                  "RunGroup::" #name " must have the type of the engine's option");                          \
    option(#name, g.name);
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_FROM_PLAN)
#undef SCALEBENCH_FROM_PLAN
#define SCALEBENCH_METHOD(name, kind, accepts, scope, help, ...) option(#name, cli::defaults::name);
    SCALEBENCH_METHOD_OPTIONS(SCALEBENCH_METHOD)
#undef SCALEBENCH_METHOD
    option("metrics", metrics_path);
    if (g.mllog)
        option("mllog", std::string(kMllogFileName)); // beside the metric stream, in the attempt's folder
    return words;
}

} // namespace scalebench
