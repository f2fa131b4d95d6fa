// Specification of plans: TOML in, runs out; every mistake named by file, line and key.
#include "engine_invocation.h"
#include "plan_writer.h"
#include "run_plan.h"
#include "workload_catalog.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {
PlanError planError(const std::string& text) {
    try {
        parsePlanText(text, "plan.toml");
    } catch (const PlanError& e) {
        return e;
    }
    FAIL("the plan was accepted:\n" << text);
    throw std::logic_error("unreachable");
}
} // namespace

TEST_CASE("the quickstart plan expands into ResNet-20 at 1 and 2 ranks", "[core][plan]") {
    const RunPlan plan = parsePlanFile(SCALEBENCH_SOURCE_DIR "/resources/plans/quickstart.toml");
    CHECK(plan.name == "quickstart");
    const auto runs = expandPlan(plan);
    REQUIRE(runs.size() == 2);
    CHECK(runs[0].name == "resnet20-fashion-mnist-n1-r1");
    CHECK(runs[1].ranks == 2);
    CHECK(runs[1].group.batch_per_rank == 128);
    CHECK(runs[1].group.lr == Approx(0.02));
}

TEST_CASE(
    "repeats multiply every rank count, and the workload's reference values fill what a plan leaves out",
    "[core][plan]") {
    const RunPlan plan = parsePlanFile(SCALEBENCH_SOURCE_DIR "/tests/data/two_ranks.toml");
    const auto runs = expandPlan(plan);
    REQUIRE(runs.size() == 4);
    CHECK(runs[1].name == "resnet20-synthetic-cifar-n1-r2");
    CHECK(runs[3].name == "resnet20-synthetic-cifar-n2-r2");
    CHECK(runs[0].group.batch_per_rank == 128); // MLBench task 1
    CHECK(runs[0].group.warmup_steps == -1);    // log2(ranks) epochs, decided by the engine
}

TEST_CASE("a misspelt key is refused with its file, line and the key it probably meant", "[core][plan]") {
    try {
        parsePlanFile(SCALEBENCH_SOURCE_DIR "/tests/data/typo.toml");
        FAIL("accepted");
    } catch (const PlanError& e) {
        CHECK(e.line() == 8);
        CHECK(e.key() == "batch_per_rnak");
        CHECK_THAT(e.what(), Catch::Contains("typo.toml:8:") && Catch::Contains("[[run]] #1") &&
                                 Catch::Contains("did you mean 'batch_per_rank'?"));
    }
}

TEST_CASE("wrong values are refused with the line and key", "[core][plan]") {
    const std::string head = "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\n";
    SECTION("a rank count below one") {
        auto e = planError(head + "ranks = [1, 0]\n");
        CHECK(e.line() == 4);
        CHECK_THAT(e.what(), Catch::Contains("'ranks' must be positive, got 0"));
    }
    SECTION("a string where a number belongs") {
        auto e = planError(head + "ranks = 2\nsteps = \"ten\"\n");
        CHECK(e.key() == "steps");
        CHECK_THAT(e.what(),
                   Catch::Contains("plan.toml:5:") && Catch::Contains("'steps' must be an integer"));
    }
    SECTION("an unknown workload, with the known ones listed") {
        auto e = planError("name = \"p\"\n[[run]]\nworkload = \"resnet2000\"\nranks = 1\n");
        CHECK_THAT(e.what(), Catch::Contains("unknown workload 'resnet2000' (known: resnet20, resnet56,") &&
                                 Catch::Contains("llama, allreduce-sweep)"));
    }
    SECTION("a data set the workload does not have") {
        auto e = planError(head + "ranks = 1\ndataset = \"imagenet\"\n");
        CHECK_THAT(e.what(), Catch::Contains("has no dataset 'imagenet'"));
    }
    SECTION("no runs at all") {
        CHECK_THAT(planError("name = \"p\"\n").what(), Catch::Contains("no [[run]] table"));
    }
    SECTION("an empty name") {
        auto e = planError("name = \" \"\n[[run]]\nworkload = \"resnet20\"\nranks = 1\n");
        CHECK(e.line() == 1);
        CHECK_THAT(e.what(), Catch::Contains("'name' must not be empty"));
    }
    SECTION("no name") {
        CHECK_THAT(planError("[[run]]\nworkload = \"resnet20\"\nranks = 1\n").what(),
                   Catch::Contains("missing key 'name'"));
    }
}

