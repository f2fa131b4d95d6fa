// Reads nccl-tests' JSON file (-J FILE) as it grows, into records: each result as soon as its object closes.
#include "nccl_tests_json_reader.h"

#include <climits>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace scalebench {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxKeptBytes = std::size_t{64}
                                      << 20; // a result with -I 1 holds every iteration's time
constexpr std::size_t kShownBytes = 120;
constexpr std::size_t kMaxKeyBytes = 64;

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// A whole number that fits an int64_t, or none.
std::optional<std::int64_t> wholeNumber(const json& value) {
    if (value.is_number_unsigned()) {
        const auto n = value.get<std::uint64_t>();
        if (n <= static_cast<std::uint64_t>(INT64_MAX)) return static_cast<std::int64_t>(n);
    } else if (value.is_number_integer()) {
        return value.get<std::int64_t>();
    } else if (value.is_number_float()) {
        const double n = value.get<double>();
        if (n >= -0x1p63 && n < 0x1p63 && n == static_cast<double>(static_cast<std::int64_t>(n)))
            return static_cast<std::int64_t>(n);
    }
    return std::nullopt;
}

std::optional<std::int64_t> wholeNumberAt(const json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() ? std::nullopt : wholeNumber(*it);
}

std::int64_t requiredWholeNumber(const json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end()) throw std::runtime_error(fmt::format("a result without '{}'", key));
    if (const std::optional<std::int64_t> n = wholeNumber(*it)) return *n;
    throw std::runtime_error(
        fmt::format("the result's '{}' {} is not a whole number in range", key, it->dump()));
}

double requiredNumber(const json& object, const char* key, const char* placement) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number())
        throw std::runtime_error(fmt::format("the {} result's '{}' is {}", placement, key,
                                             it == object.end() ? "missing" : it->dump() + ", not a number"));
    return it->get<double>();
}

std::string stringAt(const json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// {"time":12.34,"alg_bw":0.01,"bus_bw":0.01,"nwrong":0.000000} ("cpu_time" under -C 1; nwrong null under
// -c 0).
NcclTestsMeasurement measurement(const json& half, const char* placement) {
    if (!half.is_object()) throw std::runtime_error(fmt::format("the {} result is not an object", placement));
    NcclTestsMeasurement m;
    m.time_us = requiredNumber(half, half.contains("cpu_time") ? "cpu_time" : "time", placement);
    m.algbw_gbps = requiredNumber(half, "alg_bw", placement);
    m.busbw_gbps = requiredNumber(half, "bus_bw", placement);
    if (const auto wrong = half.find("nwrong"); wrong != half.end() && !wrong->is_null())
        m.wrong = requiredNumber(half, "nwrong", placement);
    return m;
}

} // namespace

NcclTestsJsonReader::NcclTestsJsonReader(OutputContext context) : context_(std::move(context)) {}

void NcclTestsJsonReader::readBytes(std::string_view bytes, std::vector<MetricRecord>& out) {
    for (const char c : bytes) {
        take(c, out);
        if (c == '\n') ++line_;
    }
}

void NcclTestsJsonReader::take(char c, std::vector<MetricRecord>& out) {
    if (depth_ == 0) {
        if (c == '{') { // a document: a run of its own
            strayTextEnds();
            run_ = NcclTestsRun{};
            header_written_ = false;
            out_of_bounds_.reset();
            results_read_ = 0;
            depth_ = 1;
            document_line_ = line_;
            key_.clear();
            reading_key_ = value_due_ = in_results_ = element_due_ = false;
        } else if (!isSpace(c) || in_stray_text_) {
            if (!in_stray_text_) {
                in_stray_text_ = true;
                stray_line_ = line_;
                stray_text_.clear();
            }
            if (stray_text_.size() < kShownBytes) stray_text_ += c;
        }
        return;
    }
    if (keeping_) {
        if (kept_.size() < kMaxKeptBytes)
            kept_ += c;
        else
            kept_too_long_ = true;
    }
    if (in_string_) {
        if (escaped_)
            escaped_ = false;
        else if (c == '\\')
            escaped_ = true;
        else if (c == '"')
            in_string_ = reading_key_ = false;
        else if (reading_key_ && key_.size() < kMaxKeyBytes)
            key_ += c;
        return;
    }
    // A number or literal kept ends at the first delimiter after it.
    if (keeping_ && !keeping_container_ && depth_ == kept_level_ &&
        (c == ',' || c == '}' || c == ']' || isSpace(c))) {
        if (!kept_too_long_) kept_.pop_back();
        valueEnds(out);
    }
    switch (c) {
    case '"':
        if (depth_ == 1 && !value_due_) {
            reading_key_ = true;
            key_.clear();
        } else {
            valueBegins(c);
        }
        in_string_ = true;
        break;
    case '{':
    case '[':
        valueBegins(c);
        ++depth_;
        break;
    case '}':
    case ']':
        --depth_;
        if (keeping_ && keeping_container_ && depth_ == kept_level_) valueEnds(out);
        if (depth_ == 1) in_results_ = false;
        break;
    case ':':
        if (depth_ == 1) value_due_ = true;
        break;
    case ',':
        if (depth_ == 2 && in_results_) element_due_ = true;
        break;
    default:
        if (!isSpace(c)) valueBegins(c);
    }
}

