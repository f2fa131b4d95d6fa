// The results of a session as a text table for the terminal and as CSV.
#include "results_table.h"

#include "figure_cautions.h"
#include "figure_registry.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace scalebench {

std::string formatTimeToTarget(const RunResult& result) {
    if (result.mlperf_time_to_train_min && result.mlperf_status == "success" &&
        result.figures.steady_steps == 0)
        return terseValue(Figure::MlperfTimeToTrain, *result.mlperf_time_to_train_min) + " min";
    if (result.time_to_target_s) return terseValue(Figure::TimeToTarget, *result.time_to_target_s) + " s";
    if (result.target && result.status == RunStatus::Ok) return "not reached";
    return "-";
}

namespace {
// A part of the step, stored in seconds, in the table's milliseconds.
std::string milliseconds(Figure part, double seconds) {
    return terseValue(part, seconds * 1e3);
}

// "512.3 ±4.1", "1.52x ±0.03": a mean over repeats and its two sigma, with the figure's terse decimals.
std::string withTwoSigma(Figure figure, const Statistics& s, const std::string& suffix = "") {
    return terseValue(figure, s.mean) + suffix + " ±" + terseValue(figure, s.two_sigma());
}

std::string percent(Figure figure, double fraction) {
    return terseValue(figure, fraction * 100) + "%";
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
                          "series", "ranks", "reps", terse(Figure::SamplesPerS), terse(Figure::Speedup),
                          terse(Figure::Efficiency), terse(Figure::ComputeOnlySpeedup),
                          terse(Figure::CommunicationShare));
    for (const ScalingPoint& p : points)
        if (measured(p))
            out += fmt::format("{:<44} {:>5} {:>4} {:>20} {:>15} {:>6} {:>12} {:>6}\n", p.label, p.ranks,
                               p.repeats, withTwoSigma(Figure::SamplesPerS, p.throughput),
                               withTwoSigma(Figure::Speedup, p.speedup_stats, "x"),
                               percent(Figure::Efficiency, p.efficiency),
                               terseValue(Figure::ComputeOnlySpeedup, p.compute_only_speedup) + "x",
                               percent(Figure::CommunicationShare, p.communication_share));
    const auto withTarget = [](const ScalingPoint& p) { return p.target_repeats > 0 && !p.mlperf; };
    if (!std::any_of(points.begin(), points.end(), withTarget)) return out;
    out += fmt::format("\ntime to target (MLBench's time to accuracy; mean ±2 sigma over the repeats that "
                       "reached it):\n{:<44} {:>5} {:>8} {:>18} {:>15} {:>6}\n",
                       "series", "ranks", "reached", "seconds", terse(Figure::TimeToTargetSpeedup),
                       terse(Figure::Efficiency));
    for (const ScalingPoint& p : points) {
        if (!withTarget(p)) continue;
        const auto& speedup = p.time_to_target_speedup;
        out += fmt::format("{:<44} {:>5} {:>8} {:>18} {:>15} {:>6}\n", p.label, p.ranks,
                           fmt::format("{}/{}", p.reached, p.target_repeats),
                           p.reached ? withTwoSigma(Figure::TimeToTarget, p.time_to_target) : "-",
                           speedup ? withTwoSigma(Figure::TimeToTargetSpeedup, *speedup, "x") : "-",
                           speedup ? percent(Figure::Efficiency, p.time_to_target_efficiency) : "-");
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
                            "{:<34} {:>5} {:>10} {:>12} {:>9} {:>6}  {}\n",
                            "series", "GPUs", terse(Figure::MlperfConvergedRuns), terse(Figure::MlperfScore),
                            terse(Figure::MlperfSpeedup), terse(Figure::Efficiency), "verdict");
        out +=
            fmt::format("{:<34} {:>5} {:>10} {:>12} {:>9} {:>6}  {}\n", p.label, p.ranks,
                        fmt::format("{}/{}", m.converged, m.runs),
                        m.score_min ? terseValue(Figure::MlperfScore, *m.score_min) : "-",
                        p.mlperf_speedup ? terseValue(Figure::MlperfSpeedup, *p.mlperf_speedup) + "x" : "-",
                        p.mlperf_speedup ? percent(Figure::Efficiency, p.mlperf_efficiency) : "-", m.verdict);
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
                              terse(Figure::TokensPerS), terse(Figure::TokensPerS) + "/dev",
                              terse(Figure::TflopsPerRank), terse(Figure::Mfu), terse(Figure::DaysToTrain1T));
        // TFLOP/s per device to four significant digits: a CPU's 0.0001234 and an H200's 412.3 alike.
        out += fmt::format("{:<34} {:>5} {:>12} {:>14} {:>14} {:>7} {:>13}\n", r.name, r.ranks,
                           terseValue(Figure::TokensPerS, r.figures.tokens_per_s),
                           terseValue(Figure::TokensPerS, r.figures.tokens_per_s / r.ranks),
                           r.figures.model_flops_per_s > 0
                               ? fmt::format("{:.{}g}", r.figures.model_flops_per_s / r.ranks / 1e12,
                                             figureStyle(Figure::TflopsPerRank).terse_decimals)
                               : "-",
                           r.figures.mfu ? percent(Figure::Mfu, *r.figures.mfu) : "-",
                           terseValue(Figure::DaysToTrain1T, daysToTrain(r.figures.tokens_per_s)));
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

