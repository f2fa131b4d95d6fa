// A run's record as JSON both ways, its engine settings driven by the option table's rows.
#include "run_record.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace scalebench {
namespace {

using nlohmann::json;

// The value at `key`, of the member's type; `fallback` where the object has no such key.
template <typename T> T valueAt(const json& object, const char* key, const T& fallback) {
    const auto it = object.find(key);
    if (it == object.end()) return fallback;
    try {
        return it->get<T>();
    } catch (const json::exception&) {
        throw std::runtime_error(std::string("'") + key + "' is " + it->dump() + ", not a value of its type");
    }
}

json commandJson(const CommandRun& c) {
    return {{"argv", c.argv},     {"format", c.format},
            {"output", c.output}, {"container_image", c.container_image},
            {"name", c.name},     {"container_mounts", c.container_mounts}};
}

CommandRun readCommand(const json& j) {
    CommandRun c;
    c.argv = valueAt(j, "argv", c.argv);
    c.format = valueAt(j, "format", c.format);
    c.output = valueAt(j, "output", c.output);
    c.container_image = valueAt(j, "container_image", c.container_image);
    c.container_mounts = valueAt(j, "container_mounts", c.container_mounts);
    c.name = valueAt(j, "name", c.name);
    return c;
}

json groupJson(const RunGroup& g) {
    json j;
#define SCALEBENCH_RECORD_KEY(name, ...) j[#name] = g.name;
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_RECORD_KEY)
#undef SCALEBENCH_RECORD_KEY
    j["ranks"] = g.ranks;
    j["batch_per_rank_by_ranks"] = g.batch_per_rank_by_ranks;
    j["gpus_per_node"] = g.gpus_per_node;
    j["mllog"] = g.mllog;
    j["exclude_nodes"] = g.exclude_nodes;
    j["env"] = g.env;
    j["command"] = commandJson(g.command);
    return j;
}

RunGroup readGroup(const json& j) {
    if (!j.is_object()) throw std::runtime_error("'group' is not an object");
    RunGroup g; // each member starts at the engine's default
#define SCALEBENCH_RECORD_KEY(name, ...) g.name = valueAt(j, #name, g.name);
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_RECORD_KEY)
#undef SCALEBENCH_RECORD_KEY
    g.ranks = valueAt(j, "ranks", g.ranks);
    g.batch_per_rank_by_ranks = valueAt(j, "batch_per_rank_by_ranks", g.batch_per_rank_by_ranks);
    g.gpus_per_node = valueAt(j, "gpus_per_node", g.gpus_per_node);
    g.mllog = valueAt(j, "mllog", g.mllog);
    g.exclude_nodes = valueAt(j, "exclude_nodes", g.exclude_nodes);
    g.env = valueAt(j, "env", g.env);
    if (const auto c = j.find("command"); c != j.end()) {
        if (!c->is_object()) throw std::runtime_error("'command' is not an object");
        g.command = readCommand(*c);
    }
    return g;
}

} // namespace

std::string runRecordJson(const RunSpec& spec) {
    return json{{"version", kRunRecordVersion},
                {"name", spec.name},
                {"ranks", spec.ranks},
                {"repeat", spec.repeat},
                {"ranks_per_node", spec.ranks_per_node},
                {"nodes", spec.nodes},
                {"environment", spec.environment},
                {"group", groupJson(spec.group)}}
        .dump();
}

RunSpec readRunRecord(const std::string& text) {
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw std::runtime_error("the run's record is not a JSON object");
    const int version = valueAt(j, "version", 0);
    if (version != kRunRecordVersion)
        throw std::runtime_error("the run's record has version " + std::to_string(version) +
                                 "; this scalebench reads version " + std::to_string(kRunRecordVersion));
    const auto group = j.find("group");
    if (group == j.end()) throw std::runtime_error("the run's record has no 'group'");
    RunSpec spec;
    spec.name = valueAt(j, "name", spec.name);
    spec.ranks = valueAt(j, "ranks", spec.ranks);
    spec.repeat = valueAt(j, "repeat", spec.repeat);
    spec.ranks_per_node = valueAt(j, "ranks_per_node", spec.ranks_per_node);
    spec.nodes = valueAt(j, "nodes", spec.nodes);
    spec.environment = valueAt(j, "environment", spec.environment);
    spec.group = readGroup(*group);
    return spec;
}

} // namespace scalebench
