// Specification of the figures' registry: one row per figure, read the same by Compare, the verdicts and the
// plan reader's [[reference]] figures.
#include "figure_registry.h"
#include "results_table.h"
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

TEST_CASE("the terminal's table and results.csv name and round their figures as the registry's rows say",
          "[core][figures]") {
    std::set<std::string_view> csv_names;
    for (const FigureStyle& f : figureStyles()) {
        INFO(f.label);
        CHECK_FALSE(f.terse.empty());
        CHECK(f.terse_decimals >= 0);
        CHECK(csv_names.insert(f.csv).second); // one CSV column per figure
    }
    RunResult r{"r-n1", "resnet20", "synthetic", 1, 1, RunStatus::Ok, "", {}};
    r.figures.steady_steps = 10;
    r.figures.samples_per_s = 1234.5678;
    r.figures.breakdown = {0.0123456, 0.001, 0.004, 0.006, 0.0004, 0.001};
    r.figures.final_loss = 0.123456;
    const std::string table = formatResultsTable({r});
    // The header's figure columns are the rows' terse names, in the order the cells come.
    const std::vector<std::string> headers = resultsFigureHeaders();
    CHECK(headers.front() == terse(Figure::SamplesPerS));
    std::size_t at = 0;
    for (const std::string& header : headers) {
        INFO(header);
        at = table.find(header, at);
        CHECK(at != std::string::npos);
    }
    // The cells take the rows' terse decimals: one for samples/s and the step's parts in ms, four for a loss.
    const std::vector<std::string> cells = resultsFigureCells(r, runScaling({r}).front());
    REQUIRE(cells.size() == headers.size());
    CHECK(cells[0] == terseValue(Figure::SamplesPerS, 1234.5678));
    CHECK(cells[0] == "1234.6");
    CHECK(cells[1] == "12.3");
    CHECK(cells[10] == "0.1235");
    CHECK_THAT(table, Catch::Contains(" 1234.6 ") && Catch::Contains(" 0.1235 "));
    // results.csv: the figures' columns by their rows' CSV names, times in seconds.
    const std::string csv = resultsCsv({r});
    for (Figure f : {Figure::SamplesPerS, Figure::StepTime, Figure::Forward, Figure::ExposedCommunication,
                     Figure::Speedup, Figure::Efficiency, Figure::FinalLoss, Figure::CommunicationShare})
        CHECK_THAT(csv.substr(0, csv.find('\n')), Catch::Contains("," + csvColumn(f) + ","));
}
