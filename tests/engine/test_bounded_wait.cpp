// A collective's wait with a deadline (the NCCL backend's): done returns, a failure or a peer that never
// answers ends in an error naming it, after the communicator was given up, within the stated time.
#include "bounded_wait.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <stdexcept>

using namespace scalebench;
using namespace std::chrono_literals;

namespace {
std::string describe(bool failed, double waited_s) {
    return std::string(failed ? "failed" : "timed out") + " after " + std::to_string(waited_s) + " s";
}
} // namespace

TEST_CASE("a wait returns once the work is done, without giving up", "[buckets]") {
    int polls = 0, gave_up = 0;
    waitWithin([&] { return ++polls < 5 ? WorkState::Pending : WorkState::Done; }, 10s, [&] { ++gave_up; },
               describe);
    CHECK(polls == 5);
    CHECK(gave_up == 0);
}

TEST_CASE("a wait on work that never ends gives up after the timeout, and says so", "[buckets]") {
    int gave_up = 0;
    const auto start = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(waitWithin([] { return WorkState::Pending; }, 200ms, [&] { ++gave_up; }, describe),
                      Catch::StartsWith("timed out after 0.2"));
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(waited >= 0.2);
    CHECK(waited < 5); // not a hang: the deadline, then the error
    CHECK(gave_up == 1);
}

TEST_CASE("a wait on work that failed gives up at once, and says it failed", "[buckets]") {
    int gave_up = 0;
    CHECK_THROWS_WITH(waitWithin([] { return WorkState::Failed; }, 1h, [&] { ++gave_up; }, describe),
                      Catch::StartsWith("failed after 0"));
    CHECK(gave_up == 1);
}
