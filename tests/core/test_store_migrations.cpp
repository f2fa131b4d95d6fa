// Specification of the session store's migrations: a store an older scalebench left is brought up to date
// with everything it holds, and one from a newer scalebench is refused.
#include "plan_writer.h"
#include "run_record.h"
#include "session_results.h"
#include "session_store.h"
#include "store_rewrite.h"
#include "stored_steps.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {
// A store file whose one session has the one run, with one step stored: session 1, run 1.
void storeOneStepOf(const std::filesystem::path& file, const std::string& session, const RunIdentity& run) {
    SessionStore store(file);
    store.appendRecords(store.createRun(store.createSession(session, "", "local"), run), {storedStep(1)});
}
} // namespace

TEST_CASE("a store from a newer scalebench is refused with both schema versions", "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "newer.db";
    { SessionStore store(file); }
    rewriteStore(file, "PRAGMA user_version = 42");
    CHECK_THROWS_WITH(SessionStore(file),
                      Catch::Contains("schema version 42") && Catch::Contains("newer scalebench") &&
                          Catch::Contains("up to " + std::to_string(SessionStore::kSchemaVersion)) &&
                          Catch::Contains(file.string()));
}

TEST_CASE("a store of schema version 1 is migrated with its sessions intact", "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "v1.db";
    {
        SessionStore store(file);
        store.createSession("old", "", "local");
    }
    // Take it back to version 1, as an older scalebench left it.
    rewriteStore(
        file, UNDO_SCHEMA_6
        "DROP TABLE collectives; DROP TABLE rank_times; ALTER TABLE steps DROP COLUMN comm_hidden_s; "
        "ALTER TABLE runs DROP COLUMN run_dir; "
        "DROP TABLE clusters; ALTER TABLE sessions DROP COLUMN cluster_json; "
        "ALTER TABLE runs DROP COLUMN job_id; ALTER TABLE runs DROP COLUMN nodes; "
        "PRAGMA user_version = 1");
    SessionStore migrated(file);
    CHECK(migrated.schemaVersion() == SessionStore::kSchemaVersion);
    CHECK(migrated.sessions().at(0).name == "old");
    const auto run = migrated.createRun(1, {"r", "resnet20", "x", 1, 1, ""});
    migrated.startRun(run, "17");
    CHECK(migrated.runs(1).at(0).job_id == "17");
}

TEST_CASE("a store of schema version 4 keeps its collective sweeps, as MPI sum out-of-place",
          "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "v4.db";
    storeOneStepOf(file, "sweep", {"sweep-n2", "allreduce-sweep", "none", 2, 1, ""});
    // Take it back to version 4, with one collective row as version 4 wrote it.
    rewriteStore(file, UNDO_SCHEMA_6
                 "DROP TABLE collectives; DROP TABLE rank_times; "
                 "ALTER TABLE steps DROP COLUMN comm_hidden_s; ALTER TABLE runs DROP COLUMN run_dir; "
                 "CREATE TABLE collectives (run_id INTEGER NOT NULL, collective TEXT NOT NULL, "
                 "dtype TEXT NOT NULL, bytes INTEGER NOT NULL, elements INTEGER NOT NULL, "
                 "ranks INTEGER NOT NULL, repetitions INTEGER NOT NULL, time_s REAL NOT NULL, "
                 "algbw_gbps REAL NOT NULL, busbw_gbps REAL NOT NULL, correct INTEGER NOT NULL, "
                 "PRIMARY KEY (run_id, collective, dtype, bytes)) WITHOUT ROWID; "
                 "INSERT INTO collectives VALUES (1, 'allreduce', 'float32', 4000000, 1000000, 2, 100, "
                 "0.001, 4.0, 4.0, 1); PRAGMA user_version = 4");
    SessionStore migrated(file);
    CHECK(migrated.schemaVersion() == SessionStore::kSchemaVersion);
    const auto sweep = migrated.collectives(1);
    REQUIRE(sweep.size() == 1);
    CHECK(sweep[0].backend == "mpi");
    CHECK(sweep[0].op == "sum");
    CHECK_FALSE(sweep[0].in_place);
    CHECK(sweep[0].busbw_gbps == 4.0);
    REQUIRE(migrated.steps(1).size() == 1);
    CHECK(migrated.steps(1)[0].comm_hidden_s == 0);
}

