// SlurmScheduler against a real Slurm cluster (tests/cluster/cluster_fixture.sh, started by CTest's fixture):
// the engine at 1 and 2 nodes through sbatch and srun --mpi=pmix, failures and cancellation with their
// states, GPU jobs on its nodes' GPUs (generic resources) and one asking for more than they have, and a run
// kept off the slow node a session flagged (exclude_nodes, sbatch --exclude).
#include "cluster_environment.h"
#include "engine_deployment.h"
#include "file_text.h"
#include "job_end.h"
#include "job_request.h"
#include "local_transport.h"
#include "session_results.h"
#include "session_runner.h"
#include "session_store.h"
#include "slow_node_exclusion.h"
#include "slurm_job_script.h"
#include "slurm_scheduler.h"
#include "temporary_folder.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

using namespace scalebench;

namespace {
// The cluster the CTest fixture started: SCALEBENCH_TEST_CLUSTER names its folder.
std::string clusterFolder() {
    const char* dir = std::getenv("SCALEBENCH_TEST_CLUSTER");
    REQUIRE(dir != nullptr);
    const std::string conf = (std::filesystem::path(dir) / "slurm.conf").string();
    REQUIRE(std::filesystem::exists(conf));
    setenv("SLURM_CONF", conf.c_str(), 1); // for squeue, sbatch, ... run through LocalTransport
    return dir;
}

ClusterSettings testCluster() {
    ClusterSettings c;
    c.name = "test";
    c.tasks_per_node = 1;
    c.exclusive = false;
    c.time_limit = "00:30:00"; // the engine's build job compiles every workload on the two cores
    return c;
}

// Between polls of the test cluster: each poll runs squeue (and sacct once a job has left the queue).
constexpr std::chrono::milliseconds kSlurmPollEvery{200};
} // namespace

TEST_CASE("the engine at 1 and 2 nodes through Slurm: both runs stored while they run",
          "[integration][slurm]") {
    const std::string cluster = clusterFolder();
    TemporaryFolder folder;
    std::filesystem::permissions(folder.path, std::filesystem::perms::all);
    const RunPlan plan = parsePlanText(R"(
name = "slurm"
[[run]]
workload = "resnet20"
dataset = "synthetic-cifar"
ranks = [1, 2]
steps = 12
batch_per_rank = 16
threads_per_rank = 1
)",
                                       "slurm.toml");
    SessionStore store(folder.path / "sessions.db");
    LocalTransport transport;
    SlurmScheduler slurm(transport, testCluster());
    std::vector<std::string> progress;
    SessionRunner runner(store, slurm, transport,
                         {{slurm.machine(), SCALEBENCH_ENGINE_PATH, folder.path.string(), {}},
                          std::chrono::milliseconds(200),
                          10},
                         [&](const std::string& line) { progress.push_back(line); });
    const SessionOutcome outcome = runner.run(plan);
    std::string printed;
    for (const auto& line : progress)
        printed += line + "\n";
    INFO(printed);
    REQUIRE(outcome.failed_runs == 0);
    const auto runs = store.runs(outcome.session_id);
    REQUIRE(runs.size() == 2);
    for (const auto& run : runs) {
        CHECK(storedWord(run.status) == "ok");
        CHECK(run.step_count == 12);
        CHECK_FALSE(run.job_id.empty());
        CHECK_THAT(run.command,
                   Catch::StartsWith("#!/bin/bash\n#SBATCH --job-name=") && Catch::Contains(run.name));
    }
    CHECK_THAT(runs[1].command, Catch::Contains("#SBATCH --nodes=2") && Catch::Contains("srun --mpi=pmix"));
    CHECK_THAT(runs[1].nodes, Catch::Contains("node"));
}

