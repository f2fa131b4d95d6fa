// Specification of how a plan's new keys reach the engine and the job: engine options, the sbatch script's
// nodes and exports, and the local mpirun command line.
#include "engine_invocation.h"
#include "local_mpirun_arguments.h"
#include "run_plan.h"
#include "slurm_job_script.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {
RunSpec runOf(const std::string& text, std::size_t index = 0) {
    return expandPlan(parsePlanText(text, "plan.toml")).at(index);
}

bool has(const std::vector<std::string>& words, const std::string& word) {
    return std::find(words.begin(), words.end(), word) != words.end();
}

// The word after `option`, or "" when the option is absent.
std::string valueOf(const std::vector<std::string>& words, const std::string& option) {
    auto it = std::find(words.begin(), words.end(), option);
    return it == words.end() || it + 1 == words.end() ? "" : *(it + 1);
}
} // namespace

TEST_CASE("defaults add no option, so an engine without the new options still runs the plan",
          "[core][plan]") {
    const auto words = engineArguments(runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 2\n"),
                                       "engine", "/r/m.jsonl");
    for (const char* option : {"--backend", "--bucket-mb", "--no-overlap", "--precision", "--target-accuracy",
                               "--collectives", "--dtypes", "--placement"})
        CHECK_FALSE(has(words, option));
    CHECK(words.back() == "/r/m.jsonl");
}

TEST_CASE("a training group's backend, buckets, overlap and target reach the engine", "[core][plan]") {
    const auto words = engineArguments(runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 2\n"
                                             "backend = \"nccl\"\nbucket_mb = 12.5\noverlap = false\n"
                                             "target_accuracy = 0.9\n"),
                                       "engine", "/r/m.jsonl");
    CHECK(valueOf(words, "--backend") == "nccl");
    CHECK(valueOf(words, "--bucket-mb") == "12.5");
    CHECK(has(words, "--no-overlap"));
    CHECK(valueOf(words, "--target-accuracy") == "0.9");
    CHECK_FALSE(has(words, "--precision")); // fp32
}

TEST_CASE("a workload's preset, sequence length and target reach the engine", "[core][plan]") {
    const auto words = engineArguments(runOf("name = \"p\"\n[[run]]\nworkload = \"llama\"\nranks = 2\n"
                                             "preset = \"small\"\nseq_len = 256\ntarget = 4.2\n"),
                                       "engine", "/r/m.jsonl");
    CHECK(valueOf(words, "--preset") == "small");
    CHECK(valueOf(words, "--seq-len") == "256");
    CHECK(valueOf(words, "--target") == "4.2");
    const auto plain = engineArguments(runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 2\n"),
                                       "engine", "/r/m.jsonl");
    for (const char* option : {"--preset", "--seq-len", "--target"})
        CHECK_FALSE(has(plain, option));
}

TEST_CASE("a sweep's collectives, element types and in-place choice reach the engine", "[core][plan]") {
    const auto words = engineArguments(
        runOf("name = \"p\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = 2\n"
              "collectives = [\"allreduce\", \"allgather\"]\ndtypes = [\"float32\", \"bfloat16\"]\n"
              "in_place = \"both\"\nbackend = \"gloo\"\n"),
        "engine", "/r/m.jsonl");
    CHECK(valueOf(words, "--collectives") == "allreduce,allgather");
    CHECK(valueOf(words, "--dtypes") == "float32,bfloat16");
    CHECK(valueOf(words, "--placement") == "both");
    CHECK(valueOf(words, "--backend") == "gloo");
}

