// Specification of a run's trace: step and evaluation records become series, other records are not part of
// it, and the block summaries and the steady-state throughput follow every append as if built at once.
#include "analysis.h"
#include "run_trace.h"

#include <catch2/catch.hpp>

using namespace scalebench;

namespace {

StepRecord stepOf(std::int64_t step) {
    StepRecord s;
    s.step = step;
    s.loss = 2.0 / static_cast<double>(step);
    s.samples_per_s = 1000.0 + static_cast<double>(step % 7) * 10;
    s.step_s = 0.25;
    s.forward_s = 0.08;
    s.backward_s = 0.1;
    s.allreduce_s = 0.04;
    s.comm_hidden_s = 0.01;
    s.elapsed_s = 0.25 * static_cast<double>(step);
    return s;
}

} // namespace

TEST_CASE("a run's trace keeps its steps and evaluations, in milliseconds where the chart draws them",
          "[core][trace]") {
    RunTrace trace;
    CHECK_FALSE(trace.steady_samples_per_s.has_value());
    trace.append({HeaderRecord{1, "resnet20", "synthetic", 2, "{}", 3}, stepOf(1), stepOf(2),
                  RankTimesRecord{2, {0.25, 0.26}, {0.2, 0.21}}, EvalRecord{2, "accuracy", 0.5, 0.7, 0.6},
                  SummaryRecord{}});
    CHECK(trace.step == std::vector<double>{1, 2});
    CHECK(trace.elapsed_s == std::vector<double>{0.25, 0.5});
    CHECK(trace.loss == std::vector<double>{2.0, 1.0});
    CHECK(trace.step_ms[0] == Approx(250));
    CHECK(trace.forward_ms[0] == Approx(80));
    CHECK(trace.backward_ms[0] == Approx(100));
    CHECK(trace.exposed_comm_ms[0] == Approx(40));
    CHECK(trace.hidden_comm_ms[0] == Approx(10));
    CHECK(trace.eval_step == std::vector<double>{2});
    CHECK(trace.eval_value == std::vector<double>{0.5});
    CHECK(&trace.series(RunTrace::Loss) == &trace.loss);
    CHECK(&trace.series(RunTrace::HiddenCommMs) == &trace.hidden_comm_ms);
}

TEST_CASE("a trace appended to in batches has the summaries of one built at once", "[core][trace]") {
    std::vector<MetricRecord> all;
    for (std::int64_t step = 1; step <= 1000; ++step)
        all.emplace_back(stepOf(step));
    RunTrace whole;
    whole.append(all);
    RunTrace batches;
    for (std::size_t from = 0; from < all.size(); from += 97) {
        const auto to = std::min(all.size(), from + 97);
        batches.append(
            {all.begin() + static_cast<std::ptrdiff_t>(from), all.begin() + static_cast<std::ptrdiff_t>(to)});
        const auto skip = static_cast<std::ptrdiff_t>(warmupStepsToSkip(batches.samples_per_s.size()));
        REQUIRE(batches.steady_samples_per_s);
        REQUIRE(*batches.steady_samples_per_s ==
                median({batches.samples_per_s.begin() + skip, batches.samples_per_s.end()}));
    }
    CHECK(batches.steady_samples_per_s == whole.steady_samples_per_s);
    for (int s = 0; s < RunTrace::SeriesCount; ++s) {
        const SeriesBlocks& a = whole.blocks[s];
        const SeriesBlocks& b = batches.blocks[s];
        REQUIRE(a.completeBlocks() == 3); // 1000 steps: three whole blocks of 256
        REQUIRE(b.completeBlocks() == a.completeBlocks());
        for (std::size_t k = 0; k < a.completeBlocks(); ++k) {
            CHECK(a.lowest(k) == b.lowest(k));
            CHECK(a.highest(k) == b.highest(k));
        }
    }
}

TEST_CASE("a trace with room for its planned steps never moves its series as they arrive", "[core][trace]") {
    RunTrace trace;
    trace.reserve(5000);
    const double* losses = trace.loss.data();
    const double* throughputs = trace.samples_per_s.data();
    for (std::int64_t first = 1; first <= 5000; first += 500) {
        std::vector<MetricRecord> batch;
        for (std::int64_t step = first; step < first + 500; ++step)
            batch.emplace_back(stepOf(step));
        trace.append(batch);
    }
    CHECK(trace.loss.size() == 5000);
    CHECK(trace.loss.data() == losses); // no copy of the series in any frame
    CHECK(trace.samples_per_s.data() == throughputs);
    trace.reserve(std::size_t{1} << 40); // a plan's step count is not a promise of memory
    CHECK(trace.step.capacity() == RunTrace::kMaxReservedSteps);
}
