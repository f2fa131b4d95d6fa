// scalebench --batch as a user runs it: bad plans and stores are named, and a killed rank fails the batch
// without losing the records collected before it died.
#include "console_run.h"
#include "metric_stream_parser.h"
#include "run_folder.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

using namespace scalebench;

TEST_CASE("a plan with a misspelt key stops the batch with the file, line and key", "[integration][cli]") {
    TemporaryFolder folder;
    const auto r = runConsole(folder, {"--batch", SCALEBENCH_SOURCE_DIR "/tests/data/typo.toml", "--db",
                                       (folder.path / "s.db").string()});
    CHECK(r.exit_status == 2);
    CHECK_THAT(r.err, Catch::Contains("plan error:") && Catch::Contains("typo.toml:8:") &&
                          Catch::Contains("unknown key 'batch_per_rnak' (did you mean 'batch_per_rank'?)"));
}

TEST_CASE("a store written by a newer scalebench stops the batch with a clear message",
          "[integration][cli]") {
    TemporaryFolder folder;
    const auto db = folder.path / "newer.db";
    sqlite3* raw = nullptr;
    REQUIRE(sqlite3_open(db.c_str(), &raw) == SQLITE_OK);
    const std::string newer = std::to_string(SessionStore::kSchemaVersion + 1);
    REQUIRE(sqlite3_exec(raw, ("CREATE TABLE future(x); PRAGMA user_version = " + newer).c_str(), nullptr,
                         nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(raw);
    const auto r = runConsole(folder, {"--batch", SCALEBENCH_SOURCE_DIR "/tests/data/two_ranks.toml", "--db",
                                       db.string(), "--out", (folder.path / "out").string()});
    CHECK(r.exit_status == 2);
    CHECK_THAT(r.err, Catch::Contains("schema version " + newer) && Catch::Contains("newer scalebench"));
}

TEST_CASE("killing one rank mid-run fails the batch with that rank's error: the records before it are stored",
          "[integration][cli]") {
    TemporaryFolder folder;
    std::ofstream(folder.path / "long.toml") << R"(
name = "long"
[[run]]
workload = "resnet20"
dataset = "synthetic-cifar"
ranks = 2
steps = 100000
batch_per_rank = 16
)";
    const auto db = folder.path / "s.db";
    const auto out = folder.path / "out";
    ChildProcess cli({SCALEBENCH_CLI_PATH, "--batch", (folder.path / "long.toml").string(), "--db",
                      db.string(), "--out", out.string(), "--poll-ms", "50"},
                     (folder.path / "out.log").string(), (folder.path / "err.log").string());

    // Wait for a few stored steps, then kill rank 1 by the PID its header names.
    std::string metrics;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    std::int64_t stored_before_kill = 0;
    while (stored_before_kill < 5) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        REQUIRE_FALSE(cli.poll().exited);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (!std::filesystem::exists(db)) continue;
        SessionStore store(db);
        for (const auto& run : store.runs(1)) {
            stored_before_kill = run.step_count;
            metrics = metricFile(run.run_dir, 0);
        }
    }
    std::istringstream lines(fileText(metrics));
    std::string header_line;
    std::getline(lines, header_line);
    const auto header = nlohmann::json::parse(header_line);
    const pid_t rank1 = header["hosts"][1]["pid"].get<pid_t>();
    REQUIRE(::kill(rank1, SIGKILL) == 0);

    const ChildExit exit = cli.wait();
    const std::string printed = fileText(folder.path / "out.log") + fileText(folder.path / "err.log");
    INFO(printed);
    CHECK(exit.status == 1);
    CHECK_THAT(printed, Catch::Contains("FAILED") && Catch::Contains("rank 1") &&
                            Catch::Contains("1 of 1 runs failed"));

    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].status == "failed");
    CHECK_THAT(runs[0].error, Catch::Contains("rank 1"));
    CHECK(runs[0].step_count >= stored_before_kill);
    CHECK(store.sessions().at(0).status == "failed");
}

TEST_CASE("two stores writing into one folder keep their runs apart: each run's records are its own",
          "[integration][cli]") {
    // Both stores number their first session 1; each run must still get a folder of its own, and neither
    // store may read the other's records.
    TemporaryFolder folder;
    std::ofstream(folder.path / "short.toml") << R"(
name = "short"
[[run]]
workload = "resnet20"
dataset = "synthetic-cifar"
ranks = 1
steps = 6
batch_per_rank = 8
)";
    std::ofstream(folder.path / "longer.toml") << R"(
name = "longer"
[[run]]
workload = "resnet20"
dataset = "synthetic-cifar"
ranks = 1
steps = 9
batch_per_rank = 8
)";
    const auto out = (folder.path / "out").string();
    const auto first = runConsole(folder, {"--batch", (folder.path / "longer.toml").string(), "--db",
                                           (folder.path / "first.db").string(), "--out", out});
    REQUIRE(first.exit_status == 0);
    const auto second = runConsole(folder, {"--batch", (folder.path / "short.toml").string(), "--db",
                                            (folder.path / "second.db").string(), "--out", out});
    INFO(second.printed());
    REQUIRE(second.exit_status == 0);
    CHECK_THAT(second.out, !Catch::Contains("step 9/6") && !Catch::Contains("step 7/6"));

    SessionStore first_store(folder.path / "first.db"), second_store(folder.path / "second.db");
    const RunRow a = first_store.runs(1).at(0), b = second_store.runs(1).at(0);
    CHECK(a.run_dir != b.run_dir);
    CHECK(second_store.steps(b.id).size() == 6);
    CHECK(second_store.steps(b.id).back().step == 6);
    CHECK(first_store.steps(a.id).size() == 9);
    // The first session's files are untouched: its stream still ends with its own 9 steps.
    MetricStreamParser parser;
    std::int64_t last_step = 0;
    for (const auto& record : parser.feed(fileText(metricFile(a.run_dir, 0))))
        if (auto* s = std::get_if<StepRecord>(&record)) last_step = s->step;
    CHECK(last_step == 9);
}
