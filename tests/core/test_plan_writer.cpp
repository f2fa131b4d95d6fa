// Specification of the plan writer: a plan written as TOML reads back to the same plan, with only the keys
// that differ from their defaults.
#include "option_values.h"
#include "plan_writer.h"
#include "run_plan.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {
void requireSamePlan(const RunPlan& a, const RunPlan& b) {
    CHECK(a.name == b.name);
    CHECK(a.description == b.description);
    CHECK(a.repeats == b.repeats);
    REQUIRE(a.groups.size() == b.groups.size());
    for (std::size_t i = 0; i < a.groups.size(); ++i) {
        INFO("group " << i);
        CHECK(a.groups[i] == b.groups[i]);
    }
}

RunPlan roundTrip(const RunPlan& plan) {
    const std::string text = writePlanToml(plan);
    INFO(text);
    return parsePlanText(text, "written.toml");
}

// A group as the parser fills it in for a workload: the workload's reference values.
RunGroup groupFor(const std::string& workload, std::vector<int> ranks) {
    const RunPlan plan =
        parsePlanText("name = \"x\"\n[[run]]\nworkload = \"" + workload + "\"\nranks = 1\n", "defaults.toml");
    RunGroup g = plan.groups.at(0);
    g.ranks = std::move(ranks);
    return g;
}
} // namespace

TEST_CASE("a plan of defaults is written as its name, workload and ranks only", "[core][plan]") {
    RunPlan plan;
    plan.name = "minimal";
    plan.groups = {groupFor("resnet20", {1, 2})};
    const std::string text = writePlanToml(plan);
    CHECK_THAT(text, Catch::StartsWith("# scalebench plan"));
    CHECK_THAT(text,
               Catch::Contains("name = \"minimal\"\n\n[[run]]\nworkload = \"resnet20\"\nranks = [1, 2]\n"));
    CHECK_THAT(text, !Catch::Contains("backend") && !Catch::Contains("repeats") &&
                         !Catch::Contains("dataset") && !Catch::Contains("batch_per_rank") &&
                         !Catch::Contains("lr"));
    requireSamePlan(roundTrip(plan), plan);
}

TEST_CASE("every key of a training group survives a write and a read", "[core][plan]") {
    RunPlan plan;
    plan.name = "all \"keys\" \\ here";
    plan.description = "line one\nline two\ttabbed, and é";
    plan.repeats = 3;
    RunGroup g = groupFor("resnet20", {1, 2, 4, 8});
    g.dataset = "synthetic-cifar";
    g.steps = 321;
    g.batch_per_rank = 64;
    g.lr = 0.1;
    g.warmup_steps = 7;
    g.eval_every = 50;
    g.eval_samples = 500;
    g.threads_per_rank = 3;
    g.seed = 42;
    g.backend = "gloo";
    g.bucket_mb = 12.5;
    g.overlap = false;
    g.precision = "bf16";
    g.target = 91.5;
    g.gpus_per_node = 4;
    g.mllog = true;
    g.env = {{"NCCL_DEBUG", "INFO"}, {"QUOTED", "a \"b\" $c 'd'"}, {"_x1", ""}};
    plan.groups = {g};
    const RunPlan back = roundTrip(plan);
    requireSamePlan(back, plan);
    CHECK(back.groups[0].lr == 0.1); // bit for bit
}

namespace {
using engine_cli::Kind;

// `plan.name = ...` cannot be written inside a macro whose parameter is `name`.
RunPlan planNamed(const std::string& title) {
    RunPlan plan;
    plan.name = title;
    return plan;
}

// Where a plan key is at home: the collective sweep's keys on allreduce-sweep, a model's size and sequence on
// llama, every other key on resnet20.
std::string workloadFor(const std::string& key) {
    for (const char* sweep : {"sweep_points", "sweep_max_log10", "repetitions", "warmup_iterations",
                              "collectives", "dtypes", "ops", "in_place"})
        if (key == sweep) return "allreduce-sweep";
    return key == "preset" || key == "seq_len" ? "llama" : "resnet20";
}

// A value of the row's kind that its workload accepts and that is not what the plan reader gives without the
// key: the workload's own catalogue values for the keys that name one, a global batch that splits.
template <Kind K>
engine_cli::Value<K> changed(const std::string& key, const engine_cli::Value<K>& value,
                             const std::string& accepts) {
    if constexpr (K == Kind::Text) {
        if (key == "dataset") return "synthetic-cifar";
        if (key == "preset") return "7b";
    } else if constexpr (K == Kind::Int) {
        if (key == "global_batch") return 1024; // resnet20: 128 a rank, 2 ranks, 4 micro-batches
    }
    return testing::otherThan<K>(value, accepts);
}
} // namespace

