// Two sessions side by side: every figure of runs matched by (workload, dataset, ranks) with the difference
// in percent, and the settings (plan, cluster, run headers) that differ between them.
#include "session_comparison.h"

#include "plan_writer.h"
#include "run_plan.h"
#include "session_results.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <toml++/toml.h>
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
    double value = 0;
    std::vector<double> repeats{}; // each repeat's, where the figure is a mean over repeats
};

std::string sweepName(const CollectiveRecord& c) {
    return fmt::format("peak busbw {}{} {} {} {}{}", c.tool == "scalebench" ? "" : c.tool + " ", c.backend,
                       c.collective, c.dtype, c.op, c.in_place ? " in-place" : "");
}

// Every figure of every (workload, dataset, settings `keyed`, ranks) of one session, in the order they are
// listed.
std::map<GroupKey, std::vector<FigureValue>> sessionFigures(const std::vector<RunResult>& results,
                                                            const std::set<std::string>& keyed) {
    std::map<GroupKey, std::vector<const RunResult*>> training;
    std::map<GroupKey, std::map<std::string, std::vector<double>>> sweeps; // each run's peak busbw per sweep
    const auto keyOf = [&](const RunResult& r) {
        return GroupKey{r.workload, r.dataset, settingsText(seriesOf(r), keyed), r.ranks};
    };
    for (const RunResult& r : results) {
        if (r.status != "ok") continue;
        const GroupKey key = keyOf(r);
        if (r.figures.steady_steps > 0) training[key].push_back(&r);
        std::map<std::string, double> peaks;
        for (const CollectiveRecord& c : r.collectives)
            peaks[sweepName(c)] = std::max(peaks[sweepName(c)], c.busbw_gbps);
        for (const auto& [name, peak] : peaks)
            sweeps[key][name].push_back(peak);
    }

    std::map<GroupKey, ScalingPoint> scaling; // from sessionScaling: one series per key
    for (const ScalingPoint& p : sessionScaling(results))
        scaling[{p.workload, p.dataset, settingsText(p.series, keyed), p.ranks}] = p;

    std::map<GroupKey, std::vector<FigureValue>> out;
    // Named references, not a structured binding: clang before 16 cannot capture those (preset fuzz).
    for (const auto& group : training) {
        const GroupKey& key = group.first;
        const auto& runs = group.second;
        double n = static_cast<double>(runs.size());
        auto mean = [&](auto part) {
            double sum = 0;
            for (const RunResult* r : runs)
                sum += part(*r);
            return sum / n;
        };
        // A figure that is a mean over the repeats, with each repeat's value for changeOrNoise.
        auto measured = [&](const char* figure, const char* unit, Better better, auto part) {
            FigureValue v{figure, unit, better, mean(part)};
            for (const RunResult* r : runs)
                v.repeats.push_back(part(*r));
            return v;
        };
        auto ms = [&](const char* figure, Better better, double StepBreakdown::*part) {
            return measured(figure, "ms", better,
                            [part](const RunResult& r) { return r.figures.breakdown.*part * 1e3; });
        };
        std::vector<FigureValue>& f = out[key];
        f.push_back(measured("samples/s", "samples/s", Better::Higher,
                             [](const RunResult& r) { return r.figures.samples_per_s; }));
        if (runs.front()->figures.tokens_per_s > 0)
            f.push_back(measured("tokens/s", "tokens/s", Better::Higher,
                                 [](const RunResult& r) { return r.figures.tokens_per_s; }));
        if (runs.front()->figures.mfu)
            f.push_back(measured("MFU", "%", Better::Higher,
                                 [](const RunResult& r) { return r.figures.mfu.value_or(0) * 100; }));
        f.push_back(ms("step time", Better::Lower, &StepBreakdown::step_s));
        f.push_back(ms("data loading", Better::Lower, &StepBreakdown::data_s));
        f.push_back(ms("forward", Better::Lower, &StepBreakdown::forward_s));
        f.push_back(ms("backward", Better::Lower, &StepBreakdown::backward_s));
        f.push_back(ms("optimizer", Better::Lower, &StepBreakdown::optimizer_s));
        f.push_back(ms("exposed communication", Better::Lower, &StepBreakdown::allreduce_s));
        f.push_back(ms("hidden communication", Better::Neither, &StepBreakdown::comm_hidden_s));
        if (auto it = scaling.find(key); it != scaling.end()) {
            const ScalingPoint& p = it->second;
            // Each repeat's speedup against the same N0 mean as the point's (S = X_i(N) / mean X(N0)), so
            // that changeOrNoise judges the derived figures as it judges the measured ones.
            const double x0 = p.speedup > 0 ? p.throughput.mean / p.speedup : 0;
            const double n0_over_n = p.speedup > 0 ? p.efficiency / p.speedup : 0;
            const auto speedupOf = [x0](const RunResult& r) {
                return x0 > 0 ? r.figures.samples_per_s / x0 : 0;
            };
            FigureValue speedup = measured("speedup", "x", Better::Higher, speedupOf);
            speedup.value = p.speedup;
            f.push_back(speedup);
            FigureValue efficiency = measured("efficiency", "%", Better::Higher, [&](const RunResult& r) {
                return speedupOf(r) * n0_over_n * 100;
            });
            efficiency.value = p.efficiency * 100;
            f.push_back(efficiency);
            double compute_mean = 0;
            for (const RunResult* r : runs)
                compute_mean += computeOnlyThroughput(r->figures.samples_per_s, r->figures.breakdown) / n;
            const double c0 = p.compute_only_speedup > 0 ? compute_mean / p.compute_only_speedup : 0;
            FigureValue compute_only =
                measured("compute-only speedup", "x", Better::Neither, [c0](const RunResult& r) {
                    return c0 > 0 ? computeOnlyThroughput(r.figures.samples_per_s, r.figures.breakdown) / c0
                                  : 0;
                });
            compute_only.value = p.compute_only_speedup;
            f.push_back(compute_only);
            f.push_back(measured("communication share", "%", Better::Lower, [](const RunResult& r) {
                return communicationShare(r.figures.breakdown) * 100;
            }));
            std::vector<double> times;
            for (const RunResult* r : runs)
                if (r->time_to_target_s) times.push_back(*r->time_to_target_s);
            if (p.reached > 0)
                f.push_back({"time to target", "s", Better::Lower, p.time_to_target.mean, times});
            if (p.time_to_target_speedup) {
                // T(N0) / T_i(N) for each repeat that reached the target: T(N0) from the point's mean ratio.
                double inverse_mean = 0;
                for (double t : times)
                    inverse_mean += t > 0 ? 1 / t / static_cast<double>(times.size()) : 0;
                const double t0 = inverse_mean > 0 ? p.time_to_target_speedup->mean / inverse_mean : 0;
                std::vector<double> ratios;
                for (double t : times)
                    if (t > 0) ratios.push_back(t0 / t);
                f.push_back(
                    {"time-to-target speedup", "x", Better::Higher, p.time_to_target_speedup->mean, ratios});
            }
        }
        if (runs.front()->figures.model_flops_per_s > 0)
            f.push_back(measured("TFLOP/s per rank", "TFLOP/s", Better::Higher, [](const RunResult& r) {
                return r.figures.model_flops_per_s / r.ranks / 1e12;
            }));
        if (runs.front()->figures.tokens_per_s > 0)
            f.push_back(measured("days to train 1T tokens", "days", Better::Lower,
                                 [](const RunResult& r) { return daysToTrain(r.figures.tokens_per_s); }));
        f.push_back(measured("final loss", "", Better::Lower,
                             [](const RunResult& r) { return r.figures.final_loss; }));
        std::vector<double> evals;
        for (const RunResult* r : runs)
            if (r->figures.final_eval)
                evals.push_back(*r->figures.final_eval * evalMetricStyle(r->figures.eval_metric).scale);
        if (!evals.empty()) {
            const auto style = evalMetricStyle(runs.front()->figures.eval_metric);
            f.push_back({style.label, style.unit, style.higher_is_better ? Better::Higher : Better::Lower,
                         describe(evals).mean, evals});
        }
    }
    // MLPerf runs: the benchmark's olympic score and the time-to-train speedup from it (MLPerf's own
    // figures).
    for (const auto& [key, p] : scaling) {
        if (!p.mlperf) continue;
        std::vector<FigureValue>& f = out[key];
        f.push_back(
            {"MLPerf converged runs", "runs", Better::Higher, static_cast<double>(p.mlperf->converged)});
        if (p.mlperf->score_min)
            f.push_back({"MLPerf time to train (olympic score)", "min", Better::Lower, *p.mlperf->score_min});
        if (p.mlperf_speedup)
            f.push_back({"MLPerf time-to-train speedup", "x", Better::Higher, *p.mlperf_speedup});
    }
    for (const auto& [key, peaks] : sweeps)
        for (const auto& [name, values] : peaks)
            out[key].push_back({name, "GB/s", Better::Higher, describe(values).mean, values});
    return out;
}

