// The results of a session as a text table for the terminal and as CSV.
#include "results_table.h"

#include "figure_cautions.h"

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
// The MLPerf runs (those with a time to train) of each series and rank count scored as MLPerf scores a
// benchmark, with the time-to-train speedup against the series' smallest rank count with a score. An MLPerf
// run measures no throughput, so its series and rank count get a point of their own where they have none.
void addMlperfScores(const std::vector<RunResult>& results, std::vector<ScalingPoint>& points) {
    std::map<std::pair<SeriesKey, int>, std::vector<const RunResult*>> mlperf_runs;
    for (const RunResult& r : results)
        if (r.status == RunStatus::Ok && r.mlperf_time_to_train_min)
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
        std::vector<MlperfRun> runs;
        for (const RunResult* r : it->second)
            runs.push_back({*r->mlperf_time_to_train_min, r->mlperf_status == "success"});
        p.mlperf = olympicScore(it->second.front()->mlperf_benchmark, runs);
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
    std::vector<RunOutcome> outcomes;
    for (const auto& r : results)
        if (r.status == RunStatus::Ok)
            outcomes.push_back({seriesOf(r), r.ranks, r.figures.samples_per_s, r.time_to_target_s,
                                r.target.has_value(),
                                computeOnlyThroughput(r.figures.samples_per_s, r.figures.breakdown),
                                communicationShare(r.figures.breakdown)});
    std::vector<ScalingPoint> points = throughputScaling(outcomes);
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

std::string formatTimeToTarget(const RunResult& result) {
    if (result.mlperf_time_to_train_min && result.mlperf_status == "success" &&
        result.figures.steady_steps == 0)
        return fmt::format("{:.2f} min", *result.mlperf_time_to_train_min);
    if (result.time_to_target_s) return fmt::format("{:.1f} s", *result.time_to_target_s);
    if (result.target && result.status == RunStatus::Ok) return "not reached";
    return "-";
}

namespace {
std::string milliseconds(double seconds) {
    return fmt::format("{:.1f}", seconds * 1e3);
}

std::string withTwoSigma(const Statistics& s, int decimals, const std::string& suffix = "") {
    return fmt::format("{:.{}f}{} ±{:.{}f}", s.mean, decimals, suffix, s.two_sigma(), decimals);
}

// Mean and two sigma over repeats of each series at each rank count: throughput, its speedup and efficiency,
// the compute-only speedup and the share of communication; then time to target where the runs had one.
std::string formatSeriesScaling(const std::vector<ScalingPoint>& points) {
    // Runs that measure no throughput (MLPerf's, which formatMlperfScores shows; collective sweeps) have no
    // row.
    const auto measured = [](const ScalingPoint& p) { return p.throughput.mean > 0; };
    std::string out;
    if (std::any_of(points.begin(), points.end(), measured))
        out = fmt::format("\nscaling per series (mean ±2 sigma over repeats):\n{:<44} {:>5} {:>4} {:>20} "
                          "{:>15} {:>6} {:>12} {:>6}\n",
                          "series", "ranks", "reps", "samples/s", "speedup", "eff", "compute-only", "comm%");
    for (const ScalingPoint& p : points)
        if (measured(p))
            out += fmt::format("{:<44} {:>5} {:>4} {:>20} {:>15} {:>5.0f}% {:>11.2f}x {:>5.0f}%\n", p.label,
                               p.ranks, p.repeats, withTwoSigma(p.throughput, 1),
                               withTwoSigma(p.speedup_stats, 2, "x"), p.efficiency * 100,
                               p.compute_only_speedup, p.communication_share * 100);
    const auto withTarget = [](const ScalingPoint& p) { return p.target_repeats > 0 && !p.mlperf; };
    if (!std::any_of(points.begin(), points.end(), withTarget)) return out;
    out += fmt::format("\ntime to target (MLBench's time to accuracy; mean ±2 sigma over the repeats that "
                       "reached it):\n{:<44} {:>5} {:>8} {:>18} {:>15} {:>6}\n",
                       "series", "ranks", "reached", "seconds", "speedup", "eff");
    for (const ScalingPoint& p : points) {
        if (!withTarget(p)) continue;
        const auto& speedup = p.time_to_target_speedup;
        out += fmt::format("{:<44} {:>5} {:>8} {:>18} {:>15} {:>6}\n", p.label, p.ranks,
                           fmt::format("{}/{}", p.reached, p.target_repeats),
                           p.reached ? withTwoSigma(p.time_to_target, 1) : "-",
                           speedup ? withTwoSigma(*speedup, 2, "x") : "-",
                           speedup ? fmt::format("{:.0f}%", p.time_to_target_efficiency * 100) : "-");
    }
    return out;
}

// MLPerf's own figure of merit for the series whose runs wrote MLLOG: the olympic score at each GPU count
// and the time-to-train speedup from it (Lambda's MLPerf Training v4.1 write-up, seed 000: its 8 -> 64 GPU
// table).
std::string formatMlperfScores(const std::vector<ScalingPoint>& points) {
    std::string out;
    for (const ScalingPoint& p : points) {
        if (!p.mlperf) continue;
        const MlperfScore& m = *p.mlperf;
        if (out.empty())
            out =
                fmt::format("\nMLPerf time to train (minutes, run_start to run_stop; score = olympic average "
                            "over the repeats as MLPerf Training's rules and result summarizer):\n"
                            "{:<34} {:>5} {:>10} {:>9} {:>9} {:>6}  {}\n",
                            "series", "GPUs", "converged", "score", "speedup", "eff", "verdict");
        out += fmt::format("{:<34} {:>5} {:>10} {:>9} {:>9} {:>6}  {}\n", p.label, p.ranks,
                           fmt::format("{}/{}", m.converged, m.runs),
                           m.score_min ? fmt::format("{:.2f}", *m.score_min) : "-",
                           p.mlperf_speedup ? fmt::format("{:.2f}x", *p.mlperf_speedup) : "-",
                           p.mlperf_speedup ? fmt::format("{:.0f}%", p.mlperf_efficiency * 100) : "-",
                           m.verdict);
    }
    return out;
}

// MaxText's Llama-2 70B recipe's figures (seed 003) for the runs that count tokens: tokens/s (all and per
// device), model TFLOP/s per device, MFU and days to train 1T tokens.
std::string formatTokenThroughput(const std::vector<RunResult>& results) {
    std::string out;
    for (const RunResult& r : results) {
        if (r.figures.tokens_per_s <= 0 || r.figures.steady_steps == 0) continue;
        if (out.empty())
            out = fmt::format("\n{:<34} {:>5} {:>12} {:>14} {:>14} {:>7} {:>13}\n", "language runs", "ranks",
                              "tokens/s", "tokens/s/dev", "TFLOP/s/dev", "MFU", "days to 1T tok");
        out += fmt::format("{:<34} {:>5} {:>12.1f} {:>14.1f} {:>14} {:>7} {:>13.2f}\n", r.name, r.ranks,
                           r.figures.tokens_per_s, r.figures.tokens_per_s / r.ranks,
                           r.figures.model_flops_per_s > 0
                               ? fmt::format("{:.4g}", r.figures.model_flops_per_s / r.ranks / 1e12)
                               : "-",
                           r.figures.mfu ? fmt::format("{:.2f}%", *r.figures.mfu * 100) : "-",
                           daysToTrain(r.figures.tokens_per_s));
    }
    if (!out.empty())
        out +=
            "model FLOPs: the engine's runs compute MaxText's formula exactly for the run's model (the "
            "recipe's tables use its rounded 1.82E+15 a sample); an outside trainer's runs, its own printed "
            "TFLOP/s;\nMFU = model FLOP/s / (ranks x peak); days to 1T tokens = 1e12 / "
            "(tokens/s) / 86400 (seed 003).\n";
    return out;
}
} // namespace

namespace {
std::vector<std::string> splitLines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        lines.push_back(text.substr(start, end - start));
    if (start < text.size()) lines.push_back(text.substr(start));
    return lines;
}
} // namespace

