// MLPerf's compliance log (mlcommons/logging, mlperf_logging/mllog/mllog.py): one line an event,
// `:::MLLOG {"namespace": "", "time_ms": ..., "event_type": ..., "key": ..., "value": ..., "metadata":
// {...}}`, encoded as mlperf-logging 4.1.68's _encode_log writes it: Python's json.dumps (", " and ": "
// separators, ASCII only), every value as given (integers as integers, booleans as true and false).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <source_location>
#include <string>

namespace scalebench {

class MllogWriter {
  public:
    // Opens the file for appending (a resumed run continues the log); throws std::runtime_error naming it.
    explicit MllogWriter(const std::string& path);

    // INTERVAL_START, INTERVAL_END and POINT_IN_TIME events (mllog's start, end and event). metadata: extra
    // fields after "file" and "lineno" (e.g. {"epoch_num": 1}, {"status": "success"}).
    void start(const std::string& key, const nlohmann::json& value = nullptr,
               const nlohmann::ordered_json& metadata = nlohmann::ordered_json::object(),
               std::source_location where = std::source_location::current());
    void end(const std::string& key, const nlohmann::json& value = nullptr,
             const nlohmann::ordered_json& metadata = nlohmann::ordered_json::object(),
             std::source_location where = std::source_location::current());
    void event(const std::string& key, const nlohmann::json& value = nullptr,
               const nlohmann::ordered_json& metadata = nlohmann::ordered_json::object(),
               std::source_location where = std::source_location::current());

    // One line without its newline, as mllog's _encode_log writes it: value as given (json.dumps of the
    // Python value: 256 stays 256, 256.0 stays 256.0, true stays true).
    static std::string encode(const std::string& name_space, std::int64_t time_ms,
                              const std::string& event_type, const std::string& key,
                              const nlohmann::json& value, const nlohmann::ordered_json& metadata);
    // Milliseconds since the Unix epoch, as mllog's _current_time_ms.
    static std::int64_t nowMs();

  private:
    void write(const char* event_type, const std::string& key, const nlohmann::json& value,
               const nlohmann::ordered_json& metadata, const std::source_location& where);

    struct FileCloser {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    std::string path_;
    std::unique_ptr<std::FILE, FileCloser> file_;
};

} // namespace scalebench