void flattenJsonValue(const nlohmann::json& value, const std::string& path,
                      std::map<std::string, std::string>& out) {
    if (value.is_object()) {
        for (const auto& [key, item] : value.items())
            flattenJsonValue(item, path.empty() ? key : path + "." + key, out);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            flattenJsonValue(value[i], path + "[" + std::to_string(i) + "]", out);
        if (value.empty()) out[path] = "[]";
    } else {
        out[path] = value.is_string() ? value.get<std::string>() : value.dump();
    }
}

void flattenTomlNode(const toml::node& node, const std::string& path,
                     std::map<std::string, std::string>& out) {
    if (const toml::table* table = node.as_table()) {
        for (const auto& [key, item] : *table) {
            const std::string name(key.str());
            flattenTomlNode(item, path.empty() ? name : path + "." + name, out);
        }
    } else if (const toml::array* array = node.as_array()) {
        for (std::size_t i = 0; i < array->size(); ++i)
            flattenTomlNode(*array->get(i), path + "[" + std::to_string(i) + "]", out);
        if (array->empty()) out[path] = "[]";
    } else if (const auto* text = node.as_string()) {
        out[path] = text->get();
    } else if (const auto* real = node.as_floating_point()) {
        // The shortest text that reads back, as the plan has it: 0.1, not 0.10000000000000001.
        out[path] = fmt::format("{}", real->get());
    } else {
        std::ostringstream value;
        node.visit([&](const auto& leaf) { value << leaf; });
        out[path] = value.str();
    }
}

