// Specification of the session store: sessions, runs and records survive reopening; foreign files are
// refused.
#include "run_folder.h"
#include "session_results.h"
#include "session_store.h"
#include "store_rewrite.h"
#include "stored_steps.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <tuple>
#include <unistd.h>

using namespace scalebench;

namespace {
// A step whose every field has its own value, so that a field stored in another's column shows.
StepRecord everyStepField() {
    return {50, 0.04, 512, 0.5, 0.01, 0.12, 0.18, 0.07, 0.09, 25.5, 0.03, 4096, 1.5e12, 0.42};
}

// One message size of a sweep, every field away from its default.
CollectiveRecord sweepSize() {
    CollectiveRecord c;
    c.collective = "allgather";
    c.dtype = "bfloat16";
    c.backend = "nccl";
    c.op = "avg";
    c.in_place = true;
    c.elements = 1024;
    c.bytes = 2048;
    c.ranks = 2;
    c.repetitions = 20;
    c.time_s = 1.5e-5;
    c.algbw_gbps = 0.13;
    c.busbw_gbps = 0.0675;
    c.correct = true;
    return c;
}

} // namespace

TEST_CASE("a session, its runs and every record are stored and read back after reopening", "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "sessions.db";
    std::int64_t run = 0;
    {
        SessionStore store(file);
        CHECK(store.schemaVersion() == SessionStore::kSchemaVersion);
        const auto session = store.createSession("quickstart", "name = \"quickstart\"", "local");
        run = store.createRun(session,
                              {"resnet20-n2", "resnet20", "fashion-mnist", 2, 1, "mpirun -np 2 engine"});
        store.startRun(run, "4242");
        std::vector<MetricRecord> batch = {HeaderRecord{1, "resnet20", "fashion-mnist", 2, R"({"ranks":2})"}};
        for (int i = 1; i <= 100; ++i)
            batch.push_back(i == 50 ? everyStepField() : storedStep(i));
        batch.push_back(EvalRecord{100, "accuracy", 0.8, 0.6, 50});
        batch.push_back(RankTimesRecord{100, {0.25, 0.26}, {0.2, 0.24}});
        batch.push_back(sweepSize());
        batch.push_back(ErrorRecord{1, "nothing wrong, just a test"});
        batch.push_back(SummaryRecord{100, 52, 500, 0.02, "accuracy", 0.8, R"({"type":"summary"})"});
        store.appendRecords(run, batch);
        store.finishRun(run, {RunStatus::Ok, "", 3, "node[1-2]"});
        store.finishSession(session, SessionStatus::Ok);
    }
    SessionStore reopened(file);
    const auto sessions = reopened.sessions();
    REQUIRE(sessions.size() == 1);
    CHECK(sessions[0].name == "quickstart");
    CHECK(storedWord(sessions[0].status) == "ok");
    CHECK(sessions[0].run_count == 1);
    CHECK(sessions[0].plan_text == "name = \"quickstart\"");
    const auto runs = reopened.runs(sessions[0].id);
    REQUIRE(runs.size() == 1);
    CHECK(storedWord(runs[0].status) == "ok");
    CHECK(runs[0].step_count == 100);
    CHECK(runs[0].broken_lines == 3);
    CHECK(runs[0].header_json == R"({"ranks":2})");
    CHECK(runs[0].command == "mpirun -np 2 engine");
    CHECK(runs[0].job_id == "4242");
    CHECK(runs[0].nodes == "node[1-2]");
    CHECK(runs[0].summary_json == R"({"type":"summary"})");
    const auto steps = reopened.steps(run);
    REQUIRE(steps.size() == 100);
    CHECK(steps[48].loss == Approx(2.0 / 49));
    const StepRecord& full = steps[49];
    const StepRecord expected = everyStepField();
    CHECK(full.step == 50);
    CHECK(std::vector<double>{full.loss, full.samples_per_s, full.step_s, full.data_s, full.forward_s,
                              full.backward_s, full.allreduce_s, full.optimizer_s, full.elapsed_s,
                              full.comm_hidden_s, full.tokens_per_s, full.model_flops_per_s} ==
          std::vector<double>{expected.loss, expected.samples_per_s, expected.step_s, expected.data_s,
                              expected.forward_s, expected.backward_s, expected.allreduce_s,
                              expected.optimizer_s, expected.elapsed_s, expected.comm_hidden_s,
                              expected.tokens_per_s, expected.model_flops_per_s});
    CHECK(full.mfu == expected.mfu);
    CHECK_FALSE(steps[48].mfu.has_value());
    const auto evals = reopened.evals(run);
    REQUIRE(evals.size() == 1);
    CHECK(evals[0].step == 100);
    CHECK(evals[0].metric == "accuracy");
    CHECK(evals[0].value == 0.8);
    CHECK(evals[0].loss == 0.6);
    CHECK(evals[0].elapsed_s == 50);
    const auto times = reopened.rankTimes(run);
    REQUIRE(times.size() == 1);
    CHECK(times[0].step_s == std::vector<double>{0.25, 0.26});
    CHECK(times[0].compute_s == std::vector<double>{0.2, 0.24});
    const auto sweep = reopened.collectives(run);
    REQUIRE(sweep.size() == 1);
    const CollectiveRecord c = sweepSize();
    CHECK(std::tie(sweep[0].collective, sweep[0].dtype, sweep[0].backend, sweep[0].op, sweep[0].in_place,
                   sweep[0].elements, sweep[0].bytes, sweep[0].ranks, sweep[0].repetitions, sweep[0].time_s,
                   sweep[0].algbw_gbps, sweep[0].busbw_gbps, sweep[0].correct) ==
          std::tie(c.collective, c.dtype, c.backend, c.op, c.in_place, c.elements, c.bytes, c.ranks,
                   c.repetitions, c.time_s, c.algbw_gbps, c.busbw_gbps, c.correct));
    // Error records have no reader yet: they are in their table.
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
    sqlite3_stmt* query = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "SELECT * FROM run_errors", -1, &query, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(query) == SQLITE_ROW);
    CHECK(sqlite3_column_int64(query, 0) == run);
    CHECK(sqlite3_column_int(query, 1) == 1);
    CHECK(reinterpret_cast<const char*>(sqlite3_column_text(query, 2)) ==
          std::string("nothing wrong, just a test"));
    CHECK(sqlite3_step(query) == SQLITE_DONE);
    sqlite3_finalize(query);
    sqlite3_close(db);
}

