// Figures from metric records: statistics over repeats, a run's steady-state figures, speedup and efficiency.
#include "analysis.h"

#include "eval_targets.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <numeric>
#include <stdexcept>

namespace scalebench {

EvalMetricStyle evalMetricStyle(const std::string& metric) {
    if (metric == "accuracy") return {"accuracy", "%", 100, true, 2};
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

std::string formatTargetOutcome(const SummaryRecord& summary) {
    if (!summary.target) return "";
    const std::string& metric = summary.eval_metric;
    const std::string target =
        formatEvalValue(metric, eval_targets::targetInEvaluationUnits(metric, *summary.target));
    if (summary.target_reached && summary.time_to_target_s)
        return fmt::format("reached {} at step {}: time to {} {:.1f} s", target, summary.steps,
                           evalMetricStyle(metric).label, *summary.time_to_target_s);
    return fmt::format("target {} not reached in {} steps (best {})", target, summary.steps,
                       formatEvalValue(metric, summary.best_eval ? summary.best_eval : summary.final_eval));
}

int warmupStepsToSkip(std::size_t step_count) {
    if (step_count < 2) return 0;
    return static_cast<int>(std::clamp<std::size_t>(step_count / 10, 1, 20));
}

RunFigures runFigures(const std::vector<StepRecord>& steps, const std::vector<EvalRecord>& evals,
                      StepTimeConvention convention) {
    RunFigures f;
    f.convention = convention;
    if (!steps.empty()) f.final_loss = steps.back().loss;
    if (!evals.empty()) {
        f.eval_metric = evals.back().metric;
        f.final_eval = evals.back().value;
    }
    const std::size_t skip = convention == StepTimeConvention::LastStep
                                 ? (steps.empty() ? 0 : steps.size() - 1)
                                 : static_cast<std::size_t>(warmupStepsToSkip(steps.size()));
    if (steps.size() <= skip) return f;
    std::vector<double> throughput, tokens, flops, mfu;
    StepBreakdown& b = f.breakdown;
    for (std::size_t i = skip; i < steps.size(); ++i) {
        const StepRecord& s = steps[i];
        throughput.push_back(s.samples_per_s);
        tokens.push_back(s.tokens_per_s);
        flops.push_back(s.model_flops_per_s);
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
    f.model_flops_per_s = median(flops);
    if (!mfu.empty()) f.mfu = median(mfu);
    return f;
}

double communicationShare(const StepBreakdown& breakdown) {
    return breakdown.step_s > 0 ? breakdown.allreduce_s / breakdown.step_s : 0;
}

double computeOnlyThroughput(double samples_per_s, const StepBreakdown& breakdown) {
    const double compute_s = breakdown.step_s - breakdown.allreduce_s;
    return compute_s > 0 ? samples_per_s * breakdown.step_s / compute_s : 0;
}

std::vector<std::string> seriesLabels(const std::vector<SeriesKey>& keys) {
    std::vector<std::string> labels;
    for (const SeriesKey& key : keys) {
        std::string label = key.workload + " " + key.dataset;
        // Named references, not a structured binding: clang before 16 cannot capture those (preset fuzz).
        for (const auto& setting : key.settings) {
            const std::string& name = setting.first;
            const std::string& value = setting.second;
            const bool differs = std::any_of(keys.begin(), keys.end(), [&](const SeriesKey& other) {
                if (other.workload != key.workload || other.dataset != key.dataset) return false;
                const auto it = other.settings.find(name);
                return it == other.settings.end() || it->second != value;
            });
            if (differs) label += " " + name + "=" + value;
        }
        labels.push_back(label);
    }
    return labels;
}

std::vector<ScalingPoint> throughputScaling(const std::vector<RunOutcome>& runs) {
    // series -> ranks -> its repeats
    std::map<SeriesKey, std::map<int, std::vector<const RunOutcome*>>> groups;
    for (const auto& r : runs)
        if (r.samples_per_s > 0) groups[r.series][r.ranks].push_back(&r);
    std::vector<SeriesKey> keys;
    for (const auto& [key, by_ranks] : groups)
        keys.push_back(key);
    const std::vector<std::string> labels = seriesLabels(keys);

    std::vector<ScalingPoint> points;
    std::size_t series_index = 0;
    for (const auto& [key, by_ranks] : groups) {
        const auto valuesOf = [](const std::vector<const RunOutcome*>& repeats, auto figure) {
            std::vector<double> values;
            for (const RunOutcome* r : repeats)
                if (const std::optional<double> v = figure(*r)) values.push_back(*v);
            return values;
        };
        const auto throughputOf = [](const RunOutcome& r) { return std::optional<double>(r.samples_per_s); };
        const auto computeOf = [](const RunOutcome& r) {
            return std::optional<double>(r.compute_only_samples_per_s);
        };
        const auto timeOf = [](const RunOutcome& r) { return r.time_to_target_s; };
        const auto& base = by_ranks.begin()->second;
        const int n0 = by_ranks.begin()->first;
        const double x0 = describe(valuesOf(base, throughputOf)).mean;
        const double c0 = describe(valuesOf(base, computeOf)).mean;
        const std::vector<double> t0_values = valuesOf(base, timeOf);
        const double t0 = describe(t0_values).mean; // 0 where no repeat at N0 reached the target
        for (const auto& [ranks, repeats] : by_ranks) {
            ScalingPoint p;
            p.workload = key.workload;
            p.dataset = key.dataset;
            p.series = key;
            p.label = labels[series_index];
            p.ranks = ranks;
            p.repeats = static_cast<int>(repeats.size());
            p.base_ranks = n0;
            p.base_throughput = x0;
            p.base_compute_only_throughput = c0;
            p.base_time_to_target_s = t0;
            const std::vector<double> x = valuesOf(repeats, throughputOf);
            p.throughput = describe(x);
            std::vector<double> ratios;
            for (double v : x)
                ratios.push_back(v / x0);
            p.speedup_stats = describe(ratios);
            p.speedup = p.throughput.mean / x0;
            p.efficiency = p.speedup * n0 / ranks;
            const double c = describe(valuesOf(repeats, computeOf)).mean;
            p.compute_only_speedup = c0 > 0 ? c / c0 : 0;
            std::vector<double> shares;
            for (const RunOutcome* r : repeats)
                shares.push_back(r->communication_share);
            p.communication_share = describe(shares).mean;
            for (const RunOutcome* r : repeats)
                p.target_repeats += r->has_target ? 1 : 0;
            const std::vector<double> times = valuesOf(repeats, timeOf);
            p.reached = static_cast<int>(times.size());
            p.time_to_target = describe(times);
            if (t0 > 0 && !times.empty()) {
                std::vector<double> time_ratios;
                for (double t : times)
                    time_ratios.push_back(t0 / t);
                p.time_to_target_speedup = describe(time_ratios);
                p.time_to_target_efficiency = p.time_to_target_speedup->mean * n0 / ranks;
            }
            points.push_back(p);
        }
        ++series_index;
    }
    return points;
}

} // namespace scalebench
