// Reads any trainer's log with a user-defined format: pattern matches as step, evaluation and header records.
#include "pattern_reader.h"

#include "llm_step_figures.h"
#include "printed_figures.h"
#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace scalebench {
namespace {

// The line without ANSI escape sequences (CSI "ESC [ ... final byte", and a lone ESC with its next byte), as
// a trainer prints its colours (torchtitan's "\x1b[31mstep: 10  \x1b[32mloss: ...").
std::string withoutAnsi(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] != '\x1b') {
            out += line[i];
            continue;
        }
        if (i + 1 < line.size() && line[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < line.size() && !(line[j] >= '@' && line[j] <= '~'))
                ++j;
            i = j; // the final byte, or the end of a cut sequence
        } else {
            ++i;
        }
    }
    return out;
}

// The values after the first (the first step includes start-up and compilation); the one value of a run of
// one.
std::vector<double> afterFirst(const std::vector<double>& values) {
    if (values.size() < 2) return values;
    return {values.begin() + 1, values.end()};
}

} // namespace

PatternReader::PatternReader(PatternFormat format, OutputContext context)
    : format_(std::move(format)), context_(std::move(context)), workload_(format_.name) {}

void PatternReader::readLine(std::string_view raw, std::vector<MetricRecord>& out) {
    const std::string line = withoutAnsi(raw);
    const auto marked = [&](const PatternLine& pattern) {
        return !pattern.marker.empty() && line.find(pattern.marker) != std::string::npos;
    };
    if (line.size() > kMaxMatchedLineBytes) {
        for (const PatternLine& pattern : format_.lines)
            if (marked(pattern)) {
                countBroken(raw, "holds '" + pattern.marker + "' but is " + std::to_string(line.size()) +
                                     " bytes long: lines over " + std::to_string(kMaxMatchedLineBytes) +
                                     " are not matched");
                return;
            }
        return;
    }
    const PatternLine* first_marked = nullptr;
    for (const PatternLine& pattern : format_.lines) {
        std::smatch match;
        if (!std::regex_search(line, match, pattern.regex)) {
            if (!first_marked && marked(pattern)) first_marked = &pattern;
            continue;
        }
        if (pattern.kind == PatternLineKind::Header) {
            readHeaderFields(pattern, match);
        } else if (pattern.kind == PatternLineKind::Step) {
            StepRecord record;
            if (std::string reason = readStep(pattern, match, record); !reason.empty()) {
                countBroken(raw, std::move(reason));
                return;
            }
            if (last_step_ && record.step <= *last_step_)
                return; // another rank's copy of a step already read
            if (!pattern.group(PatternField::Elapsed)) {
                // The steps since the previous line read: a trainer that logs every N steps prints N steps'
                // mean.
                const double steps_since = last_step_ ? static_cast<double>(record.step - *last_step_) : 1.0;
                record.elapsed_s = elapsed_s_ + record.step_s * steps_since;
                if (!std::isfinite(record.elapsed_s)) {
                    countBroken(raw, "step_time makes the run's elapsed time infinite");
                    return;
                }
            }
            readHeaderFields(pattern, match);
            writeHeader(out);
            elapsed_s_ = record.elapsed_s;
            last_step_ = record.step;
            if (record.step_s > 0) step_seconds_.push_back(record.step_s); // the lines that printed one
            if (record.samples_per_s > 0) samples_per_s_.push_back(record.samples_per_s);
            if (pattern.group(PatternField::TokensPerS)) tokens_per_s_.push_back(record.tokens_per_s);
            if (pattern.group(PatternField::Tflops)) model_flops_per_s_.push_back(record.model_flops_per_s);
            last_ = record;
            out.push_back(std::move(record));
        } else {
            EvalRecord record;
            if (std::string reason = readEval(pattern, match, record); !reason.empty()) {
                countBroken(raw, std::move(reason));
                return;
            }
            if (last_eval_step_ && record.step <= *last_eval_step_) return; // another rank's copy
            readHeaderFields(pattern, match);
            writeHeader(out);
            last_eval_step_ = record.step;
            record.elapsed_s = elapsed_s_;
            last_eval_ = record;
            out.push_back(std::move(record));
        }
        return;
    }
    if (first_marked)
        countBroken(raw, "holds '" + first_marked->marker +
                             "' but does not match the pattern of the [[line]] at " + format_.source + ":" +
                             std::to_string(first_marked->definition_line) +
                             ": a cut line, or another layout");
}

