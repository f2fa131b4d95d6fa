// The runs of one session with their figures, speedup and efficiency, time to target, TFLOP/s and MFU, one
// row per run.
#pragma once

#include "figure_cautions.h"
#include "results_table.h"
#include "run_cost.h"

#include <QAbstractTableModel>
#include <vector>

namespace scalebench {

class RunTableModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column {
        Run,
        Ranks,
        Status, // a device self-check's run adds its verdict ("ok, device check pass"), its checks in the
                // tooltip
        Check,  // figureCautions' short texts; each flagged figure's cell coloured, its reason in the tooltip
        SamplesPerS,
        StepMs,
        Speedup,
        Efficiency,
        FinalLoss,
        Eval,         // the last evaluation: accuracy, perplexity, BLEU or loss
        TimeToTarget, // MLBench's time to accuracy, seconds; "not reached" for a run short of its target
        TimeToTargetSpeedup, // T(N0) / T(N) against the mean at its series' smallest rank count
        TokensPerS,          // language runs: tokens per second of all ranks (MaxText's, torchtitan's too)
        DaysTo1T,            // days to train 1T tokens at that rate (MaxText's Llama-2 70B recipe, seed 003)
        TflopsPerDevice,     // achieved model TFLOP/s of one rank (workloads that define model FLOPs)
        Mfu,                 // percent, where the run states its peak
        MlperfTimeToTrain,   // minutes from the run's MLLOG (an MLPerf run's, or the engine's with mllog =
                             // true)
        Cost,                // ranks x wall time x the price per GPU-hour of the session's cluster
        ColumnCount
    };

    explicit RunTableModel(QObject* parent = nullptr);

    // Replaces all rows in one reset; speedup and efficiency come from runScaling over the same results, each
    // run's cost from `price` (none: "-" in the Cost column).
    void setResults(std::vector<RunResult> results, GpuHourPrice price = {});
    const GpuHourPrice& price() const { return price_; }
    const std::vector<RunResult>& results() const { return results_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Qt::DisplayRole: text as shown ("-" where a run has no figure); Qt::UserRole: the raw number or text.
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    QVariant rawValue(int row, int column) const;

    std::vector<RunResult> results_;
    std::vector<RunScaling> scaling_;
    StepTimeConvention convention_ = StepTimeConvention::SteadyStateMedian; // the results' throughput reading
    std::vector<std::vector<FigureCaution>> cautions_;
    GpuHourPrice price_;
};

} // namespace scalebench
