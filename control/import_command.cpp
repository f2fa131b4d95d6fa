// scalebench import FILE...: logs of runs that already happened, read into one stored session.
#include "import_command.h"

#include "output_formats.h"
#include "results_table.h"
#include "session_results.h"
#include "session_store.h"

#include <algorithm>
#include <fmt/format.h>
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

ImportOutcome importLogs(SessionStore& store, const ImportRequest& request) {
    makeOutputReader(request.format, {}); // an unknown format throws before a session is made
    ImportOutcome outcome;
    outcome.session_id = store.createSession(request.session_name, "", "imported", "");
    std::set<std::string> names; // one run a file, each named after it once
    for (const auto& file : request.files) {
        ImportedFile imported;
        imported.file = file;
        std::string name = runNameOfProgram(file.stem().string());
        for (int n = 2; names.count(name); ++n)
            name = runNameOfProgram(file.stem().string()) + "-" + std::to_string(n);
        names.insert(name);
        imported.run_name = name;
        std::ifstream in(file, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        const auto reader =
            makeOutputReader(request.format, {request.ranks, file.stem().string(), request.peak_tflops});
        std::vector<MetricRecord> records;
        if (in) {
            records = reader->feed(text.str());
            const auto rest = reader->finish();
            records.insert(records.end(), rest.begin(), rest.end());
        }
        const Tally t = tally(records);
        // Where neither the log nor the user says, one (an MLLOG's run; the next issue reads MLPerf's
        // systems).
        const int ranks = t.header && t.header->ranks > 0 ? t.header->ranks : std::max(request.ranks, 1);
        const std::string workload =
            t.header && !t.header->workload.empty() ? t.header->workload : request.format;
        const std::int64_t run =
            store.createRun(outcome.session_id, {name, workload, t.header ? t.header->dataset : "", ranks, 1,
                                                 "imported from " + std::filesystem::absolute(file).string() +
                                                     " as " + request.format});
        store.appendRecords(run, records);
        if (!in)
            imported.error = "cannot read " + file.string();
        else if (records.empty())
            imported.error =
                fmt::format("no record in {} read as {} ({} line(s), {} broken){}", file.string(),
                            request.format, reader->linesSeen(), reader->brokenLineCount(),
                            reader->brokenLines().empty() ? "" : "; " + firstBroken(*reader));
        store.finishRun(run, {imported.error.empty() ? RunStatus::Ok : RunStatus::Failed, imported.error,
                              reader->brokenLineCount(), ""});
        if (imported.error.empty()) {
            imported.description = fmt::format(
                "{} record(s) from {}: {} step(s), {} evaluation(s), {} collective size(s), {} summary; {} "
                "broken line(s){}",
                records.size(), file.string(), t.steps, t.evals, t.collectives, t.summaries,
                reader->brokenLineCount(), t.summary ? summaryFigures(*t.summary) : "");
            if (reader->brokenLineCount() > 0) imported.description += "\n  " + firstBroken(*reader);
        }
        outcome.files.push_back(std::move(imported));
    }
    store.finishSession(outcome.session_id,
                        outcome.failed() == 0 ? SessionStatus::Ok : SessionStatus::Failed);
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
                           options.session_name, options.import_files.size(), options.format,
                           store.file().string());
        for (const ImportedFile& f : outcome.files) {
            if (f.error.empty())
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
