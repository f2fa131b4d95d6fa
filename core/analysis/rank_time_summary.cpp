// Per-rank step and compute times of one run over its steady-state steps, for straggler views.
#include "rank_time_summary.h"

#include "analysis.h"

#include <algorithm>

namespace scalebench {

RankTimeSummary summarizeRankTimes(const std::vector<RankTimesRecord>& records) {
    RankTimeSummary summary;
    const std::size_t skip = static_cast<std::size_t>(warmupStepsToSkip(records.size()));
    std::vector<double> step_sum, compute_sum;
    std::vector<int> step_count, compute_count;
    for (std::size_t i = skip; i < records.size(); ++i) {
        const RankTimesRecord& r = records[i];
        const std::size_t n = std::max(r.step_s.size(), r.compute_s.size());
        if (step_sum.size() < n) {
            step_sum.resize(n);
            compute_sum.resize(n);
            step_count.resize(n);
            compute_count.resize(n);
        }
        for (std::size_t k = 0; k < r.step_s.size(); ++k) {
            step_sum[k] += r.step_s[k];
            ++step_count[k];
        }
        for (std::size_t k = 0; k < r.compute_s.size(); ++k) {
            compute_sum[k] += r.compute_s[k];
            ++compute_count[k];
        }
        ++summary.steady_steps;
    }
    double slowest = -1;
    for (std::size_t k = 0; k < step_sum.size(); ++k) {
        RankTimes t;
        t.rank = static_cast<int>(k);
        t.step_s = step_count[k] ? step_sum[k] / step_count[k] : 0;
        t.compute_s = compute_count[k] ? compute_sum[k] / compute_count[k] : 0;
        t.wait_s = t.step_s - t.compute_s;
        if (t.compute_s > slowest) {
            slowest = t.compute_s;
            summary.slowest_rank = t.rank;
        }
        summary.ranks.push_back(t);
    }
    return summary;
}

} // namespace scalebench
