// Two sessions' figures side by side: every figure of runs matched by (workload, dataset, settings, ranks)
// with the difference in percent, judged against the noise of their repeats; and the whole comparison as text
// for the terminal. What the sessions ran with is compared in settings_comparison.cpp.
#include "session_comparison.h"

#include "session_results.h"
#include "session_store.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>
#include <tuple>

namespace scalebench {

namespace {

// workload, dataset, the settings that tell its series apart ("precision=bf16 preset=tiny"), ranks
using GroupKey = std::tuple<std::string, std::string, std::string, int>;

// Settings that change what a run measures whatever else differs: matched runs must agree on them.
const std::set<std::string> kMeasuredSettings = {"preset",       "precision",    "seq-len", "batch-per-rank",
                                                 "global-batch", "accumulation", "device"};

// The setting names that differ between series of one session (a session's groups that ran with other
// backends, batches...): runs that differ in them are never pooled.
std::set<std::string> varyingSettings(const std::vector<RunResult>& results) {
    std::map<std::string, std::set<std::string>> values;
    std::set<std::string> names;
    std::vector<SeriesKey> keys;
    for (const RunResult& r : results)
        keys.push_back(seriesOf(r));
    for (const SeriesKey& key : keys)
        for (const auto& [name, value] : key.settings)
            names.insert(name);
    std::set<std::string> varying;
    for (const std::string& name : names) {
        std::set<std::string> seen;
        for (const SeriesKey& key : keys) {
            const auto it = key.settings.find(name);
            seen.insert(it == key.settings.end() ? std::string("(none)") : it->second);
        }
        if (seen.size() > 1) varying.insert(name);
    }
    return varying;
}

// "precision=bf16 preset=tiny": the run's values of `names` it has.
std::string settingsText(const SeriesKey& series, const std::set<std::string>& names) {
    std::string text;
    for (const std::string& name : names)
        if (const auto it = series.settings.find(name); it != series.settings.end())
            text += (text.empty() ? "" : " ") + name + "=" + it->second;
    return text;
}

struct FigureValue {
    std::string figure;
    std::string unit;
    Better better = Better::Neither;
    int decimals = 2;
    double value = 0;
    std::vector<double> repeats{}; // each repeat's, where the figure is a mean over repeats
};

// A figure of the registry's (figure_registry.h) with its value; `label` where it names more than the row
// does (a sweep's peak busbw names its backend, collective, dtype and op).
FigureValue figureValue(Figure figure, double value, std::vector<double> repeats = {},
                        std::string label = {}) {
    const FigureStyle& style = figureStyle(figure);
    return {label.empty() ? std::string(style.label) : std::move(label),
            std::string(style.unit),
            style.better,
            style.decimals,
            value,
            std::move(repeats)};
}

std::string sweepName(const CollectiveRecord& c) {
    return fmt::format("peak busbw {}{} {} {} {}{}", c.tool == "scalebench" ? "" : c.tool + " ", c.backend,
                       c.collective, c.dtype, c.op, c.in_place ? " in-place" : "");
}

using FiguresByGroup = std::map<GroupKey, std::vector<FigureValue>>;

// A session's successful runs by group: the training runs with steady-state steps, and each run's peak busbw
// per collective sweep.
struct SessionGroups {
    std::map<GroupKey, std::vector<const RunResult*>> training;
    std::map<GroupKey, std::map<std::string, std::vector<double>>> sweeps;
};

SessionGroups sessionGroups(const std::vector<RunResult>& results, const std::set<std::string>& keyed) {
    SessionGroups groups;
    for (const RunResult& r : results) {
        if (r.status != RunStatus::Ok) continue;
        const GroupKey key{r.workload, r.dataset, settingsText(seriesOf(r), keyed), r.ranks};
        if (r.figures.steady_steps > 0) groups.training[key].push_back(&r);
        std::map<std::string, double> peaks;
        for (const CollectiveRecord& c : r.collectives)
            peaks[sweepName(c)] = std::max(peaks[sweepName(c)], c.busbw_gbps);
        for (const auto& [name, peak] : peaks)
            groups.sweeps[key][name].push_back(peak);
    }
    return groups;
}

// sessionScaling's points by group: one series per key.
std::map<GroupKey, ScalingPoint> scalingByGroup(const std::vector<RunResult>& results,
                                                const std::set<std::string>& keyed) {
    std::map<GroupKey, ScalingPoint> scaling;
    for (const ScalingPoint& p : sessionScaling(results))
        scaling[{p.workload, p.dataset, settingsText(p.series, keyed), p.ranks}] = p;
    return scaling;
}

// The repeats of one group's training runs: a figure of theirs is the mean over them, with each repeat's
// value for changeOrNoise.
class Repeats {
  public:
    explicit Repeats(const std::vector<const RunResult*>& runs)
        : runs_(runs), count_(static_cast<double>(runs.size())) {}

