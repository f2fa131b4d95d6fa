// Figures from metric records: statistics over repeats, a run's steady-state figures, speedup and efficiency.
#include "analysis.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <numeric>
#include <stdexcept>

namespace scalebench {

Statistics describe(const std::vector<double>& values) {
    Statistics s;
    s.count = static_cast<int>(values.size());
    if (values.empty()) return s;
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / s.count;
    if (s.count > 1) {
        double squares = 0;
        for (double v : values)
            squares += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(squares / (s.count - 1));
    }
    return s;
}

double olympicMean(std::vector<double> values) {
    if (values.size() >= 3) {
        std::sort(values.begin(), values.end());
        values = std::vector<double>(values.begin() + 1, values.end() - 1);
    }
    return describe(values).mean;
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

EvalMetricStyle evalMetricStyle(const std::string& metric) {
    if (metric == "accuracy") return {"accuracy", "%", 100, true};
    if (metric == "perplexity") return {"perplexity", "", 1, false};
    if (metric == "bleu") return {"BLEU", "", 1, true};
    if (metric == "loss") return {"eval loss", "", 1, false};
    return {metric, "", 1, true};
}

std::string formatEvalValue(const std::string& metric, std::optional<double> value) {
    if (!value) return "-";
    if (metric == "accuracy") return fmt::format("acc {:.1f}%", *value * 100);
    if (metric == "perplexity") return fmt::format("ppl {:.2f}", *value);
    if (metric == "bleu") return fmt::format("BLEU {:.2f}", *value);
    if (metric == "loss") return fmt::format("loss {:.4f}", *value);
    return fmt::format("{} {:.4g}", metric, *value);
}

int warmupStepsToSkip(std::size_t step_count) {
    if (step_count < 2) return 0;
    return static_cast<int>(std::clamp<std::size_t>(step_count / 10, 1, 20));
}

RunFigures runFigures(const std::vector<StepRecord>& steps, const std::vector<EvalRecord>& evals) {
    RunFigures f;
    if (!steps.empty()) f.final_loss = steps.back().loss;
    if (!evals.empty()) {
        f.eval_metric = evals.back().metric;
        f.final_eval = evals.back().value;
    }
    const std::size_t skip = static_cast<std::size_t>(warmupStepsToSkip(steps.size()));
    if (steps.size() <= skip) return f;
    std::vector<double> throughput, tokens, mfu;
    StepBreakdown& b = f.breakdown;
    for (std::size_t i = skip; i < steps.size(); ++i) {
        const StepRecord& s = steps[i];
        throughput.push_back(s.samples_per_s);
        tokens.push_back(s.tokens_per_s);
        if (s.mfu) mfu.push_back(*s.mfu);
        b.step_s += s.step_s;
        b.data_s += s.data_s;
        b.forward_s += s.forward_s;
        b.backward_s += s.backward_s;
        b.allreduce_s += s.allreduce_s;
        b.optimizer_s += s.optimizer_s;
        b.comm_hidden_s += s.comm_hidden_s;
    }
    f.steady_steps = static_cast<int>(throughput.size());
    for (double* part : {&b.step_s, &b.data_s, &b.forward_s, &b.backward_s, &b.allreduce_s, &b.optimizer_s,
                         &b.comm_hidden_s})
        *part /= f.steady_steps;
    f.samples_per_s = median(throughput);
    f.tokens_per_s = median(tokens);
    if (!mfu.empty()) f.mfu = median(mfu);
    return f;
}

std::vector<ScalingPoint> throughputScaling(const std::vector<RunOutcome>& runs) {
    // (workload, dataset) -> ranks -> samples/s of each repeat
    std::map<std::pair<std::string, std::string>, std::map<int, std::vector<double>>> groups;
    for (const auto& r : runs)
        if (r.samples_per_s > 0) groups[{r.workload, r.dataset}][r.ranks].push_back(r.samples_per_s);

    std::vector<ScalingPoint> points;
    for (const auto& [key, by_ranks] : groups) {
        const int n0 = by_ranks.begin()->first;
        const double x0 = describe(by_ranks.begin()->second).mean;
        for (const auto& [ranks, values] : by_ranks) {
            ScalingPoint p{key.first, key.second, ranks, describe(values), 0, 0};
            p.speedup = p.throughput.mean / x0;
            p.efficiency = p.speedup * n0 / ranks;
            points.push_back(p);
        }
    }
    return points;
}

double busBandwidthFactor(const std::string& collective, int ranks) {
    const double n = ranks;
    if (collective == "allreduce") return 2 * (n - 1) / n;
    if (collective == "allgather" || collective == "reducescatter" || collective == "alltoall")
        return (n - 1) / n;
    if (collective == "broadcast" || collective == "reduce") return 1;
    throw std::invalid_argument("no bus bandwidth factor for collective '" + collective + "'");
}

} // namespace scalebench
