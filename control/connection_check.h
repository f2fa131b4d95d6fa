// Tests the connection to a cluster on a worker thread: reachable, its host key against known_hosts, the
// login, and what it runs jobs with; delivers one whole ConnectionReport.
#pragma once

#include "cluster_settings.h"
#include "host_key_finding.h"

#include <QObject>
#include <cstdint>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace scalebench {

struct ConnectionReport {
    std::string cluster;     // its name
    std::string where;       // "user@host:port", or "this machine"
    bool reachable = false;  // the server answered (always, for this machine)
    HostKeyFinding host_key; // for a remote cluster that answered (core/plans/host_key_finding.h)
    bool logged_in = false;  // the login worked (only tried when the host key is known)
    std::string remote_host; // `hostname` where commands run
    std::string launcher;    // "slurm 22.05.8" from sbatch --version, or mpirun's first line; "" when none
    std::string error;       // why the check stopped short, else ""
    bool local = false;      // this machine, no SSH
    // Ready for runs: logged in (or this machine) with a launcher found.
    bool ok() const { return (local || logged_in) && !launcher.empty() && error.empty(); }
};

// The whole check, blocking: for a remote cluster, the host key first; the login only when the key is known.
ConnectionReport checkConnection(const ClusterSettings& cluster);

// Runs checkConnection on a worker thread and hands over the report on the object's thread. A check started
// while another runs supersedes it: only the newest check's report is delivered. The destructor waits for
// running checks (each is bounded by the connection timeout).
class ConnectionCheck : public QObject {
    Q_OBJECT
  public:
    explicit ConnectionCheck(QObject* parent = nullptr);
    ~ConnectionCheck() override;

    void check(const ClusterSettings& cluster);
    // Adds the host key with this fingerprint (the one the user saw and accepted) to the cluster's
    // known_hosts, then checks again. A server that now offers another key is reported, and nothing is added.
    void trustAndCheck(const ClusterSettings& cluster, const std::string& fingerprint);
    bool running() const;

  signals:
    void finished(const scalebench::ConnectionReport& report);

  private:
    void start(ClusterSettings cluster, std::string fingerprint);

    std::map<std::uint64_t, std::thread> workers_; // by check; joined when its report arrives
    std::uint64_t latest_ = 0;                     // the check whose report counts (GUI thread only)
    int running_ = 0;                              // GUI thread only
};

} // namespace scalebench

Q_DECLARE_METATYPE(scalebench::ConnectionReport)
