// scalebench --batch PLAN: run a plan headless, store the session, print the results table, write
// results.csv.
#include "batch_command.h"

#include "engine_invocation.h"
#include "local_scheduler.h"
#include "run_folder.h"
#include "session_comparison.h"
#include "session_results.h"
#include "session_runner.h"
#include "session_site.h"

#include <fstream>

namespace scalebench {
namespace {

void printDryRun(const RunPlan& plan, const ConsoleOptions& options, std::ostream& out) {
    LocalScheduler scheduler;
    const auto runs = expandPlan(plan);
    out << "plan '" << plan.name << "': " << runs.size() << " runs (dry run: nothing is started)\n";
    for (const auto& run : runs) {
        out << run.name << ": "
            << scheduler.commandLine(
                   {run.name, run.ranks, engineArguments(run, options.engine, kMetricFileName), ""})
            << "\n";
    }
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
        const ComparedSession session_a = loadComparedSession(store, *a),
                              session_b = loadComparedSession(store, *b);
        out << formatComparison(std::to_string(a->id) + " " + a->name + " (" + a->started_at + ")",
                                std::to_string(b->id) + " " + b->name + " (" + b->started_at + ")",
                                compareFigures(session_a.results, session_b.results),
                                compareSettings(session_a, session_b));
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
        if (options.dry_run) {
            printDryRun(plan, options, out);
            return batch;
        }
        if (options.db.has_parent_path()) std::filesystem::create_directories(options.db.parent_path());
        SessionStore store(options.db);
        Site site =
            options.cluster.empty()
                ? localSite(options)
                : clusterSite(options, store, [&](const std::string& line) { out << line << std::endl; });
        SessionRunner runner(store, *site.scheduler, *site.transport, site.settings,
                             [&](const std::string& line) { out << line << std::endl; });
        const SessionOutcome outcome = runner.run(plan);
        std::filesystem::create_directories(options.out_dir);

        batch.results = loadSessionResults(store, outcome.session_id);
        out << "\n" << formatResultsTable(batch.results) << formatCollectiveSweeps(batch.results);
        const auto csv_path = options.out_dir / "results.csv";
        std::ofstream(csv_path) << resultsCsv(batch.results);
        out << "\nsession " << outcome.session_id << " stored in " << options.db.string()
            << "; CSV: " << csv_path.string() << "\n";
        if (outcome.failed_runs > 0) {
            err << "scalebench: " << outcome.failed_runs << " of " << outcome.runs << " runs failed\n";
            batch.exit_code = 1;
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
