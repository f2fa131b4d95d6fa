// Reads stored sessions and clusters for the window on a worker thread with its own store connection, and
// saves and removes clusters there; hands each answer over whole, on the window's thread. The answer to a
// read that a newer one of its kind superseded is dropped; a write is always done and answered.
#include "stored_session_loader.h"

#include "session_results.h"
#include "session_store.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaObject>
#include <exception>
#include <memory>
#include <optional>

namespace scalebench {

namespace {

QString noSession(std::int64_t id) {
    return QStringLiteral("no session %1 in the store").arg(id);
}

std::vector<ClusterSettings> storedClusters(const SessionStore& store) {
    std::vector<ClusterSettings> clusters;
    for (const auto& name : store.clusterNames())
        if (auto cluster = store.cluster(name)) clusters.push_back(*cluster);
    return clusters;
}

} // namespace

StoredRun storedRun(RunRow run, const std::vector<MetricRecord>& records,
                    std::vector<RankTimesRecord> rank_times) {
    StoredRun stored;
    const QJsonObject header = QJsonDocument::fromJson(QByteArray::fromStdString(run.header_json)).object();
    stored.steps =
        header.value(QLatin1String("hyperparameters")).toObject().value(QLatin1String("steps")).toInt();
    stored.run = std::move(run);
    stored.trace->append(records);
    stored.rank_times = std::make_shared<const std::vector<RankTimesRecord>>(std::move(rank_times));
    return stored;
}

StoredSessionLoader::StoredSessionLoader(std::filesystem::path db, QObject* parent)
    : QObject(parent), db_(std::move(db)), worker_([this] { work(); }) {}

StoredSessionLoader::~StoredSessionLoader() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        jobs_.clear();
    }
    wake_.notify_all();
    worker_.join(); // an answer it posted after this is discarded with the object's posted events
}

template <typename Result, typename Read>
void StoredSessionLoader::request(Kind kind, Result initial, Read read,
                                  void (StoredSessionLoader::*answer)(const Result&)) {
    const std::uint64_t id = ++latest_[kind];
    Job job{kind, id,
            [this, kind, id, initial, read, answer](SessionStore* store, const QString& open_error) {
                Result result = initial;
                if (!store) {
                    result.error = open_error;
                } else {
                    try {
                        read(*store, result);
                    } catch (const std::exception& error) {
                        result = initial; // nothing half read
                        result.error = QString::fromLocal8Bit(error.what());
                    }
                }
                QMetaObject::invokeMethod(
                    this,
                    [this, kind, id, answer, result = std::move(result)] {
                        if (!supersedable(kind) || latest_[kind] == id) emit(this->*answer)(result);
                    },
                    Qt::QueuedConnection);
            }};
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
}

void StoredSessionLoader::work() {
    std::unique_ptr<SessionStore> store;
    for (;;) {
        Job job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
            if (stop_) return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        if (supersedable(job.kind) && latest_[job.kind] != job.request) continue; // superseded: not read
        QString open_error;
        if (!store) {
            try {
                store = std::make_unique<SessionStore>(db_);
            } catch (const std::exception& error) {
                open_error =
                    QStringLiteral("cannot open %1: %2")
                        .arg(QString::fromStdString(db_.string()), QString::fromLocal8Bit(error.what()));
            }
        }
        job.read(store.get(), open_error);
    }
}

void StoredSessionLoader::listSessions() {
    request(
        List, StoredSessionList{},
        [](const SessionStore& store, StoredSessionList& list) { list.sessions = store.sessions(); },
        &StoredSessionLoader::sessionsListed);
}