TEST_CASE("a failing job and a cancelled job end in their own states, the failure with its error tail",
          "[integration][slurm]") {
    clusterFolder();
    TemporaryFolder folder;
    LocalTransport transport;
    SlurmScheduler slurm(transport, testCluster());
    JobRequest failing{.name = "fails",
                       .program = {"/bin/sh", "-c", "echo 'rank 0: out of cheese' >&2; exit 3"},
                       .run_dir = (folder.path / "fails").string()};
    const JobStatus failed = waitForEnd(slurm, slurm.submit(failing), kSlurmPollEvery);
    CHECK(failed.state == JobState::Failed);
    CHECK(failed.exit_status == 3);
    CHECK_THAT(failed.detail, Catch::Contains("out of cheese"));

    JobRequest sleeping{
        .name = "sleeps", .program = {"/bin/sleep", "120"}, .run_dir = (folder.path / "sleeps").string()};
    const std::string id = slurm.submit(sleeping);
    slurm.cancel(id);
    CHECK(waitForEnd(slurm, id, kSlurmPollEvery).state == JobState::Cancelled);
}

TEST_CASE("a job that asks for more nodes than the cluster has fails at once, with Slurm's reason",
          "[integration][slurm]") {
    clusterFolder();
    TemporaryFolder folder;
    LocalTransport transport;
    SlurmScheduler slurm(transport, testCluster());
    const JobStatus s = waitForEnd(slurm,
                                   slurm.submit({.name = "too-big",
                                                 .program = {"/bin/true"},
                                                 .ranks = 5,
                                                 .nodes = 5, // one rank a node, on a cluster of two
                                                 .run_dir = (folder.path / "big").string()}),
                                   kSlurmPollEvery);
    CHECK(s.state == JobState::Failed);
    CHECK_THAT(s.detail, Catch::Contains("can never start") && Catch::Contains("Slurm's reason: Partition"));
}

namespace {
// The test cluster with the GPUs its nodes declare (GresTypes=gpu, Gres=gpu:N, device nodes the fixture
// makes).
ClusterSettings testGpuCluster() {
    ClusterSettings c = testCluster();
    c.gpus_per_node = std::stoi(clusterEnvironment().at("GPUS_PER_NODE"));
    return c;
}

// The lines of a finished job's stdout.log after the attempt's banner, sorted.
std::vector<std::string> jobOutput(const std::string& run_dir) {
    std::ifstream out(run_dir + "/stdout.log");
    std::vector<std::string> lines;
    for (std::string line; std::getline(out, line);)
        if (!line.starts_with("scalebench: attempt-")) lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    return lines;
}
} // namespace

TEST_CASE("a GPU run on the cluster's GPU nodes: one task per GPU, each seeing its node's GPUs",
          "[integration][slurm][gpu]") {
    clusterFolder();
    TemporaryFolder folder;
    LocalTransport transport;
    ClusterSettings cluster = testGpuCluster();
    REQUIRE(cluster.gpus_per_node == 2);
    // Two nodes of two GPUs: the run's shape as the runner makes it, its program telling what each task sees.
    const RunSpec run =
        expandPlan(parsePlanText("name = \"g\"\n[[run]]\nworkload = \"resnet20\"\nranks = 4\n", "gpu.toml"))
            .at(0);
    const auto jobFor = [&](const std::string& local_rank) {
        JobRequest job = jobRequestFor(run, {cluster, "engine", folder.path.string(), {"s", 1, "u"}});
        job.program = {"/bin/sh", "-c",
                       "echo \"$(hostname) local=$" + local_rank +
                           " gpus=${CUDA_VISIBLE_DEVICES-none} on_node=${SLURM_GPUS_ON_NODE-none}\""};
        return job;
    };
    const std::vector<std::string> expected = {
        "node1 local=0 gpus=0,1 on_node=2", "node1 local=1 gpus=0,1 on_node=2",
        "node2 local=0 gpus=0,1 on_node=2", "node2 local=1 gpus=0,1 on_node=2"};

    SECTION("srun: the engine's local rank is SLURM_LOCALID") {
        const JobRequest job = jobFor("SLURM_LOCALID");
        CHECK_THAT(renderSbatchScript(cluster, job), Catch::Contains("#SBATCH --gpus-per-node=2\n"));
        SlurmScheduler slurm(transport, cluster);
        const JobStatus s = waitForEnd(slurm, slurm.submit(job), kSlurmPollEvery);
        CHECK(s.state == JobState::Completed);
        CHECK(jobOutput(job.run_dir) == expected);
    }
    SECTION("mpirun in the allocation, --gres syntax: the local rank is Open MPI's") {
        cluster.launcher = ClusterSettings::Launcher::Mpirun;
        cluster.gres_syntax = true;
        JobRequest job = jobFor("OMPI_COMM_WORLD_LOCAL_RANK");
        job.environment = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}};
        CHECK_THAT(renderSbatchScript(cluster, job), Catch::Contains("#SBATCH --gres=gpu:2\n"));
        SlurmScheduler slurm(transport, cluster);
        const JobStatus s = waitForEnd(slurm, slurm.submit(job), kSlurmPollEvery);
        CHECK(s.state == JobState::Completed);
        CHECK(jobOutput(job.run_dir) == expected);
    }
}

