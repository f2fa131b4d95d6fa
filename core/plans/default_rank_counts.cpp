// The GPU counts a new run group starts with: the powers of two up to what its launch target runs at once.
#include "default_rank_counts.h"

#include <algorithm>

namespace scalebench {

std::vector<int> powersOfTwoUpTo(int most) {
    std::vector<int> counts{1};
    while (counts.back() <= most / 2)
        counts.push_back(counts.back() * 2);
    return counts;
}

int ranksAtOnce(const ClusterSettings& target, int local_cores) {
    if (isLocalMachine(target)) return std::max(1, local_cores);
    return std::max(1, target.gpus_per_node > 0 ? target.gpus_per_node : target.tasks_per_node);
}

std::vector<int> defaultRankCounts(const ClusterSettings& target, int local_cores) {
    return powersOfTwoUpTo(ranksAtOnce(target, local_cores));
}

} // namespace scalebench
