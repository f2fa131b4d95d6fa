// Each gradient bucket's median all-reduce time over a run's steady-state steps.
#include "bucket_durations.h"

#include "analysis.h"

#include <algorithm>

namespace scalebench {

std::vector<BucketDuration> medianBucketDurations(const std::vector<BucketTimesRecord>& records) {
    std::size_t buckets = 0;
    for (const BucketTimesRecord& r : records)
        buckets = std::max(buckets, r.bytes.size());
    std::vector<BucketDuration> out(buckets);
    std::vector<std::vector<double>> durations(buckets); // seconds, per bucket
    const std::size_t skip = static_cast<std::size_t>(warmupStepsToSkip(records.size()));
    for (std::size_t i = 0; i < records.size(); ++i) {
        const BucketTimesRecord& r = records[i];
        for (std::size_t b = 0; b < r.bytes.size(); ++b) {
            out[b].bytes = r.bytes[b];
            if (i >= skip && b < r.start_s.size() && b < r.end_s.size())
                durations[b].push_back(r.end_s[b] - r.start_s[b]);
        }
    }
    for (std::size_t b = 0; b < buckets; ++b) {
        out[b].steps = static_cast<int>(durations[b].size());
        if (!durations[b].empty()) out[b].median_s = median(std::move(durations[b]));
    }
    return out;
}

} // namespace scalebench
