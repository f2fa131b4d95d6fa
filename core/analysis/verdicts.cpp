// Verdicts on a session's runs: references passed or failed, regressions against a baseline beyond the noise.
#include "verdicts.h"

#include "figure_registry.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace scalebench {

std::optional<double> referenceFigureOf(const RunResult& run, const RunScaling& scaling,
                                        const Reference& ref) {
    const RunFigures& f = run.figures;
    const bool measured = f.steady_steps > 0;
    const auto is = [&](Figure figure) { return ref.figure == figureStyle(figure).reference; };
    if (is(Figure::SamplesPerS) && measured && f.samples_per_s > 0) return f.samples_per_s;
    if (is(Figure::TokensPerS) && measured && f.tokens_per_s > 0) return f.tokens_per_s;
    if (is(Figure::StepTime) && measured && f.breakdown.step_s > 0) return f.breakdown.step_s * 1e3;
    if (is(Figure::TimeToTarget)) return run.time_to_target_s;
    if (is(Figure::MlperfTimeToTrain) && run.mlperf_status == "success") return run.mlperf_time_to_train_min;
    if (is(Figure::Mfu) && f.mfu) return *f.mfu * 100;
    if (is(Figure::Efficiency) && scaling.speedup > 0) return scaling.efficiency * 100;
    if (is(Figure::Busbw)) {
        std::optional<double> peak;
        for (const CollectiveRecord& c : run.collectives)
            if (ref.bytes && c.bytes == *ref.bytes) peak = std::max(peak.value_or(0), c.busbw_gbps);
        return peak;
    }
    return std::nullopt;
}

namespace {
std::string bounds(const Reference& ref) {
    const std::string low = ref.lower ? fmt::format("{:g}", ref.value * (1 + *ref.lower)) : "-inf";
    const std::string high = ref.upper ? fmt::format("{:g}", ref.value * (1 + *ref.upper)) : "+inf";
    return fmt::format("reference {:g} {}, from {} to {}", ref.value, ref.unit, low, high);
}

bool matches(const Reference& ref, const RunResult& run, const std::string& cluster) {
    return ref.workload == run.workload && (!ref.ranks || *ref.ranks == run.ranks) &&
           (ref.cluster.empty() || ref.cluster == cluster);
}

std::string xmlEscaped(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            // XML 1.0 has no control characters but tab, newline and carriage return.
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
                out += '?';
            else
                out += c;
        }
    }
    return out;
}
} // namespace

std::vector<ReferenceVerdict> referenceVerdicts(const std::vector<RunResult>& results,
                                                const std::vector<Reference>& references,
                                                const std::string& cluster) {
    const std::vector<RunScaling> scaling = runScaling(results);
    std::vector<ReferenceVerdict> out;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& run = results[i];
        bool bounded = false;
        for (const Reference& ref : references) {
            if (!matches(ref, run, cluster)) continue;
            bounded = true;
            ReferenceVerdict v{run.name, ref.figure, Outcome::Fail, std::nullopt, ref, ""};
            if (run.status != RunStatus::Ok) {
                v.text =
                    fmt::format("{}: fail: the run {} ({})", ref.figure, storedWord(run.status), bounds(ref));
            } else if (const std::optional<double> m = referenceFigureOf(run, scaling[i], ref)) {
                v.measured = m;
                const bool above = !ref.lower || *m >= ref.value * (1 + *ref.lower);
                const bool below = !ref.upper || *m <= ref.value * (1 + *ref.upper);
                v.outcome = above && below ? Outcome::Pass : Outcome::Fail;
                v.text = fmt::format("{} {:.4g} {}: {} ({}{})", ref.figure, *m, ref.unit,
                                     v.outcome == Outcome::Pass ? "pass" : "FAIL", bounds(ref),
                                     !above   ? "; below its lower bound"
                                     : !below ? "; above its upper bound"
                                              : "");
            } else {
                v.text = fmt::format("{}: fail: the run has no such figure ({})", ref.figure, bounds(ref));
            }
            out.push_back(std::move(v));
        }
        if (!bounded)
            out.push_back({run.name, "", Outcome::NoReference, std::nullopt, std::nullopt, "no reference"});
    }
    return out;
}

