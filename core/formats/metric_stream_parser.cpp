// Incremental, tolerant parser of the JSON-lines metric stream.
#include "metric_stream_parser.h"

#include "metric_stream.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace scalebench {
namespace {

using nlohmann::json;

// The record's type, quoted, for a broken record's reason: 'step'.
std::string quotedType(const json& j) {
    return "'" + j.value(metric_stream::kType, "") + "'";
}

double number(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        throw std::runtime_error(quotedType(j) + " record without number '" + key + "'");
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
        throw std::runtime_error(quotedType(j) + " record with '" + key + "' " + json(value).dump() +
                                 ", out of range");
    return static_cast<Int>(value);
}

template <typename Int> Int integer(const json& j, const char* key) {
    return integral<Int>(number(j, key), j, key);
}

std::vector<double> numbers(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_array())
        throw std::runtime_error(quotedType(j) + " record without array '" + key + "'");
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
    namespace field = metric_stream::device_check;
    namespace check_field = field::check;
    const std::string record = quotedType(j) + " record";
    DeviceCheckRecord d;
    d.workload = text(j, field::kWorkload);
    d.device = text(j, field::kDevice);
    d.steps = integer<std::int64_t>(j, field::kSteps);
    d.verdict = text(j, field::kVerdict);
    if (d.verdict != field::kPass && d.verdict != field::kFail)
        throw std::runtime_error(record + " with " + field::kVerdict + " '" + d.verdict + "', not " +
                                 field::kPass + " or " + field::kFail);
    d.ranks_passed = d.passed();
    if (const auto ranks = j.find(field::kRanksPassed); ranks != j.end()) {
        if (!ranks->is_boolean())
            throw std::runtime_error(record + " whose '" + field::kRanksPassed + "' is not true or false");
        d.ranks_passed = ranks->get<bool>();
    }
    if (d.passed() && !d.ranks_passed)
        throw std::runtime_error(record + " with " + field::kVerdict + " " + field::kPass + " but " +
                                 field::kRanksPassed + " false");
    const auto checks = j.find(field::kChecks);
    if (checks == j.end() || !checks->is_array())
        throw std::runtime_error(record + " without array '" + field::kChecks + "'");
    for (const json& c : *checks) {
        if (!c.is_object() || !c.contains(check_field::kName) || !c[check_field::kName].is_string() ||
            !c.contains(check_field::kPassed) || !c[check_field::kPassed].is_boolean())
            throw std::runtime_error(record + " with a check that is not {\"" + check_field::kName +
                                     "\": text, \"" + check_field::kPassed + "\": true or false, ...}");
        DeviceCheck check{c[check_field::kName].get<std::string>(), c[check_field::kPassed].get<bool>()};
        for (const char* figure : {check_field::kMaxAbsDifference, check_field::kMaxRelativeDifference})
            if (c.contains(figure) && c[figure].is_number()) {
                check.figure = figure;
                check.value = c[figure].get<double>();
                break;
            }
        if (c.contains(check_field::kTolerance) && c[check_field::kTolerance].is_number())
            check.tolerance = c[check_field::kTolerance].get<double>();
        if (d.passed() && !check.passed)
            throw std::runtime_error(record + " with " + field::kVerdict + " " + field::kPass +
                                     " but check '" + check.name + "' failed");
        d.checks.push_back(std::move(check));
    }
    return d;
}

HeaderRecord headerRecord(const json& j) {
    namespace field = metric_stream::header;
    HeaderRecord h;
    h.version = integer<int>(j, field::kVersion);
    h.workload = text(j, field::kWorkload);
    h.dataset = text(j, field::kDataset);
    h.ranks = integer<int>(j, field::kRanks);
    h.json = j.dump();
    // The steps the engine will train: the plan's, or what `epochs` came to (the engine alone knows).
    const char* steps = field::hyperparameters::kSteps;
    if (const auto hp = j.find(field::kHyperparameters);
        hp != j.end() && hp->is_object() && hp->contains(steps) && (*hp)[steps].is_number())
        h.steps = integral<std::int64_t>((*hp)[steps].get<double>(), j, steps);
    return h;
}

StepRecord stepRecord(const json& j) {
    namespace field = metric_stream::step;
    StepRecord s;
    s.step = integer<std::int64_t>(j, field::kStep);
    s.loss = number(j, field::kLoss);
    s.samples_per_s = number(j, field::kSamplesPerS);
    s.step_s = number(j, field::kStepS);
    s.data_s = optionalNumber(j, field::kDataS);
    s.forward_s = optionalNumber(j, field::kForwardS);
    s.backward_s = optionalNumber(j, field::kBackwardS);
    s.allreduce_s = optionalNumber(j, field::kAllreduceS);
    s.optimizer_s = optionalNumber(j, field::kOptimizerS);
    s.elapsed_s = optionalNumber(j, field::kElapsedS);
    s.comm_hidden_s = optionalNumber(j, field::kCommHiddenS);
    s.tokens_per_s = optionalNumber(j, field::kTokensPerS);
    s.model_flops_per_s = optionalNumber(j, field::kModelFlopsPerS);
    if (j.contains(field::kMfu) && j[field::kMfu].is_number()) s.mfu = j[field::kMfu].get<double>();
    return s;
}

// An evaluation: `metric` and `value`, or an older stream's bare `accuracy`.
EvalRecord evalRecord(const json& j) {
    namespace field = metric_stream::eval;
    EvalRecord e;
    e.step = integer<std::int64_t>(j, field::kStep);
    e.metric = j.contains(field::kMetric) ? text(j, field::kMetric) : metric_stream::eval_metric::kAccuracy;
    e.value = j.contains(field::kValue) ? number(j, field::kValue) : number(j, field::kAccuracy);
    e.loss = optionalNumber(j, field::kLoss);
    e.elapsed_s = optionalNumber(j, field::kElapsedS);
    return e;
}

