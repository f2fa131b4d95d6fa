// The results of a session as a text table for the terminal and as CSV.
#include "results_table.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace scalebench {

std::vector<ScalingPoint> sessionScaling(const std::vector<RunResult>& results) {
    std::vector<RunOutcome> outcomes;
    for (const auto& r : results)
        if (r.status == "ok") outcomes.push_back({r.workload, r.dataset, r.ranks, r.figures.samples_per_s});
    return throughputScaling(outcomes);
}

std::vector<RunScaling> runScaling(const std::vector<RunResult>& results) {
    std::map<std::pair<std::string, std::string>, ScalingPoint>
        baseline; // smallest rank count of each workload
    for (const auto& p : sessionScaling(results))
        if (!baseline.contains({p.workload, p.dataset})) baseline[{p.workload, p.dataset}] = p;

    std::vector<RunScaling> out;
    for (const auto& r : results) {
        RunScaling s;
        auto it = baseline.find({r.workload, r.dataset});
        if (r.status == "ok" && it != baseline.end() && it->second.throughput.mean > 0) {
            s.speedup = r.figures.samples_per_s / it->second.throughput.mean;
            s.efficiency = s.speedup * it->second.ranks / r.ranks;
        }
        out.push_back(s);
    }
    return out;
}

namespace {
std::string milliseconds(double seconds) {
    return fmt::format("{:.1f}", seconds * 1e3);
}
} // namespace

std::string formatResultsTable(const std::vector<RunResult>& results) {
    const auto scaling = runScaling(results);
    std::string out =
        fmt::format("{:<34} {:>5} {:>6} {:>10} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} {:>7} "
                    "{:>12}\n",
                    "run", "ranks", "status", "samples/s", "step ms", "data", "fwd", "bwd", "allred", "optim",
                    "speedup", "eff", "loss", "eval");
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
        const StepBreakdown& b = r.figures.breakdown;
        if (r.figures.steady_steps == 0 && !r.collectives.empty()) {
            double peak = 0;
            for (const auto& c : r.collectives)
                peak = std::max(peak, c.busbw_gbps);
            out += fmt::format("{:<34} {:>5} {:>6}   collective sweep: {} sizes, peak busbw {:.3f} GB/s\n",
                               r.name, r.ranks, r.status, r.collectives.size(), peak);
        } else if (r.figures.steady_steps == 0) {
            out += fmt::format("{:<34} {:>5} {:>6}   (no steady-state steps)\n", r.name, r.ranks, r.status);
        } else {
            out += fmt::format(
                "{:<34} {:>5} {:>6} {:>10.1f} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} "
                "{:>7.4f} {:>12}\n",
                r.name, r.ranks, r.status, r.figures.samples_per_s, milliseconds(b.step_s),
                milliseconds(b.data_s), milliseconds(b.forward_s), milliseconds(b.backward_s),
                milliseconds(b.allreduce_s), milliseconds(b.optimizer_s),
                scaling[i].speedup > 0 ? fmt::format("{:.2f}x", scaling[i].speedup) : "-",
                scaling[i].speedup > 0 ? fmt::format("{:.0f}%", scaling[i].efficiency * 100) : "-",
                r.figures.final_loss, formatEvalValue(r.figures.eval_metric, r.figures.final_eval));
        }
        if (!r.requeues.empty()) out += "    " + r.requeues + "\n";
        if (!r.error.empty()) out += "    error: " + r.error + "\n";
    }
    out += "samples/s: median over steady-state steps; step and its parts: mean ms per step (data, forward, "
           "backward, all-reduce, optimizer);\nspeedup S(N) = X(N)/X(N0) against the smallest rank count N0, "
           "efficiency E(N) = S(N) * N0/N.\n";
    return out;
}

std::string formatCollectiveSweeps(const std::vector<RunResult>& results) {
    std::string out;
    for (const RunResult& r : results) {
        if (r.collectives.empty()) continue;
        out += fmt::format("\n{} ({} ranks; time: mean per call across ranks; busbw = algbw x 2(n-1)/n for "
                           "all-reduce, as nccl-tests)\n",
                           r.name, r.ranks);
        out += fmt::format("{:>12} {:>12} {:>10} {:>12} {:>14} {:>14} {:>8}\n", "bytes", "elements", "dtype",
                           "time us", "algbw GB/s", "busbw GB/s", "correct");
        for (const auto& c : r.collectives)
            out +=
                fmt::format("{:>12} {:>12} {:>10} {:>12.2f} {:>14.3f} {:>14.3f} {:>8}\n", c.bytes, c.elements,
                            c.dtype, c.time_s * 1e6, c.algbw_gbps, c.busbw_gbps, c.correct ? "yes" : "NO");
    }
    return out;
}

std::string resultsCsv(const std::vector<RunResult>& results) {
    const auto scaling = runScaling(results);
    std::string out =
        "run,workload,dataset,ranks,repeat,status,samples_per_s,step_s,data_s,forward_s,backward_s,"
        "allreduce_s,optimizer_s,speedup,efficiency,final_loss,eval_metric,final_eval,tokens_per_s,mfu\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
        const StepBreakdown& b = r.figures.breakdown;
        out += fmt::format(
            "{},{},{},{},{},{},{:.3f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.4f},{:.4f},{:.6f},{},{},{:"
            ".1f},{}\n",
            r.name, r.workload, r.dataset, r.ranks, r.repeat, r.status, r.figures.samples_per_s, b.step_s,
            b.data_s, b.forward_s, b.backward_s, b.allreduce_s, b.optimizer_s, scaling[i].speedup,
            scaling[i].efficiency, r.figures.final_loss, r.figures.final_eval ? r.figures.eval_metric : "",
            r.figures.final_eval ? fmt::format("{:.6f}", *r.figures.final_eval) : "", r.figures.tokens_per_s,
            r.figures.mfu ? fmt::format("{:.4f}", *r.figures.mfu) : "");
    }
    return out;
}

} // namespace scalebench
