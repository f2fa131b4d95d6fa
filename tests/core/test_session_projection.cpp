// Specification of the performance model's inputs read from a stored session, and of its projection for a
// recorded session (tests/data/projection: ResNet-20 at 1 and 2 ranks and the MPI all-reduce sweep, run once
// on the development VM): fixed inputs give fixed numbers.
#include "projection_fixture.h"
#include "session_projection.h"
#include "session_store.h"
#include "temporary_folder.h"

#include <catch2/catch.hpp>

using namespace scalebench;

TEST_CASE("a Linux CPU list counts its CPUs", "[core][model]") {
    CHECK(cpuListSize("0-3,8") == 5);
    CHECK(cpuListSize("1") == 1);
    CHECK(cpuListSize("") == 0);
    CHECK(cpuListSize("x-y") == 0);
}

TEST_CASE("the recorded two-rank session gives the model its measured points, sweep, buckets and CPUs",
          "[core][model]") {
    TemporaryFolder folder;
    SessionStore store(folder.path / "sessions.db");
    const SessionRow session = *store.session(storeProjectionFixture(store));
    const auto series = sessionModelInputs(store, session);
    REQUIRE(series.size() == 1);
    CHECK(series[0].label == "resnet20 fashion-mnist");
    CHECK(series[0].backend == "mpi");
    const ModelInputs& in = series[0].inputs;
    REQUIRE(in.measured.size() == 2);
    CHECK(in.measured[0].ranks == 1);
    CHECK(in.measured[0].compute_s.count == 2);
    CHECK(in.measured[1].ranks == 2);
    CHECK(in.batch_per_rank == 64);
    CHECK(in.sweep.size() == 16);
    CHECK(in.cpus_per_node == 2);
    double gradient_bytes = 0;
    for (const double b : in.bucket_bytes)
        gradient_bytes += b;
    CHECK(gradient_bytes == (272186.0 + 1) * 4); // ResNet-20's parameters and the loss, fp32
    CHECK(in.bucket_bytes.size() > 1);

    const auto rows = project(in, {1, 2, 4, 8, 64});
    REQUIRE(rows.size() == 5);
    // The recorded inputs give fixed numbers (run 2026-11-26 on the quiet development VM: 683 samples/s at 1
    // rank, 790 at 2; the sweep's 2-rank times; 75 % of the communication hidden at 2 ranks).
    CHECK(hiddenFraction(in) == Approx(0.75).margin(0.01));
    CHECK(rows[0].samples_per_s == Approx(683.6).epsilon(1e-3));
    CHECK(rows[1].samples_per_s == Approx(800.6).epsilon(1e-3));
    CHECK(rows[1].measured_samples_per_s == Approx(789.9).epsilon(1e-3));
    CHECK(rows[2].comm_s == Approx(0.2956e-3).epsilon(3e-3));
    CHECK(rows[2].samples_per_s == Approx(1600.9).epsilon(1e-3));
    CHECK(rows[4].speedup == Approx(37.49).epsilon(1e-3));
    // The engine timed each bucket: 15 to 35 times the sweep's time for its size (rank 0 waits for rank 1,
    // and both share 2 CPUs with backward).
    const auto buckets = checkBuckets(series[0]);
    REQUIRE(buckets.size() == 4);
    CHECK(buckets[0].bytes == 298536);
    CHECK(buckets[0].measured_s == Approx(1.917e-3).epsilon(1e-3));
    CHECK(buckets[0].predicted.time_s == Approx(0.054e-3).epsilon(1e-2));
    const BucketReading reading = readBucketChecks(buckets);
    CHECK(reading.buckets == 4);
    CHECK(reading.pace == BucketReading::Pace::Slower);
    CHECK(describeBucketReading(reading) == "buckets' all-reduce takes 15x-35x the sweep's time (median "
                                            "19x): slower than the sweep, the training's "
                                            "communication does not run at the fabric's speed");
    CHECK(rows[1].measured);
    CHECK_FALSE(rows[1].extrapolated);
    CHECK(rows[2].extrapolated); // 4 ranks: beyond the measured, and on a 2-CPU node
    const std::string table = formatProjection(in, rows);
    CHECK_THAT(table, Catch::Contains("more ranks on a node than its 2 CPUs"));
}