void NcclTestsJsonReader::valueBegins(char c) {
    std::int64_t level = 0;
    if (depth_ == 1 && value_due_) {
        value_due_ = false;
        if (key_ == "results" && c == '[') {
            in_results_ = element_due_ = true;
            return;
        }
        for (std::string_view needed :
             {"version", "nccl_version", "args", "config", "out_of_bounds", "average_bus_bandwidth"})
            if (key_ == needed) level = 1;
    } else if (depth_ == 2 && in_results_ && element_due_) {
        element_due_ = false;
        level = 2;
    }
    if (level == 0) return;
    keeping_ = true;
    keeping_container_ = c == '{' || c == '[';
    kept_too_long_ = false;
    kept_level_ = level;
    kept_line_ = line_;
    kept_.assign(1, c);
}

void NcclTestsJsonReader::valueEnds(std::vector<MetricRecord>& out) {
    keeping_ = false;
    if (kept_too_long_)
        countBroken(kept_line_, kept_,
                    fmt::format("a {} of more than {} MiB", kept_level_ == 2 ? "result" : "'" + key_ + "'",
                                kMaxKeptBytes >> 20));
    else if (kept_level_ == 2)
        readResult(kept_, out);
    else
        readTopLevel(key_, kept_, out);
    kept_.clear();
}

void NcclTestsJsonReader::readTopLevel(std::string_view key, std::string_view text,
                                       std::vector<MetricRecord>& out) {
    try {
        const json value = json::parse(text);
        if (key == "version") {
            run_.json_format_version = wholeNumber(value);
        } else if (key == "nccl_version") {
            run_.nccl_version_code = wholeNumber(value);
        } else if (key == "args") {
            if (value.is_array() && !value.empty() && value.front().is_string())
                run_.program = value.front().get<std::string>();
            if (const auto slash = run_.program.find_last_of("/\\"); slash != std::string::npos)
                run_.program.erase(0, slash + 1);
        } else if (key == "config") {
            if (!value.is_object()) throw std::runtime_error("'config' is not an object");
            NcclTestsSettings& s = run_.settings;
            s.threads = wholeNumberAt(value, "nthreads");
            s.gpus_per_thread = wholeNumberAt(value, "ngpus");
            s.min_bytes = wholeNumberAt(value, "minimum_bytes");
            s.max_bytes = wholeNumberAt(value, "maximum_bytes");
            s.step_factor = wholeNumberAt(value, "step_factor");
            s.step_bytes = wholeNumberAt(value, "step_bytes");
            s.warmup_iterations = wholeNumberAt(value, "warmup_iters");
            s.iterations = wholeNumberAt(value, "iterations");
            s.aggregated_iterations = wholeNumberAt(value, "aggregated_iterations");
            s.validation = wholeNumberAt(value, "validation");
            s.cuda_graph = wholeNumberAt(value, "graph");
            // One entry per process (the first of its devices): the ranks are threads x GPUs x processes.
            const auto devices = value.find("devices");
            if (devices != value.end() && devices->is_array()) {
                for (const json& d : *devices) {
                    if (!d.is_object()) continue;
                    const std::optional<std::int64_t> rank = wholeNumberAt(d, "rank");
                    const std::optional<std::int64_t> device = wholeNumberAt(d, "device");
                    const std::optional<std::int64_t> group = wholeNumberAt(d, "group");
                    if (!rank || *rank < 0 || *rank > INT_MAX || !device || *device < INT_MIN ||
                        *device > INT_MAX || (group && (*group < INT_MIN || *group > INT_MAX)))
                        continue;
                    NcclTestsDevice entry{static_cast<int>(*rank),
                                          group ? std::optional<int>(static_cast<int>(*group)) : std::nullopt,
                                          wholeNumberAt(d, "pid"),
                                          stringAt(d, "hostname"),
                                          static_cast<int>(*device),
                                          stringAt(d, "device_hex"),
                                          stringAt(d, "device_info")};
                    run_.devices.push_back(std::move(entry));
                }
                const auto within = [](const std::optional<std::int64_t>& n) {
                    return n && *n >= 1 && *n <= INT_MAX;
                };
                if (within(s.threads) && within(s.gpus_per_thread) && !run_.devices.empty() &&
                    run_.devices.size() <= static_cast<std::size_t>(INT_MAX)) {
                    const std::int64_t per_process = *s.threads * *s.gpus_per_thread;
                    const std::int64_t ranks = per_process * static_cast<std::int64_t>(run_.devices.size());
                    if (per_process <= INT_MAX && ranks <= INT_MAX) run_.ranks = static_cast<int>(ranks);
                }
            }
        } else if (key == "out_of_bounds") {
            if (value.is_object()) out_of_bounds_ = wholeNumberAt(value, "count");
        } else if (key == "average_bus_bandwidth") {
            if (!value.is_object() || !value.contains("bandwidth") || !value["bandwidth"].is_number())
                throw std::runtime_error("'average_bus_bandwidth' holds no number 'bandwidth'");
            if (!header_written_) out.push_back(ncclTestsHeader(run_, context_));
            header_written_ = true;
            out.push_back(ncclTestsSummary(value["bandwidth"].get<double>(), out_of_bounds_));
        }
    } catch (const json::exception& e) {
        countBroken(kept_line_, text, fmt::format("'{}' is not JSON: {}", key, e.what()));
    } catch (const std::runtime_error& e) {
        countBroken(kept_line_, text, e.what());
    }
}

