// Writes the metric stream (docs/metric-stream.md): one JSON object a line, flushed so the console can tail
// it.
#pragma once

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace scalebench {

class MetricWriter {
  public:
    // Opens the file for appending; throws std::runtime_error naming it when it cannot.
    explicit MetricWriter(const std::string& path);
    // Writes one record as a single line and flushes it to the file.
    void write(const nlohmann::json& record);

  private:
    struct FileCloser {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    std::string path_;
    std::unique_ptr<std::FILE, FileCloser> file_;
};

} // namespace scalebench
