// Figures from metric records: statistics over repeats, a run's steady-state figures, speedup and efficiency.
#include "analysis.h"

#include "eval_targets.h"
#include "metric_stream.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <numeric>
#include <stdexcept>

namespace scalebench {

namespace {
// Every evaluation metric, one row each: the stream's word, how it is named and shown, which way is better.
struct EvalMetricRow {
    std::string_view metric;
    EvalMetricStyle style;
    std::string_view short_label; // in the terminal's table: "acc 85.7%"
    int short_decimals;
};
const std::vector<EvalMetricRow>& evalMetricRows() {
    namespace m = metric_stream::eval_metric;
    static const std::vector<EvalMetricRow> rows = {
        {m::kAccuracy, {"accuracy", "%", 100, true, 2}, "acc", 1},
        {m::kPerplexity, {"perplexity", "", 1, false}, "ppl", 2},
        {m::kLogPerplexity, {"log perplexity", "", 1, false}, "log ppl", 4},
        {m::kBleu, {"BLEU", "", 1, true}, "BLEU", 2},
        {m::kLoss, {"eval loss", "", 1, false}, "loss", 4},
        {m::kFid, {"FID", "", 1, false}, "FID", 2},
        {m::kClip, {"CLIP score", "", 1, true}, "CLIP", 4},
        {m::kError, {"error", "", 1, false}, "error", 4},
    };
    return rows;
}
const EvalMetricRow* evalMetricRow(const std::string& metric) {
    for (const EvalMetricRow& row : evalMetricRows())
        if (row.metric == metric) return &row;
    return nullptr;
}
} // namespace

EvalMetricStyle evalMetricStyle(const std::string& metric) {
    const EvalMetricRow* row = evalMetricRow(metric);
    return row ? row->style : EvalMetricStyle{metric, "", 1, true};
}

std::string formatEvalValue(const std::string& metric, std::optional<double> value) {
    if (!value) return "-";
    const EvalMetricRow* row = evalMetricRow(metric);
    if (!row) return fmt::format("{} {:.4g}", metric, *value);
    return fmt::format("{} {:.{}f}{}", row->short_label, *value * row->style.scale, row->short_decimals,
                       row->style.unit);
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

bool partsMeasured(const StepBreakdown& b) {
    return b.data_s + b.forward_s + b.backward_s + b.allreduce_s + b.optimizer_s > 0;
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
        std::string label = key.dataset.empty() ? key.workload : key.workload + " " + key.dataset;
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

} // namespace scalebench