void NcclTestsJsonReader::readResult(std::string_view text, std::vector<MetricRecord>& out) {
    try {
        const json result = json::parse(text);
        if (!result.is_object()) throw std::runtime_error("a result that is not an object");
        NcclTestsRow row;
        row.size = requiredWholeNumber(result, "size");
        row.count = requiredWholeNumber(result, "count");
        row.type = stringAt(result, "type");
        if (row.type.empty()) throw std::runtime_error("a result without its 'type'");
        row.redop = stringAt(result, "redop");
        // util.cu writes null for an out-of-place half that did not run (trace replay).
        if (const auto half = result.find("out_of_place"); half != result.end() && !half->is_null())
            row.out_of_place = measurement(*half, "out-of-place");
        if (!result.contains("in_place")) throw std::runtime_error("a result without 'in_place'");
        row.in_place = measurement(result["in_place"], "in-place");
        if (result.contains("actual_iterations"))
            row.iterations = requiredWholeNumber(result, "actual_iterations");
        if (!header_written_) run_.settings.cpu_time = result["in_place"].contains("cpu_time");
        std::vector<CollectiveRecord> records = ncclTestsRecords(row, run_, context_);
        if (!header_written_) out.push_back(ncclTestsHeader(run_, context_));
        header_written_ = true;
        ++results_read_;
        for (CollectiveRecord& record : records)
            out.push_back(std::move(record));
    } catch (const json::exception& e) {
        countBroken(kept_line_, text, fmt::format("a result that is not JSON: {}", e.what()));
    } catch (const std::runtime_error& e) {
        countBroken(kept_line_, text, e.what());
    }
}

void NcclTestsJsonReader::strayTextEnds() {
    if (!in_stray_text_) return;
    in_stray_text_ = false;
    countBroken(stray_line_, stray_text_, "text outside the JSON document (is this nccl-tests' -J output?)");
}

void NcclTestsJsonReader::readEnd(std::vector<MetricRecord>& /*out*/) {
    strayTextEnds();
    if (depth_ == 0) return;
    const std::string where = keeping_ && kept_level_ == 2 ? "a result"
                              : keeping_                   ? "'" + key_ + "'"
                              : in_results_                ? "'results'"
                                                           : "the document";
    countBroken(keeping_ ? kept_line_ : document_line_,
                keeping_ ? std::string_view(kept_) : std::string_view(),
                fmt::format("the JSON ends inside {} after {} complete results: the run ended before "
                            "nccl-tests closed its document",
                            where, results_read_));
    depth_ = 0;
    keeping_ = in_string_ = escaped_ = false;
}

} // namespace scalebench
