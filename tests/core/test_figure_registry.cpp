// Specification of the figures' registry: one row per figure, read the same by Compare, the verdicts and the
// plan reader's [[reference]] figures.
#include "figure_registry.h"
#include "run_plan.h"
#include "session_comparison.h"
#include "verdicts.h"

#include <catch2/catch.hpp>
#include <set>

using namespace scalebench;

TEST_CASE("every figure has one row: a label, its unit, a direction and decimals, in the enum's order",
          "[core][figures]") {
    const auto& styles = figureStyles();
    std::set<std::string_view> labels;
    for (std::size_t i = 0; i < styles.size(); ++i) {
        CHECK(static_cast<std::size_t>(styles[i].figure) == i);
        CHECK(labels.insert(styles[i].label).second); // no two rows name the same figure
        CHECK(styles[i].decimals >= 0);
    }
    CHECK(figureHeader(Figure::StepTime) == "step time (ms)");
    CHECK(figureHeader(Figure::SamplesPerS) == "samples/s"); // the unit is the label: said once
    CHECK(figureHeader(Figure::FinalLoss) == "final loss");  // no unit
}

TEST_CASE("a [[reference]] names a figure by the registry's reference name, in the registry's unit",
          "[core][figures]") {
    std::vector<std::string> names;
    for (const FigureStyle& f : referenceFigures())
        names.emplace_back(f.reference);
    CHECK(names == std::vector<std::string>{"samples_per_s", "tokens_per_s", "step_time_ms",
                                            "time_to_target_s", "time_to_train_min", "mfu", "efficiency",
                                            "busbw_gbps"});
    const std::string plan = "name = \"p\"\n[[run]]\nworkload = \"resnet20\"\nranks = [1]\n"
                             "[[reference]]\nworkload = \"resnet20\"\nfigure = \"step_time_ms\"\nvalue = 30\n"
                             "upper = 0.1\nunit = \"s\"\n";
    CHECK_THROWS_WITH(parsePlanText(plan, "p.toml"), Catch::Contains("'step_time_ms' is in ms, not 's'"));
}

TEST_CASE("Compare's figures carry their row's decimals and direction", "[core][figures]") {
    RunResult r{"r-n1", "resnet20", "synthetic", 1, 1, RunStatus::Ok, "", {}};
    r.figures.steady_steps = 10;
    r.figures.samples_per_s = 1000;
    r.figures.breakdown.step_s = 0.128;
    r.figures.final_loss = 0.5;
    for (const FigureComparison& f : compareFigures({r}, {r})) {
        INFO(f.figure);
        if (f.figure == "samples/s") CHECK(f.decimals == figureStyle(Figure::SamplesPerS).decimals);
        if (f.figure == "step time") CHECK((f.unit == "ms" && f.better == Better::Lower && f.decimals == 2));
        if (f.figure == "final loss") CHECK(f.decimals == 4);
    }
}
