// Sessions on the test cluster that survive what happens to them: a node that dies under a run (Slurm
// requeues it: the attempts are kept apart and the user is told), an interrupted --batch (its jobs cancelled,
// what they wrote collected) and a console killed outright (its session resolved at the next start).
#include "child_process.h"
#include "cluster_environment.h"
#include "console_run.h"
#include "metric_stream_parser.h"
#include "run_folder.h"
#include "session_results.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

using namespace scalebench;

namespace {

// The test cluster's Slurm, asked directly (as root, with its slurm.conf).
std::string slurm(const std::string& command) {
    const auto env = clusterEnvironment();
    const std::string line = "SLURM_CONF=" + env.at("SLURM_CONF") + " " + command + " 2>&1";
    std::string out;
    if (FILE* pipe = popen(line.c_str(), "r")) {
        char buffer[4096];
        while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe))
            out.append(buffer, n);
        pclose(pipe);
    }
    return out;
}

std::string fixture(const std::string& arguments) {
    return slurm(SCALEBENCH_SOURCE_DIR "/tests/cluster/cluster_fixture.sh " + arguments);
}

std::int64_t stepsInStream(const std::string& text) {
    MetricStreamParser parser;
    std::int64_t steps = 0;
    for (const auto& record : parser.feed(text))
        steps += std::holds_alternative<StepRecord>(record) ? 1 : 0;
    return steps;
}

// A --batch of `steps` steps on the test cluster, started as a user would, followed until `wait_for` of
// them are stored.
struct ClusterBatch : RunningBatch {
    ClusterBatch(const TemporaryFolder& folder, int steps, std::int64_t wait_for)
        : RunningBatch(folder, arguments(folder, steps), folder.path / "sessions.db", wait_for,
                       std::chrono::seconds(180)) {}

  private:
    static std::vector<std::string> arguments(const TemporaryFolder& folder, int steps) {
        const std::string db = (folder.path / "sessions.db").string();
        std::ofstream(folder.path / "clusters.toml")
            << testClusterToml(clusterEnvironment(), "test", SCALEBENCH_SOURCE_DIR "/.venv/bin/python");
        std::ofstream(folder.path / "plan.toml")
            << "name = \"survivor\"\n[[run]]\nworkload = \"resnet20\"\ndataset = \"synthetic-cifar\"\n"
            << "ranks = 1\nsteps = " << steps << "\nbatch_per_rank = 16\nthreads_per_rank = 1\n";
        REQUIRE(runConsole(folder, {"--add-clusters", (folder.path / "clusters.toml").string(), "--db", db})
                    .exit_status == 0);
        return {"--batch", (folder.path / "plan.toml").string(), "--cluster", "test", "--db", db,
                "--out",   (folder.path / "out").string()};
    }
};

