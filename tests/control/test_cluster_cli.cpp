// scalebench --batch PLAN --cluster NAME as a user runs it: over SSH to the test cluster's head node, the
// engine deployed there (built by a Slurm job in the [engine-build] test, the CTest fixture this test
// requires, and found by its sources' hash), one job per run, every record streamed into the local store.
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
    // Jobs run as the cluster's user: it must reach this checkout's Python with torch (every folder above it
    // o+x).
    INFO("the test cluster's user " << env["SSH_USER"]
                                    << " cannot run " SCALEBENCH_SOURCE_DIR "/.venv/bin/python");
    REQUIRE(std::system(
                ("runuser -u " + env["SSH_USER"] + " -- test -x " SCALEBENCH_SOURCE_DIR "/.venv/bin/python")
                    .c_str()) == 0);
    TemporaryFolder folder;
    std::ofstream(folder.path / "clusters.toml")
        << testClusterToml(env, "test", SCALEBENCH_SOURCE_DIR "/.venv/bin/python");
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
        CHECK(storedWord(run.status) == "ok");
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

TEST_CASE("adding clusters (--add-clusters) refuses a bad setting at its file, line and key, and keeps none "
          "of the file's clusters",
          "[integration][cli][cluster-validation]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "sessions.db").string();
    const auto added = [&](const std::string& second_cluster) {
        std::ofstream(folder.path / "clusters.toml") << "[[cluster]]\nname = \"good\"\nhost = \"h\"\n"
                                                     << "[[cluster]]\nname = \"bad\"\nhost = \"h\"\n"
                                                     << second_cluster;
        return runConsole(folder, {"--add-clusters", (folder.path / "clusters.toml").string(), "--db", db});
    };
    // The two, as a user writes them.
    const ConsoleRun partition = added("partition = \"\"\"gpu\nbatch\"\"\"\n");
    CHECK(partition.exit_status == 2);
    CHECK_THAT(partition.err, Catch::Contains((folder.path / "clusters.toml").string() + ":7:") &&
                                  Catch::Contains("'partition' is 'gpu\\nbatch'"));
    const ConsoleRun time_limit = added("time_limit = \"$(reboot)\"\n");
    CHECK(time_limit.exit_status == 2);
    CHECK_THAT(time_limit.err, Catch::Contains((folder.path / "clusters.toml").string() + ":7:") &&
                                   Catch::Contains("'time_limit' is '$(reboot)'"));
    CHECK_FALSE(std::filesystem::exists(db)); // nothing kept, not even the good one
    REQUIRE(added("time_limit = \"2-00:00:00\"\n").exit_status == 0);
    CHECK(SessionStore(db).clusterNames() == std::vector<std::string>{"bad", "good"});
}

TEST_CASE(
    "a stored cluster with a bad setting (an older store's) is refused before connecting, storing no session",
    "[integration][cli][cluster-validation]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "sessions.db").string();
    {
        SessionStore store(db);
        ClusterSettings c;
        c.name = "old";
        c.host = "127.0.0.1";
        c.port = 1; // nothing listens: reaching it would say "cannot connect"
        c.partition = "gpu\nbatch";
        store.saveCluster(c); // as a store written before settings were checked keeps it
        REQUIRE(store.cluster("old"));
        CHECK(store.cluster("old")->partition == "gpu\nbatch"); // it still loads
    }
    std::ofstream(folder.path / "plan.toml") << "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\n"
                                             << "dataset = \"synthetic-cifar\"\nranks = [1]\nsteps = 2\n";
    const ConsoleRun batch =
        runConsole(folder, {"--batch", (folder.path / "plan.toml").string(), "--cluster", "old", "--db", db});
    INFO(batch.printed());
    CHECK(batch.exit_status == 2);
    CHECK_THAT(batch.err, Catch::Contains("cluster 'old'") &&
                              Catch::Contains("'partition' is 'gpu\\nbatch'") &&
                              !Catch::Contains("cannot connect"));
    CHECK(SessionStore(db).sessions().empty());
}

TEST_CASE("a run sbatch refuses, or that asks for more GPUs a node than the cluster's have, is stored failed "
          "with the "
          "reason, the session failed, nothing left pending",
          "[integration][slurm][ssh][cli][deployed-engine][slow][cluster-validation]") {
    auto env = clusterEnvironment();
    TemporaryFolder folder;
    // A partition named as Slurm names them, which this cluster does not have: only sbatch can say so.
    std::ofstream(folder.path / "clusters.toml")
        << testClusterToml(env, "test", SCALEBENCH_SOURCE_DIR "/.venv/bin/python",
                           "partition = \"nosuch\"\ngpus_per_node = 2\n");
    // The second group asks for 4 GPUs a node of a cluster whose nodes have 2: refused before sbatch.
    std::ofstream(folder.path / "plan.toml")
        << "name = \"refused\"\n[[run]]\nworkload = \"resnet20\"\n"
        << "dataset = \"synthetic-cifar\"\nranks = [1, 2]\nsteps = 2\n"
        << "batch_per_rank = 16\nthreads_per_rank = 1\n"
        << "[[run]]\nworkload = \"resnet20\"\ndataset = \"synthetic-cifar\"\n"
        << "ranks = [4]\ngpus_per_node = 4\nsteps = 2\n";
    const std::string db = (folder.path / "sessions.db").string();
    REQUIRE(runConsole(folder, {"--add-clusters", (folder.path / "clusters.toml").string(), "--db", db})
                .exit_status == 0);
    const ConsoleRun batch =
        runConsole(folder, {"--batch", (folder.path / "plan.toml").string(), "--cluster", "test", "--db", db,
                            "--out", (folder.path / "out").string()});
    INFO(batch.printed());
    CHECK(batch.exit_status == 1);
    CHECK_THAT(batch.err, Catch::Contains("3 of 3 runs failed"));
    SessionStore store(db);
    const auto sessions = store.sessions();
    REQUIRE(sessions.size() == 1);
    CHECK(storedWord(sessions[0].status) == "failed");
    CHECK_FALSE(sessions[0].finished_at.empty());
    const auto runs = store.runs(sessions[0].id);
    REQUIRE(runs.size() == 3);
    for (const auto& run : runs) {
        INFO(run.name);
        CHECK(storedWord(run.status) == "failed");
        if (run.ranks == 4)
            CHECK_THAT(run.error, Catch::Contains("not started") && Catch::Contains("4 GPUs per node") &&
                                      Catch::Contains("have 2"));
        else
            CHECK_THAT(run.error, Catch::Contains("not started") && Catch::Contains("sbatch") &&
                                      Catch::Contains("Invalid partition name"));
    }
}