TEST_CASE("a record stored twice (a resumed stream) is kept once", "[core][store]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    const auto run = store.createRun(store.createSession("s", "", "local"), {"r", "resnet20", "x", 1, 1, ""});
    store.appendRecords(run, {storedStep(1), storedStep(2)});
    store.appendRecords(run, {storedStep(2), storedStep(3)});
    CHECK(store.steps(run).size() == 3);
}

TEST_CASE("an evaluation step that measured two metrics keeps both", "[core][store]") {
    // Stable Diffusion's MLLOG: FID and CLIP score at the same samples_count.
    TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    const auto run =
        store.createRun(store.createSession("s", "", "imported"), {"sd", "stable_diffusion", "", 64, 1, ""});
    store.appendRecords(
        run, {EvalRecord{2048000, "fid", 101.656, 0, 440.0}, EvalRecord{2048000, "clip", 0.1563, 0, 447.7}});
    const auto evals = store.evals(run);
    REQUIRE(evals.size() == 2);
    CHECK((evals[0].metric == "clip" && evals[0].value == 0.1563));
    CHECK((evals[1].metric == "fid" && evals[1].value == 101.656));
}

TEST_CASE("the store uses write-ahead logging so the console can read while a run writes", "[core][store]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    store.createSession("s", "", "local");
    CHECK(std::filesystem::exists(folder.path / "s.db-wal"));
}

TEST_CASE("clusters are kept by name and replaced when saved again", "[core][store]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    ClusterSettings c; // every setting away from its default
    c.name = "prod";
    c.host = "head.example.org";
    c.user = "me";
    c.port = 2222;
    c.identity_files = {"~/.ssh/a", "~/.ssh/b"};
    c.known_hosts = "~/.ssh/cluster_hosts";
    c.trust_on_first_use = true;
    c.remote_root = "/scratch/me/sb";
    c.torch_python = "/opt/torch/bin/python";
    c.partition = "gpu";
    c.account = "ml";
    c.constraint = "a100";
    c.time_limit = "02:30:00";
    c.tasks_per_node = 8;
    c.gpus_per_node = 8;
    c.gres_syntax = true;
    c.exclusive = false;
    c.setup_lines = {"module load cuda/12.4", "module load openmpi"};
    c.nccl_env = {{"NCCL_IB_HCA", "mlx5"}};
    c.container_image = "nvcr.io/nvidia/pytorch:24.05";
    c.launcher = ClusterSettings::Launcher::Mpirun;
    c.poll_seconds = 30;
    c.jobcomp_log = "/var/log/slurm/jobcomp.log";
    store.saveCluster(c);
    c.partition = "a100";
    store.saveCluster(c);
    CHECK(store.clusterNames() == std::vector<std::string>{"prod"});
    const auto back = store.cluster("prod");
    REQUIRE(back.has_value());
    CHECK(back->partition == "a100");
    CHECK(back->nccl_env.at("NCCL_IB_HCA") == "mlx5");
    CHECK(clusterToJson(*back) == clusterToJson(c)); // every setting kept
    CHECK_FALSE(store.cluster("dev").has_value());
}

