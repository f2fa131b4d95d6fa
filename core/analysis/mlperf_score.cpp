// MLPerf Training's score of a benchmark from a set of runs: the olympic average of their times to train.
#include "mlperf_score.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace scalebench {

std::string formatTimeToTrain(double minutes) {
    if (minutes >= 0.1) return fmt::format("{:.2f} min", minutes);
    return fmt::format("{:.2f} min ({:.1f} s)", minutes, minutes * 60);
}

std::optional<MlperfRunCount> mlperfRunCount(const std::string& benchmark) {
    // mlperf-logging 4.1.68, mlperf_logging/benchmark_meta.py, _ALL_RESULT_FILE_COUNTS['training'].
    static const std::map<std::string, int> required = {{"bert", 10},
                                                        {"dlrm", 5},
                                                        {"dlrm_dcnv2", 10},
                                                        {"gnmt", 10},
                                                        {"gpt3", 3},
                                                        {"maskrcnn", 5},
                                                        {"minigo", 10},
                                                        {"resnet", 5},
                                                        {"ssd", 5},
                                                        {"retinanet", 5},
                                                        {"stable_diffusion", 10},
                                                        {"transformer", 10},
                                                        {"ncf", 10},
                                                        {"rnnt", 10},
                                                        {"unet3d", 40},
                                                        {"gnn", 10},
                                                        {"rgat", 10},
                                                        {"llama2_70b_lora", 10},
                                                        {"llama31_405b", 3},
                                                        {"llama31_8b", 10},
                                                        {"flux1", 10},
                                                        {"gpt_oss_20b", 10},
                                                        {"deepseekv3_671b", 3},
                                                        {"qwen35_397b_grpo", 3},
                                                        {"dlrmv4", 10},
                                                        // MLPerf HPC's strong scaling
                                                        // (_ALL_RESULT_FILE_COUNTS['hpc'])
                                                        {"cosmoflow", 10},
                                                        {"deepcam", 5},
                                                        {"oc20", 5},
                                                        {"openfold", 10}};
    const auto it = required.find(benchmark);
    if (it == required.end()) return std::nullopt;
    return MlperfRunCount{it->second, benchmark == "unet3d" ? 4 : 1};
}

MlperfScore olympicScore(const std::string& benchmark, const std::vector<MlperfRun>& runs) {
    MlperfScore score;
    score.benchmark = benchmark;
    score.runs = static_cast<int>(runs.size());
    const std::optional<MlperfRunCount> count = mlperfRunCount(benchmark);
    const int dropped_each_side = count ? count->dropped_each_side : 1;
    if (count) score.required = count->required;

    std::vector<double> times;
    for (const MlperfRun& run : runs)
        if (run.converged) times.push_back(run.time_to_train_min);
    score.converged = static_cast<int>(times.size());
    const int not_converged = score.runs - score.converged;
    if (not_converged > dropped_each_side) {
        score.verdict = fmt::format("invalid: {} of {} runs did not converge (the rules allow {})",
                                    not_converged, score.runs, dropped_each_side);
        return score;
    }
    std::sort(times.begin(), times.end());
    const auto from_fast =
        static_cast<std::ptrdiff_t>(std::min<std::size_t>(dropped_each_side, times.size()));
    const auto from_slow = static_cast<std::ptrdiff_t>(dropped_each_side - not_converged);
    if (static_cast<std::ptrdiff_t>(times.size()) - from_fast - from_slow <= 0) {
        score.verdict = fmt::format("no score: {} converged run{}, none left once the {} fastest and slowest "
                                    "are dropped",
                                    score.converged, score.converged == 1 ? "" : "s", dropped_each_side);
        return score;
    }
    double sum = 0;
    const auto counted_begin = times.begin() + from_fast;
    const auto counted_end = times.end() - from_slow;
    for (auto t = counted_begin; t != counted_end; ++t)
        sum += *t;
    const auto counted = counted_end - counted_begin;
    score.score_min = sum / static_cast<double>(counted);
    score.verdict = fmt::format("olympic average of {} of {} runs", counted, score.runs);
    if (!count) {
        score.verdict += fmt::format("; MLPerf's rules name no run count for {}",
                                     benchmark.empty() ? "an unnamed benchmark" : benchmark);
    } else if (score.runs < count->required) {
        score.verdict +=
            fmt::format("; not a valid MLPerf result: {} needs {} runs", benchmark, count->required);
    } else {
        score.valid = true;
    }
    return score;
}

MlperfScore weakScore(const std::string& benchmark, const std::vector<MlperfWeakRun>& runs) {
    MlperfScore score;
    score.benchmark = benchmark;
    score.runs = static_cast<int>(runs.size());
    const std::optional<MlperfRunCount> count = mlperfRunCount(benchmark);
    if (count) score.required = count->required;
    MlperfScore::Weak weak;
    double first_start = 0, last_stop = 0;
    for (const MlperfWeakRun& run : runs) {
        if (!run.converged) continue;
        first_start = weak.models == 0 ? run.run_start_ms : std::min(first_start, run.run_start_ms);
        last_stop = weak.models == 0 ? run.run_stop_ms : std::max(last_stop, run.run_stop_ms);
        weak.instance_scale = std::max(weak.instance_scale, run.instance_scale);
        ++weak.models;
    }
    score.converged = weak.models;
    if (count && weak.models < count->required) {
        score.verdict = fmt::format("no weak-scaling score: {} converged model{}, {} needs {}", weak.models,
                                    weak.models == 1 ? "" : "s", benchmark, count->required);
        return score;
    }
    if (weak.models == 0) {
        score.verdict = "no weak-scaling score: no converged model";
        return score;
    }
    weak.time_to_train_all_min = (last_stop - first_start) / 60000;
    score.score_min = weak.time_to_train_all_min;
    score.weak = weak;
    score.valid = count.has_value();
    score.verdict =
        fmt::format("weak scaling: {} models of {} accelerators each, all trained in {:.6f} min: {:.4f} "
                    "models/min",
                    weak.models, weak.instance_scale, weak.time_to_train_all_min,
                    weak.models / weak.time_to_train_all_min);
    return score;
}

} // namespace scalebench
