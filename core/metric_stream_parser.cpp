// Incremental, tolerant parser of the JSON-lines metric stream.
#include "metric_stream_parser.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace scalebench {
namespace {

using nlohmann::json;

double number(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        throw std::runtime_error(std::string("'") + j.value("type", "") + "' record without number '" + key +
                                 "'");
    return it->get<double>();
}

double optionalNumber(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

// A number that counts something (a step, ranks, bytes) as Int: one out of Int's range makes the record
// broken, where a cast would be undefined (1e300 steps).
template <typename Int> Int integral(double value, const json& j, const char* key) {
    const double low = static_cast<double>(std::numeric_limits<Int>::min()); // -2^31 or -2^63: exact
    if (!(value >= low && value < -low))
        throw std::runtime_error(std::string("'") + j.value("type", "") + "' record with '" + key + "' " +
                                 json(value).dump() + ", out of range");
    return static_cast<Int>(value);
}

template <typename Int> Int integer(const json& j, const char* key) {
    return integral<Int>(number(j, key), j, key);
}

std::vector<double> numbers(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_array())
        throw std::runtime_error(std::string("'") + j.value("type", "") + "' record without array '" + key +
                                 "'");
    std::vector<double> values;
    for (const auto& v : *it) {
        if (!v.is_number())
            throw std::runtime_error(std::string("'") + key + "' holds something that is not a number");
        values.push_back(v.get<double>());
    }
    return values;
}

std::string text(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The device self-check's verdict: `verdict` pass or fail, each check a name and whether it passed, and the
// figure it was judged by where it has one. A verdict that contradicts rank 0's checks is a broken record.
DeviceCheckRecord deviceCheck(const json& j) {
    DeviceCheckRecord d;
    d.workload = text(j, "workload");
    d.device = text(j, "device");
    d.steps = integer<std::int64_t>(j, "steps");
    d.verdict = text(j, "verdict");
    if (d.verdict != "pass" && d.verdict != "fail")
        throw std::runtime_error("'device_check' record with verdict '" + d.verdict + "', not pass or fail");
    d.ranks_passed = d.passed();
    if (const auto ranks = j.find("ranks_passed"); ranks != j.end()) {
        if (!ranks->is_boolean())
            throw std::runtime_error("'device_check' record whose 'ranks_passed' is not true or false");
        d.ranks_passed = ranks->get<bool>();
    }
    if (d.passed() && !d.ranks_passed)
        throw std::runtime_error("'device_check' record with verdict pass but ranks_passed false");
    const auto checks = j.find("checks");
    if (checks == j.end() || !checks->is_array())
        throw std::runtime_error("'device_check' record without array 'checks'");
    for (const json& c : *checks) {
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("passed") ||
            !c["passed"].is_boolean())
            throw std::runtime_error("'device_check' record with a check that is not {\"name\": text, "
                                     "\"passed\": true or false, ...}");
        DeviceCheck check{c["name"].get<std::string>(), c["passed"].get<bool>()};
        for (const char* figure : {"max_abs_difference", "max_relative_difference"})
            if (c.contains(figure) && c[figure].is_number()) {
                check.figure = figure;
                check.value = c[figure].get<double>();
                break;
            }
        if (c.contains("tolerance") && c["tolerance"].is_number())
            check.tolerance = c["tolerance"].get<double>();
        if (d.passed() && !check.passed)
            throw std::runtime_error("'device_check' record with verdict pass but check '" + check.name +
                                     "' failed");
        d.checks.push_back(std::move(check));
    }
    return d;
}

HeaderRecord headerRecord(const json& j) {
    HeaderRecord h;
    h.version = integer<int>(j, "version");
    h.workload = text(j, "workload");
    h.dataset = text(j, "dataset");
    h.ranks = integer<int>(j, "ranks");
    h.json = j.dump();
    // The steps the engine will train: the plan's, or what `epochs` came to (the engine alone knows).
    if (j.contains("hyperparameters") && j["hyperparameters"].is_object() &&
        j["hyperparameters"].contains("steps") && j["hyperparameters"]["steps"].is_number())
        h.steps = integral<std::int64_t>(j["hyperparameters"]["steps"].get<double>(), j, "steps");
    return h;
}

StepRecord stepRecord(const json& j) {
    StepRecord s;
    s.step = integer<std::int64_t>(j, "step");
    s.loss = number(j, "loss");
    s.samples_per_s = number(j, "samples_per_s");
    s.step_s = number(j, "step_s");
    s.data_s = optionalNumber(j, "data_s");
    s.forward_s = optionalNumber(j, "forward_s");
    s.backward_s = optionalNumber(j, "backward_s");
    s.allreduce_s = optionalNumber(j, "allreduce_s");
    s.optimizer_s = optionalNumber(j, "optimizer_s");
    s.elapsed_s = optionalNumber(j, "elapsed_s");
    s.comm_hidden_s = optionalNumber(j, "comm_hidden_s");
    s.tokens_per_s = optionalNumber(j, "tokens_per_s");
    s.model_flops_per_s = optionalNumber(j, "model_flops_per_s");
    if (j.contains("mfu") && j["mfu"].is_number()) s.mfu = j["mfu"].get<double>();
    return s;
}

// An evaluation: `metric` and `value`, or an older stream's bare `accuracy`.
EvalRecord evalRecord(const json& j) {
    EvalRecord e;
    e.step = integer<std::int64_t>(j, "step");
    e.metric = j.contains("metric") ? text(j, "metric") : "accuracy";
    e.value = j.contains("value") ? number(j, "value") : number(j, "accuracy");
    e.loss = optionalNumber(j, "loss");
    e.elapsed_s = optionalNumber(j, "elapsed_s");
    return e;
}

SummaryRecord summaryRecord(const json& j) {
    SummaryRecord s;
    s.steps = integer<std::int64_t>(j, "steps");
    s.wall_s = number(j, "wall_s");
    s.samples_per_s = optionalNumber(j, "samples_per_s"); // outside tools' summaries (MLLOG) have none
    s.final_loss = optionalNumber(j, "final_loss");
    if (j.contains("eval_metric")) s.eval_metric = text(j, "eval_metric");
    for (const char* key : {"final_value", "final_accuracy"})
        if (!s.final_eval && j.contains(key) && j[key].is_number()) s.final_eval = j[key].get<double>();
    const auto present = [&](const char* key) -> std::optional<double> {
        if (j.contains(key) && j[key].is_number()) return j[key].get<double>();
        return std::nullopt;
    };
    s.target = present("target");
    // Streams before the target was in the unit shown wrote an accuracy target as a fraction.
    if (s.target && s.eval_metric == "accuracy" && !j.contains("target_reached")) *s.target *= 100;
    s.time_to_target_s = present("time_to_accuracy_s");
    s.target_reached = j.contains("target_reached") && j["target_reached"].is_boolean()
                           ? j["target_reached"].get<bool>()
                           : s.time_to_target_s.has_value();
    s.best_eval = present("best_value");
    s.json = j.dump();
    return s;
}

CollectiveRecord collectiveRecord(const json& j) {
    CollectiveRecord c;
    c.collective = text(j, "collective");
    c.dtype = text(j, "dtype");
    if (j.contains("backend")) c.backend = text(j, "backend");
    if (j.contains("op")) c.op = text(j, "op");
    c.in_place = j.value("in_place", false);
    c.elements = integer<std::int64_t>(j, "elements");
    c.bytes = integer<std::int64_t>(j, "bytes");
    c.ranks = integer<int>(j, "ranks");
    c.repetitions = integral<int>(optionalNumber(j, "repetitions"), j, "repetitions");
    c.time_s = number(j, "time_s");
    c.algbw_gbps = optionalNumber(j, "algbw_gbps");
    c.busbw_gbps = optionalNumber(j, "busbw_gbps");
    c.correct = j.value("correct", false);
    return c;
}

// One step's time on every rank, and the part of it spent computing; the two arrays must match.
RankTimesRecord rankTimesRecord(const json& j) {
    RankTimesRecord r;
    r.step = integer<std::int64_t>(j, "step");
    r.step_s = numbers(j, "step_s");
    r.compute_s = numbers(j, "compute_s");
    if (r.compute_s.size() != r.step_s.size())
        throw std::runtime_error("'rank_times' record with " + std::to_string(r.step_s.size()) +
                                 " step times but " + std::to_string(r.compute_s.size()) + " compute times");
    return r;
}

// One step's gradient buckets: each one's size, and when its all-reduce started and ended; the arrays must
// match.
BucketTimesRecord bucketTimesRecord(const json& j) {
    BucketTimesRecord b;
    b.step = integer<std::int64_t>(j, "step");
    for (double bytes : numbers(j, "bytes")) {
        b.bytes.push_back(integral<std::int64_t>(bytes, j, "bytes"));
        if (b.bytes.back() < 0) throw std::runtime_error("'buckets' record with negative 'bytes'");
    }
    b.start_s = numbers(j, "start_s");
    b.end_s = numbers(j, "end_s");
    if (b.start_s.size() != b.bytes.size() || b.end_s.size() != b.bytes.size())
        throw std::runtime_error("'buckets' record with " + std::to_string(b.bytes.size()) + " sizes, " +
                                 std::to_string(b.start_s.size()) + " starts and " +
                                 std::to_string(b.end_s.size()) + " ends");
    return b;
}

// Returns false for record types this version does not know (a newer engine's): they are skipped, not broken.
bool toRecord(const json& j, MetricRecord& out) {
    const std::string type = text(j, "type");
    if (type == "header")
        out = headerRecord(j);
    else if (type == "step")
        out = stepRecord(j);
    else if (type == "eval")
        out = evalRecord(j);
    else if (type == "summary")
        out = summaryRecord(j);
    else if (type == "collective")
        out = collectiveRecord(j);
    else if (type == "rank_times")
        out = rankTimesRecord(j);
    else if (type == "buckets")
        out = bucketTimesRecord(j);
    else if (type == "device_check")
        out = deviceCheck(j);
    else if (type == "error")
        out = ErrorRecord{integer<int>(j, "rank"), text(j, "message")};
    else if (type.empty())
        throw std::runtime_error("record without a 'type'");
    else
        return false;
    return true;
}

} // namespace

void MetricStreamParser::readLine(std::string_view line, std::vector<MetricRecord>& out) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) return;
    std::string reason;
    try {
        const json j = json::parse(line);
        if (!j.is_object()) throw std::runtime_error("not a JSON object");
        MetricRecord record;
        if (toRecord(j, record)) out.push_back(std::move(record));
        return;
    } catch (const json::exception& e) {
        reason = std::string("not JSON: ") + e.what();
    } catch (const std::exception& e) {
        reason = e.what();
    }
    countBroken(line, std::move(reason));
}

} // namespace scalebench
