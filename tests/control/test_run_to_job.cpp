// Specification of how a run becomes a job, in one place: the engine's command line (every setting, always),
// jobRequestFor() (ranks, nodes, GPUs, folder), the two renderers (sbatch script, local mpirun), and the
// preview that is what the runner submits, byte for byte.
#include "engine_invocation.h"
#include "job_preview.h"
#include "job_request.h"
#include "local_mpirun_arguments.h"
#include "local_scheduler.h"
#include "local_transport.h"
#include "no_connection.h"
#include "plan_writer.h"
#include "run_plan.h"
#include "session_runner.h"
#include "session_store.h"
#include "slurm_job_script.h"
#include "slurm_scheduler.h"
#include "temporary_folder.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {
RunSpec runOf(const std::string& text, std::size_t index = 0) {
    return expandPlan(parsePlanText(text, "plan.toml")).at(index);
}

// The word after `option`; fails the test when the option is absent.
std::string valueOf(const std::vector<std::string>& words, const std::string& option) {
    auto it = std::find(words.begin(), words.end(), option);
    REQUIRE(it != words.end());
    REQUIRE(it + 1 != words.end());
    return *(it + 1);
}

ClusterSettings clusterWith(int tasks_per_node, int gpus_per_node) {
    ClusterSettings c;
    c.name = "gpus";
    c.host = "head";
    c.remote_root = "/home/me/sb";
    c.tasks_per_node = tasks_per_node;
    c.gpus_per_node = gpus_per_node;
    return c;
}
} // namespace

TEST_CASE("every setting of a run reaches the engine, defaults too, so the stored command says everything",
          "[core][plan]") {
    const auto words = engineArguments(runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 2\n"),
                                       "engine", "/r/m.jsonl");
    CHECK(valueOf(words, "--backend") == "mpi");
    CHECK(valueOf(words, "--bucket-mb") == "25");
    CHECK(valueOf(words, "--overlap") == "yes");
    CHECK(valueOf(words, "--precision") == "fp32");
    CHECK(valueOf(words, "--threads-per-rank") == "0"); // resolved by the engine; its header says to what
    CHECK(valueOf(words, "--in-place") == "no");
    CHECK(valueOf(words, "--target") == "0");
    CHECK(valueOf(words, "--preset").empty());
    // How the engine measures, though no plan key sets it.
    CHECK(valueOf(words, "--first-bucket-mb") == "1");
    CHECK(valueOf(words, "--timing") == "back-to-back");
    CHECK(valueOf(words, "--augmentation") == "standard");
    CHECK(valueOf(words, "--metrics") == "/r/m.jsonl");
    CHECK(words.front() == "engine");
}

TEST_CASE("a training group's backend, buckets, overlap and target reach the engine", "[core][plan]") {
    const auto words = engineArguments(runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 2\n"
                                             "backend = \"nccl\"\nbucket_mb = 12.5\noverlap = false\n"
                                             "target_accuracy = 0.9\n"),
                                       "engine", "/r/m.jsonl");
    CHECK(valueOf(words, "--backend") == "nccl");
    CHECK(valueOf(words, "--bucket-mb") == "12.5");
    CHECK(valueOf(words, "--overlap") == "no");
    CHECK(valueOf(words, "--target") == "90"); // the old key's fraction, in % as --target takes it
    CHECK(std::find(words.begin(), words.end(), "--target-accuracy") == words.end()); // an engine alias only
}

TEST_CASE("a workload's preset, sequence length and target reach the engine", "[core][plan]") {
    const auto words = engineArguments(runOf("name = \"p\"\n[[run]]\nworkload = \"llama\"\nranks = 2\n"
                                             "preset = \"small\"\nseq_len = 256\ntarget = 4.2\n"),
                                       "engine", "/r/m.jsonl");
    CHECK(valueOf(words, "--preset") == "small");
    CHECK(valueOf(words, "--seq-len") == "256");
    CHECK(valueOf(words, "--target") == "4.2");
}

