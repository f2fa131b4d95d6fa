// Writes the metric stream (docs/metric-stream.md): one JSON object a line, flushed so the console can tail
// it.
#pragma once

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace scalebench {

class MetricWriter {
  public:
    // Creates the file; throws std::runtime_error naming it when it cannot, or when it exists: a run never
    // appends to another run's records (a reused folder would mix two runs in one stream).
    explicit MetricWriter(const std::string& path);
    // Where a failing rank writes its error record: the stream this process created, reopened for
    // appending, or a new one when there is none yet; nullopt when the file is another run's.
    static std::optional<MetricWriter> forLastWords(const std::string& path);
    // Writes one record as a single line and flushes it to the file.
    void write(const nlohmann::json& record);

  private:
    MetricWriter(const std::string& path, const char* mode);
    struct FileCloser {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    std::string path_;
    std::unique_ptr<std::FILE, FileCloser> file_;
};

} // namespace scalebench
