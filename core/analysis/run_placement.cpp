// Where a run's ranks ran, from its header (run_placement.h).
#include "run_placement.h"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace scalebench {
namespace {

void addCpus(const std::string& list, std::set<int>& cpus) {
    std::istringstream parts(list);
    for (std::string part; std::getline(parts, part, ',');) {
        const std::size_t dash = part.find('-');
        try {
            const int first = std::stoi(part.substr(0, dash));
            const int last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
            for (int cpu = first; cpu <= last && cpu - first < 4096; ++cpu)
                cpus.insert(cpu);
        } catch (const std::exception&) {
            // not a CPU list: counts nothing
        }
    }
}

} // namespace

RunPlacement runPlacement(const std::string& header_json) {
    const nlohmann::json header = nlohmann::json::parse(header_json, nullptr, /*allow_exceptions=*/false);
    RunPlacement out;
    if (!header.is_object()) return out;
    std::map<std::string, std::pair<int, std::set<int>>> hosts; // host -> ranks, CPUs
    const auto listed = header.find("hosts");
    if (listed != header.end() && listed->is_array())
        for (const nlohmann::json& h : *listed) {
            if (!h.is_object()) continue;
            auto& [ranks, cpus] = hosts[h.value("host", "")];
            ++ranks;
            if (const auto c = h.find("cpus"); c != h.end() && c->is_string())
                addCpus(c->get<std::string>(), cpus);
        }
    for (const auto& [host, use] : hosts) {
        out.ranks_on_a_host = std::max(out.ranks_on_a_host, use.first);
        out.cpus_on_a_host = std::max(out.cpus_on_a_host, static_cast<int>(use.second.size()));
    }
    if (const auto t = header.find("threads_per_rank"); t != header.end() && t->is_number_integer())
        out.threads_per_rank = t->get<int>();
    return out;
}

int cpuListSize(const std::string& list) {
    std::set<int> cpus;
    addCpus(list, cpus);
    return static_cast<int>(cpus.size());
}

} // namespace scalebench