std::string formatDeviceCheck(const DeviceCheckRecord& check) {
    const std::string head = "device check on " + (check.device.empty() ? "an unnamed device" : check.device);
    const auto passed = std::count_if(check.checks.begin(), check.checks.end(),
                                      [](const DeviceCheck& c) { return c.passed; });
    if (check.passed()) return fmt::format("{}: pass ({} of {} checks)", head, passed, check.checks.size());
    std::string failed;
    for (const DeviceCheck& c : check.checks) {
        if (c.passed) continue;
        failed += (failed.empty() ? "" : "; ") + c.name;
        if (c.value)
            failed += fmt::format(" ({} {:g}{})", c.figure, *c.value,
                                  c.tolerance ? fmt::format(", tolerance {:g}", *c.tolerance) : "");
    }
    if (failed.empty()) // rank 0's checks all passed: another rank's did not
        failed = fmt::format("another rank's checks (rank 0 passed {} of {})", passed, check.checks.size());
    return head + ": FAIL: " + failed;
}

std::string formatResultsTable(const std::vector<RunResult>& results) {
    const auto scaling = runScaling(results);
    const auto cautions = figureCautions(results);
    std::string out =
        fmt::format("{:<34} {:>5} {:>6} {:>10} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} {:>7} {:>6} {:>7} "
                    "{:>12} {:>11}\n",
                    "run", "ranks", "status", "samples/s", "step ms", "data", "fwd", "bwd", "allred", "optim",
                    "comm%", "speedup", "eff", "loss", "eval", "to target");
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
        const StepBreakdown& b = r.figures.breakdown;
        if (r.figures.steady_steps == 0 && !r.collectives.empty()) {
            double peak = 0;
            for (const auto& c : r.collectives)
                peak = std::max(peak, c.busbw_gbps);
            out += fmt::format("{:<34} {:>5} {:>6}   collective sweep: {} sizes, peak busbw {:.3f} GB/s\n",
                               r.name, r.ranks, storedWord(r.status), r.collectives.size(), peak);
        } else if (r.figures.steady_steps == 0 && r.device_check) {
            out += fmt::format("{:<34} {:>5} {:>6}   {}\n", r.name, r.ranks, storedWord(r.status),
                               formatDeviceCheck(*r.device_check));
        } else if (r.figures.steady_steps == 0 && r.mlperf_time_to_train_min) {
            out += fmt::format("{:<34} {:>5} {:>6}   MLPerf time to train {} ({})\n", r.name, r.ranks,
                               storedWord(r.status), formatTimeToTrain(*r.mlperf_time_to_train_min),
                               r.mlperf_status);
        } else if (r.figures.steady_steps == 0) {
            out += fmt::format("{:<34} {:>5} {:>6}   (no steady-state steps)\n", r.name, r.ranks,
                               storedWord(r.status));
        } else {
            out += fmt::format(
                "{:<34} {:>5} {:>6} {:>10.1f} {:>8} {:>7} {:>7} {:>7} {:>7} {:>7} {:>5.0f}% {:>7} {:>6} "
                "{:>7.4f} {:>12} {:>11}\n",
                r.name, r.ranks, storedWord(r.status), r.figures.samples_per_s, milliseconds(b.step_s),
                milliseconds(b.data_s), milliseconds(b.forward_s), milliseconds(b.backward_s),
                milliseconds(b.allreduce_s), milliseconds(b.optimizer_s), communicationShare(b) * 100,
                scaling[i].speedup > 0 ? fmt::format("{:.2f}x", scaling[i].speedup) : "-",
                scaling[i].speedup > 0 ? fmt::format("{:.0f}%", scaling[i].efficiency * 100) : "-",
                r.figures.final_loss, formatEvalValue(r.figures.eval_metric, r.figures.final_eval),
                formatTimeToTarget(r));
        }
        if (r.figures.steady_steps > 0 && r.mlperf_time_to_train_min)
            out +=
                fmt::format("    MLPerf time to train {} ({}), from its MLLOG: {} division, benchmark {}\n",
                            formatTimeToTrain(*r.mlperf_time_to_train_min), r.mlperf_status,
                            r.mlperf_division.empty() ? "unstated" : r.mlperf_division,
                            r.mlperf_benchmark.empty() ? "unnamed" : r.mlperf_benchmark);
        if (!r.requeues.empty()) out += "    " + r.requeues + "\n";
        for (const std::string& line : splitLines(describeSlowRanks(r.slow_ranks)))
            out += "    " + line + "\n";
        if (!r.error.empty()) out += "    error: " + r.error + "\n";
        out += formatCautions(cautions[i], "    ");
    }
    const StepTimeConvention convention =
        results.empty() ? StepTimeConvention::SteadyStateMedian : results.front().figures.convention;
    out +=
        "samples/s: " + describeConvention(convention) +
        "; step and its parts: mean ms per step (data, forward, backward, exposed all-reduce, optimizer);\n"
        "comm%: exposed all-reduce / step time; speedup S(N) = X(N)/X(N0) against the mean of the repeats at "
        "the smallest rank count N0 of the run's series (N0's own runs: 1.00x), efficiency E(N) = S(N) * "
        "N0/N;\n"
        "to target: time to the evaluation that reached the run's target (MLBench's time to accuracy).\n";
    if (std::any_of(results.begin(), results.end(),
                    [](const RunResult& r) { return !r.slow_ranks.slow_ranks.empty(); }))
        out +=
            fmt::format("slow rank: its median compute time over the steady-state steps exceeds the ranks' "
                        "median by more than {:g} x 1.4826 x MAD and by {:g} %; slow node: one with a slow "
                        "rank (a plan's exclude_nodes = [\"NODE\"] keeps its jobs off it on Slurm).\n",
                        SlowRankRule{}.k, SlowRankRule{}.min_margin * 100);
    const std::vector<ScalingPoint> points = sessionScaling(results);
    out += formatSeriesScaling(points);
    out += formatMlperfScores(points);
    out += formatTokenThroughput(results);
    if (std::any_of(results.begin(), results.end(),
                    [](const RunResult& r) { return r.figures.steady_steps; }))
        out +=
            "series: runs alike in every plan setting but ranks; compute-only speedup: the same from global "
            "batch / (step - exposed all-reduce), the speedup with free communication (seed 004).\n";
    return out;
}

