// Writes a RunPlan as the TOML that parsePlanText reads back to the same plan (what "Save plan..." stores).
#include "plan_writer.h"

#include "workload_catalog.h"

#include <fmt/format.h>

namespace scalebench {
namespace {

// The shortest text that reads back to the same double; TOML reads "25" as an integer, which plans accept
// for every real-valued key.
std::string tomlNumber(double value) {
    return fmt::format("{}", value);
}

std::string tomlKey(const std::string& key) {
    const bool bare =
        !key.empty() && key.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                              "0123456789_-") == std::string::npos;
    return bare ? key : tomlString(key);
}

template <typename T, typename Format> std::string tomlArray(const std::vector<T>& values, Format format) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        out.append(i ? ", " : "").append(format(values[i]));
    return out + "]";
}

// A value of an option's kind as TOML writes it.
std::string tomlValue(const std::string& value) {
    return tomlString(value);
}
std::string tomlValue(int value) {
    return std::to_string(value);
}
std::string tomlValue(double value) {
    return tomlNumber(value);
}
std::string tomlValue(bool value) {
    return value ? "true" : "false";
}
std::string tomlValue(const std::vector<std::string>& values) {
    return tomlArray(values, tomlString);
}

void writeGroup(std::string& out, const RunGroup& g, PlanKeys keys) {
    const RunGroup defaults;
    const bool every = keys == PlanKeys::Effective;
    const auto line = [&](const std::string& key, const std::string& value) {
        out.append(key).append(" = ").append(value).append("\n");
    };
    const auto integer = [&](const char* key, int value, int fallback) {
        if (every || value != fallback) line(key, std::to_string(value));
    };
    const auto real = [&](const char* key, double value, double fallback) {
        if (every || value != fallback) line(key, tomlNumber(value));
    };
    const auto text = [&](const char* key, const std::string& value, const std::string& fallback) {
        if (every || value != fallback) line(key, tomlString(value));
    };
    const auto texts = [&](const char* key, const std::vector<std::string>& value,
                           const std::vector<std::string>& fallback) {
        if (every || value != fallback) line(key, tomlArray(value, tomlString));
    };
    const auto ranks = [](const std::vector<int>& counts) {
        return tomlArray(counts, [](int n) { return std::to_string(n); });
    };

    out += "\n[[run]]\n";
    const auto environment = [&] {
        if (g.env.empty()) return;
        std::string table = "{ ";
        for (const auto& [name, value] : g.env)
            table.append(table.size() > 2 ? ", " : "")
                .append(tomlKey(name))
                .append(" = ")
                .append(tomlString(value));
        line("env", table + " }");
    };
    if (g.isCommand()) { // a command run: its command, format and container, placed as an engine run
        const CommandRun& c = g.command;
        text("name", c.name, "");
        line("command", tomlArray(c.argv, tomlString));
        line("format", tomlString(c.format));
        text("output", c.output, "");
        line("ranks", ranks(g.ranks));
        integer("gpus_per_node", g.gpus_per_node, defaults.gpus_per_node);
        integer("threads_per_rank", g.threads_per_rank, defaults.threads_per_rank);
        real("peak_tflops", g.peak_tflops, defaults.peak_tflops);
        text("container_image", c.container_image, "");
        texts("container_mounts", c.container_mounts, {});
        texts("exclude_nodes", g.exclude_nodes, {});
        environment();
        return;
    }
    // What the plan reader gives a [[run]] of this workload for a key left out: a key is written where the
    // group says otherwise (every key for PlanKeys::Effective).
    const WorkloadInfo* info = findWorkload(g.workload);
    const RunGroup fallback = info ? groupDefaults(*info, g.dataset) : defaults;
    line("workload", tomlString(g.workload));
    text("dataset", g.dataset, info ? info->datasets.front() : "");
    line("ranks", ranks(g.ranks));
    // Every plan key of the engine's option table, in the table's order; a few are written their own way.
    const auto key = [&](const std::string& name, const auto& value, const auto& left_out) {
        if (name == "workload" || name == "dataset") return;                // written first
        if (name == (g.epochs > 0 ? "steps" : "epochs")) return;            // one says how long
        if (name == "batch_per_rank" && !g.batch_per_rank_by_ranks.empty()) // one per rank count
            return line(name, ranks(g.batch_per_rank_by_ranks));
        if (!every && value == left_out) return;
        if (name == "in_place") // true, false or "both"
            return line(name, g.in_place == "yes"  ? "true"
                              : g.in_place == "no" ? "false"
                                                   : tomlString(g.in_place));
        line(name, tomlValue(value));
    };
#define SCALEBENCH_WRITE_KEY(name, kind, accepts, scope, help, ...) key(#name, g.name, fallback.name);
    SCALEBENCH_PLAN_OPTIONS(SCALEBENCH_WRITE_KEY)
#undef SCALEBENCH_WRITE_KEY
    // The console's keys: where the ranks go, what is logged and exported.
    integer("gpus_per_node", g.gpus_per_node, defaults.gpus_per_node);
    if (every || g.mllog) line("mllog", g.mllog ? "true" : "false");
    texts("exclude_nodes", g.exclude_nodes, {});
    environment();
}

} // namespace

std::string tomlString(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\r':
            out += "\\r";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
                out += fmt::format("\\u{:04X}", static_cast<unsigned char>(c));
            else
                out += c;
        }
    }
    return out + "\"";
}

std::string writePlanToml(const RunPlan& plan, PlanKeys keys) {
    std::string out = "# scalebench plan: `scalebench --batch FILE` runs it.\n"
                      "# Keys left out take their defaults (docs/plans.md).\n";
    out.append("name = ").append(tomlString(plan.name)).append("\n");
    if (!plan.description.empty())
        out.append("description = ").append(tomlString(plan.description)).append("\n");
    const bool every = keys == PlanKeys::Effective;
    if (every || plan.repeats != 1)
        out.append("repeats = ").append(std::to_string(plan.repeats)).append("\n");
    if (every)
        out.append("regression_threshold = ").append(tomlNumber(plan.regression_threshold)).append("\n");
    for (const auto& group : plan.groups)
        writeGroup(out, group, keys);
    return out;
}

} // namespace scalebench
