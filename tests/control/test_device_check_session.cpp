// A plan's check_device end to end on this machine, as a user runs it: `scalebench run` launches the engine's
// device self-check under mpirun, stores its verdict with each check, prints it as the run's outcome, and a
// verdict of fail fails the run and the session whatever the program's exit status.
#include "console_run.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <fstream>

using namespace scalebench;

TEST_CASE("a plan with check_device = true stores the engine's verdict and prints it as the run's outcome",
          "[integration][cli][device-check]") {
    TemporaryFolder folder;
    std::ofstream(folder.path / "check.toml") << R"(name = "check this machine"
[[run]]
workload = "llama"
dataset = "synthetic-tokens"
preset = "tiny"
ranks = 1
steps = 3
batch_per_rank = 2
threads_per_rank = 1
device = "cpu"
check_device = true
)";
    const std::string db = (folder.path / "s.db").string();
    const ConsoleRun run = runConsole(folder, {"run", (folder.path / "check.toml").string(), "--db", db,
                                               "--out", (folder.path / "out").string()});
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    // Said as the run ends, and again as its line of the results table.
    CHECK_THAT(run.out,
               Catch::Contains("llama-tiny-synthetic-tokens-n1-r1: device check on cpu: pass (5 of 5 "
                               "checks)") &&
                   Catch::Contains("     1     ok   device check on cpu: pass (5 of 5 checks)"));

    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 1);
    CHECK(storedWord(runs[0].status) == "ok");
    CHECK(runs[0].step_count == 0); // it checked, it did not train
    CHECK_THAT(runs[0].command, Catch::Contains("--check-device yes"));
    const auto check = store.deviceCheck(runs[0].id);
    REQUIRE(check.has_value());
    CHECK(check->passed());
    CHECK(check->device == "cpu");
    CHECK(check->workload == "llama");
    CHECK(check->steps == 3);
    REQUIRE(check->checks.size() == 5);
    CHECK(check->checks.front().figure == "max_abs_difference");
    CHECK_THAT(check->checks.back().name, Catch::Contains("bit-identical losses"));
    CHECK(storedWord(store.sessions().at(0).status) == "ok");
}

TEST_CASE("a device check whose verdict is fail is a failed run, though its program exited 0",
          "[integration][cli][device-check]") {
    // A program of its own that writes the engine's stream (format metric-stream): a verdict of fail, exit 0.
    TemporaryFolder folder;
    std::ofstream(folder.path / "fail.toml") << R"(name = "a failing device"
[[run]]
name = "flaky-gpu"
command = ["sh", "-c", "printf '%s\\n' \"$0\" \"$1\"", '{"type":"header","version":1,"workload":"llama","dataset":"synthetic-tokens","ranks":1}', '{"type":"device_check","workload":"llama","device":"cuda:0","steps":6,"verdict":"fail","ranks_passed":false,"checks":[{"name":"rms_norm","passed":true,"max_abs_difference":0,"tolerance":1e-4},{"name":"gpu against cpu","passed":false,"max_relative_difference":0.01,"tolerance":0.002}]}']
format = "metric-stream"
ranks = 1
)";
    const std::string db = (folder.path / "s.db").string();
    const ConsoleRun run = runConsole(folder, {"run", (folder.path / "fail.toml").string(), "--db", db,
                                               "--out", (folder.path / "out").string()});
    INFO(run.printed());
    CHECK(run.exit_status == 1);
    const std::string failed = "device check on cuda:0: FAIL: gpu against cpu (max_relative_difference 0.01, "
                               "tolerance 0.002)";
    CHECK_THAT(run.out, Catch::Contains("flaky-gpu-n1-r1: FAILED: " + failed));
    CHECK_THAT(run.err, Catch::Contains("1 of 1 runs failed"));

    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 1);
    CHECK(storedWord(runs[0].status) == "failed");
    CHECK(runs[0].error == failed);
    const auto check = store.deviceCheck(runs[0].id);
    REQUIRE(check.has_value());
    CHECK_FALSE(check->passed());
    REQUIRE(check->checks.size() == 2);
    CHECK_FALSE(check->checks[1].passed);
    CHECK(check->checks[1].value == 0.01);
    CHECK(storedWord(store.sessions().at(0).status) == "failed");
}
