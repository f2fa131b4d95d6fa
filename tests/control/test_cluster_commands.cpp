// A command run on the test cluster, as a user runs it: `scalebench run --cluster` deploys no engine for a
// plan of commands only, submits each run as a Slurm job whose script starts the command and writes its
// standard output into the attempt's folder, follows that file over SSH with the OSU reader, and stores what
// it measured.
#include "cluster_environment.h"
#include "console_run.h"
#include "recorded_command.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <fstream>

using namespace scalebench;

namespace {
// The store `db` in `folder` with the test cluster kept in it as "test", as a user adds it.
void addTestCluster(const TemporaryFolder& folder, const std::string& db) {
    std::ofstream(folder.path / "clusters.toml")
        << testClusterToml(clusterEnvironment(), "test", SCALEBENCH_SOURCE_DIR "/.venv/bin/python");
    REQUIRE(runConsole(folder, {"--add-clusters", (folder.path / "clusters.toml").string(), "--db", db})
                .exit_status == 0);
}
} // namespace

TEST_CASE("a command run on a Slurm cluster is a job of its own, its output streamed and stored",
          "[integration][slurm][ssh][cli][command]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    addTestCluster(folder, db);
    const std::string fixture = "osu_allreduce-n2-float.txt";
    std::ofstream(folder.path / "plan.toml") << recordedOsuPlan(fixture, "[1, 2]");
    const ConsoleRun run = runConsole(folder, {"run", (folder.path / "plan.toml").string(), "--cluster",
                                               "test", "--db", db, "--out", (folder.path / "out").string()});
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    CHECK_THAT(run.out, Catch::Contains("engine: not deployed"));

    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 2);
    const std::size_t data_rows = recordedRows(fixture);
    for (const RunRow& r : runs) {
        INFO(r.name);
        CHECK(storedWord(r.status) == "ok");
        CHECK_FALSE(r.job_id.empty());
        // The script the job ran: the command's line, its standard output into the attempt's folder.
        CHECK_THAT(r.command, Catch::StartsWith("#!/bin/bash\n") &&
                                  Catch::Contains("\nmkdir \"$attempt\"\n") &&
                                  Catch::Contains(" osu_allreduce '' '# OSU MPI Allreduce") &&
                                  Catch::EndsWith(" > output.log\n"));
        const auto collectives = store.collectives(r.id);
        REQUIRE(collectives.size() == data_rows);
        CHECK(collectives.front().tool == "osu");
        CHECK(collectives.front().ranks == r.ranks);
    }
}

TEST_CASE("a dry run with --check of container commands asks for pyxis, not for the engine's build",
          "[integration][slurm][ssh][cli][command][dry-run-check]") {
    TemporaryFolder folder;
    const std::string db = (folder.path / "s.db").string();
    addTestCluster(folder, db);
    std::ofstream(folder.path / "plan.toml")
        << "name = \"containers\"\n[[run]]\ncommand = \"all_reduce_perf -b 8 -e 1M -f 2 -g 1\"\n"
        << "format = \"nccl-tests\"\nranks = [2]\ncontainer_image = \"nvcr.io#nvidia/pytorch:24.04-py3\"\n";
    const ConsoleRun check = runConsole(folder, {"run", (folder.path / "plan.toml").string(), "--dry-run",
                                                 "--cluster", "test", "--check", "--db", db});
    INFO(check.printed());
    // The test cluster's Slurm has no pyxis: named, with what to do.
    CHECK(check.exit_status == 2);
    CHECK_THAT(check.out, Catch::Contains("MISSING pyxis") && Catch::Contains("--container-image"));
    CHECK_THAT(check.out, Catch::Contains("engine: not needed") && !Catch::Contains("CMake"));
    CHECK_THAT(check.out,
               Catch::Contains("\nsrun --mpi=pmix '--container-image=nvcr.io#nvidia/pytorch:24.04-py3'"));
}