// Found by fuzz_plan_text (fuzz/regressions/plan_text): bucket_mb = nan was accepted and written back as a
// plan that never equals itself; reading the same reader showed lr = inf and target = nan accepted, and a
// rank count of 2^32 + 2 wrapped to 2.
TEST_CASE("TOML's nan and inf and rank counts beyond an int are refused with the line and key",
          "[core][plan]") {
    const std::string head = "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2]\n";
    auto e = planError(head + "bucket_mb = nan\n");
    CHECK(e.line() == 5);
    CHECK(e.key() == "bucket_mb");
    CHECK_THAT(e.what(), Catch::Contains("'bucket_mb' must be a positive number, not nan"));
    CHECK_THAT(planError(head + "lr = inf\n").what(),
               Catch::Contains("'lr' must be a positive number, not inf"));
    CHECK_THAT(planError(head + "target = nan\n").what(), Catch::Contains("'target' must be a number"));
    e = planError("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 4294967298]\n");
    CHECK(e.key() == "ranks");
    CHECK_THAT(e.what(), Catch::Contains("'ranks' holds 4294967298: far too large"));
    CHECK_THAT(planError("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 4294967298\n").what(),
               Catch::Contains("'ranks' is 4294967298: far too large"));
    CHECK(parsePlanText(head + "bucket_mb = 1e3\n", "plan.toml").groups.at(0).bucket_mb == 1000);
}

TEST_CASE("text that is not TOML is refused with the line of the problem", "[core][plan]") {
    auto e = planError("name = \"p\"\n\n[[run]\n");
    CHECK(e.line() == 3);
    CHECK_THAT(e.what(), Catch::StartsWith("plan.toml:3: not valid TOML"));
}

TEST_CASE("a missing plan file is named", "[core][plan]") {
    CHECK_THROWS_WITH(parsePlanFile("/nonexistent/plan.toml"), Catch::Contains("/nonexistent/plan.toml"));
}

TEST_CASE("a plan's communication, precision, stopping, placement and environment keys are read",
          "[core][plan]") {
    const RunPlan plan = parsePlanText(R"(name = "p"
[[run]]
workload = "resnet20"
ranks = [1, 2, 4, 8]
backend = "nccl"
bucket_mb = 50
overlap = false
precision = "fp32"
target = 80
gpus_per_node = 4
env = { NCCL_DEBUG = "INFO", OMP_NUM_THREADS = "4" }
)",
                                       "plan.toml");
    const RunGroup& g = plan.groups.at(0);
    CHECK(g.backend == "nccl");
    CHECK(g.bucket_mb == 50);
    CHECK_FALSE(g.overlap);
    CHECK(g.target == 80);
    CHECK(plan.warnings.empty());
    CHECK(g.gpus_per_node == 4);
    CHECK(g.env == std::map<std::string, std::string>{{"NCCL_DEBUG", "INFO"}, {"OMP_NUM_THREADS", "4"}});

    const auto runs = expandPlan(plan);
    REQUIRE(runs.size() == 4);
    CHECK(runs[0].nodes == 1); // 1 rank: 1 node x 1
    CHECK(runs[0].ranks_per_node == 1);
    CHECK(runs[3].nodes == 2); // 8 ranks, 4 GPUs per node: 2 nodes x 4
    CHECK(runs[3].ranks_per_node == 4);
    CHECK(runs[3].environment.at("NCCL_DEBUG") == "INFO");
}

