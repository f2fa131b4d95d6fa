// Scaling of one series (workload, dataset and settings) as a table for the chart to map, one row per rank
// count.
#pragma once

#include "analysis.h"

#include <QAbstractTableModel>
#include <QString>
#include <vector>

namespace scalebench {

class ScalingModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    // Ideal = X(N0) * N / N0, N0 the smallest rank count; Efficiency in percent. SpeedupTwoSigma =
    // 2 stddev(X(N)) / mean(X(N0)) (the speedup's error bar); IdealSpeedup = N / N0; EfficiencyTwoSigma =
    // SpeedupTwoSigma * N0 / N in percent.
    enum Column {
        Ranks,
        SamplesPerS,
        TwoSigma,
        IdealSamplesPerS,
        Speedup,
        Efficiency,
        SpeedupTwoSigma,
        IdealSpeedup,
        EfficiencyTwoSigma,
        ComputeOnlySpeedup, // the speedup with free communication (MLBench task 4's "compute speedup", seed
                            // 004)
        CommunicationShare, // exposed all-reduce / step time, percent
        // For MLPerf runs the next four are MLPerf's: converged runs, the olympic score (in seconds) and the
        // time-to-train speedup score(N0) / score(N), without a two sigma.
        TargetReached, // repeats that reached the target (of those that had one)
        TimeToTarget,  // seconds, mean over the repeats that reached it; 0 where none did
        TimeToTargetTwoSigma,
        TimeToTargetSpeedup, // T(N0) / T(N), mean over repeats; 0 where N or N0 has no time
        TimeToTargetSpeedupTwoSigma,
        MlperfScore, // MLPerf runs: the olympic score in minutes and MLPerf's verdict on the set of runs
        Repeats,     // the repeats at this rank count: a two sigma needs two
        ColumnCount
    };

    explicit ScalingModel(QObject* parent = nullptr);

    // Keeps one series of the points (the one labelled `series`, or the first), sorted by rank count;
    // replaces all rows in one reset. Runs of different series are never charted together.
    void setPoints(std::vector<ScalingPoint> points, const std::string& series = "");
    const std::vector<ScalingPoint>& points() const { return points_; }
    QString workload() const;
    QString dataset() const;
    QString seriesLabel() const; // "resnet20 fashion-mnist" or with the settings that tell it apart

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // Numbers as double for Qt::DisplayRole (what QVXYModelMapper reads). Qt::UserRole, for CSV: the same
    // numbers, but none (an invalid QVariant) for a two sigma of one repeat, or a figure the point does not
    // have; the header's Qt::UserRole names the CSV column with its unit ("samples_per_s_two_sigma").
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<ScalingPoint> points_;
};

} // namespace scalebench