TEST_CASE("every plan key of the engine's option table is written when set and reads back as set",
          "[core][plan]") {
    // One plan a key, each key away from what the reader fills in without it: a key that the writer leaves
    // out, or that the reader ignores, reads back as the value it would have had without its line. (The
    // workload is the one key a [[run]] cannot be without: the first test shows it written.)
#define SCALEBENCH_ROUND_TRIP(name, kind, accepts, scope, help, ...)                                         \
    if (std::string(#name) != "workload") {                                                                  \
        INFO(#name);                                                                                         \
        RunPlan plan = planNamed(#name);                                                                     \
        RunGroup g = groupFor(workloadFor(#name), {2});                                                      \
        const RunGroup without = g;                                                                          \
        g.name = changed<Kind::kind>(#name, g.name, accepts);                                                \
        REQUIRE_FALSE(g.name == without.name);                                                               \
        plan.groups = {g};                                                                                   \
        const std::string text = writePlanToml(plan);                                                        \
        INFO(text);                                                                                          \
        CHECK_THAT(text, Catch::Contains("\n" #name " = "));                                                 \
        const RunPlan back = roundTrip(plan);                                                                \
        REQUIRE(back.groups.size() == 1);                                                                    \
        CHECK(back.groups[0].name == g.name);                                                                \
        CHECK(back.groups[0] == g);                                                                          \
    }
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_ROUND_TRIP)
#undef SCALEBENCH_ROUND_TRIP
}

TEST_CASE("a workload's preset, sequence length and target survive a write and a read", "[core][plan]") {
    RunPlan plan;
    plan.name = "llm";
    RunGroup g;
    g.workload = "llama";
    g.dataset = "synthetic-tokens";
    g.ranks = {1, 2};
    g.batch_per_rank = 4;
    g.lr = 3e-4;
    g.preset = "7b";
    g.seq_len = 1024;
    g.target = 2.75;
    RunGroup tiny = g;
    tiny.preset = "small"; // the default preset: left out, and read back as it
    tiny.seq_len = 0;
    tiny.target = 0;
    plan.groups = {g, tiny};
    requireSamePlan(roundTrip(plan), plan);
    CHECK(writePlanToml(plan).find("preset = \"small\"") == std::string::npos);
}

TEST_CASE("a device self-check group is written with check_device = true and reads back as one",
          "[core][plan]") {
    RunPlan plan;
    plan.name = "check the nodes";
    RunGroup check = groupFor("llama", {1, 8});
    check.check_device = true;
    plan.groups = {check, groupFor("llama", {8})};
    const std::string text = writePlanToml(plan);
    CHECK_THAT(text, Catch::Contains("ranks = [1, 8]\ncheck_device = true\n"));
    CHECK(text.find("check_device") == text.rfind("check_device")); // left out where it is the default
    const RunPlan back = roundTrip(plan);
    requireSamePlan(back, plan);
    CHECK(back.groups[0].check_device);
    CHECK_FALSE(back.groups[1].check_device);
}

TEST_CASE("every key of a collective sweep survives a write and a read, next to a training group",
          "[core][plan]") {
    RunPlan plan;
    plan.name = "sweeps";
    RunGroup s = groupFor("allreduce-sweep", {2, 4});
    s.sweep_points = 20;
    s.sweep_max_log10 = 6.5;
    s.repetitions = 10;
    s.warmup_iterations = 2;
    s.collectives = {"allgather", "reducescatter", "broadcast", "alltoall", "allreduce"};
    s.dtypes = {"float16", "bfloat16"};
    s.ops = {"avg", "sum"};
    s.backend = "nccl";
    for (const char* in_place : {"yes", "no", "both"}) {
        s.in_place = in_place;
        plan.groups = {groupFor("resnet20", {1}), s};
        requireSamePlan(roundTrip(plan), plan);
    }
}

TEST_CASE("numbers are written so that they read back exactly", "[core][plan]") {
    RunPlan plan;
    plan.name = "numbers";
    RunGroup g = groupFor("resnet20", {1});
    for (double lr : {1e-5, 0.3, 1.0 / 3, 2.0, 123456.789, 1e20}) {
        g.lr = lr;
        plan.groups = {g};
        CHECK(roundTrip(plan).groups.at(0).lr == lr);
    }
}

TEST_CASE("a value the parser refuses is written as it is, so that the parser names it", "[core][plan]") {
    RunPlan plan;
    plan.name = "bad";
    RunGroup g = groupFor("resnet20", {1});
    g.env = {{"1BAD NAME", "x"}};
    plan.groups = {g};
    const std::string text = writePlanToml(plan);
    CHECK_THAT(text, Catch::Contains("env = { \"1BAD NAME\" = \"x\" }"));
    CHECK_THROWS_WITH(parsePlanText(text, "bad.toml"), Catch::Contains("'1BAD NAME' in 'env'"));
}

TEST_CASE("the example plans read back to themselves after a write", "[core][plan]") {
    for (const char* file : {"/resources/plans/quickstart.toml", "/resources/plans/allreduce-sweep.toml",
                             "/resources/plans/nccl-tests-gpu-cluster.toml",
                             "/resources/plans/osu-allreduce.toml", "/tests/data/two_ranks.toml"}) {
        INFO(file);
        const RunPlan plan = parsePlanFile(std::string(SCALEBENCH_SOURCE_DIR) + file);
        requireSamePlan(roundTrip(plan), plan);
    }
}

TEST_CASE(
    "a group's data folder, global batch and epochs survive a write and a read, and epochs stand instead of "
    "steps",
    "[core][plan][plankeys]") {
    RunPlan plan;
    plan.name = "seed 004 task 1";
    RunGroup g = groupFor("resnet20", {1, 2, 8});
    g.dataset = "cifar10";
    g.data_dir = "cifar-10-batches-bin";
    g.global_batch = 1024;
    g.epochs = 164;
    g.eval_every = -1;
    g.eval_samples = 0;
    plan.groups = {g};
    const std::string toml = writePlanToml(plan);
    CHECK(toml.find("steps") == std::string::npos);      // a plan with both is refused
    CHECK(toml.find("eval_every") == std::string::npos); // the catalog's: after each epoch
    requireSamePlan(roundTrip(plan), plan);
}
