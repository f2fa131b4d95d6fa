// A run's quality target, as the console and the engine both read it: written in the unit the console shows
// the workload's evaluation metric in (accuracy in %, perplexity, BLEU 0-100, loss), checked against the
// metric's range, and compared with the engine's evaluations (accuracy there is a fraction).
#pragma once

#include <string>

namespace scalebench::eval_targets {

// Why `target` cannot be a target of `metric` (accuracy, perplexity, bleu, loss); "" when it can. 0 means no
// target and is always accepted.
inline std::string targetProblem(const std::string& metric, double target) {
    const auto shown = [&] {
        std::string text = std::to_string(target);
        text.erase(text.find_last_not_of('0') + 1);
        if (!text.empty() && text.back() == '.') text.pop_back();
        return text;
    };
    if (target == 0) return "";
    if (target < 0) return "a target is more than 0 (0: none), not " + shown();
    if (metric == "accuracy") {
        if (target <= 1) {
            const std::string percent = std::to_string(static_cast<int>(target * 100 + 0.5));
            return "an accuracy target is in percent (80 for 80 %): " + shown() +
                   " reads as a fraction; write " + percent + " for " + percent + " %";
        }
        if (target > 100) return "an accuracy target is at most 100 (%), not " + shown();
    } else if (metric == "bleu") {
        if (target > 100) return "a BLEU target is at most 100, not " + shown();
    } else if (metric == "perplexity") {
        if (target <= 1)
            return "a perplexity target is more than 1 (a perplexity is at least 1), not " + shown();
    }
    return "";
}

// The target as the engine's evaluations measure the metric (accuracy: the fraction of `target` %).
inline double targetInEvaluationUnits(const std::string& metric, double target) {
    return metric == "accuracy" ? target / 100 : target;
}

} // namespace scalebench::eval_targets
