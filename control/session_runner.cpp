// Runs an expanded plan through a Scheduler, streaming each run's metric file into the session store as it
// grows.
#include "session_runner.h"

#include "analysis.h"
#include "job_request.h"
#include "metric_file_tail.h"
#include "output_formats.h"
#include "results_table.h"
#include "run_output.h"
#include "session_store.h"
#include "shell_words.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <thread>

namespace scalebench {

SessionRunner::SessionRunner(SessionStore& store, Scheduler& scheduler, Transport& transport,
                             SessionRunnerSettings settings, Progress progress)
    : store_(store), scheduler_(scheduler), transport_(transport), settings_(std::move(settings)),
      progress_(std::move(progress)) {}

SessionOutcome SessionRunner::run(const RunPlan& plan) {
    return run(plan, expandPlan(plan));
}

SessionOutcome SessionRunner::run(const RunPlan& plan, const std::vector<RunSpec>& runs) {
    SessionOutcome outcome;
    outcome.session_id = store_.createSession(
        plan.name, plan.source_text, settings_.where.cluster.name,
        isLocalMachine(settings_.where.cluster) ? "" : clusterToJson(settings_.where.cluster));
    const SessionFolderKey folder{store_.storeId(), outcome.session_id,
                                  store_.session(outcome.session_id)->uuid};
    outcome.runs = static_cast<int>(runs.size());
    events_->sessionStarted(outcome.session_id, runs);
    progress_(fmt::format("session {} '{}': {} runs on {}, store {}", outcome.session_id, plan.name,
                          runs.size(), transport_.describe(), store_.file().string()));
    std::size_t next = 0;
    std::vector<ActiveRun> active;
    int lost_polls = 0; // polls in a row that met a transport error
    while (next < runs.size() || !active.empty()) {
        bool cancel_all = false;
        {
            std::lock_guard lock(cancel_mutex_);
            cancel_all = cancel_all_;
        }
        if (cancel_all) outcome.cancelled = true;
        if (cancel_all && next < runs.size()) {
            progress_(fmt::format("cancelled: {} run(s) not started", runs.size() - next));
            outcome.runs = static_cast<int>(next);
            next = runs.size();
        }
        while (next < runs.size() &&
               active.size() < static_cast<std::size_t>(settings_.max_concurrent_runs)) {
            auto started = start(folder, runs[next], static_cast<int>(next) + 1, outcome.runs);
            if (started)
                active.push_back(std::move(*started));
            else
                ++outcome.failed_runs;
            ++next;
        }
        try {
            sendCancellations(active);
            follow(active, outcome);
            lost_polls = 0;
        } catch (const TransportError& e) {
            // A dropped connection: the transport reconnects on the next call, and every tail resumes from
            // its byte offset, so nothing is lost or doubled. Only a connection that stays away ends the
            // session.
            if (++lost_polls > kMaxLostPolls) {
                for (auto& run : active) {
                    const std::string error = std::string("lost contact with the cluster: ") + e.what();
                    store_.finishRun(run.run_id,
                                     {RunStatus::Failed, error, run.tail->parser().brokenLineCount(), ""});
                    events_->runFinished(run.run_id, RunStatus::Failed, error);
                }
                outcome.failed_runs += static_cast<int>(active.size());
                active.clear();
                progress_(std::string("giving up: ") + e.what());
                break;
            }
            progress_(fmt::format("connection problem ({} of {}), trying again: {}", lost_polls,
                                  kMaxLostPolls, e.what()));
        }
        if (!active.empty()) std::this_thread::sleep_for(settings_.poll_interval);
    }
    // A cancel asked for after the loop's last look (while the last run was submitted or followed) cancelled
    // that run: the session is the user's cancelled one all the same.
    {
        std::lock_guard lock(cancel_mutex_);
        if (cancel_all_) outcome.cancelled = true;
    }
    // Cancelled: the user asked for the whole session, or for runs one by one and no other run failed.
    const bool cancelled = outcome.cancelled || (outcome.failed_runs == 0 && outcome.cancelled_runs > 0);
    outcome.status = cancelled                  ? SessionStatus::Cancelled
                     : outcome.failed_runs == 0 ? SessionStatus::Ok
                                                : SessionStatus::Failed;
    store_.finishSession(outcome.session_id, outcome.status);
    return outcome;
}

void SessionRunner::follow(std::vector<ActiveRun>& active, SessionOutcome& outcome) {
    std::vector<std::string> job_ids;
    for (const auto& a : active)
        job_ids.push_back(a.job_id);
    const auto states = scheduler_.poll(job_ids); // one scheduler query for every running job
    for (auto it = active.begin(); it != active.end();) {
        const JobStatus& status = states.at(it->job_id);
        if (status.attempt > it->attempt) restart(*it, status);
        if (isFinal(status.state)) {
            switch (finish(*it, status)) {
            case Ending::Ok:
                break;
            case Ending::CancelledByUser:
                ++outcome.cancelled_runs;
                break;
            case Ending::Failed:
                ++outcome.failed_runs;
                break;
            }
            it = active.erase(it);
            continue;
        }
        if (status.state == JobState::Pending && status.reason != it->pending_reason &&
            !status.reason.empty())
            progress_(it->tag + ": waiting (" + status.reason + ")");
        it->pending_reason = status.reason;
        if (status.state != it->last_status.state || status.reason != it->last_status.reason ||
            status.nodes != it->last_status.nodes) {
            it->last_status = status;
            events_->runStateChanged(it->run_id, status);
        }
        store(*it, it->tail->poll());
        ++it;
    }
}

std::optional<SessionRunner::ActiveRun> SessionRunner::start(const SessionFolderKey& session,
                                                             const RunSpec& spec, int index, int total) {
    ActiveRun run;
    run.spec = spec;
    run.tag = fmt::format("[run {}/{}] {}", index, total, spec.name);
    // Where it runs is the scheduler's machine: the runs are packed for the cluster that will run them. A run
    // the machine cannot take (more GPUs a node than it has) is stored as failed, and the others go on.
    JobRequest job;
    std::string command, refused;
    try {
        job = jobRequestFor(
            spec, {settings_.where.cluster, settings_.where.engine, settings_.where.sessions_root, session});
        command = scheduler_.commandLine(job);
    } catch (const std::exception& e) {
        refused = e.what();
    }
    run.run_dir = job.run_dir;
    run.output = job.output;
    run.run_id = store_.createRun(session.session_id, {spec.name, spec.group.workload, spec.group.dataset,
                                                       spec.ranks, spec.repeat, command, spec});
    progress_(run.tag + ": starting " + std::to_string(spec.ranks) + " rank(s)");
    try {
        if (!refused.empty()) throw std::invalid_argument(refused);
        // A new folder, never one that exists: its files would be another run's. An empty one is this run's
        // own, made by a try the connection dropped under (its name holds the session's UUID).
        const std::string parent = std::filesystem::path(run.run_dir).parent_path().string();
        const std::string folder = shellQuote(run.run_dir);
        const CommandResult mkdir = repeatedOnDrop([&] {
            return transport_.run("mkdir -p " + shellQuote(parent) + " && { mkdir " + folder + " || { [ -d " +
                                  folder + " ] && [ -z \"$(ls -A " + folder + ")\" ]; }; }");
        });
        if (mkdir.exit_status != 0)
            throw TransportError("cannot make the run's folder " + run.run_dir + " on " +
                                 transport_.describe() + ": " +
                                 (mkdir.err.empty() ? "mkdir failed" : mkdir.err));
        run.job_id = scheduler_.submit(job);
    } catch (const std::exception& e) {
        const std::string error = std::string("not started: ") + e.what();
        store_.finishRun(run.run_id, {RunStatus::Failed, error, 0, ""});
        events_->runFinished(run.run_id, RunStatus::Failed, error);
        progress_(run.tag + ": FAILED: " + error);
        return std::nullopt;
    }
    store_.startRun(run.run_id, run.job_id, run.run_dir);
    run.tail = std::make_unique<MetricFileTail>(transport_, metricFile(run.run_dir, 0, run.output),
                                                outputReaderOf(spec));
    events_->runSubmitted({run.run_id, spec, run.job_id, run.run_dir});
    return run;
}

void SessionRunner::restart(ActiveRun& run, const JobStatus& status) {
    const std::string cause = status.requeue_cause.empty() ? "a requeue" : status.requeue_cause;
    progress_(
        fmt::format("{}: job {} requeued by Slurm after {}: attempt {} stopped at step {} (its records stay "
                    "in {}); attempt {} starts again from step 1",
                    run.tag, run.job_id, cause, run.attempt, run.last_step,
                    metricFile(run.run_dir, run.attempt, run.output), status.attempt));
    store_.restartRun(run.run_id, status.attempt, cause, run.last_status.nodes);
    run.attempt = status.attempt;
    run.tail = std::make_unique<MetricFileTail>(transport_, metricFile(run.run_dir, run.attempt, run.output),
                                                outputReaderOf(run.spec));
    run.rank_errors.clear();
    run.last_step = 0;
    events_->runRestarted(run.run_id, run.attempt, cause);
}

void SessionRunner::store(ActiveRun& run, const std::vector<MetricRecord>& records) {
    if (records.empty()) return;
    store_.appendRecords(run.run_id, records); // one transaction for the batch
    events_->recordsStored(run.run_id, records);
    if (run.steps == 0) run.steps = run.spec.group.steps;
    for (const auto& record : records) {
        if (const auto* header = std::get_if<HeaderRecord>(&record); header && header->steps > 0)
            run.steps = header->steps;
        const std::int64_t report_every = std::max<std::int64_t>(1, run.steps / 5);
        if (auto* step = std::get_if<StepRecord>(&record))
            run.last_step = std::max(run.last_step, step->step);
        if (auto* s = std::get_if<StepRecord>(&record); s && s->step % report_every == 0)
            progress_(fmt::format("{}: step {}/{}  loss {:.4f}  {:.0f} samples/s", run.tag, s->step,
                                  run.steps, s->loss, s->samples_per_s));
        else if (auto* e = std::get_if<EvalRecord>(&record))
            progress_(fmt::format("{}: eval at step {}: {}", run.tag, e->step,
                                  formatEvalValue(e->metric, e->value)));
        else if (auto* summary = std::get_if<SummaryRecord>(&record)) {
            run.summary = *summary;
            if (summary->target) progress_(fmt::format("{}: {}", run.tag, formatTargetOutcome(*summary)));
        } else if (auto* c = std::get_if<CollectiveRecord>(&record); c && run.collectives++ % 10 == 0)
            // A sweep's sizes as they come: the first, then every tenth.
            progress_(fmt::format("{}: {} {} {} B: {:.2f} us, busbw {:.3f} GB/s ({} size(s) so far{})",
                                  run.tag, c->tool == "scalebench" ? c->backend : c->tool, c->collective,
                                  c->bytes, c->time_s * 1e6, c->busbw_gbps, run.collectives,
                                  c->in_place ? ", in place" : ""));
        else if (auto* x = std::get_if<ErrorRecord>(&record))
            run.rank_errors.push_back(fmt::format("rank {}: {}", x->rank, x->message));
        else if (auto* d = std::get_if<DeviceCheckRecord>(&record)) {
            run.device_check = *d;
            progress_(run.tag + ": " + formatDeviceCheck(*d));
        }
    }
}

void SessionRunner::readMllog(ActiveRun& run) {
    const std::string path = metricFile(run.run_dir, run.attempt, kMllogFileName);
    try {
        MetricFileTail tail(transport_, path,
                            makeOutputReader("mllog", {run.spec.ranks, "scalebench-engine"}));
        std::optional<SummaryRecord> mllog;
        for (const MetricRecord& record : tail.finish())
            if (const auto* s = std::get_if<SummaryRecord>(&record)) mllog = *s;
        if (!mllog) {
            progress_(run.tag + ": warning: MLPerf's log " + path +
                      " is missing or has no run_start and run_stop: no MLPerf time to train");
            return;
        }
        const nlohmann::json mlperf = nlohmann::json::parse(mllog->json).at("mlperf");
        SummaryRecord merged = run.summary ? *run.summary : *mllog;
        nlohmann::json j = nlohmann::json::parse(merged.json);
        j["mlperf"] = mlperf;
        merged.json = j.dump();
        store_.appendRecords(run.run_id, {merged});
        run.summary = merged;
        progress_(fmt::format("{}: MLPerf time to train {} ({}; {} division, benchmark {}) from {}", run.tag,
                              formatTimeToTrain(mlperf.value("time_to_train_min", 0.0)),
                              mlperf.value("status", std::string("no status")),
                              mlperf.value("division", std::string("unknown")),
                              mlperf.value("benchmark", std::string("unnamed")), path));
    } catch (const std::exception& e) {
        progress_(run.tag + ": warning: MLPerf's log " + path + " could not be read: " + e.what());
    }
}

SessionRunner::Ending SessionRunner::finish(ActiveRun& run, const JobStatus& status) {
    store(run, run.tail->finish());
    if (run.spec.group.mllog) readMllog(run);
    const std::int64_t broken = run.tail->parser().brokenLineCount();
    if (broken > 0) {
        const BrokenLine& first = run.tail->parser().brokenLines().front();
        progress_(fmt::format("{}: warning: {} broken metric line(s) skipped; first at line {}: {}", run.tag,
                              broken, first.line_number, first.reason));
    }
    // A device self-check is judged by its verdict: a failed one, or none at all, fails the run whatever the
    // job's exit status.
    std::string device_error;
    if (run.device_check && !run.device_check->passed())
        device_error = formatDeviceCheck(*run.device_check);
    else if (!run.device_check && run.spec.group.check_device && status.state == JobState::Completed)
        device_error = "the device self-check wrote no verdict (no device_check record)";
    const bool ok = status.state == JobState::Completed && run.rank_errors.empty() && device_error.empty();
    std::string error;
    const bool by_user = run.cancel_sent && status.state == JobState::Cancelled;
    if (by_user) {
        error = fmt::format("job {} cancelled by the user", run.job_id);
    } else if (!ok && status.state == JobState::Completed && run.rank_errors.empty()) {
        error = device_error;
    } else if (!ok) {
        error =
            fmt::format("job {} {} (exit status {})", run.job_id, toString(status.state), status.exit_status);
        if (!device_error.empty()) error += "\n" + device_error;
        for (const auto& e : run.rank_errors)
            error += "\n" + e;
        if (!status.detail.empty()) error += "\n" + status.detail;
    }
    const RunStatus stored_status = ok                                    ? RunStatus::Ok
                                    : status.state == JobState::Cancelled ? RunStatus::Cancelled
                                                                          : RunStatus::Failed;
    store_.finishRun(run.run_id, {stored_status, error, broken, status.nodes});
    events_->runFinished(run.run_id, stored_status, error);
    progress_(run.tag + (ok                                   ? ": done"
                         : stored_status == RunStatus::Failed ? ": FAILED: " + error
                                                              : ": cancelled: " + error));
    return ok ? Ending::Ok : by_user ? Ending::CancelledByUser : Ending::Failed;
}

void SessionRunner::requestCancel(std::int64_t run_id) {
    std::lock_guard lock(cancel_mutex_);
    cancel_requests_.insert(run_id);
}

void SessionRunner::requestCancelAll() {
    std::lock_guard lock(cancel_mutex_);
    cancel_all_ = true;
}

bool SessionRunner::cancelRequested(std::int64_t run_id) {
    std::lock_guard lock(cancel_mutex_);
    return cancel_all_ || cancel_requests_.count(run_id) > 0;
}

void SessionRunner::sendCancellations(std::vector<ActiveRun>& active) {
    for (auto& run : active) {
        if (run.cancel_sent || !cancelRequested(run.run_id)) continue;
        progress_(run.tag + ": cancelling job " + run.job_id);
        scheduler_.cancel(run.job_id);
        run.cancel_sent = true;
    }
}

} // namespace scalebench