TEST_CASE(
    "a run asking for more GPUs per node than the nodes have is refused by sbatch, and the user is told",
    "[integration][slurm][gpu]") {
    clusterFolder();
    TemporaryFolder folder;
    std::filesystem::permissions(folder.path, std::filesystem::perms::all);
    LocalTransport transport;
    ClusterSettings cluster = testGpuCluster();
    cluster.name = "says-3";
    cluster.gpus_per_node = 3; // the nodes have 2 (and 4 CPUs: only the GPUs are missing)
    SessionStore store(folder.path / "sessions.db");
    SlurmScheduler slurm(transport, cluster);
    std::vector<std::string> progress;
    SessionRunner runner(store, slurm, transport,
                         {{slurm.machine(), SCALEBENCH_ENGINE_PATH, folder.path.string(), {}},
                          std::chrono::milliseconds(200),
                          10},
                         [&](const std::string& line) { progress.push_back(line); });
    const SessionOutcome outcome = runner.run(
        parsePlanText("name = \"big\"\n[[run]]\nworkload = \"resnet20\"\nranks = 3\n", "big.toml"));
    CHECK(outcome.failed_runs == 1);
    const auto runs = store.runs(outcome.session_id);
    REQUIRE(runs.size() == 1);
    CHECK(storedWord(runs[0].status) == "failed");
    CHECK(runs[0].job_id.empty());
    std::string printed;
    for (const auto& line : progress)
        printed += line + "\n";
    CHECK_THAT(printed, Catch::Contains("FAILED: not started: sbatch refused") &&
                            Catch::Contains("Requested node configuration is not available") &&
                            Catch::Contains("3 GPU(s) and 3 task(s) per node; cluster 'says-3' is set to 3"));
}

TEST_CASE("a job name with shell metacharacters runs as plain text and nothing else runs",
          "[integration][slurm]") {
    clusterFolder();
    TemporaryFolder folder;
    const auto marker = folder.path / "pwned";
    LocalTransport transport;
    SlurmScheduler slurm(transport, testCluster());
    const std::string touch = "touch " + marker.string();
    const std::string evil = "x; " + touch + "; $(" + touch + ")";
    JobRequest job{.name = evil,
                   .program = {"/bin/echo", evil},
                   .run_dir = (folder.path / "run `").string() + touch + "`"};
    const JobStatus s = waitForEnd(slurm, slurm.submit(job), kSlurmPollEvery);
    CHECK(s.state == JobState::Completed);
    CHECK_FALSE(std::filesystem::exists(marker));
    std::ifstream out(job.run_dir + "/stdout.log");
    std::string banner, echoed;
    std::getline(out, banner); // "scalebench: attempt-0 of job N on NODE"
    std::getline(out, echoed);
    CHECK_THAT(banner, Catch::StartsWith("scalebench: attempt-0 of job"));
    CHECK(echoed == evil);
}