std::vector<std::string> resultsFigureHeaders() {
    return {
        terse(Figure::SamplesPerS), terse(Figure::StepTime),           terse(Figure::DataLoading),
        terse(Figure::Forward),     terse(Figure::Backward),           terse(Figure::ExposedCommunication),
        terse(Figure::Optimizer),   terse(Figure::CommunicationShare), terse(Figure::Speedup),
        terse(Figure::Efficiency),  terse(Figure::FinalLoss),          "eval",
        terse(Figure::TimeToTarget)};
}

std::vector<std::string> resultsFigureCells(const RunResult& result, const RunScaling& scaling) {
    const StepBreakdown& b = result.figures.breakdown;
    const bool scaled = scaling.speedup > 0;
    // A part the run's tool did not time is "-", never 0.0.
    const bool parts = partsMeasured(b);
    const auto part = [&](Figure figure, double seconds) {
        return parts ? milliseconds(figure, seconds) : "-";
    };
    const double samples =
        result.figures.samples_per_s; // 0: unknown (a MaxText log without its sequence length)
    return {samples > 0 ? terseValue(Figure::SamplesPerS, samples) : "-",
            milliseconds(Figure::StepTime, b.step_s),
            part(Figure::DataLoading, b.data_s),
            part(Figure::Forward, b.forward_s),
            part(Figure::Backward, b.backward_s),
            part(Figure::ExposedCommunication, b.allreduce_s),
            part(Figure::Optimizer, b.optimizer_s),
            parts ? percent(Figure::CommunicationShare, communicationShare(b)) : "-",
            scaled ? terseValue(Figure::Speedup, scaling.speedup) + "x" : "-",
            scaled ? percent(Figure::Efficiency, scaling.efficiency) : "-",
            terseValue(Figure::FinalLoss, result.figures.final_loss),
            formatEvalValue(result.figures.eval_metric, result.figures.final_eval),
            formatTimeToTarget(result)};
}

