// Reads MLPerf Training's ":::MLLOG {json}" log lines as header, eval and summary records.
#include "mllog_reader.h"

#include "metric_stream.h"

#include <array>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace scalebench {
namespace {

using nlohmann::json;

// mlperf-logging 4.1.68, compliance_checker/mlp_parser/ruleset_410.py: TOKEN = ':::MLLOG ', and
// strip_and_dedup() keeps a line from the token's last occurrence (re.sub(".*" + TOKEN, TOKEN, line)): what
// stands before it (a rank tag, a logging prefix) is dropped.
constexpr std::string_view kToken = ":::MLLOG";

// The quality target of each benchmark, from mlperf-logging 4.1.68's compliance rules
// (compliance_checker/training_4.1.0/closed_<benchmark>.yaml, eval_accuracy's ATLEAST_ONE_CHECK; resnet from
// training_3.1.0/closed_resnet.yaml; llama31_8b, which the engine's llama claims, from
// training_6.1.0/closed_llama31_8b.yaml; llama31_405b from training_5.0.0; stable_diffusion's aggregated
// FID <= 90 and CLIP >= 0.15, of which FID is the run's target here; MLPerf HPC 3.0's eval_error for oc20 and
// cosmoflow). eval_accuracy is a fraction to reach for most; gpt3 and the Llama 3.1 models log log
// perplexity, llama2_70b_lora the eval loss, all to go below; HPC logs eval_error to go below.
struct MlperfQuality {
    std::string_view benchmark;
    std::string_view metric; // scalebench's EvalRecord metric
    double target;           // as logged
    bool lower_is_better;
};
constexpr std::array<MlperfQuality, 12> kQualities{{
    {"bert", "accuracy", 0.720, false},         // masked LM accuracy
    {"resnet", "accuracy", 0.759, false},       // top-1
    {"ssd", "accuracy", 0.340, false},          // mAP
    {"gnn", "accuracy", 0.72, false},           // node classification accuracy
    {"dlrm_dcnv2", "accuracy", 0.80275, false}, // AUC
    {"gpt3", "log_perplexity", 2.69, true},
    {"llama2_70b_lora", "loss", 0.925, true}, // eval loss
    {"llama31_8b", "log_perplexity", 3.3, true},
    {"llama31_405b", "log_perplexity", 5.6, true},
    {"stable_diffusion", "fid", 90, true}, // and CLIP >= 0.15, read as its own evaluations
    {"oc20", "error", 0.036, true},        // MLPerf HPC's eval_error
    {"cosmoflow", "error", 0.124, true},
}};

const MlperfQuality* qualityOf(std::string_view benchmark) {
    for (const auto& q : kQualities)
        if (q.benchmark == benchmark) return &q;
    return nullptr;
}

// A JSON number, or a string Python's float() reads as one (the result summarizer's float(m['time_ms'])).
std::optional<double> numberIn(const json& j) {
    if (j.is_number()) return j.get<double>();
    if (!j.is_string()) return std::nullopt;
    const auto& s = j.get_ref<const std::string&>();
    double value = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (error != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return value;
}

// metadata[key] as a count (epoch_num, samples_count): a whole number an int64 holds, else none.
std::optional<std::int64_t> countIn(const json& metadata, const char* key) {
    if (!metadata.is_object()) return std::nullopt;
    const auto it = metadata.find(key);
    if (it == metadata.end()) return std::nullopt;
    if (it->is_number_unsigned()) {
        const auto v = it->get<std::uint64_t>();
        if (v > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
        return static_cast<std::int64_t>(v);
    }
    if (it->is_number_integer()) return it->get<std::int64_t>();
    if (it->is_number_float()) {
        const double v = it->get<double>();
        if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) >= 9.2e18) return std::nullopt;
        return static_cast<std::int64_t>(v);
    }
    return std::nullopt;
}

std::string textIn(const json& metadata, const char* key) {
    if (!metadata.is_object()) return "";
    const auto it = metadata.find(key);
    return it != metadata.end() && it->is_string() ? it->get<std::string>() : "";
}

bool startsWith(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

json objectOf(const std::map<std::string, std::string>& entries) {
    json out = json::object();
    for (const auto& [key, value] : entries)
        out[key] = json::parse(value);
    return out;
}

} // namespace

MllogReader::MllogReader(OutputContext context) : context_(std::move(context)) {}

// mlperf-logging's mllog writes, one event a line (here after Open MPI's rank tag):
//
//   [1,0]<stdout>::::MLLOG {"namespace": "", "time_ms": 1700000061240, "event_type": "INTERVAL_START",
//   "key": "run_start", "value": null, "metadata": {"file": "train.py", "lineno": 49}}
void MllogReader::readLine(std::string_view line, std::vector<MetricRecord>& out) {
    const auto at = line.rfind(kToken);
    if (at == std::string_view::npos) return;
    json entry;
    try {
        entry = json::parse(line.substr(at + kToken.size()));
    } catch (const json::exception& e) {
        countBroken(line, std::string("an MLLOG line whose JSON cannot be read: ") + e.what());
        return;
    }
    if (!entry.is_object()) return countBroken(line, "an MLLOG line whose JSON is not an object");
    const auto key_it = entry.find("key");
    if (key_it == entry.end() || !key_it->is_string())
        return countBroken(line, "an MLLOG line without a \"key\" string");
    const auto time_it = entry.find("time_ms");
    const std::optional<double> time_ms = time_it == entry.end() ? std::nullopt : numberIn(*time_it);
    if (!time_ms || !std::isfinite(*time_ms))
        return countBroken(line, "an MLLOG line whose \"time_ms\" is not a finite number");
    if (run_start_ms_ && !std::isfinite(*time_ms - *run_start_ms_))
        return countBroken(line, "an MLLOG line whose \"time_ms\" is too far from run_start's");
    const std::string& key = key_it->get_ref<const std::string&>();
    const std::string event_type = entry.value("event_type", json()).is_string()
                                       ? entry["event_type"].get<std::string>()
                                       : std::string("POINT_IN_TIME");
    const json value = entry.contains("value") ? entry["value"] : json();
    const json metadata = entry.contains("metadata") ? entry["metadata"] : json::object();

    if (key == "run_start") {
        if (run_start_ms_) return; // another rank's, or a second run_start: the first counts
        run_start_ms_ = *time_ms;
        writeHeader(out);
    } else if (key == "run_stop") {
        if (stopped_) return;
        if (!run_start_ms_) return countBroken(line, "run_stop before any run_start");
        readRunStop(*time_ms, textIn(metadata, "status"), countIn(metadata, "epoch_num"),
                    countIn(metadata, "samples_count"), out);
    } else if (key == "eval_accuracy" || key == "eval_error") {
        const std::optional<double> measured = numberIn(value);
        if (!measured || !std::isfinite(*measured))
            return countBroken(line, "an " + key + " whose value is not a finite number");
        readEval(*time_ms, *measured, metricOf(key, metadata), countIn(metadata, "epoch_num"),
                 countIn(metadata, "samples_count"), out);
    } else if (startsWith(key, "submission_")) {
        if (key == "submission_benchmark" && value.is_string() && benchmark_.empty())
            benchmark_ = value.get<std::string>();
        if (!header_written_) submission_[key.substr(11)] = value.dump();
    } else if (event_type == "POINT_IN_TIME" && !run_start_ms_ && key != "cache_clear") {
        hyperparameters_[key] = value.dump();
    }
}

// A log cut before run_start still names its benchmark. One cut after run_start, before run_stop, is a run
// that ended without a time to train: MLPerf's result summarizer counts it as a failed run (its compliance
// check requires exactly one run_stop), and so does its summary here (status "cut").
void MllogReader::readEnd(std::vector<MetricRecord>& out) {
    if (!header_written_ && (!benchmark_.empty() || !hyperparameters_.empty())) writeHeader(out);
    if (!run_start_ms_ || stopped_) return;
    SummaryRecord s;
    const MlperfQuality* quality = qualityOf(benchmark_);
    s.eval_metric = quality ? quality->metric : "accuracy";
    s.final_eval = last_eval_;
    s.best_eval = best_eval_;
    // No time to train, and no wall time (0: the store's times stand for it).
    json j{{"type", "summary"},
           {"steps", 0},
           {"wall_s", 0},
           {"eval_metric", s.eval_metric},
           {"target_reached", false},
           {"mlperf", {{"benchmark", benchmark_}, {"status", "cut"}, {"run_start_ms", *run_start_ms_}}}};
    if (s.final_eval) j["final_value"] = *s.final_eval;
    s.json = j.dump();
    out.push_back(std::move(s));
}

void MllogReader::writeHeader(std::vector<MetricRecord>& out) {
    if (header_written_) return;
    header_written_ = true;
    json submission = objectOf(submission_);
    submission.erase("benchmark");
    const json j{{"type", "header"},
                 {"version", kMetricStreamVersion},
                 {"workload", benchmark_},
                 {"dataset", ""},
                 {"ranks", context_.ranks},
                 {"tool", "mllog"},
                 {"benchmark", benchmark_},
                 {"submission", submission},
                 {"hyperparameters", objectOf(hyperparameters_)}};
    HeaderRecord h;
    h.version = kMetricStreamVersion;
    h.workload = benchmark_;
    h.ranks = context_.ranks;
    h.json = j.dump();
    out.push_back(std::move(h));
}

// What an evaluation measured: eval_error an error (MLPerf HPC); eval_accuracy what its metadata's "metric"
// names (Stable Diffusion's "FID" and "CLIP"), else the benchmark's metric (accuracy where it names none).
std::string MllogReader::metricOf(const std::string& key, const json& metadata) const {
    if (key == "eval_error") return metric_stream::eval_metric::kError;
    if (metadata.is_object())
        if (const auto named = metadata.find("metric"); named != metadata.end() && named->is_string()) {
            if (*named == "FID") return metric_stream::eval_metric::kFid;
            if (*named == "CLIP") return metric_stream::eval_metric::kClip;
        }
    const MlperfQuality* quality = qualityOf(benchmark_);
    return quality ? std::string(quality->metric) : metric_stream::eval_metric::kAccuracy;
}

void MllogReader::readEval(double time_ms, double value, const std::string& metric,
                           std::optional<std::int64_t> epoch, std::optional<std::int64_t> samples,
                           std::vector<MetricRecord>& out) {
    EvalRecord e;
    // The step is the samples trained (samples_count) where the log says them, else the epoch (epoch_num),
    // else the evaluation's ordinal.
    e.step = samples ? *samples : epoch ? *epoch : evals_ + 1;
    if (!evals_read_.emplace(time_ms, value, e.step).second) return; // another rank's copy
    ++evals_;
    writeHeader(out);
    const MlperfQuality* quality = qualityOf(benchmark_);
    e.metric = metric;
    e.value = value;
    // A log perplexity is the loss (mean cross-entropy) itself.
    if (e.metric == metric_stream::eval_metric::kLoss ||
        e.metric == metric_stream::eval_metric::kLogPerplexity)
        e.loss = value;
    e.elapsed_s = run_start_ms_ ? (time_ms - *run_start_ms_) / 1000 : 0;
    // The summary's final and best values are the target's metric's (FID, not CLIP).
    if (quality && e.metric != quality->metric) {
        out.push_back(std::move(e));
        return;
    }
    last_eval_ = value;
    const bool lower = quality && quality->lower_is_better;
    if (!best_eval_ || (lower ? value < *best_eval_ : value > *best_eval_)) best_eval_ = value;
    if (epoch) last_epoch_ = epoch;
    if (samples) last_samples_ = samples;
    out.push_back(std::move(e));
}

void MllogReader::readRunStop(double time_ms, const std::string& status, std::optional<std::int64_t> epoch,
                              std::optional<std::int64_t> samples, std::vector<MetricRecord>& out) {
    stopped_ = true;
    writeHeader(out);
    // mlperf-logging 4.1.68, result_summarizer/result_summarizer.py: _query_run_start_stop() takes the
    // time_ms of run_start and run_stop, and _compute_strong_score_standalone() scores
    // time_to_train_ms = stop - start as time_to_train_ms / 60 / 1000 minutes.
    const double time_to_train_ms = time_ms - *run_start_ms_;
    const double minutes = time_to_train_ms / 60 / 1000;
    const MlperfQuality* quality = qualityOf(benchmark_);
    json mlperf{{"benchmark", benchmark_},
                {"status", status},
                {"time_to_train_s", time_to_train_ms / 1000},
                {"time_to_train_min", minutes},
                {"run_start_ms", *run_start_ms_}, // when it ran, as the log's clock says
                {"run_stop_ms", time_ms}};
    if (!epoch) epoch = last_epoch_;
    if (!samples) samples = last_samples_;
    if (epoch) mlperf["epochs_to_converge"] = *epoch;
    if (samples) mlperf["samples_to_converge"] = *samples;
    if (quality) mlperf["target"] = quality->target;
    // MLPerf's compliance check of the quality (each benchmark's ATLEAST_ONE_CHECK on its evaluations): some
    // evaluation reached the target, whatever run_stop's status says. The result summarizer counts a run by
    // it. Stable Diffusion's check is FID and CLIP at one evaluation: left to the status here.
    if (quality && benchmark_ != "stable_diffusion")
        mlperf["target_met"] =
            best_eval_.has_value() &&
            (quality->lower_is_better ? *best_eval_ <= quality->target : *best_eval_ >= quality->target);
    // closed or open: an open-division log (the engine's stand-ins among them) is never a closed result.
    if (const auto division = submission_.find("division"); division != submission_.end())
        if (const json d = json::parse(division->second, nullptr, false); d.is_string())
            mlperf["division"] = d;

    SummaryRecord s;
    s.steps = 0;
    s.wall_s = time_to_train_ms / 1000;
    s.eval_metric = quality ? quality->metric : "accuracy";
    s.final_eval = last_eval_;
    s.best_eval = best_eval_;
    // The target in the unit the console shows the metric in: an accuracy in %.
    if (quality) s.target = s.eval_metric == "accuracy" ? quality->target * 100 : quality->target;
    s.target_reached = status == "success";
    if (s.target_reached) s.time_to_target_s = s.wall_s;
    json j{{"type", "summary"},
           {"steps", 0},
           {"wall_s", s.wall_s},
           {"eval_metric", s.eval_metric},
           {"target_reached", s.target_reached},
           {"mlperf", mlperf}};
    if (s.final_eval) j["final_value"] = *s.final_eval;
    if (s.best_eval) j["best_value"] = *s.best_eval;
    if (s.target) j["target"] = *s.target;
    if (s.time_to_target_s) j["time_to_accuracy_s"] = *s.time_to_target_s;
    s.json = j.dump();
    out.push_back(std::move(s));
}

} // namespace scalebench
