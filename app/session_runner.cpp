// Runs an expanded plan through a Scheduler, streaming each run's metric file into the session store as it grows.
#include "session_runner.h"

#include "engine_invocation.h"
#include "metric_file_tail.h"

#include <fmt/format.h>

#include <thread>

namespace scalebench {

SessionRunner::SessionRunner(SessionStore& store, Scheduler& scheduler, Transport& transport,
                             SessionRunnerSettings settings, Progress progress)
    : store_(store), scheduler_(scheduler), transport_(transport), settings_(std::move(settings)),
      progress_(std::move(progress)) {}

SessionOutcome SessionRunner::run(const RunPlan& plan) {
    const auto runs = expandPlan(plan);
    SessionOutcome outcome;
    outcome.session_id = store_.createSession(plan.name, plan.source_text, settings_.cluster);
    outcome.runs = static_cast<int>(runs.size());
    progress_(fmt::format("session {} '{}': {} runs on {}, store {}", outcome.session_id, plan.name, runs.size(),
                          transport_.describe(), store_.file().string()));
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (!runOne(outcome.session_id, runs[i], static_cast<int>(i) + 1, outcome.runs)) ++outcome.failed_runs;
    store_.finishSession(outcome.session_id, outcome.failed_runs == 0 ? "ok" : "failed");
    return outcome;
}

bool SessionRunner::runOne(std::int64_t session_id, const RunSpec& spec, int index, int total) {
    const std::filesystem::path run_dir =
        settings_.out_dir / fmt::format("session-{}", session_id) / spec.name;
    std::filesystem::create_directories(run_dir);
    const std::string metrics_path = (run_dir / "metrics.jsonl").string();
    const JobRequest job{spec.name, spec.ranks, engineArguments(spec, settings_.engine, metrics_path),
                         run_dir.string()};
    const std::int64_t run_id = store_.createRun(
        session_id, {spec.name, spec.group.workload, spec.group.dataset, spec.ranks, spec.repeat,
                     scheduler_.commandLine(job)});

    const std::string tag = fmt::format("[run {}/{}] {}", index, total, spec.name);
    progress_(tag + ": starting " + std::to_string(spec.ranks) + " rank(s)");
    const std::string job_id = scheduler_.submit(job);
    store_.startRun(run_id, job_id);

    MetricFileTail tail(transport_, metrics_path);
    std::vector<std::string> rank_errors;
    const std::int64_t report_every = std::max(1, spec.group.steps / 5);
    // Stores one batch of records in one transaction and reports progress now and then.
    auto store = [&](const std::vector<MetricRecord>& records) {
        store_.appendRecords(run_id, records);
        for (const auto& record : records) {
            if (auto* s = std::get_if<StepRecord>(&record); s && s->step % report_every == 0)
                progress_(fmt::format("{}: step {}/{}  loss {:.4f}  {:.0f} samples/s", tag, s->step,
                                      spec.group.steps, s->loss, s->samples_per_s));
            else if (auto* e = std::get_if<EvalRecord>(&record))
                progress_(fmt::format("{}: eval at step {}: accuracy {:.1f}%", tag, e->step, e->accuracy * 100));
            else if (auto* x = std::get_if<ErrorRecord>(&record))
                rank_errors.push_back(fmt::format("rank {}: {}", x->rank, x->message));
        }
    };

    JobStatus status;
    for (;;) {
        status = scheduler_.poll({job_id}).at(job_id);
        if (isFinal(status.state)) break;
        store(tail.poll());
        std::this_thread::sleep_for(settings_.poll_interval);
    }
    store(tail.finish());

    const std::int64_t broken = tail.parser().brokenLineCount();
    if (broken > 0) {
        const BrokenLine& first = tail.parser().brokenLines().front();
        progress_(fmt::format("{}: warning: {} broken metric line(s) skipped; first at line {}: {}", tag, broken,
                              first.line_number, first.reason));
    }
    const bool ok = status.state == JobState::Completed && rank_errors.empty();
    std::string error;
    if (!ok) {
        error = fmt::format("job {} {} (exit status {})", job_id, toString(status.state), status.exit_status);
        for (const auto& e : rank_errors) error += "\n" + e;
        if (!status.detail.empty()) error += "\n" + status.detail;
    }
    store_.finishRun(run_id, {ok ? "ok" : "failed", error, broken, status.nodes});
    progress_(tag + (ok ? ": done" : ": FAILED: " + error));
    return ok;
}

} // namespace scalebench
