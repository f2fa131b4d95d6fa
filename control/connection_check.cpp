// Tests the connection to a cluster on a worker thread: reachable, its host key against known_hosts, the
// login, and what it runs jobs with; delivers one whole ConnectionReport.
#include "connection_check.h"

#include "known_hosts.h"
#include "local_transport.h"
#include "session_site.h"
#include "ssh_transport.h"

#include <QMetaObject>

namespace scalebench {
namespace {
std::string firstLine(const std::string& text) {
    const auto start = text.find_first_not_of(" \t\n");
    if (start == std::string::npos) return "";
    return text.substr(start, text.find('\n', start) - start);
}
} // namespace

ConnectionReport checkConnection(const ClusterSettings& cluster) {
    ConnectionReport report;
    report.cluster = cluster.name;
    if (isLocalMachine(cluster)) {
        LocalTransport local;
        report.local = report.reachable = true;
        report.where = local.describe();
        report.remote_host = firstLine(local.run("hostname").out);
        const CommandResult mpirun = local.run("mpirun --version");
        if (mpirun.exit_status == 0)
            report.launcher = firstLine(mpirun.out);
        else
            report.error = "mpirun is not usable here: " + firstLine(mpirun.err + mpirun.out);
        return report;
    }
    SshSettings ssh = sshSettings(cluster);
    report.where = (cluster.user.empty() ? "" : cluster.user + "@") + cluster.host +
                   (cluster.port > 0 ? ":" + std::to_string(cluster.port) : "");
    try {
        report.host_key = probeHostKey(ssh);
        report.reachable = true;
    } catch (const TransportError& e) {
        report.error = e.what();
        return report;
    }
    if (report.host_key.state != HostKeyState::Known) return report; // the user decides first
    try {
        ssh.trust_on_first_use = false; // the key is known: nothing to add
        SshTransport transport(ssh);
        report.logged_in = true;
        report.where = transport.describe();
        report.remote_host = firstLine(transport.run("hostname").out);
        const CommandResult sbatch = transport.run(cluster.launcher == ClusterSettings::Launcher::Mpirun
                                                       ? "sbatch --version && mpirun --version"
                                                       : "sbatch --version");
        if (sbatch.exit_status == 0)
            report.launcher = firstLine(sbatch.out);
        else
            report.error = "Slurm's sbatch is not usable on " + transport.describe() + ": " +
                           firstLine(sbatch.err.empty() ? sbatch.out : sbatch.err);
    } catch (const TransportError& e) {
        report.error = e.what();
    }
    return report;
}

ConnectionCheck::ConnectionCheck(QObject* parent) : QObject(parent) {
    qRegisterMetaType<ConnectionReport>();
}

ConnectionCheck::~ConnectionCheck() {
    // Reports posted before this point are dropped with the object's pending events.
    for (auto& [id, worker] : workers_)
        worker.join();
}

void ConnectionCheck::check(const ClusterSettings& cluster) {
    start(cluster, "");
}

void ConnectionCheck::trustAndCheck(const ClusterSettings& cluster, const std::string& fingerprint) {
    start(cluster, fingerprint);
}

bool ConnectionCheck::running() const {
    return running_ > 0;
}

void ConnectionCheck::start(ClusterSettings cluster, std::string fingerprint) {
    const std::uint64_t id = ++latest_;
    ++running_;
    workers_[id] =
        std::thread([this, id, cluster = std::move(cluster), fingerprint = std::move(fingerprint)] {
            ConnectionReport report;
            try {
                if (!fingerprint.empty()) trustHostKey(sshSettings(cluster), fingerprint);
                report = checkConnection(cluster);
            } catch (const std::exception& e) {
                report.cluster = cluster.name;
                report.error = e.what();
            }
            QMetaObject::invokeMethod(
                this,
                [this, id, report = std::move(report)] {
                    --running_;
                    workers_.at(id).join(); // it has nothing left to do but return
                    workers_.erase(id);
                    if (id == latest_) emit finished(report); // a superseded check's report is stale
                },
                Qt::QueuedConnection);
        });
}

} // namespace scalebench
