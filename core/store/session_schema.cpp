// The session store's schema: its migrations, one per version, and the one that records each stored run.
#include "run_record.h"
#include "session_store.h"
#include "sqlite_rows.h"

#include <iterator>

namespace scalebench {
using namespace sqlite_rows;
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
    // 10 -> 11: what each run was, every setting it ran with (run_record.h: versioned JSON); NULL for an
    // import. Runs stored before get theirs from their session's plan (recordRunsFromPlans).
    R"sql(
    ALTER TABLE runs ADD COLUMN record TEXT;
    )sql",
    // 11 -> 12: a run's evaluations by step and metric: one evaluation step may measure several (Stable
    // Diffusion's FID and CLIP score, which the MLLOG logs at the same samples_count); an imported run's
    // file's content digest
    R"sql(
    CREATE TABLE evals_v12 (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        step INTEGER NOT NULL,
        metric TEXT NOT NULL,        -- accuracy (a fraction), loss, perplexity, log_perplexity, bleu, fid, clip, error
        value REAL NOT NULL,
        loss REAL NOT NULL,
        elapsed_s REAL NOT NULL,
        PRIMARY KEY (run_id, step, metric)
    ) WITHOUT ROWID;
    INSERT INTO evals_v12 SELECT run_id, step, metric, value, loss, elapsed_s FROM evals;
    DROP TABLE evals;
    ALTER TABLE evals_v12 RENAME TO evals;
    -- an imported run's file by its content (contentDigest: FNV-1a 64, hex), so that the same file imported
    -- again is known; NULL for a run scalebench ran
    ALTER TABLE runs ADD COLUMN source_digest TEXT;
    CREATE INDEX runs_by_source ON runs(source_digest) WHERE source_digest IS NOT NULL;
    )sql",
};
constexpr int kRunRecordsSchema = 11;
constexpr int kLatest = static_cast<int>(std::size(kMigrations));
static_assert(kLatest == SessionStore::kSchemaVersion);

} // namespace

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
            if (v + 1 == kRunRecordsSchema) recordRunsFromPlans();
            execute("PRAGMA user_version = " + std::to_string(v + 1));
            execute("COMMIT");
        } catch (...) {
            execute("ROLLBACK");
            throw;
        }
    }
}

void SessionStore::recordRunsFromPlans() {
    struct Planned {
        std::int64_t id;
        std::string plan_text;
    };
    auto sessions = prepare("SELECT id, plan_text FROM sessions WHERE plan_text != '' ORDER BY id");
    const auto planned = readRows<Planned>(sessions.get(), [](sqlite3_stmt* q) {
        return Planned{sqlite3_column_int64(q, 0), columnText(q, 1)};
    });
    auto runs = prepare("SELECT id, name FROM runs WHERE session_id = ?1");
    auto record = prepare("UPDATE runs SET record = ?1 WHERE id = ?2");
    for (const Planned& session : planned) {
        // A plan that no longer reads leaves its runs without a record: the session's StoredPlan names why.
        const StoredPlan stored = readStoredPlan(session.id, session.plan_text);
        const std::map<std::string, RunSpec> specs = stored.runs();
        bindAll(runs.get(), session.id);
        const auto named = readRows<std::pair<std::int64_t, std::string>>(runs.get(), [](sqlite3_stmt* q) {
            return std::pair(sqlite3_column_int64(q, 0), columnText(q, 1));
        });
        sqlite3_reset(runs.get());
        for (const auto& [run_id, name] : named) {
            const auto spec = specs.find(name);
            if (spec == specs.end()) continue; // a run the plan does not make (renamed since): no record
            bindAll(record.get(), runRecordJson(spec->second), run_id);
            if (sqlite3_step(record.get()) != SQLITE_DONE)
                fail("cannot record run " + std::to_string(run_id));
            sqlite3_reset(record.get());
        }
    }
}

} // namespace scalebench