TEST_CASE("per-rank step times and hidden communication are stored and read back", "[core][store]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "ranks.db");
    const auto run =
        store.createRun(store.createSession("s", "", "local"), {"r", "resnet20", "synthetic", 3, 1, ""});
    StepRecord overlapped = storedStep(1);
    overlapped.comm_hidden_s = 0.04;
    store.appendRecords(run, {overlapped, RankTimesRecord{1, {0.25, 0.25, 0.26}, {0.2, 0.24, 0.25}},
                              RankTimesRecord{2, {0.3, 0.3, 0.3}, {0.1, 0.2, 0.29}}});
    CHECK(store.steps(run).at(0).comm_hidden_s == 0.04);
    const auto times = store.rankTimes(run);
    REQUIRE(times.size() == 2);
    CHECK(times[0].step == 1);
    CHECK(times[0].step_s == std::vector<double>{0.25, 0.25, 0.26});
    CHECK(times[1].compute_s == std::vector<double>{0.1, 0.2, 0.29});
}

TEST_CASE("a file that is not a session store is refused with its name", "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "notes.txt";
    std::ofstream(file)
        << "these are not the sessions you are looking for, padded to look like a file........";
    CHECK_THROWS_WITH(SessionStore(file),
                      Catch::Contains(file.string()) && Catch::Contains("not a database"));
}

TEST_CASE("collectives keep the tool that measured them and whether their result was checked",
          "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "tools.db";
    std::int64_t run = 0;
    {
        SessionStore store(file);
        run = store.createRun(store.createSession("s", "", "local"),
                              {"osu_allreduce-n2-r1", "osu_allreduce", "", 2, 1, ""});
        CollectiveRecord osu{"allreduce", "float32", "mpi", "sum", false, 1024, 4096,
                             2,           100,       2e-6,  2.048, 2.048, false};
        osu.tool = "osu";
        osu.checked = false;
        store.appendRecords(run, {osu});
        const auto back = store.collectives(run);
        REQUIRE(back.size() == 1);
        CHECK(back[0] == osu);
    }
    // A store of schema version 7: its collectives were all the engine's, checked.
    rewriteStore(file, UNDO_SCHEMA_8 "PRAGMA user_version = 7");
    SessionStore migrated(file);
    CHECK(migrated.schemaVersion() == SessionStore::kSchemaVersion);
    const auto back = migrated.collectives(run);
    REQUIRE(back.size() == 1);
    CHECK(back[0].tool == "scalebench");
    CHECK(back[0].checked);
}

TEST_CASE("two stores, and two sessions of one store, never share a run folder", "[core][store]") {
    TemporaryFolder folder;
    SessionStore first(folder.path / "first.db"), second(folder.path / "second.db");
    CHECK(first.storeId() != second.storeId());
    const auto a = first.createSession("s", "", "local"), b = second.createSession("s", "", "local");
    REQUIRE(a == b); // both stores start at session 1
    const auto folderOf = [](const SessionStore& store, std::int64_t id) {
        return runFolder("root", {store.storeId(), id, store.session(id)->uuid}, "run");
    };
    CHECK(folderOf(first, a) != folderOf(second, b));
    CHECK_THAT(folderOf(first, a), Catch::StartsWith("root/" + first.storeId() + "/session-1-"));
    const auto c = first.createSession("s", "", "local");
    CHECK(first.session(c)->uuid != first.session(a)->uuid);
}

