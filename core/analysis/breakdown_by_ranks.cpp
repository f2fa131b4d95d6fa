// The step breakdown of each series per rank count: means over the successful repeats.
#include "breakdown_by_ranks.h"

#include <algorithm>
#include <map>
#include <utility>

namespace scalebench {

std::vector<RanksBreakdown> breakdownByRanks(const std::vector<RunResult>& results) {
    std::map<std::pair<SeriesKey, int>, RanksBreakdown> groups;
    std::map<std::pair<SeriesKey, int>, double> compute_only; // sums of compute-only samples/s
    for (const RunResult& r : results) {
        if (r.status != RunStatus::Ok || r.figures.steady_steps == 0) continue;
        RanksBreakdown& g = groups[{seriesOf(r), r.ranks}];
        compute_only[{seriesOf(r), r.ranks}] +=
            computeOnlyThroughput(r.figures.samples_per_s, r.figures.breakdown);
        g.series = seriesOf(r);
        g.workload = r.workload;
        g.dataset = r.dataset;
        g.ranks = r.ranks;
        ++g.repeats;
        const StepBreakdown& b = r.figures.breakdown;
        g.mean.step_s += b.step_s;
        g.mean.data_s += b.data_s;
        g.mean.forward_s += b.forward_s;
        g.mean.backward_s += b.backward_s;
        g.mean.allreduce_s += b.allreduce_s;
        g.mean.optimizer_s += b.optimizer_s;
        g.mean.comm_hidden_s += b.comm_hidden_s;
    }
    std::vector<SeriesKey> keys;
    for (const auto& [key, g] : groups)
        if (keys.empty() || keys.back() != key.first) keys.push_back(key.first);
    const std::vector<std::string> labels = seriesLabels(keys);
    std::map<SeriesKey, double> base_compute_only; // at each series' smallest rank count (the first in order)
    std::vector<RanksBreakdown> out;
    for (auto& [key, g] : groups) {
        StepBreakdown& m = g.mean;
        for (double* part : {&m.step_s, &m.data_s, &m.forward_s, &m.backward_s, &m.allreduce_s,
                             &m.optimizer_s, &m.comm_hidden_s})
            *part /= g.repeats;
        g.label =
            labels[static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key.first) - keys.begin())];
        g.communication_share = communicationShare(m);
        const double x = compute_only[key] / g.repeats;
        const double x0 = base_compute_only.try_emplace(key.first, x).first->second;
        g.compute_only_speedup = x0 > 0 ? x / x0 : 0;
        out.push_back(g);
    }
    return out;
}

} // namespace scalebench
