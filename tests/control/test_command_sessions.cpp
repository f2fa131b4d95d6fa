// A command run end to end on this machine, as a user runs it: `scalebench run` launches the command under
// mpirun at 1 and 2 ranks, writes its standard output into each run's folder, reads it live with the OSU
// reader, stores the collectives as measured by OSU, and prints them.
#include "console_run.h"
#include "recorded_command.h"
#include "run_folder.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <fstream>

using namespace scalebench;

TEST_CASE("a command run on this machine is launched at each rank count, its output read, stored and printed",
          "[integration][cli][command]") {
    TemporaryFolder folder;
    const std::string fixture = "osu_allreduce-n2-float.txt";
    std::ofstream(folder.path / "plan.toml") << recordedOsuPlan(fixture, "[1, 2]");
    const std::string db = (folder.path / "s.db").string();
    const ConsoleRun run = runConsole(folder, {"run", (folder.path / "plan.toml").string(), "--db", db,
                                               "--out", (folder.path / "out").string()});
    INFO(run.printed());
    REQUIRE(run.exit_status == 0);
    CHECK_THAT(run.out, Catch::Contains("measured by osu"));

    SessionStore store(db);
    const auto runs = store.runs(1);
    REQUIRE(runs.size() == 2);
    const std::size_t data_rows = recordedRows(fixture);
    REQUIRE(data_rows > 10);
    for (const RunRow& r : runs) {
        INFO(r.name);
        CHECK(storedWord(r.status) == "ok");
        CHECK(r.workload == "sh");
        CHECK(r.broken_lines == 0);
        CHECK_THAT(r.command, Catch::StartsWith("mpirun -np " + std::to_string(r.ranks)) &&
                                  Catch::EndsWith("> output.log"));
        // The command's own output, kept in its attempt's folder as it printed it.
        CHECK_THAT(fileText(metricFile(r.run_dir, 0, "output.log")),
                   Catch::StartsWith("\n# OSU MPI Allreduce"));
        const auto collectives = store.collectives(r.id);
        REQUIRE(collectives.size() == data_rows);
        for (const auto& c : collectives) {
            CHECK(c.tool == "osu");
            CHECK(c.collective == "allreduce");
            CHECK(c.ranks == r.ranks); // the launcher's, which OSU does not print
            // nccl-tests' bus factor 2(n-1)/n: 0 at one rank, 1 at two.
            CHECK(c.busbw_gbps == Approx(c.algbw_gbps * (r.ranks - 1)));
        }
    }
}