    const std::vector<const RunResult*>& runs() const { return runs_; }
    const RunFigures& firstFigures() const { return runs_.front()->figures; }

    template <typename Part> double mean(Part part) const {
        double sum = 0;
        for (const RunResult* r : runs_)
            sum += part(*r);
        return sum / count_;
    }
    template <typename Part> FigureValue measured(Figure figure, Part part) const {
        FigureValue v = figureValue(figure, mean(part));
        for (const RunResult* r : runs_)
            v.repeats.push_back(part(*r));
        return v;
    }

  private:
    const std::vector<const RunResult*>& runs_;
    double count_;
};

// Throughput, MFU and the step time with each part of its breakdown (ms).
void addStepFigures(const Repeats& g, std::vector<FigureValue>& f) {
    const auto ms = [&](Figure figure, double StepBreakdown::*part) {
        return g.measured(figure, [part](const RunResult& r) { return r.figures.breakdown.*part * 1e3; });
    };
    f.push_back(g.measured(Figure::SamplesPerS, [](const RunResult& r) { return r.figures.samples_per_s; }));
    if (g.firstFigures().tokens_per_s > 0)
        f.push_back(
            g.measured(Figure::TokensPerS, [](const RunResult& r) { return r.figures.tokens_per_s; }));
    if (g.firstFigures().mfu)
        f.push_back(
            g.measured(Figure::Mfu, [](const RunResult& r) { return r.figures.mfu.value_or(0) * 100; }));
    f.push_back(ms(Figure::StepTime, &StepBreakdown::step_s));
    f.push_back(ms(Figure::DataLoading, &StepBreakdown::data_s));
    f.push_back(ms(Figure::Forward, &StepBreakdown::forward_s));
    f.push_back(ms(Figure::Backward, &StepBreakdown::backward_s));
    f.push_back(ms(Figure::Optimizer, &StepBreakdown::optimizer_s));
    f.push_back(ms(Figure::ExposedCommunication, &StepBreakdown::allreduce_s));
    f.push_back(ms(Figure::HiddenCommunication, &StepBreakdown::comm_hidden_s));
}

// Time to target over the repeats that reached it, and its speedup T(N0) / T_i(N).
void addTimeToTargetFigures(const Repeats& g, const ScalingPoint& p, std::vector<FigureValue>& f) {
    std::vector<double> times;
    for (const RunResult* r : g.runs())
        if (r->time_to_target_s) times.push_back(*r->time_to_target_s);
    if (p.reached > 0) f.push_back(figureValue(Figure::TimeToTarget, p.time_to_target.mean, times));
    if (!p.time_to_target_speedup) return;
    // T(N0) / T_i(N) for each repeat that reached the target.
    const double t0 = p.base_time_to_target_s;
    std::vector<double> ratios;
    for (double t : times)
        if (t > 0) ratios.push_back(t0 / t);
    f.push_back(figureValue(Figure::TimeToTargetSpeedup, p.time_to_target_speedup->mean, ratios));
}

// The figures derived from the group's scaling point: speedup, efficiency, compute-only speedup,
// communication share, then time to target.
void addScalingFigures(const Repeats& g, const ScalingPoint& p, std::vector<FigureValue>& f) {
    // Each repeat's speedup against the same N0 mean as the point's (S = X_i(N) / mean X(N0)), so
    // that changeOrNoise judges the derived figures as it judges the measured ones.
    const double x0 = p.base_throughput;
    const double n0_over_n = p.ranks > 0 ? static_cast<double>(p.base_ranks) / p.ranks : 0;
    const auto speedupOf = [x0](const RunResult& r) { return x0 > 0 ? r.figures.samples_per_s / x0 : 0; };
    FigureValue speedup = g.measured(Figure::Speedup, speedupOf);
    speedup.value = p.speedup;
    f.push_back(speedup);
    FigureValue efficiency =
        g.measured(Figure::Efficiency, [&](const RunResult& r) { return speedupOf(r) * n0_over_n * 100; });
    efficiency.value = p.efficiency * 100;
    f.push_back(efficiency);
    const double c0 = p.base_compute_only_throughput;
    FigureValue compute_only = g.measured(Figure::ComputeOnlySpeedup, [c0](const RunResult& r) {
        return c0 > 0 ? computeOnlyThroughput(r.figures.samples_per_s, r.figures.breakdown) / c0 : 0;
    });
    compute_only.value = p.compute_only_speedup;
    f.push_back(compute_only);
    f.push_back(g.measured(Figure::CommunicationShare,
                           [](const RunResult& r) { return communicationShare(r.figures.breakdown) * 100; }));
    addTimeToTargetFigures(g, p, f);
}

// What the training achieved: model FLOP rate per rank, days to train 1T tokens, final loss and the eval
// metric.
void addOutcomeFigures(const Repeats& g, std::vector<FigureValue>& f) {
    if (g.firstFigures().model_flops_per_s > 0)
        f.push_back(g.measured(Figure::TflopsPerRank, [](const RunResult& r) {
            return r.figures.model_flops_per_s / r.ranks / 1e12;
        }));
    if (g.firstFigures().tokens_per_s > 0)
        f.push_back(g.measured(Figure::DaysToTrain1T,
                               [](const RunResult& r) { return daysToTrain(r.figures.tokens_per_s); }));
    f.push_back(g.measured(Figure::FinalLoss, [](const RunResult& r) { return r.figures.final_loss; }));
    std::vector<double> evals;
    for (const RunResult* r : g.runs())
        if (r->figures.final_eval)
            evals.push_back(*r->figures.final_eval * evalMetricStyle(r->figures.eval_metric).scale);
    if (evals.empty()) return;
    const auto style = evalMetricStyle(g.firstFigures().eval_metric);
    f.push_back({style.label, style.unit, style.higher_is_better ? Better::Higher : Better::Lower,
                 style.decimals, describe(evals).mean, evals});
}

// MLPerf runs: the benchmark's olympic score and the time-to-train speedup from it (MLPerf's own figures).
void addMlperfFigures(const std::map<GroupKey, ScalingPoint>& scaling, FiguresByGroup& out) {
    for (const auto& [key, p] : scaling) {
        if (!p.mlperf) continue;
        std::vector<FigureValue>& f = out[key];
        f.push_back(figureValue(Figure::MlperfConvergedRuns, static_cast<double>(p.mlperf->converged)));
        if (p.mlperf->score_min) f.push_back(figureValue(Figure::MlperfScore, *p.mlperf->score_min));
        if (p.mlperf_speedup) f.push_back(figureValue(Figure::MlperfSpeedup, *p.mlperf_speedup));
    }
}

// Every figure of every (workload, dataset, settings `keyed`, ranks) of one session, in the order they are
// listed: a training group's figures, then MLPerf's, then each collective sweep's peak busbw.
FiguresByGroup sessionFigures(const std::vector<RunResult>& results, const std::set<std::string>& keyed) {
    const SessionGroups groups = sessionGroups(results, keyed);
    const std::map<GroupKey, ScalingPoint> scaling = scalingByGroup(results, keyed);
    FiguresByGroup out;
    for (const auto& [key, runs] : groups.training) {
        const Repeats repeats(runs);
        std::vector<FigureValue>& f = out[key];
        addStepFigures(repeats, f);
        if (const auto it = scaling.find(key); it != scaling.end()) addScalingFigures(repeats, it->second, f);
        addOutcomeFigures(repeats, f);
    }
    addMlperfFigures(scaling, out);
    for (const auto& [key, peaks] : groups.sweeps)
        for (const auto& [name, values] : peaks)
            out[key].push_back(figureValue(Figure::PeakBusbw, describe(values).mean, values, name));
    return out;
}

} // namespace

ComparedSession loadComparedSession(const SessionStore& store, const SessionRow& session,
                                    StepTimeConvention convention) {
    ComparedSession out{session.name, loadSessionResults(store, session.id, convention)};
    out.plan_text = session.plan_text;
    out.stored_plan = session.stored_plan;
    out.cluster_json = session.cluster_json;
    for (const RunRow& run : store.runs(session.id)) {
        out.run_headers.push_back(run.header_json);
        out.capsules.push_back(runCapsule(session, run));
    }
    return out;
}

std::vector<FigureComparison> compareFigures(const std::vector<RunResult>& a, const std::vector<RunResult>& b,
                                             double threshold) {
    std::set<std::string> keyed = kMeasuredSettings;
    for (const auto* side : {&a, &b})
        for (const std::string& name : varyingSettings(*side))
            keyed.insert(name);
    const auto figures_a = sessionFigures(a, keyed);
    const auto figures_b = sessionFigures(b, keyed);
    std::set<GroupKey> keys;
    for (const auto& [key, figures] : figures_a)
        keys.insert(key);
    for (const auto& [key, figures] : figures_b)
        keys.insert(key);

    std::vector<FigureComparison> out;
    for (const GroupKey& key : keys) {
        const auto it_a = figures_a.find(key);
        const auto it_b = figures_b.find(key);
        std::vector<FigureComparison> rows; // in A's order, then figures only B has
        auto row = [&](const FigureValue& v) -> FigureComparison& {
            for (auto& r : rows)
                if (r.figure == v.figure) return r;
            rows.push_back(
                {std::get<0>(key), std::get<1>(key), std::get<3>(key), v.figure, v.unit, v.better});
            rows.back().settings = std::get<2>(key);
            rows.back().decimals = v.decimals;
            return rows.back();
        };
        std::map<std::string, std::vector<double>> repeats_a; // by figure
        if (it_a != figures_a.end())
            for (const FigureValue& v : it_a->second) {
                row(v).a = v.value;
                repeats_a[v.figure] = v.repeats;
            }
        if (it_b != figures_b.end())
            for (const FigureValue& v : it_b->second) {
                row(v).b = v.value;
                if (const auto in_a = repeats_a.find(v.figure);
                    in_a != repeats_a.end() && !in_a->second.empty() && !v.repeats.empty())
                    row(v).change = changeOrNoise(in_a->second, v.repeats, threshold);
            }
        for (FigureComparison& r : rows) {
            if (!r.a)
                r.note = "only in B";
            else if (!r.b)
                r.note = "only in A";
            else if (*r.a == 0)
                r.note = "A is 0: percent undefined";
            else
                r.percent = (*r.b - *r.a) / *r.a * 100;
            out.push_back(r);
        }
    }
    return out;
}

} // namespace scalebench