TEST_CASE("a run started again keeps one attempt's records, and the earlier attempt's end", "[core][store]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "attempts.db");
    const auto run = store.createRun(store.createSession("s", "", "c"), {"r", "resnet20", "x", 2, 1, ""});
    store.startRun(run, "41");
    store.appendRecords(run, {storedStep(1), storedStep(2), storedStep(3), ErrorRecord{1, "lost node"}});
    store.restartRun(run, 1, "NODE_FAIL", "n2");
    CHECK(store.steps(run).empty());
    store.appendRecords(run, {storedStep(1)});
    const auto attempts = store.attempts(run);
    REQUIRE(attempts.size() == 1);
    CHECK(attempts[0].attempt == 0);
    CHECK(attempts[0].ended == "NODE_FAIL");
    CHECK(attempts[0].nodes == "n2");
    CHECK(attempts[0].last_step == 3);
    CHECK(store.runs(1).at(0).attempt == 1);
    CHECK(store.steps(run).size() == 1);
}

TEST_CASE("a session remembers the console that started it", "[core][store]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "owner.db");
    const auto id = store.createSession("s", "", "local");
    CHECK_THAT(store.session(id)->owner, Catch::EndsWith(":" + std::to_string(getpid())));
}

TEST_CASE("a requeued run's results say how often and why it was started again", "[core][store]") {
    CHECK(requeueNote({}).empty());
    CHECK(
        requeueNote({{0, "NODE_FAIL on node2 (down*: Not responding)", "node2", 12, ""}}) ==
        "requeued once after NODE_FAIL on node2 (down*: Not responding) (attempt 0 stopped at step 12); the "
        "figures are the last attempt's");
    CHECK_THAT(requeueNote({{0, "NODE_FAIL on n1", "n1", 3, ""}, {1, "a requeue", "n2", 5, ""}}),
               Catch::StartsWith("requeued twice after NODE_FAIL on n1 (attempt 0 stopped at step 3) and a "
                                 "requeue (attempt 1 stopped at step 5)"));
    TemporaryFolder folder;
    SessionStore store(folder.path / "requeued.db");
    const auto session = store.createSession("s", "", "c");
    const auto run = store.createRun(session, {"r", "resnet20", "x", 1, 1, ""});
    store.appendRecords(run, {storedStep(1), storedStep(2)});
    store.restartRun(run, 1, "NODE_FAIL on node1", "node1");
    store.appendRecords(run, {storedStep(1), storedStep(2), storedStep(3)});
    const auto results = loadSessionResults(store, session);
    CHECK_THAT(formatResultsTable(results),
               Catch::Contains("    requeued once after NODE_FAIL on node1 (attempt 0 stopped at step 2)"));
}

TEST_CASE("each bucket's all-reduce times are stored by step and bucket and read back in order",
          "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "buckets.db";
    std::int64_t run = 0;
    const BucketTimesRecord first{1, {4096, 1048580}, {0.012, 0.02}, {0.015, 0.031}};
    const BucketTimesRecord second{2, {4096, 1048580}, {0.011, 0.019}, {0.0135, 0.0302}};
    {
        SessionStore store(file);
        run =
            store.createRun(store.createSession("s", "", "local"), {"r", "resnet20", "synthetic", 2, 1, ""});
        store.appendRecords(run, {storedStep(2), second, first, storedStep(1)});
        store.appendRecords(run, {second}); // a resumed stream: kept once
        CHECK(store.bucketTimes(run) == std::vector<BucketTimesRecord>{first, second});
        CHECK(store.steps(run).size() == 2); // beside the steps, not in them
        store.replaceRecords(run, {storedStep(1)});
        CHECK(store.bucketTimes(run).empty());
        store.appendRecords(run, {first});
    }
    // A store of schema version 8 gets the table, empty; its runs keep their steps.
    rewriteStore(file, UNDO_SCHEMA_9 "PRAGMA user_version = 8");
    SessionStore migrated(file);
    CHECK(migrated.schemaVersion() == SessionStore::kSchemaVersion);
    CHECK(migrated.bucketTimes(run).empty());
    CHECK(migrated.steps(run).size() == 1);
    migrated.appendRecords(run, {second});
    CHECK(migrated.bucketTimes(run) == std::vector<BucketTimesRecord>{second});
}

