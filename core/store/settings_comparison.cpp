// What two sessions ran with, side by side: the plan's effective settings, the cluster's and the run headers,
// and the runs' capsules, only what differs; JSON and TOML flattened to key paths to compare them.
#include "plan_writer.h"
#include "run_plan.h"
#include "session_comparison.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <toml++/toml.h>

namespace scalebench {

namespace {

void flattenJsonValue(const nlohmann::json& value, const std::string& path,
                      std::map<std::string, std::string>& out) {
    if (value.is_object()) {
        for (const auto& [key, item] : value.items())
            flattenJsonValue(item, path.empty() ? key : path + "." + key, out);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            flattenJsonValue(value[i], path + "[" + std::to_string(i) + "]", out);
        if (value.empty()) out[path] = "[]";
    } else {
        out[path] = value.is_string() ? value.get<std::string>() : value.dump();
    }
}

void flattenTomlNode(const toml::node& node, const std::string& path,
                     std::map<std::string, std::string>& out) {
    if (const toml::table* table = node.as_table()) {
        for (const auto& [key, item] : *table) {
            const std::string name(key.str());
            flattenTomlNode(item, path.empty() ? name : path + "." + name, out);
        }
    } else if (const toml::array* array = node.as_array()) {
        for (std::size_t i = 0; i < array->size(); ++i)
            flattenTomlNode(*array->get(i), path + "[" + std::to_string(i) + "]", out);
        if (array->empty()) out[path] = "[]";
    } else if (const auto* text = node.as_string()) {
        out[path] = text->get();
    } else if (const auto* real = node.as_floating_point()) {
        // The shortest text that reads back, as the plan has it: 0.1, not 0.10000000000000001.
        out[path] = fmt::format("{}", real->get());
    } else {
        std::ostringstream value;
        node.visit([&](const auto& leaf) { value << leaf; });
        out[path] = value.str();
    }
}

// A run header key that differs on every run whatever was configured.
bool volatileHeaderKey(const std::string& key) {
    return key == "unix_time" || key.ends_with(".pid") || key == "type";
}

std::map<std::string, std::string> mergedRunHeaders(const std::vector<std::string>& headers) {
    std::map<std::string, std::set<std::string>> values;
    for (const std::string& header : headers) {
        if (header.empty()) continue;
        for (const auto& [key, value] : flattenJson(header))
            if (!volatileHeaderKey(key) && !capsuleHeaderKey(key)) values[key].insert(value);
    }
    std::map<std::string, std::string> out;
    for (const auto& [key, set] : values) {
        std::string joined;
        for (const std::string& value : set)
            joined += (joined.empty() ? "" : " | ") + value;
        out[key] = joined;
    }
    return out;
}

void addPrefixed(std::map<std::string, std::string>& out, const std::string& prefix,
                 const std::map<std::string, std::string>& flat) {
    for (const auto& [key, value] : flat)
        out[std::string(prefix).append(".").append(key)] = value;
}

// The plan's effective settings: every key of every [[run]] with the plan's defaults filled in (the plan as
// the store read it, written with every key), so that a key left at its default equals the same value written
// out; its [[reference]] tables as written. A plan that no longer reads (a workload since renamed): as
// written, and why under "problem".
std::map<std::string, std::string> effectivePlanSettings(const ComparedSession& s) {
    std::map<std::string, std::string> written = flattenToml(s.plan_text);
    if (!s.stored_plan.plan) {
        if (!s.stored_plan.problem.empty()) written["problem"] = s.stored_plan.problem;
        return written;
    }
    std::map<std::string, std::string> out =
        flattenToml(writePlanToml(*s.stored_plan.plan, PlanKeys::Effective));
    for (const auto& [key, value] : written)
        if (key.starts_with("reference[")) out[key] = value;
    return out;
}

std::map<std::string, std::string> sessionSettings(const ComparedSession& s) {
    std::map<std::string, std::string> out;
    if (!s.plan_text.empty()) addPrefixed(out, "plan", effectivePlanSettings(s));
    if (!s.cluster_json.empty()) addPrefixed(out, "cluster", flattenJson(s.cluster_json));
    addPrefixed(out, "run header", mergedRunHeaders(s.run_headers));
    return out;
}

bool multiLine(const std::string& text) {
    return text.find('\n') != std::string::npos;
}

// A's value and B's, for a key one side may lack; multi-line values reduced to their differing lines.
SettingDifference difference(const std::string& key, const std::string* a, const std::string* b) {
    SettingDifference d{key};
    if (a && b && (multiLine(*a) || multiLine(*b))) {
        auto [only_a, only_b] = differingLines(*a, *b);
        const std::string none = "(no line that the other lacks)";
        d.a = only_a.empty() ? none : std::move(only_a);
        d.b = only_b.empty() ? none : std::move(only_b);
        return d;
    }
    if (a) d.a = *a;
    if (b) d.b = *b;
    return d;
}

// The differences of one pair of runs, in A's key order then keys only B has.
std::vector<SettingDifference> pairDifferences(const RunCapsule& a, const RunCapsule& b) {
    std::vector<SettingDifference> out;
    for (const CapsuleEntry& e : a.entries) {
        const auto it = std::find_if(b.entries.begin(), b.entries.end(),
                                     [&](const CapsuleEntry& f) { return f.key == e.key; });
        if (it == b.entries.end())
            out.push_back(difference(e.key, &e.value, nullptr));
        else if (it->value != e.value)
            out.push_back(difference(e.key, &e.value, &it->value));
    }
    for (const CapsuleEntry& f : b.entries)
        if (std::none_of(a.entries.begin(), a.entries.end(),
                         [&](const CapsuleEntry& e) { return e.key == f.key; }))
            out.push_back(difference(f.key, nullptr, &f.value));
    return out;
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

} // namespace

std::vector<SettingDifference> compareSettings(const ComparedSession& a, const ComparedSession& b) {
    const auto settings_a = sessionSettings(a);
    const auto settings_b = sessionSettings(b);
    std::vector<SettingDifference> out;
    auto ia = settings_a.begin();
    auto ib = settings_b.begin();
    while (ia != settings_a.end() || ib != settings_b.end()) {
        if (ib == settings_b.end() || (ia != settings_a.end() && ia->first < ib->first)) {
            out.push_back({ia->first, ia->second, std::nullopt});
            ++ia;
        } else if (ia == settings_a.end() || ib->first < ia->first) {
            out.push_back({ib->first, std::nullopt, ib->second});
            ++ib;
        } else {
            if (ia->second != ib->second) out.push_back({ia->first, ia->second, ib->second});
            ++ia;
            ++ib;
        }
    }
    return out;
}

std::vector<SettingDifference> compareCapsules(const std::vector<RunCapsule>& a,
                                               const std::vector<RunCapsule>& b) {
    std::vector<std::pair<const RunCapsule*, const RunCapsule*>> pairs;
    std::vector<std::string> only_a, only_b;
    const bool shared_name = std::any_of(a.begin(), a.end(), [&](const RunCapsule& x) {
        return std::any_of(b.begin(), b.end(), [&](const RunCapsule& y) { return x.run == y.run; });
    });
    if (shared_name) {
        for (const RunCapsule& x : a) {
            const auto it =
                std::find_if(b.begin(), b.end(), [&](const RunCapsule& y) { return y.run == x.run; });
            if (it == b.end())
                only_a.push_back(x.run);
            else
                pairs.emplace_back(&x, &*it);
        }
        for (const RunCapsule& y : b)
            if (std::none_of(a.begin(), a.end(), [&](const RunCapsule& x) { return x.run == y.run; }))
                only_b.push_back(y.run);
    } else {
        for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
            if (i < a.size() && i < b.size())
                pairs.emplace_back(&a[i], &b[i]);
            else if (i < a.size())
                only_a.push_back(a[i].run);
            else
                only_b.push_back(b[i].run);
        }
    }

