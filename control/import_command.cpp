// scalebench import FILE...: logs of runs that already happened, read into one stored session.
#include "import_command.h"

#include "format_detection.h"
#include "mlperf_submission.h"
#include "output_formats.h"
#include "results_table.h"
#include "session_results.h"
#include "session_store.h"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace scalebench {
namespace {

// What one file gave, by record type.
struct Tally {
    int headers = 0, steps = 0, evals = 0, collectives = 0, summaries = 0;
    std::optional<HeaderRecord> header;
    std::optional<SummaryRecord> summary;
};

Tally tally(const std::vector<MetricRecord>& records) {
    Tally t;
    for (const MetricRecord& record : records) {
        if (const auto* h = std::get_if<HeaderRecord>(&record)) {
            ++t.headers;
            if (!t.header) t.header = *h;
        }
        t.steps += std::holds_alternative<StepRecord>(record);
        t.evals += std::holds_alternative<EvalRecord>(record);
        t.collectives += std::holds_alternative<CollectiveRecord>(record);
        if (const auto* s = std::get_if<SummaryRecord>(&record)) {
            ++t.summaries;
            t.summary = *s;
        }
    }
    return t;
}

// The figures a trainer's own summary carries: MLPerf's time to train, MaxText's last-step figures (seed
// 003).
std::string summaryFigures(const SummaryRecord& summary) {
    const auto j = nlohmann::json::parse(summary.json, nullptr, false);
    if (!j.is_object()) return "";
    if (const auto m = j.find("mlperf"); m != j.end() && m->is_object() && m->contains("time_to_train_min"))
        return fmt::format("; MLPerf time to train {} ({})",
                           formatTimeToTrain(m->value("time_to_train_min", 0.0)),
                           m->value("status", std::string("no status")));
    if (j.contains("seconds_per_step") && j.contains("days_to_1T_tokens"))
        return fmt::format(
            "; last step {:.3f} s, {:.2f} tokens/s, {:.3f} TFLOP/s/device, {}{:.2f} days to 1T tokens",
            j.value("seconds_per_step", 0.0), j.value("tokens_per_s", 0.0), j.value("tflops_per_device", 0.0),
            j.contains("mfu") ? fmt::format("MFU {:.2f}% of {:g} TFLOP/s, ", j.value("mfu", 0.0) * 100,
                                            j.value("peak_tflops_per_device", 0.0))
                              : "",
            j.value("days_to_1T_tokens", 0.0));
    return "";
}

// "first broken line 17: no loss field": where a reader met its first line it could not read, and why; ""
// where it met none.
std::string firstBroken(const OutputReader& reader) {
    if (reader.brokenLines().empty()) return "";
    const BrokenLine& first = reader.brokenLines().front();
    return fmt::format("first broken line {}: {}", first.line_number, first.reason);
}

} // namespace

namespace {

// A file's records as runs: one per HeaderRecord, for a log of several runs one after another (nccl-tests'
// all_reduce_perf, all_gather_perf, ... in one job's output; OSU benchmarks in one script); what comes before
// the first header goes with it.
std::vector<std::vector<MetricRecord>> runsOf(std::vector<MetricRecord> records) {
    std::vector<std::vector<MetricRecord>> runs;
    for (MetricRecord& record : records) {
        if (runs.empty() || (std::holds_alternative<HeaderRecord>(record) &&
                             std::any_of(runs.back().begin(), runs.back().end(), [](const MetricRecord& r) {
                                 return std::holds_alternative<HeaderRecord>(r);
                             })))
            runs.emplace_back();
        runs.back().push_back(std::move(record));
    }
    if (runs.empty()) runs.emplace_back();
    return runs;
}

// What tells apart runs of one file: the collective or benchmark its header names ("allgather"); "" where it
// names none.
std::string runOwnName(const Tally& t) {
    if (!t.header) return "";
    const auto j = nlohmann::json::parse(t.header->json, nullptr, false);
    if (!j.is_object()) return "";
    for (const char* key : {"collective", "benchmark", "program"})
        if (const auto v = j.find(key); v != j.end() && v->is_string() && !v->get<std::string>().empty())
            return v->get<std::string>();
    return "";
}

// A name no other run of the session has: `base`, else base-2, base-3, ...
std::string uniqueName(const std::string& base, std::set<std::string>& names) {
    std::string name = base;
    for (int n = 2; names.count(name); ++n)
        name = base + "-" + std::to_string(n);
    names.insert(name);
    return name;
}

// A file's content as 16 hex digits (FNV-1a, 64 bits): what tells the same file imported again, wherever it
// lies and whatever its name.
std::string contentDigest(std::string_view bytes) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const unsigned char c : bytes) {
        hash ^= c;
        hash *= 1099511628211ull;
    }
    return fmt::format("{:016x}", hash);
}

