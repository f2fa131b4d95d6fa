// A stored session's runs with their figures, read back from the store for tables, charts and reports.
#include "session_results.h"

#include "engine_option_table.h"
#include "metric_stream_parser.h"
#include "run_folder.h"
#include "session_store.h"
#include "shell_words.h"

#include <algorithm>
#include <ctime>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace scalebench {

std::optional<double> storedSeconds(const std::string& start, const std::string& end) {
    const auto read = [](const std::string& text) -> std::optional<std::time_t> {
        std::tm utc{};
        std::istringstream in(text);
        in >> std::get_time(&utc, "%Y-%m-%dT%H:%M:%SZ");
        if (in.fail()) return std::nullopt;
        return timegm(&utc);
    };
    const auto a = read(start), b = read(end);
    if (!a || !b || *b < *a) return std::nullopt;
    return std::difftime(*b, *a);
}

std::string requeueNote(const std::vector<AttemptRow>& attempts) {
    if (attempts.empty()) return "";
    const std::size_t n = attempts.size();
    std::string note = "requeued " +
                       std::string(n == 1   ? "once"
                                   : n == 2 ? "twice"
                                            : std::to_string(n) + " times") +
                       " after ";
    for (std::size_t i = 0; i < n; ++i)
        note += (i == 0       ? ""
                 : i + 1 == n ? " and "
                              : ", ") +
                attempts[i].ended + " (attempt " + std::to_string(attempts[i].attempt) + " stopped at step " +
                std::to_string(attempts[i].last_step) + ")";
    return note + "; the figures are the last attempt's";
}

std::map<std::string, std::string> seriesSettings(const RunSpec& run) {
    if (run.group.isCommand()) {
        // A command's series: its words, how its output reads, its container, placement and environment.
        const CommandRun& c = run.group.command;
        std::map<std::string, std::string> settings = {{"command", shellJoin(c.argv)}, {"format", c.format}};
        if (!c.container_image.empty()) settings["container-image"] = c.container_image;
        if (!c.container_mounts.empty()) settings["container-mounts"] = shellJoin(c.container_mounts);
        if (run.group.gpus_per_node > 0) settings["gpus-per-node"] = std::to_string(run.group.gpus_per_node);
        for (const auto& [name, value] : run.environment)
            settings["env." + name] = value;
        return settings;
    }
    // Every engine option the console passes for the run (engineArguments), from the option table, but its
    // workload, data set, seed and files; the method options at the engine's defaults, as passed.
    namespace cli = engine_cli;
    static const std::set<std::string> not_settings = {"workload", "dataset", "seed", "data_dir"};
    std::map<std::string, std::string> settings;
    const auto add = [&](const char* name, const auto& value) {
        if (not_settings.contains(name)) return;
        std::string option = name; // the engine's option without its "--": batch_per_rank -> batch-per-rank
        std::replace(option.begin(), option.end(), '_', '-');
        settings[option] = cli::formatValue(value);
    };
#define SCALEBENCH_SERIES_SETTING(name, ...) add(#name, run.group.name);
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_SERIES_SETTING)
#undef SCALEBENCH_SERIES_SETTING
#define SCALEBENCH_METHOD_SETTING(name, ...) add(#name, cli::defaults::name);
    SCALEBENCH_METHOD_OPTIONS(SCALEBENCH_METHOD_SETTING)
#undef SCALEBENCH_METHOD_SETTING
    if (run.group.mllog) settings["mllog"] = std::string(kMllogFileName);
    if (run.group.gpus_per_node > 0) settings["gpus-per-node"] = std::to_string(run.group.gpus_per_node);
    // A batch per rank count (MLPerf's per-scale configs) is the group's convention, one series over its
    // counts.
    if (!run.group.batch_per_rank_by_ranks.empty()) {
        std::string batches;
        for (int batch : run.group.batch_per_rank_by_ranks)
            batches += (batches.empty() ? "" : ",") + std::to_string(batch);
        settings["batch-per-rank"] = "[" + batches + "] by ranks";
    }
    for (const auto& [name, value] : run.environment)
        settings["env." + name] = value;
    return settings;
}

