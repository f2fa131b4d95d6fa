// The SQLite session store: sessions, their runs, and every metric record, written as they arrive.
#include "session_store.h"

#include <ctime>
#include <functional>
#include <type_traits>
#include <unistd.h>

namespace scalebench {
namespace {

// Schema migrations: entry i brings a store from version i to version i + 1. Never edit one that has shipped.
const char* const kMigrations[] = {
    R"sql(
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        plan_text TEXT NOT NULL,
        cluster TEXT NOT NULL DEFAULT 'local',
        status TEXT NOT NULL DEFAULT 'running',
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id),
        name TEXT NOT NULL,
        workload TEXT NOT NULL,
        dataset TEXT NOT NULL,
        ranks INTEGER NOT NULL,
        repeat INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        error TEXT NOT NULL DEFAULT '',
        command TEXT NOT NULL DEFAULT '',
        header_json TEXT NOT NULL DEFAULT '',
        summary_json TEXT NOT NULL DEFAULT '',
        broken_lines INTEGER NOT NULL DEFAULT 0,
        started_at TEXT NOT NULL DEFAULT '',
        finished_at TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX runs_by_session ON runs(session_id);
    -- seconds unless named otherwise; the parts add up to step_s
    CREATE TABLE steps (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        step INTEGER NOT NULL,
        loss REAL NOT NULL,
        samples_per_s REAL NOT NULL,
        step_s REAL NOT NULL,
        data_s REAL NOT NULL,
        forward_s REAL NOT NULL,
        backward_s REAL NOT NULL,
        allreduce_s REAL NOT NULL,
        optimizer_s REAL NOT NULL,
        elapsed_s REAL NOT NULL,
        PRIMARY KEY (run_id, step)
    ) WITHOUT ROWID;
    CREATE TABLE evals (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        step INTEGER NOT NULL,
        accuracy REAL NOT NULL,
        loss REAL NOT NULL,
        elapsed_s REAL NOT NULL,
        PRIMARY KEY (run_id, step)
    ) WITHOUT ROWID;
    CREATE TABLE run_errors (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        rank INTEGER NOT NULL,
        message TEXT NOT NULL
    );
    )sql",
    // 1 -> 2: where a run ran, so that it can be found and reproduced (the rendered job script is in
    // `command`)
    R"sql(
    ALTER TABLE runs ADD COLUMN job_id TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN nodes TEXT NOT NULL DEFAULT '';
    )sql",
    // 2 -> 3: clusters kept with the sessions (no secrets), and the cluster settings each session ran with
    R"sql(
    CREATE TABLE clusters (
        name TEXT PRIMARY KEY,
        settings_json TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    ALTER TABLE sessions ADD COLUMN cluster_json TEXT NOT NULL DEFAULT '';
    )sql",
    // 3 -> 4: collective sweeps (MLBench task 0), one row per collective, data type and message size
    R"sql(
    CREATE TABLE collectives (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        collective TEXT NOT NULL,
        dtype TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        elements INTEGER NOT NULL,
        ranks INTEGER NOT NULL,
        repetitions INTEGER NOT NULL,
        time_s REAL NOT NULL,        -- seconds per call, mean across ranks
        algbw_gbps REAL NOT NULL,    -- bytes / time_s / 1e9
        busbw_gbps REAL NOT NULL,    -- algbw x nccl-tests' bus factor
        correct INTEGER NOT NULL,
        PRIMARY KEY (run_id, collective, dtype, bytes)
    ) WITHOUT ROWID;
    )sql",
    // 4 -> 5: communication hidden behind backward; per-rank step times (stragglers); collectives per
    // backend, reduction and in-place or not
    R"sql(
    ALTER TABLE steps ADD COLUMN comm_hidden_s REAL NOT NULL DEFAULT 0;
    ALTER TABLE runs ADD COLUMN run_dir TEXT NOT NULL DEFAULT '';
    CREATE TABLE rank_times (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        step INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        step_s REAL NOT NULL,        -- this rank's step time
        compute_s REAL NOT NULL,     -- of it, its own data, forward, backward and optimizer time
        PRIMARY KEY (run_id, step, rank)
    ) WITHOUT ROWID;
    CREATE TABLE collectives_v5 (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        backend TEXT NOT NULL,
        collective TEXT NOT NULL,
        op TEXT NOT NULL,
        dtype TEXT NOT NULL,
        in_place INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        elements INTEGER NOT NULL,
        ranks INTEGER NOT NULL,
        repetitions INTEGER NOT NULL,
        time_s REAL NOT NULL,        -- seconds per call, mean across ranks
        algbw_gbps REAL NOT NULL,    -- bytes / time_s / 1e9
        busbw_gbps REAL NOT NULL,    -- algbw x nccl-tests' bus factor
        correct INTEGER NOT NULL,
        PRIMARY KEY (run_id, backend, collective, op, dtype, in_place, bytes)
    ) WITHOUT ROWID;
    INSERT INTO collectives_v5
        SELECT run_id, 'mpi', collective, 'sum', dtype, 0, bytes, elements, ranks, repetitions, time_s,
               algbw_gbps, busbw_gbps, correct FROM collectives;
    DROP TABLE collectives;
    ALTER TABLE collectives_v5 RENAME TO collectives;
    )sql",
    // 5 -> 6: evaluations name their metric (accuracy, loss, perplexity, bleu); language workloads' tokens/s,
    // model FLOPs/s and MFU per step
    R"sql(
    CREATE TABLE evals_v6 (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        step INTEGER NOT NULL,
        metric TEXT NOT NULL,        -- accuracy (a fraction), loss, perplexity, bleu (0-100)
        value REAL NOT NULL,
        loss REAL NOT NULL,
        elapsed_s REAL NOT NULL,
        PRIMARY KEY (run_id, step)
    ) WITHOUT ROWID;
    INSERT INTO evals_v6 SELECT run_id, step, 'accuracy', accuracy, loss, elapsed_s FROM evals;
    DROP TABLE evals;
    ALTER TABLE evals_v6 RENAME TO evals;
    ALTER TABLE steps ADD COLUMN tokens_per_s REAL NOT NULL DEFAULT 0;
    ALTER TABLE steps ADD COLUMN model_flops_per_s REAL NOT NULL DEFAULT 0;
    ALTER TABLE steps ADD COLUMN mfu REAL;   -- NULL where the run states no peak
    )sql",
    // 6 -> 7: run folders unique per store and session (a random store id, a UUID per session); which console
    // follows a running session; Slurm's attempts of a run (a requeued job starts again from step 1)
    R"sql(
    CREATE TABLE store_identity (id TEXT NOT NULL);
    INSERT INTO store_identity VALUES (lower(hex(randomblob(8))));
    ALTER TABLE sessions ADD COLUMN uuid TEXT NOT NULL DEFAULT '';
    UPDATE sessions SET uuid = lower(hex(randomblob(16)));
    ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT '';  -- HOST:PID of the console following it
    ALTER TABLE runs ADD COLUMN attempt INTEGER NOT NULL DEFAULT 0; -- the attempt whose records are stored
    CREATE TABLE run_attempts (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        attempt INTEGER NOT NULL,
        ended TEXT NOT NULL,          -- why it ended: Slurm's reason (NODE_FAIL, ...) or state
        nodes TEXT NOT NULL,          -- where it ran
        last_step INTEGER NOT NULL,   -- how far it got (its records stay in its metric file)
        ended_at TEXT NOT NULL,
        PRIMARY KEY (run_id, attempt)
    ) WITHOUT ROWID;
    )sql",
    // 7 -> 8: collectives measured by outside tools (nccl-tests, OSU) beside the engine's sweep, and whether
    // a result was checked at all
    R"sql(
    ALTER TABLE collectives ADD COLUMN tool TEXT NOT NULL DEFAULT 'scalebench';
    ALTER TABLE collectives ADD COLUMN checked INTEGER NOT NULL DEFAULT 1;
    )sql",
    // 8 -> 9: each gradient bucket's all-reduce per step, when it started and ended (predicted against
    // measured communication)
    R"sql(
    CREATE TABLE bucket_times (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        step INTEGER NOT NULL,
        bucket INTEGER NOT NULL,     -- in the order the buckets are reduced
        bytes INTEGER NOT NULL,      -- on the wire
        start_s REAL NOT NULL,       -- since the step's start
        end_s REAL NOT NULL,
        PRIMARY KEY (run_id, step, bucket)
    ) WITHOUT ROWID;
    )sql",
    // 9 -> 10: the device self-check's verdict of a run (a plan's check_device), and each of its checks
    R"sql(
    CREATE TABLE device_checks (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id),
        workload TEXT NOT NULL,
        device TEXT NOT NULL,        -- cpu, cuda:0
        steps INTEGER NOT NULL,      -- of each seeded run
        verdict TEXT NOT NULL,       -- pass, fail
        ranks_passed INTEGER NOT NULL
    );
    CREATE TABLE device_check_items (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        position INTEGER NOT NULL,   -- in the order the checks ran
        name TEXT NOT NULL,
        passed INTEGER NOT NULL,
        figure TEXT NOT NULL,        -- what it was judged by: max_abs_difference, ...; '' where none
        value REAL,                  -- NULL where none
        tolerance REAL,
        PRIMARY KEY (run_id, position)
    ) WITHOUT ROWID;
    )sql",
};
constexpr int kLatest = static_cast<int>(std::size(kMigrations));
static_assert(kLatest == SessionStore::kSchemaVersion);

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%FT%TZ", &utc);
    return text;
}