// A file as the import read it: in the request's format, else the one its content shows (detectFormat).
struct ReadFile {
    std::string digest{}; // contentDigest of its bytes
    std::string format;
    std::vector<MetricRecord> records;
    std::int64_t broken = 0;
    std::string first_broken{}; // firstBroken's
    std::string error{};        // why it gave no record
};

ReadFile readImported(const ImportRequest& request, const std::filesystem::path& file) {
    ReadFile read;
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
        read.error = "cannot read " + file.string();
        return read;
    }
    read.digest = contentDigest(text.str());
    const OutputContext context{request.ranks, file.stem().string(), request.peak_tflops};
    read.format = request.format;
    if (read.format.empty()) {
        const DetectedFormat detected = detectFormat(text.str(), context);
        if (!detected.format) {
            read.error = file.string() + ": " + detected.refusal;
            return read;
        }
        read.format = *detected.format;
    }
    const auto reader = makeOutputReader(read.format, context);
    read.records = reader->feed(text.str());
    const auto rest = reader->finish();
    read.records.insert(read.records.end(), rest.begin(), rest.end());
    read.broken = reader->brokenLineCount();
    read.first_broken = firstBroken(*reader);
    if (read.records.empty())
        read.error = fmt::format("no record in {} read as {} ({} line(s), {} broken){}", file.string(),
                                 read.format, reader->linesSeen(), read.broken,
                                 read.first_broken.empty() ? "" : "; " + read.first_broken);
    return read;
}

