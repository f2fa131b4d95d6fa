// Reads MaxText's console output (its "completed step:" lines) as the step records of the metric stream.
#include "maxtext_reader.h"

#include "llm_step_figures.h"
#include "printed_figures.h"
#include "statistics.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace scalebench {
namespace {

constexpr std::string_view kStepMarker = "completed step:";

// The value after `key` on a line MaxText printed before training ("Config param max_target_length: 2048"),
// up to the next blank or comma; "" where the line has no such key.
std::string_view valueAfter(std::string_view line, std::string_view key) {
    const auto at = line.find(key);
    if (at == std::string_view::npos) return {};
    const std::string_view rest = trimmed(line.substr(at + key.size()));
    return rest.substr(0, rest.find_first_of(" \t,"));
}

// The reason a line that may have been cut short is broken: the output's unterminated last line ends
// inside it. Any other line is broken for `reason` alone.
std::string cutOr(bool may_be_cut, const std::string& reason) {
    return may_be_cut ? reason + ": the output ends inside this line (it was cut)" : reason;
}

} // namespace

// A figure of the step line: a finite number, with any decimals. On the output's unterminated last line it
// has the decimals the same field had on the lines before (MaxText prints each field alike, "{:.3f}"): fewer,
// and the output ended inside it.
std::string MaxTextReader::figure(std::string_view name, std::string_view text, double& value) {
    if (!number(text, value)) return std::string(name) + " " + shown(text) + " is not a finite number";
    const auto known = field_decimals_.find(name);
    if (!lineIsUnterminated())
        field_decimals_.insert_or_assign(std::string(name), decimals(text));
    else if (known != field_decimals_.end() && decimals(text) != known->second)
        return cutOr(true, std::string(name) + " " + shown(text) + " has not the " +
                               std::to_string(known->second) + " decimals of the lines before");
    return {};
}

MaxTextReader::MaxTextReader(OutputContext context) : context_(std::move(context)) {}

int MaxTextReader::devices() const {
    if (context_.ranks > 0 || !printed_devices_ || *printed_devices_ > std::numeric_limits<int>::max())
        return context_.ranks;
    return static_cast<int>(*printed_devices_);
}

// MaxText's console before and during training (metric_logger.py, pyconfig.py, train.py):
//
//   Config param max_target_length: 4096
//   Config param per_device_batch_size: 2.0
//   Num_devices: 64, shape (1, 64, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
//   number parameters: 68.977 billion
//   completed step: 49, seconds: 7.908, TFLOP/s/device: 460.480, Tokens/s/device: 1035.970, ...
void MaxTextReader::readLine(std::string_view line, std::vector<MetricRecord>& out) {
    const auto marker = line.find(kStepMarker);
    if (marker == std::string_view::npos) {
        readConfig(line);
        return;
    }
    StepRecord record;
    double tflops_per_device = 0;
    double tokens_per_s_per_device = 0;
    if (std::string reason = readStep(line.substr(marker + kStepMarker.size()), record, tflops_per_device,
                                      tokens_per_s_per_device);
        !reason.empty()) {
        countBroken(line, std::move(reason));
        return;
    }
    if (last_step_ && record.step <= *last_step_) return; // another host's copy of a step already read
    elapsed_s_ += record.step_s;
    record.elapsed_s = elapsed_s_;
    if (!header_written_) out.push_back(header());
    header_written_ = true;
    last_step_ = record.step;
    step_seconds_.push_back(record.step_s);
    step_tokens_per_s_.push_back(record.tokens_per_s);
    last_ = record;
    last_tflops_per_device_ = tflops_per_device;
    last_tokens_per_s_per_device_ = tokens_per_s_per_device;
    out.push_back(std::move(record));
}

void MaxTextReader::readEnd(std::vector<MetricRecord>& out) {
    if (last_step_) out.push_back(summary());
}

