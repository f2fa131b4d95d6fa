// A session's scaling over its runs' series (series_scaling.h).
#include "series_scaling.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <tuple>

namespace scalebench {

SeriesKey seriesOf(const RunResult& result) {
    if (!result.series.workload.empty()) return result.series;
    return {result.workload, result.dataset, {}};
}

namespace {
// A run MLPerf's result summarizer counts: its log passes the compliance check of the quality (an evaluation
// reached the target), whatever run_stop's status says; where the reader cannot tell, a "success" status.
bool mlperfConverged(const RunResult& r) {
    return r.mlperf_target_met.value_or(r.mlperf_status == "success");
}

// The results tree's scaling.json factor times the olympic average, as the summarizer scores (its
// _compute_strong_score_standalone: olympic mean x scaling_factor), where the runs share one.
void applyScalingFactor(const std::vector<const RunResult*>& runs, MlperfScore& score) {
    const double factor = runs.front()->mlperf_scaling_factor;
    if (std::any_of(runs.begin(), runs.end(),
                    [&](const RunResult* r) { return r->mlperf_scaling_factor != factor; })) {
        score.verdict += "; its runs' scaling.json factors differ: none applied";
        return;
    }
    if (factor == 1) return;
    score.scaling_factor = factor;
    if (score.score_min) *score.score_min *= factor;
    score.verdict += fmt::format("; x {:.6g} (scaling.json)", factor);
}

// The MLPerf runs (those with a time to train) of each series and rank count scored as MLPerf scores a
// benchmark, with the time-to-train speedup against the series' smallest rank count with a score. An MLPerf
// run measures no throughput, so its series and rank count get a point of their own where they have none.
void addMlperfScores(const std::vector<RunResult>& results, std::vector<ScalingPoint>& points) {
    std::map<std::pair<SeriesKey, int>, std::vector<const RunResult*>> mlperf_runs;
    for (const RunResult& r : results)
        // An MLPerf run: its MLLOG was read, also one cut before run_stop (no time: a failed run, as the
        // summarizer counts it).
        if ((r.status == RunStatus::Ok || r.status == RunStatus::Aborted || r.status == RunStatus::Cut) &&
            !r.mlperf_status.empty())
            mlperf_runs[{seriesOf(r), r.ranks}].push_back(&r);
    if (mlperf_runs.empty()) return;
    for (const auto& [key, runs] : mlperf_runs) {
        // Named references, not a structured binding: clang before 16 cannot capture those (preset fuzz).
        const SeriesKey& series = key.first;
        const int ranks = key.second;
        const bool has_point = std::any_of(points.begin(), points.end(), [&](const ScalingPoint& p) {
            return p.series == series && p.ranks == ranks;
        });
        if (has_point) continue;
        ScalingPoint p;
        p.workload = series.workload;
        p.dataset = series.dataset;
        p.series = series;
        p.ranks = ranks;
        p.repeats = static_cast<int>(runs.size());
        points.push_back(p);
    }
    std::stable_sort(points.begin(), points.end(), [](const ScalingPoint& a, const ScalingPoint& b) {
        return std::tie(a.series, a.ranks) < std::tie(b.series, b.ranks);
    });
    std::vector<SeriesKey> keys;
    for (const ScalingPoint& p : points)
        if (keys.empty() || keys.back() != p.series) keys.push_back(p.series);
    const std::vector<std::string> labels = seriesLabels(keys);
    std::map<SeriesKey, std::pair<double, int>> base; // the series' first score and its rank count
    for (ScalingPoint& p : points) {
        p.label =
            labels[static_cast<std::size_t>(std::find(keys.begin(), keys.end(), p.series) - keys.begin())];
        const auto it = mlperf_runs.find({p.series, p.ranks});
        if (it == mlperf_runs.end()) continue;
        const auto scale = p.series.settings.find("scale");
        if (scale != p.series.settings.end() && scale->second == "weak") { // MLPerf HPC: many models at once
            std::vector<MlperfWeakRun> runs;
            for (const RunResult* r : it->second)
                runs.push_back({r->mlperf_time_to_train_min && mlperfConverged(*r) &&
                                    r->mlperf_run_start_ms && r->mlperf_run_stop_ms,
                                r->mlperf_run_start_ms.value_or(0), r->mlperf_run_stop_ms.value_or(0),
                                r->mlperf_instance_scale});
            p.mlperf = weakScore(it->second.front()->mlperf_benchmark, runs);
            continue; // no time-to-train speedup across weak-scaling results
        }
        std::vector<MlperfRun> runs;
        for (const RunResult* r : it->second)
            runs.push_back({r->mlperf_time_to_train_min.value_or(0),
                            r->mlperf_time_to_train_min && mlperfConverged(*r)});
        p.mlperf = olympicScore(it->second.front()->mlperf_benchmark, runs);
        applyScalingFactor(it->second, *p.mlperf);
        if (std::any_of(it->second.begin(), it->second.end(),
                        [](const RunResult* r) { return r->mlperf_division != "closed"; })) {
            p.mlperf->valid = false; // a closed-division result is the only one comparable with MLPerf's
            p.mlperf->verdict += "; not a closed-division log";
        }
        if (!p.mlperf->score_min) continue;
        const auto [first, inserted] = base.try_emplace(p.series, *p.mlperf->score_min, p.ranks);
        p.mlperf_speedup = first->second.first / *p.mlperf->score_min;
        p.mlperf_efficiency = *p.mlperf_speedup * first->second.second / p.ranks;
    }
}
} // namespace

std::vector<ScalingPoint> sessionScaling(const std::vector<RunResult>& results) {
    std::vector<ScalingPoint> points = throughputScaling(results);
    addMlperfScores(results, points);
    return points;
}

std::vector<RunScaling> runScaling(const std::vector<RunResult>& results) {
    std::map<SeriesKey, ScalingPoint> baseline; // smallest rank count of each series
    for (const auto& p : sessionScaling(results))
        if (!baseline.contains(p.series)) baseline[p.series] = p;

    std::vector<RunScaling> out;
    for (const auto& r : results) {
        RunScaling s;
        auto it = baseline.find(seriesOf(r));
        if (r.status == RunStatus::Ok && it != baseline.end() && it->second.throughput.mean > 0) {
            const ScalingPoint& base = it->second;
            // N0's own repeats are the baseline: 1.00x by definition, never 0.98x and 1.02x (each against
            // their mean); how far a repeat lies from its siblings is figureCautions' to say.
            s.speedup = r.ranks == base.ranks ? 1.0 : r.figures.samples_per_s / base.throughput.mean;
            s.efficiency = s.speedup * base.ranks / r.ranks;
            if (r.time_to_target_s && base.reached > 0 && *r.time_to_target_s > 0) {
                s.time_to_target_speedup =
                    r.ranks == base.ranks ? 1.0 : base.time_to_target.mean / *r.time_to_target_s;
                s.time_to_target_efficiency = *s.time_to_target_speedup * base.ranks / r.ranks;
            }
        }
        out.push_back(s);
    }
    return out;
}

std::vector<ScalingPoint> throughputScaling(const std::vector<RunResult>& results) {
    // series -> ranks -> its repeats
    std::map<SeriesKey, std::map<int, std::vector<const RunResult*>>> groups;
    for (const RunResult& r : results)
        if (r.status == RunStatus::Ok && r.figures.samples_per_s > 0)
            groups[seriesOf(r)][r.ranks].push_back(&r);
    std::vector<SeriesKey> keys;
    for (const auto& [key, by_ranks] : groups)
        keys.push_back(key);
    const std::vector<std::string> labels = seriesLabels(keys);

    std::vector<ScalingPoint> points;
    std::size_t series_index = 0;
    for (const auto& [key, by_ranks] : groups) {
        const auto valuesOf = [](const std::vector<const RunResult*>& repeats, auto figure) {
            std::vector<double> values;
            for (const RunResult* r : repeats)
                if (const std::optional<double> v = figure(*r)) values.push_back(*v);
            return values;
        };
        const auto throughputOf = [](const RunResult& r) {
            return std::optional<double>(r.figures.samples_per_s);
        };
        const auto computeOf = [](const RunResult& r) {
            return std::optional<double>(computeOnlyThroughput(r.figures.samples_per_s, r.figures.breakdown));
        };
        const auto timeOf = [](const RunResult& r) { return r.time_to_target_s; };
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
            for (const RunResult* r : repeats)
                shares.push_back(communicationShare(r->figures.breakdown));
            p.communication_share = describe(shares).mean;
            for (const RunResult* r : repeats)
                p.target_repeats += r->target ? 1 : 0;
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
