// scalebench --batch PLAN: run a plan headless, store the session, print the results table, write
// results.csv.
#include "batch_command.h"

#include "baseline_session.h"
#include "dry_run.h"
#include "interrupts.h"
#include "orphan_sessions.h"
#include "run_cost.h"
#include "session_comparison.h"
#include "session_results.h"
#include "session_runner.h"
#include "session_site.h"
#include "session_store.h"
#include "verdicts.h"

#include <csignal>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <mutex>

namespace scalebench {
namespace {

const char* signalName(int signal) {
    return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

// Keeps what a second interrupt would leave behind up to date: the session, still `running` in the store, and
// the jobs it submitted that have not ended.
class LeftBehind final : public SessionEvents {
  public:
    LeftBehind(InterruptWatch& watch, std::string db, std::string cluster)
        : watch_(watch), db_(std::move(db)), cluster_(std::move(cluster)) {}
    void sessionStarted(std::int64_t session_id, const std::vector<RunSpec>&) override {
        session_id_ = session_id;
        update();
    }
    void runSubmitted(const SubmittedRun& run) override {
        jobs_[run.run_id] = run.job_id;
        update();
    }
    void runFinished(std::int64_t run_id, RunStatus, const std::string&) override {
        jobs_.erase(run_id);
        update();
    }

  private:
    void update() {
        std::string jobs;
        for (const auto& [run, job] : jobs_)
            jobs += (jobs.empty() ? "" : " ") + job;
        std::string message = "Session " + std::to_string(session_id_) + " stays 'running' in " + db_ +
                              " until the next start of scalebench resolves it.";
        if (!jobs.empty())
            message +=
                cluster_ == kLocalClusterName
                    ? " Still running here: mpirun " + jobs + " (kill -TERM -PID stops one)."
                    : " Still running on " + cluster_ + ": job(s) " + jobs + " (scancel " + jobs + ").";
        watch_.setLeftBehind(message);
    }
    InterruptWatch& watch_;
    std::string db_, cluster_;
    std::int64_t session_id_ = 0;
    std::map<std::int64_t, std::string> jobs_; // run id -> job id, while it runs
};

// The verdicts of a finished session: its plan's references, and its figures against the baseline; printed,
// written as JUnit where asked. True where a verdict fails.
bool judge(const ConsoleOptions& options, const RunPlan& plan, const SessionStore& store,
           std::int64_t session_id, const std::vector<RunResult>& results, StepTimeConvention convention,
           std::ostream& out) {
    const std::optional<SessionRow> current = store.session(session_id);
    const std::string cluster = current ? current->cluster : "";
    const std::vector<ReferenceVerdict> references = referenceVerdicts(results, plan.references, cluster);
    std::vector<RegressionVerdict> regressions;
    std::string baseline_name;
    if (!options.baseline.empty() && current) {
        if (const std::optional<SessionRow> base = baselineSession(store, options.baseline, *current)) {
            baseline_name = fmt::format("session {} ({}, {})", base->id, base->name, base->started_at);
            regressions = regressionVerdicts(loadSessionResults(store, base->id, convention), results,
                                             plan.regression_threshold);
        } else {
            out << "\nno baseline: no earlier session of '" << current->name << "' on " << cluster
                << " ended ok\n";
        }
    }
    out << formatVerdicts(plan.references.empty() ? std::vector<ReferenceVerdict>{} : references, regressions,
                          baseline_name);
    if (!options.junit.empty()) {
        if (options.junit.has_parent_path()) std::filesystem::create_directories(options.junit.parent_path());
        std::ofstream(options.junit) << junitXml(plan.name, results, references, regressions);
        out << "JUnit XML: " << options.junit.string() << "\n";
    }
    return verdictsFail(references, regressions);
}

// --step-time: which steps the throughput figures are read from.
StepTimeConvention stepTimeConvention(const ConsoleOptions& options) {
    return options.step_time == "last-step" ? StepTimeConvention::LastStep
                                            : StepTimeConvention::SteadyStateMedian;
}

// Before anything runs: a baseline named by id or name must be in the store ("last" is resolved after), and
// the sessions an earlier console left 'running' are resolved, each said on `out`.
void prepareStore(const ConsoleOptions& options, SessionStore& store, std::ostream& out) {
    if (!options.baseline.empty() && options.baseline != "last")
        baselineSession(store, options.baseline, SessionRow{});
    for (const auto& line : resolveOrphans(store))
        out << line << std::endl;
}

// The session runner that an interrupt cancels, while one runs: the watcher thread cancels, the main thread
// runs.
class RunningSession {
  public:
    void cancelAll() {
        std::lock_guard lock(mutex_);
        if (running_) running_->requestCancelAll();
    }
    SessionOutcome run(SessionRunner& runner, const RunPlan& plan) {
        {
            std::lock_guard lock(mutex_);
            running_ = &runner;
        }
        const SessionOutcome outcome = runner.run(plan);
        {
            std::lock_guard lock(mutex_);
            running_ = nullptr;
        }
        return outcome;
    }

  private:
    std::mutex mutex_;
    SessionRunner* running_ = nullptr;
};

// Where the plan runs: this machine, or options.cluster with the jobs an earlier console left there resolved;
// each line of progress on `out`.
Site openSite(const ConsoleOptions& options, const RunPlan& plan, SessionStore& store, std::ostream& out) {
    Site site = options.cluster.empty()
                    ? localSite(
                          options, [&](const std::string& line) { out << line << std::endl; },
                          runsEngine(expandPlan(plan)))
                    : clusterSite(
                          options, store, [&](const std::string& line) { out << line << std::endl; },
                          runsEngine(expandPlan(plan)));
    if (!options.cluster.empty())
        for (const auto& line : resolveOrphansOnCluster(store, site.settings.where.cluster.name,
                                                        *site.transport, *site.scheduler))
            out << line << std::endl;
    return site;
}

// A finished session on `out`: the results table, the collective sweeps, the runs' costs, the verdicts (true
// where one fails), and OUT/results.csv.
bool reportSession(const ConsoleOptions& options, const RunPlan& plan, const SessionStore& store,
                   std::int64_t session_id, const std::vector<RunResult>& results, std::ostream& out) {
    out << "\n" << formatResultsTable(results) << formatCollectiveSweeps(results);
    if (const std::optional<SessionRow> session = store.session(session_id))
        if (const std::string costs = formatRunCosts(results, sessionPrice(*session)); !costs.empty())
            out << "\n" << costs;
    const bool verdicts_fail =
        judge(options, plan, store, session_id, results, stepTimeConvention(options), out);
    const auto csv_path = options.out_dir / "results.csv";
    std::ofstream(csv_path) << resultsCsv(results);
    out << "\nsession " << session_id << " stored in " << options.db.string()
        << "; CSV: " << csv_path.string() << "\n";
    return verdicts_fail;
}

// The exit code of a session that ran (batch_command.h), its reason on `err`: interrupted by `signal` (0:
// none), a run failed, a verdict failed, or 0.
int exitCode(const SessionOutcome& outcome, int signal, bool verdicts_fail, std::ostream& err) {
    if (signal) {
        err << "scalebench: session " << outcome.session_id << " cancelled by " << signalName(signal)
            << ": its jobs were cancelled and what they wrote is stored\n";
        return 128 + signal;
    }
    if (outcome.failed_runs > 0) {
        err << "scalebench: " << outcome.failed_runs << " of " << outcome.runs << " runs failed\n";
        return 1;
    }
    if (verdicts_fail) {
        err << "scalebench: every run succeeded, but a figure failed its reference or regressed (see the "
               "verdicts above)\n";
        return 3;
    }
    return 0;
}

} // namespace

int addClusters(const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    try {
        const auto clusters = parseClusterFile(options.cluster_file);
        if (options.db.has_parent_path()) std::filesystem::create_directories(options.db.parent_path());
        SessionStore store(options.db);
        for (const auto& c : clusters) {
            store.saveCluster(c);
            out << "cluster '" << c.name << "' (" << (c.user.empty() ? "" : c.user + "@") << c.host << ":"
                << c.port << ") kept in " << options.db.string() << "\n";
        }
        return 0;
    } catch (const std::exception& e) {
        err << "scalebench: " << e.what() << "\n";
        return 2;
    }
}

int compareSessions(const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    try {
        if (!std::filesystem::exists(options.db))
            throw std::runtime_error("no session store " + options.db.string());
        SessionStore store(options.db);
        std::optional<SessionRow> a, b;
        for (const auto& s : store.sessions()) {
            if (s.id == options.compare_a) a = s;
            if (s.id == options.compare_b) b = s;
        }
        for (const auto& [row, id] : {std::pair{&a, options.compare_a}, std::pair{&b, options.compare_b}})
            if (!*row)
                throw std::runtime_error("no session " + std::to_string(id) + " in " + options.db.string());
        const ComparedSession session_a = loadComparedSession(store, *a, stepTimeConvention(options)),
                              session_b = loadComparedSession(store, *b, stepTimeConvention(options));
        out << formatComparison(std::to_string(a->id) + " " + a->name + " (" + a->started_at + ")",
                                std::to_string(b->id) + " " + b->name + " (" + b->started_at + ")",
                                compareFigures(session_a.results, session_b.results),
                                compareSettings(session_a, session_b),
                                compareCapsules(session_a.capsules, session_b.capsules));
        return 0;
    } catch (const std::exception& e) {
        err << "scalebench: " << e.what() << "\n";
        return 2;
    }
}

BatchResult runBatch(const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    BatchResult batch;
    try {
        const RunPlan plan = parsePlanFile(options.plan);
        for (const auto& warning : plan.warnings)
            err << "scalebench: warning: " << warning << "\n";
        if (options.dry_run) {
            batch.exit_code = printDryRun(plan, options, out, err);
            return batch;
        }
        if (options.db.has_parent_path()) std::filesystem::create_directories(options.db.parent_path());
        SessionStore store(options.db);
        prepareStore(options, store, out);
        RunningSession running;
        InterruptWatch interrupts([&](int signal) {
            out << "\ninterrupted (" << signalName(signal)
                << "): cancelling the session's jobs and collecting what they wrote; interrupt again to "
                   "leave at once"
                << std::endl;
            running.cancelAll();
        });
        interrupts.setLeftBehind("Nothing was submitted.");
        Site site = openSite(options, plan, store, out);
        if (const int signal = interrupts.signal()) {
            err << "scalebench: interrupted before any run was submitted\n";
            batch.exit_code = 128 + signal;
            return batch;
        }
        SessionRunner runner(store, *site.scheduler, *site.transport, site.settings,
                             [&](const std::string& line) { out << line << std::endl; });
        LeftBehind left_behind(interrupts, options.db.string(), site.settings.where.cluster.name);
        runner.setEvents(&left_behind);
        const SessionOutcome outcome = running.run(runner, plan);
        std::filesystem::create_directories(options.out_dir);

        batch.results = loadSessionResults(store, outcome.session_id, stepTimeConvention(options));
        const bool verdicts_fail =
            reportSession(options, plan, store, outcome.session_id, batch.results, out);
        batch.exit_code = exitCode(outcome, interrupts.signal(), verdicts_fail, err);
    } catch (const PlanError& e) {
        err << "scalebench: plan error: " << e.what() << "\n";
        batch.exit_code = 2;
    } catch (const StoreError& e) {
        err << "scalebench: " << e.what() << "\n";
        batch.exit_code = 2;
    } catch (const std::exception& e) {
        err << "scalebench: " << e.what() << "\n";
        batch.exit_code = 2;
    }
    return batch;
}

} // namespace scalebench
