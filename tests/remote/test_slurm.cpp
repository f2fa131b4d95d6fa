// Specification of the Slurm side: the sbatch script a run becomes, and the parsers of Slurm's own output.
#include "file_text.h"
#include "local_transport.h"
#include "scripted_transport.h"
#include "slurm_job_script.h"
#include "slurm_output.h"
#include "slurm_scheduler.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <future>
#include <sstream>

using namespace scalebench;

TEST_CASE("a run becomes one sbatch script with the cluster's shape of job", "[remote][slurm]") {
    ClusterSettings c;
    c.partition = "gpu";
    c.account = "ml-perf";
    c.tasks_per_node = 8;
    c.gpus_per_node = 8;
    c.time_limit = "00:30:00";
    c.setup_lines = {"module load cuda/12.4"};
    c.nccl_env = {{"NCCL_IB_HCA", "mlx5"}, {"NCCL_DEBUG", "WARN"}};
    c.container_image = "nvcr.io#nvidia/pytorch:24.04-py3";
    const std::string script = renderSbatchScript(c, {.name = "resnet20-n16",
                                                      .program = {"/opt/sb/engine", "--steps", "100"},
                                                      .ranks = 16,
                                                      .nodes = 2,
                                                      .ranks_per_node = 8,
                                                      .gpus_per_node = 8,
                                                      .run_dir = "/scratch/sb/run 1"});
    CHECK_THAT(script, Catch::StartsWith(
                           "#!/bin/bash\n#SBATCH --job-name=resnet20-n16\n#SBATCH --nodes=2\n"
                           "#SBATCH --ntasks=16\n#SBATCH --ntasks-per-node=8\n"
                           "#SBATCH --gpus-per-node=8\n#SBATCH --partition=gpu\n"
                           "#SBATCH --account=ml-perf\n#SBATCH --time=00:30:00\n#SBATCH --exclusive\n"));
    // A requeued job's logs go on after the earlier attempt's; each attempt runs in a new folder of its own.
    CHECK_THAT(script, Catch::Contains("#SBATCH --output=stdout.log\n#SBATCH --error=stderr.log\n"
                                       "#SBATCH --open-mode=append\n"));
    CHECK_THAT(script, Catch::Contains("cd '/scratch/sb/run 1'\nattempt=attempt-${SLURM_RESTART_COUNT:-0}\n"
                                       "mkdir \"$attempt\"\ncd \"$attempt\"\n"));
    CHECK_THAT(script, Catch::Contains("echo \"$banner\" >&2\nmodule load cuda/12.4\n"
                                       "export NCCL_DEBUG=WARN\nexport NCCL_IB_HCA=mlx5\n"));
    CHECK_THAT(script, Catch::EndsWith("srun --mpi=pmix '--container-image=nvcr.io#nvidia/pytorch:24.04-py3' "
                                       "/opt/sb/engine --steps 100\n"));

    SECTION("older clusters take --gres, and mpirun can launch instead of srun") {
        c.gres_syntax = true;
        c.launcher = ClusterSettings::Launcher::Mpirun;
        const std::string s = renderSbatchScript(c, {.name = "r",
                                                     .program = {"engine"},
                                                     .ranks = 4,
                                                     .ranks_per_node = 4,
                                                     .gpus_per_node = 4,
                                                     .run_dir = "/d"});
        CHECK_THAT(s, Catch::Contains("#SBATCH --gres=gpu:4\n") && Catch::Contains("#SBATCH --nodes=1\n") &&
                          Catch::Contains("#SBATCH --ntasks-per-node=4\n") &&
                          Catch::EndsWith("mpirun -np 4 --bind-to none engine\n"));
    }
}

