// What the performance model needs, read from a stored session: each training series' measured rank counts,
// the session's all-reduce sweep over that series' backend, its gradient buckets, batch, sequence length and
// where its nodes' boundaries lie.
#pragma once

#include "bucket_durations.h"
#include "performance_model.h"
#include "run_placement.h"
#include "stored_rows.h"

#include <map>
#include <string>
#include <vector>

namespace scalebench {

class SessionStore;

struct SeriesModelInputs {
    std::string label;   // seriesLabels' ("resnet20 fashion-mnist")
    std::string backend; // the gradients' backend (mpi, gloo, nccl): the sweep's
    ModelInputs inputs;
    // Per measured rank count: each bucket's all-reduce as the engine timed it (buckets records), the median
    // over the repeats of each run's median (medianBucketDurations); empty where the runs wrote none.
    std::map<int, std::vector<BucketDuration>> bucket_durations{};
};

// One entry per training series with successful runs. Compute per step = the step time its throughput stands
// for (global batch / samples/s: the median over the steady-state steps) - the mean exposed communication,
// mean and two sigma over repeats; batch per rank: the header's global batch / ranks (micro-batch x
// accumulation); the sweep: float32 all-reduce of the series'
// backend from every sweep run of the session (mean over repeats per rank count and size); buckets:
// header `bucket_elements` x 4 bytes (fp32 gradients); ranks per node: the cluster's tasks_per_node (on this
// machine: one node, every rank on it); CPUs per node (CPU training): the most CPUs a run's ranks
// were bound to on one host; price per GPU-hour and currency: the cluster's (this machine: none).
std::vector<SeriesModelInputs> sessionModelInputs(const SessionStore& store, const SessionRow& session);

// Each bucket's measured all-reduce against the sweep's prediction for its size at the same rank count: does
// the training's communication run at the fabric's speed?
struct BucketCheck {
    int ranks = 0;
    int bucket = 0;
    std::int64_t bytes = 0;
    double measured_s = 0;
    CommPrediction predicted{};
};
std::vector<BucketCheck> checkBuckets(const SeriesModelInputs& series);
// The checks as a terminal table, with the ratio measured / predicted, and their reading below it; ""
// without any.
std::string formatBucketChecks(const std::vector<BucketCheck>& checks);

// What the checks say in one line. The rule: the median of the ratios measured / predicted within
// [kFabricSpeedLow, kFabricSpeedHigh] is the fabric's speed; above it the training's all-reduce is slower
// than the sweep's, below it faster (the sweep then overstates the fabric's time).
constexpr double kFabricSpeedLow = 0.67;
constexpr double kFabricSpeedHigh = 1.5;
struct BucketReading {
    enum class Pace { AtFabricSpeed, Slower, Faster };
    int buckets = 0; // the checks with a predicted time, which the ratios are of
    double low_ratio = 0, median_ratio = 0, high_ratio = 0;
    Pace pace = Pace::AtFabricSpeed;
};
BucketReading readBucketChecks(const std::vector<BucketCheck>& checks);
// "buckets' all-reduce takes 15-36x the sweep's time (median 24x): slower than the sweep, the training's
// communication does not run at the fabric's speed"; "" without buckets.
std::string describeBucketReading(const BucketReading& reading);
// Why checkBuckets has nothing for the series (no bucket timings, only one rank, no sweep); "" where it has.
std::string whyNoBucketChecks(const SeriesModelInputs& series);

} // namespace scalebench
