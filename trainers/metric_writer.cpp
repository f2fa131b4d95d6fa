// Writes the metric stream (docs/metric-stream.md): one JSON object a line, flushed so the console can tail
// it.
#include "metric_writer.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace scalebench {

MetricWriter::MetricWriter(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "a")) {
    if (!file_) throw std::runtime_error("cannot open metric stream " + path + ": " + std::strerror(errno));
}

void MetricWriter::write(const nlohmann::json& record) {
    const std::string line =
        record.dump() + "\n"; // one write per line: a reader never sees half a record's bytes
    if (std::fwrite(line.data(), 1, line.size(), file_.get()) != line.size() || std::fflush(file_.get()) != 0)
        throw std::runtime_error("cannot write metric stream " + path_ + ": " + std::strerror(errno));
}

} // namespace scalebench