TEST_CASE("a store of schema version 5 keeps its evaluations, as accuracy", "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "v5.db";
    storeOneStepOf(file, "old", {"r-n1", "resnet20", "fashion-mnist", 1, 1, ""});
    // Back to version 5, with one evaluation as version 5 wrote it.
    rewriteStore(file,
                 UNDO_SCHEMA_6 "INSERT INTO evals VALUES (1, 100, 0.85, 0.4, 30); PRAGMA user_version = 5");
    SessionStore migrated(file);
    CHECK(migrated.schemaVersion() == SessionStore::kSchemaVersion);
    const auto evals = migrated.evals(1);
    REQUIRE(evals.size() == 1);
    CHECK(evals[0].metric == "accuracy");
    CHECK(evals[0].value == 0.85);
    REQUIRE(migrated.steps(1).size() == 1);
    CHECK(migrated.steps(1)[0].tokens_per_s == 0);
    CHECK_FALSE(migrated.steps(1)[0].mfu.has_value());
}

TEST_CASE("a store of schema version 6 gets a store id and a UUID for each of its sessions",
          "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "v6.db";
    {
        SessionStore store(file);
        store.createSession("first", "", "local");
        store.createSession("second", "", "local");
    }
    rewriteStore(file, UNDO_SCHEMA_7 "PRAGMA user_version = 6");
    SessionStore migrated(file);
    CHECK(migrated.storeId().size() == 16);
    const auto sessions = migrated.sessions();
    REQUIRE(sessions.size() == 2);
    CHECK(sessions[0].uuid.size() == 32);
    CHECK(sessions[0].uuid != sessions[1].uuid);
}

TEST_CASE("a store of schema version 10 gets each run's record from its session's plan", "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "v10.db";
    const std::string plan_text = "name = \"old\"\n[[run]]\nworkload = \"resnet20\"\ndataset = "
                                  "\"synthetic-cifar\"\nranks = [1, 2]\nsteps = 30\nlr = 0.05\n";
    const std::vector<RunSpec> planned = expandPlan(parsePlanText(plan_text, "old.toml"));
    {
        SessionStore store(file);
        const auto session = store.createSession("old", plan_text, "local");
        for (const RunSpec& spec : planned)
            store.createRun(session, {spec.name, "resnet20", "synthetic-cifar", spec.ranks, 1, ""});
        store.createRun(session, {"renamed-since", "resnet20", "synthetic-cifar", 4, 1, ""});
        const auto unreadable =
            store.createSession("unreadable", "name = \"x\"\n[[run]]\nworkload = 7\n", "local");
        store.createRun(unreadable, {"x-n1", "resnet20", "synthetic-cifar", 1, 1, ""});
        store.createSession("imported", "", "local");
    }
    rewriteStore(file, UNDO_SCHEMA_11 "UPDATE runs SET status = 'ok'; PRAGMA user_version = 10");
    SessionStore migrated(file);
    CHECK(migrated.schemaVersion() == SessionStore::kSchemaVersion);
    const auto runs = migrated.runs(1);
    REQUIRE(runs.size() == 3);
    for (std::size_t i = 0; i < planned.size(); ++i) {
        REQUIRE(runs[i].spec.has_value());
        CHECK(*runs[i].spec == planned[i]);
        CHECK(runs[i].spec->group.lr == 0.05);
    }
    CHECK_FALSE(runs[2].spec.has_value()); // a run the plan does not make: no record, nothing guessed
    // A plan that no longer reads leaves its run without a record; the session names why, and so do its
    // results.
    CHECK_FALSE(migrated.runs(2).at(0).spec.has_value());
    CHECK_THAT(migrated.session(2)->stored_plan.problem,
               Catch::Contains("the plan stored with session 2 no longer reads"));
    CHECK_THAT(loadSessionResults(migrated, 2).at(0).plan_problem,
               Catch::Contains("the plan stored with session 2 no longer reads"));
}

TEST_CASE(
    "a store of schema version 11 keeps its evaluations, now by metric, and its runs have no source yet",
    "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "v11.db";
    {
        SessionStore store(file);
        const auto run =
            store.createRun(store.createSession("old", "", "local"), {"r", "resnet20", "x", 1, 1, ""});
        store.appendRecords(
            run, {EvalRecord{10, "accuracy", 0.5, 1.2, 3.0}, EvalRecord{20, "accuracy", 0.6, 1.0, 6.0}});
    }
    rewriteStore(file, UNDO_SCHEMA_12 "PRAGMA user_version = 11");
    SessionStore migrated(file);
    CHECK(migrated.schemaVersion() == SessionStore::kSchemaVersion);
    const auto evals = migrated.evals(1);
    REQUIRE(evals.size() == 2);
    CHECK((evals[1].step == 20 && evals[1].value == 0.6 && evals[1].metric == "accuracy"));
    CHECK(migrated.runs(1).front().source_digest.empty());
    // Two metrics at one step now both stay.
    migrated.appendRecords(1, {EvalRecord{20, "loss", 1.0, 1.0, 6.0}});
    CHECK(migrated.evals(1).size() == 3);
}
