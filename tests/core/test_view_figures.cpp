// Specification of the figures the analysis views show: hidden communication in the step breakdown, the
// breakdown per rank count, and per-rank times for stragglers.
#include "analysis.h"
#include "breakdown_by_ranks.h"
#include "rank_time_summary.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("the step breakdown carries hidden communication as its own mean, not part of the step time",
          "[core][analysis]") {
    std::vector<StepRecord> steps;
    for (int i = 1; i <= 20; ++i) { // the first 2 are warm-up (a tenth)
        const double hidden = i <= 2 ? 1.0 : 0.01 * (i % 2 ? 1 : 3);
        steps.push_back(
            {i, 1.0, 100, 0.1, 0.01, 0.03, 0.04, 0.015, 0.005, 0.1 * i, hidden, 0.0, 0.0, std::nullopt});
    }
    const RunFigures f = runFigures(steps, {});
    CHECK(f.steady_steps == 18);
    CHECK(f.breakdown.comm_hidden_s == Approx(0.02));
    const StepBreakdown& b = f.breakdown;
    CHECK(b.data_s + b.forward_s + b.backward_s + b.allreduce_s + b.optimizer_s == Approx(b.step_s));
}

TEST_CASE("the breakdown per rank count is the mean over successful repeats", "[core][analysis]") {
    auto run = [](const std::string& workload, int ranks, RunStatus status, double step_s, double hidden_s) {
        RunResult r{"r", workload, "synthetic", ranks, 0, status, "", {}};
        r.figures.steady_steps = 10;
        r.figures.breakdown = {step_s,       0.1 * step_s, 0.3 * step_s, 0.4 * step_s,
                               0.1 * step_s, 0.1 * step_s, hidden_s};
        return r;
    };
    RunResult no_steps = run("resnet20", 1, RunStatus::Ok, 5, 5);
    no_steps.figures.steady_steps = 0;
    const auto rows = breakdownByRanks(
        {run("resnet20", 2, RunStatus::Ok, 0.2, 0.02), run("resnet20", 1, RunStatus::Ok, 0.1, 0),
         run("resnet20", 2, RunStatus::Ok, 0.3, 0.04), run("resnet20", 2, RunStatus::Failed, 9, 9), no_steps,
         run("bert", 4, RunStatus::Ok, 1.0, 0.5)});
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].workload == "bert");
    CHECK(rows[1].ranks == 1);
    CHECK(rows[1].repeats == 1);
    CHECK(rows[2].ranks == 2);
    CHECK(rows[2].repeats == 2);
    CHECK(rows[2].mean.step_s == Approx(0.25));
    CHECK(rows[2].mean.backward_s == Approx(0.1));
    CHECK(rows[2].mean.comm_hidden_s == Approx(0.03));
}

TEST_CASE("per-rank times skip the warm-up, give wait = step - compute and mark the slowest rank",
          "[core][analysis]") {
    std::vector<RankTimesRecord> records;
    for (int i = 1; i <= 10; ++i) { // 1 warm-up record (a tenth)
        const double warm = i == 1 ? 10 : 1;
        records.push_back({i, {0.5 * warm, 0.5 * warm, 0.5 * warm}, {0.3 * warm, 0.45 * warm, 0.2 * warm}});
    }
    const RankTimeSummary s = summarizeRankTimes(records);
    CHECK(s.steady_steps == 9);
    REQUIRE(s.ranks.size() == 3);
    CHECK(s.ranks[1].step_s == Approx(0.5));
    CHECK(s.ranks[1].compute_s == Approx(0.45));
    CHECK(s.ranks[1].wait_s == Approx(0.05));
    CHECK(s.ranks[2].wait_s == Approx(0.3));
    CHECK(s.slowest_rank == 1);
    CHECK(summarizeRankTimes({}).slowest_rank == -1);
}
