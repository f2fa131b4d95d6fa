// What a short training run reached, asserted against a threshold with a measured margin, and printed as one
// line per assertion so that bench/outcome_margins.py can tabulate every value against its threshold under
// each CPU instruction set and seed (docs/testing.md). The run's seed comes from SCALEBENCH_TEST_SEED
// (default 1, the engine's own default).
#pragma once

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace scalebench {

// The seed every training-outcome test passes to the engine: SCALEBENCH_TEST_SEED, or the engine's default 1.
inline std::string testSeed() {
    const char* seed = std::getenv("SCALEBENCH_TEST_SEED");
    return seed && *seed ? std::string(seed) : std::string("1");
}

namespace detail {
// "[outcome] <test name> | <what> | <value> <relation> <threshold>", on stdout, flushed: the margins script
// reads these lines from the test binaries' output.
inline void printOutcome(const std::string& what, double value, const char* relation, double threshold) {
    std::printf("[outcome] %s | %s | %.6g %s %.6g\n", Catch::getResultCapture().getCurrentTestName().c_str(),
                what.c_str(), value, relation, threshold);
    std::fflush(stdout);
}
} // namespace detail

} // namespace scalebench

// CHECK(value < threshold) and CHECK(value > threshold), named and printed for the margins table.
#define CHECK_OUTCOME_BELOW(what, value, threshold) SCALEBENCH_CHECK_OUTCOME(what, value, <, threshold)
#define CHECK_OUTCOME_ABOVE(what, value, threshold) SCALEBENCH_CHECK_OUTCOME(what, value, >, threshold)
#define SCALEBENCH_CHECK_OUTCOME(what, value, relation, threshold)                                           \
    do {                                                                                                     \
        const double outcome_value_ = (value), outcome_threshold_ = (threshold);                             \
        ::scalebench::detail::printOutcome((what), outcome_value_, #relation, outcome_threshold_);           \
        INFO(what);                                                                                          \
        CHECK(outcome_value_ relation outcome_threshold_);                                                   \
    } while (false)