TEST_CASE("a run's device check is stored with its checks in order and read back, once a run",
          "[core][store]") {
    TemporaryFolder folder;
    const auto file = folder.path / "checks.db";
    const DeviceCheckRecord failed{"llama",
                                   "cuda:0",
                                   6,
                                   "fail",
                                   false,
                                   {{"rms_norm", true, "max_abs_difference", 0.0, 1e-4},
                                    {"gpu against cpu", false, "max_relative_difference", 0.01, 2e-3},
                                    {"the same seeded steps twice", false}}};
    const DeviceCheckRecord passed{"llama", "cpu", 3, "pass", true, {{"rms_norm", true}}};
    std::int64_t run = 0, other = 0;
    {
        SessionStore store(file);
        const auto session = store.createSession("s", "", "local");
        run = store.createRun(session, {"r", "llama", "synthetic-tokens", 1, 1, ""});
        other = store.createRun(session, {"o", "llama", "synthetic-tokens", 1, 1, ""});
        CHECK_FALSE(store.deviceCheck(run).has_value()); // a run that trained
        store.appendRecords(run, {failed});
        store.appendRecords(other, {passed});
        CHECK(store.deviceCheck(run) == failed);
        store.appendRecords(run, {passed}); // a stream read again: its record replaces the stored one
        CHECK(store.deviceCheck(run) == passed);
        CHECK(store.deviceCheck(other) == passed);
        store.replaceRecords(run, {});
        CHECK_FALSE(store.deviceCheck(run).has_value());
        store.appendRecords(run, {failed});
    }
    // A store of schema version 9 gets the tables, empty.
    rewriteStore(file, UNDO_SCHEMA_10 "PRAGMA user_version = 9");
    SessionStore migrated(file);
    CHECK(migrated.schemaVersion() == SessionStore::kSchemaVersion);
    CHECK_FALSE(migrated.deviceCheck(run).has_value());
    migrated.appendRecords(run, {failed});
    CHECK(migrated.deviceCheck(run) == failed);
}

TEST_CASE("a stored device check is the run's outcome in the results table and the CSV", "[core][store]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "table.db");
    const auto session = store.createSession("s", "", "local");
    const auto run = store.createRun(
        session, {"llama-tiny-synthetic-tokens-n1-r1", "llama", "synthetic-tokens", 1, 1, ""});
    store.appendRecords(
        run,
        {DeviceCheckRecord{
            "llama", "cpu", 3, "fail", false, {{"rms_norm", true}, {"the same seeded steps twice", false}}}});
    store.finishRun(run, {RunStatus::Failed, "", 0, ""});
    const auto results = loadSessionResults(store, session);
    REQUIRE(results.size() == 1);
    REQUIRE(results[0].device_check.has_value());
    CHECK_THAT(formatResultsTable(results),
               Catch::Contains("llama-tiny-synthetic-tokens-n1-r1      1 failed   device check on cpu: FAIL: "
                               "the same seeded steps twice\n"));
    const std::string csv = resultsCsv(results);
    CHECK_THAT(csv, Catch::Contains(",device_check\n") && Catch::EndsWith(",fail\n"));
}

TEST_CASE("a run is stored with its record, every setting it ran with, and read back as it was",
          "[core][store][run-record]") {
    TemporaryFolder folder;
    const auto file = folder.path / "s.db";
    const std::string plan_text =
        "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\ndataset = \"synthetic-cifar\"\n"
        "ranks = [2]\nsteps = 30\nprecision = \"bf16\"\nenv = { OMP_PROC_BIND = \"close\" }\n";
    const RunSpec spec = expandPlan(parsePlanText(plan_text, "p.toml")).at(0);
    {
        SessionStore store(file);
        const auto session = store.createSession("p", plan_text, "local");
        store.createRun(session, {spec.name, "resnet20", "synthetic-cifar", 2, 1, "mpirun ...", spec});
        store.createRun(session, {"imported", "resnet20", "synthetic-cifar", 2, 1, "imported from x"});
    }
    SessionStore store(file);
    const auto runs = store.runs(1);
    REQUIRE(runs.at(0).spec.has_value());
    CHECK(*runs[0].spec == spec);
    CHECK(runs[0].spec->group.precision == "bf16");
    CHECK(runs[0].spec_problem.empty());
    CHECK_FALSE(runs.at(1).spec.has_value()); // an import: no settings known, none made up
    CHECK(runs[1].spec_problem.empty());
}