std::string formatCollectiveSweeps(const std::vector<RunResult>& results) {
    std::string out;
    for (const RunResult& r : results) {
        if (r.collectives.empty()) continue;
        const std::string& tool = r.collectives.front().tool;
        out += fmt::format("\n{} ({} ranks{}; time: mean per call across ranks; busbw = algbw x 2(n-1)/n for "
                           "all-reduce, as nccl-tests)\n",
                           r.name, r.ranks, tool == "scalebench" ? "" : ", measured by " + tool);
        out += fmt::format("{:>12} {:>12} {:>10} {:>12} {:>14} {:>14} {:>8}  {}\n", "bytes", "elements",
                           "dtype", "time us", "algbw GB/s", "busbw GB/s", "correct", "placement");
        for (const auto& c : r.collectives)
            out += fmt::format("{:>12} {:>12} {:>10} {:>12.2f} {:>14.3f} {:>14.3f} {:>8}  {}\n", c.bytes,
                               c.elements, c.dtype, c.time_s * 1e6, c.algbw_gbps, c.busbw_gbps,
                               !c.checked  ? "-"
                               : c.correct ? "yes"
                                           : "NO",
                               c.in_place ? "in-place" : "out-of-place");
    }
    return out;
}

std::string resultsCsv(const std::vector<RunResult>& results) {
    const auto scaling = runScaling(results);
    std::vector<SeriesKey> keys;
    for (const auto& r : results)
        keys.push_back(seriesOf(r));
    const std::vector<std::string> labels = seriesLabels(keys);
    const auto optional = [](std::optional<double> v, int decimals) {
        return v ? fmt::format("{:.{}f}", *v, decimals) : std::string();
    };
    std::string out =
        "run,workload,dataset,ranks,repeat,status,samples_per_s,step_s,data_s,forward_s,backward_s,"
        "allreduce_s,optimizer_s,speedup,efficiency,final_loss,eval_metric,final_eval,tokens_per_s,mfu,"
        "series,"
        "comm_share,compute_only_samples_per_s,target,target_reached,time_to_target_s,time_to_target_speedup,"
        "time_to_target_efficiency,tokens_per_s_per_device,tflops_per_device,days_to_1t_tokens,"
        "step_time_convention,device_check\n";
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
        const RunFigures& f = r.figures;
        const StepBreakdown& b = f.breakdown;
        out += fmt::format(
            "{},{},{},{},{},{},{:.3f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.6f},{:.4f},{:.4f},{:.6f},{},{},{:"
            ".1f},{}",
            r.name, r.workload, r.dataset, r.ranks, r.repeat, storedWord(r.status), f.samples_per_s, b.step_s,
            b.data_s, b.forward_s, b.backward_s, b.allreduce_s, b.optimizer_s, scaling[i].speedup,
            scaling[i].efficiency, f.final_loss, f.final_eval ? f.eval_metric : "", optional(f.final_eval, 6),
            f.tokens_per_s, optional(f.mfu, 4));
        const bool tokens = f.tokens_per_s > 0 && r.ranks > 0;
        out += fmt::format(",\"{}\",{:.4f},{:.3f},{},{},{},{},{},{},{},{},{},{}\n", labels[i],
                           communicationShare(b), computeOnlyThroughput(f.samples_per_s, b),
                           optional(r.target, 4), r.target ? (r.target_reached ? "yes" : "no") : "",
                           optional(r.time_to_target_s, 3), optional(scaling[i].time_to_target_speedup, 4),
                           scaling[i].time_to_target_speedup
                               ? fmt::format("{:.4f}", scaling[i].time_to_target_efficiency)
                               : "",
                           tokens ? fmt::format("{:.3f}", f.tokens_per_s / r.ranks) : "",
                           f.model_flops_per_s > 0 && r.ranks > 0
                               ? fmt::format("{:.6g}", f.model_flops_per_s / r.ranks / 1e12)
                               : "",
                           tokens ? fmt::format("{:.4f}", daysToTrain(f.tokens_per_s)) : "",
                           f.convention == StepTimeConvention::LastStep ? "last-step" : "median",
                           r.device_check ? r.device_check->verdict : "");
    }
    return out;
}

} // namespace scalebench