TEST_CASE("a GPU job runs one task per GPU, asks for its GPUs per node and says how tasks reach them",
          "[remote][slurm][gpu]") {
    ClusterSettings c;
    c.gpus_per_node = 4;
    JobRequest job{.name = "r",
                   .program = {"engine"},
                   .ranks = 8,
                   .nodes = 2,
                   .ranks_per_node = 4,
                   .gpus_per_node = 4,
                   .run_dir = "/d"};
    // Every task sees its node's GPUs (Slurm's CUDA_VISIBLE_DEVICES) and the engine takes the one at its
    // node-local rank: under srun Slurm's SLURM_LOCALID, under mpirun Open MPI's local rank (SLURM_LOCALID is
    // then 0 for every rank).
    const std::string srun_binding =
        "# GPU binding: one task per GPU; each of a node's tasks sees the node's 4 GPU(s) "
        "(CUDA_VISIBLE_DEVICES from Slurm) and the engine takes the one at its node-local rank "
        "(SLURM_LOCALID)\n";
    CHECK_THAT(renderSbatchScript(c, job),
               Catch::Contains("#SBATCH --nodes=2\n#SBATCH --ntasks=8\n#SBATCH --ntasks-per-node=4\n"
                               "#SBATCH --gpus-per-node=4\n") &&
                   Catch::EndsWith(srun_binding + "srun --mpi=pmix engine\n"));
    c.gres_syntax = true;
    c.launcher = ClusterSettings::Launcher::Mpirun;
    CHECK_THAT(renderSbatchScript(c, job),
               Catch::Contains("#SBATCH --ntasks-per-node=4\n#SBATCH --gres=gpu:4\n") &&
                   Catch::EndsWith("its node-local rank (OMPI_COMM_WORLD_LOCAL_RANK)\n"
                                   "mpirun -np 8 --bind-to none engine\n"));
    // srun is given no --gpu-bind: with --gpu-bind=none Slurm sets no CUDA_VISIBLE_DEVICES at all.
    CHECK_THAT(renderSbatchScript(c, job),
               !Catch::Contains("--gpu-bind") && !Catch::Contains("--gpus-per-task"));

    SECTION("tasks and GPUs of a node that differ are refused, naming both") {
        job.ranks_per_node = 8;
        CHECK_THROWS_WITH(renderSbatchScript(c, job),
                          Catch::Contains("one task per GPU") &&
                              Catch::Contains("8 task(s) with 4 GPU(s) per node"));
    }
    SECTION("a job without GPUs says nothing of them") {
        job.gpus_per_node = 0;
        CHECK_THAT(renderSbatchScript(c, job), !Catch::Contains("gpu") && !Catch::Contains("GPU"));
    }
}

TEST_CASE("sbatch refusing a GPU job for want of such nodes says what the job asked for",
          "[remote][slurm][gpu]") {
    ScriptedTransport transport;
    transport.answers["mkdir"] = {0, "", ""};
    transport.answers["cd"] = {
        1, "", "sbatch: error: Batch job submission failed: Requested node configuration is not available\n"};
    ClusterSettings c;
    c.name = "dgx";
    c.gpus_per_node = 8;
    SlurmScheduler slurm(transport, c);
    JobRequest job{
        .name = "r", .program = {"e"}, .ranks = 8, .ranks_per_node = 8, .gpus_per_node = 8, .run_dir = "/d"};
    CHECK_THROWS_WITH(
        slurm.submit(job),
        Catch::Contains("sbatch refused r on scripted: sbatch: error: Batch job submission failed: "
                        "Requested node configuration is not available (no node has what the job "
                        "asks for: 8 GPU(s) and 8 task(s) per node; cluster 'dgx' is set to 8 "
                        "GPU(s) per node, gpus_per_node)"));
    job.gpus_per_node = 0;
    CHECK_THROWS_WITH(slurm.submit(job), Catch::EndsWith("is not available\n"));
}

