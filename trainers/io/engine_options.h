// The engine's command line: what to train, for how long, with which hyper-parameters, and where to write
// metrics. Every option, its default and what it accepts are rows of protocol/engine_option_table.h.
#pragma once

#include "engine_option_table.h"

#include <string>
#include <vector>

namespace scalebench {

// One member per option of the table, of the option's name and type, at its default.
struct EngineOptions {
#define SCALEBENCH_OPTION_MEMBER(name, kind, accepts, scope, help, ...)                                      \
    engine_cli::Value<engine_cli::Kind::kind> name = engine_cli::defaults::name;
    SCALEBENCH_ENGINE_OPTIONS(SCALEBENCH_OPTION_MEMBER)
#undef SCALEBENCH_OPTION_MEMBER
    bool show_version = false;
    bool show_help = false;
};

// `--name VALUE` for every option of the table, `--help`, `--version`. Throws std::invalid_argument naming
// the option and the problem (an unknown option, a value it does not accept, a missing value or --metrics).
EngineOptions parseEngineOptions(const std::vector<std::string>& arguments);
// Every option with what it accepts, its default and its meaning.
std::string engineUsage();

} // namespace scalebench