TEST_CASE("the sbatch script places ranks by the plan's GPUs per node and exports its environment",
          "[core][plan]") {
    ClusterSettings c;
    c.tasks_per_node = 8;
    c.gpus_per_node = 8;
    c.nccl_env = {{"NCCL_IB_DISABLE", "1"}};
    const RunSpec run =
        runOf("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 8]\ngpus_per_node = 4\n"
              "env = { NCCL_DEBUG = \"INFO\", GREETING = \"it's $HOME\" }\n",
              1);
    REQUIRE(run.ranks == 8);
    SlurmJob job{run.name, run.ranks, {"engine"}, "/d"};
    job.ranks_per_node = run.ranks_per_node;
    job.environment = run.environment;
    const std::string s = renderSbatchScript(c, job);
    CHECK_THAT(s, Catch::Contains("#SBATCH --nodes=2\n") && Catch::Contains("#SBATCH --ntasks=8\n") &&
                      Catch::Contains("#SBATCH --ntasks-per-node=4\n") &&
                      Catch::Contains("#SBATCH --gpus-per-node=4\n"));
    CHECK_THAT(s, Catch::Contains("export NCCL_DEBUG=INFO\n") &&
                      Catch::Contains("export GREETING='it'\\''s $HOME'\n"));
    // The plan's variables come after the cluster's, so that a plan can override them.
    CHECK(s.find("export NCCL_IB_DISABLE=1") < s.find("export NCCL_DEBUG"));
    CHECK(s.find("export GREETING") < s.find("srun"));

    job.environment = {{"BAD NAME", "x"}};
    CHECK_THROWS_WITH(renderSbatchScript(c, job), Catch::Contains("'BAD NAME'"));
}

TEST_CASE("without GPUs per node in the plan, the cluster's tasks per node decide", "[core][plan]") {
    ClusterSettings c;
    c.tasks_per_node = 2;
    const std::string s = renderSbatchScript(c, {"r", 8, {"engine"}, "/d"});
    CHECK_THAT(s, Catch::Contains("#SBATCH --nodes=4\n") && Catch::Contains("#SBATCH --ntasks-per-node=2\n"));
    CHECK(nodesFor(c, SlurmJob{"r", 8, {"engine"}, "/d", 4}) == 2);
}

TEST_CASE("the local mpirun command line exports the environment to every rank", "[core][plan]") {
    const auto argv = localMpirunArguments(4, {"engine", "--steps", "10"}, {{"A", "1"}, {"B", "x y"}}, 0, 2);
    CHECK(argv == std::vector<std::string>{"mpirun", "-np", "4", "--oversubscribe", "--bind-to", "none", "-x",
                                           "A=1", "-x", "B=x y", "engine", "--steps", "10"});
    CHECK_THROWS_WITH(localMpirunArguments(1, {"e"}, {{"9X", "1"}}), Catch::Contains("'9X'"));
}

TEST_CASE("local ranks are bound to CPUs of their own when they fit, and run unbound when they do not",
          "[core][plan]") {
    const auto bound = [](int threads) {
        return std::vector<std::string>{"mpirun",    "-np",         "2", "--use-hwthread-cpus", "--map-by",
                                        "slot:PE=" + std::to_string(threads), "--bind-to", "hwthread", "e"};
    };
    const std::vector<std::string> unbound = {"mpirun", "-np", "2", "--oversubscribe", "--bind-to", "none", "e"};
    // threads 0: the engine takes cpus / ranks, so 2 ranks on 2 CPUs get one each.
    CHECK(localMpirunArguments(2, {"e"}, {}, 0, 2) == bound(1));
    CHECK(localMpirunArguments(2, {"e"}, {}, 0, 8) == bound(4));
    CHECK(localMpirunArguments(2, {"e"}, {}, 2, 4) == bound(2));
    CHECK(localMpirunArguments(2, {"e"}, {}, 3, 4) == unbound); // 6 threads on 4 CPUs
    CHECK(localMpirunArguments(2, {"e"}, {}, 0, 1) == unbound); // 2 ranks on 1 CPU
    CHECK(localMpirunArguments(1, {"e"}, {}, 0, 2) ==
          std::vector<std::string>{"mpirun", "-np", "1", "--use-hwthread-cpus", "--map-by", "slot:PE=2",
                                   "--bind-to", "hwthread", "e"});
    CHECK(usableCpus() >= 1);
}