TEST_CASE("a run whose record does not read is named, in the store and in its results",
          "[core][store][run-record]") {
    TemporaryFolder folder;
    const auto file = folder.path / "s.db";
    {
        SessionStore store(file);
        const auto session = store.createSession("p", "", "local");
        store.createRun(session, {"r-n1", "resnet20", "synthetic-cifar", 1, 1, "", RunSpec{}});
    }
    rewriteStore(file, "UPDATE runs SET record = '{\"version\": 99, \"group\": {}}'");
    SessionStore store(file);
    const RunRow run = store.runs(1).at(0);
    CHECK_FALSE(run.spec.has_value());
    CHECK(run.spec_problem == "run 1's record does not read: the run's record has version 99; this "
                              "scalebench reads version 1");
    CHECK(loadSessionResults(store, 1).at(0).plan_problem == run.spec_problem);
}

TEST_CASE(
    "a status word this scalebench does not know is named with its run or session, never taken for another",
    "[core][store][status]") {
    TemporaryFolder folder;
    const auto file = folder.path / "s.db";
    {
        SessionStore store(file);
        store.createRun(store.createSession("p", "", "local"),
                        {"r-n1", "resnet20", "synthetic-cifar", 1, 1, ""});
    }
    rewriteStore(file, "UPDATE runs SET status = 'preempted'; UPDATE sessions SET status = 'paused'");
    SessionStore store(file);
    CHECK_THROWS_WITH(store.runs(1),
                      "run 1 is stored with status 'preempted', which this scalebench does not know");
    CHECK_THROWS_WITH(store.sessions(),
                      "session 1 is stored with status 'paused', which this scalebench does not know");
}

TEST_CASE("every run and session status has one stored word, read back as itself", "[core][status]") {
    for (const RunStatus s :
         {RunStatus::Pending, RunStatus::Running, RunStatus::Ok, RunStatus::Failed, RunStatus::Cancelled,
          RunStatus::Abandoned, RunStatus::Aborted, RunStatus::Cut}) {
        CHECK(runStatusNamed(storedWord(s)) == s);
        CHECK(shownWord(s) == (s == RunStatus::Ok ? "done" : storedWord(s)));
    }
    for (const SessionStatus s : {SessionStatus::Running, SessionStatus::Orphaned, SessionStatus::Ok,
                                  SessionStatus::Failed, SessionStatus::Cancelled, SessionStatus::Abandoned})
        CHECK(sessionStatusNamed(storedWord(s)) == s);
    CHECK_FALSE(runStatusNamed("done").has_value()); // the window's word, not the store's
    CHECK(hasEnded(RunStatus::Abandoned));
    CHECK_FALSE(hasEnded(RunStatus::Running));
    // An imported run's own log's end: ended, and badly.
    for (const RunStatus s : {RunStatus::Aborted, RunStatus::Cut, RunStatus::Failed})
        CHECK((hasEnded(s) && endedBadly(s)));
    CHECK_FALSE(endedBadly(RunStatus::Ok));
}

TEST_CASE("deleting a session takes its runs and every record of them, and leaves the others",
          "[core][store]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    const auto kept = store.createSession("kept", "", "local");
    const auto kept_run = store.createRun(kept, {"k", "resnet20", "x", 1, 1, ""});
    store.appendRecords(kept_run, {storedStep(1)});
    const auto gone = store.createSession("gone", "", "imported");
    RunIdentity imported{"g", "resnet20", "x", 1, 1, "imported from g.log as metric-stream"};
    imported.source_digest = "0123456789abcdef";
    const auto gone_run = store.createRun(gone, imported);
    store.appendRecords(gone_run, {storedStep(1), storedStep(2), EvalRecord{2, "accuracy", 0.5, 1.0, 2.0}});
    store.finishSession(gone, SessionStatus::Ok);
    REQUIRE(store.runFromSource("0123456789abcdef").has_value());
    CHECK(store.runFromSource("0123456789abcdef")->run_name == "g");
    CHECK(store.runs(gone).front().source_digest == "0123456789abcdef");

    const auto deleted = store.deleteSession(gone);
    REQUIRE(deleted.has_value());
    CHECK(deleted->name == "gone");
    CHECK_FALSE(store.session(gone).has_value());
    CHECK(store.runs(gone).empty());
    CHECK(store.steps(gone_run).empty());
    CHECK(store.evals(gone_run).empty());
    CHECK_FALSE(store.runFromSource("0123456789abcdef").has_value());
    CHECK(store.steps(kept_run).size() == 1);
    CHECK_FALSE(store.deleteSession(gone).has_value()); // gone already
    // The session a console still follows is refused, and kept.
    CHECK_THROWS_WITH(store.deleteSession(kept), "session 1 'kept' is running: cancel it before deleting it");
    CHECK(store.session(kept).has_value());
}
