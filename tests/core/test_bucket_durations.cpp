// Specification of each gradient bucket's median all-reduce time over a run's steady-state steps.
#include "bucket_durations.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("each bucket's duration is its median over the steady-state steps, warm-up left out",
          "[core][buckets]") {
    std::vector<BucketTimesRecord> records;
    // 20 steps: the first 2 (a tenth) are warm-up, 10 times slower; bucket 1 alternates 4 and 6 ms.
    for (std::int64_t step = 1; step <= 20; ++step) {
        const double slow = step <= 2 ? 10 : 1;
        const double second = step % 2 ? 0.004 : 0.006;
        records.push_back(
            {step, {4096, 1048580}, {0.010, 0.020}, {0.010 + 0.001 * slow, 0.020 + second * slow}});
    }
    const auto durations = medianBucketDurations(records);
    REQUIRE(durations.size() == 2);
    CHECK(durations[0].bytes == 4096);
    CHECK(durations[0].median_s == Approx(0.001));
    CHECK(durations[0].steps == 18);
    CHECK(durations[1].bytes == 1048580);
    CHECK(durations[1].median_s == Approx(0.005)); // 9 of 4 ms, 9 of 6 ms
    CHECK(medianBucketDurations({}).empty());
}

TEST_CASE("a run with a single buckets record counts it", "[core][buckets]") {
    const auto durations = medianBucketDurations({{1, {400}, {0.5}, {0.75}}});
    REQUIRE(durations.size() == 1);
    CHECK(durations[0].median_s == 0.25);
    CHECK(durations[0].steps == 1);
}
