// Specification of the running median of a growing series after its warm-up: always the median() of the
// steady-state steps, however the steps arrive.
#include "analysis.h"
#include "steady_state_median.h"

#include <catch2/catch.hpp>
#include <random>

using namespace scalebench;

namespace {

double steadyMedian(const std::vector<double>& values) {
    const auto skip = static_cast<std::ptrdiff_t>(warmupStepsToSkip(values.size()));
    return median({values.begin() + skip, values.end()});
}

} // namespace

TEST_CASE("the running median is the median of the steady-state steps at every length", "[core][analysis]") {
    std::mt19937 random(3);
    std::uniform_int_distribution<int> rounded(900, 1100); // repeated values, as throughputs often are
    std::vector<double> values;
    SteadyStateMedian running;
    CHECK_FALSE(running.update(values).has_value());
    for (int i = 0; i < 3000; ++i) {
        values.push_back(rounded(random) * 1.5);
        const auto got = running.update(values);
        REQUIRE(got.has_value());
        REQUIRE(*got == steadyMedian(values));
    }
}

TEST_CASE("steps arriving in batches give the same running median", "[core][analysis]") {
    std::mt19937 random(8);
    std::normal_distribution<double> throughput(5000, 300);
    std::uniform_int_distribution<std::size_t> batch(1, 500);
    std::vector<double> values;
    SteadyStateMedian running;
    while (values.size() < 50'000) {
        for (std::size_t k = batch(random); k > 0; --k)
            values.push_back(throughput(random));
        REQUIRE(*running.update(values) == steadyMedian(values));
    }
}

TEST_CASE("a shorter series than the last one starts the running median over", "[core][analysis]") {
    SteadyStateMedian running;
    running.update(std::vector<double>(500, 7.0));
    const std::vector<double> other{1, 2, 3, 4, 5};
    CHECK(*running.update(other) == steadyMedian(other));
}
