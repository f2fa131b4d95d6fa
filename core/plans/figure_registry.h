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

// X(id, label, unit, better, decimals, reference): reference is the [[reference]] figure's name, "" where
// a plan cannot bound it.
#define SCALEBENCH_FIGURES(X)                                                                                \
    /* the figures a [[reference]] may bound first, in the order the plan reader names them */               \
    X(SamplesPerS, "samples/s", "samples/s", Higher, 1, "samples_per_s")                                     \
    X(TokensPerS, "tokens/s", "tokens/s", Higher, 2, "tokens_per_s")                                         \
    X(StepTime, "step time", "ms", Lower, 2, "step_time_ms")                                                 \
    X(TimeToTarget, "time to target", "s", Lower, 2, "time_to_target_s")                                     \
    X(MlperfTimeToTrain, "MLPerf time to train", "min", Lower, 2, "time_to_train_min")                       \
    X(Mfu, "MFU", "%", Higher, 2, "mfu")                                                                     \
    X(Efficiency, "efficiency", "%", Higher, 2, "efficiency")                                                \
    X(Busbw, "busbw", "GB/s", Higher, 3, "busbw_gbps")                                                       \
    X(DataLoading, "data loading", "ms", Lower, 2, "")                                                       \
    X(Forward, "forward", "ms", Lower, 2, "")                                                                \
    X(Backward, "backward", "ms", Lower, 2, "")                                                              \
    X(Optimizer, "optimizer", "ms", Lower, 2, "")                                                            \
    X(ExposedCommunication, "exposed communication", "ms", Lower, 2, "")                                     \
    X(HiddenCommunication, "hidden communication", "ms", Neither, 2, "")                                     \
    X(Speedup, "speedup", "x", Higher, 2, "")                                                                \
    X(ComputeOnlySpeedup, "compute-only speedup", "x", Neither, 2, "")                                       \
    X(CommunicationShare, "communication share", "%", Lower, 2, "")                                          \
    X(TimeToTargetSpeedup, "time-to-target speedup", "x", Higher, 2, "")                                     \
    X(TflopsPerRank, "TFLOP/s per rank", "TFLOP/s", Higher, 2, "")                                           \
    X(DaysToTrain1T, "days to train 1T tokens", "days", Lower, 2, "")                                        \
    X(FinalLoss, "final loss", "", Lower, 4, "")                                                             \
    X(MlperfConvergedRuns, "MLPerf converged runs", "runs", Higher, 2, "")                                   \
    X(MlperfScore, "MLPerf time to train (olympic score)", "min", Lower, 2, "")                              \
    X(MlperfSpeedup, "MLPerf time-to-train speedup", "x", Higher, 2, "")                                     \
    X(PeakBusbw, "peak busbw", "GB/s", Higher, 3, "")

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
};

// Every figure, in the table's order.
const std::vector<FigureStyle>& figureStyles();
const FigureStyle& figureStyle(Figure figure);

// "step time (ms)", "time to target (s)": the label with its unit, where the unit does not repeat it
// ("samples/s") and there is one (a loss has none).
std::string figureHeader(Figure figure);

// The figures a plan's [[reference]] may bound, in the table's order.
std::vector<FigureStyle> referenceFigures();

} // namespace scalebench
