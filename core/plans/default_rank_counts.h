// The GPU counts a new run group starts with in the plan builder: the powers of two up to what the plan's
// launch target runs at once, so that a first plan fits where it is launched (1, 2 on a 2-core laptop).
#pragma once

#include "cluster_settings.h"

#include <vector>

namespace scalebench {

// 1, 2, 4, ... up to `most`; 1 alone when `most` is below 2.
std::vector<int> powersOfTwoUpTo(int most);

// The ranks `target` runs at once: on this machine its cores (`local_cores`, as std::thread::
// hardware_concurrency gives them; 0, unknown, counts as 1); on a cluster the GPUs of one node, or its ranks
// per node (`tasks_per_node`) where it has none: the stored settings name no node count.
int ranksAtOnce(const ClusterSettings& target, int local_cores);

// powersOfTwoUpTo(ranksAtOnce(target, local_cores)).
std::vector<int> defaultRankCounts(const ClusterSettings& target, int local_cores);

} // namespace scalebench
