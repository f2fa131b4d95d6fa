// The figures the console names: one row each, with the label people read, its unit, which way is better,
// the decimals the window shows it with and, where a plan's [[reference]] may bound it, the plan's name for
// it. Compare (its table, its exports and the report's comparison), the regression verdicts and the plan
// reader's
// [[reference]] figures read them from here; adding a figure is one row.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace scalebench {

// Which way a figure improves, so a difference can be called better or worse.
enum class Better { Higher, Lower, Neither };

// X(id, label, unit, better, decimals, reference, terse, terse_decimals, csv):
// - label, unit, decimals: how the window, Compare and the report name and show it;
// - reference: the [[reference]] figure's name, "" where a plan cannot bound it;
// - terse, terse_decimals: its column header and decimals in the terminal's narrow tables (results_table.h);
// - csv: its column in results.csv, whose times are in seconds and shares and efficiencies fractions.
#define SCALEBENCH_FIGURES(X)                                                                                \
    /* the figures a [[reference]] may bound first, in the order the plan reader names them */               \
    X(SamplesPerS, "samples/s", "samples/s", Higher, 1, "samples_per_s", "samples/s", 1, "samples_per_s")    \
    X(TokensPerS, "tokens/s", "tokens/s", Higher, 2, "tokens_per_s", "tokens/s", 1, "tokens_per_s")          \
    X(StepTime, "step time", "ms", Lower, 2, "step_time_ms", "step ms", 1, "step_s")                         \
    X(TimeToTarget, "time to target", "s", Lower, 2, "time_to_target_s", "to target", 1, "time_to_target_s") \
    X(MlperfTimeToTrain, "MLPerf time to train", "min", Lower, 2, "time_to_train_min", "MLPerf min", 2,      \
      "time_to_train_min")                                                                                   \
    X(Mfu, "MFU", "%", Higher, 2, "mfu", "MFU", 2, "mfu")                                                    \
    X(Efficiency, "efficiency", "%", Higher, 2, "efficiency", "eff", 0, "efficiency")                        \
    X(Busbw, "busbw", "GB/s", Higher, 3, "busbw_gbps", "busbw GB/s", 3, "busbw_gbps")                        \
    X(DataLoading, "data loading", "ms", Lower, 2, "", "data", 1, "data_s")                                  \
    X(Forward, "forward", "ms", Lower, 2, "", "fwd", 1, "forward_s")                                         \
    X(Backward, "backward", "ms", Lower, 2, "", "bwd", 1, "backward_s")                                      \
    X(Optimizer, "optimizer", "ms", Lower, 2, "", "optim", 1, "optimizer_s")                                 \
    X(ExposedCommunication, "exposed communication", "ms", Lower, 2, "", "allred", 1, "allreduce_s")         \
    X(HiddenCommunication, "hidden communication", "ms", Neither, 2, "", "hidden", 1,                        \
      "hidden_communication_s")                                                                              \
    X(Speedup, "speedup", "x", Higher, 2, "", "speedup", 2, "speedup")                                       \
    X(ComputeOnlySpeedup, "compute-only speedup", "x", Neither, 2, "", "compute-only", 2,                    \
      "compute_only_speedup")                                                                                \
    X(CommunicationShare, "communication share", "%", Lower, 2, "", "comm%", 0, "comm_share")                \
    X(TimeToTargetSpeedup, "time-to-target speedup", "x", Higher, 2, "", "speedup", 2,                       \
      "time_to_target_speedup")                                                                              \
    X(TflopsPerRank, "TFLOP/s per rank", "TFLOP/s", Higher, 2, "", "TFLOP/s/dev", 4, "tflops_per_device")    \
    X(DaysToTrain1T, "days to train 1T tokens", "days", Lower, 2, "", "days to 1T tok", 2,                   \
      "days_to_1t_tokens")                                                                                   \
    X(FinalLoss, "final loss", "", Lower, 4, "", "loss", 4, "final_loss")                                    \
    X(MlperfConvergedRuns, "MLPerf converged runs", "runs", Higher, 2, "", "converged", 0, "converged_runs") \
    X(MlperfScore, "MLPerf time to train (olympic score)", "min", Lower, 2, "", "score", 6,                  \
      "mlperf_score_min")                                                                                    \
    X(MlperfSpeedup, "MLPerf time-to-train speedup", "x", Higher, 2, "", "speedup", 2, "mlperf_speedup")     \
    X(PeakBusbw, "peak busbw", "GB/s", Higher, 3, "", "peak busbw", 3, "peak_busbw_gbps")

enum class Figure {
#define SCALEBENCH_FIGURE_ID(id, ...) id,
    SCALEBENCH_FIGURES(SCALEBENCH_FIGURE_ID)
#undef SCALEBENCH_FIGURE_ID
};

struct FigureStyle {
    Figure figure;
    std::string_view label;
    std::string_view unit; // "" for a plain number (a loss)
    Better better;
    int decimals;
    std::string_view reference; // the [[reference]] figure's name; "" where a plan cannot bound it
    std::string_view terse;     // its header in the terminal's narrow tables: "fwd", "comm%"
    int terse_decimals;         // its decimals there (the window's `decimals` would not fit 80 columns)
    std::string_view csv;       // its column in results.csv: "forward_s" (seconds), "comm_share" (a fraction)
};

// Every figure, in the table's order.
const std::vector<FigureStyle>& figureStyles();
const FigureStyle& figureStyle(Figure figure);

// "step time (ms)", "time to target (s)": the label with its unit, where the unit does not repeat it
// ("samples/s") and there is one (a loss has none).
std::string figureHeader(Figure figure);

// The terminal's narrow tables: the figure's header ("fwd"), and a value with its decimals there ("12.3").
std::string terse(Figure figure);
std::string terseValue(Figure figure, double value);
// Its column name in results.csv ("forward_s").
std::string csvColumn(Figure figure);

// The figures a plan's [[reference]] may bound, in the table's order.
std::vector<FigureStyle> referenceFigures();

} // namespace scalebench
