// Specification of the figures not to take at face value: the baseline's repeats read
// 1.00x, and efficiency above 100 %, ranks sharing cores, a repeat far from its siblings and too few steps
// each come with their reason, in the results table too.
#include "figure_cautions.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

RunResult run(int ranks, int repeat, double samples_per_s, int steady_steps = 50) {
    RunResult r;
    r.name = "resnet20-n" + std::to_string(ranks) + "-r" + std::to_string(repeat);
    r.workload = "resnet20";
    r.dataset = "fashion-mnist";
    r.ranks = ranks;
    r.repeat = repeat;
    r.status = RunStatus::Ok;
    r.figures.steady_steps = steady_steps;
    r.figures.samples_per_s = samples_per_s;
    r.figures.breakdown.step_s = 0.1;
    r.placement = {ranks, 16, 1}; // every rank on one host of 16 CPUs, one thread each
    return r;
}

std::vector<std::string> shortTexts(const std::vector<FigureCaution>& cautions) {
    std::vector<std::string> out;
    for (const FigureCaution& c : cautions)
        out.push_back(c.short_text);
    return out;
}

} // namespace

TEST_CASE("the baseline's repeats read 1.00x and 100 %, never 0.98x and 102 %", "[core][cautions]") {
    // The quickstart with repeats = 2: 1-rank runs at 830 and 864 samples/s were 0.98x and 1.02x.
    const std::vector<RunResult> results = {run(1, 1, 830), run(1, 2, 864), run(2, 1, 1600), run(2, 2, 1620)};
    const std::vector<RunScaling> scaling = runScaling(results);
    CHECK(scaling[0].speedup == 1.0);
    CHECK(scaling[1].speedup == 1.0);
    CHECK(scaling[1].efficiency == 1.0);
    CHECK(scaling[2].speedup == Approx(1600 / 847.0));
    CHECK(figureCautions(results) == std::vector<std::vector<FigureCaution>>(4)); // nothing to question here
}

TEST_CASE("efficiency above 100 % says whether it is the repeats' noise or more than the ranks can give",
          "[core][cautions]") {
    SECTION("within the noise: 1-rank repeats far apart, 2 ranks a little above twice their mean") {
        const auto cautions =
            figureCautions({run(1, 1, 800), run(1, 2, 880), run(1, 3, 840), run(2, 1, 1700)});
        REQUIRE(cautions[3].size() == 1);
        CHECK(cautions[3][0].figure == "efficiency");
        CHECK(cautions[3][0].short_text == "above 100 %: noise");
        CHECK_THAT(cautions[3][0].reason, Catch::Contains("efficiency 101 %") && Catch::Contains("noise"));
    }
    SECTION("beyond it: 2.4x at 2 ranks from steady 1-rank runs (the README's old Scaling screenshot)") {
        const auto cautions =
            figureCautions({run(1, 1, 400), run(1, 2, 401), run(1, 3, 399), run(2, 1, 960), run(2, 2, 962)});
        REQUIRE(cautions[3].size() == 1);
        CHECK(cautions[3][0].short_text == "above 100 %");
        CHECK_THAT(cautions[3][0].reason,
                   Catch::Contains("efficiency 120 %") &&
                       Catch::Contains("cannot give more than 2 times the throughput of 1 rank"));
    }
}

TEST_CASE("ranks sharing cores, a repeat far from its siblings and too few steps are each named",
          "[core][cautions]") {
    RunResult crowded = run(2, 1, 1000);
    crowded.placement = {2, 2, 2}; // 2 ranks x 2 threads on 2 CPUs
    auto cautions = figureCautions({crowded});
    REQUIRE(cautions[0].size() == 1);
    CHECK(
        cautions[0][0].reason ==
        "2 ranks x 2 threads on 2 CPUs of one host: ranks share cores, so the figure measures CPU contention "
        "more than scaling");

    // 5 repeats, one 20 % slow: beyond max(3 x 1.4826 x MAD, 5 %) of the median.
    cautions =
        figureCautions({run(4, 1, 1000), run(4, 2, 1010), run(4, 3, 990), run(4, 4, 1005), run(4, 5, 800)});
    for (int i = 0; i < 4; ++i)
        CHECK(cautions[static_cast<std::size_t>(i)].empty());
    CHECK(shortTexts(cautions[4]) == std::vector<std::string>{"far from its repeats"});
    CHECK_THAT(cautions[4][0].reason, Catch::Contains("-20 % from the median of its 5 repeats"));

    // 2 repeats 25 % apart: both flagged, 2 cannot say which is off; 5 % apart: neither.
    cautions = figureCautions({run(4, 1, 1000), run(4, 2, 800)});
    CHECK(shortTexts(cautions[0]) == std::vector<std::string>{"repeats disagree"});
    CHECK(shortTexts(cautions[1]) == std::vector<std::string>{"repeats disagree"});
    CHECK(figureCautions({run(4, 1, 1000), run(4, 2, 950)})[0].empty());

    cautions = figureCautions({run(1, 1, 500, 4)});
    CHECK(shortTexts(cautions[0]) == std::vector<std::string>{"few steps"});
    CHECK_THAT(cautions[0][0].reason, Catch::Contains("only 4 steady-state steps"));

    SECTION("the terminal's results table says them under the run") {
        const std::string table = formatResultsTable({crowded});
        CHECK_THAT(table, Catch::Contains("    caution: 2 ranks x 2 threads on 2 CPUs of one host"));
        CHECK_THAT(table, Catch::Contains("(N0's own runs: 1.00x)"));
    }
}

TEST_CASE("a scaling point carries its runs' cautions, each reason once", "[core][cautions]") {
    RunResult crowded_a = run(2, 1, 960), crowded_b = run(2, 2, 962);
    crowded_a.placement = crowded_b.placement = {2, 2, 2};
    const std::vector<RunResult> results = {run(1, 1, 400), run(1, 2, 401), run(1, 3, 399), crowded_a,
                                            crowded_b};
    std::vector<ScalingPoint> points = sessionScaling(results);
    attachCautions(points, results);
    REQUIRE(points.size() == 2);
    CHECK(points[0].cautions.empty());
    // Efficiency 120 % beyond the noise and the cores shared, said by both runs in the same words: once each.
    REQUIRE(points[1].cautions.size() == 2);
    CHECK_THAT(points[1].cautions[0], Catch::Contains("beyond the repeats' noise"));
    CHECK_THAT(points[1].cautions[1], Catch::StartsWith("2 ranks x 2 threads on 2 CPUs"));
}

TEST_CASE("an MFU above 100 % is named, a possible one is not", "[core][cautions]") {
    // MaxText's recipe log read with its first step (compilation) among the steps: 523 % of the peak.
    RunResult first_step{"llama", "maxtext", "", 64, 1, RunStatus::Ok, "", {}};
    first_step.figures.steady_steps = 1;
    first_step.figures.mfu = 5.23;
    RunResult steady = first_step;
    steady.name = "llama-steady";
    steady.figures.mfu = 0.4654;
    const auto cautions = figureCautions({first_step, steady});
    REQUIRE(cautions[0].size() == 1);
    CHECK(cautions[0][0].figure == "MFU");
    CHECK_THAT(cautions[0][0].reason, Catch::StartsWith("MFU 523 % is above 100 %"));
    CHECK(cautions[1].empty());
}