TEST_CASE("left out, the new keys take their defaults: MPI, 25 MB buckets, overlap, fp32, no target",
          "[core][plan]") {
    const RunPlan plan = parsePlanFile(SCALEBENCH_SOURCE_DIR "/resources/plans/quickstart.toml");
    const RunGroup& g = plan.groups.at(0);
    CHECK(g.backend == "mpi");
    CHECK(g.bucket_mb == 25);
    CHECK(g.overlap);
    CHECK(g.precision == "fp32");
    CHECK(g.target == 0); // Fashion-MNIST: the seed states no target for it
    CHECK(g.gpus_per_node == 0);
    CHECK(g.env.empty());
    const auto runs = expandPlan(plan);
    CHECK(runs[1].nodes == 0); // the scheduler decides
    CHECK(runs[1].ranks_per_node == 0);
}

TEST_CASE("a collective sweep reads its collectives, element types and in-place choice", "[core][plan]") {
    const std::string head = "name = \"p\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = 2\n";
    const RunGroup plain = parsePlanText(head, "plan.toml").groups.at(0);
    CHECK(plain.collectives == std::vector<std::string>{"allreduce"});
    CHECK(plain.dtypes == std::vector<std::string>{"float32"});
    CHECK(plain.in_place == "no");

    const RunGroup g = parsePlanText(head + "collectives = [\"allgather\", \"alltoall\"]\n"
                                            "dtypes = [\"bfloat16\", \"float32\"]\nin_place = \"both\"\n",
                                     "plan.toml")
                           .groups.at(0);
    CHECK(g.collectives == std::vector<std::string>{"allgather", "alltoall"});
    CHECK(g.dtypes == std::vector<std::string>{"bfloat16", "float32"});
    CHECK(g.in_place == "both");
    CHECK(parsePlanText(head + "in_place = true\n", "plan.toml").groups.at(0).in_place == "yes");
    CHECK(parsePlanText(head + "in_place = false\n", "plan.toml").groups.at(0).in_place == "no");
}

