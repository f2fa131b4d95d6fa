// Where a session runs: this machine (mpirun), or a cluster reached over SSH (Slurm, with the engine
// deployed).
#pragma once

#include "console_options.h"
#include "scheduler.h"
#include "session_runner.h"
#include "ssh_transport.h"
#include "stored_rows.h"
#include "transport.h"

#include <functional>
#include <memory>
#include <string>

namespace scalebench {

class SessionStore;

using SiteLog = std::function<void(const std::string& line)>;

struct Site {
    std::unique_ptr<Transport> transport;
    std::unique_ptr<Scheduler> scheduler;
    SessionRunnerSettings settings;
};

// This machine: mpirun, run folders under options.out_dir. With `build_engine` (a plan that runs the engine),
// an engine that is neither beside scalebench nor on PATH is built on first use (local_engine.h), its
// progress told to `log`.
Site localSite(const ConsoleOptions& options, const SiteLog& log = {}, bool build_engine = false);

// The cluster named options.cluster in the store: connects over SSH (throws TransportError naming what
// failed: unknown or changed host key, refused login, unreachable host), makes remote_root absolute, and
// deploys the engine (built once per source hash by a Slurm job) unless `deploy_engine` is false (a plan of
// command runs only). `passphrase` answers prompts for encrypted keys.
Site clusterSite(const ConsoleOptions& options, const SessionStore& store, const SiteLog& log,
                 bool deploy_engine = true,
                 std::function<std::string(const std::string& prompt)> passphrase = {});

// The store's cluster of that name, its settings checked (clusterProblems); throws naming the clusters the
// store knows, or every problem of a cluster kept before settings were checked.
ClusterSettings usableCluster(const SessionStore& store, const std::string& name);

// The SSH settings a cluster's settings give.
SshSettings sshSettings(const ClusterSettings& cluster);

} // namespace scalebench
