// Writes the metric stream (docs/metric-stream.md): one JSON object a line, flushed so the console can tail
// it.
#include "metric_writer.h"

#include <cerrno>
#include <cstring>
#include <set>
#include <stdexcept>

namespace scalebench {

namespace {
std::set<std::string>& createdHere() {
    static std::set<std::string> paths;
    return paths;
}
} // namespace

MetricWriter::MetricWriter(const std::string& path) : MetricWriter(path, "wx") {
    createdHere().insert(path);
}

MetricWriter::MetricWriter(const std::string& path, const char* mode)
    : path_(path), file_(std::fopen(path.c_str(), mode)) {
    if (file_) return;
    if (errno == EEXIST)
        throw std::runtime_error("metric stream " + path +
                                 " exists already: the engine never appends to another run's records (was "
                                 "its folder reused?)");
    throw std::runtime_error("cannot open metric stream " + path + ": " + std::strerror(errno));
}

std::optional<MetricWriter> MetricWriter::forLastWords(const std::string& path) {
    if (createdHere().contains(path)) return MetricWriter(path, "a");
    std::unique_ptr<std::FILE, FileCloser> probe(std::fopen(path.c_str(), "r"));
    if (probe) return std::nullopt; // another run's stream
    return MetricWriter(path);
}

void MetricWriter::write(const nlohmann::json& record) {
    const std::string line =
        record.dump() + "\n"; // one write per line: a reader never sees half a record's bytes
    if (std::fwrite(line.data(), 1, line.size(), file_.get()) != line.size() || std::fflush(file_.get()) != 0)
        throw std::runtime_error("cannot write metric stream " + path_ + ": " + std::strerror(errno));
}

} // namespace scalebench
