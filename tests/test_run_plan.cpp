// Specification of plans: TOML in, runs out; every mistake named by file, line and key.
#include "run_plan.h"

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
        CHECK_THAT(e.what(),
                   Catch::Contains("unknown workload 'resnet2000' (known: resnet20, allreduce-sweep)"));
    }
    SECTION("a data set the workload does not have") {
        auto e = planError(head + "ranks = 1\ndataset = \"imagenet\"\n");
        CHECK_THAT(e.what(), Catch::Contains("has no dataset 'imagenet'"));
    }
    SECTION("no runs at all") {
        CHECK_THAT(planError("name = \"p\"\n").what(), Catch::Contains("no [[run]] table"));
    }
    SECTION("no name") {
        CHECK_THAT(planError("[[run]]\nworkload = \"resnet20\"\nranks = 1\n").what(),
                   Catch::Contains("missing key 'name'"));
    }
}

TEST_CASE("text that is not TOML is refused with the line of the problem", "[core][plan]") {
    auto e = planError("name = \"p\"\n\n[[run]\n");
    CHECK(e.line() == 3);
    CHECK_THAT(e.what(), Catch::StartsWith("plan.toml:3: not valid TOML"));
}

TEST_CASE("a missing plan file is named", "[core][plan]") {
    CHECK_THROWS_WITH(parsePlanFile("/nonexistent/plan.toml"), Catch::Contains("/nonexistent/plan.toml"));
}