// A time of a log's clock (milliseconds since 1970, UTC) as the store keeps times; "" for one no calendar
// holds (before 1970 or after 9999).
std::string utcTime(double epoch_ms) {
    if (!(epoch_ms >= 0 && epoch_ms < 253402300800000.0)) return "";
    const std::time_t seconds = static_cast<std::time_t>(epoch_ms / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%FT%TZ", &utc);
    return text;
}

// What an MLLOG run's summary says of it as MLPerf scores it (its "mlperf" object); null for another run.
nlohmann::json mlperfSummary(const Tally& t) {
    if (!t.summary) return {};
    const auto j = nlohmann::json::parse(t.summary->json, nullptr, false);
    return j.is_object() && j.contains("mlperf") && j["mlperf"].is_object() ? j["mlperf"] : nlohmann::json();
}

// When the run ran, where its log says (MLLOG's run_start and run_stop): kept as the run's times.
void keepLogTimes(SessionStore& store, std::int64_t run, const nlohmann::json& m) {
    if (!m.is_object() || !m.contains("run_start_ms") || !m["run_start_ms"].is_number()) return;
    const std::string started = utcTime(m["run_start_ms"].get<double>());
    if (started.empty()) return;
    const std::string stopped = m.contains("run_stop_ms") && m["run_stop_ms"].is_number()
                                    ? utcTime(m["run_stop_ms"].get<double>())
                                    : "";
    store.setImportedTimes(run, started, stopped);
}

// How an imported run ended, where its log says: MLPerf's run_stop status "aborted", or "cut" where the log
// ends before run_stop (mllog_reader.cpp); else ok.
RunStatus statusOfLog(const nlohmann::json& m) {
    if (!m.is_object()) return RunStatus::Ok;
    const std::string status = m.value("status", std::string());
    return status == "aborted" ? RunStatus::Aborted : status == "cut" ? RunStatus::Cut : RunStatus::Ok;
}

// Stores one run of an imported file: its records, and as its status whether the file gave any.
std::int64_t storeRun(SessionStore& store, const ImportRequest& request, const ReadFile& read,
                      std::int64_t session_id, const std::string& name, const std::filesystem::path& file,
                      const std::vector<MetricRecord>& records, const std::string& error,
                      std::int64_t broken_lines) {
    const Tally t = tally(records);
    // Where neither the log nor the user says, one (an MLLOG's run; the next issue reads MLPerf's systems).
    const int ranks = t.header && t.header->ranks > 0 ? t.header->ranks : std::max(request.ranks, 1);
    const std::string& format = read.format;
    const std::string workload = t.header && !t.header->workload.empty() ? t.header->workload : format;
    const std::int64_t run = store.createRun(
        session_id, {name, workload, t.header ? t.header->dataset : "", ranks, 1,
                     "imported from " + std::filesystem::absolute(file).string() + " as " + format,
                     // Only a file that gave records is known by its content: one that gave none (the
                     // wrong format, a missing --ranks) may be imported again.
                     std::nullopt, error.empty() ? read.digest : ""});
    store.appendRecords(run, records);
    const nlohmann::json mlperf = mlperfSummary(t);
    store.finishRun(run, {error.empty() ? statusOfLog(mlperf) : RunStatus::Failed, error, broken_lines, ""});
    keepLogTimes(store, run, mlperf);
    return run;
}

// An MLPerf result file's place in its results tree, kept in its run's header ("mlperf_submission"), and its
// accelerators as the run's ranks where none were given: the summarizer's count, number_of_nodes x
// accelerators_per_node of systems/<system>.json.
void addSubmission(const MlperfSubmission& submission, const ImportRequest& request,
                   std::vector<MetricRecord>& records) {
    for (MetricRecord& record : records) {
        auto* header = std::get_if<HeaderRecord>(&record);
        if (!header) continue;
        nlohmann::json j = nlohmann::json::parse(header->json, nullptr, false);
        if (!j.is_object()) return;
        j["mlperf_submission"] = nlohmann::json::parse(mlperfSubmissionJson(submission));
        if (request.ranks == 0 && submission.accelerators) {
            header->ranks = *submission.accelerators;
            j["ranks"] = *submission.accelerators;
        }
        header->json = j.dump();
        return;
    }
}

// One file: its runs stored (one per header), and what it gave.
ImportedFile importFile(SessionStore& store, const ImportRequest& request, std::int64_t session_id,
                        const std::filesystem::path& file, std::set<std::string>& names) {
    ImportedFile imported;
    imported.file = file;
    ReadFile read = readImported(request, file);
    if (!read.digest.empty())
        if (const std::optional<SourceRun> stored = store.runFromSource(read.digest)) {
            imported.run_name = file.stem().string();
            imported.already =
                fmt::format("already in the store: run '{}' of session {} '{}' was imported from "
                            "a file of the same content; not imported again",
                            stored->run_name, stored->session_id, stored->session_name);
            return imported;
        }
    imported.error = read.error;
    imported.format = read.format;
    std::vector<MetricRecord>& records = read.records;
    std::optional<MlperfSubmission> submission;
    try {
        if (read.format == "mllog") submission = mlperfSubmissionOf(file);
    } catch (const std::exception& e) {
        imported.error = e.what(); // its scaling.json does not read: the summarizer stops on it too
    }
    // A result of a results tree is named by its system and benchmark: result_0 is in every folder.
    const std::string base = runNameOfProgram(submission ? submission->system + "-" + submission->benchmark +
                                                               "-" + file.stem().string()
                                                         : file.stem().string());
    if (submission) addSubmission(*submission, request, records);
    const auto runs = runsOf(records);
    std::vector<std::string> run_names;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::string own = runs.size() > 1 ? runOwnName(tally(runs[i])) : "";
        run_names.push_back(uniqueName(own.empty() ? base : base + "-" + runNameOfProgram(own), names));
        // The file's broken lines are told once, with its first run.
        storeRun(store, request, read, session_id, run_names.back(), file, runs[i], imported.error,
                 i == 0 ? read.broken : 0);
    }
    imported.run_name = fmt::format("{}", fmt::join(run_names, ", "));
    if (!imported.error.empty()) return imported;
    const Tally t = tally(records);
    imported.description = fmt::format(
        "{} record(s) from {}{}: {}{} step(s), {} evaluation(s), {} collective size(s), {} summary; "
        "{} broken line(s){}",
        records.size(), file.string(), request.format.empty() ? " (read as " + read.format + ")" : "",
        runs.size() > 1 ? fmt::format("{} runs, ", runs.size()) : "", t.steps, t.evals, t.collectives,
        t.summaries, read.broken, t.summary && runs.size() == 1 ? summaryFigures(*t.summary) : "");
    if (!read.first_broken.empty()) imported.description += "\n  " + read.first_broken;
    return imported;
}