TEST_CASE("wrong values of the new keys are refused with the line, the key and what is allowed",
          "[core][plan]") {
    const std::string head = "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = 1\n";
    const std::string sweep = "name = \"p\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = 1\n";
    SECTION("an unknown backend") {
        auto e = planError(head + "backend = \"mpich\"\n");
        CHECK(e.line() == 5);
        CHECK(e.key() == "backend");
        CHECK_THAT(e.what(), Catch::Contains("plan.toml:5:") &&
                                 Catch::Contains("'backend' must be one of mpi, gloo, nccl, not 'mpich'"));
    }
    SECTION("a precision the workload does not support names what it supports") {
        auto e = planError(
            "name = \"p\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = 2\nprecision = \"bf16\"\n");
        CHECK(e.line() == 5);
        CHECK(e.key() == "precision");
        CHECK_THAT(e.what(),
                   Catch::Contains("workload 'allreduce-sweep' supports precision fp32 only, not 'bf16'"));
    }
    SECTION("a precision nobody knows") {
        CHECK_THAT(planError(head + "precision = \"fp8\"\n").what(),
                   Catch::Contains("'precision' must be one of fp32, bf16, fp16"));
    }
    SECTION("a bucket of no size") {
        auto e = planError(head + "bucket_mb = 0\n");
        CHECK(e.key() == "bucket_mb");
        CHECK_THAT(e.what(), Catch::Contains("'bucket_mb' must be a positive number"));
    }
    SECTION("overlap that is not a boolean") {
        CHECK_THAT(planError(head + "overlap = \"yes\"\n").what(),
                   Catch::Contains("'overlap' must be true or false"));
    }
    SECTION("a target accuracy above one") {
        auto e = planError(head + "target_accuracy = 80\n");
        CHECK(e.key() == "target_accuracy");
        CHECK_THAT(e.what(), Catch::Contains("fraction"));
    }
    SECTION("no GPUs per node") {
        CHECK_THAT(planError(head + "gpus_per_node = 0\n").what(),
                   Catch::Contains("'gpus_per_node' must be at least 1"));
    }
    SECTION("an environment variable name a shell would not take") {
        auto e = planError(head + "env = { \"1X\" = \"a\" }\n");
        CHECK(e.line() == 5);
        CHECK(e.key() == "env");
        CHECK_THAT(e.what(), Catch::Contains("'1X' in 'env' is not an environment variable name"));
        CHECK_THAT(planError(head + "env = { \"A B\" = \"a\" }\n").what(), Catch::Contains("'A B'"));
    }
    SECTION("an environment value that is not a string") {
        CHECK_THAT(planError(head + "env = { N = 4 }\n").what(),
                   Catch::Contains("value of N must be a string"));
    }
    SECTION("env that is not a table") {
        CHECK_THAT(planError(head + "env = \"N=4\"\n").what(), Catch::Contains("'env' must be a table"));
    }
    SECTION("a misspelt new key is suggested") {
        CHECK_THAT(planError(head + "bakend = \"nccl\"\n").what(),
                   Catch::Contains("did you mean 'backend'?"));
    }
    SECTION("sweep keys on a training workload") {
        auto e = planError(head + "collectives = [\"allreduce\"]\n");
        CHECK(e.key() == "collectives");
        CHECK_THAT(e.what(), Catch::Contains("'collectives' applies to collective sweeps only"));
    }
    SECTION("a target accuracy on a collective sweep") {
        CHECK_THAT(planError(sweep + "target_accuracy = 0.5\n").what(),
                   Catch::Contains("'target_accuracy' applies to training workloads only"));
    }
    SECTION("an unknown collective, element type or in-place choice") {
        CHECK_THAT(planError(sweep + "collectives = [\"allreduce\", \"scan\"]\n").what(),
                   Catch::Contains("'collectives' holds 'scan' (known: allreduce, allgather, reducescatter, "
                                   "broadcast, alltoall)"));
        CHECK_THAT(planError(sweep + "dtypes = [\"int8\"]\n").what(),
                   Catch::Contains("'dtypes' holds 'int8' (known: float32, float16, bfloat16)"));
        CHECK_THAT(planError(sweep + "in_place = \"sometimes\"\n").what(),
                   Catch::Contains("'in_place' must be true, false or \"both\""));
    }
    SECTION("a collective named twice, or none") {
        CHECK_THAT(planError(sweep + "collectives = [\"allreduce\", \"allreduce\"]\n").what(),
                   Catch::Contains("names 'allreduce' twice"));
        CHECK_THAT(planError(sweep + "dtypes = []\n").what(), Catch::Contains("'dtypes' is empty"));
    }
}

TEST_CASE("environment variable names are what a POSIX shell accepts", "[core][plan]") {
    for (const char* good : {"A", "_", "NCCL_DEBUG", "omp_num_threads", "X1"})
        CHECK(isEnvironmentVariableName(good));
    for (const char* bad : {"", "1X", "A-B", "A B", "A=B", "Ä"})
        CHECK_FALSE(isEnvironmentVariableName(bad));
}

TEST_CASE("the catalog groups its workloads and names the precisions each supports", "[core][plan]") {
    const WorkloadInfo* resnet = findWorkload("resnet20");
    REQUIRE(resnet);
    CHECK(resnet->group == "MLBench tasks");
    CHECK(resnet->precisions == std::vector<std::string>{"fp32", "bf16", "fp16"});
    const WorkloadInfo* sweep = findWorkload("allreduce-sweep");
    REQUIRE(sweep);
    CHECK(sweep->group == "Collectives");
    CHECK(isCollectiveSweep(*sweep));
    CHECK_FALSE(isCollectiveSweep(*resnet));
    const auto& groups = workloadGroups();
    CHECK(groups ==
          std::vector<std::string>{"MLBench tasks", "MLPerf-style", "LLM pre-training", "Collectives"});
    for (const auto& w : workloadCatalog()) {
        INFO(w.name);
        CHECK(std::find(groups.begin(), groups.end(), w.group) != groups.end());
        CHECK_FALSE(w.precisions.empty());
    }
}