// HOST:PID: the console that owns a session it started.
std::string thisProcess() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return std::string(host) + ":" + std::to_string(getpid());
}

// All of the column's bytes: a text may hold NUL (a plan's name written "\u0000"), where a C string would
// end.
std::string columnText(sqlite3_stmt* s, int column) {
    const unsigned char* text = sqlite3_column_text(s, column);
    return text ? std::string(reinterpret_cast<const char*>(text),
                              static_cast<std::size_t>(sqlite3_column_bytes(s, column)))
                : "";
}

} // namespace

SessionStore::SessionStore(const std::filesystem::path& file) : file_(file) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(file.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    db_.reset(raw);
    if (rc != SQLITE_OK) fail("cannot open");
    sqlite3_busy_timeout(db_.get(), 5000);
    execute("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL;");
    migrate();
}

void SessionStore::fail(const std::string& what) const {
    throw StoreError("session store " + file_.string() + ": " + what + ": " +
                     (db_ ? sqlite3_errmsg(db_.get()) : "out of memory"));
}

void SessionStore::execute(const std::string& sql) const {
    char* message = nullptr;
    if (sqlite3_exec(db_.get(), sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : "unknown error";
        sqlite3_free(message);
        throw StoreError("session store " + file_.string() + ": " + text);
    }
}

SqliteStatement SessionStore::prepare(const std::string& sql) const {
    sqlite3_stmt* raw = nullptr;
    if (sqlite3_prepare_v2(db_.get(), sql.c_str(), -1, &raw, nullptr) != SQLITE_OK)
        fail("cannot prepare query");
    return SqliteStatement(raw);
}

int SessionStore::schemaVersion() const {
    auto s = prepare("PRAGMA user_version");
    if (sqlite3_step(s.get()) != SQLITE_ROW) fail("cannot read the schema version");
    return sqlite3_column_int(s.get(), 0);
}

void SessionStore::migrate() {
    const int version = schemaVersion();
    if (version > kLatest)
        throw StoreError("session store " + file_.string() + " has schema version " +
                         std::to_string(version) +
                         ", written by a newer scalebench; this one reads versions up to " +
                         std::to_string(kLatest) + ". Use a newer scalebench or another --db file.");
    for (int v = version; v < kLatest; ++v) {
        execute("BEGIN IMMEDIATE");
        try {
            // Another process (a second console, a test reading the store) may have migrated it meanwhile:
            // the version is read again under the write lock.
            if (schemaVersion() > v) {
                execute("COMMIT");
                continue;
            }
            execute(kMigrations[v]);
            execute("PRAGMA user_version = " + std::to_string(v + 1));
            execute("COMMIT");
        } catch (...) {
            execute("ROLLBACK");
            throw;
        }
    }
}

namespace {
// Binds the values to ?1, ?2, ... of a prepared statement.
template <typename... Values> void bindAll(sqlite3_stmt* s, const Values&... values) {
    int index = 0;
    auto bind = [&](const auto& v) {
        ++index;
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>)
            sqlite3_bind_text(s, index, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
        else if constexpr (std::is_floating_point_v<T>)
            sqlite3_bind_double(s, index, v);
        else if constexpr (std::is_same_v<T, std::optional<double>>)
            v ? sqlite3_bind_double(s, index, *v) : sqlite3_bind_null(s, index);
        else
            sqlite3_bind_int64(s, index, static_cast<sqlite3_int64>(v));
    };
    (bind(values), ...);
}

// Steps a prepared statement, its values bound, through its result rows: read_row(statement) makes each Row.
template <typename Row, typename ReadRow> std::vector<Row> readRows(sqlite3_stmt* s, ReadRow read_row) {
    std::vector<Row> rows;
    while (sqlite3_step(s) == SQLITE_ROW)
        rows.push_back(read_row(s));
    return rows;
}
} // namespace

std::string SessionStore::storeId() const {
    auto s = prepare("SELECT id FROM store_identity");
    if (sqlite3_step(s.get()) != SQLITE_ROW) fail("has no store id");
    return columnText(s.get(), 0);
}

std::int64_t SessionStore::createSession(const std::string& name, const std::string& plan_text,
                                         const std::string& cluster, const std::string& cluster_json) {
    auto s = prepare("INSERT INTO sessions (name, plan_text, cluster, cluster_json, started_at, uuid, owner) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, lower(hex(randomblob(16))), ?6)");
    bindAll(s.get(), name, plan_text, cluster, cluster_json, utcNow(), thisProcess());
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot create a session");
    return sqlite3_last_insert_rowid(db_.get());
}

void SessionStore::finishSession(std::int64_t session_id, const std::string& status) {
    auto s = prepare("UPDATE sessions SET status = ?1, finished_at = ?2 WHERE id = ?3");
    bindAll(s.get(), status, utcNow(), session_id);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot finish session " + std::to_string(session_id));
}

std::int64_t SessionStore::createRun(std::int64_t session_id, const NewRun& run) {
    auto s = prepare("INSERT INTO runs (session_id, name, workload, dataset, ranks, repeat, command) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    bindAll(s.get(), session_id, run.name, run.workload, run.dataset, run.ranks, run.repeat, run.command);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot create run " + run.name);
    return sqlite3_last_insert_rowid(db_.get());
}

void SessionStore::startRun(std::int64_t run_id, const std::string& job_id, const std::string& run_dir) {
    auto s = prepare(
        "UPDATE runs SET status = 'running', started_at = ?1, job_id = ?2, run_dir = ?3 WHERE id = ?4");
    bindAll(s.get(), utcNow(), job_id, run_dir, run_id);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot start run " + std::to_string(run_id));
}

void SessionStore::appendRecords(std::int64_t run_id, const std::vector<MetricRecord>& records) {
    if (records.empty()) return;
    transaction([&] { insertRecords(run_id, records); });
}

void SessionStore::replaceRecords(std::int64_t run_id, const std::vector<MetricRecord>& records) {
    transaction([&] {
        deleteRecords(run_id);
        insertRecords(run_id, records);
    });
}

void SessionStore::deleteRecords(std::int64_t run_id) {
    for (const char* table : {"steps", "evals", "rank_times", "bucket_times", "collectives", "run_errors",
                              "device_checks", "device_check_items"})
        execute(std::string("DELETE FROM ") + table + " WHERE run_id = " + std::to_string(run_id));
}

void SessionStore::transaction(const std::function<void()>& work) {
    execute("BEGIN IMMEDIATE");
    try {
        work();
        execute("COMMIT");
    } catch (...) {
        sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

void SessionStore::insertRecords(std::int64_t run_id, const std::vector<MetricRecord>& records) {
    auto step = prepare(
        "INSERT OR REPLACE INTO steps VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
        "?14, ?15)");
    auto rank_times = prepare("INSERT OR REPLACE INTO rank_times VALUES (?1, ?2, ?3, ?4, ?5)");
    auto bucket_times = prepare("INSERT OR REPLACE INTO bucket_times VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    auto eval = prepare("INSERT OR REPLACE INTO evals VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    auto header = prepare("UPDATE runs SET header_json = ?1 WHERE id = ?2");
    auto summary = prepare("UPDATE runs SET summary_json = ?1 WHERE id = ?2");
    auto error = prepare("INSERT INTO run_errors VALUES (?1, ?2, ?3)");
    auto collective = prepare("INSERT OR REPLACE INTO collectives VALUES "
                              "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)");
    auto device_check = prepare("INSERT OR REPLACE INTO device_checks VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    auto device_check_items = prepare("DELETE FROM device_check_items WHERE run_id = ?1");
    auto device_check_item = prepare("INSERT INTO device_check_items VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    for (const auto& record : records) {
        sqlite3_stmt* s = nullptr;
        if (auto* r = std::get_if<StepRecord>(&record)) {
            s = step.get();
            bindAll(s, run_id, r->step, r->loss, r->samples_per_s, r->step_s, r->data_s, r->forward_s,
                    r->backward_s, r->allreduce_s, r->optimizer_s, r->elapsed_s, r->comm_hidden_s,
                    r->tokens_per_s, r->model_flops_per_s, r->mfu);
        } else if (auto* e = std::get_if<EvalRecord>(&record)) {
            s = eval.get();
            bindAll(s, run_id, e->step, e->metric, e->value, e->loss, e->elapsed_s);
        } else if (auto* h = std::get_if<HeaderRecord>(&record)) {
            s = header.get();
            bindAll(s, h->json, run_id);
        } else if (auto* m = std::get_if<SummaryRecord>(&record)) {
            s = summary.get();
            bindAll(s, m->json, run_id);
        } else if (auto* c = std::get_if<CollectiveRecord>(&record)) {
            s = collective.get();
            bindAll(s, run_id, c->backend, c->collective, c->op, c->dtype, c->in_place ? 1 : 0, c->bytes,
                    c->elements, c->ranks, c->repetitions, c->time_s, c->algbw_gbps, c->busbw_gbps,
                    c->correct ? 1 : 0, c->tool, c->checked ? 1 : 0);
        } else if (auto* t = std::get_if<RankTimesRecord>(&record)) {
            s = rank_times.get();
            for (std::size_t rank = 0; rank < t->step_s.size(); ++rank) {
                bindAll(s, run_id, t->step, static_cast<int>(rank), t->step_s[rank], t->compute_s[rank]);
                if (sqlite3_step(s) != SQLITE_DONE)
                    fail("cannot store rank times of run " + std::to_string(run_id));
                sqlite3_reset(s);
            }
            continue;
        } else if (auto* b = std::get_if<BucketTimesRecord>(&record)) {
            s = bucket_times.get();
            for (std::size_t bucket = 0; bucket < b->bytes.size(); ++bucket) {
                bindAll(s, run_id, b->step, static_cast<std::int64_t>(bucket), b->bytes[bucket],
                        b->start_s[bucket], b->end_s[bucket]);
                if (sqlite3_step(s) != SQLITE_DONE)
                    fail("cannot store bucket times of run " + std::to_string(run_id));
                sqlite3_reset(s);
            }
            continue;
        } else if (auto* d = std::get_if<DeviceCheckRecord>(&record)) {
            // One verdict a run: a record read again replaces the stored one and its checks.
            bindAll(device_check_items.get(), run_id);
            if (sqlite3_step(device_check_items.get()) != SQLITE_DONE)
                fail("cannot replace the device check of run " + std::to_string(run_id));
            sqlite3_reset(device_check_items.get());
            s = device_check_item.get();
            for (std::size_t i = 0; i < d->checks.size(); ++i) {
                const DeviceCheck& check = d->checks[i];
                bindAll(s, run_id, static_cast<std::int64_t>(i), check.name, check.passed ? 1 : 0,
                        check.figure, check.value, check.tolerance);
                if (sqlite3_step(s) != SQLITE_DONE)
                    fail("cannot store the device check of run " + std::to_string(run_id));
                sqlite3_reset(s);
            }
            s = device_check.get();
            bindAll(s, run_id, d->workload, d->device, d->steps, d->verdict, d->ranks_passed ? 1 : 0);
        } else if (auto* x = std::get_if<ErrorRecord>(&record)) {
            s = error.get();
            bindAll(s, run_id, x->rank, x->message);
        }
        if (sqlite3_step(s) != SQLITE_DONE) fail("cannot store a record of run " + std::to_string(run_id));
        sqlite3_reset(s);
    }
}

void SessionStore::finishRun(std::int64_t run_id, const RunEnd& end) {
    auto s =
        prepare("UPDATE runs SET status = ?1, error = ?2, broken_lines = ?3, nodes = ?4, finished_at = ?5 "
                "WHERE id = ?6");
    bindAll(s.get(), end.status, end.error, end.broken_lines, end.nodes, utcNow(), run_id);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot finish run " + std::to_string(run_id));
}

void SessionStore::restartRun(std::int64_t run_id, int attempt, const std::string& ended,
                              const std::string& nodes) {
    const std::string id = std::to_string(run_id);
    transaction([&] {
        auto kept = prepare("INSERT OR REPLACE INTO run_attempts SELECT id, attempt, ?1, ?2, "
                            "(SELECT COALESCE(MAX(step), 0) FROM steps WHERE run_id = runs.id), ?3 "
                            "FROM runs WHERE id = ?4");
        bindAll(kept.get(), ended, nodes, utcNow(), run_id);
        if (sqlite3_step(kept.get()) != SQLITE_DONE) fail("cannot keep the attempt of run " + id);
        deleteRecords(run_id);
        auto next = prepare("UPDATE runs SET attempt = ?1, header_json = '', summary_json = '', "
                            "broken_lines = 0 WHERE id = ?2");
        bindAll(next.get(), attempt, run_id);
        if (sqlite3_step(next.get()) != SQLITE_DONE) fail("cannot restart run " + id);
    });
}

std::vector<AttemptRow> SessionStore::attempts(std::int64_t run_id) const {
    auto s = prepare("SELECT attempt, ended, nodes, last_step, ended_at FROM run_attempts WHERE run_id = ?1 "
                     "ORDER BY attempt");
    bindAll(s.get(), run_id);
    return readRows<AttemptRow>(s.get(), [](sqlite3_stmt* q) -> AttemptRow {
        return {sqlite3_column_int(q, 0), columnText(q, 1), columnText(q, 2), sqlite3_column_int64(q, 3),
                columnText(q, 4)};
    });
}

void SessionStore::saveCluster(const ClusterSettings& cluster) {
    auto s = prepare("INSERT INTO clusters (name, settings_json, updated_at) VALUES (?1, ?2, ?3) "
                     "ON CONFLICT(name) DO UPDATE SET settings_json = excluded.settings_json, "
                     "updated_at = excluded.updated_at");
    bindAll(s.get(), cluster.name, clusterToJson(cluster), utcNow());
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot save cluster " + cluster.name);
}

std::optional<ClusterSettings> SessionStore::cluster(const std::string& name) const {
    auto s = prepare("SELECT settings_json FROM clusters WHERE name = ?1");
    bindAll(s.get(), name);
    if (sqlite3_step(s.get()) != SQLITE_ROW) return std::nullopt;
    return clusterFromJson(columnText(s.get(), 0));
}

std::vector<std::string> SessionStore::clusterNames() const {
    auto s = prepare("SELECT name FROM clusters ORDER BY name");
    return readRows<std::string>(s.get(), [](sqlite3_stmt* q) { return columnText(q, 0); });
}

std::vector<SessionRow> SessionStore::sessions() const {
    return selectSessions("", 0);
}

std::vector<SessionRow> SessionStore::unfinishedSessions() const {
    return selectSessions("WHERE s.status IN ('running', 'orphaned')", 0);
}

std::optional<SessionRow> SessionStore::session(std::int64_t session_id) const {
    auto rows = selectSessions("WHERE s.id = ?1", session_id);
    if (rows.empty()) return std::nullopt;
    return rows.front();
}

std::map<std::string, RunSpec> StoredPlan::runs() const {
    std::map<std::string, RunSpec> by_name;
    if (plan)
        for (RunSpec& run : expandPlan(*plan))
            by_name.emplace(run.name, std::move(run));
    return by_name;
}

StoredPlan readStoredPlan(std::int64_t session_id, const std::string& text) {
    StoredPlan stored;
    if (text.empty()) return stored;
    const std::string where = "the plan stored with session " + std::to_string(session_id);
    try {
        stored.plan = parsePlanText(text, where);
    } catch (const std::exception& e) {
        stored.problem = where + " no longer reads: " + e.what();
    }
    return stored;
}

std::vector<SessionRow> SessionStore::selectSessions(const std::string& where, std::int64_t id) const {
    auto s = prepare("SELECT s.id, s.name, s.started_at, s.finished_at, s.status, s.cluster, "
                     "(SELECT COUNT(*) FROM runs r WHERE r.session_id = s.id), s.plan_text, s.cluster_json, "
                     "s.uuid, s.owner FROM sessions s " +
                     where + " ORDER BY s.id");
    if (where.find("?1") != std::string::npos) bindAll(s.get(), id);
    return readRows<SessionRow>(s.get(), [](sqlite3_stmt* q) -> SessionRow {
        SessionRow row{sqlite3_column_int64(q, 0), columnText(q, 1),  columnText(q, 2),
                       columnText(q, 3),           columnText(q, 4),  columnText(q, 5),
                       sqlite3_column_int(q, 6),   columnText(q, 7),  columnText(q, 8),
                       columnText(q, 9),           columnText(q, 10), {}};
        row.stored_plan = readStoredPlan(row.id, row.plan_text);
        return row;
    });
}

std::vector<RunRow> SessionStore::runs(std::int64_t session_id) const {
    auto s = prepare(
        "SELECT id, session_id, name, workload, dataset, ranks, repeat, status, error, command, "
        "header_json, summary_json, broken_lines, "
        "(SELECT COUNT(*) FROM steps WHERE run_id = runs.id), started_at, finished_at, job_id, nodes, "
        "run_dir, attempt FROM runs WHERE session_id = ?1 ORDER BY id");
    bindAll(s.get(), session_id);
    return readRows<RunRow>(s.get(), [](sqlite3_stmt* q) -> RunRow {
        return {sqlite3_column_int64(q, 0),
                sqlite3_column_int64(q, 1),
                columnText(q, 2),
                columnText(q, 3),
                columnText(q, 4),
                sqlite3_column_int(q, 5),
                sqlite3_column_int(q, 6),
                columnText(q, 7),
                columnText(q, 8),
                columnText(q, 9),
                columnText(q, 10),
                columnText(q, 11),
                sqlite3_column_int64(q, 12),
                sqlite3_column_int64(q, 13),
                columnText(q, 14),
                columnText(q, 15),
                columnText(q, 16),
                columnText(q, 17),
                columnText(q, 18),
                sqlite3_column_int(q, 19)};
    });
}

std::vector<StepRecord> SessionStore::steps(std::int64_t run_id) const {
    auto s = prepare("SELECT step, loss, samples_per_s, step_s, data_s, forward_s, backward_s, allreduce_s, "
                     "optimizer_s, elapsed_s, comm_hidden_s, tokens_per_s, model_flops_per_s, mfu FROM steps "
                     "WHERE run_id = ?1 ORDER BY step");
    bindAll(s.get(), run_id);
    return readRows<StepRecord>(s.get(), [](sqlite3_stmt* q) {
        StepRecord r;
        r.step = sqlite3_column_int64(q, 0);
        double* parts[] = {&r.loss,      &r.samples_per_s, &r.step_s,       &r.data_s,
                           &r.forward_s, &r.backward_s,    &r.allreduce_s,  &r.optimizer_s,
                           &r.elapsed_s, &r.comm_hidden_s, &r.tokens_per_s, &r.model_flops_per_s};
        for (int i = 0; i < 12; ++i)
            *parts[i] = sqlite3_column_double(q, i + 1);
        if (sqlite3_column_type(q, 13) != SQLITE_NULL) r.mfu = sqlite3_column_double(q, 13);
        return r;
    });
}

std::vector<EvalRecord> SessionStore::evals(std::int64_t run_id) const {
    auto s =
        prepare("SELECT step, metric, value, loss, elapsed_s FROM evals WHERE run_id = ?1 ORDER BY step");
    bindAll(s.get(), run_id);
    return readRows<EvalRecord>(s.get(), [](sqlite3_stmt* q) -> EvalRecord {
        return {sqlite3_column_int64(q, 0), columnText(q, 1), sqlite3_column_double(q, 2),
                sqlite3_column_double(q, 3), sqlite3_column_double(q, 4)};
    });
}

std::vector<CollectiveRecord> SessionStore::collectives(std::int64_t run_id) const {
    auto s = prepare(
        "SELECT collective, dtype, elements, bytes, ranks, repetitions, time_s, algbw_gbps, "
        "busbw_gbps, correct, backend, op, in_place, tool, checked FROM collectives WHERE run_id = ?1 "
        "ORDER BY backend, collective, op, dtype, in_place, bytes");
    bindAll(s.get(), run_id);
    return readRows<CollectiveRecord>(s.get(), [](sqlite3_stmt* q) {
        CollectiveRecord c{columnText(q, 0), columnText(q, 1), columnText(q, 10), columnText(q, 11),
                           sqlite3_column_int(q, 12) != 0};
        c.elements = sqlite3_column_int64(q, 2);
        c.bytes = sqlite3_column_int64(q, 3);
        c.ranks = sqlite3_column_int(q, 4);
        c.repetitions = sqlite3_column_int(q, 5);
        c.time_s = sqlite3_column_double(q, 6);
        c.algbw_gbps = sqlite3_column_double(q, 7);
        c.busbw_gbps = sqlite3_column_double(q, 8);
        c.correct = sqlite3_column_int(q, 9) != 0;
        c.tool = columnText(q, 13);
        c.checked = sqlite3_column_int(q, 14) != 0;
        return c;
    });
}

std::vector<RankTimesRecord> SessionStore::rankTimes(std::int64_t run_id) const {
    auto s =
        prepare("SELECT step, rank, step_s, compute_s FROM rank_times WHERE run_id = ?1 ORDER BY step, rank");
    bindAll(s.get(), run_id);
    std::vector<RankTimesRecord> rows;
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
        const std::int64_t step = sqlite3_column_int64(s.get(), 0);
        if (rows.empty() || rows.back().step != step) rows.push_back({step, {}, {}});
        rows.back().step_s.push_back(sqlite3_column_double(s.get(), 2));
        rows.back().compute_s.push_back(sqlite3_column_double(s.get(), 3));
    }
    return rows;
}

std::vector<BucketTimesRecord> SessionStore::bucketTimes(std::int64_t run_id) const {
    auto s = prepare(
        "SELECT step, bytes, start_s, end_s FROM bucket_times WHERE run_id = ?1 ORDER BY step, bucket");
    bindAll(s.get(), run_id);
    std::vector<BucketTimesRecord> rows;
    while (sqlite3_step(s.get()) == SQLITE_ROW) {
        const std::int64_t step = sqlite3_column_int64(s.get(), 0);
        if (rows.empty() || rows.back().step != step) rows.push_back({step, {}, {}, {}});
        rows.back().bytes.push_back(sqlite3_column_int64(s.get(), 1));
        rows.back().start_s.push_back(sqlite3_column_double(s.get(), 2));
        rows.back().end_s.push_back(sqlite3_column_double(s.get(), 3));
    }
    return rows;
}

std::optional<DeviceCheckRecord> SessionStore::deviceCheck(std::int64_t run_id) const {
    auto s =
        prepare("SELECT workload, device, steps, verdict, ranks_passed FROM device_checks WHERE run_id = ?1");
    bindAll(s.get(), run_id);
    if (sqlite3_step(s.get()) != SQLITE_ROW) return std::nullopt;
    DeviceCheckRecord d{columnText(s.get(), 0), columnText(s.get(), 1), sqlite3_column_int64(s.get(), 2),
                        columnText(s.get(), 3), sqlite3_column_int(s.get(), 4) != 0};
    auto items = prepare("SELECT name, passed, figure, value, tolerance FROM device_check_items "
                         "WHERE run_id = ?1 ORDER BY position");
    bindAll(items.get(), run_id);
    const auto optional = [](sqlite3_stmt* q, int column) -> std::optional<double> {
        if (sqlite3_column_type(q, column) == SQLITE_NULL) return std::nullopt;
        return sqlite3_column_double(q, column);
    };
    d.checks = readRows<DeviceCheck>(items.get(), [&](sqlite3_stmt* q) -> DeviceCheck {
        return {columnText(q, 0), sqlite3_column_int(q, 1) != 0, columnText(q, 2), optional(q, 3),
                optional(q, 4)};
    });
    return d;
}

bool SessionStore::removeCluster(const std::string& name) {
    auto s = prepare("DELETE FROM clusters WHERE name = ?1");
    bindAll(s.get(), name);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot remove cluster " + name);
    return sqlite3_changes(db_.get()) > 0;
}

} // namespace scalebench