TEST_CASE("a sweep's collectives, element types and in-place choice reach the engine", "[core][plan]") {
    const auto words = engineArguments(
        runOf("name = \"p\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = 2\n"
              "collectives = [\"allreduce\", \"allgather\"]\ndtypes = [\"float32\", \"bfloat16\"]\n"
              "in_place = \"both\"\nbackend = \"gloo\"\n"),
        "engine", "/r/m.jsonl");
    CHECK(valueOf(words, "--collectives") == "allreduce,allgather");
    CHECK(valueOf(words, "--dtypes") == "float32,bfloat16");
    CHECK(valueOf(words, "--in-place") == "both");
    CHECK(valueOf(words, "--backend") == "gloo");
}

TEST_CASE("a run on a cluster: ranks packed by the plan's GPUs per node, one GPU each, in its run folder",
          "[core][plan]") {
    const RunSpec run =
        runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 8]\ngpus_per_node = 4\n"
              "threads_per_rank = 3\nenv = { NCCL_DEBUG = \"INFO\" }\n",
              1);
    REQUIRE(run.ranks == 8);
    const SessionFolderKey session{"store", 7, "uuid"};
    const JobRequest job =
        jobRequestFor(run, {clusterWith(8, 8), "/e/engine", "/home/me/sb/sessions", session});
    CHECK(job.name == run.name);
    CHECK(job.ranks == 8);
    CHECK(job.nodes == 2);
    CHECK(job.ranks_per_node == 4);
    CHECK(job.gpus_per_node == 4);
    CHECK(job.threads_per_rank == 3);
    CHECK(job.environment == std::map<std::string, std::string>{{"NCCL_DEBUG", "INFO"}});
    CHECK(job.run_dir == runFolder("/home/me/sb/sessions", session, run.name));
    RunSpec placed = run; // the data set's folder: the cluster's data_root/<dataset>
    placed.group.data_dir = std::string(SCALEBENCH_DATA_ROOT) + "/fashion-mnist";
    CHECK(job.program == engineArguments(placed, "/e/engine", kMetricFileName));
    CHECK(job.output == kMetricFileName);
}

TEST_CASE(
    "a run reads its data set from the plan's data_dir, else from the cluster's data_root/<dataset>, and a "
    "relative data_dir is under the data root",
    "[core][plan][plankeys]") {
    const std::string plan =
        "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\ndataset = \"cifar10\"\nranks = 2\n";
    ClusterSettings cluster = clusterWith(1, 0);
    cluster.data_root = "/scratch/datasets";
    const auto dataDir = [&](const std::string& text, const ClusterSettings& c) {
        return valueOf(jobRequestFor(runOf(text), {c, "e", "/s", {}}).program, "--data-dir");
    };
    CHECK(dataDir(plan, cluster) == "/scratch/datasets/cifar10");
    CHECK(dataDir(plan, localMachine()) == std::string(SCALEBENCH_DATA_ROOT) + "/cifar10");
    CHECK(dataDir(plan + "data_dir = \"cifar-10-batches-bin\"\n", cluster) ==
          "/scratch/datasets/cifar-10-batches-bin");
    CHECK(dataDir(plan + "data_dir = \"/home/me/cifar\"\n", cluster) == "/home/me/cifar");
    // Data made up reads no folder: the plan's data_dir (none) is passed as it is.
    CHECK(
        dataDir("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\ndataset = \"synthetic-cifar\"\nranks = 2\n",
                cluster)
            .empty());
}