TEST_CASE("runs of groups that differ only in backend or nothing at all still get names of their own",
          "[core][plan]") {
    const auto runs =
        expandPlan(parsePlanText("name = \"p\"\n"
                                 "[[run]]\nworkload = \"allreduce-sweep\"\nranks = [2]\n"
                                 "[[run]]\nworkload = \"allreduce-sweep\"\nranks = [2]\nbackend = \"gloo\"\n"
                                 "[[run]]\nworkload = \"allreduce-sweep\"\nranks = [2]\n",
                                 "p.toml"));
    REQUIRE(runs.size() == 3);
    CHECK(runs[0].name == "allreduce-sweep-none-n2-r1");
    CHECK(runs[1].name == "allreduce-sweep-none-gloo-n2-r1");
    CHECK(runs[2].name == "allreduce-sweep-none-g3-n2-r1");
}

TEST_CASE("a plan picks a workload's preset and sequence length, and a target in the workload's own metric",
          "[core][plan]") {
    const RunPlan plan = parsePlanText(R"(
name = "llm"
[[run]]
workload = "llama"
ranks = [1, 2]
preset = "7b"
seq_len = 2048
target = 3.5
peak_tflops = 989
[[run]]
workload = "llama"
ranks = [1]
[[run]]
workload = "lstm-lm"
ranks = [2]
target = 150
)",
                                       "llm.toml");
    const RunGroup& llama = plan.groups[0];
    CHECK(llama.preset == "7b");
    CHECK(llama.seq_len == 2048);
    CHECK(llama.target == 3.5);
    CHECK(llama.peak_tflops == 989);
    CHECK(plan.groups[1].peak_tflops == 0);  // the engine's table for the GPU
    CHECK(plan.groups[1].preset == "small"); // the catalog's first preset
    CHECK(plan.groups[1].seq_len == 0);      // the workload's own default
    CHECK(plan.groups[2].preset == "awd");
    const auto runs = expandPlan(plan);
    CHECK(runs[0].name == "llama-7b-synthetic-tokens-n1-r1"); // the preset names the runs
    CHECK(runs[2].name == "llama-small-synthetic-tokens-n1-r1");
    CHECK(runs[3].name == "lstm-lm-awd-synthetic-text-n2-r1");
}

TEST_CASE("a plan refuses a preset, sequence length, target or peak where they do not apply",
          "[core][plan]") {
    const std::string head = "name = \"p\"\n[[run]]\nworkload = \"llama\"\nranks = [1]\n";
    CHECK_THAT(planError(head + "preset = \"8b\"\n").what(),
               Catch::Contains("'preset'") && Catch::Contains("'8b'") &&
                   Catch::Contains("small, tiny, 1b, 7b, 13b, 70b"));
    CHECK_THAT(planError(head + "target = -1\n").what(),
               Catch::Contains("a target is more than 0 (0: none)"));
    CHECK_THAT(planError(head + "peak_tflops = -1\n").what(),
               Catch::Contains("'peak_tflops' must be a positive number"));
    CHECK_THAT(
        planError("name = \"p\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = [2]\npeak_tflops = 989\n")
            .what(),
        Catch::Contains("'peak_tflops' applies to training workloads only"));
    CHECK_THAT(planError(head + "target_accuracy = 0.5\n").what(),
               Catch::Contains("'llama' is evaluated by loss, not accuracy: use 'target'"));
    const std::string resnet = "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1]\n";
    CHECK_THAT(planError(resnet + "preset = \"tiny\"\n").what(),
               Catch::Contains("'preset' applies to workloads with presets only"));
    CHECK_THAT(planError(resnet + "seq_len = 128\n").what(),
               Catch::Contains("'seq_len' applies to sequence workloads only"));
}