// Brings a failed node back when the test ends, whatever happened, and waits until Slurm has it again.
struct NodeRevival {
    std::string node; // "node1"
    ~NodeRevival() {
        if (node.empty()) return;
        const char* dir = std::getenv("SCALEBENCH_TEST_CLUSTER");
        fixture(std::string("revive-node ") + dir + " " + node.substr(4));
        for (int i = 0;
             i < 100 && slurm("sinfo --noheader --nodes=" + node + " --format=%T").find("idle") != 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
};

} // namespace

TEST_CASE(
    "a node that dies under a run: Slurm's requeue is told as it happens, and the attempts are kept apart",
    "[integration][slurm][ssh][cli][deployed-engine][slow][node-failure]") {
    TemporaryFolder folder;
    // Enough steps that the first attempt still runs when its node dies (it dies after 5 are stored); the
    // second attempt runs them all again (~0.3 s each on a 2-core machine).
    const int steps_planned = 40;
    ClusterBatch batch(folder, steps_planned, 5);
    const std::string node = slurm("squeue --noheader --jobs=" + batch.job_id + " --format=%N").substr(0, 5);
    REQUIRE(node.rfind("node", 0) == 0);
    NodeRevival revival{node};
    const std::string failed =
        fixture(std::string("fail-node ") + std::getenv("SCALEBENCH_TEST_CLUSTER") + " " + node.substr(4));
    INFO(failed);

    const ChildExit exit = batch.cli->wait();
    const std::string printed = batch.printed();
    INFO(printed);
    CHECK(exit.status == 0);
    // Told as it happens, with the node and the step the first attempt reached.
    CHECK_THAT(printed, Catch::Contains("requeued by Slurm after NODE_FAIL on " + node) &&
                            Catch::Contains("attempt 0 stopped at step"));
    // ... and in the results table.
    CHECK_THAT(printed, Catch::Contains("requeued once after NODE_FAIL on " + node));

    SessionStore store(batch.db);
    const RunRow run = store.runs(1).at(0);
    CHECK(storedWord(run.status) == "ok");
    CHECK(run.attempt == 1);
    const auto attempts = store.attempts(run.id);
    REQUIRE(attempts.size() == 1);
    CHECK_THAT(attempts[0].ended, Catch::StartsWith("NODE_FAIL on " + node));
    CHECK(attempts[0].last_step >= batch.stored);
    // The store holds the second attempt's steps, each once, from step 1: none of the first attempt's.
    const auto steps = store.steps(run.id);
    REQUIRE(steps.size() == steps_planned);
    CHECK(steps.front().step == 1);
    CHECK(steps.back().step == steps_planned);
    // Each attempt wrote its own stream in its own folder; the first's is kept, and both launcher logs too.
    const auto env = clusterEnvironment();
    CHECK(stepsInStream(fileText(metricFile(run.run_dir, 1))) == steps_planned);
    CHECK(stepsInStream(fileText(metricFile(run.run_dir, 0))) >= attempts[0].last_step);
    const std::string out = fileText(run.run_dir + "/stdout.log");
    CHECK_THAT(out, Catch::Contains("scalebench: attempt-0 of job " + run.job_id) &&
                        Catch::Contains("scalebench: attempt-1 of job " + run.job_id));
}

TEST_CASE("SIGTERM on a --batch on the cluster cancels its Slurm job, collects what it wrote and exits 143",
          "[integration][slurm][ssh][cli][deployed-engine][slow][interrupt]") {
    TemporaryFolder folder;
    ClusterBatch batch(folder, 100000, 3);
    REQUIRE(::kill(batch.cli->pid(), SIGTERM) == 0);
    const ChildExit exit = batch.cli->wait();
    const std::string printed = batch.printed();
    INFO(printed);
    CHECK(exit.status == 143);
    CHECK_THAT(printed,
               Catch::Contains("interrupted (SIGTERM)") && Catch::Contains("cancelling job " + batch.job_id));
    // Slurm has the job cancelled: it holds no node any more.
    CHECK_THAT(slurm("scontrol --oneliner show job " + batch.job_id), Catch::Contains("JobState=CANCELLED"));
    SessionStore store(batch.db);
    CHECK(storedWord(store.sessions().at(0).status) == "cancelled");
    const RunRow run = store.runs(1).at(0);
    CHECK(storedWord(run.status) == "cancelled");
    CHECK(run.step_count == stepsInStream(fileText(metricFile(run.run_dir, 0))));
    CHECK(run.step_count >= batch.stored);
}

TEST_CASE("a console killed during a cluster session: the next --batch there cancels its job and collects it",
          "[integration][slurm][ssh][cli][deployed-engine][slow][interrupt]") {
    TemporaryFolder folder;
    ClusterBatch batch(folder, 100000, 3);
    batch.cli->kill();
    batch.cli->wait();
    {
        SessionStore store(batch.db);
        REQUIRE(storedWord(store.sessions().at(0).status) == "running");
    }
    std::ofstream(folder.path / "tiny.toml") << "name = \"tiny\"\n[[run]]\nworkload = \"resnet20\"\n"
                                                "dataset = \"synthetic-cifar\"\nranks = 1\nsteps = 2\n";
    const ConsoleRun next =
        runConsole(folder, {"--batch", (folder.path / "tiny.toml").string(), "--cluster", "test", "--db",
                            batch.db.string(), "--out", (folder.path / "out2").string()});
    INFO(next.printed());
    CHECK(next.exit_status == 0);
    CHECK_THAT(next.out, Catch::Contains("session 1 on test was left running by a console that ended") &&
                             Catch::Contains("stored as abandoned"));
    CHECK_THAT(slurm("scontrol --oneliner show job " + batch.job_id), Catch::Contains("JobState=CANCELLED"));
    SessionStore store(batch.db);
    CHECK(storedWord(store.sessions().at(0).status) == "abandoned");
    const RunRow run = store.runs(1).at(0);
    CHECK(storedWord(run.status) == "abandoned");
    CHECK_THAT(run.error, Catch::Contains("was still running: cancelled"));
    CHECK(run.step_count >= batch.stored);
}
