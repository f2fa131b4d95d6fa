// Specification of the analysis: statistics over repeats, steady-state figures of a run, speedup and
// efficiency.
#include "analysis.h"
#include "results_table.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

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
    const auto outcome = [](const std::string& workload, int ranks, double samples_per_s) {
        RunResult r;
        r.series = {workload, "fmnist", {}};
        r.ranks = ranks;
        r.figures.samples_per_s = samples_per_s;
        return r;
    };
    const auto points = throughputScaling({outcome("resnet20", 2, 300), outcome("resnet20", 1, 190),
                                           outcome("resnet20", 1, 210), outcome("resnet20", 4, 500),
                                           outcome("other", 2, 50)});
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

TEST_CASE("a figure a run does not have is '-' in the table and an empty cell in the CSV, never 0",
          "[core][analysis]") {
    // MaxText's log: a step's time, tokens and loss; no parts.
    RunResult maxtext{"llama", "maxtext", "", 64, 1, RunStatus::Ok, "", {}};
    maxtext.figures.steady_steps = 1;
    maxtext.figures.breakdown.step_s = 7.908;
    maxtext.figures.tokens_per_s = 66302.08;
    RunResult mlperf{"bert", "bert", "", 8, 1, RunStatus::Ok, "", {}}; // no steps: a time to train only
    mlperf.mlperf_time_to_train_min = 4.81;
    mlperf.mlperf_status = "success";
    const std::string table = formatResultsTable({maxtext, mlperf});
    INFO(table);
    const std::string row =
        table.substr(table.find("llama"), table.find('\n', table.find("llama")) - table.find("llama"));
    CHECK_THAT(row, Catch::Contains("7908.0") && !Catch::Contains(" 0.0 ") && !Catch::Contains("0%"));
    const std::vector<std::string> cells = resultsFigureCells(maxtext, runScaling({maxtext}).front());
    for (std::size_t part = 2; part <= 7; ++part) // data, fwd, bwd, allred, optim, comm%
        CHECK(cells[part] == "-");
    const std::string csv = resultsCsv({maxtext, mlperf});
    INFO(csv);
    CHECK_THAT(csv, Catch::Contains("llama,maxtext,,64,1,ok,,7.908000,,,,,,"));
    CHECK_THAT(csv, Catch::Contains("bert,bert,,8,1,ok,,,,,,,,,,,"));
}

