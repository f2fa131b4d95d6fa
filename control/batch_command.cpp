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
    void runFinished(std::int64_t run_id, const std::string&, const std::string&) override {
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
        // A baseline named by id or name must be there before anything runs ("last" is resolved after).
        if (!options.baseline.empty() && options.baseline != "last")
            baselineSession(store, options.baseline, SessionRow{});
        for (const auto& line : resolveOrphans(store))
            out << line << std::endl;
        std::mutex runner_mutex;
        SessionRunner* running = nullptr;
        InterruptWatch interrupts([&](int signal) {
            out << "\ninterrupted (" << signalName(signal)
                << "): cancelling the session's jobs and collecting what they wrote; interrupt again to "
                   "leave at once"
                << std::endl;
            std::lock_guard lock(runner_mutex);
            if (running) running->requestCancelAll();
        });
        interrupts.setLeftBehind("Nothing was submitted.");
        Site site = options.cluster.empty()
                        ? localSite(
                              options, [&](const std::string& line) { out << line << std::endl; },
                              runsEngine(expandPlan(plan)))
                        : clusterSite(
                              options, store, [&](const std::string& line) { out << line << std::endl; },
                              runsEngine(expandPlan(plan)));
        if (!options.cluster.empty())
            for (const auto& line :
                 resolveOrphansOnCluster(store, site.settings.cluster, *site.transport, *site.scheduler))
                out << line << std::endl;
        if (const int signal = interrupts.signal()) {
            err << "scalebench: interrupted before any run was submitted\n";
            batch.exit_code = 128 + signal;
            return batch;
        }
        SessionRunner runner(store, *site.scheduler, *site.transport, site.settings,
                             [&](const std::string& line) { out << line << std::endl; });
        LeftBehind left_behind(interrupts, options.db.string(), site.settings.cluster);
        runner.setEvents(&left_behind);
        {
            std::lock_guard lock(runner_mutex);
            running = &runner;
        }
        const SessionOutcome outcome = runner.run(plan);
        {
            std::lock_guard lock(runner_mutex);
            running = nullptr;
        }
        std::filesystem::create_directories(options.out_dir);

        batch.results = loadSessionResults(store, outcome.session_id, stepTimeConvention(options));
        out << "\n" << formatResultsTable(batch.results) << formatCollectiveSweeps(batch.results);
        if (const std::optional<SessionRow> session = store.session(outcome.session_id))
            if (const std::string costs = formatRunCosts(batch.results, sessionPrice(*session));
                !costs.empty())
                out << "\n" << costs;
        const bool verdicts_fail =
            judge(options, plan, store, outcome.session_id, batch.results, stepTimeConvention(options), out);
        const auto csv_path = options.out_dir / "results.csv";
        std::ofstream(csv_path) << resultsCsv(batch.results);
        out << "\nsession " << outcome.session_id << " stored in " << options.db.string()
            << "; CSV: " << csv_path.string() << "\n";
        if (const int signal = interrupts.signal()) {
            err << "scalebench: session " << outcome.session_id << " cancelled by " << signalName(signal)
                << ": its jobs were cancelled and what they wrote is stored\n";
            batch.exit_code = 128 + signal;
        } else if (outcome.failed_runs > 0) {
            err << "scalebench: " << outcome.failed_runs << " of " << outcome.runs << " runs failed\n";
            batch.exit_code = 1;
        } else if (verdicts_fail) {
            err << "scalebench: every run succeeded, but a figure failed its reference or regressed (see the "
                   "verdicts above)\n";
            batch.exit_code = 3;
        }
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
