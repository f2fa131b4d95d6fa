// The SQLite session store: sessions, their runs, and every metric record, written as they arrive.
#pragma once

#include "cluster_settings.h"
#include "metric_record.h"
#include "run_plan.h"
#include "sqlite_handle.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace scalebench {

// The plan a session ran, as the store reads it back with the session: the store is the one place that parses
// a stored plan, and a plan that no longer reads is named, never passed over.
struct StoredPlan {
    std::optional<RunPlan> plan; // none where the session stored none (an import) or its text no longer reads
    // Why there is no plan although one was stored: "the plan stored with session 7 no longer reads: ...".
    std::string problem;
    // The plan's runs by name (expandPlan), made where they are used, not with every row read; none without a
    // plan.
    std::map<std::string, RunSpec> runs() const;
};

// How the store reads a session's stored plan (the one reader of stored plans; a session built by hand, as in
// tests, is given its plan with it).
StoredPlan readStoredPlan(std::int64_t session_id, const std::string& plan_text);

struct SessionRow {
    std::int64_t id = 0;
    std::string name;
    std::string started_at; // UTC, ISO 8601
    std::string finished_at;
    std::string status; // running, ok, failed, cancelled, abandoned
    std::string cluster;
    int run_count = 0;
    std::string plan_text{};    // the plan's TOML as it was run
    std::string cluster_json{}; // the cluster's settings then; empty on this machine
    std::string uuid{};         // random, 32 hex digits: names the session's folders where it runs
    std::string owner{};        // HOST:PID of the console that started it
    StoredPlan stored_plan{};   // plan_text, read
};

struct RunRow {
    std::int64_t id = 0;
    std::int64_t session_id = 0;
    std::string name;
    std::string workload;
    std::string dataset;
    int ranks = 0;
    int repeat = 0;
    std::string status; // pending, running, ok, failed, cancelled, abandoned
    std::string error;
    std::string command; // what was launched, to reproduce the run
    std::string header_json;
    std::string summary_json;
    std::int64_t broken_lines = 0;
    std::int64_t step_count = 0;
    std::string started_at;
    std::string finished_at;
    std::string job_id;    // the scheduler's: mpirun's PID, or the Slurm job id
    std::string nodes;     // where it ran
    std::string run_dir{}; // its folder where it ran: job script, stdout.log, stderr.log, attempt-K/
    int attempt = 0;       // the scheduler's attempt whose records are stored (Slurm requeues: 1, 2, ...)
};

// An earlier attempt of a run that the scheduler started again (a requeue after a node failure, a
// preemption): its records stay in its own metric file, the store keeps why and where it ended.
struct AttemptRow {
    int attempt = 0;
    std::string ended; // Slurm's reason or state: NODE_FAIL, PREEMPTED, requeued, ...
    std::string nodes;
    std::int64_t last_step = 0;
    std::string ended_at;
};

struct NewRun {
    std::string name;
    std::string workload;
    std::string dataset;
    int ranks = 0;
    int repeat = 0;
    std::string command;
};

class SessionStore {
  public:
    static constexpr int kSchemaVersion = 10;

    // Opens or creates the store and brings its schema up to date; a store from a newer scalebench is
    // refused.
    explicit SessionStore(const std::filesystem::path& file);

    // Random, 16 hex digits, made when the store was created: names this store's folders on a cluster.
    std::string storeId() const;
    // cluster_json: the settings of the cluster the session runs on (clusterToJson), empty on this machine.
    // The session gets a random UUID, and this process (HOST:PID) as its owner.
    std::int64_t createSession(const std::string& name, const std::string& plan_text,
                               const std::string& cluster, const std::string& cluster_json = "");
    void finishSession(std::int64_t session_id, const std::string& status);
    std::optional<SessionRow> session(std::int64_t session_id) const;
    std::int64_t createRun(std::int64_t session_id, const NewRun& run);
    void startRun(std::int64_t run_id, const std::string& job_id, const std::string& run_dir = "");
    // Stores a batch of records of one run in one transaction.
    void appendRecords(std::int64_t run_id, const std::vector<MetricRecord>& records);
    // The run's records, all of them, are these (its metric file read again from the start): one transaction.
    void replaceRecords(std::int64_t run_id, const std::vector<MetricRecord>& records);
    struct RunEnd {
        std::string status; // ok, failed
        std::string error;
        std::int64_t broken_lines = 0;
        std::string nodes;
    };
    void finishRun(std::int64_t run_id, const RunEnd& end);
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
    void transaction(const std::function<void()>& work);
    void insertRecords(std::int64_t run_id, const std::vector<MetricRecord>& records);
    void deleteRecords(std::int64_t run_id);
    // Sessions matching `where` (on sessions s; ?1 is bound to id), in id order.
    std::vector<SessionRow> selectSessions(const std::string& where, std::int64_t id) const;

    std::filesystem::path file_;
    SqliteDatabase db_;
};

} // namespace scalebench
