// Against the test cluster (tests/cluster/cluster_fixture.sh): `--dry-run --cluster NAME --check` connects
// and checks what runs and the engine's build need there; the engine's build job reports its progress (state,
// the tail of its log, its wall time), shown with a stand-in for the engine's sources that builds in seconds;
// and a build that fails on a cluster gives advice that fits a cluster.
#include "cluster_environment.h"
#include "console_run.h"
#include "engine_deployment.h"
#include "local_transport.h"
#include "slurm_scheduler.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <regex>

using namespace scalebench;

namespace {
// The cluster as a user writes it, reaching the fixture's head node over SSH.
std::string clusterToml(std::map<std::string, std::string>& env, const std::string& extra) {
    return "[[cluster]]\nname = \"test\"\nhost = \"127.0.0.1\"\nport = " + env["SSH_PORT"] + "\nuser = \"" +
           env["SSH_USER"] + "\"\nidentity_files = [\"" + env["SSH_KEY"] + "\"]\nknown_hosts = \"" +
           env["SSH_KNOWN_HOSTS"] + "\"\nremote_root = \"" + env["SCALEBENCH_ROOT"] +
           "\"\ntasks_per_node = 1\nexclusive = false\n" + extra;
}

ConsoleRun dryRunCheck(const TemporaryFolder& folder, const std::string& clusters) {
    std::ofstream(folder.path / "clusters.toml") << clusters;
    const std::string db = (folder.path / "sessions.db").string();
    const ConsoleRun added =
        runConsole(folder, {"--add-clusters", (folder.path / "clusters.toml").string(), "--db", db});
    REQUIRE(added.exit_status == 0);
    return runConsole(folder, {"--batch", SCALEBENCH_SOURCE_DIR "/tests/data/two_ranks.toml", "--dry-run",
                               "--cluster", "test", "--check", "--db", db});
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& line : lines)
        text += line + "\n";
    return text;
}
} // namespace

TEST_CASE("a dry run with --check connects and checks Slurm, the partition and the engine's build needs",
          "[integration][slurm][ssh][cli][dry-run-check]") {
    auto env = clusterEnvironment();
    TemporaryFolder folder;
    SECTION("a cluster with everything") {
        const ConsoleRun check = dryRunCheck(
            folder, clusterToml(env, "partition = \"debug\"\ntorch_python = \"" SCALEBENCH_SOURCE_DIR
                                     "/.venv/bin/python\"\n"));
        INFO(check.printed());
        CHECK(check.exit_status == 0);
        CHECK_THAT(check.out, Catch::Contains("#SBATCH --partition=debug")); // the scripts as without --check
        CHECK_THAT(check.out, Catch::Contains("host key") && Catch::Contains("known") &&
                                  Catch::Contains("sbatch") && Catch::Contains("squeue") &&
                                  Catch::Contains("scancel") && Catch::Contains("scontrol") &&
                                  Catch::Contains("partition 'debug'"));
        for (const char* need :
             {"C++ compiler", "CMake", "MPI", "gloo headers", "zlib", "nlohmann-json", "torch"})
            CHECK_THAT(check.out, Catch::Contains(std::string("ok      ") + need));
        CHECK_THAT(check.out,
                   Catch::Contains("check: everything the runs and the engine's build need is there"));
    }
    SECTION("a partition that does not exist and a Python without torch are named, with what to do") {
        const ConsoleRun check = dryRunCheck(
            folder, clusterToml(env, "partition = \"nosuch\"\ntorch_python = \"/usr/bin/python3\"\n"));
        INFO(check.printed());
        CHECK(check.exit_status == 2);
        CHECK_THAT(check.out, Catch::Contains("MISSING partition 'nosuch'") && Catch::Contains("debug"));
        CHECK_THAT(check.out, Catch::Contains("MISSING torch") &&
                                  Catch::Contains("/usr/bin/python3 -m pip install torch"));
        CHECK_THAT(check.err, Catch::Contains("2 problems"));
    }
}

TEST_CASE("the engine's build job reports its state, the tail of its log while it runs, and its wall time",
          "[integration][slurm][deploy][build-progress]") {
    auto env = clusterEnvironment();
    setenv("SLURM_CONF",
           (std::filesystem::path(std::getenv("SCALEBENCH_TEST_CLUSTER")) / "slurm.conf").c_str(), 1);
    TemporaryFolder folder;
    // A stand-in for the engine's sources (what pack() takes: CMakeLists.txt, cmake/, protocol/, trainers/)
    // whose build is six steps of a second that each print a line, as compiles do (Ninja, which the build job
    // uses where the cluster has it, shows a step's output when the step ends), and that leaves an executable
    // where the engine would be.
    const auto sources = folder.path / "sources";
    std::filesystem::create_directories(sources / "cmake");
    std::filesystem::create_directories(sources / "protocol");
    std::filesystem::create_directories(sources / "trainers");
    std::ofstream(sources / "CMakeLists.txt") << R"(cmake_minimum_required(VERSION 3.25)
project(standin NONE)
foreach(i RANGE 1 6)
  add_custom_target(part${i} ALL COMMAND sh -c "echo compiling part ${i} of 6; sleep 1" VERBATIM)
  if(i GREATER 1)
    math(EXPR before "${i} - 1")
    add_dependencies(part${i} part${before})
  endif()
endforeach()
add_custom_target(engine ALL
  COMMAND ${CMAKE_COMMAND} -E make_directory trainers
  COMMAND sh -c "printf '#!/bin/sh\\necho scalebench-engine stand-in\\n' > trainers/scalebench-engine"
  COMMAND chmod +x trainers/scalebench-engine
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR} VERBATIM)
add_dependencies(engine part6)
)";
    ClusterSettings cluster;
    cluster.name = "test";
    cluster.exclusive = false;
    cluster.remote_root = (folder.path / "remote").string();
    LocalTransport transport;
    SlurmScheduler slurm(transport, cluster);
    EngineDeployment deployment(transport, slurm, cluster, sources);
    std::vector<std::string> progress;
    const DeployedEngine deployed =
        deployment.ensure([&](const std::string& line) { progress.push_back(line); },
                          std::chrono::seconds(120), std::chrono::seconds(2));
    const std::string printed = joined(progress);
    INFO(printed);
    CHECK(deployed.built_now);
    CHECK_THAT(printed, Catch::Contains("build job") && Catch::Contains("running"));
    CHECK_THAT(printed, Catch::Contains("compiling part")); // the log's tail while it runs
    CHECK(std::regex_search(printed, std::regex("built in [0-9]+ s")));
}

TEST_CASE("an engine build on a cluster whose torch_python has no torch says what to install there",
          "[integration][slurm][deploy][engine-advice]") {
    clusterEnvironment();
    setenv("SLURM_CONF",
           (std::filesystem::path(std::getenv("SCALEBENCH_TEST_CLUSTER")) / "slurm.conf").c_str(), 1);
    TemporaryFolder folder;
    ClusterSettings cluster;
    cluster.name = "test";
    cluster.exclusive = false;
    cluster.remote_root = (folder.path / "remote").string();
    cluster.torch_python = "/usr/bin/python3"; // Debian's, without torch
    LocalTransport transport;
    SlurmScheduler slurm(transport, cluster);
    EngineDeployment deployment(transport, slurm, cluster, SCALEBENCH_SOURCE_DIR);
    CHECK_THROWS_WITH(deployment.ensure([](const std::string&) {}),
                      Catch::Contains("has no torch package") &&
                          Catch::Contains("/usr/bin/python3 -m pip install torch") &&
                          !Catch::Contains("scripts/setup.sh"));
}