TEST_CASE("without GPUs per node in the plan, a rank per GPU of the cluster's nodes, or its tasks per node",
          "[core][plan]") {
    const RunSpec run = runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [8, 2]\n");
    // On GPUs one rank per GPU, whatever tasks_per_node says (it packs ranks where there are none).
    const JobRequest job = jobRequestFor(run, {clusterWith(2, 4), "e", "/s", {}});
    CHECK(job.nodes == 2);
    CHECK(job.ranks_per_node == 4);
    CHECK(job.gpus_per_node == 4);
    const JobRequest two = jobRequestFor(runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 2\n"),
                                         {clusterWith(1, 4), "e", "/s", {}});
    CHECK(two.nodes == 1);
    CHECK(two.ranks_per_node == 2);
    CHECK(two.gpus_per_node == 2); // not the node's 4: two ranks, two GPUs
    const JobRequest no_gpus = jobRequestFor(run, {clusterWith(16, 0), "e", "/s", {}});
    CHECK(no_gpus.nodes == 1);
    CHECK(no_gpus.ranks_per_node == 8);
    CHECK(no_gpus.gpus_per_node == 0);
}

TEST_CASE("a plan asking for more GPUs per node than the cluster's nodes have is refused, naming both",
          "[core][plan][gpu]") {
    const RunSpec run =
        runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 16\ngpus_per_node = 8\n");
    CHECK_THROWS_WITH(
        jobRequestFor(run, {clusterWith(4, 4), "e", "/s", {}}),
        Catch::Contains("run " + run.name + " asks for 8 GPUs per node (the plan's gpus_per_node)") &&
            Catch::Contains("cluster 'gpus' have 4 (its gpus_per_node)"));
    // Fewer than a node has: one GPU for each rank, the node's other GPUs left to other jobs.
    const JobRequest fewer = jobRequestFor(run, {clusterWith(1, 16), "e", "/s", {}});
    CHECK(fewer.nodes == 2);
    CHECK(fewer.ranks_per_node == 8);
    CHECK(fewer.gpus_per_node == 8);
    // On a cluster without GPUs the plan's gpus_per_node only packs ranks.
    const JobRequest cpus = jobRequestFor(run, {clusterWith(1, 0), "e", "/s", {}});
    CHECK(cpus.nodes == 2);
    CHECK(cpus.ranks_per_node == 8);
    CHECK(cpus.gpus_per_node == 0);
}

TEST_CASE("ranks that do not fill the last node still run one per GPU", "[core][plan][gpu]") {
    const RunSpec run = runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 6\n");
    const JobRequest job = jobRequestFor(run, {clusterWith(1, 4), "e", "/s", {}});
    CHECK(job.ranks == 6);
    CHECK(job.nodes == 2);
    CHECK(job.ranks_per_node == 4); // at most 4 a node (the last has 2): --ntasks=6 --ntasks-per-node=4
    CHECK(job.gpus_per_node == 4);
    const std::string script = renderSbatchScript(clusterWith(1, 4), job);
    CHECK_THAT(script, Catch::Contains("#SBATCH --nodes=2\n") && Catch::Contains("#SBATCH --ntasks=6\n") &&
                           Catch::Contains("#SBATCH --ntasks-per-node=4\n") &&
                           Catch::Contains("#SBATCH --gpus-per-node=4\n"));
}

TEST_CASE("a run on this machine is one node with every rank on it and no GPU asked for", "[core][plan]") {
    const RunSpec run = runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 4\n");
    const JobRequest job = jobRequestFor(run, {localMachine(), "e", "/out", {"s", 1, "u"}});
    CHECK(job.nodes == 1);
    CHECK(job.ranks_per_node == 4);
    CHECK(job.gpus_per_node == 0);
    CHECK(job.run_dir == "/out/s/session-1-u/" + run.name);
}

