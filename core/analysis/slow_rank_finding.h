// Ranks and nodes whose compute time stands out from the others' in one run: a robust outlier rule.
#pragma once

#include "metric_record.h"

#include <string>
#include <vector>

namespace scalebench {

// The rule. Each rank's compute time is its median over the run's steady-state rank-times records (after
// warmupStepsToSkip of them). Over those per-rank medians m_r take their median M and their median absolute
// deviation MAD = median |m_r - M|. A rank is slow where
//     m_r > M + k x 1.4826 x MAD   and   m_r > M x (1 + min_margin)
// (1.4826 x MAD estimates the standard deviation of normal noise; the margin keeps ranks that differ only by
// noise, MAD near zero, from ever being flagged). A node is slow where one or more of its ranks is. With
// fewer than 3 ranks there is no majority to compare against: the finding says it cannot tell.
struct SlowRankRule {
    double k = 3.0;           // MAD-scaled deviations above the ranks' median
    double min_margin = 0.05; // and at least this much above it, relative
    static constexpr double kMadToSigma = 1.4826;
};

struct SlowRank {
    int rank = 0;
    std::string host;     // from the run header's "hosts"; "" where it names none
    double compute_s = 0; // its median compute seconds per step
};

struct SlowRankFinding {
    bool decidable = false;          // 3 or more ranks with steady-state compute times
    int steady_steps = 0;            // records counted
    std::vector<double> compute_s{}; // every rank's median compute seconds per step, ranks in order
    double ranks_median_s = 0;       // M: the median of those
    double threshold_s = 0;          // a rank above this is slow
    std::vector<SlowRank> slow_ranks{};
    std::vector<std::string> slow_nodes{}; // hosts of slow ranks, each once, in rank order
};

// `hosts`: each rank's host, ranks in order (hostsOfRanks); shorter or empty where unknown.
SlowRankFinding findSlowRanks(const std::vector<RankTimesRecord>& records,
                              const std::vector<std::string>& hosts, const SlowRankRule& rule = {});

// Each rank's host from a run header's JSON ("hosts": [{"rank": 0, "host": "node1"}, ...]); empty where it
// has none or does not parse.
std::vector<std::string> hostsOfRanks(const std::string& header_json);

// "slow rank 3 on node2: compute 41.2 ms median vs 30.1 ms for the ranks' median (+37 %)", one line a slow
// rank, then "slow node node2 (ranks 3)" a node; "" where nothing is flagged or it cannot tell.
std::string describeSlowRanks(const SlowRankFinding& finding);

} // namespace scalebench
