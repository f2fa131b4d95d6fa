// The SQLite session store: sessions, their runs, and every metric record, written as they arrive.
#pragma once

#include "cluster_settings.h"
#include "metric_record.h"
#include "sqlite_handle.h"
#include "stored_rows.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

class SessionStore {
  public:
    static constexpr int kSchemaVersion = 12;

    // Opens or creates the store and brings its schema up to date; a store from a newer scalebench is
    // refused.
    explicit SessionStore(const std::filesystem::path& file);

    // Random, 16 hex digits, made when the store was created: names this store's folders on a cluster.
    std::string storeId() const;
    // cluster_json: the settings of the cluster the session runs on (clusterToJson), empty on this machine.
    // The session gets a random UUID, and this process (HOST:PID) as its owner.
    std::int64_t createSession(const std::string& name, const std::string& plan_text,
                               const std::string& cluster, const std::string& cluster_json = "");
    void finishSession(std::int64_t session_id, SessionStatus status);
    std::optional<SessionRow> session(std::int64_t session_id) const;
    std::int64_t createRun(std::int64_t session_id, const RunIdentity& run);
    void startRun(std::int64_t run_id, const std::string& job_id, const std::string& run_dir = "");
    // Stores a batch of records of one run in one transaction.
    void appendRecords(std::int64_t run_id, const std::vector<MetricRecord>& records);
    // The run's records, all of them, are these (its metric file read again from the start): one transaction.
    void replaceRecords(std::int64_t run_id, const std::vector<MetricRecord>& records);
    struct RunEnd {
        RunStatus status = RunStatus::Ok; // ok, failed, cancelled, abandoned
        std::string error;
        std::int64_t broken_lines = 0;
        std::string nodes;
    };
    void finishRun(std::int64_t run_id, const RunEnd& end);
    // When an imported run started and ended, as its own log says (UTC, ISO 8601; an empty end leaves the
    // stored one).
    void setImportedTimes(std::int64_t run_id, const std::string& started_at, const std::string& finished_at);
    // A session's times from its runs' own (those with a start): the earliest start, the latest end.
    void adoptRunTimes(std::int64_t session_id);
    // The scheduler started the run again as attempt `attempt`: the stored attempt is kept in run_attempts
    // (why and where it ended, its last step), its records leave the store (they stay in its metric file),
    // and the run's records from now on are the new attempt's. One transaction.
    void restartRun(std::int64_t run_id, int attempt, const std::string& ended, const std::string& nodes);
    std::vector<AttemptRow> attempts(std::int64_t run_id) const;

    // Clusters by name; saving one again replaces its settings.
    void saveCluster(const ClusterSettings& cluster);
    std::optional<ClusterSettings> cluster(const std::string& name) const;
    std::vector<std::string> clusterNames() const;
    // Forgets a cluster's settings (sessions keep the settings they ran with); false when there was none.
    bool removeCluster(const std::string& name);

    // The first stored run imported from a file of this content (RunIdentity::source_digest); none.
    std::optional<SourceRun> runFromSource(const std::string& digest) const;
    // Deletes a session, its runs and every record of them, in one transaction; what it was, or none where
    // there was no such session. A running or orphaned one is refused (StoreError naming it and why). Its
    // runs' folders (where they ran) are left as they are.
    std::optional<SessionRow> deleteSession(std::int64_t session_id);

    std::vector<SessionRow> sessions() const;
    // Sessions still `running` or `orphaned` (app/orphan_sessions.h asks at every start).
    std::vector<SessionRow> unfinishedSessions() const;
    std::vector<RunRow> runs(std::int64_t session_id) const;
    std::vector<StepRecord> steps(std::int64_t run_id) const;
    std::vector<EvalRecord> evals(std::int64_t run_id) const;
    std::vector<CollectiveRecord> collectives(std::int64_t run_id) const;
    std::vector<RankTimesRecord> rankTimes(std::int64_t run_id) const;     // by step, ranks in order
    std::vector<BucketTimesRecord> bucketTimes(std::int64_t run_id) const; // by step, buckets in order
    // The run's device self-check, its checks in the order they ran; none where the run checked no device.
    std::optional<DeviceCheckRecord> deviceCheck(std::int64_t run_id) const;
    int schemaVersion() const;
    const std::filesystem::path& file() const { return file_; }

  private:
    void execute(const std::string& sql) const;
    SqliteStatement prepare(const std::string& sql) const;
    [[noreturn]] void fail(const std::string& what) const;
    void migrate();
    // Schema 11: each run's record from its session's stored plan as this version expands it.
    void recordRunsFromPlans();
    void transaction(const std::function<void()>& work);
    void insertRecords(std::int64_t run_id, const std::vector<MetricRecord>& records);
    void deleteRecords(std::int64_t run_id);
    // Sessions matching `where` (on sessions s; ?1 is bound to id), in id order.
    std::vector<SessionRow> selectSessions(const std::string& where, std::int64_t id) const;

    std::filesystem::path file_;
    SqliteDatabase db_;
};

} // namespace scalebench