TEST_CASE("the sbatch script says the job's nodes, tasks and GPUs and exports its environment",
          "[remote][slurm]") {
    ClusterSettings c = clusterWith(8, 8);
    c.nccl_env = {{"NCCL_IB_DISABLE", "1"}};
    JobRequest job;
    job.name = "r";
    job.program = {"engine"};
    job.run_dir = "/d";
    job.ranks = 8;
    job.nodes = 2;
    job.ranks_per_node = 4;
    job.gpus_per_node = 4;
    job.environment = {{"NCCL_DEBUG", "INFO"}, {"GREETING", "it's $HOME"}};
    const std::string s = renderSbatchScript(c, job);
    CHECK_THAT(s, Catch::Contains("#SBATCH --nodes=2\n") && Catch::Contains("#SBATCH --ntasks=8\n") &&
                      Catch::Contains("#SBATCH --ntasks-per-node=4\n") &&
                      Catch::Contains("#SBATCH --gpus-per-node=4\n"));
    CHECK_THAT(s, Catch::Contains("export NCCL_DEBUG=INFO\n") &&
                      Catch::Contains("export GREETING='it'\\''s $HOME'\n"));
    // The plan's variables come after the cluster's, so that a plan can override them.
    CHECK(s.find("export NCCL_IB_DISABLE=1") < s.find("export NCCL_DEBUG"));
    CHECK(s.find("export GREETING") < s.find("srun"));
    c.gres_syntax = true;
    CHECK_THAT(renderSbatchScript(c, job), Catch::Contains("#SBATCH --gres=gpu:4\n"));
    job.gpus_per_node = 0;
    CHECK_THAT(renderSbatchScript(c, job), !Catch::Contains("gpu"));

    job.environment = {{"BAD NAME", "x"}};
    CHECK_THROWS_WITH(renderSbatchScript(c, job), Catch::Contains("'BAD NAME'"));
}

TEST_CASE("the local mpirun command line exports the environment to every rank", "[remote][plan]") {
    JobRequest job;
    job.ranks = 4;
    job.program = {"engine", "--steps", "10"};
    job.environment = {{"A", "1"}, {"B", "x y"}};
    CHECK(localMpirunArguments(job, 2) == std::vector<std::string>{"mpirun", "-np", "4", "--oversubscribe",
                                                                   "--bind-to", "none", "-x", "A=1", "-x",
                                                                   "B=x y", "engine", "--steps", "10"});
    job.environment = {{"9X", "1"}};
    CHECK_THROWS_WITH(localMpirunArguments(job), Catch::Contains("'9X'"));
}

TEST_CASE("local ranks are bound to CPUs of their own when they fit, and run unbound when they do not",
          "[remote][plan]") {
    const auto bound = [](int ranks, int threads) {
        return std::vector<std::string>{"mpirun",
                                        "-np",
                                        std::to_string(ranks),
                                        "--use-hwthread-cpus",
                                        "--map-by",
                                        "slot:PE=" + std::to_string(threads),
                                        "--bind-to",
                                        "hwthread",
                                        "e"};
    };
    const std::vector<std::string> unbound = {"mpirun",    "-np",  "2", "--oversubscribe",
                                              "--bind-to", "none", "e"};
    const auto mpirun = [](int ranks, int threads, int cpus) {
        JobRequest job;
        job.ranks = ranks;
        job.threads_per_rank = threads;
        job.program = {"e"};
        return localMpirunArguments(job, cpus);
    };
    // threads 0: the engine takes cpus / ranks, so 2 ranks on 2 CPUs get one each.
    CHECK(mpirun(2, 0, 2) == bound(2, 1));
    CHECK(mpirun(2, 0, 8) == bound(2, 4));
    CHECK(mpirun(2, 2, 4) == bound(2, 2));
    CHECK(mpirun(2, 3, 4) == unbound); // 6 threads on 4 CPUs
    CHECK(mpirun(2, 0, 1) == unbound); // 2 ranks on 1 CPU
    CHECK(mpirun(1, 0, 2) == bound(1, 2));
    CHECK(usableCpus() >= 1);
}