TEST_CASE("shell metacharacters from a plan reach Slurm and the shell as plain text", "[remote][slurm]") {
    ClusterSettings c;
    const std::string script = renderSbatchScript(c, {.name = "x; touch /tmp/pwned\n#SBATCH --uid=0",
                                                      .program = {"engine", "$(reboot)"},
                                                      .run_dir = "/d/`id`"});
    CHECK_THAT(script, Catch::Contains("#SBATCH --job-name=x__touch__tmp_pwned__SBATCH_--uid_0\n"));
    CHECK_THAT(script,
               Catch::Contains("cd '/d/`id`'\n") && Catch::EndsWith("srun --mpi=pmix engine '$(reboot)'\n"));
    c.nccl_env = {{"NCCL_X; rm -rf ~", "1"}};
    CHECK_THROWS_WITH(renderSbatchScript(c, {.name = "r", .program = {"e"}, .run_dir = "/d"}),
                      Catch::Contains("not an environment variable"));
    c.nccl_env.clear();
    c.partition = "gpu\n#SBATCH --uid=0";
    CHECK_THROWS_WITH(renderSbatchScript(c, {.name = "r", .program = {"e"}, .run_dir = "/d"}),
                      Catch::Contains("partition"));
}

namespace {
// This machine's shell, with the connection dropping under the first sbatch command: the command runs on (as
// a remote one does once its sshd session is gone) and the caller gets the TransportError of a cut
// connection, either once sbatch has answered or while it still runs.
class DropUnderSbatch final : public Transport {
  public:
    explicit DropUnderSbatch(bool while_running) : while_running_(while_running) {}
    ~DropUnderSbatch() override {
        if (cut_off_.valid()) cut_off_.wait();
    }
    CommandResult run(const std::string& command) override {
        if (command.find("sbatch") == std::string::npos || cut_off_.valid()) return here_.run(command);
        cut_off_ = std::async(std::launch::async, [command] { return LocalTransport().run(command); });
        if (!while_running_) cut_off_.wait();
        throw TransportError("the connection dropped under a command: not rerun");
    }
    void upload(const std::filesystem::path& local, const std::string& remote) override {
        here_.upload(local, remote);
    }
    void download(const std::string& remote, const std::filesystem::path& local) override {
        here_.download(remote, local);
    }
    std::optional<std::string> readFrom(const std::string& path, std::int64_t offset,
                                        std::size_t bytes) override {
        return here_.readFrom(path, offset, bytes);
    }
    std::string describe() const override { return "dropping"; }

  private:
    LocalTransport here_;
    bool while_running_;
    std::future<CommandResult> cut_off_;
};
} // namespace

TEST_CASE("a connection dropped under sbatch neither submits the job twice nor loses its id",
          "[remote][slurm]") {
    TemporaryFolder folder;
    // sbatch as the shell finds it: it counts its calls, takes a second, and answers a job id.
    const auto bin = folder.path / "bin";
    std::filesystem::create_directories(bin);
    std::ofstream(bin / "sbatch") << "#!/bin/sh\necho call >> " << (folder.path / "calls").string()
                                  << "\nsleep 1\necho 4242\n";
    std::filesystem::permissions(bin / "sbatch", std::filesystem::perms::owner_all);
    const std::string path = std::getenv("PATH");
    setenv("PATH", (bin.string() + ":" + path).c_str(), 1);
    const bool while_running = GENERATE(false, true);
    INFO((while_running ? "dropped while sbatch runs" : "dropped after sbatch answered"));

    DropUnderSbatch transport(while_running);
    SlurmScheduler slurm(transport, ClusterSettings{});
    const JobRequest job{.name = "r", .program = {"e"}, .run_dir = (folder.path / "run").string()};
    CHECK(slurm.submit(job) == "4242");
    CHECK(fileText(folder.path / "calls") == "call\n");
    // A second submission of the same run folder is a new one: it calls sbatch again.
    CHECK(slurm.submit(job) == "4242");
    CHECK(fileText(folder.path / "calls") == "call\ncall\n");
    setenv("PATH", path.c_str(), 1);
}

TEST_CASE("sbatch --parsable gives the job id, with or without a cluster name", "[remote][slurm]") {
    CHECK(parseSbatchJobId("4242\n") == "4242");
    CHECK(parseSbatchJobId("4242;cluster2\n") == "4242");
    CHECK_THROWS_WITH(parseSbatchJobId("sbatch: error: Batch job submission failed\n"),
                      Catch::Contains("where a job id belongs"));
    CHECK_THROWS(parseSbatchJobId(""));
}