// A run header key that differs on every run whatever was configured.
bool volatileHeaderKey(const std::string& key) {
    return key == "unix_time" || key.ends_with(".pid") || key == "type";
}

std::map<std::string, std::string> mergedRunHeaders(const std::vector<std::string>& headers) {
    std::map<std::string, std::set<std::string>> values;
    for (const std::string& header : headers) {
        if (header.empty()) continue;
        for (const auto& [key, value] : flattenJson(header))
            if (!volatileHeaderKey(key) && !capsuleHeaderKey(key)) values[key].insert(value);
    }
    std::map<std::string, std::string> out;
    for (const auto& [key, set] : values) {
        std::string joined;
        for (const std::string& value : set)
            joined += (joined.empty() ? "" : " | ") + value;
        out[key] = joined;
    }
    return out;
}

void addPrefixed(std::map<std::string, std::string>& out, const std::string& prefix,
                 const std::map<std::string, std::string>& flat) {
    for (const auto& [key, value] : flat)
        out[std::string(prefix).append(".").append(key)] = value;
}

// The plan's effective settings: every key of every [[run]] with the plan's defaults filled in (the plan as
// the store read it, written with every key), so that a key left at its default equals the same value written
// out; its [[reference]] tables as written. A plan that no longer reads (a workload since renamed): as
// written, and why under "problem".
std::map<std::string, std::string> effectivePlanSettings(const ComparedSession& s) {
    std::map<std::string, std::string> written = flattenToml(s.plan_text);
    if (!s.stored_plan.plan) {
        if (!s.stored_plan.problem.empty()) written["problem"] = s.stored_plan.problem;
        return written;
    }
    std::map<std::string, std::string> out =
        flattenToml(writePlanToml(*s.stored_plan.plan, PlanKeys::Effective));
    for (const auto& [key, value] : written)
        if (key.starts_with("reference[")) out[key] = value;
    return out;
}

std::map<std::string, std::string> sessionSettings(const ComparedSession& s) {
    std::map<std::string, std::string> out;
    if (!s.plan_text.empty()) addPrefixed(out, "plan", effectivePlanSettings(s));
    if (!s.cluster_json.empty()) addPrefixed(out, "cluster", flattenJson(s.cluster_json));
    addPrefixed(out, "run header", mergedRunHeaders(s.run_headers));
    return out;
}

bool multiLine(const std::string& text) {
    return text.find('\n') != std::string::npos;
}

// A's value and B's, for a key one side may lack; multi-line values reduced to their differing lines.
SettingDifference difference(const std::string& key, const std::string* a, const std::string* b) {
    SettingDifference d{key};
    if (a && b && (multiLine(*a) || multiLine(*b))) {
        auto [only_a, only_b] = differingLines(*a, *b);
        const std::string none = "(no line that the other lacks)";
        d.a = only_a.empty() ? none : std::move(only_a);
        d.b = only_b.empty() ? none : std::move(only_b);
        return d;
    }
    if (a) d.a = *a;
    if (b) d.b = *b;
    return d;
}

