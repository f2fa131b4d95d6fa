// The engine's command line for one run of a plan (what a job script launches on every rank).
#include "engine_invocation.h"

#include <fmt/format.h>

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
    option("--metrics", metrics_path);
    return words;
}

} // namespace scalebench
