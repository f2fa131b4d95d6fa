// scalebench --batch as a user runs it: bad plans and stores are named, and a killed rank fails the batch
// without losing the records collected before it died.
#include "cifar10_files.h"
#include "console_run.h"
#include "metric_stream_parser.h"
#include "run_folder.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
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

namespace {

// True while a process with this PID exists and has not ended (a zombie has ended).
bool processRuns(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

// A batch of one endless 2-rank run on this machine, followed until `steps` of its steps are stored.
struct LongBatch : RunningBatch {
    LongBatch(const TemporaryFolder& folder, std::int64_t steps)
        : RunningBatch(folder, arguments(folder), folder.path / "s.db", steps, std::chrono::seconds(90)) {}
    // A job the console left (a second signal leaves at once, kill -9 leaves everything) is stopped too,
    // after the console: SIGTERM, which mpirun passes on to its ranks (process groups of their own) before it
    // exits.
    ~LongBatch() {
        stop();
        if (!job_id.empty() && processRuns(std::stoi(job_id))) ::kill(-std::stoi(job_id), SIGTERM);
    }

  private:
    static std::vector<std::string> arguments(const TemporaryFolder& folder) {
        std::ofstream(folder.path / "long.toml") << R"(
name = "long"
[[run]]
workload = "resnet20"
dataset = "synthetic-cifar"
ranks = 2
steps = 100000
batch_per_rank = 16
)";
        return {"--batch", (folder.path / "long.toml").string(), "--db",      (folder.path / "s.db").string(),
                "--out",   (folder.path / "out").string(),       "--poll-ms", "50"};
    }
};

std::int64_t stepsInStream(const std::string& path) {
    MetricStreamParser parser;
    std::int64_t steps = 0;
    for (const auto& record : parser.feed(fileText(path)))
        steps += std::holds_alternative<StepRecord>(record) ? 1 : 0;
    return steps;
}

} // namespace

TEST_CASE("killing one rank mid-run fails the batch with that rank's error: the records before it are stored",
          "[integration][cli]") {
    TemporaryFolder folder;
    LongBatch batch(folder, 5);
    auto& cli = *batch.cli;
    const auto db = batch.db;
    const std::int64_t stored_before_kill = batch.stored;
    const std::string metrics = metricFile(batch.run_dir, 0);
    std::istringstream lines(fileText(metrics));
    std::string header_line;
    std::getline(lines, header_line);
    const auto header = nlohmann::json::parse(header_line);
    const pid_t rank1 = header["hosts"][1]["pid"].get<pid_t>();
    REQUIRE(::kill(rank1, SIGKILL) == 0);

    const ChildExit exit = cli.wait();
    const std::string printed = batch.printed();
    INFO(printed);
    CHECK(exit.status == 1);
    CHECK_THAT(printed, Catch::Contains("FAILED") && Catch::Contains("rank 1") &&
                            Catch::Contains("1 of 1 runs failed"));

    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 1);
    CHECK(storedWord(runs[0].status) == "failed");
    CHECK_THAT(runs[0].error, Catch::Contains("rank 1"));
    CHECK(runs[0].step_count >= stored_before_kill);
    CHECK(storedWord(store.sessions().at(0).status) == "failed");
}

TEST_CASE("Ctrl-C on a batch cancels its job, collects what it wrote, stores it as cancelled and exits 130",
          "[integration][cli][interrupt]") {
    TemporaryFolder folder;
    LongBatch batch(folder, 3);
    REQUIRE(::kill(batch.cli->pid(), SIGINT) == 0);
    const auto sent = std::chrono::steady_clock::now();
    const ChildExit exit = batch.cli->wait();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
    INFO(batch.printed());
    CHECK(exit.status == 130);
    CHECK(seconds < 30);
    CHECK_THAT(batch.printed(), Catch::Contains("interrupted (SIGINT)") && Catch::Contains("cancelled"));
    CHECK_FALSE(processRuns(std::stoi(batch.job_id))); // mpirun, and with it the ranks, stopped

    SessionStore store(batch.db);
    CHECK(storedWord(store.sessions().at(0).status) == "cancelled");
    const RunRow run = store.runs(1).at(0);
    CHECK(storedWord(run.status) == "cancelled");
    CHECK(run.finished_at != "");
    // Every step the engine wrote before it stopped is stored, none lost after the signal.
    CHECK(run.step_count == stepsInStream(metricFile(run.run_dir, 0)));
    CHECK(run.step_count >= batch.stored);
}