// The files a request names, a folder as the files under it in path order: an MLPerf results tree's
// result_*.txt (its scaling.json and systems/ are read beside them), else every file but hidden ones.
std::vector<std::filesystem::path> filesOf(const std::vector<std::filesystem::path>& paths) {
    std::vector<std::filesystem::path> files;
    for (const auto& path : paths) {
        std::error_code error;
        if (!std::filesystem::is_directory(path, error)) {
            files.push_back(path); // a file, or what cannot be read: named when it is read
            continue;
        }
        std::vector<std::filesystem::path> results, others;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(path, error)) {
            const std::string name = entry.path().filename().string();
            if (!entry.is_regular_file() || name.starts_with(".")) continue;
            (name.starts_with("result_") && name.ends_with(".txt") ? results : others)
                .push_back(entry.path());
        }
        std::vector<std::filesystem::path>& chosen = results.empty() ? others : results;
        std::sort(chosen.begin(), chosen.end());
        files.insert(files.end(), chosen.begin(), chosen.end());
    }
    return files;
}

} // namespace

ImportOutcome importLogs(SessionStore& store, const ImportRequest& request) {
    if (!request.format.empty())
        makeOutputReader(request.format, {}); // an unknown format throws before a session is made
    ImportOutcome outcome;
    outcome.session_id = store.createSession(request.session_name, "", "imported", "");
    std::set<std::string> names; // each run named once
    for (const auto& file : filesOf(request.files))
        outcome.files.push_back(importFile(store, request, outcome.session_id, file, names));
    store.finishSession(outcome.session_id,
                        outcome.failed() == 0 ? SessionStatus::Ok : SessionStatus::Failed);
    store.adoptRunTimes(outcome.session_id); // the runs' own times where their logs say them
    return outcome;
}

int ImportOutcome::failed() const {
    return static_cast<int>(
        std::count_if(files.begin(), files.end(), [](const ImportedFile& f) { return !f.error.empty(); }));
}

int importRuns(const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    try {
        if (options.db.has_parent_path()) std::filesystem::create_directories(options.db.parent_path());
        SessionStore store(options.db);
        const ImportOutcome outcome =
            importLogs(store, {options.import_files, options.format, options.session_name, options.ranks,
                               options.peak_tflops});
        out << fmt::format("session {} '{}': {} file(s) read as {}, store {}\n", outcome.session_id,
                           options.session_name, outcome.files.size(),
                           options.format.empty() ? "the format each file's content shows" : options.format,
                           store.file().string());
        for (const ImportedFile& f : outcome.files) {
            if (!f.already.empty())
                out << f.file.string() << ": " << f.already << "\n";
            else if (f.error.empty())
                out << f.run_name << ": " << f.description << "\n";
            else
                err << "scalebench: " << f.run_name << ": " << f.error << "\n";
        }
        const StepTimeConvention convention = options.step_time == "last-step"
                                                  ? StepTimeConvention::LastStep
                                                  : StepTimeConvention::SteadyStateMedian;
        const auto results = loadSessionResults(store, outcome.session_id, convention);
        out << "\n" << formatResultsTable(results) << formatCollectiveSweeps(results);
        out << fmt::format("session {} stored in {}\n", outcome.session_id, store.file().string());
        return outcome.failed() == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        err << "scalebench: " << e.what() << "\n";
        return 2;
    }
}

} // namespace scalebench
