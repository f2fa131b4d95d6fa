// scalebench --batch PLAN --dry-run [--cluster NAME [--check]]: what a batch would run and where, running
// nothing.
#include "dry_run.h"

#include "cluster_readiness.h"
#include "engine_deployment.h"
#include "job_request.h"
#include "local_engine.h"
#include "no_connection.h"
#include "run_folder.h"
#include "scratch_folder.h"
#include "session_site.h"
#include "session_store.h"
#include "slurm_scheduler.h"

#include <filesystem>

namespace scalebench {
namespace {

void printLocal(const RunPlan& plan, const ConsoleOptions& options, std::ostream& out) {
    const Site site = localSite(options);
    const auto runs = expandPlan(plan);
    out << "plan '" << plan.name << "': " << runs.size() << " runs (dry run: nothing is started)\n";
    for (const auto& run : runs)
        out << run.name << ": " << site.scheduler->commandLine(jobRequestFor(run, site.settings.where))
            << "\n";
    if (runsEngine(runs))
        out << localEngineBuildPlan(options.engine,
                                    {options.engine_sources, engineCacheFolder(), options.torch_python});
}

// The cluster named by --cluster, its settings checked, and the store's id; throws naming the clusters the
// store knows, or the cluster's problems.
std::pair<ClusterSettings, std::string> storedCluster(const ConsoleOptions& options) {
    if (!std::filesystem::exists(options.db)) // and no store is created for a dry run
        throw std::runtime_error("no cluster '" + options.cluster + "' in " + options.db.string() +
                                 " (known: none); add it with --add-clusters FILE");
    const SessionStore store(options.db);
    return {usableCluster(store, options.cluster), store.storeId()};
}

std::string whereOf(const ClusterSettings& c) {
    std::string where = c.user.empty() ? c.host : c.user + "@" + c.host;
    if (c.port > 0) where.append(":").append(std::to_string(c.port));
    return where;
}

int printCluster(const RunPlan& plan, const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    auto [cluster, store_id] = storedCluster(options);
    std::optional<ClusterReadiness> readiness;
    const auto runs = expandPlan(plan);
    PlanNeeds needs{runsEngine(runs), false};
    for (const auto& run : runs)
        needs.containers = needs.containers || !run.group.command.container_image.empty();
    if (options.check) {
        readiness = checkClusterReadiness(
            cluster, options.engine_sources,
            [&](const std::string& root) {
                ClusterSettings resolved = cluster;
                resolved.remote_root = root;
                NoConnection none(whereOf(cluster));
                SlurmScheduler slurm(none, resolved);
                const ScratchFolder scratch("scalebench-dry-run");
                return EngineDeployment(none, slurm, resolved, options.engine_sources)
                    .plan(scratch.path())
                    .target.engine;
            },
            needs);
        cluster.remote_root = readiness->remote_root;
    }
    const std::string where = whereOf(cluster);
    out << "plan '" << plan.name << "': " << runs.size() << " runs on cluster '" << cluster.name << "' ("
        << where << ") (dry run: nothing is " << (options.check ? "" : "connected to, ")
        << "uploaded or submitted)\n";
    if (!cluster.remote_root.starts_with("/"))
        out << "remote_root '" << cluster.remote_root << "' is relative to the login's home folder on the "
            << "cluster: the paths below start with it, the real scripts with its absolute path (--check "
               "finds it)\n";

    // The engine: what EngineDeployment::ensure does when it is not built there yet; a plan of commands only
    // needs none.
    NoConnection none(where);
    SlurmScheduler slurm(none, cluster);
    const ScratchFolder scratch("scalebench-dry-run");
    const EngineBuildPlan build =
        EngineDeployment(none, slurm, cluster, options.engine_sources).plan(scratch.path());
    if (!runsEngine(runs))
        out << "\nengine: not deployed: every run of the plan is a command of its own\n";
    else
        out << "\nengine: the sources in " << options.engine_sources.string()
            << " (CMakeLists.txt, cmake/, protocol/, trainers/) "
            << "packed: " << std::filesystem::file_size(build.archive) / 1024 << " KiB, hash "
            << build.target.hash << "\n  used as it is if " << build.target.engine
            << " exists on the cluster; else uploaded to " << build.target.folder
            << "/sources.tar.gz, unpacked into " << build.target.folder
            << "/src and built in src/build/release "
            << "by this job (submitted from " << build.target.folder << ", its log stdout.log there):\n"
            << "--- " << build.target.folder << "/job.sbatch\n"
            << slurm.commandLine(build.job);

    // Every run's job, in the folder the session would give it (its number and UUID exist once it starts).
    const SessionFolderKey session{store_id, 0, ""};
    const std::string sessions_root = cluster.remote_root + "/sessions";
    out << "\nruns: each in " << runFolder(sessions_root, session, "RUN")
        << " (N and UUID: the session's, once it starts), each attempt of its job in RUN/attempt-K\n";
    int index = 0;
    for (const auto& run : runs) {
        const JobRequest job = jobRequestFor(run, {cluster, build.target.engine, sessions_root, session});
        out << "\n--- [run " << ++index << "/" << runs.size() << "] " << job.run_dir << "/job.sbatch\n"
            << slurm.commandLine(job);
    }
    if (!readiness) return 0;
    out << "\ncheck of cluster '" << cluster.name << "' (" << readiness->where << "):\n"
        << formatReadiness(*readiness);
    if (const int problems = readiness->problems()) {
        err << "scalebench: the check found " << problems << (problems == 1 ? " problem" : " problems")
            << " on cluster '" << cluster.name << "'\n";
        return 2;
    }
    return 0;
}

} // namespace

int printDryRun(const RunPlan& plan, const ConsoleOptions& options, std::ostream& out, std::ostream& err) {
    if (options.cluster.empty()) {
        printLocal(plan, options, out);
        return 0;
    }
    return printCluster(plan, options, out, err);
}

} // namespace scalebench