// `target = 50` for ResNet-20 (whose runs print "acc 59.5%") was taken as a fraction and
// never reached; `target = 0.5` stopped early. The target is now in the unit the console shows.
TEST_CASE("a target is in the unit the console shows its metric in, and one outside the metric's range is "
          "refused",
          "[core][plan]") {
    const std::string resnet = "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1]\n";
    CHECK(parsePlanText(resnet + "target = 50\n", "p.toml").groups[0].target == 50); // 50 %

    SECTION("an accuracy target written as a fraction") {
        const PlanError e = planError(resnet + "target = 0.5\n");
        CHECK(e.key() == "target");
        CHECK_THAT(e.what(), Catch::Contains("in percent") && Catch::Contains("write 50 for 50 %"));
    }
    SECTION("an accuracy above 100 %, a BLEU above 100, a perplexity of 1 or less, a negative loss") {
        CHECK_THAT(planError(resnet + "target = 101\n").what(), Catch::Contains("at most 100"));
        CHECK_THAT(
            planError("name = \"p\"\n[[run]]\nworkload = \"gnmt\"\nranks = [1]\ntarget = 120\n").what(),
            Catch::Contains("a BLEU target is at most 100"));
        CHECK_THAT(
            planError("name = \"p\"\n[[run]]\nworkload = \"lstm-lm\"\nranks = [1]\ntarget = 0.9\n").what(),
            Catch::Contains("a perplexity target is more than 1"));
        CHECK_THAT(
            planError("name = \"p\"\n[[run]]\nworkload = \"llama\"\nranks = [1]\ntarget = -2\n").what(),
            Catch::Contains("more than 0"));
    }
    SECTION("the old key is read as the new one, with a warning naming both") {
        const RunPlan plan = parsePlanText(resnet + "target_accuracy = 0.8\n", "p.toml");
        CHECK(plan.groups[0].target == Approx(80));
        REQUIRE(plan.warnings.size() == 1);
        CHECK_THAT(plan.warnings[0], Catch::StartsWith("p.toml:5: in [[run]] #1: ") &&
                                         Catch::Contains("'target_accuracy = 0.8' is the old form of "
                                                         "'target = 80'"));
        CHECK_THAT(planError(resnet + "target_accuracy = 0.8\ntarget = 80\n").what(),
                   Catch::Contains("not both"));
    }
}

TEST_CASE("left out, a target is the one the workload's seed states for its data set, and 0 turns it off",
          "[core][plan]") {
    const auto targetOf = [](const std::string& workload, const std::string& dataset,
                             const std::string& extra = "") {
        return parsePlanText("name = \"p\"\n[[run]]\nworkload = \"" + workload + "\"\ndataset = \"" +
                                 dataset + "\"\nranks = [1]\n" + extra,
                             "p.toml")
            .groups[0]
            .target;
    };
    CHECK(targetOf("resnet20", "cifar10") == 80);      // task 1a: "Time to Accuracy of 80%"
    CHECK(targetOf("lstm-lm", "wikitext2") == 70);     // task 3a: "Time to Perplexity of 70"
    CHECK(targetOf("gnmt", "wmt") == 24);              // task 4a: "BLEU-Score of 24.0"
    CHECK(targetOf("transformer", "wmt") == 25);       // task 4b: "BLEU-Score of 25.0"
    CHECK(targetOf("resnet20", "fashion-mnist") == 0); // no seed target for this data set
    CHECK(targetOf("transformer", "synthetic-parallel") == 0);
    CHECK(targetOf("resnet20", "cifar10", "target = 0\n") == 0); // run all steps
}