namespace {

std::optional<SummaryRecord> summaryOf(const RunRow& run) {
    if (run.summary_json.empty()) return std::nullopt;
    MetricStreamParser parser;
    for (const MetricRecord& record : parser.feed(run.summary_json + "\n"))
        if (const auto* summary = std::get_if<SummaryRecord>(&record)) return *summary;
    return std::nullopt;
}

// An MLLOG run's summary carries MLPerf's time to train and status (docs/metric-stream.md, "MLPerf's MLLOG").
void readMlperfScore(const std::string& summary_json, RunResult& result) {
    const auto j = nlohmann::json::parse(summary_json, nullptr, false);
    if (!j.is_object()) return;
    const auto m = j.find("mlperf");
    if (m == j.end() || !m->is_object()) return;
    if (const auto t = m->find("time_to_train_min"); t != m->end() && t->is_number())
        result.mlperf_time_to_train_min = t->get<double>();
    if (const auto s = m->find("status"); s != m->end() && s->is_string())
        result.mlperf_status = s->get<std::string>();
    if (const auto b = m->find("benchmark"); b != m->end() && b->is_string())
        result.mlperf_benchmark = b->get<std::string>();
    if (const auto d = m->find("division"); d != m->end() && d->is_string())
        result.mlperf_division = d->get<std::string>();
    if (const auto t = m->find("target_met"); t != m->end() && t->is_boolean())
        result.mlperf_target_met = t->get<bool>();
    if (const auto t = m->find("run_start_ms"); t != m->end() && t->is_number())
        result.mlperf_run_start_ms = t->get<double>();
    if (const auto t = m->find("run_stop_ms"); t != m->end() && t->is_number())
        result.mlperf_run_stop_ms = t->get<double>();
}

// An imported MLPerf result of a results tree (its header's "mlperf_submission", control/import_command.cpp):
// one series per submitter, system and scale, as the summarizer scores them, and its scaling.json factor.
void readSubmission(const std::string& header_json, RunResult& result) {
    const auto j = nlohmann::json::parse(header_json, nullptr, false);
    if (!j.is_object()) return;
    const auto s = j.find("mlperf_submission");
    if (s == j.end() || !s->is_object()) return;
    for (const char* key : {"submitter", "system", "scale"})
        if (const auto v = s->find(key); v != s->end() && v->is_string())
            result.series.settings[key] = v->get<std::string>();
    if (const auto f = s->find("scaling_factor"); f != s->end() && f->is_number() && f->get<double>() > 0)
        result.mlperf_scaling_factor = f->get<double>();
    // The log's own accelerator count (MLLOG's number_of_nodes and accelerators_per_node among the header's
    // hyperparameters): MLPerf HPC's weak-scaling instance scale.
    const auto h = j.find("hyperparameters");
    if (h == j.end() || !h->is_object()) return;
    const auto count = [&](const char* key) {
        const auto v = h->find(key);
        return v != h->end() && v->is_number_integer() && v->get<int>() > 0 ? v->get<int>() : 0;
    };
    result.mlperf_instance_scale = count("number_of_nodes") * count("accelerators_per_node");
}

} // namespace

std::vector<RunResult> loadSessionResults(const SessionStore& store, std::int64_t session_id,
                                          StepTimeConvention convention) {
    const std::optional<SessionRow> session = store.session(session_id);
    const std::string plan_problem = session ? session->stored_plan.problem : "";
    std::vector<RunResult> results;
    for (const RunRow& run : store.runs(session_id)) {
        RunResult result{run.name,
                         run.workload,
                         run.dataset,
                         run.ranks,
                         run.repeat,
                         run.status,
                         run.error,
                         runFigures(store.steps(run.id), store.evals(run.id), convention),
                         store.collectives(run.id),
                         requeueNote(store.attempts(run.id))};
        result.series = {run.workload, run.dataset, {}};
        // A run without its record: an import (no plan, no problem), one whose record does not read, or one
        // stored before records whose session's plan no longer reads.
        if (run.spec)
            result.series.settings = seriesSettings(*run.spec);
        else
            readSubmission(run.header_json, result);
        result.plan_problem = run.spec ? "" : !run.spec_problem.empty() ? run.spec_problem : plan_problem;
        result.wall_s = storedSeconds(run.started_at, run.finished_at);
        if (const std::optional<SummaryRecord> summary = summaryOf(run)) {
            if (summary->wall_s > 0) result.wall_s = summary->wall_s;
            result.target = summary->target;
            result.target_reached = summary->target_reached;
            result.time_to_target_s = summary->time_to_target_s;
            readMlperfScore(summary->json, result);
        }
        result.slow_ranks = findSlowRanks(store.rankTimes(run.id), hostsOfRanks(run.header_json));
        result.placement = runPlacement(run.header_json);
        result.device_check = store.deviceCheck(run.id);
        results.push_back(std::move(result));
    }
    return results;
}

} // namespace scalebench