TEST_CASE(
    "SIGTERM on a batch does the same and exits 143, and a second signal leaves at once saying what it left",
    "[integration][cli][interrupt]") {
    TemporaryFolder folder;
    LongBatch batch(folder, 3);
    SECTION("one SIGTERM") {
        REQUIRE(::kill(batch.cli->pid(), SIGTERM) == 0);
        CHECK(batch.cli->wait().status == 143);
        SessionStore store(batch.db);
        CHECK(storedWord(store.sessions().at(0).status) == "cancelled");
        CHECK(storedWord(store.runs(1).at(0).status) == "cancelled");
    }
    SECTION("two signals") {
        // The first asks for a clean stop; the second, sent at once, does not wait for it.
        REQUIRE(::kill(batch.cli->pid(), SIGINT) == 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        REQUIRE(::kill(batch.cli->pid(), SIGINT) == 0);
        const ChildExit exit = batch.cli->wait();
        INFO(batch.printed());
        CHECK(exit.status == 130);
        CHECK_THAT(fileText(batch.err_log), Catch::Contains("second interrupt") &&
                                                Catch::Contains("Session 1 stays 'running'") &&
                                                Catch::Contains(batch.db.string()));
    }
}

TEST_CASE("a session whose console was killed is resolved at the next start: job stopped, records collected",
          "[integration][cli][interrupt]") {
    TemporaryFolder folder;
    LongBatch batch(folder, 3);
    batch.cli->kill(); // kill -9: no chance to clean up; mpirun, in its own process group, runs on
    batch.cli->wait();
    const pid_t mpirun = std::stoi(batch.job_id);
    REQUIRE(processRuns(mpirun));
    {
        SessionStore store(batch.db);
        REQUIRE(storedWord(store.sessions().at(0).status) == "running");
    }
    SECTION("by the next --batch") {
        std::ofstream(folder.path / "tiny.toml") << "name = \"tiny\"\n[[run]]\nworkload = \"resnet20\"\n"
                                                    "dataset = \"synthetic-cifar\"\nranks = 1\nsteps = 2\n";
        const auto next = runConsole(folder, {"--batch", (folder.path / "tiny.toml").string(), "--db",
                                              batch.db.string(), "--out", (folder.path / "out2").string()});
        INFO(next.printed());
        CHECK(next.exit_status == 0);
        CHECK_THAT(next.out, Catch::Contains("session 1 was left running by a console that ended") &&
                                 Catch::Contains("stored as abandoned"));
    }
    SECTION("by the window, when it opens") {
        ChildProcess gui({SCALEBENCH_CLI_PATH, "--db", batch.db.string(), "--screenshot",
                          (folder.path / "shot.png").string()},
                         (folder.path / "gui.log").string(), (folder.path / "gui.log").string(),
                         {"QT_QPA_PLATFORM=offscreen"});
        CHECK(gui.wait().status == 0);
        CHECK_THAT(fileText(folder.path / "gui.log"), Catch::Contains("session 1 was left running"));
    }
    CHECK_FALSE(processRuns(mpirun));
    SessionStore store(batch.db);
    CHECK(storedWord(store.sessions().at(0).status) == "abandoned");
    const RunRow run = store.runs(1).at(0);
    CHECK(storedWord(run.status) == "abandoned");
    CHECK_THAT(run.error, Catch::Contains("ended first") && Catch::Contains("still running: stopped"));
    CHECK(run.step_count == stepsInStream(metricFile(run.run_dir, 0)));
    CHECK(run.step_count >= batch.stored);
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

namespace {
// The metric stream of the one run under `out`.
std::string onlyMetricStream(const std::filesystem::path& out) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(out))
        if (entry.path().filename() == kMetricFileName) return fileText(entry.path());
    FAIL("no " << kMetricFileName << " under " << out);
    return "";
}
} // namespace

TEST_CASE("a plan on CIFAR-10 reads the folder its data_dir names, with a global batch over gradient "
          "accumulation and epochs, and a missing folder is named",
          "[integration][cli][plankeys]") {
    const TemporaryFolder folder;
    std::filesystem::create_directories(folder.path / "cifar");
    writeCifar10Folder(folder.path / "cifar", 16, 20); // 80 training images, 20 test images
    const auto plan = [&](const std::string& data_dir, const std::string& out) {
        std::ofstream(folder.path / "cifar.toml") << R"(
name = "cifar"
[[run]]
workload = "resnet20"
dataset = "cifar10"
data_dir = ")" + data_dir + R"("
ranks = 1
batch_per_rank = 8
global_batch = 16
epochs = 2
)";
        return std::vector<std::string>{"--batch", (folder.path / "cifar.toml").string(),
                                        "--db",    (folder.path / "s.db").string(),
                                        "--out",   (folder.path / out).string()};
    };
    const auto ran = runConsole(folder, plan((folder.path / "cifar").string(), "out"));
    INFO(ran.printed());
    REQUIRE(ran.exit_status == 0);
    const std::string stream = onlyMetricStream(folder.path / "out");
    const auto header = nlohmann::json::parse(stream.substr(0, stream.find('\n')));
    CHECK(header["dataset"] == "cifar10");
    CHECK(header["data_dir"] == (folder.path / "cifar").string());
    const auto& hp = header["hyperparameters"];
    CHECK(hp["batch_per_rank"] == 8);
    CHECK(hp["accumulation"] == 2);
    CHECK(hp["global_batch"] == 16);
    CHECK(hp["steps"] == 10);       // two passes over 80 images, 16 a step
    CHECK(hp["eval_samples"] == 0); // MLBench task 1: the whole test set
    CHECK(hp["eval_every"] == -1);  // after each epoch
    std::vector<int> evaluated;     // the steps after which the run evaluated
    std::istringstream lines(stream);
    for (std::string line; std::getline(lines, line);)
        if (const auto record = nlohmann::json::parse(line); record["type"] == "eval")
            evaluated.push_back(record["step"].get<int>());
    CHECK(evaluated == std::vector<int>{5, 10});

    const auto missing = runConsole(folder, plan((folder.path / "missing").string(), "out-missing"));
    CHECK(missing.exit_status != 0);
    CHECK_THAT(missing.printed(), Catch::Contains("dataset 'cifar10'") &&
                                      Catch::Contains((folder.path / "missing").string()) &&
                                      Catch::Contains("data_dir"));
}

