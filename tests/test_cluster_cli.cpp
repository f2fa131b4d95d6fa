// scalebench --batch PLAN --cluster NAME as a user runs it: over SSH to the test cluster's head node, the
// engine deployed there (built by a Slurm job in the [engine-build] test, the CTest fixture this test requires, and
// found by its sources' hash), one job per run, every record streamed into the local store.
#include "cluster_environment.h"
#include "console_run.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

using namespace scalebench;

TEST_CASE("a plan at 1 and 2 nodes runs on the cluster over SSH and every record lands in the local store",
          "[integration][slurm][ssh][cli][deployed-engine][slow]") {
    auto env = clusterEnvironment();
    // Jobs run as the cluster's user: it must reach this checkout's Python with torch (every folder above it o+x).
    INFO("the test cluster's user " << env["SSH_USER"] << " cannot run " SCALEBENCH_SOURCE_DIR "/.venv/bin/python");
    REQUIRE(std::system(("runuser -u " + env["SSH_USER"] + " -- test -x " SCALEBENCH_SOURCE_DIR "/.venv/bin/python")
                            .c_str()) == 0);
    TemporaryFolder folder;
    std::ofstream(folder.path / "clusters.toml")
        << "[[cluster]]\n"
        << "name = \"test\"\n"
        << "host = \"127.0.0.1\"\n"
        << "port = " << env["SSH_PORT"] << "\n"
        << "user = \"" << env["SSH_USER"] << "\"\n"
        << "identity_files = [\"" << env["SSH_KEY"] << "\"]\n"
        << "known_hosts = \"" << env["SSH_KNOWN_HOSTS"] << "\"\n"
        << "remote_root = \"" << env["SCALEBENCH_ROOT"] << "\"\n"
        << "torch_python = \"" SCALEBENCH_SOURCE_DIR "/.venv/bin/python\"\n"
        << "tasks_per_node = 1\nexclusive = false\npoll_seconds = 1\n";
    std::ofstream(folder.path / "plan.toml") << "name = \"over-ssh\"\n[[run]]\nworkload = \"resnet20\"\n"
                                             << "dataset = \"synthetic-cifar\"\nranks = [1, 2]\nsteps = 12\n"
                                             << "batch_per_rank = 16\nthreads_per_rank = 1\n";
    const std::string db = (folder.path / "sessions.db").string();
    const ConsoleRun added =
        runConsole(folder, {"--add-clusters", (folder.path / "clusters.toml").string(), "--db", db});
    REQUIRE(added.exit_status == 0);
    CHECK_THAT(added.out, Catch::Contains("cluster 'test'"));

    const ConsoleRun batch =
        runConsole(folder, {"--batch", (folder.path / "plan.toml").string(), "--cluster", "test", "--db", db,
                            "--out", (folder.path / "out").string()});
    INFO(batch.printed());
    REQUIRE(batch.exit_status == 0);
    CHECK_THAT(batch.printed(), Catch::Contains("already built on")); // the fixture's build, reused
    CHECK_THAT(batch.out, Catch::Contains("on sbtest@127.0.0.1:" + env["SSH_PORT"]) &&
                              Catch::Contains("resnet20-synthetic-cifar-n2-r1: done"));
    SessionStore store(db);
    const auto sessions = store.sessions();
    REQUIRE(sessions.size() == 1);
    CHECK(sessions[0].cluster == "test");
    const auto runs = store.runs(sessions[0].id);
    REQUIRE(runs.size() == 2);
    for (const auto& run : runs) {
        CHECK(run.status == "ok");
        CHECK(run.step_count == 12);
        CHECK_THAT(run.command, Catch::Contains("#SBATCH --nodes=" + std::to_string(run.ranks)));
    }
    CHECK(std::filesystem::exists(folder.path / "out" / "results.csv"));

    SECTION("a cluster the store does not know is named, with the ones it knows") {
        const ConsoleRun unknown = runConsole(
            folder, {"--batch", (folder.path / "plan.toml").string(), "--cluster", "prod", "--db", db});
        CHECK(unknown.exit_status == 2);
        CHECK_THAT(unknown.err, Catch::Contains("no cluster 'prod'") && Catch::Contains("(known: test)"));
    }
}
