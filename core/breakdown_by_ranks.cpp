// The step breakdown of each workload per rank count: means over the successful repeats.
#include "breakdown_by_ranks.h"

#include <map>
#include <tuple>

namespace scalebench {

std::vector<RanksBreakdown> breakdownByRanks(const std::vector<RunResult>& results) {
    std::map<std::tuple<std::string, std::string, int>, RanksBreakdown> groups;
    for (const RunResult& r : results) {
        if (r.status != "ok" || r.figures.steady_steps == 0) continue;
        RanksBreakdown& g = groups[{r.workload, r.dataset, r.ranks}];
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
    std::vector<RanksBreakdown> out;
    for (auto& [key, g] : groups) {
        StepBreakdown& m = g.mean;
        for (double* part : {&m.step_s, &m.data_s, &m.forward_s, &m.backward_s, &m.allreduce_s,
                             &m.optimizer_s, &m.comm_hidden_s})
            *part /= g.repeats;
        out.push_back(g);
    }
    return out;
}

} // namespace scalebench
