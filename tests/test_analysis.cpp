// Specification of the analysis: statistics over repeats, steady-state figures of a run, speedup and
// efficiency.
#include "analysis.h"
#include "results_table.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("mean and two sample standard deviations, as the MLPerf write-ups report repeats",
          "[core][analysis]") {
    const Statistics s = describe({2, 4, 4, 4, 5, 5, 7, 9});
    CHECK(s.count == 8);
    CHECK(s.mean == Approx(5.0));
    CHECK(s.stddev == Approx(2.138089935)); // sqrt(32 / 7)
    CHECK(s.two_sigma() == Approx(4.27617987));
    CHECK(describe({3.5}).stddev == 0);
    CHECK(describe({}).count == 0);
}

TEST_CASE("the olympic mean drops the best and the worst", "[core][analysis]") {
    CHECK(olympicMean({10, 1, 5, 6, 100}) == Approx(7.0));
    CHECK(olympicMean({1, 3}) == Approx(2.0));
    CHECK(median({5, 1, 3}) == 3);
    CHECK(median({4, 1, 3, 2}) == Approx(2.5));
}

TEST_CASE("a run's figures leave out the warm-up steps: the breakdown adds up to the step time",
          "[core][analysis]") {
    std::vector<StepRecord> steps;
    for (int i = 1; i <= 30; ++i) {
        StepRecord s;
        s.step = i;
        s.loss = 3.0 - i * 0.05;
        const double slow = i <= 3 ? 10.0 : 1.0; // the first steps are slow
        s.data_s = 0.01 * slow;
        s.forward_s = 0.1 * slow;
        s.backward_s = 0.2 * slow;
        s.allreduce_s = 0.05 * slow;
        s.optimizer_s = 0.04 * slow;
        s.step_s = s.data_s + s.forward_s + s.backward_s + s.allreduce_s + s.optimizer_s;
        s.samples_per_s = 256 / s.step_s;
        steps.push_back(s);
    }
    const RunFigures f = runFigures(steps, {{30, "accuracy", 0.8, 0.5, 60}});
    CHECK(warmupStepsToSkip(30) == 3);
    CHECK(f.steady_steps == 27);
    CHECK(f.samples_per_s == Approx(256 / 0.4));
    CHECK(f.breakdown.step_s == Approx(0.4));
    CHECK(f.breakdown.data_s + f.breakdown.forward_s + f.breakdown.backward_s + f.breakdown.allreduce_s +
              f.breakdown.optimizer_s ==
          Approx(f.breakdown.step_s));
    CHECK(f.final_loss == Approx(1.5));
    CHECK(f.eval_metric == "accuracy");
    CHECK(f.final_eval == Approx(0.8));
}

TEST_CASE("speedup is X(N)/X(N0) and efficiency S(N) N0/N, per workload, over the mean of repeats",
          "[core][analysis]") {
    const auto points = throughputScaling({{"resnet20", "fmnist", 2, 300},
                                           {"resnet20", "fmnist", 1, 190},
                                           {"resnet20", "fmnist", 1, 210},
                                           {"resnet20", "fmnist", 4, 500},
                                           {"other", "fmnist", 2, 50}});
    REQUIRE(points.size() == 4);
    const ScalingPoint& other = points[0];
    CHECK(other.ranks == 2);
    CHECK(other.speedup == Approx(1.0)); // its own baseline
    const ScalingPoint& n1 = points[1];
    CHECK(n1.throughput.mean == Approx(200));
    CHECK(n1.throughput.count == 2);
    CHECK(points[2].speedup == Approx(1.5));
    CHECK(points[2].efficiency == Approx(0.75));
    CHECK(points[3].speedup == Approx(2.5));
    CHECK(points[3].efficiency == Approx(0.625));
}

TEST_CASE("the results table and CSV show every run with its breakdown, speedup and efficiency",
          "[core][analysis]") {
    RunResult one{"r-n1", "resnet20", "fashion-mnist", 1, 1, "ok", "", {}};
    one.figures.steady_steps = 10;
    one.figures.samples_per_s = 400;
    one.figures.breakdown = {0.32, 0.001, 0.1, 0.2, 0.009, 0.01};
    one.figures.final_loss = 0.5;
    one.figures.final_eval = 0.75;
    RunResult two = one;
    two.name = "r-n2";
    two.ranks = 2;
    two.figures.samples_per_s = 600;
    RunResult failed{"r-n4", "resnet20", "fashion-mnist", 4, 1, "failed", "rank 3 exited on signal 9", {}};

    const std::string table = formatResultsTable({one, two, failed});
    CHECK_THAT(table, Catch::Contains("samples/s") && Catch::Contains("allred") && Catch::Contains("1.50x") &&
                          Catch::Contains("75%") && Catch::Contains("320.0") &&
                          Catch::Contains("error: rank 3 exited on signal 9"));
    const std::string csv = resultsCsv({one, two});
    CHECK_THAT(csv, Catch::StartsWith("run,workload,dataset,ranks,repeat,status,samples_per_s"));
    CHECK_THAT(csv, Catch::Contains("r-n2,resnet20,fashion-mnist,2,1,ok,600.000,0.320000") &&
                        Catch::Contains("1.5000,0.7500,0.500000,accuracy,0.750000,0.0,\n"));
}

TEST_CASE("bus bandwidth follows nccl-tests: 2(n-1)/n for all-reduce, (n-1)/n for gathers, 1 for broadcast",
          "[core][analysis]") {
    CHECK(busBandwidthFactor("allreduce", 2) == Approx(1.0));
    CHECK(busBandwidthFactor("allreduce", 8) == Approx(1.75));
    CHECK(busBandwidthFactor("allgather", 4) == Approx(0.75));
    CHECK(busBandwidthFactor("reducescatter", 4) == Approx(0.75));
    CHECK(busBandwidthFactor("alltoall", 4) == Approx(0.75));
    CHECK(busBandwidthFactor("broadcast", 16) == 1);
    CHECK_THROWS_WITH(busBandwidthFactor("gossip", 2), Catch::Contains("'gossip'"));
}