TEST_CASE("Slurm's states map to scalebench's, keeping timeouts, node failures and requeues apart",
          "[remote][slurm]") {
    struct Row {
        const char* slurm;
        JobState state;
    };
    const Row table[] = {
        {"PENDING", JobState::Pending},
        {"CONFIGURING", JobState::Pending},
        {"RUNNING", JobState::Running},
        {"COMPLETING", JobState::Running},
        {"COMPLETED", JobState::Completed},
        {"FAILED", JobState::Failed},
        {"CANCELLED by 1001", JobState::Cancelled},
        {"TIMEOUT", JobState::Timeout},
        {"NODE_FAIL", JobState::NodeFail},
        {"BOOT_FAIL", JobState::NodeFail},
        {"OUT_OF_MEMORY", JobState::OutOfMemory},
        {"REQUEUED", JobState::Requeued},
        {"PREEMPTED", JobState::Preempted},
        {"SOMETHING_NEW", JobState::Failed},
    };
    for (const auto& row : table) {
        INFO(row.slurm);
        CHECK(slurmState(row.slurm) == row.state);
    }
    CHECK_FALSE(isFinal(JobState::Requeued));
    CHECK(isFinal(JobState::Timeout));
}

TEST_CASE("pending reasons that waiting cannot cure are told apart from those it can", "[remote][slurm]") {
    CHECK(isUnsatisfiableReason("PartitionNodeLimit"));
    CHECK(isUnsatisfiableReason("BadConstraints"));
    CHECK_FALSE(isUnsatisfiableReason("Resources"));
    CHECK_FALSE(isUnsatisfiableReason("Priority"));
    CHECK(isUnsatisfiableReason("PartitionConfig")); // "requested partition configuration not available"
}

namespace {
std::string fixture(const std::string& name) {
    std::ifstream in(SCALEBENCH_SOURCE_DIR "/tests/data/slurm/" + name);
    std::stringstream s;
    s << in.rdbuf();
    REQUIRE(!s.str().empty());
    return s.str();
}
} // namespace

TEST_CASE("squeue's real output gives each job's state, pending reason and nodes", "[remote][slurm]") {
    const auto jobs = parseSqueue(fixture("squeue.txt"));
    REQUIRE(jobs.size() == 6);
    CHECK(jobs[0].id == "5");
    CHECK(jobs[0].state == JobState::Cancelled);
    CHECK(jobs[1].state == JobState::Completed);
    CHECK(jobs[1].nodes == "node1");
    CHECK(jobs[2].state == JobState::Failed);
    CHECK(jobs[2].reason == "NonZeroExitCode");
    CHECK(jobs[3].state == JobState::Running);
    CHECK(jobs[3].nodes == "node[1-2]");
    CHECK(jobs[3].reason.empty()); // "None"
    CHECK(jobs[5].state == JobState::Pending);
    CHECK(jobs[5].reason == "PartitionConfig");
    CHECK(jobs[5].nodes.empty());
}

TEST_CASE("scontrol's real one-line records give final states and exit codes", "[remote][slurm]") {
    const auto jobs = parseJobRecords(fixture("scontrol-show-job.txt"));
    REQUIRE(jobs.size() == 5);
    CHECK(jobs[0].state == JobState::Completed);
    CHECK(jobs[0].exit_status == 0);
    CHECK(jobs[1].state == JobState::Failed);
    CHECK(jobs[1].exit_status == 3);
    CHECK(jobs[2].state == JobState::Running);
    CHECK(jobs[2].nodes == "node[1-2]");
    CHECK(jobs[4].state == JobState::Cancelled);
    CHECK(jobs[4].nodes.empty()); // "(null)": it never ran
}

