// The engine's command line for one run of a plan (what a job script launches on every rank).
#include "engine_invocation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace scalebench {

std::vector<std::string> engineArguments(const RunSpec& run, const std::string& engine,
                                         const std::string& metrics_path) {
    const RunGroup& g = run.group;
    std::vector<std::string> words = {engine};
    auto option = [&](const char* name, std::string value) {
        words.emplace_back(name);
        words.push_back(std::move(value));
    };
    option("--workload", g.workload);
    option("--dataset", g.dataset);
    option("--steps", std::to_string(g.steps));
    option("--batch-per-rank", std::to_string(g.batch_per_rank));
    option("--lr", fmt::format("{}", g.lr));
    option("--warmup-steps", std::to_string(g.warmup_steps));
    option("--eval-every", std::to_string(g.eval_every));
    option("--eval-samples", std::to_string(g.eval_samples));
    option("--threads", std::to_string(g.threads_per_rank));
    option("--seed", std::to_string(g.seed));
    option("--sweep-points", std::to_string(g.sweep_points));
    option("--sweep-max-log10", fmt::format("{}", g.sweep_max_log10));
    option("--repetitions", std::to_string(g.repetitions));
    option("--warmup-iterations", std::to_string(g.warmup_iterations));
    // Options the engine takes in later versions: passed only when they differ from its defaults, so that
    // an engine without them still runs the plans that do not use them.
    const RunGroup defaults;
    if (g.backend != defaults.backend) option("--backend", g.backend);
    if (g.bucket_mb != defaults.bucket_mb) option("--bucket-mb", fmt::format("{}", g.bucket_mb));
    if (!g.overlap) words.emplace_back("--no-overlap");
    if (g.precision != defaults.precision) option("--precision", g.precision);
    if (g.target_accuracy > 0) option("--target-accuracy", fmt::format("{}", g.target_accuracy));
    if (g.target > 0) option("--target", fmt::format("{}", g.target));
    if (!g.preset.empty()) option("--preset", g.preset);
    if (g.seq_len > 0) option("--seq-len", std::to_string(g.seq_len));
    if (g.collectives != defaults.collectives)
        option("--collectives", fmt::format("{}", fmt::join(g.collectives, ",")));
    if (g.dtypes != defaults.dtypes) option("--dtypes", fmt::format("{}", fmt::join(g.dtypes, ",")));
    if (g.ops != defaults.ops) option("--ops", fmt::format("{}", fmt::join(g.ops, ",")));
    if (g.in_place != defaults.in_place)
        option("--placement", g.in_place == "yes" ? "in-place" : g.in_place == "both" ? "both" : "out-of-place");
    option("--metrics", metrics_path);
    return words;
}

} // namespace scalebench
