// A run's output as the console reads it: the file in its attempt's folder and the reader of its format.
#pragma once

#include "output_reader.h"
#include "run_plan.h"

#include <memory>
#include <string>

namespace scalebench {

// A run's output as the console reads it: the file in its attempt's folder (the engine's metrics.jsonl, a
// command's own file, or kCommandOutputFileName for its standard output) and a reader of its format.
std::string outputFileOf(const RunSpec& run);
std::unique_ptr<OutputReader> outputReaderOf(const RunSpec& run);

} // namespace scalebench