TEST_CASE("the job-completion log's real lines have the same shape as scontrol's", "[remote][slurm]") {
    const auto jobs = parseJobRecords(fixture("jobcomp.log"));
    REQUIRE(jobs.size() == 3);
    CHECK(jobs[0].id == "2");
    CHECK(jobs[0].state == JobState::Failed);
    CHECK(jobs[1].state == JobState::Completed);
    CHECK(jobs[2].state == JobState::Cancelled);
}

TEST_CASE("sacct's allocations give final states, exit codes and signals, steps left out",
          "[remote][slurm]") {
    const auto jobs = parseSacct(fixture("sacct.txt"));
    REQUIRE(jobs.size() == 7);
    CHECK(jobs[0].id == "17");
    CHECK(jobs[0].state == JobState::Completed);
    CHECK(jobs[1].exit_status == 1);
    CHECK(jobs[2].state == JobState::Cancelled);
    CHECK(jobs[2].exit_status == 128 + 15);
    CHECK(jobs[3].state == JobState::Timeout);
    CHECK(jobs[4].state == JobState::NodeFail);
    CHECK(jobs[5].state == JobState::OutOfMemory);
    CHECK(jobs[6].state == JobState::Requeued);
}

// Found by the fuzz targets (fuzz/regressions/sacct, job_records, squeue): a negative exit code was taken
// for a status, a signal near INT_MAX overflowed 128 + signal, and a restart count beyond an int escaped as
// std::out_of_range "stoi".
TEST_CASE("exit codes and restart counts that Slurm never writes are refused naming the job",
          "[remote][slurm]") {
    CHECK_THROWS_WITH(parseSacct("20|FAILED|-1:0|node1\n"),
                      "sacct: job 20 has ExitCode '-1:0', not EXIT:SIGNAL (0-255:0-127) as Slurm writes it");
    CHECK_THROWS_WITH(parseSacct("20|FAILED|0:2147483647|node1\n"), Catch::Contains("'0:2147483647'"));
    CHECK_THROWS_WITH(parseSacct("20|FAILED|1:x|node1\n"), Catch::Contains("job 20 has ExitCode '1:x'"));
    CHECK_THROWS_WITH(parseJobRecords("JobId=21 JobState=FAILED ExitCode=256:0\n"),
                      Catch::StartsWith("job record 21 has ExitCode '256:0'"));
    CHECK_THROWS_WITH(parseSqueue("1|RUNNING|None|node1|99999999999|\n"),
                      "squeue: job 1 has RestartCnt '99999999999', not a count");
    // The edges that are Slurm's: exit 255, signal 127, a record without ExitCode or with it blank.
    CHECK(parseSacct("22|FAILED|255:0|node1\n").at(0).exit_status == 255);
    CHECK(parseSacct("22|FAILED|0:127|node1\n").at(0).exit_status == 255);
    CHECK(parseJobRecords("JobId=23 JobState=COMPLETED\n").at(0).exit_status == 0);
    CHECK(parseSacct("24|COMPLETED||node1\n").at(0).exit_status == 0);
}

TEST_CASE(
    "a job that squeue, sacct and scontrol have all forgotten gets its final state from the completion log",
    "[remote][slurm]") {
    ScriptedTransport cluster;
    cluster.answers["squeue"] = {1, "", "slurm_load_jobs error: Invalid job id specified\n"};
    cluster.answers["sacct"] = {1, "", "Slurm accounting storage is disabled\n"};
    cluster.answers["scontrol"] = {0, "", ""};
    cluster.answers["tail"] = {0, fixture("jobcomp.log"), ""};
    ClusterSettings settings;
    settings.jobcomp_log = "/var/spool/slurm/jobcomp.log";
    SlurmScheduler slurm(cluster, settings);

    const auto states = slurm.poll({"1", "2"});
    CHECK(states.at("1").state == JobState::Completed);
    CHECK(states.at("2").state == JobState::Failed);
    REQUIRE(cluster.commands.size() >= 4);
    CHECK_THAT(cluster.commands[0],
               Catch::StartsWith("squeue --noheader --states=all") && Catch::EndsWith("--jobs=1,2"));
    CHECK_THAT(cluster.commands[3], Catch::Equals("tail -n 10000 /var/spool/slurm/jobcomp.log"));

    SECTION("once sacct has said accounting is off, it is not asked again") {
        cluster.commands.clear();
        slurm.poll({"1"});
        for (const auto& command : cluster.commands)
            CHECK_THAT(command, !Catch::StartsWith("sacct"));
    }
}