void PatternReader::readEnd(std::vector<MetricRecord>& out) {
    if (last_step_) out.push_back(summary());
}

namespace {

// A group's text, without blanks at either end and without the format's thousands separator; nullopt where
// the group took no part in the match (an optional group).
std::optional<std::string> groupText(const PatternLine& pattern, const std::smatch& match, PatternField field,
                                     const std::string& separator) {
    const auto group = pattern.group(field);
    if (!group || !match[*group].matched) return std::nullopt;
    std::string text(trimmed(match[*group].str()));
    if (!separator.empty()) text.erase(std::remove(text.begin(), text.end(), separator[0]), text.end());
    return text;
}

} // namespace

std::string PatternReader::readStep(const PatternLine& pattern, const std::smatch& match,
                                    StepRecord& record) {
    const std::string& separator = format_.thousands_separator;
    const auto text = [&](PatternField field) { return groupText(pattern, match, field, separator); };
    // A figure the line gives: finite, else why not; 0 where the group did not match.
    std::string reason;
    const auto figure = [&](PatternField field, double& value) {
        const auto printed = text(field);
        if (!printed || !reason.empty()) return;
        if (!number(*printed, value))
            reason = patternFieldName(field) + " " + shown(*printed) + " is not a finite number";
    };
    const auto step = text(PatternField::Step);
    if (!step || !wholeNumber(*step, record.step) || record.step < 0)
        return "step " + shown(step.value_or("")) + " is not a step number (0 to 2^63-1)";

    double step_time = 0;
    double throughput = 0;
    double batch = 0;
    double tokens = 0;
    double tflops = 0;
    double mfu = 0;
    double elapsed = 0;
    figure(PatternField::Loss, record.loss);
    figure(PatternField::StepTime, step_time);
    figure(PatternField::Throughput, throughput);
    figure(PatternField::Batch, batch);
    figure(PatternField::TokensPerS, tokens);
    figure(PatternField::Tflops, tflops);
    figure(PatternField::Mfu, mfu);
    figure(PatternField::Elapsed, elapsed);
    if (!reason.empty()) return reason;

    const PatternUnits& units = format_.units;
    const bool per_device = (pattern.group(PatternField::Throughput) && units.throughput_per_device) ||
                            (pattern.group(PatternField::TokensPerS) && units.tokens_per_device) ||
                            (pattern.group(PatternField::Tflops) && units.tflops_per_device);
    if (per_device && context_.ranks < 1)
        return "the launcher's device count " + std::to_string(context_.ranks) + " is not positive";
    const double devices = context_.ranks;
    // Where the line printed one: a pattern's step_time group may go unmatched in an alternation of the
    // pattern.
    if (const auto printed = text(PatternField::StepTime)) {
        record.step_s = step_time * units.step_time_s;
        if (!(record.step_s > 0)) return "step_time " + shown(*printed) + " is not positive";
    }
    record.samples_per_s = throughput * (units.throughput_per_device ? devices : 1);
    if (!pattern.group(PatternField::Throughput) && record.step_s > 0)
        record.samples_per_s = batch / record.step_s;
    record.tokens_per_s = tokens * (units.tokens_per_device ? devices : 1);
    record.model_flops_per_s = tflops * 1e12 * (units.tflops_per_device ? devices : 1);
    if (pattern.group(PatternField::Mfu)) record.mfu = mfu * units.mfu_fraction;
    if (pattern.group(PatternField::Elapsed)) record.elapsed_s = elapsed * units.elapsed_s;
    for (const double value : {record.step_s, record.samples_per_s, record.tokens_per_s,
                               record.model_flops_per_s, record.mfu.value_or(0), record.elapsed_s})
        if (!std::isfinite(value))
            return "a figure in the run's units (x " + std::to_string(context_.ranks) +
                   " devices, or converted to seconds) is not finite";
    return {};
}