TEST_CASE("mllog = true: the engine's MLPerf log is read back and its time to train stands beside the run's "
          "own figures",
          "[integration][cli][mllog]") {
    const TemporaryFolder folder;
    std::ofstream(folder.path / "mllog.toml") << R"(
name = "mllog"
[[run]]
workload = "resnet20"
ranks = 1
steps = 4
batch_per_rank = 8
eval_every = 2
eval_samples = 16
mllog = true
)";
    const auto db = (folder.path / "s.db").string();
    const auto ran = runConsole(folder, {"--batch", (folder.path / "mllog.toml").string(), "--db", db,
                                         "--out", (folder.path / "out").string()});
    INFO(ran.printed());
    REQUIRE(ran.exit_status == 0);
    CHECK_THAT(ran.out, Catch::Contains("MLPerf time to train") && Catch::Contains("/attempt-0/mllog.txt"));
    CHECK_THAT(ran.out, Catch::Contains("    MLPerf time to train ") && Catch::Contains("from its MLLOG"));

    SessionStore store(db);
    const auto runs = store.runs(store.sessions().front().id);
    REQUIRE(runs.size() == 1);
    const auto summary = nlohmann::json::parse(runs[0].summary_json);
    CHECK(summary["samples_per_s"].get<double>() > 0); // the engine's own summary, kept
    const auto& mlperf = summary["mlperf"];
    CHECK(mlperf["time_to_train_min"].get<double>() > 0);
    CHECK(mlperf["status"].is_string());
    CHECK(mlperf["benchmark"] == "resnet"); // the MLPerf benchmark resnet20 stands in for, not its own name
    CHECK(mlperf["division"] == "open");
}

TEST_CASE("a figure below its reference exits 3 naming it on stdout and in the JUnit file, and a second "
          "session is judged against the first as its baseline",
          "[integration][cli][verdicts]") {
    const TemporaryFolder folder;
    const auto plan = [&](double reference) {
        std::ofstream(folder.path / "nightly.toml") << R"(
name = "nightly"
repeats = 3
[[run]]
workload = "logistic-regression"
dataset = "synthetic-epsilon"
ranks = 1
steps = 20

[[reference]]
workload = "logistic-regression"
figure = "samples_per_s"
value = )" + std::to_string(reference) + R"(
lower = -0.5
)";
        return (folder.path / "nightly.toml").string();
    };
    const auto db = (folder.path / "s.db").string();
    const auto junit = folder.path / "ci" / "junit.xml";
    const auto failing = runConsole(folder, {"run", plan(1e12), "--db", db, "--out",
                                             (folder.path / "a").string(), "--junit", junit.string()});
    INFO(failing.printed());
    CHECK(failing.exit_status == 3);
    CHECK_THAT(failing.out, Catch::Contains("verdicts against the plan's references") &&
                                Catch::Contains("samples_per_s") && Catch::Contains("FAIL (reference 1e+12"));
    CHECK_THAT(failing.err, Catch::Contains("a figure failed its reference or regressed"));
    const std::string xml = fileText(junit);
    CHECK_THAT(xml, Catch::Contains("failures=\"3\" errors=\"0\"") &&
                        Catch::Contains("name=\"samples_per_s\">\n    <failure message=\"samples_per_s "));

    // The same plan with a reference it meets, against the last session of the same plan on this machine (the
    // first: its runs succeeded, so it ended ok though a verdict failed). The same setting: no regression.
    const auto passing = runConsole(
        folder, {"run", plan(1), "--db", db, "--out", (folder.path / "b").string(), "--baseline", "last"});
    INFO(passing.printed());
    CHECK_THAT(passing.out, Catch::Contains("against baseline session 1 (nightly") &&
                                Catch::Contains("95 % bootstrap, 3 vs 3 repeats"));
    CHECK(passing.exit_status == 0);
    CHECK(passing.out.find("REGRESSION") == std::string::npos);
}