// The few settings MaxText prints that the records use or the header keeps; other lines are not read.
void MaxTextReader::readConfig(std::string_view line) {
    std::int64_t whole = 0;
    double value = 0;
    if (const auto text = valueAfter(line, "Config param max_target_length:"); !text.empty()) {
        if (wholeNumber(text, whole) && whole > 0) max_target_length_ = whole;
    } else if (const auto batch = valueAfter(line, "Config param per_device_batch_size:"); !batch.empty()) {
        if (number(batch, value) && value > 0) per_device_batch_size_ = value;
    } else if (const auto devices = valueAfter(line, "Num_devices:"); !devices.empty()) {
        if (wholeNumber(devices, whole) && whole > 0) printed_devices_ = whole;
    } else if (const auto params = valueAfter(line, "number parameters:"); !params.empty()) {
        if (number(params, value) && value >= 0 && line.find("billion") != std::string_view::npos)
            parameters_billion_ = value;
    }
}

// " 49, seconds: 7.908, TFLOP/s/device: 460.480, Tokens/s/device: 1035.970, total_weights: 524288, loss:
// 0.000"
std::string MaxTextReader::readStep(std::string_view fields, StepRecord& record, double& tflops_per_device,
                                    double& tokens_per_s_per_device) {
    if (devices() < 1)
        return "no device count: MaxText printed no Num_devices line before its steps, and none was given "
               "(import --ranks N)";
    const double devices = this->devices();
    bool has_seconds = false;
    bool has_tflops = false;
    bool has_loss = false;
    bool first = true;
    while (true) {
        const auto comma = fields.find(',');
        const std::string_view field = trimmed(fields.substr(0, comma));
        if (first) {
            if (!wholeNumber(field, record.step) || record.step < 0)
                return "step " + shown(field) + " is not a step number (0 to 2^63-1)";
            first = false;
        } else {
            const auto colon = field.find(':');
            if (field.empty() && comma == std::string_view::npos)
                return cutOr(lineIsUnterminated(), "the line ends after a comma, before its loss field");
            if (colon == std::string_view::npos)
                return cutOr(lineIsUnterminated(), "field " + shown(field) + " has no value");
            const std::string_view name = trimmed(field.substr(0, colon));
            const std::string_view text = trimmed(field.substr(colon + 1));
            std::string reason;
            if (name == "seconds") {
                reason = figure(name, text, record.step_s);
                if (reason.empty() && record.step_s <= 0)
                    reason = "seconds " + shown(text) + " is not positive";
                has_seconds = true;
            } else if (name == "TFLOP/s/device" || name == "TFLOP/s") {
                reason = figure(name, text, tflops_per_device);
                has_tflops = true;
            } else if (name == "Tokens/s/device") {
                reason = figure(name, text, tokens_per_s_per_device);
            } else if (name == "loss") {
                reason = figure(name, text, record.loss);
                has_loss = true;
            }
            if (!reason.empty()) return reason;
        }
        if (comma == std::string_view::npos) break;
        fields.remove_prefix(comma + 1);
    }
    if (!has_seconds) return "no seconds field";
    if (!has_tflops) return "no TFLOP/s/device field";
    if (!has_loss) return cutOr(lineIsUnterminated(), "no loss field");
    record.tokens_per_s = tokens_per_s_per_device * devices;
    record.model_flops_per_s = tflops_per_device * 1e12 * devices;
    if (context_.peak_tflops > 0) record.mfu = tflops_per_device / context_.peak_tflops;
    if (max_target_length_)
        record.samples_per_s = record.tokens_per_s / static_cast<double>(*max_target_length_);
    if (!std::isfinite(record.tokens_per_s) || !std::isfinite(record.model_flops_per_s))
        return "Tokens/s/device or TFLOP/s/device x " + std::to_string(this->devices()) +
               " devices is not finite";
    if (!std::isfinite(elapsed_s_ + record.step_s))
        return "seconds " + std::to_string(record.step_s) + " make the run's elapsed time infinite";
    return {};
}

