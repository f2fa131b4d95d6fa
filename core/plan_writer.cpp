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

void writeGroup(std::string& out, const RunGroup& g, PlanKeys keys) {
    const RunGroup defaults;
    const bool every = keys == PlanKeys::Effective;
    const WorkloadInfo* info = findWorkload(g.workload);
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
        line("ranks", tomlArray(g.ranks, [](int n) { return std::to_string(n); }));
        integer("gpus_per_node", g.gpus_per_node, defaults.gpus_per_node);
        integer("threads_per_rank", g.threads_per_rank, defaults.threads_per_rank);
        real("peak_tflops", g.peak_tflops, defaults.peak_tflops);
        text("container_image", c.container_image, "");
        texts("container_mounts", c.container_mounts, {});
        texts("exclude_nodes", g.exclude_nodes, {});
        environment();
        return;
    }
    line("workload", tomlString(g.workload));
    text("dataset", g.dataset, info ? info->datasets.front() : "");
    line("ranks", tomlArray(g.ranks, [](int n) { return std::to_string(n); }));
    if (every || g.check_device != defaults.check_device) // what the group's runs do: said first
        line("check_device", g.check_device ? "true" : "false");
    integer("gpus_per_node", g.gpus_per_node, defaults.gpus_per_node);
    text("data_dir", g.data_dir, defaults.data_dir);
    if (g.epochs > 0)
        real("epochs", g.epochs, defaults.epochs); // instead of steps
    else
        integer("steps", g.steps, defaults.steps);
    text("preset", g.preset, info && !info->presets.empty() ? info->presets.front() : "");
    integer("seq_len", g.seq_len, defaults.seq_len);
    real("target", g.target, info ? defaultTarget(*info, g.dataset) : defaults.target);
    real("peak_tflops", g.peak_tflops, defaults.peak_tflops);
    if (!g.batch_per_rank_by_ranks.empty())
        line("batch_per_rank", tomlArray(g.batch_per_rank_by_ranks, [](int n) { return std::to_string(n); }));
    else
        integer("batch_per_rank", g.batch_per_rank, info ? info->batch_per_rank : defaults.batch_per_rank);
    integer("global_batch", g.global_batch, defaults.global_batch);
    real("lr", g.lr, info ? info->base_lr : defaults.lr);
    integer("warmup_steps", g.warmup_steps, defaults.warmup_steps);
    integer("eval_every", g.eval_every, info ? info->eval_every : defaults.eval_every);
    integer("eval_samples", g.eval_samples, info ? info->eval_samples : defaults.eval_samples);
    integer("threads_per_rank", g.threads_per_rank, defaults.threads_per_rank);
    integer("seed", g.seed, defaults.seed);
    text("precision", g.precision, defaults.precision);
    text("backend", g.backend, defaults.backend);
    text("device", g.device, defaults.device);
    real("bucket_mb", g.bucket_mb, defaults.bucket_mb);
    if (every || g.overlap != defaults.overlap) line("overlap", g.overlap ? "true" : "false");
    if (every || g.mllog) line("mllog", g.mllog ? "true" : "false");
    texts("exclude_nodes", g.exclude_nodes, {});
    integer("sweep_points", g.sweep_points, defaults.sweep_points);
    real("sweep_max_log10", g.sweep_max_log10, defaults.sweep_max_log10);
    integer("repetitions", g.repetitions, defaults.repetitions);
    integer("warmup_iterations", g.warmup_iterations, defaults.warmup_iterations);
    texts("collectives", g.collectives, defaults.collectives);
    texts("dtypes", g.dtypes, defaults.dtypes);
    texts("ops", g.ops, defaults.ops);
    if (every || g.in_place != defaults.in_place)
        line("in_place", g.in_place == "yes"  ? "true"
                         : g.in_place == "no" ? "false"
                                              : tomlString(g.in_place));
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
