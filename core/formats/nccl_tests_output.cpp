// What nccl-tests' text table and its JSON file say alike, and how both become metric records.
#include "nccl_tests_output.h"

#include <climits>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace scalebench {
namespace {

using nlohmann::json;

bool endsWith(std::string_view text, std::string_view end) {
    return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

// Bytes of one element of an nccl-tests type (its test_typenames, and "char"/"int" before NCCL 2); 0 for a
// type it does not know.
std::int64_t elementBytes(std::string_view type) {
    for (std::string_view one : {"int8", "uint8", "char", "f8e4m3", "f8e5m2"})
        if (type == one) return 1;
    for (std::string_view two : {"half", "bfloat16"})
        if (type == two) return 2;
    for (std::string_view four : {"int32", "uint32", "int", "float"})
        if (type == four) return 4;
    for (std::string_view eight : {"int64", "uint64", "double"})
        if (type == eight) return 8;
    return 0;
}

// The largest deviation nccl-tests (before v2.13) accepted per rank beyond the first: its DeltaMaxValue.
double deviationAccepted(std::string_view type) {
    if (type == "half" || type == "bfloat16") return 1e-2;
    if (type == "float") return 1e-5;
    if (type == "double") return 1e-12;
    return 1e-200;
}

void requireRate(double value, const char* what, const char* placement) {
    if (!std::isfinite(value) || value < 0)
        throw std::runtime_error(
            fmt::format("{} {} of the {} result is out of range", what, value, placement));
}

// One half of a row as a record: `record` holds what both halves share; `type` is nccl-tests' name.
CollectiveRecord measured(const NcclTestsMeasurement& m, bool in_place, std::string_view type,
                          CollectiveRecord record) {
    const char* placement = in_place ? "in-place" : "out-of-place";
    requireRate(m.time_us, "time", placement);
    requireRate(m.algbw_gbps, "algbw", placement);
    requireRate(m.busbw_gbps, "busbw", placement);
    record.in_place = in_place;
    record.time_s = m.time_us * 1e-6;
    record.algbw_gbps = m.algbw_gbps;
    record.busbw_gbps = m.busbw_gbps;
    record.checked = m.wrong.has_value();
    if (m.wrong) {
        const double wrong = *m.wrong;
        // A count of elements is below 2^63; a deviation is any finite number.
        if (!std::isfinite(wrong) || wrong < 0 || (!m.max_deviation && wrong >= 0x1p63))
            throw std::runtime_error(fmt::format("{} {} of the {} result is out of range",
                                                 m.max_deviation ? "error" : "#wrong", wrong, placement));
        record.correct = m.max_deviation ? wrong <= deviationAccepted(type) * (record.ranks - 1) : wrong == 0;
    }
    return record;
}

// The reduction of a record: nccl-tests' redop for a collective that reduces; for the others what the
// engine's records of them read as ("sum": it writes no op for them). A program it does not know reduces
// when its redop is not "none".
std::string operation(std::string_view collective, std::string_view redop) {
    const bool other = collective == "allgather" || collective == "broadcast" || collective == "alltoall" ||
                       collective == "alltoallv" || collective == "sendrecv" || collective == "gather" ||
                       collective == "scatter" || collective == "hypercube";
    if (other || redop.empty() || redop == "none") return "sum";
    return std::string(redop);
}

} // namespace

std::string ncclTestsCollective(std::string_view program) {
    if (const auto slash = program.find_last_of("/\\"); slash != std::string_view::npos)
        program.remove_prefix(slash + 1);
    for (std::string_view suffix : {".exe", "_mpi", "_perf"})
        if (endsWith(program, suffix)) program.remove_suffix(suffix.size());
    std::string name;
    for (const char c : program)
        if (c != '_') name += c;
    return name;
}

std::string ncclTestsDtype(std::string_view type) {
    if (type == "float") return "float32";
    if (type == "half") return "float16";
    if (type == "double") return "float64";
    return std::string(type);
}

std::string ncclVersionName(std::int64_t code) {
    if (code <= 0) return std::to_string(code);
    // NCCL_VERSION(X,Y,Z): X*1000 + Y*100 + Z up to 2.8, X*10000 + Y*100 + Z from 2.9 on.
    if (code < 10000) return fmt::format("{}.{}.{}", code / 1000, code / 100 % 10, code % 100);
    return fmt::format("{}.{}.{}", code / 10000, code / 100 % 100, code % 100);
}

int ncclTestsRanks(const NcclTestsRun& run, const OutputContext& context) {
    if (run.ranks) return *run.ranks;
    if (!run.devices.empty() && run.devices.size() <= static_cast<std::size_t>(INT_MAX))
        return static_cast<int>(run.devices.size());
    return context.ranks;
}

HeaderRecord ncclTestsHeader(const NcclTestsRun& run, const OutputContext& context) {
    const std::string program = run.program.empty() ? context.program : run.program;
    const int ranks = ncclTestsRanks(run, context);
    json hosts = json::array();
    for (const NcclTestsDevice& d : run.devices) {
        json host = {{"rank", d.rank}, {"host", d.host}, {"device", d.device}};
        if (d.group) host["group"] = *d.group;
        if (d.pid) host["pid"] = *d.pid;
        if (!d.bus_id.empty()) host["bus_id"] = d.bus_id;
        if (!d.gpu.empty()) host["gpu"] = d.gpu;
        hosts.push_back(std::move(host));
    }
    const NcclTestsSettings& s = run.settings;
    json hyperparameters = json::object();
    const auto put = [&](const char* key, const std::optional<std::int64_t>& value) {
        if (value) hyperparameters[key] = *value;
    };
    put("warmup_iterations", s.warmup_iterations);
    put("repetitions", s.iterations);
    put("aggregated_iterations", s.aggregated_iterations);
    put("min_bytes", s.min_bytes);
    put("max_bytes", s.max_bytes);
    put("step_factor", s.step_factor);
    put("step_bytes", s.step_bytes);
    put("validation", s.validation);
    put("cuda_graph", s.cuda_graph);
    put("threads_per_process", s.threads);
    put("gpus_per_thread", s.gpus_per_thread);
    if (s.cpu_time) hyperparameters["time"] = "cpu";

    json header = {{"type", "header"},
                   {"version", kMetricStreamVersion},
                   {"workload", "nccl-tests"},
                   {"dataset", ""},
                   {"tool", "nccl-tests"},
                   {"program", program},
                   {"collective", ncclTestsCollective(program)},
                   {"backend", "nccl"},
                   {"ranks", ranks},
                   {"hosts", std::move(hosts)},
                   {"hyperparameters", std::move(hyperparameters)}};
    if (!run.tool_version.empty()) header["tool_version"] = run.tool_version;
    if (!run.tool_commit.empty()) header["tool_commit"] = run.tool_commit;
    if (run.nccl_version_code) header["nccl_version"] = ncclVersionName(*run.nccl_version_code);
    if (run.json_format_version) header["json_format_version"] = *run.json_format_version;

    HeaderRecord record;
    record.version = kMetricStreamVersion;
    record.workload = "nccl-tests";
    record.ranks = ranks;
    // The output's words (a host, a GPU's name) need not be UTF-8, which JSON text must be: a byte that is
    // not is written as U+FFFD.
    record.json = header.dump(-1, ' ', false, json::error_handler_t::replace);
    return record;
}

std::vector<CollectiveRecord> ncclTestsRecords(const NcclTestsRow& row, const NcclTestsRun& run,
                                               const OutputContext& context) {
    if (row.size < 0 || row.count < 0)
        throw std::runtime_error(fmt::format("size {} or count {} is negative", row.size, row.count));
    CollectiveRecord record;
    record.collective = ncclTestsCollective(run.program.empty() ? context.program : run.program);
    record.dtype = ncclTestsDtype(row.type);
    record.backend = "nccl";
    record.op = operation(record.collective, row.redop);
    // scalebench counts the whole buffer (docs/metric-stream.md), where nccl-tests' count is one rank's
    // block for all-gather, reduce-scatter and all-to-all: size / element bytes is the whole for every one.
    const std::int64_t width = elementBytes(row.type);
    record.elements = width > 0 && row.size % width == 0 ? row.size / width : row.count;
    record.bytes = row.size;
    record.ranks = ncclTestsRanks(run, context);
    const std::optional<std::int64_t> iterations = row.iterations ? row.iterations : run.settings.iterations;
    record.repetitions =
        iterations && *iterations >= 0 && *iterations <= INT_MAX ? static_cast<int>(*iterations) : 0;
    record.tool = "nccl-tests";

    std::vector<CollectiveRecord> records;
    if (row.out_of_place) records.push_back(measured(*row.out_of_place, false, row.type, record));
    records.push_back(measured(row.in_place, true, row.type, record));
    return records;
}

SummaryRecord ncclTestsSummary(double avg_busbw_gbps, std::optional<std::int64_t> out_of_bounds) {
    json summary = {{"type", "summary"},
                    {"steps", 0},
                    {"wall_s", 0},
                    {"samples_per_s", 0},
                    {"final_loss", 0},
                    {"final_accuracy", nullptr},
                    {"tool", "nccl-tests"},
                    {"avg_busbw_gbps", avg_busbw_gbps},
                    {"out_of_bounds", out_of_bounds ? json(*out_of_bounds) : json(nullptr)}};
    SummaryRecord record;
    record.json = summary.dump();
    return record;
}

} // namespace scalebench
