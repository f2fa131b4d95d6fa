// Reads stored sessions and clusters for the window on a worker thread with its own store connection, and
// saves and removes clusters there; hands each answer over whole, on the window's thread. The answer to a
// read that a newer one of its kind superseded is dropped; a write is always done and answered.
#pragma once

#include "cluster_settings.h"
#include "import_command.h"
#include "metric_record.h"
#include "results_table.h"
#include "run_trace.h"
#include "session_comparison.h"
#include "session_projection.h"
#include "stored_rows.h"

#include <QObject>
#include <QString>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace scalebench {

class SessionStore;

// The store's sessions, oldest first (the store's order).
struct StoredSessionList {
    std::vector<SessionRow> sessions;
    QString error; // empty when read
};

// One stored run with what the views draw of it, built on the loader's thread: the window shares its trace
// and rank times rather than copying or building them (a 1000-run session's took ~60 ms of its event loop).
struct StoredRun {
    RunRow run;
    int steps = 0; // the steps it trains, from its header (0 where it names none: a collective sweep)
    // Its steps and evaluations. Views share it and never change it; RunProgressModel copies it before it
    // would append to it.
    std::shared_ptr<RunTrace> trace = std::make_shared<RunTrace>();
    // By step, ranks in order.
    std::shared_ptr<const std::vector<RankTimesRecord>> rank_times =
        std::make_shared<const std::vector<RankTimesRecord>>();
};

// A stored run from what the store holds of it: its row, its steps and evaluations, its rank times.
StoredRun storedRun(RunRow run, const std::vector<MetricRecord>& records,
                    std::vector<RankTimesRecord> rank_times = {});

// A stored session as the window shows it: its runs with their traces, its figures, and what the
// performance model needs of each training series.
struct StoredSession {
    std::int64_t session_id = 0;
    std::vector<StoredRun> runs;
    std::vector<RunResult> results;
    std::vector<SeriesModelInputs> projection_inputs;
    QString projection_error; // why the model's inputs could not be read (the session itself still loads)
    QString error;            // empty when read; otherwise runs and results are empty
};

// Two stored sessions side by side; a is the reference.
struct StoredComparison {
    std::int64_t a = 0, b = 0;
    ComparedSession session_a, session_b;
    QString error; // empty when read
};

// The clusters stored by name ("local", this machine, is not stored).
struct StoredClusterList {
    std::vector<ClusterSettings> clusters;
    QString error; // empty when read
};

// A cluster saved or removed on the worker thread, and the clusters stored after it.
struct StoredClusterChange {
    ClusterSettings cluster;               // the one saved; of a removal, only its name
    std::string replaced;                  // saved under a new name: the stored cluster it replaced, removed
    std::vector<ClusterSettings> clusters; // the store's clusters after the change
    QString error;                         // empty when done
};

// Logs imported into one new session on the worker thread (importLogs, import_command.h).
struct StoredImport {
    std::string format; // the request's
    ImportOutcome outcome;
    QString error; // why nothing was imported (the store cannot be written, an unknown format); empty if done
};

// A session deleted off the window's thread (SessionStore::deleteSession).
struct StoredDeletion {
    std::int64_t session_id = 0;
    std::string name; // what it was called
    int runs = 0;     // it had
    QString error;    // why it was not deleted (running, gone, the store); empty when it was
};

class StoredSessionLoader : public QObject {
    Q_OBJECT

  public:
    // db: the store's file; it is opened again on the worker thread when the first request comes.
    explicit StoredSessionLoader(std::filesystem::path db, QObject* parent = nullptr);
    // Drops the requests not yet read and waits for the one being read.
    ~StoredSessionLoader() override;

    // Each answers with its signal, later, on this object's thread.
    void listSessions();
    void loadSession(std::int64_t session_id);
    void compareSessions(std::int64_t a, std::int64_t b);
    void listClusters();
    // Saves the cluster (replacing one of its name); a non-empty `replaces` other than its name is then
    // removed: the cluster was renamed. Answers with clusterSaved.
    void saveCluster(const ClusterSettings& cluster, const std::string& replaces = {});
    void removeCluster(const std::string& name); // answers with clusterRemoved
    // Reads the logs into a new session of the store, off the window's thread; answers with logsImported.
    void importLogs(const ImportRequest& request);
    // Deletes an ended session, its runs and their records; a running or orphaned one is refused. Answers
    // with sessionDeleted.
    void deleteSession(std::int64_t session_id);

  signals:
    void sessionsListed(const scalebench::StoredSessionList& list);
    void sessionLoaded(const scalebench::StoredSession& session);
    void sessionsCompared(const scalebench::StoredComparison& comparison);
    void clustersListed(const scalebench::StoredClusterList& clusters);
    void clusterSaved(const scalebench::StoredClusterChange& change);
    void clusterRemoved(const scalebench::StoredClusterChange& change);
    void logsImported(const scalebench::StoredImport& import);
    void sessionDeleted(const scalebench::StoredDeletion& deletion);

  private:
    enum Kind { List, Session, Comparison, Clusters, ClusterChange, Import, Deletion, KindCount };
    // A read can be superseded; a write cannot.
    static constexpr bool supersedable(Kind kind) {
        return kind != ClusterChange && kind != Import && kind != Deletion;
    }
    struct Job {
        Kind kind = List;
        std::uint64_t request = 0;
        std::function<void(SessionStore* store, const QString& open_error)> read;
    };
    template <typename Result, typename Read>
    void request(Kind kind, Result initial, Read read, void (StoredSessionLoader::*answer)(const Result&));
    void work();

    const std::filesystem::path db_;
    std::array<std::atomic<std::uint64_t>, KindCount> latest_{}; // the newest request of each kind
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> jobs_; // guarded by mutex_
    bool stop_ = false;    // guarded by mutex_
    std::thread worker_;
};

} // namespace scalebench

Q_DECLARE_METATYPE(scalebench::StoredSessionList)
Q_DECLARE_METATYPE(scalebench::StoredDeletion)
Q_DECLARE_METATYPE(scalebench::StoredSession)
Q_DECLARE_METATYPE(scalebench::StoredComparison)
Q_DECLARE_METATYPE(scalebench::StoredClusterList)
Q_DECLARE_METATYPE(scalebench::StoredImport)
Q_DECLARE_METATYPE(scalebench::StoredClusterChange)