std::string formatResultsTable(const std::vector<RunResult>& results) {
    const auto scaling = runScaling(results);
    const auto cautions = figureCautions(results);
    // The figures' columns' widths, in resultsFigureHeaders' order.
    static constexpr std::array<int, 13> kWidths = {10, 8, 7, 7, 7, 7, 7, 6, 7, 6, 7, 12, 11};
    const auto figureColumns = [](const std::vector<std::string>& texts) {
        std::string line;
        for (std::size_t c = 0; c < texts.size(); ++c)
            line += fmt::format(" {:>{}}", texts[c], kWidths.at(c));
        return line + "\n";
    };
    std::string out =
        fmt::format("{:<34} {:>5} {:>6}", "run", "ranks", "status") + figureColumns(resultsFigureHeaders());
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
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
        } else if (r.figures.steady_steps == 0 && r.mlperf_status == "cut") {
            out += fmt::format("{:<34} {:>5} {:>6}   MLPerf: cut before run_stop, a failed run\n", r.name,
                               r.ranks, storedWord(r.status));
        } else if (r.figures.steady_steps == 0) {
            out += fmt::format("{:<34} {:>5} {:>6}   (no steady-state steps)\n", r.name, r.ranks,
                               storedWord(r.status));
        } else {
            out += fmt::format("{:<34} {:>5} {:>6}", r.name, r.ranks, storedWord(r.status)) +
                   figureColumns(resultsFigureCells(r, scaling[i]));
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

namespace {
// "busbw = algbw x 2(n-1)/n for allreduce, (n-1)/n for allgather": each collective of a sweep with its
// factor.
std::string busFactorsOf(const std::vector<CollectiveRecord>& collectives) {
    std::vector<std::string> seen;
    std::string text;
    for (const CollectiveRecord& c : collectives) {
        if (std::find(seen.begin(), seen.end(), c.collective) != seen.end()) continue;
        seen.push_back(c.collective);
        const std::string formula = busBandwidthFormula(c.collective);
        text += (text.empty() ? "" : ", ") +
                (formula.empty() ? "as printed for " + c.collective : formula + " for " + c.collective);
    }
    return "busbw = algbw x " + text;
}
} // namespace

std::string formatCollectiveSweeps(const std::vector<RunResult>& results) {
    std::string out;
    for (const RunResult& r : results) {
        if (r.collectives.empty()) continue;
        const std::string& tool = r.collectives.front().tool;
        out += fmt::format("\n{} ({} ranks{}; time: mean per call across ranks; {}, as nccl-tests)\n", r.name,
                           r.ranks, tool == "scalebench" ? "" : ", measured by " + tool,
                           busFactorsOf(r.collectives));
        out +=
            fmt::format("{:>14} {:>12} {:>12} {:>10} {:>12} {:>14} {:>14} {:>8}  {}\n", "collective", "bytes",
                        "elements", "dtype", "time us", "algbw GB/s", "busbw GB/s", "correct", "placement");
        for (const auto& c : r.collectives)
            out += fmt::format("{:>14} {:>12} {:>12} {:>10} {:>12.2f} {:>14.3f} {:>14.3f} {:>8}  {}\n",
                               c.collective, c.bytes, c.elements, c.dtype, c.time_s * 1e6, c.algbw_gbps,
                               c.busbw_gbps,
                               !c.checked  ? "-"
                               : c.correct ? "yes"
                                           : "NO",
                               c.in_place ? "in-place" : "out-of-place");
    }
    return out;
}

namespace {
// results.csv's first line: the figures' columns by their rows' CSV names (figure_registry.h).
std::string csvHeader() {
    const auto column = [](Figure figure) { return csvColumn(figure); };
    const std::vector<std::string> columns = {"run",
                                              "workload",
                                              "dataset",
                                              "ranks",
                                              "repeat",
                                              "status",
                                              column(Figure::SamplesPerS),
                                              column(Figure::StepTime),
                                              column(Figure::DataLoading),
                                              column(Figure::Forward),
                                              column(Figure::Backward),
                                              column(Figure::ExposedCommunication),
                                              column(Figure::Optimizer),
                                              column(Figure::Speedup),
                                              column(Figure::Efficiency),
                                              column(Figure::FinalLoss),
                                              "eval_metric",
                                              "final_eval",
                                              column(Figure::TokensPerS),
                                              column(Figure::Mfu),
                                              "series",
                                              column(Figure::CommunicationShare),
                                              "compute_only_samples_per_s",
                                              "target",
                                              "target_reached",
                                              column(Figure::TimeToTarget),
                                              column(Figure::TimeToTargetSpeedup),
                                              "time_to_target_efficiency",
                                              column(Figure::TokensPerS) + "_per_device",
                                              column(Figure::TflopsPerRank),
                                              column(Figure::DaysToTrain1T),
                                              "step_time_convention",
                                              "device_check"};
    return fmt::format("{}\n", fmt::join(columns, ","));
}
} // namespace

std::string resultsCsv(const std::vector<RunResult>& results) {
    const auto scaling = runScaling(results);
    std::vector<SeriesKey> keys;
    for (const auto& r : results)
        keys.push_back(seriesOf(r));
    const std::vector<std::string> labels = seriesLabels(keys);
    const auto optional = [](std::optional<double> v, int decimals) {
        return v ? fmt::format("{:.{}f}", *v, decimals) : std::string();
    };
    std::string out = csvHeader();
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult& r = results[i];
        const RunFigures& f = r.figures;
        const StepBreakdown& b = f.breakdown;
        // A figure the run does not have is an empty cell, never 0: no steady-state steps (an MLPerf run,
        // a sweep, a failed run), parts its tool did not time, a speedup without a baseline.
        const bool stepped = f.steady_steps > 0;
        const bool parts = stepped && partsMeasured(b);
        const auto when = [&](bool known, double value, int decimals) {
            return optional(known ? std::optional(value) : std::nullopt, decimals);
        };
        const bool scaled = scaling[i].speedup > 0;
        out += fmt::format(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}", r.name, r.workload, r.dataset,
            r.ranks, r.repeat, storedWord(r.status), when(f.samples_per_s > 0, f.samples_per_s, 3),
            when(stepped, b.step_s, 6), when(parts, b.data_s, 6), when(parts, b.forward_s, 6),
            when(parts, b.backward_s, 6), when(parts, b.allreduce_s, 6), when(parts, b.optimizer_s, 6),
            when(scaled, scaling[i].speedup, 4), when(scaled, scaling[i].efficiency, 4),
            when(stepped, f.final_loss, 6), f.final_eval ? f.eval_metric : "", optional(f.final_eval, 6),
            when(f.tokens_per_s > 0, f.tokens_per_s, 1), optional(f.mfu, 4));
        const bool tokens = f.tokens_per_s > 0 && r.ranks > 0;
        out += fmt::format(
            ",\"{}\",{},{},{},{},{},{},{},{},{},{},{},{}\n", labels[i], when(parts, communicationShare(b), 4),
            when(parts, computeOnlyThroughput(f.samples_per_s, b), 3), optional(r.target, 4),
            r.target ? (r.target_reached ? "yes" : "no") : "", optional(r.time_to_target_s, 3),
            optional(scaling[i].time_to_target_speedup, 4),
            scaling[i].time_to_target_speedup ? fmt::format("{:.4f}", scaling[i].time_to_target_efficiency)
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