TEST_CASE("squeue's restart count and sinfo's down nodes tell a requeue after a node failure",
          "[remote][slurm]") {
    // Real output of the test cluster: job 1 requeued after its node died, waiting out Slurm's BeginTime.
    const auto jobs = parseSqueue(fixture("squeue-restarts.txt"));
    REQUIRE(jobs.size() == 2);
    CHECK(jobs[0].state == JobState::Pending);
    CHECK(jobs[0].reason == "BeginTime");
    CHECK(jobs[0].restarts == 1);
    CHECK(jobs[1].restarts == 0);
    CHECK(jobs[1].nodes == "node1");
    CHECK(parseSqueue(fixture("squeue.txt")).at(3).restarts == 0); // the older format has no count

    const auto nodes = parseSinfoNodes("node1|down*|Not responding\nnode2|idle|none\n");
    REQUIRE(nodes.size() == 2);
    CHECK(isFailedNodeState(nodes[0].state));
    CHECK(nodes[0].reason == "Not responding");
    CHECK_FALSE(isFailedNodeState(nodes[1].state));
    CHECK(nodes[1].reason.empty());
    CHECK(isFailedNodeState("drained"));
}

TEST_CASE("a cluster's partitions, a partition's state and srun's PMIx read from Slurm's own output",
          "[remote][slurm]") {
    CHECK(parseSinfoPartitions("debug*\ngpu\n\nlong\n") == std::vector<std::string>{"debug*", "gpu", "long"});
    CHECK(parseSinfoPartitions("").empty());
    CHECK(partitionState("PartitionName=gpu\n   AllowGroups=ALL Default=NO\n   State=UP TotalCPUs=64\n") ==
          "UP");
    CHECK(partitionState("PartitionName=old\n   State=DRAIN TotalCPUs=8\n") == "DRAIN");
    CHECK(partitionState("Partition nope not found\n").empty());
    CHECK(offersPmix("MPI plugin types are...\n\tnone\n\tcray_shasta\n\tpmi2\n\tpmix\nspecific pmix plugin "
                     "versions available: pmix_v4\n"));
    CHECK_FALSE(offersPmix("MPI plugin types are...\n\tnone\n\tpmi2\n"));
}

TEST_CASE("a job Slurm starts again is reported as its next attempt, with the node that failed",
          "[remote][slurm]") {
    ScriptedTransport cluster;
    SlurmScheduler slurm(cluster, ClusterSettings{});
    cluster.answers["squeue"] = {0, "7|RUNNING|None|node[1-2]|0|\n", ""};
    CHECK(slurm.poll({"7"}).at("7").attempt == 0);
    cluster.answers["squeue"] = {0, "7|PENDING|BeginTime||1|\n", ""};
    cluster.answers["sinfo"] = {0, "node1|idle|none\nnode2|down*|Not responding\n", ""};
    const JobStatus requeued = slurm.poll({"7"}).at("7");
    CHECK(requeued.attempt == 1);
    CHECK(requeued.requeue_cause == "NODE_FAIL on node2 (down*: Not responding)");
    CHECK_THAT(cluster.commands.back(), Catch::Contains("sinfo") && Catch::Contains("'node[1-2]'"));
    // Asked once: the next polls keep the attempt and its cause without asking sinfo again.
    const auto asked = cluster.commands.size();
    cluster.answers["squeue"] = {0, "7|RUNNING|None|node1|1|\n", ""};
    CHECK(slurm.poll({"7"}).at("7").requeue_cause == requeued.requeue_cause);
    CHECK(cluster.commands.size() == asked + 1);
}