// The differences of one pair of runs, in A's key order then keys only B has.
std::vector<SettingDifference> pairDifferences(const RunCapsule& a, const RunCapsule& b) {
    std::vector<SettingDifference> out;
    for (const CapsuleEntry& e : a.entries) {
        const auto it = std::find_if(b.entries.begin(), b.entries.end(),
                                     [&](const CapsuleEntry& f) { return f.key == e.key; });
        if (it == b.entries.end())
            out.push_back(difference(e.key, &e.value, nullptr));
        else if (it->value != e.value)
            out.push_back(difference(e.key, &e.value, &it->value));
    }
    for (const CapsuleEntry& f : b.entries)
        if (std::none_of(a.entries.begin(), a.entries.end(),
                         [&](const CapsuleEntry& e) { return e.key == f.key; }))
            out.push_back(difference(f.key, nullptr, &f.value));
    return out;
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : ", ") + name;
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

std::vector<SettingDifference> compareSettings(const ComparedSession& a, const ComparedSession& b) {
    const auto settings_a = sessionSettings(a);
    const auto settings_b = sessionSettings(b);
    std::vector<SettingDifference> out;
    auto ia = settings_a.begin();
    auto ib = settings_b.begin();
    while (ia != settings_a.end() || ib != settings_b.end()) {
        if (ib == settings_b.end() || (ia != settings_a.end() && ia->first < ib->first)) {
            out.push_back({ia->first, ia->second, std::nullopt});
            ++ia;
        } else if (ia == settings_a.end() || ib->first < ia->first) {
            out.push_back({ib->first, std::nullopt, ib->second});
            ++ib;
        } else {
            if (ia->second != ib->second) out.push_back({ia->first, ia->second, ib->second});
            ++ia;
            ++ib;
        }
    }
    return out;
}

std::vector<SettingDifference> compareCapsules(const std::vector<RunCapsule>& a,
                                               const std::vector<RunCapsule>& b) {
    std::vector<std::pair<const RunCapsule*, const RunCapsule*>> pairs;
    std::vector<std::string> only_a, only_b;
    const bool shared_name = std::any_of(a.begin(), a.end(), [&](const RunCapsule& x) {
        return std::any_of(b.begin(), b.end(), [&](const RunCapsule& y) { return x.run == y.run; });
    });
    if (shared_name) {
        for (const RunCapsule& x : a) {
            const auto it =
                std::find_if(b.begin(), b.end(), [&](const RunCapsule& y) { return y.run == x.run; });
            if (it == b.end())
                only_a.push_back(x.run);
            else
                pairs.emplace_back(&x, &*it);
        }
        for (const RunCapsule& y : b)
            if (std::none_of(a.begin(), a.end(), [&](const RunCapsule& x) { return x.run == y.run; }))
                only_b.push_back(y.run);
    } else {
        for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
            if (i < a.size() && i < b.size())
                pairs.emplace_back(&a[i], &b[i]);
            else if (i < a.size())
                only_a.push_back(a[i].run);
            else
                only_b.push_back(b[i].run);
        }
    }

    // Each distinct difference once, with the pairs (named by A's run) that have it.
    std::vector<std::pair<SettingDifference, std::vector<std::string>>> found;
    for (const auto& [x, y] : pairs)
        for (SettingDifference& d : pairDifferences(*x, *y)) {
            const auto it = std::find_if(found.begin(), found.end(), [&](const auto& f) {
                return f.first.key == d.key && f.first.a == d.a && f.first.b == d.b;
            });
            const std::string name = x->run == y->run ? x->run : x->run + " / " + y->run;
            if (it == found.end())
                found.push_back({std::move(d), {name}});
            else
                it->second.push_back(name);
        }
    std::vector<SettingDifference> out;
    if (!only_a.empty() || !only_b.empty()) {
        SettingDifference runs{"runs only in one session"};
        if (!only_a.empty()) runs.a = joined(only_a);
        if (!only_b.empty()) runs.b = joined(only_b);
        out.push_back(std::move(runs));
    }
    for (auto& [d, names] : found) {
        if (names.size() < pairs.size()) d.key += " (" + joined(names) + ")";
        out.push_back(std::move(d));
    }
    return out;
}

std::map<std::string, std::string> flattenJson(const std::string& json) {
    std::map<std::string, std::string> out;
    try {
        flattenJsonValue(nlohmann::json::parse(json), "", out);
    } catch (const nlohmann::json::exception& e) {
        out = {{"(unparsable)", e.what()}};
    }
    return out;
}

std::map<std::string, std::string> flattenToml(const std::string& toml) {
    std::map<std::string, std::string> out;
    try {
        flattenTomlNode(toml::parse(toml), "", out);
    } catch (const toml::parse_error& e) {
        out = {{"(unparsable)", fmt::format("line {}: {}", e.source().begin.line, e.description())}};
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