TEST_CASE("following 200 jobs costs one scheduler command per poll", "[integration][slurm]") {
    clusterFolder();
    TemporaryFolder folder;
    LocalTransport transport;
    SlurmScheduler slurm(transport, testCluster());
    std::vector<std::string> ids;
    for (int i = 0; i < 200; ++i)
        ids.push_back(slurm.submit({.name = "wait",
                                    .program = {"/bin/sleep", "60"},
                                    .run_dir = (folder.path / std::to_string(i)).string()}));
    const int before = slurm.commandsRun();
    const auto start = std::chrono::steady_clock::now();
    const auto states = slurm.poll(ids);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    WARN("one poll of " << ids.size() << " jobs: " << slurm.commandsRun() - before << " command, "
                        << seconds * 1e3 << " ms");
    CHECK(slurm.commandsRun() - before == 1);
    CHECK(states.size() == ids.size());
    for (const auto& id : ids)
        slurm.cancel(id);
}

// The CTest fixture "cluster_engine" (tag [engine-build]): it deploys into the cluster user's scalebench
// root, empty at each start of the cluster, where the tests that run plans on the cluster ([deployed-engine])
// find it.
TEST_CASE("the engine is built on the cluster by a Slurm job once, and reused while its sources are the same",
          "[integration][slurm][deploy][engine-build][slow]") {
    clusterFolder();
    LocalTransport transport;
    ClusterSettings cluster = testCluster();
    cluster.remote_root = clusterEnvironment().at("SCALEBENCH_ROOT");
    cluster.torch_python = SCALEBENCH_SOURCE_DIR "/.venv/bin/python";
    SlurmScheduler slurm(transport, cluster);
    EngineDeployment deployment(transport, slurm, cluster, SCALEBENCH_SOURCE_DIR);
    std::vector<std::string> progress;
    auto note = [&](const std::string& line) { progress.push_back(line); };

    const DeployedEngine first = deployment.ensure(note);
    CHECK(first.built_now);
    CHECK(first.hash.size() == 16);
    const CommandResult version = transport.run(first.engine + " --version");
    CHECK(version.exit_status == 0);
    CHECK_THAT(version.out, Catch::StartsWith("scalebench-engine"));

    const int jobs_before = slurm.commandsRun();
    const DeployedEngine second = deployment.ensure(note);
    CHECK_FALSE(second.built_now);
    CHECK(second.engine == first.engine);
    CHECK(slurm.commandsRun() == jobs_before); // no job at all
}

TEST_CASE("a failed engine build is reported with its log", "[integration][slurm][deploy]") {
    clusterFolder();
    TemporaryFolder folder;
    LocalTransport transport;
    ClusterSettings cluster = testCluster();
    cluster.remote_root = (folder.path / "remote").string();
    cluster.torch_python = "/nonexistent/python3";
    SlurmScheduler slurm(transport, cluster);
    EngineDeployment deployment(transport, slurm, cluster, SCALEBENCH_SOURCE_DIR);
    CHECK_THROWS_WITH(deployment.ensure([](const std::string&) {}),
                      Catch::Contains("build job") && Catch::Contains("failed") &&
                          Catch::Contains("its log ends") && Catch::Contains("No Python at"));
    // Tried again (the same sources), it builds in new folders: it fails for its own reason, the first
    // build's log put aside.
    CHECK_THROWS_WITH(deployment.ensure([](const std::string&) {}),
                      Catch::Contains("its log ends") && Catch::Contains("No Python at"));
    const std::filesystem::path engines = cluster.remote_root + "/engine";
    REQUIRE(std::filesystem::is_directory(engines));
    const auto build = std::filesystem::directory_iterator(engines)->path();
    CHECK_THAT(fileText(build / "failed-1" / "stdout.log") + fileText(build / "failed-1" / "stderr.log"),
               Catch::Contains("scalebench: attempt-0 of job") && Catch::Contains("No Python at"));
    CHECK(std::filesystem::is_directory(build / "failed-1" / "attempt-0"));
}