std::string PatternReader::readEval(const PatternLine& pattern, const std::smatch& match,
                                    EvalRecord& record) {
    const std::string& separator = format_.thousands_separator;
    const auto step = groupText(pattern, match, PatternField::Step, separator);
    if (!step || !wholeNumber(*step, record.step) || record.step < 0)
        return "step " + shown(step.value_or("")) + " is not a step number (0 to 2^63-1)";
    record.metric = pattern.eval_metric;
    for (const PatternField field : {PatternField::EvalLoss, PatternField::Eval}) {
        const auto printed = groupText(pattern, match, field, separator);
        if (!printed) continue;
        double value = 0;
        if (!number(*printed, value))
            return patternFieldName(field) + " " + shown(*printed) + " is not a finite number";
        if (field == PatternField::EvalLoss) record.loss = value;
        record.value = value; // eval, read last, wins where the line gives both
    }
    return {};
}

void PatternReader::readHeaderFields(const PatternLine& pattern, const std::smatch& match) {
    if (header_written_) return;
    if (const auto workload = groupText(pattern, match, PatternField::Workload, "");
        workload && !workload->empty())
        workload_ = workload->substr(0, 128);
    if (const auto steps = groupText(pattern, match, PatternField::Steps, format_.thousands_separator)) {
        std::int64_t value = 0;
        if (wholeNumber(*steps, value) && value > 0) steps_ = value;
    }
}

void PatternReader::writeHeader(std::vector<MetricRecord>& out) {
    if (header_written_) return;
    header_written_ = true;
    HeaderRecord h;
    h.version = kMetricStreamVersion;
    h.workload = workload_;
    h.ranks = context_.ranks;
    h.steps = steps_;
    const nlohmann::ordered_json json = {
        {"type", "header"},       {"version", h.version}, {"workload", h.workload}, {"tool", format_.name},
        {"format", format_.name}, {"ranks", h.ranks},     {"devices", h.ranks},     {"steps", h.steps}};
    h.json = json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out.push_back(std::move(h));
}

// The medians over the steps after the first of each figure the definition reads, beside the last step's.
SummaryRecord PatternReader::summary() const {
    SummaryRecord s;
    s.steps = last_.step;
    s.wall_s = elapsed_s_;
    s.samples_per_s = median(afterFirst(samples_per_s_));
    s.final_loss = last_.loss;
    if (last_eval_) {
        s.eval_metric = last_eval_->metric;
        s.final_eval = last_eval_->value;
    }
    nlohmann::ordered_json json = {{"type", "summary"},
                                   {"tool", format_.name},
                                   {"format", format_.name},
                                   {"convention", describeConvention(StepTimeConvention::SteadyStateMedian)},
                                   {"steps", s.steps},
                                   {"devices", context_.ranks},
                                   {"median_over", "step lines after the first"}};
    const auto put = [&](const char* median_key, const char* last_key, const std::vector<double>& values,
                         double last) {
        if (values.empty()) return;
        json[median_key] = median(afterFirst(values));
        json[last_key] = last;
    };
    put("median_seconds_per_step", "last_seconds_per_step", step_seconds_, last_.step_s);
    put("median_samples_per_s", "last_samples_per_s", samples_per_s_, last_.samples_per_s);
    put("median_tokens_per_s", "last_tokens_per_s", tokens_per_s_, last_.tokens_per_s);
    put("median_model_flops_per_s", "last_model_flops_per_s", model_flops_per_s_, last_.model_flops_per_s);
    if (!tokens_per_s_.empty()) json["days_to_1T_tokens"] = daysToTrain(median(afterFirst(tokens_per_s_)));
    s.json = json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return s;
}

std::unique_ptr<OutputReader> makePatternReader(const PatternFormat& format, OutputContext context) {
    return std::make_unique<PatternReader>(format, std::move(context));
}

} // namespace scalebench
