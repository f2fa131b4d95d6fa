// Ranks and nodes whose compute time stands out from the others' in one run: a robust outlier rule.
#include "slow_rank_finding.h"

#include "analysis.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace scalebench {

namespace {

double milliseconds(double seconds) {
    return seconds * 1e3;
}

} // namespace

SlowRankFinding findSlowRanks(const std::vector<RankTimesRecord>& records,
                              const std::vector<std::string>& hosts, const SlowRankRule& rule) {
    SlowRankFinding finding;
    const std::size_t skip = static_cast<std::size_t>(warmupStepsToSkip(records.size()));
    std::vector<std::vector<double>> per_rank; // compute seconds of each rank's steady-state steps
    for (std::size_t i = skip; i < records.size(); ++i) {
        const std::vector<double>& compute = records[i].compute_s;
        if (per_rank.size() < compute.size()) per_rank.resize(compute.size());
        for (std::size_t r = 0; r < compute.size(); ++r)
            per_rank[r].push_back(compute[r]);
        ++finding.steady_steps;
    }
    for (std::vector<double>& times : per_rank)
        finding.compute_s.push_back(median(std::move(times)));
    if (finding.compute_s.size() < 3) return finding;
    finding.decidable = true;

    const double m = median(finding.compute_s);
    std::vector<double> deviations;
    for (double c : finding.compute_s)
        deviations.push_back(std::abs(c - m));
    const double sigma = SlowRankRule::kMadToSigma * median(deviations);
    finding.ranks_median_s = m;
    finding.threshold_s = std::max(m + rule.k * sigma, m * (1 + rule.min_margin));

    for (std::size_t r = 0; r < finding.compute_s.size(); ++r) {
        if (!(finding.compute_s[r] > finding.threshold_s)) continue;
        const std::string host = r < hosts.size() ? hosts[r] : "";
        finding.slow_ranks.push_back({static_cast<int>(r), host, finding.compute_s[r]});
        if (!host.empty() &&
            std::find(finding.slow_nodes.begin(), finding.slow_nodes.end(), host) == finding.slow_nodes.end())
            finding.slow_nodes.push_back(host);
    }
    return finding;
}

std::vector<std::string> hostsOfRanks(const std::string& header_json) {
    std::vector<std::string> hosts;
    const auto j = nlohmann::json::parse(header_json, nullptr, false);
    if (!j.is_object()) return hosts;
    const auto list = j.find("hosts");
    if (list == j.end() || !list->is_array()) return hosts;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const nlohmann::json& entry = (*list)[i];
        std::size_t rank = i;
        if (entry.is_object()) {
            if (const auto r = entry.find("rank"); r != entry.end() && r->is_number_unsigned())
                rank = r->get<std::size_t>();
        }
        if (rank >= 65536) continue; // not a rank a run has: refuse to grow the list for it
        if (hosts.size() <= rank) hosts.resize(rank + 1);
        if (entry.is_object()) {
            if (const auto h = entry.find("host"); h != entry.end() && h->is_string())
                hosts[rank] = h->get<std::string>();
        }
    }
    return hosts;
}

std::string describeSlowRanks(const SlowRankFinding& finding) {
    std::string out;
    const double m = finding.ranks_median_s;
    for (const SlowRank& s : finding.slow_ranks)
        out += fmt::format("slow rank {}{}: compute {:.1f} ms median vs {:.1f} ms for the ranks' median "
                           "(+{:.0f} %)\n",
                           s.rank, s.host.empty() ? "" : " on " + s.host, milliseconds(s.compute_s),
                           milliseconds(m), m > 0 ? 100 * (s.compute_s / m - 1) : 0.0);
    for (const std::string& node : finding.slow_nodes) {
        std::string ranks;
        for (const SlowRank& s : finding.slow_ranks)
            if (s.host == node) ranks += (ranks.empty() ? "" : ", ") + std::to_string(s.rank);
        out += fmt::format("slow node {} (ranks {})\n", node, ranks);
    }
    return out;
}

} // namespace scalebench