TEST_CASE("a plan names its data set's folder, a global batch and epochs, and takes the seed's evaluation "
          "defaults",
          "[core][plan][plankeys]") {
    const RunPlan plan = parsePlanText(R"(name = "p"
[[run]]
workload = "resnet20"
dataset = "cifar10"
data_dir = "/data/cifar-10-batches-bin"
ranks = [1, 2, 8]
global_batch = 1024
epochs = 164
[[run]]
workload = "logistic-regression"
ranks = [1]
)",
                                       "plan.toml");
    const RunGroup& resnet = plan.groups[0];
    CHECK(resnet.data_dir == "/data/cifar-10-batches-bin");
    CHECK(resnet.global_batch == 1024);
    CHECK(resnet.batch_per_rank ==
          128); // the most a micro-batch holds: 1024 = 1 x 8 x 128, 2 x 4 x 128, 8 x 1 x 128
    CHECK(resnet.epochs == 164);
    CHECK(resnet.eval_every == -1);  // MLBench task 1: after each epoch
    CHECK(resnet.eval_samples == 0); // the whole test set
    const RunGroup& logistic = plan.groups[1];
    CHECK(logistic.data_dir.empty()); // the cluster's data_root/<dataset>
    CHECK(logistic.global_batch == 0);
    CHECK(logistic.epochs == 0);
    CHECK(logistic.eval_every == -1);  // task 2: after each epoch
    CHECK(logistic.eval_samples == 0); // the whole test set
}

TEST_CASE(
    "a plan refuses steps with epochs, a global batch that does not split evenly, and an empty data_dir",
    "[core][plan][plankeys]") {
    const std::string head = "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 3]\n";
    CHECK_THAT(planError(head + "steps = 10\nepochs = 2\n").what(),
               Catch::Contains("'epochs' and 'steps' both say how long to train"));
    // 3 ranks x at most 128: accumulation 3 makes 9 micro-batches, and 1000 is not 9 equal ones.
    CHECK_THAT(planError(head + "global_batch = 1000\n").what(),
               Catch::Contains("'global_batch'") && Catch::Contains("global_batch 1000 over 3 ranks") &&
                   Catch::Contains("batch_per_rank at most 128") && Catch::Contains("accumulation 3"));
    CHECK_THAT(planError(head + "global_batch = 2\n").what(), Catch::Contains("fewer samples than ranks"));
    CHECK_THAT(planError(head + "data_dir = \"\"\n").what(), Catch::Contains("'data_dir' must not be empty"));
    CHECK_THAT(planError(head + "eval_every = -2\n").what(), Catch::Contains("eval_every"));
    CHECK_THAT(
        planError("name = \"p\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = [2]\nglobal_batch = 8\n")
            .what(),
        Catch::Contains("'global_batch' applies to training workloads only"));
}

// Seed 000's configs change the per-GPU batch with the GPU count (config_1cc_1x8x48x1 ... 8x8x36x1): one
// group, one series, a batch per rank count.
TEST_CASE("a batch per rank count gives each run its own batch and keeps the group one series",
          "[core][plan]") {
    const RunPlan plan = parsePlanText("name = \"p\"\n[[run]]\nworkload = \"bert\"\nranks = [8, 16, 32, 64]\n"
                                       "batch_per_rank = [48, 24, 12, 36]\n",
                                       "p.toml");
    const auto runs = expandPlan(plan);
    REQUIRE(runs.size() == 4);
    CHECK(runs[0].group.batch_per_rank == 48);
    CHECK(runs[3].group.batch_per_rank == 36);
    CHECK(runs[1].group.batch_per_rank_by_ranks == std::vector<int>{48, 24, 12, 36});
    CHECK(parsePlanText(writePlanToml(plan), "again.toml").groups ==
          plan.groups); // the writer keeps the list
    CHECK_THAT(
        planError("name = \"p\"\n[[run]]\nworkload = \"bert\"\nranks = [8, 16]\nbatch_per_rank = [48]\n")
            .what(),
        Catch::Contains("one batch per entry of 'ranks': 1 for 2 rank counts"));
}

