// Why a figure is outside what the machine can give (figure_cautions.h).
#include "figure_cautions.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace scalebench {
namespace {

constexpr int kFewSteadySteps = 10;
constexpr double kMadScale = 1.4826, kMadFactor = 3, kMinRepeatMargin = 0.05, kTwoRepeatMargin = 0.10;

bool measured(const RunResult& r) {
    return r.status == RunStatus::Ok && r.figures.steady_steps > 0 && r.figures.samples_per_s > 0;
}

void efficiencyCautions(const std::vector<RunResult>& results, const std::vector<RunScaling>& scaling,
                        std::vector<std::vector<FigureCaution>>& out) {
    std::map<SeriesKey, std::map<int, ScalingPoint>> points;
    for (const ScalingPoint& p : sessionScaling(results))
        points[p.series][p.ranks] = p;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
        if (!measured(r) || scaling[i].efficiency <= 1.0) continue;
        const auto series = points.find(seriesOf(r));
        if (series == points.end() || series->second.empty()) continue;
        const ScalingPoint& base = series->second.begin()->second;
        if (r.ranks <= base.ranks) continue;
        const auto here = series->second.find(r.ranks);
        const double two_sigma = here == series->second.end() ? 0 : here->second.throughput.two_sigma();
        const double ideal_high =
            static_cast<double>(r.ranks) / base.ranks * (base.throughput.mean + base.throughput.two_sigma());
        const bool noise = r.figures.samples_per_s - two_sigma <= ideal_high;
        out[i].push_back(
            {"efficiency", noise ? "above 100 %: noise" : "above 100 %",
             noise ? fmt::format(
                         "efficiency {:.0f} % is above 100 % within the repeats' noise (two sigma {:.1f} "
                         "samples/s here, {:.1f} at {} rank{}): not a superlinear speedup",
                         scaling[i].efficiency * 100, two_sigma, base.throughput.two_sigma(), base.ranks,
                         base.ranks == 1 ? "" : "s")
                   : fmt::format(
                         "efficiency {:.0f} % is above 100 % beyond the repeats' noise: {} ranks cannot "
                         "give more than {:g} times the throughput of {} unless those runs had less of the "
                         "machine per rank or were slowed (compare their CPUs and threads per rank)",
                         scaling[i].efficiency * 100, r.ranks, static_cast<double>(r.ranks) / base.ranks,
                         base.ranks == 1 ? std::string("1 rank") : fmt::format("{} ranks", base.ranks))});
    }
}

void repeatCautions(const std::vector<RunResult>& results, std::vector<std::vector<FigureCaution>>& out) {
    std::map<std::pair<SeriesKey, int>, std::vector<std::size_t>> siblings;
    for (std::size_t i = 0; i < results.size(); ++i)
        if (measured(results[i])) siblings[{seriesOf(results[i]), results[i].ranks}].push_back(i);
    for (const auto& [key, runs] : siblings) {
        if (runs.size() < 2) continue;
        std::vector<double> x;
        for (const std::size_t i : runs)
            x.push_back(results[i].figures.samples_per_s);
        if (runs.size() == 2) {
            const double apart = std::abs(x[0] - x[1]) / std::min(x[0], x[1]);
            if (apart <= kTwoRepeatMargin) continue;
            for (const std::size_t i : runs)
                out[i].push_back(
                    {"samples/s", "repeats disagree",
                     fmt::format("the 2 repeats at {} ranks are {:.0f} % apart ({:.1f} and {:.1f} "
                                 "samples/s): one of them is off, and 2 cannot say which",
                                 key.second, apart * 100, x[0], x[1])});
            continue;
        }
        const double mid = median(x);
        std::vector<double> deviations;
        for (const double v : x)
            deviations.push_back(std::abs(v - mid));
        const double allowed = std::max(kMadFactor * kMadScale * median(deviations), kMinRepeatMargin * mid);
        for (std::size_t k = 0; k < runs.size(); ++k)
            if (std::abs(x[k] - mid) > allowed)
                out[runs[k]].push_back(
                    {"samples/s", "far from its repeats",
                     fmt::format(
                         "this repeat's {:.1f} samples/s is {:+.0f} % from the median of its {} repeats "
                         "({:.1f}), beyond max(3 x 1.4826 x MAD, 5 %)",
                         x[k], (x[k] / mid - 1) * 100, runs.size(), mid)});
    }
}

} // namespace

std::vector<std::vector<FigureCaution>> figureCautions(const std::vector<RunResult>& results) {
    std::vector<std::vector<FigureCaution>> out(results.size());
    const std::vector<RunScaling> scaling = runScaling(results);
    efficiencyCautions(results, scaling, out);
    repeatCautions(results, out);
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
        // A device cannot run above its peak: a wrong peak, or steps that include compilation (MaxText's
        // first step) in what the figure was read from.
        if (r.figures.mfu && *r.figures.mfu > 1)
            out[i].push_back(
                {"MFU", "above 100 %",
                 fmt::format("MFU {:.0f} % is above 100 %: the peak TFLOP/s it was computed against is below "
                             "the device's, or the steps it was read from include a compilation step",
                             *r.figures.mfu * 100)});
        if (!measured(r)) continue;
        if (!r.plan_problem.empty())
            out[i].push_back(
                {"speedup", "plan unread",
                 "its series is its workload and data set alone, so runs of other settings may be "
                 "compared with it: " +
                     r.plan_problem});
        const RunPlacement& p = r.placement;
        const int threads = std::max(1, p.threads_per_rank);
        if (p.cpus_on_a_host > 0 && p.ranks_on_a_host * threads > p.cpus_on_a_host)
            out[i].push_back(
                {"samples/s", "ranks share cores",
                 fmt::format("{} rank{} x {} thread{} on {} CPU{} of one host: ranks share cores, "
                             "so the figure measures CPU contention more than scaling",
                             p.ranks_on_a_host, p.ranks_on_a_host == 1 ? "" : "s", threads,
                             threads == 1 ? "" : "s", p.cpus_on_a_host, p.cpus_on_a_host == 1 ? "" : "s")});
        if (r.figures.convention == StepTimeConvention::SteadyStateMedian &&
            r.figures.steady_steps < kFewSteadySteps)
            out[i].push_back(
                {"samples/s", "few steps",
                 fmt::format("only {} steady-state step{} after the warm-up: the median reads steps "
                             "the warm-up may still slow (a run of {} steps or more has {})",
                             r.figures.steady_steps, r.figures.steady_steps == 1 ? "" : "s",
                             kFewSteadySteps + 1, kFewSteadySteps)});
    }
    return out;
}

void attachCautions(std::vector<ScalingPoint>& points, const std::vector<RunResult>& results) {
    const std::vector<std::vector<FigureCaution>> cautions = figureCautions(results);
    for (ScalingPoint& p : points) {
        p.cautions.clear();
        for (std::size_t i = 0; i < results.size(); ++i) {
            if (results[i].ranks != p.ranks || seriesOf(results[i]) != p.series) continue;
            for (const FigureCaution& c : cautions[i])
                if (std::find(p.cautions.begin(), p.cautions.end(), c.reason) == p.cautions.end())
                    p.cautions.push_back(c.reason);
        }
    }
}

std::string formatCautions(const std::vector<FigureCaution>& cautions, const std::string& indent) {
    std::string out;
    for (const FigureCaution& c : cautions)
        out += indent + "caution: " + c.reason + "\n";
    return out;
}

} // namespace scalebench
