// A benchmark plan (TOML) and its expansion into runs: workload x ranks x repeat.
#include "run_plan.h"

#include "toml_table_reader.h"
#include "workload_catalog.h"

#include <algorithm>

namespace scalebench {
namespace {

RunGroup readGroup(const toml::table& table, const std::string& file, int index) {
    TableReader r(table, file, "[[run]] #" + std::to_string(index),
                  {"workload", "dataset", "ranks", "steps", "batch_per_rank", "lr", "warmup_steps",
                   "eval_every", "eval_samples", "threads_per_rank", "seed", "sweep_points",
                   "sweep_max_log10", "repetitions", "warmup_iterations"});
    RunGroup g;
    g.workload = r.text("workload", "", true);
    const WorkloadInfo* info = findWorkload(g.workload);
    if (!info) {
        std::vector<std::string> names;
        for (const auto& w : workloadCatalog())
            names.push_back(w.name);
        r.fail(*table.get("workload"), "workload",
               "unknown workload '" + g.workload + "' (known: " + joinedWords(names) + ")");
    }
    g.dataset = r.text("dataset", info->datasets.front());
    if (std::find(info->datasets.begin(), info->datasets.end(), g.dataset) == info->datasets.end())
        r.fail(*table.get("dataset"), "dataset",
               "workload '" + g.workload + "' has no dataset '" + g.dataset +
                   "' (known: " + joinedWords(info->datasets) + ")");
    g.ranks = r.positiveIntegers("ranks");
    g.steps = r.integer("steps", g.steps, 1);
    g.batch_per_rank = r.integer("batch_per_rank", info->batch_per_rank, 1);
    g.lr = r.real("lr", info->base_lr);
    g.warmup_steps = r.integer("warmup_steps", g.warmup_steps, 0);
    g.eval_every = r.integer("eval_every", g.eval_every, 0);
    g.eval_samples = r.integer("eval_samples", g.eval_samples, 1);
    g.threads_per_rank = r.integer("threads_per_rank", g.threads_per_rank, 0);
    g.seed = r.integer("seed", g.seed, 0);
    g.sweep_points = r.integer("sweep_points", g.sweep_points, 1);
    g.sweep_max_log10 = r.real("sweep_max_log10", g.sweep_max_log10);
    g.repetitions = r.integer("repetitions", g.repetitions, 1);
    g.warmup_iterations = r.integer("warmup_iterations", g.warmup_iterations, 0);
    return g;
}

} // namespace

PlanError::PlanError(const std::string& file, int line, const std::string& key, const std::string& problem)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + problem), file_(file), line_(line),
      key_(key) {}

RunPlan parsePlanText(const std::string& text, const std::string& file_name) {
    const toml::table root = parseTomlDocument(text, file_name);
    TableReader r(root, file_name, "", {"name", "description", "repeats", "run"});
    RunPlan plan;
    plan.source_text = text;
    plan.name = r.text("name", "", true);
    plan.description = r.text("description", "");
    plan.repeats = r.integer("repeats", 1, 1);
    plan.groups = readArrayOfTables(root, file_name, "run", r, readGroup);
    return plan;
}

RunPlan parsePlanFile(const std::filesystem::path& path) {
    return parsePlanText(readTomlFile(path, "plan file"), path.string());
}

std::vector<RunSpec> expandPlan(const RunPlan& plan) {
    std::vector<RunSpec> runs;
    for (const auto& group : plan.groups)
        for (int ranks : group.ranks)
            for (int repeat = 1; repeat <= plan.repeats; ++repeat)
                runs.push_back({group.workload + "-" + group.dataset + "-n" + std::to_string(ranks) + "-r" +
                                    std::to_string(repeat),
                                group, ranks, repeat});
    return runs;
}

} // namespace scalebench
