// MLPerf Training's score of a benchmark over repeats: the olympic average with the rules' run counts, as
// mlperf-logging 4.1.68's result summarizer computes it (expected values are that summarizer's own
// _compute_olympic_average on the same times), and the time-to-train speedup across GPU counts.
#include "mlperf_score.h"
#include "results_table.h"
#include "session_comparison.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace scalebench;

namespace {
std::vector<MlperfRun> converged(std::vector<double> minutes) {
    std::vector<MlperfRun> runs;
    for (double m : minutes)
        runs.push_back({m, true});
    return runs;
}
std::vector<double> oneTo(int n) {
    std::vector<double> v;
    for (int i = 1; i <= n; ++i)
        v.push_back(i);
    return v;
}
} // namespace

TEST_CASE("the rules' run counts: resnet 5, bert 10, llama2_70b_lora 10, gpt3 3, unet3d 40 dropping 4 a side",
          "[mlperf]") {
    CHECK(mlperfRunCount("resnet")->required == 5);
    CHECK(mlperfRunCount("bert")->required == 10);
    CHECK(mlperfRunCount("llama2_70b_lora")->required == 10);
    CHECK(mlperfRunCount("stable_diffusion")->required == 10);
    CHECK(mlperfRunCount("gpt3")->required == 3);
    CHECK(mlperfRunCount("bert")->dropped_each_side == 1);
    CHECK(mlperfRunCount("unet3d")->required == 40);
    CHECK(mlperfRunCount("unet3d")->dropped_each_side == 4);
    CHECK_FALSE(mlperfRunCount("resnet20"));
}

TEST_CASE("ten converged bert runs score the mean of the eight left when the fastest and slowest are dropped",
          "[mlperf]") {
    const MlperfScore s = olympicScore("bert", converged(oneTo(10)));
    REQUIRE(s.score_min);
    CHECK(*s.score_min == Approx(5.5)); // summarizer: 5.5
    CHECK(s.valid);
    CHECK(s.converged == 10);
    CHECK(s.verdict == "olympic average of 8 of 10 runs");
}

TEST_CASE("one bert run that did not converge is the dropped slowest, two make the result invalid",
          "[mlperf]") {
    std::vector<MlperfRun> runs = converged(oneTo(9));
    runs.push_back({0.5, false}); // an aborted run's time never counts, however short
    const MlperfScore one = olympicScore("bert", runs);
    REQUIRE(one.score_min);
    CHECK(*one.score_min == Approx(5.5)); // summarizer: 5.5 (2..9)
    CHECK(one.valid);
    CHECK(one.verdict == "olympic average of 8 of 10 runs");

    runs.back() = {100, false};
    runs.push_back({100, false});
    const MlperfScore two = olympicScore("bert", runs);
    CHECK_FALSE(two.score_min);
    CHECK_FALSE(two.valid);
    CHECK(two.verdict == "invalid: 2 of 11 runs did not converge (the rules allow 1)");
}

TEST_CASE("unet3d drops four at each end, three non-converging runs among them", "[mlperf]") {
    CHECK(*olympicScore("unet3d", converged(oneTo(40))).score_min == Approx(20.5)); // summarizer: 20.5
    std::vector<MlperfRun> runs = converged(oneTo(37));
    for (int i = 0; i < 3; ++i)
        runs.push_back({1, false});
    const MlperfScore s = olympicScore("unet3d", runs);
    CHECK(*s.score_min == Approx(20.5)); // summarizer: 20.5
    CHECK(s.verdict == "olympic average of 32 of 40 runs");
}

TEST_CASE("fewer runs than the rules require still average but are not a valid MLPerf result", "[mlperf]") {
    const MlperfScore s = olympicScore("resnet", converged({4.8, 5.1, 4.9}));
    CHECK(*s.score_min == Approx(4.9)); // summarizer: 4.9
    CHECK_FALSE(s.valid);
    CHECK(s.verdict == "olympic average of 1 of 3 runs; not a valid MLPerf result: resnet needs 5 runs");

    // With one run that did not converge, only the fastest is dropped: summarizer [2, 3] -> 3.
    CHECK(*olympicScore("bert", {{2.0, true}, {3.0, true}, {9.0, false}}).score_min == Approx(3.0));
    CHECK_FALSE(olympicScore("bert", {{2.0, true}, {9.0, false}}).score_min); // summarizer: None
    const MlperfScore none = olympicScore("bert", {{2.0, true}});
    CHECK_FALSE(none.score_min);
    CHECK(none.verdict == "no score: 1 converged run, none left once the 1 fastest and slowest are dropped");
}

TEST_CASE("a benchmark the rules do not name drops one at each end and says so", "[mlperf]") {
    const MlperfScore s = olympicScore("my_model", converged({3, 1, 2}));
    CHECK(*s.score_min == Approx(2));
    CHECK_FALSE(s.required);
    CHECK_FALSE(s.valid);
    CHECK(s.verdict == "olympic average of 1 of 3 runs; MLPerf's rules name no run count for my_model");
}

