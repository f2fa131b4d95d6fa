// The engine's command line for one run of a plan (what a job script launches on every rank).
#include "engine_invocation.h"

#include <fmt/format.h>

namespace scalebench {

std::vector<std::string> engineArguments(const RunSpec& run, const std::string& engine,
                                         const std::string& metrics_path) {
    const RunGroup& g = run.group;
    return {engine,
            "--workload",
            g.workload,
            "--dataset",
            g.dataset,
            "--steps",
            std::to_string(g.steps),
            "--batch-per-rank",
            std::to_string(g.batch_per_rank),
            "--lr",
            fmt::format("{}", g.lr),
            "--warmup-steps",
            std::to_string(g.warmup_steps),
            "--eval-every",
            std::to_string(g.eval_every),
            "--eval-samples",
            std::to_string(g.eval_samples),
            "--threads",
            std::to_string(g.threads_per_rank),
            "--seed",
            std::to_string(g.seed),
            "--metrics",
            metrics_path};
}

} // namespace scalebench