TEST_CASE("each bucket's measured all-reduce is set against the sweep's time for its size", "[core][model]") {
    SeriesModelInputs series;
    series.inputs.sweep = {{2, 1e3, 10e-6}, {2, 1e5, 100e-6}, {2, 1e7, 5e-3}};
    series.inputs.ranks_per_node = 8;
    series.bucket_durations[1] = {{100000, 0.0, 20}}; // one rank: nothing to reduce, nothing to check
    series.bucket_durations[2] = {{100000, 250e-6, 20}, {10000, 0.0, 0}, {100000000, 0.1, 20}};
    const auto checks = checkBuckets(series);
    REQUIRE(checks.size() == 2); // the bucket without counted steps is left out
    CHECK(checks[0].ranks == 2);
    CHECK(checks[0].bucket == 0);
    CHECK(checks[0].predicted.time_s == Approx(100e-6));
    CHECK_FALSE(checks[0].predicted.extrapolated);
    CHECK(checks[1].bucket == 2);
    CHECK(checks[1].predicted.extrapolated); // 100 MB: beyond the sweep's sizes
    const std::string table = formatBucketChecks(checks);
    CHECK_THAT(table,
               Catch::Contains("     2       0       100000         0.250         0.100      2.50x\n"));
    CHECK_THAT(table, Catch::Contains("(modelled: size beyond the sweep)"));
    CHECK(formatBucketChecks({}).empty());
}

TEST_CASE("the buckets' reading states whether the training's all-reduce runs at the fabric's speed",
          "[core][model]") {
    const auto checks = [](std::vector<double> ratios) {
        std::vector<BucketCheck> out;
        for (std::size_t b = 0; b < ratios.size(); ++b)
            out.push_back({2, static_cast<int>(b), 1000, ratios[b] * 1e-3, {1e-3, 0, false}});
        return out;
    };
    const BucketReading slow = readBucketChecks(checks({17.2, 53.4, 30.1}));
    CHECK(slow.buckets == 3);
    CHECK(slow.low_ratio == Approx(17.2));
    CHECK(slow.median_ratio == Approx(30.1));
    CHECK(slow.high_ratio == Approx(53.4));
    CHECK(slow.pace == BucketReading::Pace::Slower);
    CHECK(describeBucketReading(slow) ==
          "buckets' all-reduce takes 17x-53x the sweep's time (median 30x): slower than the sweep, the "
          "training's communication does not run at the fabric's speed");
    const BucketReading even = readBucketChecks(checks({0.6, 0.8, 0.9}));
    CHECK(even.pace == BucketReading::Pace::AtFabricSpeed);
    CHECK(describeBucketReading(even) == "buckets' all-reduce takes 0.60x-0.90x the sweep's time (median "
                                         "0.80x): the training's communication runs at the fabric's speed");
    // The rule's edges: [0.67, 1.5] is the fabric's speed.
    CHECK(readBucketChecks(checks({1.5})).pace == BucketReading::Pace::AtFabricSpeed);
    CHECK(readBucketChecks(checks({0.67})).pace == BucketReading::Pace::AtFabricSpeed);
    CHECK(readBucketChecks(checks({1.51})).pace == BucketReading::Pace::Slower);
    const BucketReading fast = readBucketChecks(checks({0.3}));
    CHECK(fast.pace == BucketReading::Pace::Faster);
    CHECK(describeBucketReading(fast) == "buckets' all-reduce takes 0.30x the sweep's time: faster than the "
                                         "sweep, which overstates the fabric's time at these sizes");
    CHECK(readBucketChecks({}).buckets == 0);
    CHECK(describeBucketReading(readBucketChecks({})).empty());
}

TEST_CASE("a series without bucket checks says why", "[core][model]") {
    SeriesModelInputs series;
    series.backend = "nccl";
    CHECK(whyNoBucketChecks(series) == "the runs wrote no bucket timings");
    series.bucket_durations[1] = {{100000, 1e-3, 20}};
    CHECK(whyNoBucketChecks(series) == "bucket timings at one rank only: nothing was all-reduced");
    series.bucket_durations[2] = {{100000, 1e-3, 20}};
    CHECK(whyNoBucketChecks(series) ==
          "no float32 all-reduce sweep over nccl in the session: nothing to predict the buckets' times from");
    series.inputs.sweep = {{2, 1e3, 10e-6}, {2, 1e5, 100e-6}};
    series.inputs.ranks_per_node = 8;
    CHECK(whyNoBucketChecks(series).empty());
}
