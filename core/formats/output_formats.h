// The formats a run's output is read in, and the reader of each: the engine's metric stream, and what outside
// benchmarks and trainers print (nccl-tests' tables and JSON, OSU's latency tables, MLPerf's :::MLLOG lines,
// MaxText's step lines).
#pragma once

#include "output_reader.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// A plan's `format` values. "metric-stream" is the engine's own (docs/metric-stream.md), for a command that
// writes it.
inline const std::vector<std::string> kOutputFormats = {"nccl-tests", "nccl-tests-json", "osu",
                                                        "mllog",      "maxtext",         "metric-stream"};

// A user-defined format (core/formats/pattern_format.h) is named by one of:
//   - a shipped definition's name (shippedFormatNames(): megatron-lm, nemo, torchtitan);
//   - the name of a definition in the user's formats folder, userFormatsFolder()/NAME.toml;
//   - a path to a definition file ending in ".toml" (absolute, or relative to the working directory).
// A plan is best served by the first two: a stored plan names its format again when its session is read back.
// The user's formats folder: $SCALEBENCH_FORMATS, else $XDG_CONFIG_HOME/scalebench/formats, else
// ~/.config/scalebench/formats.
std::string userFormatsFolder();
// The TOML text of the user-defined format `format` names, read from where it is, and where that is (for
// messages); nullopt where `format` is a built-in one (kOutputFormats) or names no definition. Throws
// std::runtime_error naming a file that cannot be read.
struct FormatDefinition {
    std::string text;
    std::string source; // "resources/formats/megatron-lm.toml" (shipped), or the file's path
};
std::optional<FormatDefinition> patternFormatDefinition(const std::string& format);
// Every format a run or an import can name here: kOutputFormats, then the shipped definitions, then the
// user's.
std::vector<std::string> availableFormats();
// Throws std::invalid_argument saying why `format` cannot be read with (no such format, listing those there
// are), or PlanError for a definition that is wrong (naming its file, line and key); returns where it can.
void checkOutputFormat(const std::string& format);

// A format whose tool writes a file of its own (nccl-tests -J FILE) rather than to its standard output.
bool formatReadsFileOnly(const std::string& format);

// The reader of `format` (one of kOutputFormats, an empty one is the engine's metric stream, or a
// user-defined format by name or path); std::invalid_argument for any other, PlanError for a wrong
// definition.
std::unique_ptr<OutputReader> makeOutputReader(const std::string& format, const OutputContext& context);

} // namespace scalebench