void StoredSessionLoader::loadSession(std::int64_t session_id) {
    StoredSession initial;
    initial.session_id = session_id;
    request(
        Session, std::move(initial),
        [](const SessionStore& store, StoredSession& session) {
            const std::optional<SessionRow> row = store.session(session.session_id);
            if (!row) {
                session.error = noSession(session.session_id);
                return;
            }
            for (RunRow& run : store.runs(session.session_id)) {
                std::vector<MetricRecord> records;
                for (const auto& step : store.steps(run.id))
                    records.emplace_back(step);
                for (const auto& eval : store.evals(run.id))
                    records.emplace_back(eval);
                auto rank_times = store.rankTimes(run.id);
                session.runs.push_back(storedRun(std::move(run), records, std::move(rank_times)));
            }
            session.results = loadSessionResults(store, session.session_id);
            try {
                session.projection_inputs = sessionModelInputs(store, *row);
            } catch (const std::exception& error) {
                session.projection_error = QString::fromLocal8Bit(error.what());
            }
        },
        &StoredSessionLoader::sessionLoaded);
}

void StoredSessionLoader::compareSessions(std::int64_t a, std::int64_t b) {
    StoredComparison initial;
    initial.a = a;
    initial.b = b;
    request(
        Comparison, std::move(initial),
        [](const SessionStore& store, StoredComparison& comparison) {
            const std::optional<SessionRow> row_a = store.session(comparison.a);
            const std::optional<SessionRow> row_b = store.session(comparison.b);
            if (!row_a || !row_b) {
                comparison.error = noSession(row_a ? comparison.b : comparison.a);
                return;
            }
            comparison.session_a = loadComparedSession(store, *row_a);
            comparison.session_b = loadComparedSession(store, *row_b);
        },
        &StoredSessionLoader::sessionsCompared);
}

void StoredSessionLoader::listClusters() {
    request(
        Clusters, StoredClusterList{},
        [](const SessionStore& store, StoredClusterList& list) { list.clusters = storedClusters(store); },
        &StoredSessionLoader::clustersListed);
}

void StoredSessionLoader::saveCluster(const ClusterSettings& cluster, const std::string& replaces) {
    StoredClusterChange initial;
    initial.cluster = cluster;
    if (!replaces.empty() && replaces != cluster.name) initial.replaced = replaces;
    request(
        ClusterChange, std::move(initial),
        [](SessionStore& store, StoredClusterChange& change) {
            store.saveCluster(change.cluster); // first: a failed save leaves the old name in place
            if (!change.replaced.empty()) store.removeCluster(change.replaced);
            change.clusters = storedClusters(store);
        },
        &StoredSessionLoader::clusterSaved);
}

void StoredSessionLoader::removeCluster(const std::string& name) {
    StoredClusterChange initial;
    initial.cluster.name = name;
    request(
        ClusterChange, std::move(initial),
        [](SessionStore& store, StoredClusterChange& change) {
            if (!store.removeCluster(change.cluster.name))
                change.error = QStringLiteral("no cluster '%1' in the store")
                                   .arg(QString::fromStdString(change.cluster.name));
            change.clusters = storedClusters(store);
        },
        &StoredSessionLoader::clusterRemoved);
}

void StoredSessionLoader::deleteSession(std::int64_t session_id) {
    request(
        Deletion, StoredDeletion{session_id, {}, 0, {}},
        [](SessionStore& store, StoredDeletion& deletion) {
            const std::optional<SessionRow> session = store.session(deletion.session_id);
            if (!session) {
                deletion.error = QStringLiteral("no session %1 in the store").arg(deletion.session_id);
                return;
            }
            deletion.name = session->name;
            deletion.runs = static_cast<int>(store.runs(deletion.session_id).size());
            store.deleteSession(deletion.session_id); // refuses a running one: its error is the answer's
        },
        &StoredSessionLoader::sessionDeleted);
}

void StoredSessionLoader::importLogs(const ImportRequest& logs) {
    request(
        Import, StoredImport{logs.format, {}, {}},
        [logs](SessionStore& store, StoredImport& import) {
            import.outcome = scalebench::importLogs(store, logs);
        },
        &StoredSessionLoader::logsImported);
}

} // namespace scalebench