SummaryRecord summaryRecord(const json& j) {
    namespace field = metric_stream::summary;
    SummaryRecord s;
    s.steps = integer<std::int64_t>(j, field::kSteps);
    s.wall_s = number(j, field::kWallS);
    s.samples_per_s = optionalNumber(j, field::kSamplesPerS); // outside tools' summaries (MLLOG) have none
    s.final_loss = optionalNumber(j, field::kFinalLoss);
    if (j.contains(field::kEvalMetric)) s.eval_metric = text(j, field::kEvalMetric);
    for (const char* key : {field::kFinalValue, field::kFinalAccuracy})
        if (!s.final_eval && j.contains(key) && j[key].is_number()) s.final_eval = j[key].get<double>();
    const auto present = [&](const char* key) -> std::optional<double> {
        if (j.contains(key) && j[key].is_number()) return j[key].get<double>();
        return std::nullopt;
    };
    s.target = present(field::kTarget);
    // Streams before the target was in the unit shown wrote an accuracy target as a fraction.
    if (s.target && s.eval_metric == metric_stream::eval_metric::kAccuracy &&
        !j.contains(field::kTargetReached))
        *s.target *= 100;
    s.time_to_target_s = present(field::kTimeToAccuracyS);
    s.target_reached = j.contains(field::kTargetReached) && j[field::kTargetReached].is_boolean()
                           ? j[field::kTargetReached].get<bool>()
                           : s.time_to_target_s.has_value();
    s.best_eval = present(field::kBestValue);
    s.json = j.dump();
    return s;
}

CollectiveRecord collectiveRecord(const json& j) {
    namespace field = metric_stream::collective;
    CollectiveRecord c;
    c.collective = text(j, field::kCollective);
    c.dtype = text(j, field::kDtype);
    if (j.contains(field::kBackend)) c.backend = text(j, field::kBackend);
    if (j.contains(field::kOp)) c.op = text(j, field::kOp);
    c.in_place = j.value(field::kInPlace, false);
    c.elements = integer<std::int64_t>(j, field::kElements);
    c.bytes = integer<std::int64_t>(j, field::kBytes);
    c.ranks = integer<int>(j, field::kRanks);
    c.repetitions = integral<int>(optionalNumber(j, field::kRepetitions), j, field::kRepetitions);
    c.time_s = number(j, field::kTimeS);
    c.algbw_gbps = optionalNumber(j, field::kAlgbwGbps);
    c.busbw_gbps = optionalNumber(j, field::kBusbwGbps);
    c.correct = j.value(field::kCorrect, false);
    return c;
}

// One step's time on every rank, and the part of it spent computing; the two arrays must match.
RankTimesRecord rankTimesRecord(const json& j) {
    namespace field = metric_stream::rank_times;
    RankTimesRecord r;
    r.step = integer<std::int64_t>(j, field::kStep);
    r.step_s = numbers(j, field::kStepS);
    r.compute_s = numbers(j, field::kComputeS);
    if (r.compute_s.size() != r.step_s.size())
        throw std::runtime_error(quotedType(j) + " record with " + std::to_string(r.step_s.size()) +
                                 " step times but " + std::to_string(r.compute_s.size()) + " compute times");
    return r;
}

// One step's gradient buckets: each one's size, and when its all-reduce started and ended; the arrays must
// match.
BucketTimesRecord bucketTimesRecord(const json& j) {
    namespace field = metric_stream::buckets;
    BucketTimesRecord b;
    b.step = integer<std::int64_t>(j, field::kStep);
    for (double bytes : numbers(j, field::kBytes)) {
        b.bytes.push_back(integral<std::int64_t>(bytes, j, field::kBytes));
        if (b.bytes.back() < 0)
            throw std::runtime_error(quotedType(j) + " record with negative '" + field::kBytes + "'");
    }
    b.start_s = numbers(j, field::kStartS);
    b.end_s = numbers(j, field::kEndS);
    if (b.start_s.size() != b.bytes.size() || b.end_s.size() != b.bytes.size())
        throw std::runtime_error(quotedType(j) + " record with " + std::to_string(b.bytes.size()) +
                                 " sizes, " + std::to_string(b.start_s.size()) + " starts and " +
                                 std::to_string(b.end_s.size()) + " ends");
    return b;
}

// Returns false for record types this version does not know (a newer engine's): they are skipped, not broken.
bool toRecord(const json& j, MetricRecord& out) {
    namespace ms = metric_stream;
    const std::string type = text(j, ms::kType);
    if (type == ms::header::kRecord)
        out = headerRecord(j);
    else if (type == ms::step::kRecord)
        out = stepRecord(j);
    else if (type == ms::eval::kRecord)
        out = evalRecord(j);
    else if (type == ms::summary::kRecord)
        out = summaryRecord(j);
    else if (type == ms::collective::kRecord)
        out = collectiveRecord(j);
    else if (type == ms::rank_times::kRecord)
        out = rankTimesRecord(j);
    else if (type == ms::buckets::kRecord)
        out = bucketTimesRecord(j);
    else if (type == ms::device_check::kRecord)
        out = deviceCheck(j);
    else if (type == ms::error::kRecord)
        out = ErrorRecord{integer<int>(j, ms::error::kRank), text(j, ms::error::kMessage)};
    else if (type.empty())
        throw std::runtime_error(std::string("record without a '") + ms::kType + "'");
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