TEST_CASE("the results table and CSV show every run with its breakdown, speedup and efficiency",
          "[core][analysis]") {
    RunResult one{"r-n1", "resnet20", "fashion-mnist", 1, 1, RunStatus::Ok, "", {}};
    one.figures.steady_steps = 10;
    one.figures.samples_per_s = 400;
    one.figures.breakdown = {0.32, 0.001, 0.1, 0.2, 0.009, 0.01};
    one.figures.final_loss = 0.5;
    one.figures.final_eval = 0.75;
    RunResult two = one;
    two.name = "r-n2";
    two.ranks = 2;
    two.figures.samples_per_s = 600;
    RunResult failed{
        "r-n4", "resnet20", "fashion-mnist", 4, 1, RunStatus::Failed, "rank 3 exited on signal 9", {}};

    const std::string table = formatResultsTable({one, two, failed});
    CHECK_THAT(table, Catch::Contains("samples/s") && Catch::Contains("allred") && Catch::Contains("1.50x") &&
                          Catch::Contains("75%") && Catch::Contains("320.0") &&
                          Catch::Contains("error: rank 3 exited on signal 9"));
    const std::string csv = resultsCsv({one, two});
    CHECK_THAT(csv, Catch::StartsWith("run,workload,dataset,ranks,repeat,status,samples_per_s"));
    CHECK_THAT(csv, Catch::Contains("r-n2,resnet20,fashion-mnist,2,1,ok,600.000,0.320000") &&
                        Catch::Contains("1.5000,0.7500,0.500000,accuracy,0.750000,,,\"resnet20 "
                                        "fashion-mnist\","));
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

namespace {
// A number with two decimals, as the seed's tables print it.
std::string fixed2(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}
} // namespace

// Seed 003's tables (the MaxText Llama-2 70B recipe on H100s) from their step times,
// digit for digit: tokens/s = 4096 x GBS / step time, days to 1T tokens = 1e12 / tokens/s / 86400, MFU = GBS
// x model FLOPs / step time / GPUs / 989 TFLOP/s. The recipe computes MFU from its rounded 1.82E+15 FLOPs a
// sample, so this test does too; the exact formula gives 52.60 % where the table prints 52.59 % (checked
// below), and the console shows MFU from the exact FLOPs the engine computes for the run's model.
TEST_CASE("seed 003's tokens/s, MFU and days to train 1T tokens come out digit for digit from its step times",
          "[core][analysis]") {
    constexpr int kSeqLen = 4096;
    constexpr double kRoundedFlops = 1.82e15, kH100Bf16 = 989e12;
    struct Column {
        int gpus;
        double step_s;
        const char* tokens_per_s;
        const char* mfu; // "" where the table has none (FP8)
        const char* days;
    };
    const std::vector<Column> bf16 = {
        {64, 6.999, "74908.99", "52.59", "154.51"},   {128, 7.072, "148271.49", "52.04", "78.06"},
        {256, 7.153, "293184.96", "51.45", "39.48"},  {512, 7.091, "591496.83", "51.90", "19.57"},
        {1024, 7.084, "1184162.62", "51.95", "9.77"}, {2048, 7.066, "2374358.34", "52.09", "4.87"}};
    const std::vector<Column> fp8 = {
        {64, 4.324, "121250.69", "", "95.46"},   {128, 4.556, "230152.77", "", "50.29"},
        {256, 4.959, "422898.16", "", "27.37"},  {512, 5.043, "831708.11", "", "13.92"},
        {1024, 5.062, "1657172.66", "", "6.98"}, {2048, 4.93, "3403086.41", "", "3.40"}};
    for (const auto* table : {&bf16, &fp8})
        for (const Column& c : *table) {
            const int global_batch = 2 * c.gpus; // GBS = GPUs x MBS 2
            const LlmStepFigures f =
                llmStepFigures(c.step_s, kSeqLen, global_batch, c.gpus, kRoundedFlops, kH100Bf16);
            INFO(c.gpus << " GPUs, " << c.step_s << " s a step");
            CHECK(fixed2(f.tokens_per_s) == c.tokens_per_s);
            CHECK(fixed2(f.days_to_train) == c.days);
            if (*c.mfu) CHECK(fixed2(f.mfu * 100) == c.mfu);
        }

    // The worked example under the recipe's formulas: 4096 * 128 / 7.908 = 66298.43, 46.54 %, and "174.57
    // days", which its text truncates: 174.5754 rounds to 174.58 as every figure of its tables is rounded.
    const LlmStepFigures example = llmStepFigures(7.908, kSeqLen, 128, 64, kRoundedFlops, kH100Bf16);
    CHECK(fixed2(example.tokens_per_s) == "66298.43");
    CHECK(fixed2(example.days_to_train) == "174.58");
    CHECK(std::floor(example.days_to_train * 100) / 100 == Approx(174.57));
    CHECK(fixed2(example.mfu * 100) == "46.54");
    CHECK(fixed2(example.tokens_per_s_per_device) == "1035.91"); // its log: 1035.970 at step 49

    // The recipe's own breakdown, unrounded: 4096 x (attention + MLP + embedding) FLOPs a sample.
    const double attention = 12.0 * 80 * 8192.0 * 8192 * (1 + 8.0 / 64 + 4096.0 / 8192);
    const double mlp = 18.0 * 80 * 28672 * 8192, embedding = 6.0 * 32000 * 8192;
    CHECK(attention == 104'689'827'840.0);
    CHECK(mlp == 338'228'674'560.0);
    const double exact = kSeqLen * (attention + mlp + embedding);
    CHECK(fixed2(llmStepFigures(6.999, kSeqLen, 128, 64, exact, kH100Bf16).mfu * 100) == "52.60");
}

TEST_CASE("the last-step convention reads a run's throughput from its last step alone, the median from the "
          "steady-state steps",
          "[core][analysis]") {
    std::vector<StepRecord> steps;
    for (int i = 1; i <= 30; ++i) {
        StepRecord s;
        s.step = i;
        s.step_s = i == 30 ? 0.5 : 1.0;
        s.samples_per_s = 100 / s.step_s;
        s.tokens_per_s = 1000 / s.step_s;
        steps.push_back(s);
    }
    const RunFigures median = runFigures(steps, {});
    CHECK(median.samples_per_s == 100);
    CHECK(median.steady_steps == 27); // 3 warm-up steps skipped
    const RunFigures last = runFigures(steps, {}, StepTimeConvention::LastStep);
    CHECK(last.samples_per_s == 200);
    CHECK(last.tokens_per_s == 2000);
    CHECK(last.breakdown.step_s == 0.5);
    CHECK(last.steady_steps == 1);
    CHECK(describeConvention(StepTimeConvention::LastStep) == "last step (MaxText's convention)");
}
