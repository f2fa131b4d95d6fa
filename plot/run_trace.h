// A run's step and evaluation series as the live charts and the runs table read them, with what they read of
// the series kept up as records arrive: each step series' block summaries and the steady-state throughput.
#pragma once

#include "metric_record.h"
#include "series_decimation.h"
#include "steady_state_median.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace scalebench {

// Everything a run has streamed so far, one entry per step (full data; charts decimate for display).
struct RunTrace {
    // The step series that have block summaries, in the order of `blocks` (and of RunProgressModel::Metric).
    enum Series {
        Loss,
        SamplesPerS,
        StepMs,
        ForwardMs,
        BackwardMs,
        ExposedCommMs,
        HiddenCommMs,
        SeriesCount
    };

    std::vector<double> step, elapsed_s, loss, samples_per_s, step_ms;
    std::vector<double> forward_ms, backward_ms, exposed_comm_ms, hidden_comm_ms;
    std::vector<double> eval_step, eval_elapsed_s, eval_value;
    SeriesBlocks blocks[SeriesCount];
    // The throughput as `run` prints it: the median over the steps so far after the warm-up
    // (warmupStepsToSkip); none before the first step.
    std::optional<double> steady_samples_per_s;

    // Appends the step and evaluation records (others are not part of a trace) and brings the block summaries
    // and the steady-state throughput up to date.
    void append(const std::vector<MetricRecord>& records);
    const std::vector<double>& series(Series s) const;
    // Room for `steps` steps (at most kMaxReservedSteps), so that appending does not copy the series as they
    // grow: at 1M steps each doubling copied ~50 MB in one live-chart frame (22 ms, bench/live_view_bench).
    void reserve(std::size_t steps);
    // 2M steps: ~150 MB, touched only as steps arrive.
    static constexpr std::size_t kMaxReservedSteps = std::size_t{1} << 21;

  private:
    SteadyStateMedian steady_median_; // of samples_per_s
};

} // namespace scalebench
