// MLPerf's compliance log lines, encoded exactly as mlcommons/logging's mllog writes them.
#include "mllog_writer.h"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace scalebench {
namespace {

// Python's json.dumps of a float: repr (shortest round trip, "1.0" for whole numbers), NaN and Infinity.
std::string pythonFloat(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
    return nlohmann::json(v).dump(); // shortest round trip, ".0" kept, exponents as "1e-05"
}

// json.dumps with its default separators and ensure_ascii: {"a": 1, "b": [1, 2]}.
template <typename Json> std::string pythonJson(const Json& j) {
    if (j.is_object()) {
        std::string out = "{";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            out += (first ? "\"" : ", \"");
            out += Json(it.key()).dump(-1, ' ', true).substr(1); // the key, quoted and escaped
            out += ": " + pythonJson(it.value());
            first = false;
        }
        return out + "}";
    }
    if (j.is_array()) {
        std::string out = "[";
        for (std::size_t i = 0; i < j.size(); ++i)
            out += (i ? ", " : "") + pythonJson(j[i]);
        return out + "]";
    }
    if (j.is_number_float()) return pythonFloat(j.template get<double>());
    return j.dump(-1, ' ', true);
}

std::string fileName(const char* path) {
    const std::string p = path;
    const auto slash = p.rfind('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

} // namespace

MllogWriter::MllogWriter(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "a")) {
    if (!file_) throw std::runtime_error("--mllog: cannot open " + path + " for writing");
}

std::string MllogWriter::encode(const std::string& name_space, std::int64_t time_ms,
                                const std::string& event_type, const std::string& key,
                                const nlohmann::json& value, const nlohmann::ordered_json& metadata) {
    nlohmann::ordered_json line;
    line["namespace"] = name_space;
    line["time_ms"] = time_ms;
    line["event_type"] = event_type;
    line["key"] = key;
    line["value"] = value;
    line["metadata"] = metadata.is_null() ? nlohmann::ordered_json::object() : metadata;
    std::string out = ":::MLLOG ";
    out += pythonJson(line);
    return out;
}

std::int64_t MllogWriter::nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

void MllogWriter::start(const std::string& key, const nlohmann::json& value,
                        const nlohmann::ordered_json& metadata, std::source_location where) {
    write("INTERVAL_START", key, value, metadata, where);
}
void MllogWriter::end(const std::string& key, const nlohmann::json& value,
                      const nlohmann::ordered_json& metadata, std::source_location where) {
    write("INTERVAL_END", key, value, metadata, where);
}
void MllogWriter::event(const std::string& key, const nlohmann::json& value,
                        const nlohmann::ordered_json& metadata, std::source_location where) {
    write("POINT_IN_TIME", key, value, metadata, where);
}

void MllogWriter::write(const char* event_type, const std::string& key, const nlohmann::json& value,
                        const nlohmann::ordered_json& metadata, const std::source_location& where) {
    nlohmann::ordered_json meta = {{"file", fileName(where.file_name())},
                                   {"lineno", static_cast<std::int64_t>(where.line())}};
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        meta[it.key()] = it.value();
    const std::string line = encode("", nowMs(), event_type, key, value, meta) + "\n";
    if (std::fwrite(line.data(), 1, line.size(), file_.get()) != line.size() || std::fflush(file_.get()) != 0)
        throw std::runtime_error("--mllog: cannot write to " + path_);
}

} // namespace scalebench