std::vector<RegressionVerdict> regressionVerdicts(const std::vector<RunResult>& baseline,
                                                  const std::vector<RunResult>& current, double threshold) {
    // The figures a regression is judged on: their names and directions from the registry
    // (figure_registry.h), each run's value of them here.
    struct Judged {
        Figure figure;
        std::optional<double> (*of)(const RunResult&);
    };
    static const Judged figures[] = {
        {Figure::SamplesPerS,
         [](const RunResult& r) {
             return r.figures.steady_steps > 0 && r.figures.samples_per_s > 0
                        ? std::optional(r.figures.samples_per_s)
                        : std::nullopt;
         }},
        {Figure::TokensPerS,
         [](const RunResult& r) {
             return r.figures.tokens_per_s > 0 ? std::optional(r.figures.tokens_per_s) : std::nullopt;
         }},
        {Figure::StepTime,
         [](const RunResult& r) {
             return r.figures.steady_steps > 0 ? std::optional(r.figures.breakdown.step_s * 1e3)
                                               : std::nullopt;
         }},
        {Figure::TimeToTarget, [](const RunResult& r) { return r.time_to_target_s; }},
        {Figure::MlperfTimeToTrain,
         [](const RunResult& r) {
             return r.mlperf_status == "success" ? r.mlperf_time_to_train_min : std::nullopt;
         }},
        {Figure::PeakBusbw,
         [](const RunResult& r) {
             std::optional<double> peak;
             for (const CollectiveRecord& c : r.collectives)
                 peak = std::max(peak.value_or(0), c.busbw_gbps);
             return peak;
         }},
    };
    using Key = std::pair<SeriesKey, int>;
    std::map<Key, std::vector<const RunResult*>> before, after;
    for (const RunResult& r : baseline)
        if (r.status == RunStatus::Ok) before[{seriesOf(r), r.ranks}].push_back(&r);
    for (const RunResult& r : current)
        if (r.status == RunStatus::Ok) after[{seriesOf(r), r.ranks}].push_back(&r);
    std::vector<SeriesKey> keys;
    for (const auto& [key, runs] : after)
        if (std::find(keys.begin(), keys.end(), key.first) == keys.end()) keys.push_back(key.first);
    const std::vector<std::string> labels = seriesLabels(keys);

    std::vector<RegressionVerdict> out;
    for (const auto& [key, runs] : after) {
        const auto base = before.find(key);
        if (base == before.end()) continue;
        const std::string& label =
            labels[static_cast<std::size_t>(std::find(keys.begin(), keys.end(), key.first) - keys.begin())];
        for (const Judged& figure : figures) {
            const bool higher_is_better = figureStyle(figure.figure).better == Better::Higher;
            std::vector<double> a, b;
            for (const RunResult* r : base->second)
                if (const auto v = figure.of(*r)) a.push_back(*v);
            for (const RunResult* r : runs)
                if (const auto v = figure.of(*r)) b.push_back(*v);
            if (a.empty() || b.empty()) continue;
            RegressionVerdict v{label, key.second, figureHeader(figure.figure), higher_is_better,
                                changeOrNoise(a, b, threshold)};
            const bool higher = v.change.kind == ChangeKind::Higher,
                       lower = v.change.kind == ChangeKind::Lower;
            v.regression = higher_is_better ? lower : higher;
            v.improvement = higher_is_better ? higher : lower;
            out.push_back(v);
        }
    }
    return out;
}

std::string formatVerdicts(const std::vector<ReferenceVerdict>& references,
                           const std::vector<RegressionVerdict>& regressions, const std::string& baseline) {
    std::string out;
    const bool any_reference =
        std::any_of(references.begin(), references.end(),
                    [](const ReferenceVerdict& v) { return v.outcome != Outcome::NoReference; });
    if (any_reference) {
        out += "\nverdicts against the plan's references (ReFrame-style: value, lower and upper as "
               "fractions):\n";
        for (const ReferenceVerdict& v : references)
            out += fmt::format("{:<34} {}\n", v.run, v.text);
    }
    if (!regressions.empty()) {
        out += fmt::format("\nagainst baseline {} (change or noise: 95 % bootstrap interval of the relative "
                           "difference of medians, a change only beyond {:.0f} %):\n",
                           baseline, regressions.front().change.threshold * 100);
        for (const RegressionVerdict& v : regressions)
            out += fmt::format("{:<34} {:>5} {:<27} {}{}\n", v.series, v.ranks, v.figure,
                               describeChange(v.change),
                               v.regression    ? "  REGRESSION"
                               : v.improvement ? "  improvement"
                                               : "");
    }
    return out;
}

bool verdictsFail(const std::vector<ReferenceVerdict>& references,
                  const std::vector<RegressionVerdict>& regressions) {
    return std::any_of(references.begin(), references.end(),
                       [](const ReferenceVerdict& v) { return v.outcome == Outcome::Fail; }) ||
           std::any_of(regressions.begin(), regressions.end(),
                       [](const RegressionVerdict& v) { return v.regression; });
}

std::string junitXml(const std::string& suite, const std::vector<RunResult>& results,
                     const std::vector<ReferenceVerdict>& references,
                     const std::vector<RegressionVerdict>& regressions) {
    std::string cases;
    int tests = 0, failures = 0, errors = 0;
    const auto testcase = [&](const std::string& classname, const std::string& name,
                              const std::string& element, const std::string& message) {
        ++tests;
        cases +=
            fmt::format("  <testcase classname=\"{}\" name=\"{}\"", xmlEscaped(classname), xmlEscaped(name));
        if (element.empty()) {
            cases += "/>\n";
            return;
        }
        (element == "failure" ? failures : errors) += 1;
        cases += fmt::format(">\n    <{} message=\"{}\"/>\n  </testcase>\n", element, xmlEscaped(message));
    };
    for (const RunResult& r : results)
        testcase(r.name, "run", r.status == RunStatus::Ok ? "" : "error",
                 "the run " + std::string(storedWord(r.status)) + (r.error.empty() ? "" : ": " + r.error));
    for (const ReferenceVerdict& v : references)
        if (v.outcome != Outcome::NoReference)
            testcase(v.run, v.figure, v.outcome == Outcome::Fail ? "failure" : "", v.text);
    for (const RegressionVerdict& v : regressions)
        testcase(fmt::format("baseline.{}.n{}", v.series, v.ranks), v.figure, v.regression ? "failure" : "",
                 v.figure + " " + describeChange(v.change));
    return fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"{}\" tests=\"{}\" "
                       "failures=\"{}\" errors=\"{}\">\n{}</testsuite>\n",
                       xmlEscaped(suite), tests, failures, errors, cases);
}

} // namespace scalebench
