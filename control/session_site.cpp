// Where a session runs: this machine (mpirun), or a cluster reached over SSH (Slurm, with the engine
// deployed).
#include "session_site.h"

#include "engine_deployment.h"
#include "job_preview.h"
#include "local_engine.h"
#include "local_scheduler.h"
#include "local_transport.h"
#include "session_store.h"
#include "shell_words.h"
#include "slurm_scheduler.h"

#include <climits>

namespace scalebench {

Site localSite(const ConsoleOptions& options, const SiteLog& log, bool build_engine) {
    const std::string engine =
        build_engine
            ? localEngine(
                  options.engine, {options.engine_sources, engineCacheFolder(), options.torch_python},
                  log ? log : [](const std::string&) {})
            : options.engine;
    Site site{
        std::make_unique<LocalTransport>(),
        std::make_unique<LocalScheduler>(),
        {{localMachine(), localEnginePath(engine), std::filesystem::absolute(options.out_dir).string(), {}},
         std::chrono::milliseconds(options.poll_ms)}};
    return site;
}

SshSettings sshSettings(const ClusterSettings& cluster) {
    SshSettings ssh;
    ssh.host = cluster.host;
    ssh.user = cluster.user;
    ssh.port = cluster.port;
    ssh.identity_files = cluster.identity_files;
    if (!cluster.known_hosts.empty()) ssh.known_hosts_file = cluster.known_hosts;
    ssh.trust_on_first_use = cluster.trust_on_first_use;
    return ssh;
}

ClusterSettings usableCluster(const SessionStore& store, const std::string& name) {
    std::optional<ClusterSettings> cluster = store.cluster(name);
    if (!cluster) {
        std::string known;
        for (const auto& n : store.clusterNames()) {
            if (!known.empty()) known += ", ";
            known += n;
        }
        throw std::runtime_error("no cluster '" + name + "' in " + store.file().string() + " (known: " +
                                 (known.empty() ? "none" : known) + "); add it with --add-clusters FILE");
    }
    // A store from before settings were checked may keep what ssh or Slurm would refuse: refused unconnected.
    if (const auto problems = clusterProblems(*cluster); !problems.empty()) {
        std::string listed;
        for (const auto& p : problems)
            listed += (listed.empty() ? "" : "; ") + p.problem;
        throw std::runtime_error("cluster '" + cluster->name + "' in " + store.file().string() +
                                 " cannot be used: " + listed +
                                 " (correct it in the Clusters tab, or again with --add-clusters FILE)");
    }
    return *cluster;
}

Site clusterSite(const ConsoleOptions& options, const SessionStore& store, const SiteLog& log,
                 bool deploy_engine, std::function<std::string(const std::string& prompt)> passphrase) {
    auto cluster = std::optional<ClusterSettings>(usableCluster(store, options.cluster));
    SshSettings ssh = sshSettings(*cluster);
    ssh.passphrase = std::move(passphrase);
    ssh.notice =
        log; // a host key recorded on first use (the head's or the jump host's) is said, with its fingerprint
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
    DeployedEngine engine;
    if (deploy_engine)
        engine =
            EngineDeployment(*site.transport, *site.scheduler, *cluster, options.engine_sources).ensure(log);
    else
        log("engine: not deployed: every run of the plan is a command of its own");
    site.settings = {
        {*cluster, engine.engine, (std::filesystem::path(cluster->remote_root) / "sessions").string(), {}},
        std::chrono::milliseconds(cluster->poll_seconds * 1000),
        INT_MAX};
    return site;
}

} // namespace scalebench
