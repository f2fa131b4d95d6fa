// Each gradient bucket's measured all-reduce time in one run, over its steady-state steps: what the
// performance model compares with the collective sweep's prediction for the bucket's size.
#pragma once

#include "metric_record.h"

#include <cstdint>
#include <vector>

namespace scalebench {

struct BucketDuration {
    std::int64_t bytes = 0; // on the wire (the bucket's size in the last record that has it)
    double median_s = 0;    // median of end_s - start_s over the steps counted, seconds
    int steps = 0;          // records counted
};

// Index = bucket. The records are a run's buckets records in step order (SessionStore::bucketTimes); the
// first warmupStepsToSkip(records) of them are left out, as the slow-rank finding leaves out rank times. A
// bucket no counted record has gets steps 0 and median_s 0.
std::vector<BucketDuration> medianBucketDurations(const std::vector<BucketTimesRecord>& records);

} // namespace scalebench