TEST_CASE(
    "MLPerf runs scale by their olympic scores: time-to-train speedup and efficiency against the fewest "
    "GPUs",
    "[mlperf]") {
    std::vector<RunResult> results;
    const auto add = [&](int gpus, double minutes, const std::string& status) {
        RunResult r;
        r.name = "bert-n" + std::to_string(gpus) + "-r" + std::to_string(results.size());
        r.workload = "bert";
        r.ranks = gpus;
        r.status = RunStatus::Ok;
        r.mlperf_time_to_train_min = minutes;
        r.mlperf_status = status;
        r.mlperf_benchmark = "bert";
        r.mlperf_division = "closed";
        results.push_back(r);
    };
    for (double m : oneTo(10))
        add(8, 100 + m, "success"); // olympic 105.5
    for (double m : oneTo(9))
        add(64, 20 + m, "success"); // with one aborted: 2..9 -> 25.5
    add(64, 1, "aborted");

    const std::vector<ScalingPoint> points = sessionScaling(results);
    REQUIRE(points.size() == 2);
    REQUIRE(points[0].mlperf);
    CHECK(*points[0].mlperf->score_min == Approx(105.5));
    CHECK(*points[0].mlperf_speedup == Approx(1.0));
    REQUIRE(points[1].mlperf);
    CHECK(*points[1].mlperf->score_min == Approx(25.5));
    CHECK(points[1].mlperf->converged == 9);
    CHECK(*points[1].mlperf_speedup == Approx(105.5 / 25.5));
    CHECK(points[1].mlperf_efficiency == Approx(105.5 / 25.5 * 8 / 64));
    CHECK(points[1].mlperf->valid);

    const std::string table = formatResultsTable(results);
    CHECK_THAT(table, Catch::Contains("MLPerf time to train"));
    CHECK_THAT(table, Catch::Contains("9/10    25.500000     4.14x    52%  olympic average of 8 of 10 runs"));
    CHECK(table.find("scaling per series") == std::string::npos);

    for (RunResult& r : results)
        r.mlperf_division = "open"; // the engine's stand-ins write open-division logs
    const std::vector<ScalingPoint> open = sessionScaling(results);
    CHECK_FALSE(open[1].mlperf->valid);
    CHECK(open[1].mlperf->verdict == "olympic average of 8 of 10 runs; not a closed-division log");
}

TEST_CASE(
    "a run counts as MLPerf's summarizer counts it: by whether an evaluation reached the target, not by "
    "run_stop's status",
    "[mlperf]") {
    std::vector<RunResult> results;
    const auto add = [&](double minutes, const std::string& status, std::optional<bool> target_met) {
        RunResult r;
        r.name = "resnet-r" + std::to_string(results.size());
        r.workload = "resnet";
        r.ranks = 8;
        r.status = status == "aborted" ? RunStatus::Aborted : RunStatus::Ok;
        r.mlperf_time_to_train_min = minutes;
        r.mlperf_status = status;
        r.mlperf_benchmark = "resnet";
        r.mlperf_division = "closed";
        r.mlperf_target_met = target_met;
        results.push_back(r);
    };
    add(10, "success", true);
    add(11, "success", true);
    add(12, "aborted", true);  // aborted, yet its evaluations reached the target: the summarizer counts it
    add(13, "success", false); // success, yet no evaluation reached the target: the compliance check fails it
    add(14, "success", std::nullopt); // a benchmark the reader has no target for: its status decides
    const std::vector<ScalingPoint> points = sessionScaling(results);
    REQUIRE(points.size() == 1);
    REQUIRE(points[0].mlperf.has_value());
    CHECK(points[0].mlperf->converged == 4);
    // Converged 10, 11, 12, 14; the failed run is the dropped slowest, the fastest dropped: (11 + 12 + 14)
    // / 3.
    CHECK(*points[0].mlperf->score_min == Approx((11.0 + 12 + 14) / 3));
}

TEST_CASE("Compare matches MLPerf runs by benchmark and GPU count and compares their olympic scores",
          "[mlperf]") {
    const auto session = [](double offset) {
        std::vector<RunResult> results;
        for (double m : oneTo(10)) {
            RunResult r;
            r.name = "bert-n8-r" + std::to_string(results.size());
            r.workload = "bert";
            r.ranks = 8;
            r.status = RunStatus::Ok;
            r.mlperf_time_to_train_min = offset + m;
            r.mlperf_status = "success";
            r.mlperf_benchmark = "bert";
            results.push_back(r);
        }
        return results;
    };
    const std::vector<FigureComparison> rows = compareFigures(session(100), session(80)); // 105.5 -> 85.5
    const auto score = std::find_if(rows.begin(), rows.end(), [](const FigureComparison& r) {
        return r.figure == "MLPerf time to train (olympic score)";
    });
    REQUIRE(score != rows.end());
    CHECK(score->ranks == 8);
    CHECK(score->unit == "min");
    CHECK(score->better == Better::Lower);
    CHECK(*score->a == Approx(105.5));
    CHECK(*score->b == Approx(85.5));
    CHECK(*score->percent == Approx((85.5 - 105.5) / 105.5 * 100));
}