namespace {
// Submits nothing: keeps what the real scheduler would submit for each job (its commandLine) and says every
// job completed.
class SubmissionRecorder final : public Scheduler {
  public:
    explicit SubmissionRecorder(Scheduler& real) : real_(real) {}
    std::string submit(const JobRequest& job) override {
        submitted.push_back(real_.commandLine(job));
        return std::to_string(submitted.size());
    }
    std::map<std::string, JobStatus> poll(const std::vector<std::string>& ids) override {
        std::map<std::string, JobStatus> states;
        for (const auto& id : ids)
            states[id].state = JobState::Completed;
        return states;
    }
    void cancel(const std::string&) override {}
    std::string commandLine(const JobRequest& job) const override { return real_.commandLine(job); }
    ClusterSettings machine() const override { return real_.machine(); }
    std::vector<std::string> submitted;

  private:
    Scheduler& real_;
};

const char* const kTwoRuns = "name = \"preview\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2]\n"
                             "threads_per_rank = 1\nenv = { OMP_PROC_BIND = \"true\" }\n";
} // namespace

TEST_CASE("the preview of a run on this machine is the command the runner submits and stores, byte for byte",
          "[control][preview]") {
    const TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    const RunPlan plan = parsePlanText(kTwoRuns, "preview.toml");
    LocalScheduler local;
    SubmissionRecorder scheduler(local);
    LocalTransport transport;
    SessionRunnerSettings settings{
        {localMachine(), localEnginePath("build/scalebench-engine"), (folder.path / "out").string(), {}},
        std::chrono::milliseconds(1)};
    SessionRunner runner(store, scheduler, transport, settings, [](const std::string&) {});
    const SessionOutcome outcome = runner.run(plan);

    const auto runs = expandPlan(plan);
    const auto stored = store.runs(outcome.session_id);
    REQUIRE(scheduler.submitted.size() == runs.size());
    REQUIRE(stored.size() == runs.size());
    const LaunchSite preview =
        previewSite(localMachine(), "build/scalebench-engine", folder.path / "out", store.storeId());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        CHECK(submittedCommand(runs[i], preview) == scheduler.submitted[i]);
        CHECK(stored[i].command == scheduler.submitted[i]);
    }
}

TEST_CASE(
    "the preview of a run on a cluster is the sbatch script the runner submits, given the session's folder",
    "[control][preview]") {
    const TemporaryFolder folder;
    SessionStore store(folder.path / "s.db");
    const RunPlan plan = parsePlanText(kTwoRuns, "preview.toml");
    ClusterSettings cluster = clusterWith(1, 2);
    cluster.remote_root = folder.path.string(); // the runner makes the run folders through the transport
    cluster.setup_lines = {"module load cuda"};
    NoConnection none("gpus");
    SlurmScheduler slurm(none, cluster);
    SubmissionRecorder scheduler(slurm);
    LocalTransport transport;
    SessionRunnerSettings settings{{cluster, "/deployed/engine", (folder.path / "sessions").string(), {}},
                                   std::chrono::milliseconds(1)};
    SessionRunner runner(store, scheduler, transport, settings, [](const std::string&) {});
    const SessionOutcome outcome = runner.run(plan);

    const auto runs = expandPlan(plan);
    REQUIRE(scheduler.submitted.size() == runs.size());
    // Before a session exists, the preview shows its folder as session-N-UUID and the engine's hash as HASH;
    // with the session's own, it is the script submitted.
    LaunchSite site = previewSite(cluster, "unused here", folder.path, store.storeId());
    CHECK_THAT(submittedCommand(runs[0], site),
               Catch::Contains("/session-N-UUID/") && Catch::Contains("/engine/HASH/"));
    site.engine = "/deployed/engine";
    site.session = {store.storeId(), outcome.session_id, store.session(outcome.session_id)->uuid};
    const auto stored = store.runs(outcome.session_id);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        CHECK(submittedCommand(runs[i], site) == scheduler.submitted[i]);
        CHECK(stored[i].command == scheduler.submitted[i]);
    }
}