namespace scalebench {

int changeDirection(const FigureComparison& f) {
    if (!f.change || f.better == Better::Neither) return 0;
    if (f.change->kind != ChangeKind::Higher && f.change->kind != ChangeKind::Lower) return 0;
    return (f.change->kind == ChangeKind::Higher) == (f.better == Better::Higher) ? 1 : -1;
}

std::string judgement(const FigureComparison& f) {
    if (!f.change) return "one value a side";
    switch (f.change->kind) {
    case ChangeKind::CannotTell:
        return "cannot tell";
    case ChangeKind::Noise:
        return "within noise";
    default:
        return f.better == Better::Neither ? "(changed)" : changeDirection(f) > 0 ? "better" : "worse";
    }
}

std::string percentText(double percent) {
    const std::string text = fmt::format("{:+.1f}%", percent);
    return text == "+0.0%" || text == "-0.0%" ? std::string("0.0%") : text;
}

JudgementCounts countJudgements(const std::vector<FigureComparison>& figures) {
    JudgementCounts counts;
    for (const FigureComparison& f : figures) {
        if (!f.percent && !f.change) continue; // only on one side, or A is 0: nothing was compared
        if (!f.change || f.change->kind == ChangeKind::CannotTell)
            ++counts.cannot_tell;
        else if (f.change->kind == ChangeKind::Noise)
            ++counts.within_noise;
        else if (const int direction = changeDirection(f); direction > 0)
            ++counts.better;
        else if (direction < 0)
            ++counts.worse;
        else
            ++counts.changed;
    }
    return counts;
}

std::string describeCounts(const JudgementCounts& c) {
    std::string text = fmt::format("{} better, {} worse, {} within noise, {} cannot tell", c.better, c.worse,
                                   c.within_noise, c.cannot_tell);
    if (c.changed > 0) text += fmt::format(", {} changed", c.changed);
    return text;
}

std::string formatComparison(const std::string& name_a, const std::string& name_b,
                             const std::vector<FigureComparison>& figures,
                             const std::vector<SettingDifference>& settings,
                             const std::vector<SettingDifference>& capsules) {
    const auto value = [](const std::optional<double>& v, const std::string& unit) {
        return v ? fmt::format("{:.4g}{}{}", *v, unit.empty() ? "" : " ", unit) : std::string("-");
    };
    std::string out = fmt::format("A: {}\nB: {}\n\n{:<28} {:>5}  {:<44} {:>16} {:>16} {:>9}\n", name_a,
                                  name_b, "workload / dataset", "ranks", "figure", "A", "B", "change");
    for (const auto& f : figures) {
        std::string change = f.percent ? percentText(*f.percent) : f.note;
        if (f.percent) change += " " + judgement(f);
        out += fmt::format("{:<28} {:>5}  {:<44} {:>16} {:>16} {:>9}\n",
                           f.workload + " / " + f.dataset + (f.settings.empty() ? "" : " " + f.settings),
                           f.ranks, f.figure, value(f.a, f.unit), value(f.b, f.unit), change);
    }
    out += fmt::format("\n{} figures: {} (change or noise: 95 % bootstrap interval of the medians' relative "
                       "difference against the regression threshold)\n",
                       figures.size(), describeCounts(countJudgements(figures)));
    // A multi-line value (a job script's differing lines) continues under its first line, indented.
    const auto side = [](const std::optional<std::string>& v) {
        std::string text = v.value_or("(not set)");
        for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 8))
            text.replace(at, 1, "\n       ");
        return text;
    };
    const auto list = [&](const char* title, const std::vector<SettingDifference>& differences) {
        out += fmt::format("\n{}: {}\n", title, differences.size());
        for (const auto& d : differences)
            out += fmt::format("  {}\n    A: {}\n    B: {}\n", d.key, side(d.a), side(d.b));
    };
    list("settings that differ", settings);
    list("what ran differently (the runs' capsules)", capsules);
    return out;
}

} // namespace scalebench