HeaderRecord MaxTextReader::header() const {
    HeaderRecord h;
    h.version = kMetricStreamVersion;
    h.workload = "maxtext";
    h.dataset = "";
    h.ranks = devices();
    h.steps = 0; // MaxText's "Config param steps:" is not read: the header's steps stay unknown
    nlohmann::ordered_json json = {{"type", "header"},  {"version", h.version}, {"workload", h.workload},
                                   {"tool", "maxtext"}, {"ranks", h.ranks},     {"devices", h.ranks}};
    if (printed_devices_) json["maxtext_num_devices"] = *printed_devices_;
    if (per_device_batch_size_) json["per_device_batch_size"] = *per_device_batch_size_;
    if (max_target_length_) json["max_target_length"] = *max_target_length_;
    if (parameters_billion_) json["number_parameters_billion"] = *parameters_billion_;
    h.json = json.dump();
    return h;
}

// MaxText's Llama-2 70B recipe's figures (seed 003) from the last step (the recipe's `grep 'completed step:'
// ... | tail -1`), beside the medians over the steps after the first (the first step includes compilation).
SummaryRecord MaxTextReader::summary() const {
    SummaryRecord s;
    s.steps = last_.step;
    s.wall_s = elapsed_s_;
    s.samples_per_s = last_.samples_per_s;
    s.final_loss = last_.loss;
    const std::vector<double> later_seconds(step_seconds_.begin() + 1, step_seconds_.end());
    const std::vector<double> later_tokens(step_tokens_per_s_.begin() + 1, step_tokens_per_s_.end());
    nlohmann::ordered_json json = {{"type", "summary"},
                                   {"tool", "maxtext"},
                                   {"convention", describeConvention(StepTimeConvention::LastStep)},
                                   {"steps", s.steps},
                                   {"devices", devices()},
                                   {"seconds_per_step", last_.step_s},
                                   {"tokens_per_s_per_device", last_tokens_per_s_per_device_},
                                   {"tflops_per_device", last_tflops_per_device_},
                                   {"tokens_per_s", last_.tokens_per_s},
                                   {"days_to_1T_tokens", daysToTrain(last_.tokens_per_s)},
                                   {"peak_tflops_per_device", context_.peak_tflops},
                                   {"median_over", "steps after the first"},
                                   {"median_steps", later_seconds.size()},
                                   {"median_seconds_per_step", median(later_seconds)},
                                   {"median_tokens_per_s", median(later_tokens)}};
    // The recipe's own arithmetic (seq_len x global batch / step time), where MaxText printed both settings
    // and the global batch is whole.
    if (max_target_length_ && per_device_batch_size_ &&
        *max_target_length_ <= std::numeric_limits<int>::max()) {
        const double global_batch = *per_device_batch_size_ * devices();
        if (global_batch == std::floor(global_batch) && global_batch <= std::numeric_limits<int>::max()) {
            const LlmStepFigures recipe = llmStepFigures(last_.step_s, static_cast<int>(*max_target_length_),
                                                         static_cast<int>(global_batch), devices(), 0, 0);
            if (std::isfinite(recipe.tokens_per_s)) {
                json["recipe_global_batch"] = static_cast<int>(global_batch);
                json["recipe_tokens_per_s"] = recipe.tokens_per_s;
                json["recipe_days_to_1T_tokens"] = recipe.days_to_train;
            }
        }
    }
    // MFU from MaxText's own model TFLOP/s and the peak the user gave (the recipe, seed 003: 989 for an H100
    // in bf16); the recipe's 46.54% comes from its rounded 1.82E+15 FLOPs a sample instead.
    if (context_.peak_tflops > 0) json["mfu"] = last_tflops_per_device_ / context_.peak_tflops;
    s.json = json.dump();
    return s;
}

} // namespace scalebench
