// The SQLite session store: sessions, their runs and clusters (the schema: session_schema.cpp; the metric
// records: session_records.cpp).
#include "session_store.h"

#include "run_record.h"
#include "sqlite_rows.h"

#include <ctime>
#include <functional>
#include <type_traits>
#include <unistd.h>

namespace scalebench {
using namespace sqlite_rows;
namespace {

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

// A stored status word, read by `named` (runStatusNamed, sessionStatusNamed); a word this version does not
// know is named with its row ("run 3", "session 2"), never taken for another.
template <typename Named>
auto statusIn(sqlite3_stmt* q, int column, Named named, const char* what, std::int64_t id) {
    const std::string word = columnText(q, column);
    if (const auto status = named(word)) return *status;
    throw StoreError(std::string(what) + " " + std::to_string(id) + " is stored with status '" + word +
                     "', which this scalebench does not know");
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

void SessionStore::finishSession(std::int64_t session_id, SessionStatus status) {
    auto s = prepare("UPDATE sessions SET status = ?1, finished_at = ?2 WHERE id = ?3");
    bindAll(s.get(), std::string(storedWord(status)), utcNow(), session_id);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot finish session " + std::to_string(session_id));
}

std::int64_t SessionStore::createRun(std::int64_t session_id, const RunIdentity& run) {
    auto s = prepare("INSERT INTO runs (session_id, name, workload, dataset, ranks, repeat, command, record, "
                     "source_digest) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    const std::optional<std::string> record =
        run.spec ? std::optional(runRecordJson(*run.spec)) : std::optional<std::string>();
    const std::optional<std::string> digest =
        run.source_digest.empty() ? std::nullopt : std::optional(run.source_digest);
    bindAll(s.get(), session_id, run.name, run.workload, run.dataset, run.ranks, run.repeat, run.command,
            record, digest);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot create run " + run.name);
    return sqlite3_last_insert_rowid(db_.get());
}

void SessionStore::setImportedTimes(std::int64_t run_id, const std::string& started_at,
                                    const std::string& finished_at) {
    auto s =
        prepare("UPDATE runs SET started_at = ?1, finished_at = CASE WHEN ?2 = '' THEN finished_at ELSE ?2 "
                "END WHERE id = ?3");
    bindAll(s.get(), started_at, finished_at, run_id);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot set the times of run " + std::to_string(run_id));
}

void SessionStore::adoptRunTimes(std::int64_t session_id) {
    auto s = prepare(
        "UPDATE sessions SET started_at = COALESCE((SELECT MIN(started_at) FROM runs WHERE session_id = ?1 "
        "AND "
        "started_at != ''), started_at), finished_at = COALESCE((SELECT MAX(finished_at) FROM runs WHERE "
        "session_id = ?1 AND started_at != ''), finished_at) WHERE id = ?1");
    bindAll(s.get(), session_id);
    if (sqlite3_step(s.get()) != SQLITE_DONE)
        fail("cannot set the times of session " + std::to_string(session_id));
}

void SessionStore::startRun(std::int64_t run_id, const std::string& job_id, const std::string& run_dir) {
    auto s = prepare(
        "UPDATE runs SET status = 'running', started_at = ?1, job_id = ?2, run_dir = ?3 WHERE id = ?4");
    bindAll(s.get(), utcNow(), job_id, run_dir, run_id);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot start run " + std::to_string(run_id));
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

void SessionStore::finishRun(std::int64_t run_id, const RunEnd& end) {
    auto s =
        prepare("UPDATE runs SET status = ?1, error = ?2, broken_lines = ?3, nodes = ?4, finished_at = ?5 "
                "WHERE id = ?6");
    bindAll(s.get(), std::string(storedWord(end.status)), end.error, end.broken_lines, end.nodes, utcNow(),
            run_id);
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
        const std::int64_t session_id = sqlite3_column_int64(q, 0);
        SessionRow row{session_id,
                       columnText(q, 1),
                       columnText(q, 2),
                       columnText(q, 3),
                       statusIn(q, 4, sessionStatusNamed, "session", session_id),
                       columnText(q, 5),
                       sqlite3_column_int(q, 6),
                       columnText(q, 7),
                       columnText(q, 8),
                       columnText(q, 9),
                       columnText(q, 10),
                       {}};
        row.stored_plan = readStoredPlan(row.id, row.plan_text);
        return row;
    });
}

std::vector<RunRow> SessionStore::runs(std::int64_t session_id) const {
    auto s = prepare(
        "SELECT name, workload, dataset, ranks, repeat, command, id, session_id, status, error, "
        "header_json, summary_json, broken_lines, "
        "(SELECT COUNT(*) FROM steps WHERE run_id = runs.id), started_at, finished_at, job_id, nodes, "
        "run_dir, attempt, record, source_digest FROM runs WHERE session_id = ?1 ORDER BY id");
    bindAll(s.get(), session_id);
    return readRows<RunRow>(s.get(), [](sqlite3_stmt* q) -> RunRow {
        RunRow row{{columnText(q, 0), columnText(q, 1), columnText(q, 2), sqlite3_column_int(q, 3),
                    sqlite3_column_int(q, 4), columnText(q, 5)},
                   sqlite3_column_int64(q, 6),
                   sqlite3_column_int64(q, 7),
                   statusIn(q, 8, runStatusNamed, "run", sqlite3_column_int64(q, 6)),
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
        row.source_digest = columnText(q, 21);
        if (sqlite3_column_type(q, 20) != SQLITE_NULL) {
            try {
                row.spec = readRunRecord(columnText(q, 20));
            } catch (const std::exception& e) {
                row.spec_problem = "run " + std::to_string(row.id) + "'s record does not read: " + e.what();
            }
        }
        return row;
    });
}

std::optional<SourceRun> SessionStore::runFromSource(const std::string& digest) const {
    auto s = prepare("SELECT runs.session_id, runs.id, runs.name, sessions.name FROM runs JOIN sessions ON "
                     "sessions.id = runs.session_id WHERE runs.source_digest = ?1 ORDER BY runs.id LIMIT 1");
    bindAll(s.get(), digest);
    if (sqlite3_step(s.get()) != SQLITE_ROW) return std::nullopt;
    return SourceRun{sqlite3_column_int64(s.get(), 0), sqlite3_column_int64(s.get(), 1),
                     columnText(s.get(), 2), columnText(s.get(), 3)};
}

std::optional<SessionRow> SessionStore::deleteSession(std::int64_t session_id) {
    std::optional<SessionRow> deleted = session(session_id);
    if (!deleted) return std::nullopt;
    // A session a console still follows is that console's to end: its records keep arriving.
    if (deleted->status == SessionStatus::Running || deleted->status == SessionStatus::Orphaned)
        throw StoreError("session " + std::to_string(session_id) + " '" + deleted->name + "' is " +
                         std::string(storedWord(deleted->status)) + ": cancel it before deleting it");
    transaction([&] {
        for (const RunRow& run : runs(session_id)) {
            deleteRecords(run.id);
            execute("DELETE FROM run_attempts WHERE run_id = " + std::to_string(run.id));
        }
        execute("DELETE FROM runs WHERE session_id = " + std::to_string(session_id));
        execute("DELETE FROM sessions WHERE id = " + std::to_string(session_id));
    });
    return deleted;
}

bool SessionStore::removeCluster(const std::string& name) {
    auto s = prepare("DELETE FROM clusters WHERE name = ?1");
    bindAll(s.get(), name);
    if (sqlite3_step(s.get()) != SQLITE_DONE) fail("cannot remove cluster " + name);
    return sqlite3_changes(db_.get()) > 0;
}

} // namespace scalebench
