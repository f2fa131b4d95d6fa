// The formats a run's output is read in, and the reader of each.
#include "output_formats.h"

#include "maxtext_reader.h"
#include "metric_stream_parser.h"
#include "mllog_reader.h"
#include "nccl_tests_json_reader.h"
#include "nccl_tests_table_reader.h"
#include "osu_output.h"
#include "run_folder.h"

#include <stdexcept>

namespace scalebench {

bool formatReadsFileOnly(const std::string& format) {
    return format == "nccl-tests-json";
}

std::unique_ptr<OutputReader> makeOutputReader(const std::string& format, const OutputContext& context) {
    if (format.empty() || format == "metric-stream") return std::make_unique<MetricStreamParser>();
    if (format == "osu") return std::make_unique<OsuLatencyReader>(context);
    if (format == "nccl-tests") return std::make_unique<NcclTestsTableReader>(context);
    if (format == "nccl-tests-json") return std::make_unique<NcclTestsJsonReader>(context);
    if (format == "mllog") return std::make_unique<MllogReader>(context);
    if (format == "maxtext") return std::make_unique<MaxTextReader>(context);
    throw std::invalid_argument("no reader for output format '" + format + "'");
}

std::string outputFileOf(const RunSpec& run) {
    if (!run.group.isCommand()) return kMetricFileName;
    return run.group.command.output.empty() ? kCommandOutputFileName : run.group.command.output;
}

std::unique_ptr<OutputReader> outputReaderOf(const RunSpec& run) {
    return makeOutputReader(run.group.command.format, {run.ranks, run.group.workload, run.group.peak_tflops});
}

} // namespace scalebench
