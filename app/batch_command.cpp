// scalebench --batch PLAN: run a plan headless, store the session, print the results table, write
// results.csv.
#include "batch_command.h"

#include "engine_deployment.h"
#include "engine_invocation.h"
#include "local_scheduler.h"
#include "local_transport.h"
#include "session_results.h"
#include "session_runner.h"
#include "shell_words.h"
#include "slurm_scheduler.h"
#include "ssh_transport.h"

#include <climits>
#include <fstream>

namespace scalebench {
namespace {

void printDryRun(const RunPlan& plan, const ConsoleOptions& options, std::ostream& out) {
    LocalScheduler scheduler;
    const auto runs = expandPlan(plan);
    out << "plan '" << plan.name << "': " << runs.size() << " runs (dry run: nothing is started)\n";
    for (const auto& run : runs) {
        const auto metrics = (options.out_dir / "session-N" / run.name / "metrics.jsonl").string();
        out << run.name << ": "
            << scheduler.commandLine({run.name, run.ranks, engineArguments(run, options.engine, metrics), ""})
            << "\n";
    }
}

// Where a session runs: this machine (mpirun), or a cluster reached over SSH (Slurm, with the engine
// deployed).
struct Site {
    std::unique_ptr<Transport> transport;
    std::unique_ptr<Scheduler> scheduler;
    SessionRunnerSettings settings;
};

Site localSite(const ConsoleOptions& options) {
    Site site{std::make_unique<LocalTransport>(),
              std::make_unique<LocalScheduler>(),
              {options.engine, options.out_dir, std::chrono::milliseconds(options.poll_ms), "local"}};
    return site;
}

Site clusterSite(const ConsoleOptions& options, const SessionStore& store, std::ostream& out) {
    std::optional<ClusterSettings> cluster = store.cluster(options.cluster);
    if (!cluster) {
        std::string known;
        for (const auto& name : store.clusterNames()) {
            if (!known.empty()) known += ", ";
            known += name;
        }
        throw std::runtime_error("no cluster '" + options.cluster + "' in " + store.file().string() +
                                 " (known: " + (known.empty() ? "none" : known) +
                                 "); add it with --add-clusters FILE");
    }
    SshSettings ssh;
    ssh.host = cluster->host;
    ssh.user = cluster->user;
    ssh.port = cluster->port;
    ssh.identity_files = cluster->identity_files;
    if (!cluster->known_hosts.empty()) ssh.known_hosts_file = cluster->known_hosts;
    ssh.trust_on_first_use = cluster->trust_on_first_use;
    Site site;
    site.transport = std::make_unique<SshTransport>(ssh);
    // Job scripts cd into run folders: every remote path must be absolute.
    const CommandResult root = site.transport->run("mkdir -p " + shellQuote(cluster->remote_root) +
                                                   " && cd " + shellQuote(cluster->remote_root) + " && pwd");
    if (root.exit_status != 0)
        throw TransportError("cannot use " + cluster->remote_root + " on " + site.transport->describe() +
                             ": " + root.err);
    cluster->remote_root = root.out.substr(0, root.out.find('\n'));
    site.scheduler = std::make_unique<SlurmScheduler>(*site.transport, *cluster);
    EngineDeployment deployment(*site.transport, *site.scheduler, *cluster, options.engine_sources);
    const DeployedEngine engine =
        deployment.ensure([&](const std::string& line) { out << line << std::endl; });
    site.settings = {engine.engine,
                     std::filesystem::path(cluster->remote_root) / "sessions",
                     std::chrono::milliseconds(cluster->poll_seconds * 1000),
                     cluster->name,
                     INT_MAX,
                     clusterToJson(*cluster)};
    return site;
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
        Site site = options.cluster.empty() ? localSite(options) : clusterSite(options, store, out);
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