TEST_CASE(
    "a rank slowed on purpose flags its node, and the resubmitted run is kept off it by sbatch --exclude",
    "[integration][slurm][exclude]") {
    clusterFolder();
    TemporaryFolder folder;
    std::filesystem::permissions(folder.path, std::filesystem::perms::all);
    // The engine as a command (a plan has no key for --slow-rank) at 3 ranks, 2 a node: ranks 0 and 1 on
    // node1, rank 2 on node2; rank 0 computes 10 times longer (factor 10: test_engine_slow_rank.cpp). And a
    // 1-rank run of the engine, which Slurm places on node1, the first idle node, unless told otherwise.
    const std::string straggler =
        "[\"" SCALEBENCH_ENGINE_PATH "\", \"--workload\", \"resnet20\", \"--dataset\", \"synthetic-cifar\", "
        "\"--steps\", \"8\", \"--batch-per-rank\", \"8\", \"--eval-every\", \"0\", \"--eval-samples\", "
        "\"50\", \"--warmup-steps\", \"0\", \"--threads-per-rank\", \"1\", \"--slow-rank\", \"0\", "
        "\"--slow-factor\", \"10\", \"--metrics\", \"metrics.jsonl\"]";
    const RunPlan plan =
        parsePlanText("name = \"straggler\"\n[[run]]\nname = \"straggler\"\ncommand = " + straggler +
                          "\nformat = \"metric-stream\"\noutput = \"metrics.jsonl\"\n"
                          "ranks = 3\ngpus_per_node = 2\n"
                          "[[run]]\nworkload = \"resnet20\"\ndataset = \"synthetic-cifar\"\n"
                          "ranks = 1\nsteps = 4\nbatch_per_rank = 8\nthreads_per_rank = 1\n",
                      "straggler.toml");
    SessionStore store(folder.path / "sessions.db");
    LocalTransport transport;
    SlurmScheduler slurm(transport, testCluster());
    std::vector<std::string> progress;
    SessionRunner runner(store, slurm, transport,
                         {{slurm.machine(), SCALEBENCH_ENGINE_PATH, folder.path.string(), {}},
                          std::chrono::milliseconds(200),
                          10},
                         [&](const std::string& line) { progress.push_back(line); });
    const auto printed = [&] {
        std::string text;
        for (const auto& line : progress)
            text += line + "\n";
        return text;
    };
    const SessionOutcome first = runner.run(plan);
    INFO(printed());
    REQUIRE(first.failed_runs == 0);
    const std::vector<RunRow> first_runs = store.runs(first.session_id);
    REQUIRE(first_runs.size() == 2);
    INFO("the 3-rank run's nodes: " << first_runs[0].nodes);
    CHECK(hostsOfRanks(first_runs[0].header_json) == std::vector<std::string>{"node1", "node1", "node2"});

    // The session's results flag node1, where rank 0 ran.
    const std::vector<RunResult> results = loadSessionResults(store, first.session_id);
    REQUIRE(results.size() == 2);
    INFO(describeSlowRanks(results[0].slow_ranks));
    REQUIRE(results[0].slow_ranks.slow_ranks.size() == 1);
    CHECK(results[0].slow_ranks.slow_ranks[0].rank == 0);
    const std::vector<std::string> slow = slowNodesOf(results);
    REQUIRE(slow == std::vector<std::string>{"node1"});

    // The 1-rank run resubmitted (as the Runs tab does) from the plan with the slow node excluded.
    const RunPlan excluded = withExcludedNodes(plan, slow);
    std::vector<RunSpec> chosen;
    for (const RunSpec& spec : expandPlan(excluded))
        if (spec.name == first_runs[1].name) chosen.push_back(spec);
    REQUIRE(chosen.size() == 1);
    const SessionOutcome second = runner.run(excluded, chosen);
    INFO(printed());
    REQUIRE(second.failed_runs == 0);
    const std::vector<RunRow> second_runs = store.runs(second.session_id);
    REQUIRE(second_runs.size() == 1);
    const RunRow& rerun = second_runs[0];
    CHECK(storedWord(rerun.status) == "ok");
    CHECK_THAT(rerun.command, Catch::Contains("\n#SBATCH --exclude=node1\n"));
    CHECK(rerun.nodes == "node2");
    CHECK(hostsOfRanks(rerun.header_json) == std::vector<std::string>{"node2"});
    CHECK(store.session(second.session_id)->plan_text == excluded.source_text);
}
