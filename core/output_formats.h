// The formats a run's output is read in, and the reader of each: the engine's metric stream, and what outside
// benchmarks and trainers print (nccl-tests' tables and JSON, OSU's latency tables, MLPerf's :::MLLOG lines,
// MaxText's step lines).
#pragma once

#include "output_reader.h"
#include "run_plan.h"

#include <memory>
#include <string>
#include <vector>

namespace scalebench {

// A plan's `format` values. "metric-stream" is the engine's own (docs/metric-stream.md), for a command that
// writes it.
inline const std::vector<std::string> kOutputFormats = {"nccl-tests", "nccl-tests-json", "osu",
                                                        "mllog",      "maxtext",         "metric-stream"};

// A format whose tool writes a file of its own (nccl-tests -J FILE) rather than to its standard output.
bool formatReadsFileOnly(const std::string& format);

// The reader of `format` (one of kOutputFormats; an empty one is the engine's metric stream);
// std::invalid_argument for any other.
std::unique_ptr<OutputReader> makeOutputReader(const std::string& format, const OutputContext& context);

// A run's output as the console reads it: the file in its attempt's folder (the engine's metrics.jsonl, a
// command's own file, or kCommandOutputFileName for its standard output) and a reader of its format.
std::string outputFileOf(const RunSpec& run);
std::unique_ptr<OutputReader> outputReaderOf(const RunSpec& run);

} // namespace scalebench