TEST_CASE("mllog = true makes the engine write MLPerf's log beside its metric stream, and only then",
          "[core][plan][mllog]") {
    const auto asked = engineArguments(
        runOf("name = \"p\"\n[[run]]\nworkload = \"bert\"\nranks = 2\nmllog = true\n"), "engine", "m.jsonl");
    CHECK(valueOf(asked, "--mllog") == "mllog.txt"); // relative: in the attempt's folder, as m.jsonl
    const auto unasked = engineArguments(runOf("name = \"p\"\n[[run]]\nworkload = \"bert\"\nranks = 2\n"),
                                         "engine", "m.jsonl");
    CHECK(std::find(unasked.begin(), unasked.end(), "--mllog") == unasked.end());
    CHECK_THROWS_WITH(
        runOf("name = \"p\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = 2\nmllog = true\n"),
        Catch::Contains("'mllog' applies to training workloads only"));
    CHECK_THROWS_WITH(
        runOf("name = \"p\"\n[[run]]\ncommand = \"x\"\nformat = \"mllog\"\nranks = 2\nmllog = true\n"),
        Catch::Contains("mllog"));
}

TEST_CASE("exclude_nodes keeps a plan's jobs off the nodes it names: sbatch --exclude, written back as read",
          "[core][plan][exclude]") {
    const RunSpec run = runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 2\n"
                              "exclude_nodes = [\"node2\", \"gpu-17.cluster\"]\n");
    CHECK(run.group.exclude_nodes == std::vector<std::string>{"node2", "gpu-17.cluster"});
    const JobRequest job = jobRequestFor(run, {clusterWith(2, 0), "e", "/s", {}});
    CHECK(job.exclude_nodes == run.group.exclude_nodes);
    const std::string script = renderSbatchScript(clusterWith(2, 0), job);
    CHECK_THAT(script, Catch::Contains("#SBATCH --exclude=node2,gpu-17.cluster\n"));
    const RunSpec unexcluded = runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 2\n");
    CHECK_THAT(
        renderSbatchScript(clusterWith(2, 0), jobRequestFor(unexcluded, {clusterWith(2, 0), "e", "/s", {}})),
        !Catch::Contains("--exclude"));
    CHECK_THROWS_WITH(runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 2\nexclude_nodes = "
                            "[\"node2 --x\"]\n"),
                      Catch::Contains("'exclude_nodes' holds 'node2 --x': a node's host name"));
    RunPlan plan =
        parsePlanText("name = \"p\"\n[[run]]\ncommand = \"all_reduce_perf\"\nformat = \"nccl-tests\"\n"
                      "ranks = 8\nexclude_nodes = [\"node3\"]\n",
                      "p.toml");
    CHECK(plan.groups[0].exclude_nodes == std::vector<std::string>{"node3"});
    CHECK(parsePlanText(writePlanToml(plan), "again.toml").groups[0] == plan.groups[0]);
}

TEST_CASE("a device check's job on Slurm is the engine's with --check-device yes, one rank per GPU",
          "[core][plan][gpu]") {
    // What a cluster check runs on each node: the same job as training, the self-check instead of the steps.
    const RunSpec run = runOf("name = \"p\"\n[[run]]\nworkload = \"llama\"\nranks = 8\ngpus_per_node = 8\n"
                              "device = \"cuda\"\nsteps = 6\ncheck_device = true\n");
    const JobRequest job = jobRequestFor(run, {clusterWith(8, 8), "e", "/s", {"s", 1, "u"}});
    CHECK(valueOf(job.program, "--check-device") == "yes");
    CHECK(valueOf(job.program, "--device") == "cuda");
    const std::string script = renderSbatchScript(clusterWith(8, 8), job);
    CHECK_THAT(script,
               Catch::Contains("#SBATCH --gpus-per-node=8\n") && Catch::Contains("--check-device yes"));
}
