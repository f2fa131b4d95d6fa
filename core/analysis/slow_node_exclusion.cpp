// Keeping a plan off the slow nodes a session's results flagged: the nodes, and the plan with them excluded.
#include "slow_node_exclusion.h"

#include "plan_writer.h"

#include <algorithm>
#include <sstream>
#include <toml++/toml.h>

namespace scalebench {
namespace {

void addOnce(std::vector<std::string>& to, const std::string& node) {
    if (std::find(to.begin(), to.end(), node) == to.end()) to.push_back(node);
}

} // namespace

std::vector<std::string> slowNodesOf(const std::vector<RunResult>& results) {
    std::vector<std::string> nodes;
    for (const RunResult& result : results)
        for (const std::string& node : result.slow_ranks.slow_nodes)
            if (!node.empty()) addOnce(nodes, node);
    return nodes;
}

RunPlan withExcludedNodes(const RunPlan& plan, const std::vector<std::string>& nodes) {
    if (nodes.empty()) return plan;
    // The plan as read, edited as TOML (writePlanToml would drop its references); a plan made in the window
    // has no text yet: its own TOML then.
    toml::table root = toml::parse(plan.source_text.empty() ? writePlanToml(plan) : plan.source_text);
    if (toml::array* groups = root["run"].as_array()) {
        for (toml::node& node : *groups) {
            toml::table* group = node.as_table();
            if (!group) continue; // parsePlanText, below, names what is wrong
            std::vector<std::string> excluded;
            if (const toml::array* listed = (*group)["exclude_nodes"].as_array())
                for (const toml::node& item : *listed)
                    if (const auto text = item.value<std::string>()) addOnce(excluded, *text);
            for (const std::string& host : nodes)
                addOnce(excluded, host);
            toml::array list;
            for (const std::string& host : excluded)
                list.push_back(host);
            group->insert_or_assign("exclude_nodes", std::move(list));
        }
    }
    std::ostringstream text;
    text << "# " << plan.name << ", its runs kept off the slow node(s) a session flagged (exclude_nodes)\n"
         << toml::toml_formatter(root) << "\n";
    return parsePlanText(text.str(), "plan '" + plan.name + "' with exclude_nodes");
}

} // namespace scalebench
