// Where a run's output is and how it reads (run_output.h).
#include "run_output.h"

#include "output_formats.h"
#include "run_folder.h"

namespace scalebench {

std::string outputFileOf(const RunSpec& run) {
    if (!run.group.isCommand()) return kMetricFileName;
    return run.group.command.output.empty() ? kCommandOutputFileName : run.group.command.output;
}

std::unique_ptr<OutputReader> outputReaderOf(const RunSpec& run) {
    return makeOutputReader(run.group.command.format, {run.ranks, run.group.workload, run.group.peak_tflops});
}

} // namespace scalebench