    // Each distinct difference once, with the pairs (named by A's run) that have it.
    std::vector<std::pair<SettingDifference, std::vector<std::string>>> found;
    for (const auto& [x, y] : pairs)
        for (SettingDifference& d : pairDifferences(*x, *y)) {
            const auto it = std::find_if(found.begin(), found.end(), [&](const auto& f) {
                return f.first.key == d.key && f.first.a == d.a && f.first.b == d.b;
            });
            const std::string name = x->run == y->run ? x->run : x->run + " / " + y->run;
            if (it == found.end())
                found.push_back({std::move(d), {name}});
            else
                it->second.push_back(name);
        }
    std::vector<SettingDifference> out;
    if (!only_a.empty() || !only_b.empty()) {
        SettingDifference runs{"runs only in one session"};
        if (!only_a.empty()) runs.a = joined(only_a);
        if (!only_b.empty()) runs.b = joined(only_b);
        out.push_back(std::move(runs));
    }
    for (auto& [d, names] : found) {
        if (names.size() < pairs.size()) d.key += " (" + joined(names) + ")";
        out.push_back(std::move(d));
    }
    return out;
}

std::map<std::string, std::string> flattenJson(const std::string& json) {
    std::map<std::string, std::string> out;
    try {
        flattenJsonValue(nlohmann::json::parse(json), "", out);
    } catch (const nlohmann::json::exception& e) {
        out = {{"(unparsable)", e.what()}};
    }
    return out;
}

std::map<std::string, std::string> flattenToml(const std::string& toml) {
    std::map<std::string, std::string> out;
    try {
        flattenTomlNode(toml::parse(toml), "", out);
    } catch (const toml::parse_error& e) {
        out = {{"(unparsable)", fmt::format("line {}: {}", e.source().begin.line, e.description())}};
    }
    return out;
}

} // namespace scalebench