TEST_CASE("a preset the data-parallel engine cannot hold is refused with the reason", "[core][plan]") {
    const std::string head = "name = \"p\"\n[[run]]\nworkload = \"llama\"\nranks = [8]\n";
    for (const char* preset : {"13b", "70b"}) {
        const PlanError e = planError(head + "preset = \"" + preset + "\"\n");
        CHECK(e.key() == "preset");
        CHECK_THAT(e.what(), Catch::Contains("FSDP") && Catch::Contains("16 bytes a parameter"));
    }
    CHECK(parsePlanText(head + "preset = \"7b\"\n", "p.toml").groups[0].preset == "7b"); // fits an H200
}

// Found by fuzz_plan_text (fuzz/regressions/plan_text/billion-repeats): a typo'd repeat count expanded to a
// billion runs and took all memory before anything was said.
TEST_CASE("a plan of more runs than a session can follow is refused at its repeats, before it is expanded",
          "[core][plan]") {
    CHECK_THROWS_WITH(parsePlanText("name = \"p\"\nrepeats = 1111111110\n[[run]]\nworkload = \"resnet20\"\n"
                                    "ranks = [1, 2]\n",
                                    "p.toml"),
                      Catch::StartsWith("p.toml:2:") && Catch::Contains("2 run(s) x 1111111110 repeat(s)") &&
                          Catch::Contains("more than 100000 runs"));
    CHECK(expandPlan(parsePlanText("name = \"p\"\nrepeats = 1000\n[[run]]\nworkload = \"resnet20\"\n"
                                   "ranks = [1, 2]\n",
                                   "p.toml"))
              .size() == 2000);
}

TEST_CASE("check_device = true makes a group's runs check their device instead of training", "[core][plan]") {
    const RunPlan plan = parsePlanText("name = \"p\"\n[[run]]\nworkload = \"llama\"\nranks = [1, 2]\n"
                                       "check_device = true\n\n[[run]]\nworkload = \"resnet20\"\nranks = 1\n",
                                       "plan.toml");
    CHECK(plan.groups[0].check_device);
    CHECK_FALSE(plan.groups[1].check_device); // left out: train
    const auto runs = expandPlan(plan);
    REQUIRE(runs.size() == 3);
    // Passed to the engine as every plan key is, the default too, so that a stored command line says which.
    const auto valueOf = [](const std::vector<std::string>& words, const std::string& option) {
        const auto it = std::find(words.begin(), words.end(), option);
        return it != words.end() && it + 1 != words.end() ? *(it + 1) : std::string("(absent)");
    };
    CHECK(valueOf(engineArguments(runs[0], "engine", "m.jsonl"), "--check-device") == "yes");
    CHECK(valueOf(engineArguments(runs[2], "engine", "m.jsonl"), "--check-device") == "no");
}

TEST_CASE(
    "check_device is refused, by line and key, where no training runs: a sweep, a command, an MLPerf log",
    "[core][plan]") {
    CHECK_THAT(planError("name = \"p\"\n[[run]]\nworkload = \"allreduce-sweep\"\nranks = [2]\n"
                         "check_device = true\n")
                   .what(),
               Catch::StartsWith("plan.toml:5:") &&
                   Catch::Contains("'check_device' applies to training workloads only, and 'allreduce-sweep' "
                                   "is not one"));
    CHECK_THAT(planError("name = \"p\"\n[[run]]\ncommand = \"osu_allreduce\"\nformat = \"osu\"\nranks = 1\n"
                         "check_device = true\n")
                   .what(),
               Catch::StartsWith("plan.toml:6:") &&
                   Catch::Contains("'check_device' is a setting of the engine's workloads"));
    CHECK_THAT(planError("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1]\nmllog = true\n"
                         "check_device = true\n")
                   .what(),
               Catch::StartsWith("plan.toml:5:") &&
                   Catch::Contains("'mllog' and 'check_device' do not go together"));
    CHECK_THAT(
        planError("name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1]\ncheck_device = \"yes\"\n")
            .what(),
        Catch::StartsWith("plan.toml:5:") && Catch::Contains("check_device"));
}
